"""One numba call per chunk for experiments on an empty board: build, play, judge and sum the shots.

An experiment with no resting discs on the court and no per-shot records (the commonest kind: draws,
aim and speed sweeps) needs from each shot only its judged outcome, added into its grid cell. Here
each shot's parameters (``_chunk_kernels``: its grid cell's intended shot, computed once per
cell, then distributions, aim and execution noise), its launch velocity, its play (``physics.lone.run_lone``) and its
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

import itertools
import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import run_shares
from shuffle_sim.experiment._chunk_kernels import (
    STATUS_FALLEN,
    STATUS_HOLED,
    cell_parameters,
    drawn_parameters,
    value_slot,
)
from shuffle_sim.judging.batch import cached_judge_index
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.physics.numba_api import court_table, kernel_arrays, run_lone_call
from shuffle_sim.shots import CHUNK, NOT_FINITE, judge_rest, shot_problem

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
def _play_block(
    first,
    start,
    stop,
    samples,
    grid_shape,
    axis_param,
    axis_values,
    nominal,
    dist_param,
    dist_kind,
    dist_a,
    dist_b,
    skill_sd,
    uses_target,
    speed_given,
    overshoot,
    stop_speed_per_root_metre,
    k0,
    k1,
    tables,
    orbit_tables,
    ja,
    index,
    no_discs,
    max_events,
    rest_x,
    rest_y,
    shot_value,
    shot_flags,
):
    """Build and play shots ``first + start`` .. ``first + stop - 1`` (rows ``start`` .. ``stop - 1``):
    a played shot's rest position goes to ``rest_x``, ``rest_y`` and its kernel outcome, packed, to
    ``shot_value`` (its flags 0), for ``_judge_block``; a shot that cannot be played gets value 0 and
    ``FLAG_FAILED``. ``tables`` holds the court's packed table per court of a court-speed axis (one
    without one)."""
    next_cell_shot = first + np.uint64(start)  # the first shot of the next cell: its intended shot changes there
    c_speed = c_direction = c_spin = c_x = c_y = c_tx = c_ty = 0.0
    c_skill = 0
    c_court = 0
    table = tables[0]
    last_x = last_y = math.nan  # the last start checked, and its verdict
    last_why = 0
    for k in range(start, stop):
        shot = first + np.uint64(k)
        if shot >= next_cell_shot:
            cell = shot // samples
            c_speed, c_direction, c_spin, c_x, c_y, c_tx, c_ty, c_skill, c_court = cell_parameters(
                cell, grid_shape, axis_param, axis_values, nominal
            )
            next_cell_shot = (cell + np.uint64(1)) * samples
            table = tables[c_court]
        speed, direction, spin, x, y = drawn_parameters(
            shot,
            c_speed,
            c_direction,
            c_spin,
            c_x,
            c_y,
            c_tx,
            c_ty,
            c_skill,
            c_court,
            dist_param,
            dist_kind,
            dist_a,
            dist_b,
            skill_sd,
            uses_target,
            speed_given,
            overshoot,
            stop_speed_per_root_metre,
            k0,
            k1,
            True,
        )
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
        x, y, _, _, _, status, dead, ok, _, _ = run_lone_call(table, orbit_tables, x, y, vx, vy, spin, max_events)
        rest_x[k] = x
        rest_y[k] = y
        shot_value[k] = status | (PACK_DEAD if dead else 0) | (0 if ok else PACK_NOT_OK)
        shot_flags[k] = 0


@jit.no_refcount
def _judge_block(start, stop, ja, prepared, index, rest_x, rest_y, shot_value, shot_flags):
    """Judge the shots ``_play_block`` played in rows ``start`` .. ``stop - 1`` where they rest, into
    their ``shot_value`` and ``shot_flags``. A pass of its own (compiled apart from the play, so that
    a first run compiles the two at once in two processes); it reads what the play left in cache."""
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
def _sum_row(
    r,
    lo_shot,
    hi_shot,
    values,
    shot_value,
    shot_flags,
    shots,
    failed,
    value_sum,
    value_counts,
    dead_count,
    hanger_count,
    corner_count,
    holed_count,
    first_bad,
    not_finite,
):
    """Add shots ``lo_shot`` .. ``hi_shot - 1`` (one grid cell's within one chunk) into row ``r`` of the
    sums (``reduce_chunk``'s sums for one disc)."""
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
        shots[r] += 1
        value_sum[r] += v
        value_counts[r, lo] += 1
        if flags & FLAG_DEAD:
            dead_count[r] += 1
        if flags & FLAG_HANGER:
            hanger_count[r] += 1
        if flags & FLAG_CORNER_HANGER:
            corner_count[r] += 1
        if flags & FLAG_HOLED:
            holed_count[r] += 1


@jit.threaded
def play_lone_blocks(
    block_lo,
    block_hi,
    first,
    n,
    samples,
    grid_shape,
    axis_param,
    axis_values,
    nominal,
    dist_param,
    dist_kind,
    dist_a,
    dist_b,
    skill_sd,
    uses_target,
    speed_given,
    overshoot,
    stop_speed_per_root_metre,
    k0,
    k1,
    tables,
    orbit_tables,
    ja,
    prepared,
    index,
    max_events,
    no_discs,
    shot_value,
    shot_flags,
    rest_x,
    rest_y,
):
    """Blocks ``block_lo .. block_hi - 1`` (of ``CHUNK`` shots) of ``play_lone_chunk``'s shots, each
    played then judged: one thread's share (``threads.run_shares``)."""
    for c in range(block_lo, block_hi):
        lo = c * CHUNK
        hi = min(n, (c + 1) * CHUNK)
        _play_block(
            first,
            lo,
            hi,
            samples,
            grid_shape,
            axis_param,
            axis_values,
            nominal,
            dist_param,
            dist_kind,
            dist_a,
            dist_b,
            skill_sd,
            uses_target,
            speed_given,
            overshoot,
            stop_speed_per_root_metre,
            k0,
            k1,
            tables,
            orbit_tables,
            ja,
            index,
            no_discs,
            max_events,
            rest_x,
            rest_y,
            shot_value,
            shot_flags,
        )
        _judge_block(lo, hi, ja, prepared, index, rest_x, rest_y, shot_value, shot_flags)


@jit.threaded
def sum_lone_rows(
    row_start,
    row_stop,
    row_lo,
    row_hi,
    values,
    shot_value,
    shot_flags,
    shots,
    failed,
    value_sum,
    value_counts,
    dead_count,
    hanger_count,
    corner_count,
    holed_count,
    first_bad,
    not_finite,
):
    """Rows ``row_start .. row_stop - 1`` of ``play_lone_chunk``'s sums: one thread's share."""
    for r in range(row_start, row_stop):
        _sum_row(
            np.int64(r),
            row_lo[r],
            row_hi[r],
            values,
            shot_value,
            shot_flags,
            shots,
            failed,
            value_sum,
            value_counts,
            dead_count,
            hanger_count,
            corner_count,
            holed_count,
            first_bad,
            not_finite,
        )


def play_lone_chunk(
    first,
    n,
    samples,
    grid_shape,
    axis_param,
    axis_values,
    nominal,
    dist_param,
    dist_kind,
    dist_a,
    dist_b,
    skill_sd,
    uses_target,
    speed_given,
    overshoot,
    stop_speed_per_root_metre,
    k0,
    k1,
    tables,
    orbit_tables,
    ja,
    prepared,
    index,
    max_events,
    values,
    no_discs,
    shot_value,
    shot_flags,
    rest_x,
    rest_y,
    row_lo,
    row_hi,
    shots,
    failed,
    value_sum,
    value_counts,
    dead_count,
    hanger_count,
    corner_count,
    holed_count,
    first_bad,
    not_finite,
):
    """Play shots ``first`` .. ``first + n - 1`` with execution noise and add each judged outcome into
    its row of sums, as ``build_shots``, ``simulate_shots`` and ``reduce_chunk`` do together.

    Row r holds shots ``first + row_lo[r]`` .. ``first + row_hi[r] - 1``: one grid cell's shots within
    one chunk, so that one call serves several chunks. ``no_discs`` is an empty float array;
    ``shot_value``, ``shot_flags``, ``rest_x`` and ``rest_y`` (n) are scratch. Per row, ``first_bad``
    (filled with n) receives the first shot whose judged value is not in the sorted ``values``, and
    ``not_finite`` counts the shots with a launch value that is not finite.

    The blocks of shots, then the rows, are shared between numba's threads (``threads.run_shares``:
    Python threads each running a ``jit.threaded`` share, as a ``prange`` loop would with its static
    schedule, but without the parallel compile, which took about 6 s of processor time of a first
    run's). Every shot and every row is written by one share alone, so the sums are the same for any
    thread count.
    """
    run_shares(
        play_lone_blocks,
        (n + CHUNK - 1) // CHUNK,
        first,
        n,
        samples,
        grid_shape,
        axis_param,
        axis_values,
        nominal,
        dist_param,
        dist_kind,
        dist_a,
        dist_b,
        skill_sd,
        uses_target,
        speed_given,
        overshoot,
        stop_speed_per_root_metre,
        k0,
        k1,
        tables,
        orbit_tables,
        ja,
        prepared,
        index,
        max_events,
        no_discs,
        shot_value,
        shot_flags,
        rest_x,
        rest_y,
    )
    run_shares(
        sum_lone_rows,
        row_lo.shape[0],
        row_lo,
        row_hi,
        values,
        shot_value,
        shot_flags,
        shots,
        failed,
        value_sum,
        value_counts,
        dead_count,
        hanger_count,
        corner_count,
        holed_count,
        first_bad,
        not_finite,
    )


#: Shots per call of ``play_lone_chunk`` at most when it serves several chunks: each call is two
#: loops shared between threads, and on a busy machine each loop waits for its slowest thread, so
#: fewer, larger calls lose less.
BATCH_SHOTS = 1 << 20


class Scratch:
    """The chunk kernel's per-shot scratch (a judged value, flags and the rest position per shot),
    kept across the calls of a run: fresh arrays for every call of a million shots cost the system's
    zeroing of 25 MB of new pages each time, a few percent of a warm run."""

    def __init__(self) -> None:
        self.value = np.empty(0, np.int64)
        self.flags = np.empty(0, np.int8)
        self.x = np.empty(0)
        self.y = np.empty(0)

    def take(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Scratch for ``n`` shots: value, flags, rest x and y (overwritten by the kernel)."""
        if self.value.size < n:
            self.value = np.empty(n, np.int64)
            self.flags = np.empty(n, np.int8)
            self.x = np.empty(n)
            self.y = np.empty(n)
        return self.value[:n], self.flags[:n], self.x[:n], self.y[:n]


def court_tables(experiment) -> tuple[np.ndarray, np.ndarray]:
    """The packed tables of the experiment's courts, one per court of its court-speed axis (one without
    one), stacked (courts x rows x columns), and the spin tables they share (the coupled model's tables
    depend on the disc and its contact, not on mu)."""
    courts = [court.for_end(experiment.end) for court in experiment.courts()]
    return np.stack([court_table(court) for court in courts]), kernel_arrays(courts[0]).orbit_tables


def lone_plan(experiment, chunk_size: int, shot_plan) -> tuple:
    """The shot plan, court tables, judge's grid and per-shot ``Scratch`` of ``lone_chunks_sums``'s calls
    for one run (built per run, not remembered by experiment: an experiment changed with
    ``dataclasses.replace`` keeps its fingerprint; the grid itself is remembered by content in
    ``judge.cached_judge_index``)."""
    court = experiment.court.for_end(experiment.end)
    ja = judge_arrays(court)
    prepared, index = cached_judge_index(ja, chunk_size)
    return (shot_plan(experiment), court_tables(experiment), ja, prepared, index, Scratch())


def _rows(experiment, ranges: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Row bounds (shot offsets from the first range's start) of each range's grid cells, and the
    number of rows of each range."""
    samples = experiment.samples
    base = ranges[0][0]
    lo, hi, counts = [], [], []
    for start, stop in ranges:
        cells = (
            np.arange(start // samples, (stop - 1) // samples + 1, dtype=np.int64)
            if stop > start
            else np.zeros(0, dtype=np.int64)
        )
        lo.append(np.maximum(cells * samples, start) - base)
        hi.append(np.minimum((cells + 1) * samples, stop) - base)
        counts.append(len(cells))
    return np.concatenate(lo), np.concatenate(hi), counts


def lone_chunk_args(
    experiment, ranges: list[tuple[int, int]], plan, tables, ja, prepared, index, scratch: Scratch, values: np.ndarray
):
    """The arguments of ``play_lone_chunk`` for consecutive shot ranges (``(start, stop)``, each
    starting where the last stopped), with new sums (zero); and the number of rows of each range.
    ``tables`` are the courts' packed tables and the spin tables (``court_tables``), ``scratch`` the
    run's ``Scratch`` (``lone_plan``)."""
    start, stop = ranges[0][0], ranges[-1][1]
    n = stop - start
    row_lo, row_hi, counts = _rows(experiment, ranges)
    rows = len(row_lo)
    sums = [np.zeros(rows, dtype=np.int64) for _ in range(3)] + [np.zeros((rows, len(values)), dtype=np.int64)]
    sums += [np.zeros(rows, dtype=np.int64) for _ in range(4)]
    args = (
        np.uint64(start),
        n,
        plan["samples"],
        plan["grid_shape"],
        plan["axis_param"],
        plan["axis_values"],
        plan["nominal"],
        plan["dist_param"],
        plan["dist_kind"],
        plan["dist_a"],
        plan["dist_b"],
        plan["skill_sd"],
        plan["uses_target"],
        plan["speed_given"],
        plan["overshoot"],
        plan["stop_speed_per_root_metre"],
        plan["k0"],
        plan["k1"],
        *tables,
        ja,
        prepared,
        index,
        MAX_EVENTS,
        values,
        np.empty(0),
        *scratch.take(n),
        row_lo,
        row_hi,
        *sums,
        np.full(rows, n, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
    )
    return args, counts


def _stand_in_args(experiment, shot_plan) -> tuple:
    """``play_lone_chunk``'s arguments for no shots, with stand-ins of the judge's grid's types (the
    grid is not built)."""
    from shuffle_sim.judging.procedure import CELL_COLUMNS

    court = experiment.court.for_end(experiment.end)
    prepared = (np.zeros((0, 3)), np.empty((0, 4)), np.empty((0, 4)), np.empty(4))
    index = (0.0, 0.0, 1.0, 0, 0, np.empty((0, CELL_COLUMNS), np.int64))
    values = np.zeros(1, dtype=np.int64)
    tables = court_tables(experiment)
    args, _ = lone_chunk_args(
        experiment, [(0, 0)], shot_plan(experiment), tables, judge_arrays(court), prepared, index, Scratch(), values
    )
    return args


def compile_lone_kernel(experiment, shot_plan) -> None:
    """Compile (or load) ``play_lone_chunk``'s kernels for this experiment's argument types, without
    building the judge's grid and without shots."""
    play_lone_chunk(*_stand_in_args(experiment, shot_plan))


def compile_lone_physics(experiment, shot_plan) -> None:
    """Compile (or load) the lone disc's physics as the chunk kernel calls it (``run_lone_call`` for
    this court's tables), then the kernel's blocks (``play_lone_blocks``), whose other callees
    ``compile_lone_parts`` puts in numba's cache meanwhile: one of the two processes of a first run's
    compile (``experiment.warmup``)."""
    court = experiment.court.for_end(experiment.end)
    run_lone_call(court_table(court), kernel_arrays(court).orbit_tables, 0.0, 0.0, 0.0, 0.0, 0.0, MAX_EVENTS)
    (
        first,
        n,
        samples,
        grid_shape,
        axis_param,
        axis_values,
        nominal,
        dist_param,
        dist_kind,
        dist_a,
        dist_b,
        skill_sd,
        uses_target,
        speed_given,
        overshoot,
        ssprm,
        k0,
        k1,
        tables,
        orbit_tables,
        ja,
        prepared,
        index,
        max_events,
        _values,
        no_discs,
        shot_value,
        shot_flags,
        rest_x,
        rest_y,
        *_,
    ) = _stand_in_args(experiment, shot_plan)
    play_lone_blocks(
        0,
        0,
        first,
        n,
        samples,
        grid_shape,
        axis_param,
        axis_values,
        nominal,
        dist_param,
        dist_kind,
        dist_a,
        dist_b,
        skill_sd,
        uses_target,
        speed_given,
        overshoot,
        ssprm,
        k0,
        k1,
        tables,
        orbit_tables,
        ja,
        prepared,
        index,
        max_events,
        no_discs,
        shot_value,
        shot_flags,
        rest_x,
        rest_y,
    )


@jit.no_refcount
def _check_start(table, ja, index, no_discs, x, y):
    """A shot's start check as ``_play_block`` makes it: compiled, it leaves the check's callees in
    numba's cache (``compile_lone_parts``)."""
    return shot_problem(table, ja, index, no_discs, no_discs, x, y, 0.0, 1.0, 0.0)


def compile_lone_parts(experiment, shot_plan) -> None:
    """Compile (or load) the chunk kernel's pieces besides the lone disc's physics and the blocks: the
    physics' callees, last first (``physics.lone.LONE_CALLEES``), the judging pass (``_judge_block``),
    the start check's and the draws' callees and the sums (``sum_lone_rows``), with the kernel's
    argument types: the other process's share of a first run's compile, beside
    ``compile_lone_physics``."""
    from numba import types

    from shuffle_sim._runtime.compile_ahead import compile_callees
    from shuffle_sim.noise import philox4x64
    from shuffle_sim.physics.numba_api import LONE_CALLEES

    (
        _first,
        _n,
        _samples,
        _grid_shape,
        _axis_param,
        _axis_values,
        _nominal,
        _dist_param,
        _dist_kind,
        _dist_a,
        _dist_b,
        _skill_sd,
        _uses_target,
        _speed_given,
        _overshoot,
        _ssprm,
        _k0,
        _k1,
        tables,
        _orbit_tables,
        ja,
        prepared,
        index,
        _max_events,
        values,
        no_discs,
        shot_value,
        shot_flags,
        rest_x,
        rest_y,
        row_lo,
        row_hi,
        *sums,
    ) = _stand_in_args(experiment, shot_plan)
    # First the physics' callees, last first, meeting the other process's compile of them half way.
    compile_callees(list(reversed(LONE_CALLEES)))
    _judge_block(0, 0, ja, prepared, index, rest_x, rest_y, shot_value, shot_flags)
    sum_lone_rows(0, 0, row_lo, row_hi, values, shot_value, shot_flags, *sums)
    _check_start(tables[0], ja, index, no_discs, 0.0, 0.0)
    philox4x64.compile((types.uint64,) * 6)


def lone_chunks_sums(
    experiment, chunks: list[int], chunk_size: int, values: np.ndarray, shot_plan, planned: tuple | None = None
):
    """The per-cell sums of consecutive chunks of an experiment on an empty board, each as
    ``experiment.compute_chunk`` returns it, from one call; None when a launch value is not finite
    or a judged value is not one of ``values`` (the general path then raises its error naming it).

    ``shot_plan(experiment)`` gives ``build_shots``'s arrays (``experiment.plan.shot_plan``). The judge's
    grid is the one ``simulate_shots`` builds for a batch of ``chunk_size`` shots. ``planned``, from
    ``lone_plan`` for this experiment and chunk size, saves building them (and the scratch) again for
    every call of a run.
    """
    n_shots = experiment.n_shots
    ranges = [(k * chunk_size, min((k + 1) * chunk_size, n_shots)) for k in chunks]
    if any(a[1] != b[0] for a, b in itertools.pairwise(ranges)):
        raise ValueError("lone_chunks_sums: the chunks must be consecutive")
    if planned is None:
        planned = lone_plan(experiment, chunk_size, shot_plan)
    plan, tables, ja, prepared, index, scratch = planned
    args, counts = lone_chunk_args(experiment, ranges, plan, tables, ja, prepared, index, scratch, values)
    play_lone_chunk(*args)
    shots, failed, value_sum, value_counts, dead, hanger, corner, holed, first_bad, not_finite = args[-10:]
    if not_finite.any() or (first_bad < ranges[-1][1] - ranges[0][0]).any():
        return None
    out = []
    row = 0
    for (start, _), count in zip(ranges, counts):
        part = slice(row, row + count)
        out.append(
            dict(
                shots=shots[part],
                failed=failed[part],
                value_sum=value_sum[part],
                dead=dead[part],
                hanger=hanger[part],
                corner_hanger=corner[part],
                holed=holed[part],
                value_counts=value_counts[part],
                cell_start=np.array(start // experiment.samples, dtype=np.int64),
            )
        )
        row += count
    return out


def lone_chunk_sums(experiment, start: int, stop: int, chunk_size: int, values: np.ndarray, shot_plan):
    """The per-cell sums of the chunk of shots ``start`` .. ``stop - 1`` (``lone_chunks_sums`` for one)."""
    if start % chunk_size:
        raise ValueError(f"lone_chunk_sums: shot {start} does not start a chunk of {chunk_size}")
    found = lone_chunks_sums(experiment, [start // chunk_size], chunk_size, values, shot_plan)
    return None if found is None else found[0]
