"""Timing helpers shared by the benchmark commands (rates measured side by side in one run)."""

from __future__ import annotations

import math
import time

import numba


def best_rate(run, count: int, repeats: int) -> float:
    """Best items per second over ``repeats`` runs of ``run()``, each handling ``count`` items."""
    best = math.inf
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - began)
    return count / best


def with_threads(threads: int, measure):
    """Call ``measure()`` with numba limited to ``threads`` threads, then restore the previous count."""
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        return measure()
    finally:
        numba.set_num_threads(previous)
