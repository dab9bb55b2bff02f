"""Judging a batch of discs: from Python in shares on several threads (``judge_discs``), from numba
code in a ``prange`` loop over chunks (``judge_ranges``); and the grids kept per court.

The grid of a batch is remembered for the next batches on the same court (``cached_judge_index``),
keyed by the packed court's contents, so a changed court never meets a stale grid (a packing is never
changed in place: a changed court is a new court with a packing of its own).
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import run_shares
from shuffle_sim.judging import grid_build
from shuffle_sim.judging.cell_grid import GRID_DISCS_PER_CELL, GRID_MAX_CELLS, GRID_MIN_CELLS, judge_point
from shuffle_sim.judging.packing import JudgeArrays

#: Discs per call of ``judge_range`` in the parallel loop of ``judge_ranges``.
JUDGE_CHUNK = 1024


@jit.threaded
def judge_range(start, stop, xs, ys, a, prepared, index, value, zone, touching, dead, hanger, fallen, holed):
    """Judge discs ``start`` to ``stop`` into the output arrays, with ``prepared = judge_prepare(a)``
    and the grid ``index`` (``judge_index``). Compiled without reference counting: it allocates
    nothing, and counting the references of the court's arrays for every disc would cost more than
    judging it. It lets go of Python's lock, so that Python threads judge shares of a batch at once
    (``judge_discs``)."""
    for i in range(start, stop):
        v, z, t, d, h, f, o = judge_point(xs[i], ys[i], a, prepared, index)
        value[i] = v
        zone[i] = z
        touching[i] = t
        dead[i] = d
        hanger[i] = h
        fallen[i] = f
        holed[i] = o


@jit.parallel
def judge_ranges(xs, ys, a, prepared, index, value, zone, touching, dead, hanger, fallen, holed):
    """``judge_range`` over every disc, in parallel over chunks of ``JUDGE_CHUNK`` discs."""
    n = xs.shape[0]
    for c in prange((n + JUDGE_CHUNK - 1) // JUDGE_CHUNK):
        judge_range(
            c * JUDGE_CHUNK,
            min(n, (c + 1) * JUDGE_CHUNK),
            xs,
            ys,
            a,
            prepared,
            index,
            value,
            zone,
            touching,
            dead,
            hanger,
            fallen,
            holed,
        )


def judge_discs(xs, ys, a, prepared, index, value, zone, touching, dead, hanger, fallen, holed) -> None:
    """Judge every disc into the output arrays, from Python: ``judge_range`` over shares of the discs
    on numba's thread count of threads (``threads.run_shares``; one chunk's worth, ``JUDGE_CHUNK``
    discs or fewer, on this thread), the results the same whatever the split. The parallel loop of
    ``judge_ranges`` is for numba code; from Python a share costs no compile of its own."""
    n = xs.shape[0]
    args = (xs, ys, a, prepared, index, value, zone, touching, dead, hanger, fallen, holed)
    if n <= JUDGE_CHUNK:
        judge_range(0, n, *args)
    else:
        run_shares(judge_range, n, *args)


#: Grids of recent batches (``cached_judge_index``), by court content and grid size; a few suffice.
_INDEX_CACHE: dict = {}
_INDEX_CACHE_SIZE = 8
#: Digests of the packed courts seen last, by the packing's identity: ``judging.packing`` packs a court
#: once and keeps the packing on it, so a game's thousands of small batches hash it once. Each entry
#: holds its packing, so that its id is not reused while the entry lives.
_DIGESTS: dict[int, tuple[JudgeArrays, bytes]] = {}
_DIGESTS_SIZE = 16


def _judge_arrays_digest(a: JudgeArrays) -> bytes:
    digest = hashlib.blake2b(digest_size=20)
    for value in a:
        if isinstance(value, np.ndarray):
            digest.update(f"{value.dtype.str}{value.shape}".encode())
            digest.update(np.ascontiguousarray(value).tobytes())
        else:
            digest.update(repr(value).encode())
        digest.update(b";")
    return digest.digest()


def _digest_of(a: JudgeArrays) -> bytes:
    """``_judge_arrays_digest(a)``, remembered for the packings seen last (``_DIGESTS``)."""
    found = _DIGESTS.get(id(a))
    if found is not None and found[0] is a:
        return found[1]
    digest = _judge_arrays_digest(a)
    _DIGESTS[id(a)] = (a, digest)
    while len(_DIGESTS) > _DIGESTS_SIZE:
        del _DIGESTS[next(iter(_DIGESTS))]
    return digest


def cached_judge_index(a: JudgeArrays, n_discs: int):
    """``(prepared, index)`` for a batch of ``n_discs`` discs on the court packed in ``a``: the same as
    ``judge_prepare(a)`` and ``judge_index(a, prepared, n_discs)`` (built with NumPy by
    ``grid_build``, bit for bit those arrays, so that no first run compiles them), but remembered for
    the last few courts and grid sizes, so that repeated batches on one court (experiments, players,
    benchmarks) build their grid once. Keyed by the arrays' contents, so a changed court never meets
    a stale grid.
    """
    n_cells = min(GRID_MAX_CELLS, int(n_discs) // GRID_DISCS_PER_CELL)
    key = (_digest_of(a), n_cells if n_cells >= GRID_MIN_CELLS else 0)
    found = _INDEX_CACHE.pop(key, None)
    if found is None:
        prepared = grid_build.prepare(a)
        found = (prepared, grid_build.index(a, prepared, int(n_discs)))
    _INDEX_CACHE[key] = found  # most recent last
    while len(_INDEX_CACHE) > _INDEX_CACHE_SIZE:
        del _INDEX_CACHE[next(iter(_INDEX_CACHE))]
    return found
