"""The event loop for one disc alone on the court, its state in local variables (numba).

A lone disc, with no other disc on the court, is the batch API's commonest case: a draw or a shot
at an empty board. It is the kernel's own event loop (``_event_loop.run_table``) with one disc, and gives
bit-identical results (final state, status, standing, event count, end time): the same predictions
(``_predict.predict_path``: every boundary shape solved in arc length along the straight path, the
earliest turned into a time), the same event order and tie-breaks, the same impulses
(``_event_loop.fixed_body_bounce``) and the same event bound. Only the bookkeeping differs: the disc's
reference state lives in scalars instead of the state arrays, there are no pairs to predict and no
logs to write, and nothing is passed to a non-inlined function as an array, so a shot costs no
reference counting at all.

``run_lone`` is compiled as a function of its own, which the batch loops call once per shot: about
2 to 4 % more time per shot than inlining the loop, for a first compile that splits into this (the
lone disc's physics) and the rest (drawing, judging, adding up), which a first run compiles in two
processes at once (``experiment.warmup``). Its helpers are inlined into it, but it is never inlined
itself: numba's copy of an inlined function takes a time that grows with the square of its size.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.compile_ahead import Callee
from shuffle_sim.physics import events
from shuffle_sim.physics.contacts.bounce import fixed_body_bounce
from shuffle_sim.physics.laws.closed_form.predict import coupled_times, predict_path, slow_distance
from shuffle_sim.physics.laws.closed_form.slide import motion_after, start_reference
from shuffle_sim.physics.tables.court_table import H_DECEL, H_RADIUS, H_SPIN_DECEL, F


@jit.inline
def _predict_lone(
    table, orbit_tables, px, py, ux, uy, speed, omega, mode, sigma0, theta, reach, status, dead, t0, t_stop
):
    """(t_next, kind, b, t_kill, kill_b): the next boundary event and kill-line crossing of the lone
    disc's path (``_predict.predict_path``), their times along the coupled motion if it is in it."""
    coupled = mode >= 0 and status == events.STATUS_MOVING
    s_slow = slow_distance(table, orbit_tables, mode, sigma0, theta, reach, speed, omega) if coupled else 0.0
    t_next, next_kind, next_b, t_kill, kill_b, s_next, s_kill = predict_path(
        table,
        px,
        py,
        ux,
        uy,
        speed,
        reach if coupled else -1.0,
        s_slow,
        status == events.STATUS_MOVING,
        not dead,
        t0,
        t_stop,
    )
    if coupled:
        t_next, t_kill = coupled_times(
            table, orbit_tables, mode, sigma0, theta, reach, speed, omega, t0, next_kind, s_next, s_kill, t_next, t_kill
        )
    return t_next, next_kind, next_b, t_kill, kill_b


@jit.inline
def _after_event(table, kind, b, qx, qy, vx, vy, w, dead):
    """Where the disc is and how it moves after a cushion, peg, stop, fall or hole at (qx, qy), moving
    at (vx, vy) with spin w: (x, y, vx, vy, w, dead), as the kernel applies the event."""
    if kind in (events.DISC_CUSHION, events.DISC_PEG):
        new_vx, new_vy, new_w, kills = fixed_body_bounce(table, b, qx, qy, vx, vy, w, False)
        dead = dead or kills
    elif kind == events.STOP:
        new_vx, new_vy, new_w = 0.0, 0.0, w
    else:  # FALL or HOLED: out of play where it crossed the edge, or at the hole's centre
        if kind == events.HOLED:
            qx = table[b, F]
            qy = table[b, F + 1]
        new_vx, new_vy, new_w = 0.0, 0.0, 0.0
    return qx, qy, new_vx, new_vy, new_w, dead


@jit.inline
def _status_after(kind, speed):
    """The disc's status after an event: out of play after a fall or a hole, else moving or at rest."""
    if kind == events.FALL:
        return events.STATUS_FALLEN
    if kind == events.HOLED:
        return events.STATUS_HOLED
    return events.STATUS_MOVING if speed > 0.0 else events.STATUS_REST


@jit.no_refcount
def run_lone(table, orbit_tables, x, y, vx, vy, omega, max_events):
    """Run one disc launched at (x, y) with (vx, vy, omega) at time 0 until it rests or leaves play.

    ``table`` is the packed court (``_court_table.pack_court``), ``orbit_tables`` the coupled model's packed tables
    (no rows for the decoupled model). Returns (x, y, vx, vy, omega, status,
    dead, ok, t_end, processed): the disc's state at the end time ``t_end`` (the time of the last
    event), its ``events.STATUS_*``, whether it is dead (kill line, killing cushion), ``ok`` False if
    ``max_events`` events were processed before the end, and the number of events processed; all as
    ``run_table`` and ``state_at`` give them for a scene of this one disc.
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    # The reference state: from (px, py) at time t0 along (ux, uy) at speed, spin omega.
    px = x
    py = y
    t0 = 0.0
    ux, uy, speed, omega, t_stop, t_spin, mode, sigma0, reach, theta = start_reference(
        orbit_tables, radius, t0, px, py, vx, vy, omega, decel, spin_decel
    )
    status = events.STATUS_MOVING if speed > 0.0 else events.STATUS_REST
    dead = False
    t_next, next_kind, next_b = math.inf, -1, -1  # the next boundary event: time, kind, table row
    t_kill, kill_b = math.inf, -1  # the next kill-line crossing
    now = 0.0
    ok = True
    processed = 0
    predict = True  # the path changed: predict its events again (one call site keeps the code small)
    while True:
        if predict:
            predict = False
            if status in (events.STATUS_FALLEN, events.STATUS_HOLED):
                t_next = math.inf
                t_kill = math.inf
            else:
                t_next, next_kind, next_b, t_kill, kill_b = _predict_lone(
                    table,
                    orbit_tables,
                    px,
                    py,
                    ux,
                    uy,
                    speed,
                    omega,
                    mode,
                    sigma0,
                    theta,
                    reach,
                    status,
                    dead,
                    t0,
                    t_stop,
                )
        # The earliest event, ties going the kernel's way: boundary, kill line, spin stop.
        t = math.inf
        kind = -1
        b = -1
        if t_next < t:
            t, kind, b = t_next, next_kind, next_b
        if t_kill < t:
            t, kind, b = t_kill, events.KILLED, kill_b
        if t_spin < t:
            t, kind, b = t_spin, events.SPIN_STOP, -1
        if kind == -1:
            break
        if processed >= max_events:
            ok = False
            break
        processed += 1
        now = max(now, t)
        if kind == events.KILLED:
            dead = True
            t_kill = math.inf
            continue
        if kind == events.SPIN_STOP:
            # Zero, not the decayed reference spin (as the kernel does).
            omega = 0.0
            t_spin = math.inf
            continue
        # Where the disc is now, and how fast it moves and spins (the kernel's ``_state``).
        slid, v, w = motion_after(
            orbit_tables, radius, mode, sigma0, reach, theta, speed, omega, decel, spin_decel, now - t0
        )
        qx = px + ux * slid
        qy = py + uy * slid
        if status != events.STATUS_MOVING:
            v = 0.0
        px, py, new_vx, new_vy, new_w, dead = _after_event(table, kind, b, qx, qy, ux * v, uy * v, w, dead)
        t0 = now
        ux, uy, speed, omega, t_stop, t_spin, mode, sigma0, reach, theta = start_reference(
            orbit_tables, radius, t0, px, py, new_vx, new_vy, new_w, decel, spin_decel
        )
        status = _status_after(kind, speed)
        predict = True
    slid, v, w = motion_after(
        orbit_tables, radius, mode, sigma0, reach, theta, speed, omega, decel, spin_decel, now - t0
    )
    if status != events.STATUS_MOVING:
        v = 0.0
    return (px + ux * slid, py + uy * slid, ux * v, uy * v, w, status, dead, ok, now, processed)


#: The same kernel under a second name, for numba code written against it.
run_lone_call = run_lone


# The functions ``run_lone``'s compile reaches, in the order it reaches them, with the signatures
# it compiles them for (checked by a test): a first run's other process compiles them last first,
# meeting this one's compile half way (``experiment.warmup``). They are kept as text, so that listing
# them loads nothing.
_F2 = "float64[:, ::1]"
LONE_CALLEES = tuple(
    Callee(module, name, signature)
    for module, name, signature in (
        ("shuffle_sim.physics.laws.closed_form.coupled", "start_motion", f"({_F2}, float64, float64, float64)"),
        ("shuffle_sim.physics.laws.closed_form.coupled", "_sigma_of", f"({_F2}, int64, float64)"),
        ("shuffle_sim.physics.laws.closed_form.coupled", "orbit_state", f"({_F2}, int64, float64)"),
        (
            "shuffle_sim.physics.laws.closed_form.predict",
            "slow_distance",
            f"({_F2}, {_F2}, int64, float64, float64, float64, float64, float64)",
        ),
        (
            "shuffle_sim.physics.laws.closed_form.coupled",
            "distance_at_speed",
            f"({_F2}, int64, {', '.join(['float64'] * 7)})",
        ),
        ("shuffle_sim.physics.laws.closed_form.coupled", "motion_at", f"({_F2}, int64, {', '.join(['float64'] * 7)})"),
        ("shuffle_sim.physics.laws.closed_form.slide", "stopping_distance", "(float64, float64)"),
        ("shuffle_sim.physics.laws.closed_form.toi", "surely_beyond", "(float64, float64, float64)"),
        ("shuffle_sim.physics.laws.closed_form.toi", "hole_capture", f"({', '.join(['float64'] * 10)})"),
        ("shuffle_sim.physics.laws.closed_form.toi", "hole_capture_after", f"({', '.join(['float64'] * 8)})"),
        ("shuffle_sim.physics.laws.closed_form.toi", "circle_exit", f"({', '.join(['float64'] * 7)})"),
        ("shuffle_sim.physics.laws.closed_form.toi", "circle_entry", f"({', '.join(['float64'] * 9)})"),
        ("shuffle_sim.physics.laws.closed_form.toi", "_circle_entry", "(float64, float64, float64)"),
        ("shuffle_sim.physics.laws.closed_form.toi", "circle_exit_contact", f"({', '.join(['float64'] * 8)})"),
        ("shuffle_sim.physics.laws.closed_form.slide", "time_to_slide", "(float64, float64, float64)"),
        (
            "shuffle_sim.physics.laws.closed_form.predict",
            "coupled_times",
            f"({_F2}, {_F2}, int64, {', '.join(['float64'] * 6)}, int64, float64, float64, float64, float64)",
        ),
        (
            "shuffle_sim.physics.laws.closed_form.coupled",
            "time_to_reach",
            f"({_F2}, int64, {', '.join(['float64'] * 7)})",
        ),
        ("shuffle_sim.physics.laws.closed_form.slide", "travelled", "(float64, float64, float64)"),
        ("shuffle_sim.physics.laws.closed_form.slide", "spin_after", "(float64, float64, float64)"),
        ("shuffle_sim.physics.contacts.impulses", "fixed_body_impulse", f"({', '.join(['float64'] * 10)})"),
        ("shuffle_sim.physics.contacts.impulses", "_coulomb_cap", "(float64, float64, float64)"),
    )
)
