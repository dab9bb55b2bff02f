"""The win tables' data files made by self-play: whole games of a player against itself, each frame's
outcome counted, the table computed for the game's usual length and stored with its provenance
(``win_tables`` reads them)::

    python -m shuffle_sim.playing.search.table_making            # all four games, default sizes
    python -m shuffle_sim.playing.search.table_making crokinole --games 200 --seed 0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from shuffle_sim.playing.player_names import parse_player
from shuffle_sim.playing.search.self_play import play_rules_game
from shuffle_sim.playing.search.win_tables import (
    DATA_DIR,
    SELF_PLAY,
    WinTableError,
    _digest,
    _pack,
    compute_table,
    data_path,
)


def frame_outcomes(game: str, rules_game) -> list[tuple[int, ...]]:
    """The frame outcomes of one finished game, read from the rules' game object (module docstring)."""
    out: list[tuple[int, ...]] = []
    if game == "deck":
        for entry in rules_game.scoreboard:
            lead = rules_game.side_of(entry.lead) if entry.lead in ("yellow", "black") else entry.lead
            hammer = next(s for s in rules_game.sides if s != lead)
            out.append((entry.total(lead), entry.total(hammer), int(entry.replayed)))
        return out
    if game == "crokinole":
        for k, entry in enumerate(rules_game.rounds):
            first = rules_game.seats[k % len(rules_game.seats)][0]
            hammer = next(s for s in rules_game.sides if s != first)
            out.append((entry.totals[first], entry.totals[hammer]))
        return out
    if game == "horse-collar":
        return [(entry.points,) for entry in rules_game.scoreboard]
    if game == "ricochet":
        return [
            (entry.points[entry.starter], sum(v for p, v in entry.points.items() if p != entry.starter))
            for entry in rules_game.scoreboard
        ]
    raise WinTableError(f"game must be one of deck, crokinole, horse-collar, ricochet (got {game!r})")


def collect(game: str, players: str, games: int, seed: int, length: int, progress=None) -> list[tuple[int, ...]]:
    """Play ``games`` games of ``players`` against themselves (game g with seed ``seed``, game index g,
    the first side alternating) and return every frame's outcome."""
    player = parse_player(game, players)
    rows = []
    for g in range(games):
        rules_game = play_rules_game(game, (player, player), seed, g, length)
        rows += frame_outcomes(game, rules_game)
        if progress:
            progress(g + 1, games)
    return rows


def build(game: str, rows: list[tuple[int, ...]], provenance: dict, length: int) -> dict:
    """The data file's content: outcomes with counts, provenance, and the table for ``length``."""
    from collections import Counter

    counted = sorted(Counter(rows).items())
    table_rows = [[*row, count] for row, count in counted]
    outcomes = np.array([row for row, _ in counted], dtype=np.int64)
    counts = np.array([count for _, count in counted], dtype=np.float64)
    probs = counts / counts.sum()
    table = compute_table(game, outcomes, probs, length)
    return {
        "game": game,
        "provenance": provenance,
        "frames": {"columns": _COLUMNS[game] + ["count"], "rows": table_rows, "total": int(counts.sum())},
        "table": {"length": int(length), "digest": _digest(outcomes, probs), "arrays": _pack(table)},
    }


_COLUMNS = {
    "deck": ["lead side's points", "hammer side's points", "replayed"],
    "crokinole": ["first shooter's round total", "hammer's round total"],
    "horse-collar": ["thrower's frame points"],
    "ricochet": ["starter's points", "other's points"],
}


def provenance_of(game: str, players: str, games: int, seed: int, length: int) -> dict:
    from shuffle_sim._version import __version__
    from shuffle_sim.court import load_court
    from shuffle_sim.games import get_game

    court = load_court(get_game(game).court)
    return {
        "court": court.name,
        "court_file": Path(court.source_path).name,
        "court_params": {k: v for k, v in sorted(court.params.items()) if isinstance(v, (int, float, str))},
        "players": f"{players},{players}",
        "seed": seed,
        "games": games,
        "game_length": length,
        "package_version": __version__,
        "command": f"python -m shuffle_sim.playing.search.table_making {game} --games {games} --seed {seed}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m shuffle_sim.playing.search.table_making",
        description="Remake the win-probability tables of the win players by self-play.",
    )
    parser.add_argument("game", nargs="*", default=list(SELF_PLAY), help="games (default: all four)")
    parser.add_argument("--games", type=int, default=None, help="games of self-play (default per game)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the self-play (default 0)")
    parser.add_argument("--players", default=None, help="the self-play player (default per game)")
    args = parser.parse_args(argv)
    for game in args.game:
        if game not in SELF_PLAY:
            print(f"win_tables: error: game must be one of {', '.join(SELF_PLAY)} (got {game!r})", file=sys.stderr)
            return 2
        plan = SELF_PLAY[game]
        games = args.games or plan["games"]
        players = args.players or plan["players"]
        began = time.perf_counter()

        def progress(done, total, game=game):
            print(f"\r{game}: {done}/{total} games", end="", file=sys.stderr, flush=True)

        rows = collect(game, players, games, args.seed, plan["length"], progress)
        data = build(game, rows, provenance_of(game, players, games, args.seed, plan["length"]), plan["length"])
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        with open(data_path(game), "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
            fh.write("\n")
        print(
            f"\r{game}: {len(rows)} frames from {games} games in {time.perf_counter() - began:.0f} s -> "
            f"{data_path(game)}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
