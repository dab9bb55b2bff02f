"""Events of a lone disc on a curved court (``lone``): the next event along a step, searched
on the step's dense output; its time made exact on the integrated state; and the event applied
(a cushion or peg, a fall, a hole), numba."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics import events
from shuffle_sim.physics.contacts.bounce import fixed_body_bounce
from shuffle_sim.physics.laws.integrated.dense import dense
from shuffle_sim.physics.laws.integrated.motion import (
    NO_RIDE,
    RIDE_NONE,
    dense_component,
    ride_force,
    spin_stop_fraction,
    spin_stop_time,
)
from shuffle_sim.physics.laws.integrated.rides import RIDE_END, pushed_ride, ride_release, ride_shapes, settles
from shuffle_sim.physics.laws.integrated.shapes import NO_SHAPE, clear, first_event, gap, start_shape
from shuffle_sim.physics.laws.integrated.state import with_sign
from shuffle_sim.physics.laws.integrated.step import step
from shuffle_sim.physics.tables.court_table import (
    F_KIND,
    F,
    event_of_row,
)

#: Newton corrections of an event's time on the integrated states, the gap it aims for there (m, or
#: m/s^2 for a ride's push) and the offset (a fraction of the step) of the dense output's slope.
EVENT_NEWTON = 4
EVENT_GAP = 1e-13
EVENT_PROBE = 1e-6


@jit.kernel
def _event_gap(surface, c, members, ride, shape, push, x, y, vx, vy, w):
    """The gap that closes at an event: a shape's, or the ridden body's push (``push``)."""
    if push and shape[0] < 0.0:
        if vx == 0.0 and vy == 0.0:
            return 1.0
        return ride_force(surface, c, members, ride, x, y, vx, vy, w)
    return gap(shape, x, y, math.sqrt(vx * vx + vy * vy))


@jit.no_refcount
def event_state(surface, c, members, ride, shape, push, out, y, f, h, theta, lo):
    """The state at an event found at the fraction ``theta`` of a step on its dense output ``out``,
    integrated from the step's start, with theta corrected by Newton's method on the integrated states
    (the slope of the gap from the dense output) until the gap there is within ``EVENT_GAP`` of zero:
    the dense output errs by up to about the step's tolerance, the integration far less. ``y`` and
    ``f`` are the step's start state and its derivatives (6-tuples)."""
    y0, y1, y2, y3, y4, _ = y
    e, _, _ = step(surface, c, members, ride, y, f, h * theta)
    if shape[0] < 0.0 and not push:
        return e  # a spin stop: the spin is set to zero, the path does not change
    for _ in range(EVENT_NEWTON):
        g = _event_gap(surface, c, members, ride, shape, push, e[0], e[1], e[2], e[3], e[4])
        if abs(g) <= EVENT_GAP:
            break
        a = max(lo, theta - EVENT_PROBE)
        b = min(1.0, theta + EVENT_PROBE)
        ga = _event_gap(
            surface,
            c,
            members,
            ride,
            shape,
            push,
            dense_component(out, np.int64(0), y0, a),
            dense_component(out, np.int64(1), y1, a),
            dense_component(out, np.int64(2), y2, a),
            dense_component(out, np.int64(3), y3, a),
            dense_component(out, np.int64(4), y4, a),
        )
        gb = _event_gap(
            surface,
            c,
            members,
            ride,
            shape,
            push,
            dense_component(out, np.int64(0), y0, b),
            dense_component(out, np.int64(1), y1, b),
            dense_component(out, np.int64(2), y2, b),
            dense_component(out, np.int64(3), y3, b),
            dense_component(out, np.int64(4), y4, b),
        )
        slope = (gb - ga) / (b - a)
        if not slope < 0.0:
            break
        better = min(1.0, max(lo, theta - g / slope))
        if better == theta:
            break
        theta = better
        e, _, _ = step(surface, c, members, ride, y, f, h * theta)
    return e


@jit.no_refcount
def _apply(surface, c, members, table, kind, b, x, y, vx, vy, w, status, dead):
    """Apply a boundary event (cushion, peg, fall, hole) of table row ``b`` to a disc at (x, y) moving
    at (vx, vy) with spin w: (x, y, vx, vy, w, status, dead, ride, ride_row, moving)."""
    if kind in (events.DISC_CUSHION, events.DISC_PEG):
        vx, vy, w, kills = fixed_body_bounce(table, b, x, y, vx, vy, w, False)
        dead = dead or kills
        c2 = with_sign(c, 0.0 if w == 0.0 else math.copysign(1.0, w))
        vx, vy, ride = pushed_ride(surface, c2, members, table, b, x, y, vx, vy, w)
        vx, vy, w, moving = settles(surface, c[5] != 0.0, x, y, vx, vy, w)
        if ride[0] != RIDE_NONE and moving:
            return x, y, vx, vy, w, events.STATUS_MOVING, dead, ride, b, True
        return x, y, vx, vy, w, events.STATUS_MOVING, dead, NO_RIDE, -1, moving
    if kind == events.HOLED:
        return table[b, F], table[b, F + 1], 0.0, 0.0, 0.0, events.STATUS_HOLED, dead, NO_RIDE, -1, False
    return x, y, 0.0, 0.0, 0.0, events.STATUS_FALLEN, dead, NO_RIDE, -1, False


@jit.no_refcount
def _finish_clear(table, ride, ride_row, dead, x, y, speed, reach, w, spin_rate, spin_speed_rate, tau):
    """Whether the closed-form end of a slide of length at most ``reach`` from (x, y) meets nothing:
    no shape within reach, no end of a ridden cushion, and no spin stop before the slide's (decoupled
    spin w, decaying at ``spin_rate`` plus ``spin_speed_rate`` |w|: ``motion.spin_stop_time``)."""
    if w != 0.0:
        if spin_speed_rate == 0.0:
            if abs(w) <= spin_rate * tau:
                return False
        elif spin_stop_time(w, spin_rate, spin_speed_rate) <= tau:
            return False
    slack = reach + 1e-12
    for row in range(1, table.shape[0]):
        if row == ride_row:
            continue
        shape, at_once = start_shape(table, row, x, y, 0.0, 0.0, not dead, np.bool_(True))
        if at_once:
            return False
        if shape[0] >= 0.0 and not clear(shape, x, y, speed, x, y, 0.0, slack, 0.0):
            return False
    if ride_row >= 0:
        first, last = ride_shapes(table, ride_row, ride)
        for shape in (first, last):
            if shape[0] >= 0.0 and gap(shape, x, y, 0.0) <= slack:
                return False
    return True


@jit.no_refcount
def _step_event(table, surface, c, members, ride, ride_row, dead, start, accel, out, have_dense, y, f, h, n, lo):
    """The earliest event in the fraction (lo, 1] of the step of h from the state y and its derivatives
    f (6-tuples) that ends at ``n``: (theta, kind, table row, have_dense). Shapes are built from the
    motion's start ``start`` (x, y, vx, vy); the dense output is written into ``out`` only if a chord
    cannot rule an event out."""
    y0, y1, y2, y3, y4, y5 = y
    sx, sy, svx, svy = start
    best = math.inf
    kind = np.int64(-1)
    b = np.int64(-1)
    found = NO_SHAPE
    if lo == 0.0:
        xa, ya, va, ta = y0, y1, math.sqrt(y2 * y2 + y3 * y3), y5
    else:
        xa = dense_component(out, np.int64(0), y0, lo)
        ya = dense_component(out, np.int64(1), y1, lo)
        va = math.hypot(dense_component(out, np.int64(2), y2, lo), dense_component(out, np.int64(3), y3, lo))
        ta = dense_component(out, np.int64(5), y5, lo)
    xb, yb, vb, tb = n[0], n[1], math.sqrt(n[2] * n[2] + n[3] * n[3]), n[5]
    duration = tb - ta
    delta = accel * duration * duration / 8.0 + 1e-9
    dv = 0.5 * accel * duration
    for row in range(1, table.shape[0]):
        if row == ride_row:
            continue
        shape, _ = start_shape(table, row, sx, sy, svx, svy, not dead, np.bool_(True))
        if shape[0] < 0.0:
            continue
        if clear(shape, xa, ya, va, xb, yb, vb, delta, dv):
            continue
        if not have_dense:
            dense(surface, c, members, ride, y, f, h, out)
            have_dense = np.bool_(True)
        theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, best), 0.0, 0.0, accel)
        event = event_of_row(table[row, F_KIND])
        # Ties: a boundary event before a kill line.
        if theta < best or (theta == best and kind == events.KILLED and event != events.KILLED):
            best = theta
            kind = event
            b = row
            found = shape
    if ride[0] != RIDE_NONE:
        if not have_dense:
            dense(surface, c, members, ride, y, f, h, out)
            have_dense = np.bool_(True)
        theta = ride_release(surface, c, members, ride, out, y0, y1, y2, y3, y4, lo, min(1.0, best))
        if theta < best:
            best = theta
            kind = RIDE_END
            b = np.int64(-1)
            found = NO_SHAPE
        first, last = ride_shapes(table, ride_row, ride)
        for shape in (first, last):
            if shape[0] < 0.0 or gap(shape, xa, ya, 0.0) <= 0.0:
                continue
            theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, best), 0.0, 0.0, accel)
            if theta < best:
                best = theta
                kind = RIDE_END
                b = np.int64(-1)
                found = shape
    if c[6] != 0.0 and c[5] == 0.0 and n[4] * c[6] <= 0.0:
        # Decoupled spin reaching zero: its sign is fixed for the motion, so it crosses zero once.
        if not have_dense:
            dense(surface, c, members, ride, y, f, h, out)
            have_dense = np.bool_(True)
        e = spin_stop_fraction(out, y4, c[6], lo)
        if e < best:
            best = e
            kind = events.SPIN_STOP
            b = np.int64(-1)
            found = NO_SHAPE
    return best, kind, b, found, have_dense
