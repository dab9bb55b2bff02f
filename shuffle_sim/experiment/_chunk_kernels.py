"""numba kernels of batch experiments: build a chunk's shots, and reduce its results to per-cell sums.

Both run once per chunk over arrays (structure of arrays); Python is never called per shot.

``build_shots`` turns shot indices into launch states: grid cell ``i // samples`` (unravelled in C
order over the grid axes), then the parameter distributions (stream 1 of ``shuffle_sim.noise``), the
aim at a target, and the execution noise of the cell's skill (stream 0). The random layout is the one
``shuffle_sim.noise.uniforms`` and ``normals`` document, so each shot's draws depend only on (seed,
shot index).

``reduce_chunk`` adds a chunk's judged shots into integer sums per grid cell (shots, value sum and
counts per value, dead, hangers, holed, frame scores, board discs removed). Integer sums are exact
in any order: that is what makes results independent of chunking and scheduling.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.court.friction_law import law_launch_speed
from shuffle_sim.noise import (
    STREAM_DISTRIBUTIONS,
    STREAM_EXECUTION,
    box_muller,
    philox4x64,
    philox4x64_inline,
    word_to_uniform,
)

#: Parameter codes in ``build_shots`` (axis_param, dist_param). A skill axis holds indices into the
#: skills' deviations; every court axis (``_court_axes``: court speed, grade, crown) holds its index
#: times its stride, and a cell's court index (into the courts' tables and stop speeds) is their sum.
P_SPEED, P_DIRECTION, P_SPIN, P_START_X, P_START_Y, P_TARGET_X, P_TARGET_Y, P_SKILL, P_COURT = range(9)
PARAMETER_CODES = {
    "speed": P_SPEED,
    "direction": P_DIRECTION,
    "spin": P_SPIN,
    "start_x": P_START_X,
    "start_y": P_START_Y,
    "target_x": P_TARGET_X,
    "target_y": P_TARGET_Y,
    "skill": P_SKILL,
    "court_speed": P_COURT,
    "slope_x": P_COURT,
    "slope_y": P_COURT,
    "crown": P_COURT,
}
DIST_UNIFORM = 0
DIST_NORMAL = 1

#: Shot status codes (``shuffle_sim.physics.events``).
STATUS_FALLEN = 2
STATUS_HOLED = 3


@jit.inline
def _word(w0, w1, w2, w3, k):
    if k == 0:
        return w0
    if k == 1:
        return w1
    if k == 2:
        return w2
    return w3


@jit.inline
def _uniform_slot(shot, stream, slot, k0, k1):
    """Uniform number ``slot`` of a shot's stream: word slot % 4 of Philox block slot // 4."""
    w0, w1, w2, w3 = philox4x64(shot, np.uint64(stream), np.uint64(slot // 4), np.uint64(0), k0, k1)
    return word_to_uniform(_word(w0, w1, w2, w3, slot % 4))


@jit.inline
def _assign(code, value, speed, direction, spin, sx, sy, tx, ty, skill, court):
    if code == P_SPEED:
        speed = value
    elif code == P_DIRECTION:
        direction = value
    elif code == P_SPIN:
        spin = value
    elif code == P_START_X:
        sx = value
    elif code == P_START_Y:
        sy = value
    elif code == P_TARGET_X:
        tx = value
    elif code == P_TARGET_Y:
        ty = value
    elif code == P_SKILL:
        skill = int(value)
    else:
        court += int(value)
    return speed, direction, spin, sx, sy, tx, ty, skill, court


@jit.inline
def cell_parameters(cell, grid):
    """The intended shot of grid cell ``cell`` (uint64; C order over the axes) before any random draw:
    (speed, direction, spin, start x, start y, target x, target y, skill index, court index).
    ``grid`` is (grid_shape, axis_param, axis_values, nominal) (``build_shots``)."""
    grid_shape, axis_param, axis_values, nominal = grid
    speed = nominal[0]
    direction = nominal[1]
    spin = nominal[2]
    sx = nominal[3]
    sy = nominal[4]
    tx = nominal[5]
    ty = nominal[6]
    skill = 0
    court = 0
    rest = cell
    for a in range(grid_shape.shape[0] - 1, -1, -1):
        size = np.uint64(grid_shape[a])
        index = rest % size
        rest = rest // size
        speed, direction, spin, sx, sy, tx, ty, skill, court = _assign(
            axis_param[a], axis_values[a, np.int64(index)], speed, direction, spin, sx, sy, tx, ty, skill, court
        )
    return speed, direction, spin, sx, sy, tx, ty, skill, court


@jit.inline
def drawn_parameters(shot, intended, variation, with_noise):
    """(speed, direction, spin, start x, start y) of shot index ``shot`` (uint64) from its cell's
    ``intended`` shot (``cell_parameters``): the parameter distributions, the aim at a target (the
    launch that stops a free slide there on the cell's court: Coulomb's sqrt(2 mu g) times the root of
    the distance, or the friction law of speed inverted, ``court.friction_law.law_launch_speed``), and
    the execution noise of the cell's skill when ``with_noise``. ``variation`` as in ``build_shots``."""
    speed, direction, spin, sx, sy, tx, ty, skill, court = intended
    (
        dist_param,
        dist_kind,
        dist_a,
        dist_b,
        skill_sd,
        uses_target,
        speed_given,
        overshoot,
        court_decelerations,
        k0,
        k1,
    ) = variation
    for j in range(dist_param.shape[0]):
        u1 = _uniform_slot(shot, STREAM_DISTRIBUTIONS, 2 * j, k0, k1)
        if dist_kind[j] == DIST_UNIFORM:
            value = dist_a[j] + (dist_b[j] - dist_a[j]) * u1
        else:
            u2 = _uniform_slot(shot, STREAM_DISTRIBUTIONS, 2 * j + 1, k0, k1)
            z, _ = box_muller(u1, u2)
            value = dist_a[j] + dist_b[j] * z
        speed, direction, spin, sx, sy, tx, ty, skill, court = _assign(
            dist_param[j], value, speed, direction, spin, sx, sy, tx, ty, skill, court
        )
    if uses_target:
        dx = tx - sx
        dy = ty - sy
        direction = math.atan2(dx, dy)
        if not speed_given:
            distance = math.hypot(dx, dy) + overshoot
            decel = court_decelerations[court, 0]
            growth = court_decelerations[court, 1]
            if growth == 0.0 or distance <= 0.0:
                speed = math.sqrt(2.0 * decel) * math.sqrt(distance if distance > 0.0 else 0.0)
            else:
                speed = law_launch_speed(distance, decel, growth)
    if speed < 0.0:
        speed = 0.0
    if with_noise:
        # Each error is its own slot of the shot's stream (see shuffle_sim.noise); a slot whose
        # standard deviation is zero is not drawn: it would add zero (a skill without spin or start
        # errors, the commonest, needs one Philox block and one Box-Muller pair, not two and three).
        w0, w1, w2, w3 = philox4x64_inline(shot, np.uint64(STREAM_EXECUTION), np.uint64(0), np.uint64(0), k0, k1)
        sd_speed = skill_sd[skill, 0]
        sd_direction = skill_sd[skill, 1]
        sd_spin = skill_sd[skill, 2]
        sd_start = skill_sd[skill, 3]
        sd_floor = skill_sd[skill, 4]
        if sd_speed != 0.0 or sd_direction != 0.0 or sd_floor != 0.0:
            z0, z1 = box_muller(word_to_uniform(w0), word_to_uniform(w1))
            if sd_floor == 0.0:
                speed = speed * (1.0 + sd_speed * z0)
            else:
                # The proportional and the absolute part, independent: one normal of their combined sd.
                speed = speed + math.sqrt(sd_speed * sd_speed * speed * speed + sd_floor * sd_floor) * z0
            if speed < 0.0:
                speed = 0.0
            direction = direction + sd_direction * z1
        if sd_spin != 0.0 or sd_start != 0.0:
            z2, z3 = box_muller(word_to_uniform(w2), word_to_uniform(w3))
            spin = spin + sd_spin * z2
            sx = sx + sd_start * z3
        if sd_start != 0.0:
            w0, w1, w2, w3 = philox4x64(shot, np.uint64(STREAM_EXECUTION), np.uint64(1), np.uint64(0), k0, k1)
            z4, _ = box_muller(word_to_uniform(w0), word_to_uniform(w1))
            sy = sy + sd_start * z4
    return speed, direction, spin, sx, sy


@jit.kernel
def put_shot(i, cell, counter, grid, variation, with_noise, outs):
    """Row ``i`` of ``outs`` (speed, direction, spin, start x, start y): the shot of grid cell ``cell``
    played with the random draws of ``counter`` (both uint64).

    Compiled on its own, not inlined into the parallel loops that call it: numba's parallel loops
    drop the writes to arrays taken out of a tuple inside them.
    """
    out_speed, out_direction, out_spin, out_x, out_y = outs
    out_speed[i], out_direction[i], out_spin[i], out_x[i], out_y[i] = drawn_parameters(
        counter, cell_parameters(cell, grid), variation, with_noise
    )


@jit.parallel
def build_shots(first, samples, grid, variation, with_noise, outs):
    """Shot parameters for shots ``first .. first + n - 1`` (n = the length of ``outs``' arrays), with or
    without noise, into ``outs``: speed, direction, spin, start x, start y.

    ``grid`` holds the grid's intended shots: ``grid_shape``, ``axis_param``, ``axis_values`` (axes x
    longest axis: each axis's values in SI, direction in rad, skill as its index) and ``nominal``
    (speed, direction (rad), spin, start x, start y, target x, target y). ``variation`` holds how a
    shot varies from its cell's intended shot: the parameter distributions (``dist_param``,
    ``dist_kind``, ``dist_a``, ``dist_b``), the skills' standard deviations ``skill_sd`` (skills x 5:
    speed (relative), direction (rad), spin (rad/s), start (m) and speed floor (m/s);
    ``NoiseModel.deviations``), the aim (``uses_target``, ``speed_given``, ``overshoot``,
    ``court_decelerations``: (courts, 2), per court of a court-speed axis (one row without one) its
    sliding deceleration at rest g mu and its growth with speed g mu_speed,
    ``court.friction_law.decelerations``) and the random key (``k0``, ``k1``). Speeds never go negative.
    """
    n = outs[0].shape[0]
    for i in prange(n):
        shot = first + np.uint64(i)
        put_shot(np.int64(i), shot // np.uint64(samples), shot, grid, variation, with_noise, outs)


@jit.inline
def value_slot(values, v):
    """Where ``v`` is, or would go, in the sorted court values ``values``: a binary search."""
    lo = 0
    hi = values.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit.inline
def add_outcome(sums, r, slot, v, dead, hanger, corner_hanger, holed):
    """Count a finished shot judged ``v`` (``values[slot]``) into row ``r`` of ``sums``, whose first
    eight arrays are shots, failed, value sum, value counts, dead, hangers, corner hangers and holed
    (``reduce_chunk``)."""
    shots, _, value_sum, value_counts, dead_count, hanger_count, corner_count, holed_count = sums[:8]
    shots[r] += 1
    value_sum[r] += v
    value_counts[r, slot] += 1
    if dead:
        dead_count[r] += 1
    if hanger:
        hanger_count[r] += 1
    if corner_hanger:
        corner_count[r] += 1
    if holed:
        holed_count[r] += 1


@jit.inline
def _add_shot(k, cell, judged, values, shooter, sums):
    """Add row ``k`` of a chunk's judged shots into row ``cell`` of the sums; False when its judged
    value is not one of ``values``."""
    value, status, dead, hanger, ok = judged
    failed = sums[1]
    score_sum, opponent_sum, removed = sums[8:]
    d = value.shape[1]
    n_board = d - 1
    if not ok[k]:
        failed[cell] += 1
        return True
    v = value[k, n_board]
    lo = value_slot(values, v)
    if values[lo] != v:
        return False
    s = status[k, n_board]
    h = hanger[k, n_board]
    add_outcome(sums, cell, lo, v, dead[k, n_board] or s == STATUS_FALLEN, h > 0, h == 2, s == STATUS_HOLED)
    if n_board > 0:
        mine = 0
        theirs = 0
        for j in range(d):
            if shooter[j]:
                mine += value[k, j]
            else:
                theirs += value[k, j]
        score_sum[cell] += mine
        opponent_sum[cell] += theirs
        for j in range(n_board):
            if dead[k, j] or status[k, j] == STATUS_FALLEN:
                removed[cell, j] += 1
    return True


@jit.kernel
def reduce_chunk(first, samples, cell_start, judged, values, shooter, sums):
    """Add a chunk's judged shots into per-cell sums.

    ``judged`` holds the ``ShotBatch`` arrays value, status, dead, hanger and ok (rows of shots, the
    shot disc last); ``sums`` the per-cell sums, in the order of ``_cell_sums.KERNEL_SUMS``. Returns
    -1, or the row of the first finished shot whose value is not in ``values`` (a court value the
    experiment did not expect: the caller reports it).
    """
    for k in range(judged[0].shape[0]):
        if not _add_shot(k, (first + k) // samples - cell_start, judged, values, shooter, sums):
            return k
    return -1


@jit.kernel
def reduce_rows(rows, judged, values, shooter, sums):
    """``reduce_chunk`` with each shot's row of the sums given (``rows``): for chunks whose cells are
    not consecutive runs of shots (paired axes, ``experiment.pairing``)."""
    for k in range(judged[0].shape[0]):
        if not _add_shot(k, rows[k], judged, values, shooter, sums):
            return k
    return -1
