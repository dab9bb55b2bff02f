"""Timing helpers shared by the benchmark commands (rates measured side by side in one run)."""

from __future__ import annotations

import math
import time

from shuffle_sim._runtime.threads import numba_threads


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
    with numba_threads(threads):
        return measure()
