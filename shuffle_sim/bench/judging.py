"""Benchmark of the judging kernel: disc classifications per second on the deck court.

``shuffle-sim bench-judge`` runs ``judge_batch`` on ``n`` disc centres drawn uniformly over the
foot end of the deck court (full width, from 2 ft short of the far dead line to the foot end: the
scoring diagram, the lines, the dead areas and the 10-off), after warming the JIT, once with one
thread and once with all of numba's threads (``numba.set_num_threads``), and reports the best of
``repeats`` runs for each. It also checks that both runs judged every disc identically. This is a
measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import time

import numpy as np

from shuffle_sim._runtime.threads import numba_thread_limit, numba_threads
from shuffle_sim.court import load_court
from shuffle_sim.judging import judge_batch
from shuffle_sim.judging.cell_grid import GRID_DISCS_PER_CELL, GRID_MAX_CELLS, judge_grid
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import MIXED, judge_prepare
from shuffle_sim.units import FOOT

DEFAULT_N = 4_000_000
DEFAULT_REPEATS = 5
#: The target for ``judge_batch`` on the deck court with two cores (discs per second).
TARGET_RATE = 20e6


def bench_positions(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Disc centres uniform over the deck court's foot end: |x| <= 3 ft, 30 ft <= y <= 52 ft."""
    rng = np.random.default_rng(seed)
    return rng.uniform(-3 * FOOT, 3 * FOOT, n), rng.uniform(30 * FOOT, 52 * FOOT, n)


def _plain_fraction(court, xs: np.ndarray, ys: np.ndarray) -> float:
    """Share of the discs centred in a plain grid cell (judged without the full procedure)."""
    a = judge_arrays(court)
    x0, y0, size, nx, ny, codes = judge_grid(a, judge_prepare(a), min(GRID_MAX_CELLS, len(xs) // GRID_DISCS_PER_CELL))
    if nx == 0:
        return 0.0
    fx = np.floor((xs - x0) / size)
    fy = np.floor((ys - y0) / size)
    inside = (fx >= 0) & (fy >= 0) & (fx < nx) & (fy < ny)
    idx = (fy[inside] * nx + fx[inside]).astype(np.int64)
    return float(np.count_nonzero(codes[idx] != MIXED)) / len(xs)


def run_bench(n: int = DEFAULT_N, repeats: int = DEFAULT_REPEATS, seed: int = 0) -> dict:
    """Measure ``judge_batch`` on the deck court with one thread and with all threads.

    Returns a dict: court, n, repeats, threads (one and all), rates in discs per second for each,
    the speed-up, the target and whether the all-threads rate meets it, whether the two runs judged
    every disc identically, and the share of discs centred in plain grid cells.
    """

    if n < 1:
        raise ValueError(f"n must be a positive number of discs, got {n!r}")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats!r}")
    court = load_court("deck")
    xs, ys = bench_positions(n, seed)
    all_threads = numba_thread_limit()
    judge_batch(court, xs[:1000], ys[:1000])  # compile (or load from cache) before timing
    rates = {}
    results = {}
    for threads in sorted({1, all_threads}):
        with numba_threads(threads):
            judge_batch(court, xs, ys)  # warm: caches and thread pool
            best = float("inf")
            for _ in range(repeats):
                start = time.perf_counter()
                result = judge_batch(court, xs, ys)
                best = min(best, time.perf_counter() - start)
        rates[threads] = n / best
        results[threads] = result
    one, many = results[1], results[all_threads]
    identical = all(
        np.array_equal(getattr(one, f), getattr(many, f))
        for f in ("value", "zone", "touching", "dead", "hanger", "fallen", "holed")
    )
    rate_all = rates[all_threads]
    return {
        "court": court.name,
        "n": n,
        "repeats": repeats,
        "threads": [1, all_threads],
        "rate_1_thread": rates[1],
        "rate_all_threads": rate_all,
        "speedup": rate_all / rates[1],
        "target_rate": TARGET_RATE,
        "meets_target": rate_all >= TARGET_RATE,
        "identical_across_threads": identical,
        "plain_cell_fraction": _plain_fraction(court, xs, ys),
    }


def format_report(report: dict) -> str:
    """The benchmark's result as a few lines of text (``shuffle-sim bench-judge``)."""
    all_threads = report["threads"][1]
    lines = [
        f"judge_batch on the {report['court']} court: {report['n']:,} discs (foot end), best of {report['repeats']}",
        f"  1 thread   : {report['rate_1_thread'] / 1e6:8.2f} M discs/s",
        f"  {all_threads} thread{'s' if all_threads > 1 else ' '}  : {report['rate_all_threads'] / 1e6:8.2f} M discs/s"
        f"  ({report['speedup']:.2f}x)",
        f"  target {report['target_rate'] / 1e6:g} M/s with all threads: "
        f"{'met' if report['meets_target'] else 'NOT met'}",
        f"  identical results on 1 and {all_threads} threads: {'yes' if report['identical_across_threads'] else 'NO'}",
        f"  discs in plain grid cells: {100 * report['plain_cell_fraction']:.1f}%",
    ]
    return "\n".join(lines)
