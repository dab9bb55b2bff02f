"""Games benchmark: ``shuffle-sim bench-games [--json]``, whole simulated deck games per second.

Two fixed-plan players of one skill preset (``average`` by default) play singles deck games to 75
(MSA rules: eight discs a half-round, removals after every shot, C-20a, D-3, D-4) in the numba
engine, ``deck_engine.deck_games_kernel``: a ``prange`` over games, each game's loop in numba,
Python called once per batch. Measured on all cores and on one thread (``numba.set_num_threads``),
the best of a few runs, after a warm-up run that compiles or loads the engine outside the clock.
Beside it, the Python driver that plays the same games shot by shot through the rules layer
(``playing.deck.play_deck_game``, the engine's oracle), timed over a few games, and the ratio.

Target (a benchmark, not a test): at least 1000 games per second on 2 cores. Nothing here asserts
it; it prints the numbers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from shuffle_sim._runtime.threads import numba_thread_limit
from shuffle_sim.bench._timing import best_rate, with_threads
from shuffle_sim.court import load_court
from shuffle_sim.playing.deck_engine import DeckGames, run_deck_games
from shuffle_sim.playing.player_names import (
    parse_players,
)
from shuffle_sim.playing.players import (
    noise_vector,
)

TARGET_GAMES_PER_S = 1000


@dataclass(frozen=True)
class GamesBenchSizes:
    games: int = 4000
    repeats: int = 3
    python_games: int = 5


FULL = GamesBenchSizes()
QUICK = GamesBenchSizes(games=100, repeats=1, python_games=1)


def run_bench(sizes: GamesBenchSizes = FULL, skill: str = "average", seed: int = 0) -> dict:
    """Games per second of the numba engine (all cores, one thread) and of the Python driver."""
    from shuffle_sim.playing.deck import play_deck_game
    from shuffle_sim.playing.shooting import one_numba_thread
    from shuffle_sim.rules.deck_game import DeckGame

    court = load_court("deck")
    players = parse_players("deck", f"{skill}-plan,{skill}-plan")
    noise = np.array([noise_vector(p.skill) for p in players])
    run_deck_games(court, noise, seed, 2)  # compile or load before the clock starts
    last: list[DeckGames] = []

    def run():
        last[:] = [run_deck_games(court, noise, seed, sizes.games)]

    cores = numba_thread_limit()
    everyone = with_threads(cores, lambda: best_rate(run, sizes.games, sizes.repeats))
    one = with_threads(1, lambda: best_rate(run, sizes.games, sizes.repeats))
    games = last[0]
    by_side = dict(zip(("A", "B"), players))
    with one_numba_thread():
        play_deck_game(DeckGame("A", "B"), by_side, seed, 0)  # warm-up
        began = time.perf_counter()
        for g in range(sizes.python_games):
            play_deck_game(DeckGame("A", "B"), by_side, seed, g)
        python_rate = sizes.python_games / (time.perf_counter() - began)
    return {
        "skill": skill,
        "cores": cores,
        "games": sizes.games,
        "engine_games_per_s": everyone,
        "engine_1thread_games_per_s": one,
        "half_rounds_per_game": float(games.n_entries.mean()),
        "shots_per_game": float(games.shots.mean()),
        "shots_per_s": everyone * float(games.shots.mean()),
        "unfinished": int((games.winners < 0).sum()),
        "python_driver_games_per_s": python_rate,
        "ratio": everyone / python_rate,
        "target_games_per_s": TARGET_GAMES_PER_S,
    }


def format_report(report: dict) -> str:
    return "\n".join(
        [
            f"deck games to 75, fixed-plan players ({report['skill']}), {report['games']:,} games per run",
            (
                f"  numba engine, {report['cores']} cores: {report['engine_games_per_s']:12,.0f} games/s "
                f"({report['shots_per_s']:,.0f} shots/s)"
            ),
            f"  numba engine, 1 thread: {report['engine_1thread_games_per_s']:14,.0f} games/s",
            f"  Python driver (rules layer): {report['python_driver_games_per_s']:9,.2f} games/s",
            f"  ratio engine / Python driver: {report['ratio']:8,.0f}",
            (
                f"  per game: {report['half_rounds_per_game']:.1f} half-rounds, {report['shots_per_game']:.1f} shots; "
                f"unfinished games: {report['unfinished']}"
            ),
            f"  target: >= {report['target_games_per_s']:,} games/s on 2 cores",
        ]
    )
