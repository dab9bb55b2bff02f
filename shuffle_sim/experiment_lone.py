"""One numba call per chunk for experiments on an empty board: build, play, judge and sum the shots.

An experiment with no resting discs on the court and no per-shot records (the commonest kind: draws,
aim and speed sweeps) needs from each shot only its judged outcome, added into its grid cell. Here
each shot's parameters (``experiment_kernels``: its grid cell's intended shot, computed once per
cell, then distributions, aim and execution noise), its launch velocity, its play (``physics.lone.run_lone``) and its judging
(``shots._judge_rest``) happen in one parallel loop over blocks of shots, with nothing per shot
leaving the CPU's caches but a value and a few flags; a second parallel loop over the chunk's grid
cells adds them up. These are the same numba functions, in the same order of operations, as the
general path (``build_shots``, ``simulate_shots``, ``reduce_chunk``), so the sums are bit-identical
to it; only the round trips through Python and memory between the steps are gone.

The block loop is compiled without reference counting (``_nrt=False``), like the batch API's own
lone-disc loop: it allocates nothing, and counting references to the court's arrays for every shot
would cost more than the shot.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from shuffle_sim.experiment_kernels import STATUS_FALLEN, STATUS_HOLED, cell_parameters, drawn_parameters
from shuffle_sim.judge import cached_judge_index
from shuffle_sim.physics.lone import run_lone
from shuffle_sim.physics.table import pack_court
from shuffle_sim.shots import _NOT_FINITE, CHUNK, _judge_rest, _shot_problem

#: Bits of a shot's flags.
FLAG_FAILED = 1  # not played (its start) or not finished (event bound): counted in ``failed`` only
FLAG_DEAD = 2  # dead or fallen
FLAG_HANGER = 4
FLAG_CORNER_HANGER = 8
FLAG_HOLED = 16
FLAG_NOT_FINITE = 32  # a launch value not finite: the general path reports it

#: Event bound per shot (``simulate_shots``'s default, which the general path uses).
MAX_EVENTS = 10_000


@njit(cache=True, error_model="numpy", _nrt=False)
def _play_block(first, start, stop, samples, grid_shape, axis_param, axis_values, nominal, dist_param, dist_kind,
                dist_a, dist_b, skill_sd, uses_target, speed_given, overshoot, stop_speed_per_root_metre, k0, k1,
                table, ja, prepared, index, no_discs, max_events, shot_value, shot_flags):
    """Build, play and judge shots ``first + start`` .. ``first + stop - 1`` into ``shot_value`` and
    ``shot_flags`` (rows ``start`` .. ``stop - 1``)."""
    next_cell_shot = first + np.uint64(start)  # the first shot of the next cell: its intended shot changes there
    c_speed = c_direction = c_spin = c_x = c_y = c_tx = c_ty = 0.0
    c_skill = 0
    for k in range(start, stop):
        shot = first + np.uint64(k)
        if shot >= next_cell_shot:
            cell = shot // samples
            c_speed, c_direction, c_spin, c_x, c_y, c_tx, c_ty, c_skill = cell_parameters(
                cell, grid_shape, axis_param, axis_values, nominal)
            next_cell_shot = (cell + np.uint64(1)) * samples
        speed, direction, spin, x, y = drawn_parameters(
            shot, c_speed, c_direction, c_spin, c_x, c_y, c_tx, c_ty, c_skill, dist_param, dist_kind, dist_a, dist_b,
            skill_sd, uses_target, speed_given, overshoot, stop_speed_per_root_metre, k0, k1, True)
        vx = speed * math.sin(direction)
        vy = speed * math.cos(direction)
        why = _shot_problem(table, ja, index, no_discs, no_discs, x, y, vx, vy, spin)
        if why != 0:
            shot_value[k] = 0
            shot_flags[k] = FLAG_FAILED | (FLAG_NOT_FINITE if why == _NOT_FINITE else 0)
            continue
        x, y, _, _, _, status, dead, ok, _, _ = run_lone(table, x, y, vx, vy, spin, max_events)
        value, _, hanger, dead = _judge_rest(ja, prepared, index, x, y, status, dead)
        flags = 0
        if not ok:
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


@njit(cache=True, error_model="numpy", _nrt=False)
def _sum_cell(c, first, n, samples, values, shot_value, shot_flags, shots, failed, value_sum, value_counts, dead_count,
              hanger_count, corner_count, holed_count, first_bad, not_finite):
    """Add the shots of row ``c`` of the chunk's cells (``reduce_chunk``'s sums for one disc)."""
    cell = first // samples + np.uint64(c)
    lo_shot = np.int64(max(cell * samples, first) - first)
    hi_shot = np.int64(min((cell + np.uint64(1)) * samples, first + np.uint64(n)) - first)
    n_values = values.shape[0]
    for k in range(lo_shot, hi_shot):
        flags = shot_flags[k]
        if flags & FLAG_NOT_FINITE:
            not_finite[c] += 1
        if flags & FLAG_FAILED:
            failed[c] += 1
            continue
        v = shot_value[k]
        lo = 0
        hi = n_values - 1
        while lo < hi:  # binary search: values are sorted
            mid = (lo + hi) // 2
            if values[mid] < v:
                lo = mid + 1
            else:
                hi = mid
        if values[lo] != v:
            first_bad[c] = min(first_bad[c], k)
            continue
        shots[c] += 1
        value_sum[c] += v
        value_counts[c, lo] += 1
        if flags & FLAG_DEAD:
            dead_count[c] += 1
        if flags & FLAG_HANGER:
            hanger_count[c] += 1
        if flags & FLAG_CORNER_HANGER:
            corner_count[c] += 1
        if flags & FLAG_HOLED:
            holed_count[c] += 1


@njit(cache=True, error_model="numpy", parallel=True)
def play_lone_chunk(first, n, samples, grid_shape, axis_param, axis_values, nominal, dist_param, dist_kind, dist_a,
                    dist_b, skill_sd, uses_target, speed_given, overshoot, stop_speed_per_root_metre, k0, k1,
                    ka, ja, prepared, index, max_events, values, no_discs, shot_value, shot_flags,
                    shots, failed, value_sum, value_counts, dead_count, hanger_count, corner_count, holed_count,
                    first_bad, not_finite):
    """Play shots ``first`` .. ``first + n - 1`` with execution noise and add each judged outcome into
    the sums of its grid cell (row ``cell - first // samples``), as ``build_shots``, ``simulate_shots``
    and ``reduce_chunk`` do together. ``no_discs`` is an empty float array; ``shot_value`` and
    ``shot_flags`` (n) are scratch. Per row of cells, ``first_bad`` (filled with n) receives the
    first shot whose judged value is not in the sorted ``values``, and ``not_finite`` counts the shots
    with a launch value that is not finite.
    """
    table = pack_court(ka)
    for c in prange((n + CHUNK - 1) // CHUNK):
        _play_block(first, c * CHUNK, min(n, (c + 1) * CHUNK), samples, grid_shape, axis_param, axis_values, nominal,
                    dist_param, dist_kind, dist_a, dist_b, skill_sd, uses_target, speed_given, overshoot,
                    stop_speed_per_root_metre, k0, k1, table, ja, prepared, index, no_discs, max_events, shot_value,
                    shot_flags)
    for c in prange(shots.shape[0]):
        _sum_cell(np.int64(c), first, n, samples, values, shot_value, shot_flags, shots, failed, value_sum,
                  value_counts, dead_count, hanger_count, corner_count, holed_count, first_bad, not_finite)


#: Per process: the packed court, judge grid and shot plan of the last few experiments (by fingerprint).
_PLANS: dict = {}


def _plan(experiment, chunk_size: int, shot_plan) -> tuple:
    key = (experiment.fingerprint, chunk_size)
    found = _PLANS.get(key)
    if found is None:
        court = experiment.court.for_end(experiment.end)
        ja = court.judge_arrays()
        prepared, index = cached_judge_index(ja, chunk_size)
        found = (shot_plan(experiment), court.kernel_arrays(), ja, prepared, index)
        _PLANS.clear()  # one experiment at a time is the rule; a new one replaces it
        _PLANS[key] = found
    return found


def lone_chunk_args(experiment, start: int, stop: int, plan, ka, ja, prepared, index, values: np.ndarray) -> tuple:
    """The arguments of ``play_lone_chunk`` for shots ``start`` .. ``stop - 1``, with new sums (zero)."""
    n = stop - start
    samples = experiment.samples
    n_local = (stop - 1) // samples - start // samples + 1 if n else 0
    sums = [np.zeros(n_local, dtype=np.int64) for _ in range(3)] + [np.zeros((n_local, len(values)), dtype=np.int64)]
    sums += [np.zeros(n_local, dtype=np.int64) for _ in range(4)]
    return (np.uint64(start), n, plan["samples"], plan["grid_shape"], plan["axis_param"], plan["axis_values"],
            plan["nominal"], plan["dist_param"], plan["dist_kind"], plan["dist_a"], plan["dist_b"], plan["skill_sd"],
            plan["uses_target"], plan["speed_given"], plan["overshoot"], plan["stop_speed_per_root_metre"],
            plan["k0"], plan["k1"], ka, ja, prepared, index, MAX_EVENTS, values, np.empty(0), np.empty(n, np.int64),
            np.empty(n, np.int8), *sums, np.full(n_local, n, dtype=np.int64), np.zeros(n_local, dtype=np.int64))


def compile_lone_kernel(experiment, shot_plan) -> None:
    """Compile (or load) ``play_lone_chunk`` for this experiment's argument types without building the
    judge's grid: stand-ins of the grid's types, and no shots. A second process runs this while the
    first builds the grid (``kernel_warmup``), so that a first run compiles on both cores."""
    from shuffle_sim.judge import CELL_COLUMNS

    court = experiment.court.for_end(experiment.end)
    prepared = (np.zeros((0, 3)), np.empty((0, 4)), np.empty((0, 4)), np.empty(4))
    index = (0.0, 0.0, 1.0, 0, 0, np.empty((0, CELL_COLUMNS), np.int64))
    values = np.zeros(1, dtype=np.int64)
    play_lone_chunk(*lone_chunk_args(experiment, 0, 0, shot_plan(experiment), court.kernel_arrays(),
                                     court.judge_arrays(), prepared, index, values))


def lone_chunk_sums(experiment, start: int, stop: int, chunk_size: int, values: np.ndarray, shot_plan):
    """The per-cell sums of shots ``start`` .. ``stop - 1`` of an experiment on an empty board, as
    ``experiment.compute_chunk`` returns them; None when a launch value is not finite or a judged
    value is not one of ``values`` (the general path then raises its error naming the value).

    ``shot_plan(experiment)`` gives ``build_shots``'s arrays (``experiment._shot_plan``). The judge's
    grid is the one ``simulate_shots`` builds for a batch of ``chunk_size`` shots.
    """
    args = lone_chunk_args(experiment, start, stop, *_plan(experiment, chunk_size, shot_plan), values)
    play_lone_chunk(*args)
    shots, failed, value_sum, value_counts, dead, hanger, corner, holed, first_bad, not_finite = args[-10:]
    if not_finite.any() or first_bad.min() < stop - start:
        return None
    return dict(shots=shots, failed=failed, value_sum=value_sum, dead=dead, hanger=hanger, corner_hanger=corner,
                holed=holed, value_counts=value_counts, cell_start=np.array(start // experiment.samples, dtype=np.int64))
