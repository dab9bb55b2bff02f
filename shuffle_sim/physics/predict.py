"""Predictions: each disc's next boundary event and kill-line crossing, and each pair's next impact.

Everything is predicted from the discs' reference states (``motion``) with the exact solvers of
``toi``, so a prediction stays valid until the motion of one of its discs changes.
"""

from __future__ import annotations

import math

from numba import njit

from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_PEG,
    FALL,
    HOLED,
    STATUS_FALLEN,
    STATUS_MOVING,
    STOP,
)
from shuffle_sim.physics.motion import (
    DEAD,
    KILL_B,
    NEXT_B,
    NEXT_KIND,
    PX,
    PY,
    SPEED,
    STATUS,
    T0,
    T_KILL,
    T_NEXT,
    T_STOP,
    UX,
    UY,
    position_at,
    speed_at,
    stopping_distance,
    time_to_slide,
)
from shuffle_sim.physics.table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    EDGE_CIRCLE,
    EDGE_SEGMENT,
    F_KIND,
    H_DECEL,
    H_RADIUS,
    HOLE,
    KILL_LINE,
    PEG,
    F,
)
from shuffle_sim.physics.toi import (
    APPROACH_TOL,
    CONTACT_GAP,
    OVERLAP_SLACK,
    capsule_entry_framed,
    circle_entry,
    circle_exit,
    circle_exit_contact,
    edge_crossing,
    hole_capture,
    line_passing_within,
    quartic_entry,
)


@njit(cache=True, error_model="numpy", inline="always")
def predict_path(table, qx, qy, ux, uy, speed, moving, alive, t0, t_stop):
    """The next boundary event (stop, cushion, peg, fall, hole) and kill-line crossing of a path.

    The path is a disc's reference state, in scalars: from (qx, qy) at time ``t0`` along (ux, uy)
    at ``speed``, sliding if ``moving``, stopping at ``t_stop``; kill lines count only if ``alive``.
    Returns (t_next, kind, b, t_kill, kill_b): the time, kind and table row of the boundary event
    (inf, -1, -1 if none) and the time and table row of the kill-line crossing (inf, -1 if none).

    Every shape is solved in arc length s along the path (``toi``), and only the earliest is turned
    into a time. Each shape is tested only against the part of the path before the earliest event
    found so far. The kernel's loop (``predict_disc``) and the lone-disc loop (``lone``) both predict
    with this one function, which is why they agree bit for bit.
    """
    r = table[0, H_RADIUS]
    decel = table[0, H_DECEL]
    reach = stopping_distance(speed, decel) if moving else 0.0
    best = reach
    kind = STOP if moving and math.isfinite(reach) else -1
    b = -1
    kill = math.inf
    kill_b = -1
    for row in range(1, table.shape[0]):
        f = table[row, F_KIND]
        g0 = table[row, F]
        g1 = table[row, F + 1]
        g2 = table[row, F + 2]
        g3 = table[row, F + 3]
        s = math.inf
        event = -1
        if f == KILL_LINE:
            if alive:
                s_kill = line_passing_within(qx, qy, ux, uy, g0, g1, g2, g3, reach)
                # Passing the line exactly where the disc stops leaves it on the line, not past it.
                if s_kill < kill and (s_kill == 0.0 or s_kill < reach):
                    kill = s_kill
                    kill_b = row
        elif f == HOLE:
            if moving:
                s = hole_capture(qx, qy, ux, uy, speed, decel, g0, g1, g2, g3)
            elif g3 > 0.0 and (qx - g0) ** 2 + (qy - g1) ** 2 <= g2 * g2:
                s = 0.0  # at rest over the hole: it drops in at once
            event = HOLED
        elif not moving:
            continue
        elif f == EDGE_SEGMENT:
            s = edge_crossing(qx, qy, ux, uy, g0, g1, g2, g3, best)
            event = FALL
        elif f == EDGE_CIRCLE:
            s = circle_exit(qx, qy, ux, uy, g0, g1, g2)
            event = FALL
        elif f == CUSHION_SEGMENT:
            s = capsule_entry_framed(qx, qy, ux, uy, speed, g0, g1, g2, g3, table[row, F + 8], table[row, F + 9],
                                     table[row, F + 10], r + table[row, F + 4], best)
            event = DISC_CUSHION
        elif f == CUSHION_CIRCLE:
            s = circle_exit_contact(qx, qy, ux, uy, speed, g0, g1, g2 - r)
            event = DISC_CUSHION
        elif f == PEG:
            s = circle_entry(qx, qy, ux, uy, speed, g0, g1, r + g2, best)
            event = DISC_PEG
        if s < best or (s == 0.0 and kind == -1):
            best = s
            kind = event
            b = row
    t_next = math.inf
    if kind != -1:
        t_next = t_stop if kind == STOP else t0 + time_to_slide(speed, decel, best)
    t_kill = t0 + time_to_slide(speed, decel, kill) if kill_b >= 0 else math.inf
    return t_next, kind, b, t_kill, kill_b


@njit(cache=True, error_model="numpy", inline="always")
def predict_disc(table, st, ist, i):
    """Disc i's next boundary event (stop, cushion, peg, fall, hole) and kill-line crossing.

    Along its current path from T0 (``predict_path``). ``NEXT_B`` and ``KILL_B`` hold the
    feature's table row (left unchanged, and unused, while ``T_NEXT`` or ``T_KILL`` is inf).
    """
    st[T_NEXT, i] = math.inf
    ist[NEXT_KIND, i] = -1
    st[T_KILL, i] = math.inf
    status = ist[STATUS, i]
    if status >= STATUS_FALLEN:
        return
    t_next, kind, b, t_kill, kill_b = predict_path(table, st[PX, i], st[PY, i], st[UX, i], st[UY, i],
                                                   st[SPEED, i], status == STATUS_MOVING, ist[DEAD, i] == 0,
                                                   st[T0, i], st[T_STOP, i])
    if kind != -1:
        st[T_NEXT, i] = t_next
        ist[NEXT_KIND, i] = kind
        ist[NEXT_B, i] = b
    if kill_b >= 0:
        st[T_KILL, i] = t_kill
        ist[KILL_B, i] = kill_b


@njit(cache=True, error_model="numpy")
def predict_pair(st, ist, i, j, now, decel, contact):
    """Time of the next impact of discs i and j after ``now`` (inf if none while they slide).

    ``contact`` is the distance of the centres at contact, 2 r.
    """
    si = ist[STATUS, i]
    sj = ist[STATUS, j]
    if si >= STATUS_FALLEN or sj >= STATUS_FALLEN:
        return math.inf
    moving_i = si == STATUS_MOVING
    moving_j = sj == STATUS_MOVING
    if not (moving_i or moving_j):
        return math.inf
    if moving_i and moving_j:
        xi, yi = position_at(st, i, now, decel)
        xj, yj = position_at(st, j, now, decel)
        vi = speed_at(st, i, now, decel)
        vj = speed_at(st, j, now, decel)
        cx = xj - xi
        cy = yj - yi
        bx = vj * st[UX, j] - vi * st[UX, i]
        by = vj * st[UY, j] - vi * st[UY, i]
        ax = 0.5 * decel * (st[UX, i] - st[UX, j])
        ay = 0.5 * decel * (st[UY, i] - st[UY, j])
        dist = math.sqrt(cx * cx + cy * cy)
        window = min(st[T_STOP, i], st[T_STOP, j]) - now
        if dist - contact <= CONTACT_GAP:
            if bx * cx + by * cy < -APPROACH_TOL * dist:
                return now
            # Touching, not approaching: they collide once pushed into an overlap of OVERLAP_SLACK,
            # or, if they part first, when they come back to contact. Measuring the return from the
            # present overlap instead would let each bounce of a pair that parts and returns
            # (friction turning them together) sink it OVERLAP_SLACK deeper: the physics fuzz
            # found resting pairs overlapping by ten bounces' worth, just over 1e-9 m.
            pushed = quartic_entry(cx, cy, bx, by, ax, ay, min(contact, dist) - OVERLAP_SLACK, window)
            return now + min(pushed, quartic_entry(cx, cy, bx, by, ax, ay, contact, window))
        return now + quartic_entry(cx, cy, bx, by, ax, ay, contact, window)
    mover = i if moving_i else j
    fixed = j if moving_i else i
    qx, qy = position_at(st, mover, now, decel)
    speed = speed_at(st, mover, now, decel)
    reach = stopping_distance(speed, decel)
    s = circle_entry(qx, qy, st[UX, mover], st[UY, mover], speed, st[PX, fixed], st[PY, fixed], contact, reach)
    if s > reach:
        return math.inf
    return now + time_to_slide(speed, decel, s)
