"""Games for programs in any language: ``serve`` a game in the shot protocol, ``replay`` a served game."""

from __future__ import annotations

import argparse
import sys

from shuffle_sim.cli._common import positive_int
from shuffle_sim.games import game_names

SIDES = ("A", "B")


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve one game in the shot protocol (JSON lines) on standard input and output, or a WebSocket."""
    from pathlib import Path

    from shuffle_sim.envs import GameSession
    from shuffle_sim.envs.serving import serve_socket, serve_streams
    from shuffle_sim.envs.session import other
    from shuffle_sim.playing.player_names import (
        as_player,
    )

    players = dict.fromkeys(SIDES)
    if args.opponent is not None:
        players[other(args.side)] = as_player(args.game, args.opponent)
    skills = {side: args.skill for side in SIDES if players[side] is None} if args.skill else None
    session = GameSession(args.game, players, args.seed, 0, args.game_length, args.court, skills)
    replay = Path(args.replay) if args.replay else Path("results") / f"serve-{args.game}-seed{args.seed}.json"
    clients = ", ".join(side for side in SIDES if players[side] is None)
    opponent = f"; {other(args.side)} is {session.player_name(other(args.side))}" if args.opponent else ""
    if args.port is None:
        print(f"shuffle-sim: serving {args.game} (seed {args.seed}) on standard input and output: side {clients}"
              f"{opponent}", file=sys.stderr)  # fmt: skip
        result = serve_streams(session, replay)
    else:

        def on_listen(address: str) -> None:
            print(f"shuffle-sim: serving {args.game} (seed {args.seed}) on {address} (sides {clients} in the order "
                  f"clients connect{opponent})", file=sys.stderr, flush=True)  # fmt: skip

        result = serve_socket(session, replay, args.host, args.port, on_listen)
    ending = f"won by {result['winner']}" if result["winner"] else ("tied" if result["terminated"] else "stopped")
    print(f"shuffle-sim: game {ending}, {result['score']}; replay {result['replay']}", file=sys.stderr)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-simulate a served game from its replay file, say whether it is the same bit for bit, and draw it."""
    from pathlib import Path

    from shuffle_sim.envs.replays import compare, read_replay, replay_record, resimulate
    from shuffle_sim.playing import frame_line, write_scorecard

    data = read_replay(args.file)
    session = resimulate(data)
    result = compare(data, session)
    record = replay_record(data, session)
    for frame in record.games[0].frames:
        print(frame_line(frame, SIDES))
    out = Path(args.out) if args.out else Path("results") / f"replay-{Path(args.file).stem}"
    paths = write_scorecard(record, out, pictures=not args.no_pictures)
    pictures = f"; {len(paths) - 2} frame pictures in {out}" if len(paths) > 2 else ""
    print(f"scorecard: {paths[0]} and {paths[1]}" + pictures)
    if not result.identical:
        print(f"shuffle-sim: replay {args.file}: re-simulated, not the same game: {result.difference}", file=sys.stderr)
        return 1
    print(f"{args.file}: {result.shots} shots re-simulated, the same game bit for bit")
    return 0


def register(sub) -> None:
    """Add this module's subcommands to the parser's subparsers ``sub``."""
    p = sub.add_parser(
        "serve",
        help="serve a game to programs in any language (JSON lines, or a WebSocket); write its replay",
        description="Serve one game in the shot protocol: the state out, a shot in, the rulings back, one JSON "
        "object per line on standard input and output (or per message over a WebSocket with --port). Clients "
        "play the sides no --opponent plays. Every game writes a replay (--replay). The protocol and a "
        "complete client: docs, 'Game environments and the shot protocol'.",
    )
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument(
        "--opponent",
        default=None,
        metavar="PLAYER",
        help="a built-in player (as play --players names one: expert-plan, top-competitive-ev) plays the side "
        "that is not --side; default: clients play both sides",
    )
    p.add_argument("--side", choices=SIDES, default="A", help="the client's side when --opponent is given (default A)")
    p.add_argument(
        "--skill",
        default=None,
        metavar="PRESET",
        help="the clients' execution noise: a skill preset of the game or exact (default the game's best)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the execution errors (default 0)")
    p.add_argument("--game-length", type=positive_int, default=None, metavar="N", help="game point or rounds")
    p.add_argument("--court", default=None, metavar="NAME|PATH", help="a court of the game (default its own)")
    p.add_argument(
        "--replay", default=None, metavar="FILE", help="the replay file (default results/serve-GAME-seedN.json)"
    )
    p.add_argument("--port", type=int, default=None, help="serve over a WebSocket on this port (0: any free port)")
    p.add_argument("--host", default="127.0.0.1", help="the WebSocket's address (default 127.0.0.1)")
    p.set_defaults(func=cmd_serve)

    r = sub.add_parser(
        "replay",
        help="re-simulate a served game from its replay file and draw it",
        description="Play a served game again from its replay file (seed, launches as meant, noise), check that "
        "it is the recorded game bit for bit (exit status 1 if not), and write its scorecard and a picture of "
        "each frame's final board into --out.",
    )
    r.add_argument("file", help="a replay file written by shuffle-sim serve")
    r.add_argument("--out", default=None, help="folder for the scorecard and pictures (default results/replay-NAME)")
    r.add_argument("--no-pictures", action="store_true", help="write the scorecard only")
    r.set_defaults(func=cmd_replay)
