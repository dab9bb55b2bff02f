"""Simulated games: ``play`` a game or a match, ``advise`` on a board's candidate shots."""

from __future__ import annotations

import argparse
import json

from shuffle_sim.cli._common import UsageError, positive_int
from shuffle_sim.games import game_names, games, get_game


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole simulated game or match: the scoreboard frame by frame, then the scorecard on disk."""
    from pathlib import Path

    from shuffle_sim.playing import (
        SIDES,
        check_format,
        check_game_length,
        check_seed,
        frame_line,
        game_court,
        play,
        players_from,
        write_scorecard,
    )

    players = players_from(args.game, args.players)
    length = check_game_length(args.game, args.game_length)
    check_format(args.game, args.frames, args.championship, length)
    check_seed(args.seed)
    court = game_court(args.game, args.court, players)
    out = Path(args.out) if args.out else Path("results") / f"play-{args.game}-seed{args.seed}"
    what = ("championship " if args.championship else "") + ("match" if args.match else "game")
    if args.frames is not None:
        what += f" of {args.frames} frames"
    on_court = f" on court {court.name}" if args.court is not None else ""
    print(f"{args.game} {what}{on_court}, seed {args.seed}: " + ", ".join(f"{s} {p.name}" for s, p in players.items()))

    def on_frame(number: int, frame) -> None:
        if frame.number == 1:
            print(f"game {number}")
        print(frame_line(frame, SIDES))

    def on_game(game) -> None:
        roles = ", ".join(f"{s} {r}" for s, r in game.roles.items())
        totals = ", ".join(f"{s} {game.totals[s]}" for s in game.sides)
        result = f"won by {game.winner}" if game.winner else ("tied" if game.finished else "unfinished")
        print(f"game {game.number} ({roles}): {result}, {totals}")

    side_a, side_b = players.values()
    record = play(
        args.game,
        (side_a, side_b),
        seed=args.seed,
        match=args.match,
        game_length=args.game_length,
        on_frame=on_frame if not args.quiet else None,
        on_game=on_game,
        court=court,
        frames=args.frames,
        championship=args.championship,
    )
    for note in record.notes:
        print(note)
    if args.match:
        wins = ", ".join(f"{s} {n}" for s, n in record.wins.items())
        print(f"match: {'won by ' + record.winner if record.winner else 'no winner'} (games won: {wins})")
    paths = write_scorecard(record, out, pictures=not args.no_pictures)
    pictures = f"; {len(paths) - 2} frame pictures in {out}" if len(paths) > 2 else ""
    print(f"scorecard: {paths[0]} and {paths[1]}" + pictures)
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    """Rank the candidate shots for a board: success of what each shot means, frame value, win probability."""
    from shuffle_sim.playing.advisor import advise, plot_advice, unreached_line
    from shuffle_sim.playing.player_names import (
        parse_player,
    )
    from shuffle_sim.rules import default_court
    from shuffle_sim.rules.board_file import load_board

    score = _parse_score(args.score)
    board = load_board(args.board, default_court(args.game), args.game)
    player = parse_player(args.game, args.player or get_game(args.game).default_players.split(",")[0])
    ctx, advice = advise(
        args.game,
        board,
        player,
        shooter=args.shooter,
        position=args.position,
        samples=args.samples,
        score=score,
        hammer=args.hammer,
        frames_left=args.frames_left,
        shots_left=args.shots_left,
        game_length=args.game_length,
        frames=args.frames,
        championship=args.championship,
    )
    if args.plot:
        plot_advice(ctx, advice, args.plot, best=args.best)
    situation = ctx.info.get("situation")
    assumed = ctx.info.get("assumed", {})
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "player": player.name,
                    "shooter": ctx.shooter,
                    "position": ctx.info.get("position"),
                    "score": list(score) if score else None,
                    "situation": None if situation is None else situation.describe(),
                    "assumed": assumed,
                    "unreached": unreached_line(ctx, advice),
                    "shots": [a.to_dict() for a in advice],
                }
            )
        )
        return 0
    line = unreached_line(ctx, advice)
    if not advice and line:
        print(line)
        return 0
    ranked = "win probability" if score else "expected frame value"
    samples = advice[0].samples if advice else 0
    print(
        f"{args.game}: {len(advice)} candidate shots for {ctx.shooter} from {ctx.info.get('position')} "
        f"({player.name}), by {ranked}; {samples} sampled executions each, success with its 95% interval"
    )
    if situation is not None:
        print("situation:")
        for fact in situation.describe():
            print(f"  {fact}")
        for name, note in assumed.items():
            print(f"  assumed: {note} (--{name.replace('_', '-')} N says otherwise)")
    win = f" {'win':>5s} {'(95%)':>11s}" if score else ""
    print(f"  {'shot':44s}{win} {'success':>7s} {'(95%)':>11s} {'expected':>8s} {'as meant':>8s} {'spread':>6s}")
    for a in advice:
        w = f" {a.win:5.0%} ({a.win_low:4.0%}-{a.win_high:4.0%})" if score else ""
        print(
            f"  {a.intent.label[:44]:44s}{w} {a.success:7.0%} ({a.success_low:4.0%}-{a.success_high:4.0%}) "
            f"{a.expected:+8.2f} {a.as_meant:+8.1f} {a.spread:6.2f}"
        )
    if line:
        print(line)
    if args.plot:
        print(f"picture: {args.plot}")
    return 0


def _parse_score(text: str | None) -> tuple[int, int] | None:
    """``--score MINE-THEIRS`` as two whole numbers, or None when not given."""
    if text is None:
        return None
    try:
        mine, theirs = (int(v) for v in text.split("-", 1))
    except ValueError:
        raise UsageError(f"--score must be MINE-THEIRS, two whole numbers (got {text!r})") from None
    return mine, theirs


def players_help() -> str:
    """The --players help, with each game's skill presets and default players from the data files."""
    import tomllib

    from shuffle_sim.noise.skills import SKILLS_FILE

    with open(SKILLS_FILE, "rb") as fh:
        skills = tomllib.load(fh)
    by_names: dict[str, list[str]] = {}
    for game in game_names():
        by_names.setdefault(", ".join(n.replace(" ", "-") for n in skills.get(game, {})), []).append(game)
    presets = "; ".join(f"{', '.join(g)}: {names}" for names, g in by_names.items())
    defaults = "; ".join(f"{name}: {entry.default_players}" for name, entry in games().items())
    return (
        "the two players, sides A and B, as A,B (one name alone plays both sides). Each is SKILL[-STRATEGY]: "
        f"SKILL a skill preset of the game from shuffle_sim/noise/skills.toml ({presets}; any game: exact, no "
        "noise); STRATEGY plan (the fixed plan, the default), ev (expected value over simulated candidate "
        "shots; evN weighs each candidate over N sampled errors, default 24) or win (the probability of "
        "winning the game, searched with the rest of the frame simulated; winN spends N simulated shots a "
        "decision; default deck and crokinole 24000, others 6000); a last -flat (expert-ev-flat) aims as if the court "
        f"were flat, where the others read a graded or crowned court's drift. Default: {defaults}"
    )


def register(sub) -> None:
    """Add this module's subcommands to the parser's subparsers ``sub``."""
    _add_play(sub)
    _add_advise(sub)


def _add_play(sub) -> None:
    """The ``play`` subcommand: a whole simulated game or match, its scorecard and pictures."""
    p = sub.add_parser(
        "play",
        help="play a whole simulated game or match; write its scorecard and pictures",
        description="Play a whole simulated game (or match) between two simulated players, print "
        "the scoreboard frame by frame, and write scorecard.json, scorecard.csv and a "
        "picture of each frame's final board (gameG-frameFF.png) into --out.",
    )
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("--players", default=None, metavar="A,B", help=players_help())
    p.add_argument("--seed", type=int, default=0, help="seed of the players' execution errors (default 0)")
    p.add_argument(
        "--court",
        default=None,
        metavar="NAME|PATH",
        help="the court or table to play on: a court name or court file of the game (default the game's "
        "own; for example courts/deck-drifting.toml). Win players need a flat court",
    )
    p.add_argument(
        "--match",
        action="store_true",
        help="play a match: deck best of three (lag for game 3), crokinole the category's games "
        "(singles 10; a championship, best of three), horse collar and ricochet best of three",
    )
    p.add_argument(
        "--out", default=None, help="folder for the scorecard and pictures (default results/play-GAME-seedN)"
    )
    p.add_argument(
        "--game-length",
        type=positive_int,
        default=None,
        metavar="N",
        help="game point (deck 75, horse-collar 51, ricochet 15 or 21) or rounds (crokinole 4)",
    )
    _add_format(p)
    p.add_argument("--no-pictures", action="store_true", help="write the scorecard only")
    p.add_argument("--quiet", action="store_true", help="print game results only, not every frame")
    p.set_defaults(func=cmd_play)


def _add_format(p, prefix: str = "") -> None:
    """The game formats beside a game point or a number of rounds: ``--frames`` and ``--championship``."""
    p.add_argument(
        "--frames",
        type=positive_int,
        default=None,
        metavar="N",
        help=f"{prefix}deck: a game of N frames (half-rounds; MSA C-1: 12, 16, 24 or 36) instead of a game "
        "point, the higher score winning after the last (24 and 36: the sides switch colours at half way)",
    )
    p.add_argument(
        "--championship",
        action="store_true",
        help=f"{prefix}crokinole: a championship game, which plays a 5th round (and more) while level after "
        "its rounds" + ("" if prefix else "; with --match, best two of three games"),
    )


def _add_advise(sub) -> None:
    """The ``advise`` subcommand: the candidate shots for a board, ranked."""
    p = sub.add_parser("advise", help="rank the candidate shots for a board (success, frame value, win probability)")
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("board", help="board file (JSON, as for score): the resting discs")
    p.add_argument(
        "--player",
        default=None,
        metavar="SKILL[-STRATEGY]",
        help="the shooter's skill preset (default: the game's first default player)",
    )
    p.add_argument(
        "--shooter",
        default=None,
        metavar="TEAM",
        help="the shooter's team label in the board file (default: the game's first side)",
    )
    p.add_argument(
        "--from",
        dest="position",
        default=None,
        metavar="POSITION",
        help="where the shooter shoots from: crokinole seat (south, west, north, east), ricochet "
        "half (left, right), deck half of the 10-off area as the shooter sees it (right, left); "
        "default: the rules' place for the shooter's colour and end (MSA C-3)",
    )
    p.add_argument("--best", type=positive_int, default=3, metavar="N", help="shots drawn by --plot (default 3)")
    p.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        metavar="N",
        help="sampled executions per shot (default 1068: success within +-3 points at 95%%)",
    )
    p.add_argument(
        "--score",
        default=None,
        metavar="MINE-THEIRS",
        help="the game's score (shooter first): rank by the probability of winning the game",
    )
    p.add_argument("--hammer", action="store_true", help="with --score: the shooter has the last shot of the frame")
    p.add_argument(
        "--frames-left",
        type=int,
        default=None,
        metavar="N",
        help="with --score: crokinole rounds left after this one (default: from the score, a round "
        "giving 2 round points); with --frames, the deck frames left after this one (needed)",
    )
    p.add_argument(
        "--shots-left",
        type=int,
        default=None,
        metavar="N",
        help="with --score: deck and crokinole shots left in the frame after this one (default: the "
        "fewest the board allows with --hammer, each disc on it and each 20 set aside shot once); the "
        "situation assumed is printed",
    )
    p.add_argument(
        "--game-length",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --score: game point (deck 75, horse-collar 51, ricochet 15) or rounds (crokinole 4)",
    )
    _add_format(p, "with --score: ")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--plot", default=None, metavar="FILE", help="draw the board and the best shots (PNG, SVG, PDF)")
    p.set_defaults(func=cmd_advise)
