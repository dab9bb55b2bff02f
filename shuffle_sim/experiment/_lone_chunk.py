"""One numba call per chunk for experiments on an empty board: its arguments, its compile and its sums.

The kernels (``_lone_kernels``) build, play, judge and sum a chunk's shots in one call; here a run's
plan, court tables and scratch are made once, a call's arguments are packed from them, the kernels are
compiled (or loaded) before a first run, and the call's sums are cut back into one dict per chunk.
"""

from __future__ import annotations

import itertools

import numpy as np

from shuffle_sim.experiment._lone_kernels import (
    MAX_EVENTS,
    _check_start,
    _judge_block,
    play_lone_blocks,
    play_lone_chunk,
    sum_lone_rows,
)
from shuffle_sim.judging.batch import cached_judge_index
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.physics.numba_api import court_table, kernel_arrays, run_lone

__all__ = [
    "BATCH_SHOTS",
    "Scratch",
    "compile_lone_kernel",
    "compile_lone_parts",
    "compile_lone_physics",
    "court_tables",
    "lone_chunk_args",
    "lone_chunk_sums",
    "lone_chunks_sums",
    "lone_plan",
    "play_lone_blocks",
    "play_lone_chunk",
    "sum_lone_rows",
]


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
) -> tuple[tuple, tuple, list[int]]:
    """The arguments of ``play_lone_chunk`` (``plays`` and ``rows``) for consecutive shot ranges
    (``(start, stop)``, each starting where the last stopped), with new sums (zero); and the number of
    rows of each range. ``tables`` are the courts' packed tables and the spin tables
    (``court_tables``), ``scratch`` the run's ``Scratch`` (``lone_plan``)."""
    start, stop = ranges[0][0], ranges[-1][1]
    n = stop - start
    row_lo, row_hi, counts = _rows(experiment, ranges)
    rows = len(row_lo)
    sums = [np.zeros(rows, dtype=np.int64) for _ in range(3)] + [np.zeros((rows, len(values)), dtype=np.int64)]
    sums += [np.zeros(rows, dtype=np.int64) for _ in range(4)]
    sums += [np.full(rows, n, dtype=np.int64), np.zeros(rows, dtype=np.int64)]
    shot_scratch = scratch.take(n)
    plays = (
        np.uint64(start),
        n,
        plan.samples,
        plan.grid,
        plan.variation,
        tables,
        ja,
        prepared,
        index,
        MAX_EVENTS,
        np.empty(0),
        shot_scratch,
    )
    return plays, (row_lo, row_hi, values, shot_scratch, tuple(sums)), counts


def _stand_in_args(experiment, shot_plan) -> tuple[tuple, tuple]:
    """``play_lone_chunk``'s arguments for no shots, with stand-ins of the judge's grid's types (the
    grid is not built)."""
    from shuffle_sim.judging.procedure import CELL_COLUMNS

    court = experiment.court.for_end(experiment.end)
    prepared = (np.zeros((0, 3)), np.empty((0, 4)), np.empty((0, 4)), np.empty(4))
    index = (0.0, 0.0, 1.0, 0, 0, np.empty((0, CELL_COLUMNS), np.int64))
    values = np.zeros(1, dtype=np.int64)
    tables = court_tables(experiment)
    plays, rows, _ = lone_chunk_args(
        experiment, [(0, 0)], shot_plan(experiment), tables, judge_arrays(court), prepared, index, Scratch(), values
    )
    return plays, rows


def compile_lone_kernel(experiment, shot_plan) -> None:
    """Compile (or load) ``play_lone_chunk``'s kernels for this experiment's argument types, without
    building the judge's grid and without shots."""
    play_lone_chunk(*_stand_in_args(experiment, shot_plan))


def compile_lone_physics(experiment, shot_plan) -> None:
    """Compile (or load) the lone disc's physics as the chunk kernel calls it (``run_lone`` for
    this court's tables), then the kernel's blocks (``play_lone_blocks``), whose other callees
    ``compile_lone_parts`` puts in numba's cache meanwhile: one of the two processes of a first run's
    compile (``experiment.warmup``)."""
    court = experiment.court.for_end(experiment.end)
    run_lone(court_table(court), kernel_arrays(court).orbit_tables, 0.0, 0.0, 0.0, 0.0, 0.0, MAX_EVENTS)
    plays, _ = _stand_in_args(experiment, shot_plan)
    play_lone_blocks(0, 0, *plays)


def compile_lone_parts(experiment, shot_plan) -> None:
    """Compile (or load) the chunk kernel's pieces besides the lone disc's physics and the blocks: the
    physics' callees, last first (``physics.laws.closed_form.lone.LONE_CALLEES``), the judging pass (``_judge_block``),
    the start check's and the draws' callees and the sums (``sum_lone_rows``), with the kernel's
    argument types: the other process's share of a first run's compile, beside
    ``compile_lone_physics``."""
    from numba import types

    from shuffle_sim._runtime.compile_ahead import compile_callees
    from shuffle_sim.noise import philox4x64
    from shuffle_sim.physics.numba_api import LONE_CALLEES

    plays, rows = _stand_in_args(experiment, shot_plan)
    courts, ja, prepared, index, _, no_discs, scratch = plays[5:]
    # First the physics' callees, last first, meeting the other process's compile of them half way.
    compile_callees(list(reversed(LONE_CALLEES)))
    _judge_block(0, 0, ja, prepared, index, scratch)
    sum_lone_rows(0, 0, *rows)
    _check_start(courts[0][0], ja, index, no_discs, 0.0, 0.0)
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
    plays, rows, counts = lone_chunk_args(experiment, ranges, plan, tables, ja, prepared, index, scratch, values)
    play_lone_chunk(plays, rows)
    shots, failed, value_sum, value_counts, dead, hanger, corner, holed, first_bad, not_finite = rows[-1]
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
