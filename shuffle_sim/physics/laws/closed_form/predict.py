"""Predictions: each disc's next boundary event and kill-line crossing, and each pair's next impact.

Everything is predicted from the discs' reference states (``slide``) with the exact solvers of
``toi``, so a prediction stays valid until the motion of one of its discs changes.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import DISC_CUSHION, DISC_PEG, FALL, HOLED, STATUS_FALLEN, STATUS_MOVING, STOP
from shuffle_sim.physics.laws.closed_form import slide
from shuffle_sim.physics.laws.closed_form.coupled import distance_at_speed, time_to_reach
from shuffle_sim.physics.laws.closed_form.toi import (
    capsule_entry_framed,
    circle_entry,
    circle_exit,
    circle_exit_contact,
    edge_crossing,
    hole_capture,
    hole_capture_after,
    line_passing_within,
)
from shuffle_sim.physics.state import DEAD, KILL_B, NEXT_B, NEXT_KIND, STATUS, T_KILL, T_NEXT
from shuffle_sim.physics.tables.court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    EDGE_CIRCLE,
    EDGE_SEGMENT,
    F_KIND,
    H_DECEL,
    H_HOLE_SPEED,
    H_RADIUS,
    HOLE,
    KILL_LINE,
    PEG,
    F,
)


@jit.inline
def _shape_contact(table, row, f, qx, qy, ux, uy, speed, r, best):
    """(s, kind): the arc length at which a sliding disc's straight path from (qx, qy) along (ux, uy)
    first meets the edge (FALL), cushion (DISC_CUSHION) or peg (DISC_PEG) of table row ``row`` of
    kind ``f``, or inf; shapes beyond ``best`` may be skipped (``toi``)."""
    g0 = table[row, F]
    g1 = table[row, F + 1]
    g2 = table[row, F + 2]
    g3 = table[row, F + 3]
    if f == EDGE_SEGMENT:
        return edge_crossing(qx, qy, ux, uy, g0, g1, g2, g3, best), FALL
    if f == EDGE_CIRCLE:
        return circle_exit(qx, qy, ux, uy, g0, g1, g2), FALL
    if f == CUSHION_SEGMENT:
        return capsule_entry_framed(
            qx,
            qy,
            ux,
            uy,
            speed,
            g0,
            g1,
            g2,
            g3,
            table[row, F + 8],
            table[row, F + 9],
            table[row, F + 10],
            r + table[row, F + 4],
            best,
        ), DISC_CUSHION
    if f == CUSHION_CIRCLE:
        return circle_exit_contact(qx, qy, ux, uy, speed, g0, g1, g2 - r), DISC_CUSHION
    if f == PEG:
        return circle_entry(qx, qy, ux, uy, speed, g0, g1, r + g2, best), DISC_PEG
    return math.inf, -1


@jit.inline
def predict_path(table, qx, qy, ux, uy, speed, reach_c, s_slow, moving, alive, t0, t_stop):
    """The next boundary event (stop, cushion, peg, fall, hole) and kill-line crossing of a path.

    The path is a disc's reference state, in scalars: from (qx, qy) at time ``t0`` along (ux, uy)
    at ``speed``, sliding if ``moving``, stopping at ``t_stop``; kill lines count only if ``alive``.
    ``reach_c`` < 0 is the closed-form motion; otherwise the coupled motion with stop distance
    ``reach_c``, slowed to the holes' capture speed after ``s_slow``. The path is straight either
    way, so only the stop distance and the conversion of arc length to time depend on the model.
    Returns (t_next, kind, b, t_kill, kill_b, s_next, s_kill): the time, kind and table row of the
    boundary event (inf, -1, -1 if none), the time and table row of the kill-line crossing (inf, -1
    if none), and their arc lengths. In the coupled motion the caller turns the arc lengths into
    times (``_coupled.time_to_reach``), except the stop's, which is ``t_stop``; this function never
    sees the tables, so the closed-form path costs nothing more.

    Every shape is solved in arc length s along the path (``toi``), and only the earliest is turned
    into a time. Each shape is tested only against the part of the path before the earliest event
    found so far. The kernel's loop (``predict_disc``) and the lone-disc loop (``lone``) both predict
    with this one function, which is why they agree bit for bit.
    """
    r = table[0, H_RADIUS]
    decel = table[0, H_DECEL]
    closed = reach_c < 0.0
    if closed:
        reach = slide.stopping_distance(speed, decel) if moving else 0.0
    else:
        reach = reach_c if moving else 0.0
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
            if moving and closed:
                s = hole_capture(qx, qy, ux, uy, speed, decel, g0, g1, g2, g3)
            elif moving:
                s = hole_capture_after(qx, qy, ux, uy, s_slow, g0, g1, g2)
            elif g3 > 0.0 and (qx - g0) ** 2 + (qy - g1) ** 2 <= g2 * g2:
                s = 0.0  # at rest over the hole: it drops in at once
            event = HOLED
        elif not moving:
            continue
        else:
            s, event = _shape_contact(table, row, f, qx, qy, ux, uy, speed, r, best)
        if s < best or (s == 0.0 and kind == -1):
            best = s
            kind = event
            b = row
    t_next = math.inf
    t_kill = math.inf
    if closed:
        if kind != -1:
            t_next = t_stop if kind == STOP else t0 + slide.time_to_slide(speed, decel, best)
        if kill_b >= 0:
            t_kill = t0 + slide.time_to_slide(speed, decel, kill)
    elif kind == STOP:
        t_next = t_stop
    return t_next, kind, b, t_kill, kill_b, best, kill


@jit.inline
def predict_disc(table, st, ist, i, s_slow):
    """Disc i's next boundary event (stop, cushion, peg, fall, hole) and kill-line crossing.

    Along its current path from T0 (``predict_path``). ``NEXT_B`` and ``KILL_B`` hold the
    feature's table row (left unchanged, and unused, while ``T_NEXT`` or ``T_KILL`` is inf). In the
    coupled motion (``MODE`` >= 0) the times of events other than the stop are left to
    ``coupled_event_times``; returns the arc lengths it needs.
    """
    st[T_NEXT, i] = math.inf
    ist[NEXT_KIND, i] = -1
    st[T_KILL, i] = math.inf
    status = ist[STATUS, i]
    if status >= STATUS_FALLEN:
        return math.inf, math.inf
    t_next, kind, b, t_kill, kill_b, s_next, s_kill = predict_path(
        table,
        st[slide.PX, i],
        st[slide.PY, i],
        st[slide.UX, i],
        st[slide.UY, i],
        st[slide.SPEED, i],
        st[slide.REACH, i] if st[slide.MODE, i] >= 0 else -1.0,
        s_slow,
        status == STATUS_MOVING,
        ist[DEAD, i] == 0,
        st[slide.T0, i],
        st[slide.T_STOP, i],
    )
    if kind != -1:
        st[T_NEXT, i] = t_next
        ist[NEXT_KIND, i] = kind
        ist[NEXT_B, i] = b
    if kill_b >= 0:
        st[T_KILL, i] = t_kill
        ist[KILL_B, i] = kill_b
    return s_next, s_kill


@jit.no_refcount
def slow_distance(table, orbit_tables, mode, sigma0, theta, reach, speed, omega):
    """Where a disc in the coupled motion (``start_reference``'s mode, sigma0, theta, reach from a
    reference speed and spin) has slowed to the holes' capture speed; 0 on a court without holes."""
    capture = table[0, H_HOLE_SPEED]
    if capture < 0.0:
        return 0.0
    return distance_at_speed(
        orbit_tables, mode, sigma0, theta, reach, speed, table[0, H_RADIUS] * abs(omega), table[0, H_DECEL], capture
    )


@jit.no_refcount
def coupled_times(
    table, orbit_tables, mode, sigma0, theta, reach, speed, omega, t0, next_kind, s_next, s_kill, t_next, t_kill
):
    """(t_next, t_kill) of a disc in the coupled motion from ``predict_path``'s arc lengths: the
    boundary event's time unless it is the stop (whose time ``predict_path`` already gives) or none,
    and the kill-line crossing's if there is one. Calls of their own, so that the inlined loops of
    spin-free discs stay as small as the closed form needs."""
    rim = table[0, H_RADIUS] * abs(omega)
    decel = table[0, H_DECEL]
    if next_kind != -1 and next_kind != STOP:
        t_next = t0 + time_to_reach(orbit_tables, mode, sigma0, theta, reach, speed, rim, decel, s_next)
    if s_kill != math.inf:
        t_kill = t0 + time_to_reach(orbit_tables, mode, sigma0, theta, reach, speed, rim, decel, s_kill)
    return t_next, t_kill


@jit.inline
def coupled_slow_distance(table, orbit_tables, st, i):
    """``slow_distance`` of disc i (0 unless it is in the coupled motion)."""
    if st[slide.MODE, i] < 0:
        return 0.0
    return slow_distance(
        table,
        orbit_tables,
        int(st[slide.MODE, i]),
        st[slide.SIGMA0, i],
        st[slide.THETA, i],
        st[slide.REACH, i],
        st[slide.SPEED, i],
        st[slide.OMEGA, i],
    )


@jit.inline
def coupled_event_times(table, orbit_tables, st, ist, i, s_next, s_kill):
    """Turn disc i's predicted arc lengths into times along its coupled motion (``predict_disc``)."""
    st[T_NEXT, i], st[T_KILL, i] = coupled_times(
        table,
        orbit_tables,
        int(st[slide.MODE, i]),
        st[slide.SIGMA0, i],
        st[slide.THETA, i],
        st[slide.REACH, i],
        st[slide.SPEED, i],
        st[slide.OMEGA, i],
        st[slide.T0, i],
        ist[NEXT_KIND, i],
        s_next,
        s_kill,
        st[T_NEXT, i],
        st[T_KILL, i],
    )


@jit.inline
def path_reach(st, i, decel):
    """How far disc i slides from its reference state to its stop, in either model."""
    return st[slide.REACH, i] if st[slide.MODE, i] >= 0 else slide.stopping_distance(st[slide.SPEED, i], decel)
