"""The numba kernels of one call per chunk for experiments on an empty board: build, play, judge and sum the
shots (``_lone_chunk`` drives them).

An experiment with no resting discs on the court and no per-shot records (the commonest kind: draws,
aim and speed sweeps) needs from each shot only its judged outcome, added into its grid cell. Here
each shot's parameters (``_chunk_kernels``: its grid cell's intended shot, computed once per
cell, then distributions, aim and execution noise), its launch velocity, its play
(``physics.laws.closed_form.lone.run_lone``) and its
judging
(``shots.judge_rest``) happen in one loop over blocks of shots shared between threads, with nothing
per shot leaving the CPU's caches but a value and a few flags; a second shared loop over the
chunk's grid cells adds them up. These are the same numba functions, in the same order of operations, as the
general path (``build_shots``, ``simulate_shots``, ``reduce_chunk``), so the sums are bit-identical
to it; only the round trips through Python and memory between the steps are gone.

The block loop is compiled without reference counting (``_nrt=False``), like the batch API's own
lone-disc loop: it allocates nothing, and counting references to the court's arrays for every shot
would cost more than the shot.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import run_shares
from shuffle_sim.experiment._chunk_kernels import (
    STATUS_FALLEN,
    STATUS_HOLED,
    add_outcome,
    cell_parameters,
    drawn_parameters,
    value_slot,
)
from shuffle_sim.physics.numba_api import CHUNK, NOT_FINITE, judge_rest, run_lone, shot_problem

#: Bits of a shot's flags.
FLAG_FAILED = 1  # not played (its start) or not finished (event bound): counted in ``failed`` only
FLAG_DEAD = 2  # dead or fallen
FLAG_HANGER = 4
FLAG_CORNER_HANGER = 8
FLAG_HOLED = 16
FLAG_NOT_FINITE = 32  # a launch value not finite: the general path reports it

#: Event bound per shot (``simulate_shots``'s default, which the general path uses).
MAX_EVENTS = 10_000


#: A played shot's kernel outcome, packed into its ``shot_value`` between the two passes of a block
#: (``_play_block``, ``_judge_block``): its status, and whether it is dead or unfinished.
PACK_DEAD = 8
PACK_NOT_OK = 16


@jit.no_refcount
def _play_block(first, start, stop, samples, grid, variation, courts, ja, index, no_discs, max_events, scratch):
    """Build and play shots ``first + start`` .. ``first + stop - 1`` (rows ``start`` .. ``stop - 1``):
    a played shot's rest position goes to the ``scratch`` rest x and y and its kernel outcome, packed,
    to its value (its flags 0), for ``_judge_block``; a shot that cannot be played gets value 0 and
    ``FLAG_FAILED``. ``courts`` holds the court's packed table per court of a court-speed axis (one
    without one) and the spin tables they share."""
    shot_value, shot_flags, rest_x, rest_y = scratch
    tables, orbit_tables = courts
    next_cell_shot = first + np.uint64(start)  # the first shot of the next cell: its intended shot changes there
    intended = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
    table = tables[0]
    last_x = last_y = math.nan  # the last start checked, and its verdict
    last_why = 0
    for k in range(start, stop):
        shot = first + np.uint64(k)
        if shot >= next_cell_shot:
            cell = shot // samples
            intended = cell_parameters(cell, grid)
            next_cell_shot = (cell + np.uint64(1)) * samples
            table = tables[intended[8]]
        speed, direction, spin, x, y = drawn_parameters(shot, intended, variation, True)
        vx = speed * math.sin(direction)
        vy = speed * math.cos(direction)
        # Whether the start can be played depends on the start alone once the launch is finite: a
        # cell's shots mostly share their start (no start errors), so its verdict is reused.
        if x == last_x and y == last_y and math.isfinite(vx) and math.isfinite(vy) and math.isfinite(spin):
            why = last_why
        else:
            why = shot_problem(table, ja, index, no_discs, no_discs, x, y, vx, vy, spin)
            if why != NOT_FINITE:
                last_x = x
                last_y = y
                last_why = why
        if why != 0:
            shot_value[k] = 0
            shot_flags[k] = FLAG_FAILED | (FLAG_NOT_FINITE if why == NOT_FINITE else 0)
            continue
        x, y, _, _, _, status, dead, ok, _, _ = run_lone(table, orbit_tables, x, y, vx, vy, spin, max_events)
        rest_x[k] = x
        rest_y[k] = y
        shot_value[k] = status | (PACK_DEAD if dead else 0) | (0 if ok else PACK_NOT_OK)
        shot_flags[k] = 0


@jit.no_refcount
def _judge_block(start, stop, ja, prepared, index, scratch):
    """Judge the shots ``_play_block`` played in rows ``start`` .. ``stop - 1`` where they rest, into
    their ``scratch`` values and flags. A pass of its own (compiled apart from the play, so that a
    first run compiles the two at once in two processes); it reads what the play left in cache."""
    shot_value, shot_flags, rest_x, rest_y = scratch
    for k in range(start, stop):
        if shot_flags[k] & FLAG_FAILED:
            continue
        packed = shot_value[k]
        status = packed & 7
        value, _, hanger, dead = judge_rest(
            ja, prepared, index, rest_x[k], rest_y[k], status, (packed & PACK_DEAD) != 0
        )
        flags = 0
        if packed & PACK_NOT_OK:
            flags |= FLAG_FAILED
        if dead or status == STATUS_FALLEN:
            flags |= FLAG_DEAD
        if hanger > 0:
            flags |= FLAG_HANGER
        if hanger == 2:
            flags |= FLAG_CORNER_HANGER
        if status == STATUS_HOLED:
            flags |= FLAG_HOLED
        shot_value[k] = value
        shot_flags[k] = flags


@jit.no_refcount
def _sum_row(r, lo_shot, hi_shot, values, scratch, sums):
    """Add shots ``lo_shot`` .. ``hi_shot - 1`` (one grid cell's within one chunk) into row ``r`` of the
    ``sums`` (``play_lone_chunk``)."""
    shot_value, shot_flags, _, _ = scratch
    failed = sums[1]
    first_bad, not_finite = sums[8:]
    for k in range(lo_shot, hi_shot):
        flags = shot_flags[k]
        if flags & FLAG_NOT_FINITE:
            not_finite[r] += 1
        if flags & FLAG_FAILED:
            failed[r] += 1
            continue
        v = shot_value[k]
        lo = value_slot(values, v)
        if values[lo] != v:
            first_bad[r] = min(first_bad[r], k)
            continue
        add_outcome(
            sums,
            r,
            lo,
            v,
            flags & FLAG_DEAD,
            flags & FLAG_HANGER,
            flags & FLAG_CORNER_HANGER,
            flags & FLAG_HOLED,
        )


@jit.threaded
def play_lone_blocks(
    block_lo, block_hi, first, n, samples, grid, variation, courts, ja, prepared, index, max_events, no_discs, scratch
):
    """Blocks ``block_lo .. block_hi - 1`` (of ``CHUNK`` shots) of ``play_lone_chunk``'s shots, each
    played then judged: one thread's share (``threads.run_shares``)."""
    for c in range(block_lo, block_hi):
        lo = c * CHUNK
        hi = min(n, (c + 1) * CHUNK)
        _play_block(first, lo, hi, samples, grid, variation, courts, ja, index, no_discs, max_events, scratch)
        _judge_block(lo, hi, ja, prepared, index, scratch)


@jit.threaded
def sum_lone_rows(row_start, row_stop, row_lo, row_hi, values, scratch, sums):
    """Rows ``row_start .. row_stop - 1`` of ``play_lone_chunk``'s sums: one thread's share."""
    for r in range(row_start, row_stop):
        _sum_row(np.int64(r), row_lo[r], row_hi[r], values, scratch, sums)


def play_lone_chunk(plays: tuple, rows: tuple) -> None:
    """Play shots ``first`` .. ``first + n - 1`` with execution noise and add each judged outcome into
    its row of sums, as ``build_shots``, ``simulate_shots`` and ``reduce_chunk`` do together.

    ``plays`` are ``play_lone_blocks``'s arguments after its share: ``first`` (uint64), ``n``,
    ``samples``, the shot plan's ``grid`` and ``variation`` (``build_shots``), ``courts`` (the courts'
    stacked tables and the spin tables), the judge's ``ja``, ``prepared`` and ``index``,
    ``max_events``, ``no_discs`` (an empty float array) and ``scratch`` (n each: judged value,
    flags, rest x and rest y). ``rows`` are ``sum_lone_rows``'s: ``row_lo``, ``row_hi``, the sorted
    court ``values``, the same ``scratch`` and ``sums``. Row r holds shots ``first + row_lo[r]`` ..
    ``first + row_hi[r] - 1``: one grid cell's shots within one chunk, so that one call serves several
    chunks. ``sums`` are ``reduce_chunk``'s first eight (shots, failed, value sum, value counts,
    dead, hangers, corner hangers, holed), then ``first_bad`` (filled with n), which receives the
    first shot whose judged value is not in ``values``, and ``not_finite``, which counts the shots
    with a launch value that is not finite.

    The blocks of shots, then the rows, are shared between numba's threads (``threads.run_shares``:
    Python threads each running a ``jit.threaded`` share, as a ``prange`` loop would with its static
    schedule, but without the parallel compile, which took about 6 s of processor time of a first
    run's). Every shot and every row is written by one share alone, so the sums are the same for any
    thread count.
    """
    n = plays[1]
    run_shares(play_lone_blocks, (n + CHUNK - 1) // CHUNK, *plays)
    run_shares(sum_lone_rows, rows[0].shape[0], *rows)


@jit.no_refcount
def _check_start(table, ja, index, no_discs, x, y):
    """A shot's start check as ``_play_block`` makes it: compiled, it leaves the check's callees in
    numba's cache (``compile_lone_parts``)."""
    return shot_problem(table, ja, index, no_discs, no_discs, x, y, 0.0, 1.0, 0.0)
