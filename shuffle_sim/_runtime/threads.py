"""Shares of a batch on several threads: the Python side of ``jit.threaded`` kernels.

A ``jit.threaded`` kernel runs one share of a batch (a range of blocks of shots, say) and lets go of
Python's lock, so that several Python threads can each run a share at the same time on their own
cores. ``run_shares`` splits ``n`` items into one contiguous share per thread (the split numba's
``prange`` makes with its default static schedule) and runs them, the last share in the calling
thread. Each item's result is written to its own place, so the results do not depend on the number
of threads.

The thread count is numba's (``numba.get_num_threads``), so that ``numba.set_num_threads(1)`` in a
worker process keeps that process on one core, as it does for ``prange`` loops.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Tasks for the worker threads: (function, arguments, the caller's answer queue).
_tasks: queue.SimpleQueue = queue.SimpleQueue()
_workers: list[threading.Thread] = []
_workers_lock = threading.Lock()


def _work() -> None:
    while True:
        function, args, answer = _tasks.get()
        try:
            function(*args)
            answer.put(None)
        except BaseException as exc:
            answer.put(exc)


def _ensure_workers(count: int) -> None:
    """At least ``count`` worker threads, started once and kept: daemons, so that a finished command
    leaves at once (``quick_exit``) with them idle."""
    with _workers_lock:
        while len(_workers) < count:
            worker = threading.Thread(target=_work, name=f"shuffle-sim-share-{len(_workers)}", daemon=True)
            worker.start()
            _workers.append(worker)


def share_bounds(n: int, shares: int) -> list[tuple[int, int]]:
    """``shares`` contiguous ranges covering ``0 .. n - 1`` whose lengths differ by at most one (none
    empty unless ``n < shares``)."""
    shares = max(1, min(shares, n)) if n > 0 else 1
    size, extra = divmod(n, shares)
    bounds, lo = [], 0
    for k in range(shares):
        hi = lo + size + (1 if k < extra else 0)
        bounds.append((lo, hi))
        lo = hi
    return bounds


def run_shares(kernel, n: int, *args, threads: int | None = None) -> None:
    """Call ``kernel(lo, hi, *args)`` for contiguous shares ``lo .. hi - 1`` of ``0 .. n - 1``, one per
    thread (``threads``, default numba's thread count), and wait for all of them; an exception in
    any share is raised here."""
    if threads is None:
        import numba

        threads = numba.get_num_threads()
    bounds = share_bounds(n, threads)
    if len(bounds) == 1:
        kernel(bounds[0][0], bounds[0][1], *args)
        return
    _ensure_workers(len(bounds) - 1)
    answers: queue.SimpleQueue = queue.SimpleQueue()
    for lo, hi in bounds[:-1]:
        _tasks.put((kernel, (lo, hi, *args), answers))
    error = None
    try:
        kernel(bounds[-1][0], bounds[-1][1], *args)
    finally:
        for _ in bounds[:-1]:  # every share ends before the arrays they write are handed back
            outcome = answers.get()
            error = error or outcome
    if error is not None:
        raise error


def numba_thread_limit() -> int:
    """The most threads numba may use in this process (``NUMBA_NUM_THREADS``, read at its import):
    the ceiling of ``numba.set_num_threads``."""
    import numba

    # numba sets its config's values from the environment at import; its type information does not list them.
    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


@contextmanager
def numba_threads(count: int) -> Iterator[None]:
    """numba limited to ``count`` threads while the block runs, then its previous count again."""
    import numba

    previous = numba.get_num_threads()
    if previous == count:  # already so (a game's shot inside its game): nothing to set or restore
        yield
        return
    numba.set_num_threads(count)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def one_numba_thread():
    """numba on one thread for a while: a game or the lab calls it for a few discs at a time, and
    waking a thread pool for each call costs more than the work (results do not depend on the thread
    count)."""
    return numba_threads(1)
