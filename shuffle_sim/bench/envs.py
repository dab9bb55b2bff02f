"""Game environments benchmark: ``shuffle-sim bench-envs [--json]``, random-agent steps per second.

For each game an agent drawing uniform random actions from the action space (a seeded generator)
plays whole games in ``envs.make`` (a new game as each ends) against the game's best skill with the
fixed plan (``expert-plan``, crokinole ``top-competitive-plan``) and with the expected-value
strategy (``-ev``). A step is one agent shot and the opponent's shots until the agent's next turn.
The steps run in ``workers`` processes at once (one per core: the environments run numba on one
thread), each after a warm-up outside the clock, all starting their clocks together; the rate is
all workers' steps over the longest worker's time. On a busy machine the workers get less than their
cores, so the steps per CPU-second of a worker are printed too (a free core's rate). Beside them,
the share of the time spent in the physics: the kernel's calls for the game's shots
(``playing.shooting``), the players' batches of simulated shots (``shots.simulate_shots``) and
their solved banks (``physics.simulate``).

Target (a benchmark, not a test): at least 1000 steps per second on 2 cores for deck and
crokinole against the plan opponent. Nothing here asserts it; it prints the numbers.
"""

from __future__ import annotations

import importlib
import multiprocessing
import queue
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from shuffle_sim.games import game_names

TARGET_STEPS_PER_S = 1000
TARGET_GAMES = ("deck", "crokinole")
#: The entry points into the physics kernel that a game's steps reach: (module, name).
PHYSICS_CALLS = (
    ("shuffle_sim.playing.shooting", "run_from_start"),
    ("shuffle_sim.playing.shooting", "simulate"),
    ("shuffle_sim.playing.players.strategies", "simulate_shots"),
    ("shuffle_sim.playing.players.repertoire", "simulate_shots"),
    ("shuffle_sim.playing.players.reading", "read_rows"),
    ("shuffle_sim.playing.players.reading", "simulate"),
    ("shuffle_sim.physics", "simulate"),
)


@dataclass(frozen=True)
class EnvBenchSizes:
    plan_steps: int = 3000  # per worker
    ev_steps: int = 60
    warmup_steps: int = 50
    workers: int = 2


FULL = EnvBenchSizes()
QUICK = EnvBenchSizes(plan_steps=300, ev_steps=10, warmup_steps=20)


class PhysicsClock:
    """Seconds spent inside the physics entry points (``PHYSICS_CALLS``) while ``timing``."""

    def __init__(self):
        self.seconds = 0.0

    def timed(self, function):
        def call(*args, **kwargs):
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - began

        return call

    @contextmanager
    def timing(self):
        swapped = []
        for module_name, name in PHYSICS_CALLS:
            module = importlib.import_module(module_name)
            original = getattr(module, name)
            setattr(module, name, self.timed(original))
            swapped.append((module, name, original))
        try:
            yield self
        finally:
            for module, name, original in swapped:
                setattr(module, name, original)


def opponent_for(game: str, strategy: str) -> str:
    """The game's best skill with ``strategy`` ("plan" or "ev")."""
    from shuffle_sim.playing.player_names import (
        default_skill,
    )

    return f"{default_skill(game).replace(' ', '-')}-{strategy}"


def random_steps(env, rng: np.random.Generator, steps: int) -> int:
    """``steps`` random-agent steps in ``env`` (a new game as each ends); returns the games finished."""
    low, high = env.action_space.low, env.action_space.high
    games = 0
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(rng.uniform(low, high).astype(np.float32))
        if terminated or truncated:
            games += 1
            env.reset()
    return games


def _worker(game: str, opponent: str, steps: int, warmup: int, seed: int, start, results) -> None:
    """One worker: warm up, wait for the others, then time ``steps`` steps."""
    from shuffle_sim import envs

    env = envs.make(game, opponent=opponent, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    random_steps(env, rng, warmup)
    clock = PhysicsClock()
    start.wait()
    with clock.timing():
        began, cpu = time.perf_counter(), time.process_time()
        games = random_steps(env, rng, steps)
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    results.put(
        {"steps": steps, "seconds": seconds, "cpu_seconds": cpu, "physics_seconds": clock.seconds, "games": games}
    )


def _result(results, processes, game: str, opponent: str) -> dict:
    """The next worker's figures; a worker that died first is an error naming it, not a wait forever."""
    while True:
        try:
            return results.get(timeout=1.0)
        except queue.Empty:
            dead = [p for p in processes if p.exitcode not in (None, 0)]
            if dead:
                for process in processes:
                    process.kill()
                raise RuntimeError(
                    f"bench-envs: a worker for {game} against {opponent} stopped with exit code "
                    f"{dead[0].exitcode} (its traceback is above)"
                ) from None


def measure(game: str, opponent: str, steps: int, warmup: int, workers: int, seed: int = 0) -> dict:
    """Random-agent steps per second of ``workers`` processes at once against ``opponent``."""
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(workers)
    results = context.Queue()
    processes = [
        context.Process(target=_worker, args=(game, opponent, steps, warmup, seed + k, start, results))
        for k in range(workers)
    ]
    for process in processes:
        process.start()
    runs = [_result(results, processes, game, opponent) for _ in processes]
    for process in processes:
        process.join()
    wall = max(run["seconds"] for run in runs)
    total = sum(run["steps"] for run in runs)
    return {
        "game": game,
        "opponent": opponent,
        "workers": workers,
        "steps": total,
        "games_finished": sum(run["games"] for run in runs),
        "steps_per_s": total / wall,
        "steps_per_cpu_s": total / sum(run["cpu_seconds"] for run in runs),
        "physics_share": sum(run["physics_seconds"] for run in runs) / sum(run["seconds"] for run in runs),
    }


def run_bench(sizes: EnvBenchSizes = FULL, games: tuple[str, ...] | None = None, seed: int = 0) -> dict:
    """Every game against its plan and ev opponents (module docstring)."""
    rows = []
    for game in games or game_names():
        for strategy, steps in (("plan", sizes.plan_steps), ("ev", sizes.ev_steps)):
            rows.append(measure(game, opponent_for(game, strategy), steps, sizes.warmup_steps, sizes.workers, seed))
    return {"workers": sizes.workers, "target_steps_per_s": TARGET_STEPS_PER_S, "rows": rows}


def format_report(report: dict) -> str:
    lines = [
        f"random-agent steps per second, {report['workers']} worker processes at once "
        f"(target {report['target_steps_per_s']} for {' and '.join(TARGET_GAMES)} against the plan player)",
        f"  {'game':14s}{'opponent':26s}{'steps/s':>10s}{'per cpu-s':>11s}{'physics':>9s}{'steps':>8s}{'games':>7s}",
    ]
    for row in report["rows"]:
        lines.append(
            f"  {row['game']:14s}{row['opponent']:26s}{row['steps_per_s']:10.1f}{row['steps_per_cpu_s']:11.1f}"
            f"{row['physics_share']:9.0%}{row['steps']:8d}{row['games_finished']:7d}"
        )
    return "\n".join(lines)
