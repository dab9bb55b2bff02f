"""The state of discs on a curved court, and the motion of a *body*: a disc, or a group moving as one.

Structure of arrays, one column per disc: ``cs[ROW, i]`` (float64) and ``ci[ROW, i]`` (int64). On a
curved court a disc's motion is a sequence of steps (``motion``); a disc holds its current
step: the state and derivatives at its start (``C_Y``, ``C_F``) and end (``C_N``, ``C_K``), its size
in sigma, and, once an event search needed it, its dense output (``C_DENSE``, flagged by
``I_DENSE``). A disc at rest holds its position, its spin and the time it was set down.

A *group* is discs moving on as one (``loop_steps``): its lowest-numbered disc, the leader, holds
the motion of the whole group (``LEADER`` of every member names it); every member holds its offset
from the leader (``C_OFFSET``). A lone disc is a group of one, its own leader, offset zero.

A body's phases (``I_PHASE``): at rest (``PHASE_REST``: perhaps spinning in place, a closed-form
spin stop at ``T_SPIN``), stepping (``PHASE_STEP``), or finishing in closed form
(``PHASE_FINISH``: the last stretch, under ``FINISH_LENGTH``, from the step's end to the stop at
``C_FINISH``, taken as a straight line).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.laws.integrated.dense import dense
from shuffle_sim.physics.laws.integrated.motion import (
    FIRST_STEP,
    MAX_REJECTS,
    Q_END,
    RIDE_LINE,
    RIDE_NONE,
    closed_end,
    derivatives,
    hodograph_rest,
    interpolate,
    max_acceleration,
    next_step,
    speed_scale,
)
from shuffle_sim.physics.laws.integrated.step import step
from shuffle_sim.physics.state import COMMON_FLOAT_ROWS, COMMON_INT_ROWS
from shuffle_sim.physics.tables.court_table import (
    H_DECEL,
    H_INERTIA,
    H_INNER,
    H_RADIUS,
    H_SPEED_DECEL,
    H_SPIN_DECEL,
    H_SPIN_SPEED_DECEL,
)
from shuffle_sim.physics.tables.surface import G_DROP_BOUND, motion_tolerance, surface_at

# Float rows after the rows every law shares (``physics.state``: T_NEXT, T_KILL, T_SPIN). T_NEXT is
# the body's next own event (boundary, spin stop, ride end, stop); T_SPIN a disc at rest spinning in
# place: the time its spin stops.
C_Y = (
    COMMON_FLOAT_ROWS  # 6 rows: the step's start state x, y, vx, vy, omega, t (a leader's; a member's x, y are its own)
)
C_F = C_Y + 6  # 6 rows: derivatives at the step's start
C_N = C_F + 6  # 6 rows: the step's end state
C_K = C_N + 6  # 6 rows: derivatives at the step's end
C_H = C_K + 6  # the step's size in sigma
C_H_NEXT = C_H + 1  # the next step's size
C_DENSE = C_H_NEXT + 1  # 42 rows: the step's dense output, (7, 6) row by row
C_OFFSET = C_DENSE + 42  # 2 rows: offset from the leader
C_RIDE = C_OFFSET + 2  # 6 rows: the ride (``motion.RIDE_*``)
C_SIGN = C_RIDE + 6  # the sign of omega for the motion (0: no spin)
C_START = C_SIGN + 1  # 4 rows: position and velocity at the motion's start (the contact rules of its shapes)
C_LO = C_START + 4  # the fraction of the present step from which events are still to be looked for
C_FINISH = C_LO + 1  # 4 rows: the closed-form stop: time, x, y (a leader's) and the spin then
C_STEP_END = C_FINISH + 4  # the time the present step ends (inf at rest or finishing)
C_EVENT_THETA = C_STEP_END + 1  # where in the present step the body's event at T_NEXT lies
C_ACCEL = C_EVENT_THETA + 1  # a bound of the body's acceleration until its next event (``body_acceleration``)
N_ROWS = C_ACCEL + 1

# Integer rows after the shared ones (``physics.state``; NEXT_KIND may also be ``rides.RIDE_END``).
I_RIDE_ROW = COMMON_INT_ROWS  # the table row of the ridden body, -1
I_DENSE = I_RIDE_ROW + 1  # 1 while C_DENSE holds the present step's dense output
I_PHASE = I_DENSE + 1
I_STEPS = I_PHASE + 1  # steps taken in the present motion
N_INT_ROWS = I_STEPS + 1

PHASE_REST = np.int64(0)
PHASE_STEP = 1
PHASE_FINISH = 2

#: In a scene, a slide finishes in closed form only once it has at most this far to go (m): the
#: stretch is then taken as a straight line, which errs by less than any contact tolerance.
FINISH_LENGTH = 1e-10


@jit.kernel
def constants(table, orbit_tables, surface, sign):
    """``curved_motion.derivatives``' constants for a motion whose spin has the sign ``sign``."""
    return (
        table[0, H_DECEL],
        table[0, H_SPIN_DECEL],
        table[0, H_RADIUS],
        table[0, H_INNER],
        table[0, H_INERTIA],
        1.0 if orbit_tables.shape[0] > 0 else 0.0,
        sign,
        motion_tolerance(surface, 1.0 if orbit_tables.shape[0] > 0 else 0.0, sign),
        table[0, H_SPEED_DECEL],
        table[0, H_SPIN_SPEED_DECEL],
    )


@jit.kernel
def with_sign(c, sign):
    """The constants ``c`` of a motion whose spin has the sign ``sign``."""
    return (c[0], c[1], c[2], c[3], c[4], c[5], sign, c[7], c[8], c[9])


@jit.kernel
def body_acceleration(table, surface, vx, vy, w):
    """``motion.max_acceleration`` for a body moving off at (vx, vy) with spin w: its kinetic energy
    per half its mass, v^2 + k r^2 omega^2, and all it may gain descending the ground
    (``surface.G_DROP_BOUND``) bound its speed until its next event."""
    rim = table[0, H_RADIUS] * w
    energy = vx * vx + vy * vy + table[0, H_INERTIA] * rim * rim + 2.0 * surface[G_DROP_BOUND]
    return max_acceleration(surface, table[0, H_DECEL], table[0, H_SPEED_DECEL], energy)


@jit.kernel
def ride_of_body(st, i):
    return (
        st[C_RIDE, i],
        st[C_RIDE + 1, i],
        st[C_RIDE + 2, i],
        st[C_RIDE + 3, i],
        st[C_RIDE + 4, i],
        st[C_RIDE + 5, i],
    )


@jit.kernel
def set_ride(st, i, ride):
    for k in range(6):
        st[C_RIDE + k, i] = ride[k]


@jit.kernel
def rows(st, row, i):
    """The six rows of ``st`` from ``row`` for body i (a state or its derivatives), as a tuple."""
    return (st[row, i], st[row + 1, i], st[row + 2, i], st[row + 3, i], st[row + 4, i], st[row + 5, i])


@jit.no_refcount
def take_step(surface, c, members, ride, st, i):
    """Take the body's next step from its step-start state (error control: the step shrinks until
    accepted) into the end rows; returns False if ``MAX_REJECTS`` rejections in a row were reached."""
    h = st[C_H_NEXT, i]
    for _ in range(MAX_REJECTS):
        n, k, err = step(surface, c, members, ride, rows(st, np.int64(C_Y), i), rows(st, np.int64(C_F), i), h)
        if err <= 1.0:
            for r in range(6):
                st[C_N + r, i] = n[r]
                st[C_K + r, i] = k[r]
            st[C_H, i] = h
            st[C_H_NEXT, i] = next_step(h, err)
            st[C_STEP_END, i] = n[5]
            return True
        h = next_step(h, err)
    return False


@jit.no_refcount
def body_dense(surface, c, members, ride, st, ist, i, out):
    """Make sure the body's dense output is in its rows (``C_DENSE``) and in ``out[:7]`` (``dense``)."""
    if ist[I_DENSE, i] == 0:
        dense(surface, c, members, ride, rows(st, np.int64(C_Y), i), rows(st, np.int64(C_F), i), st[C_H, i], out)
        for a in range(7):
            for b in range(6):
                st[C_DENSE + 6 * a + b, i] = out[a, b]
        ist[I_DENSE, i] = 1
    else:
        for a in range(7):
            for b in range(6):
                out[a, b] = st[C_DENSE + 6 * a + b, i]


@jit.kernel
def dense_row(st, i, k, theta):
    """Component k of body i's dense output at theta (from its rows)."""
    d = C_DENSE + k
    return interpolate(
        st[d, i],
        st[d + 6, i],
        st[d + 12, i],
        st[d + 18, i],
        st[d + 24, i],
        st[d + 30, i],
        st[d + 36, i],
        st[C_Y + k, i],
        theta,
    )


@jit.no_refcount
def theta_at(st, i, t):
    """The fraction of body i's present step (dense output in its rows) at which its time is t:
    Newton on the dense time, which rises monotonically (dt/dsigma = q > 0), safeguarded by bisection."""
    t0 = st[C_Y + 5, i]
    t1 = st[C_N + 5, i]
    if t <= t0:
        return 0.0
    if t >= t1:
        return 1.0
    lo = 0.0
    hi = 1.0
    theta = (t - t0) / (t1 - t0)
    for _ in range(60):
        g = dense_row(st, i, np.int64(5), theta) - t
        if g == 0.0:
            return theta
        if g > 0.0:
            hi = theta
        else:
            lo = theta
        # d t / d theta from a probe: the dense output's slope.
        probe = 1e-7
        a = max(0.0, theta - probe)
        b = min(1.0, theta + probe)
        slope = (dense_row(st, i, np.int64(5), b) - dense_row(st, i, np.int64(5), a)) / (b - a)
        better = theta - g / slope if slope > 0.0 else 0.5 * (lo + hi)
        if not (lo < better < hi):
            better = 0.5 * (lo + hi)
        if abs(better - theta) <= 1e-16:
            return better
        theta = better
    return theta


@jit.no_refcount
def finish_stretch(surface, c, members, ride, x, y, vx, vy, w):
    """(ok, time left, dx, dy) of a body's closed-form end from (x, y) at (vx, vy) if it has at most
    ``FINISH_LENGTH`` to go: the hodograph on locally uniform ground without coupled spin (on a
    straight ride, with the grade along it; under a friction law of speed, only without a grade), a
    straight stop at q < ``Q_END`` otherwise."""
    spinning = c[5] != 0.0 and c[6] != 0.0
    q = speed_scale(c, vx, vy, w)
    hodograph = not spinning and members.shape[0] == 0 and (ride[0] == RIDE_NONE or ride[0] == RIDE_LINE)
    if hodograph:
        ax, ay, m = surface_at(surface, x, y)
        if ride[0] == RIDE_LINE:
            along = ax * ride[1] + ay * ride[2]
            ax -= along * ride[1]
            ay -= along * ride[2]
        uniform, net = closed_end(surface, c, m, ax, ay, q)
        if net > 0.0 and q * q <= 2.0 * net * FINISH_LENGTH and uniform:
            tau, dx, dy = hodograph_rest(ax, ay, c[0] * m, c[8] * m, vx, vy)
            return True, tau, dx, dy
        if c[8] == 0.0:
            return False, 0.0, 0.0, 0.0
    if q >= Q_END:
        return False, 0.0, 0.0, 0.0
    _, _, d2, d3, d4, _ = derivatives(surface, c, members, ride, x, y, vx, vy, w)
    u = c[2] * abs(w) if c[5] != 0.0 else 0.0
    du = c[2] * math.copysign(1.0, w) * d4 if c[5] != 0.0 else 0.0
    rate = -(vx * d2 + vy * d3 + u * du) / (q * q)
    if rate <= 0.0:
        return False, 0.0, 0.0, 0.0
    tau = q / rate
    return True, tau, 0.5 * vx * tau, 0.5 * vy * tau


@jit.kernel
def first_step_size(surface, decel, x, y):
    """The first step of a motion in sigma (``curved_motion.FIRST_STEP``)."""
    return FIRST_STEP / (decel * max(1e-3, surface_at(surface, x, y)[2]))
