"""The state of discs on a curved court, and the motion of a *body*: a disc, or a group moving as one.

Structure of arrays, one column per disc: ``cs[ROW, i]`` (float64) and ``ci[ROW, i]`` (int64). On a
curved court a disc's motion is a sequence of steps (``curved_motion``); a disc holds its current
step: the state and derivatives at its start (``C_Y``, ``C_F``) and end (``C_N``, ``C_K``), its size
in sigma, and, once an event search needed it, its dense output (``C_DENSE``, flagged by
``I_DENSE``). A disc at rest holds its position, its spin and the time it was set down.

A *group* is discs moving on as one (``curved_kernel``): its lowest-numbered disc, the leader, holds
the motion of the whole group (``I_LEADER`` of every member names it); every member holds its offset
from the leader (``C_OFFSET``). A lone disc is a group of one, its own leader, offset zero.

A body's phases (``I_PHASE``): at rest (``PHASE_REST``: perhaps spinning in place, a closed-form
spin stop at ``C_T_SPIN``), stepping (``PHASE_STEP``), or finishing in closed form
(``PHASE_FINISH``: the last stretch, under ``FINISH_LENGTH``, from the step's end to the stop at
``C_FINISH``, taken as a straight line).
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import H_DECEL, H_INERTIA, H_INNER, H_RADIUS, H_SPIN_DECEL
from shuffle_sim.physics.curved_motion import (
    FIRST_STEP,
    MAX_REJECTS,
    Q_END,
    RIDE_LINE,
    RIDE_NONE,
    derivatives,
    hodograph_rest,
    may_finish,
    next_step,
    speed_scale,
)
from shuffle_sim.physics.curved_step import dense, step
from shuffle_sim.physics.ground import ground_at, motion_tolerance

# Float rows.
C_Y = 0  # 6 rows: the step's start state x, y, vx, vy, omega, t (a leader's; a member's x, y are its own)
C_F = 6  # 6 rows: derivatives at the step's start
C_N = 12  # 6 rows: the step's end state
C_K = 18  # 6 rows: derivatives at the step's end
C_H = 24  # the step's size in sigma
C_H_NEXT = 25  # the next step's size
C_DENSE = 26  # 42 rows: the step's dense output, (7, 6) row by row
C_OFFSET = 68  # 2 rows: offset from the leader
C_RIDE = 70  # 6 rows: the ride (``curved_motion.RIDE_*``)
C_SIGN = 76  # the sign of omega for the motion (0: no spin)
C_START = 77  # 4 rows: position and velocity at the motion's start (the contact rules of its shapes)
C_T_NEXT = 81  # time of the body's next own event (boundary, spin stop, ride end, stop), inf if none yet
C_T_KILL = 82  # time of its next kill-line crossing
C_LO = 83  # the fraction of the present step from which events are still to be looked for
C_FINISH = 84  # 4 rows: the closed-form stop: time, x, y (a leader's) and the spin then
C_T_SPIN = 88  # a disc at rest spinning in place: the time its spin stops
C_STEP_END = 89  # the time the present step ends (inf at rest or finishing)
C_EVENT_THETA = 90  # where in the present step the body's event at C_T_NEXT lies
N_ROWS = 91

# Integer rows.
I_STATUS = 0  # events.STATUS_*
I_DEAD = 1
I_TOUCHED = 2
I_MOVED = 3  # scratch: the body's motion changed; predict again
I_LEADER = 4
I_NEXT_KIND = 5  # kind of the event at C_T_NEXT (an event kind, or RIDE_END)
I_NEXT_B = 6  # its table row (-1)
I_KILL_B = 7  # the table row of the kill line at C_T_KILL
I_RIDE_ROW = 8  # the table row of the ridden body, -1
I_DENSE = 9  # 1 while C_DENSE holds the present step's dense output
I_PHASE = 10
I_STEPS = 11  # steps taken in the present motion
I_NEXT_DISC = 12  # the disc of the body whose event C_T_NEXT is (a group's member)
N_INT_ROWS = 13

PHASE_REST = 0
PHASE_STEP = 1
PHASE_FINISH = 2

#: In a scene, a slide finishes in closed form only once it has at most this far to go (m): the
#: stretch is then taken as a straight line, which errs by less than any contact tolerance.
FINISH_LENGTH = 1e-10


@jit.inline
def constants(table, spin, ground, sign):
    """``curved_motion.derivatives``' constants for a motion whose spin has the sign ``sign``."""
    return (
        table[0, H_DECEL],
        table[0, H_SPIN_DECEL],
        table[0, H_RADIUS],
        table[0, H_INNER],
        table[0, H_INERTIA],
        1.0 if spin.shape[0] > 0 else 0.0,
        sign,
        motion_tolerance(ground, 1.0 if spin.shape[0] > 0 else 0.0, sign),
    )


@jit.inline
def body_constants(table, spin, ground, cs, i):
    return constants(table, spin, ground, cs[C_SIGN, i])


@jit.inline
def ride_of_body(cs, i):
    return (
        cs[C_RIDE, i],
        cs[C_RIDE + 1, i],
        cs[C_RIDE + 2, i],
        cs[C_RIDE + 3, i],
        cs[C_RIDE + 4, i],
        cs[C_RIDE + 5, i],
    )


@jit.inline
def set_ride(cs, i, ride):
    for k in range(6):
        cs[C_RIDE + k, i] = ride[k]


@jit.no_refcount
def take_step(ground, c, members, ride, cs, i):
    """Take the body's next step from its step-start state (error control: the step shrinks until
    accepted) into the end rows; returns False if ``MAX_REJECTS`` rejections in a row were reached."""
    h = cs[C_H_NEXT, i]
    for _ in range(MAX_REJECTS):
        n, k, err = step(
            ground,
            c,
            members,
            ride,
            cs[C_Y, i],
            cs[C_Y + 1, i],
            cs[C_Y + 2, i],
            cs[C_Y + 3, i],
            cs[C_Y + 4, i],
            cs[C_Y + 5, i],
            cs[C_F, i],
            cs[C_F + 1, i],
            cs[C_F + 2, i],
            cs[C_F + 3, i],
            cs[C_F + 4, i],
            cs[C_F + 5, i],
            h,
        )
        if err <= 1.0:
            for r in range(6):
                cs[C_N + r, i] = n[r]
                cs[C_K + r, i] = k[r]
            cs[C_H, i] = h
            cs[C_H_NEXT, i] = next_step(h, err)
            cs[C_STEP_END, i] = n[5]
            return True
        h = next_step(h, err)
    return False


@jit.no_refcount
def body_dense(ground, c, members, ride, cs, ci, i, out):
    """Make sure the body's dense output is in its rows (``C_DENSE``) and in ``out`` (7, 6)."""
    if ci[I_DENSE, i] == 0:
        dense(
            ground,
            c,
            members,
            ride,
            cs[C_Y, i],
            cs[C_Y + 1, i],
            cs[C_Y + 2, i],
            cs[C_Y + 3, i],
            cs[C_Y + 4, i],
            cs[C_Y + 5, i],
            cs[C_F, i],
            cs[C_F + 1, i],
            cs[C_F + 2, i],
            cs[C_F + 3, i],
            cs[C_F + 4, i],
            cs[C_F + 5, i],
            cs[C_H, i],
            out,
        )
        for a in range(7):
            for b in range(6):
                cs[C_DENSE + 6 * a + b, i] = out[a, b]
        ci[I_DENSE, i] = 1
    else:
        for a in range(7):
            for b in range(6):
                out[a, b] = cs[C_DENSE + 6 * a + b, i]


@jit.inline
def dense_row(cs, i, k, theta):
    """Component k of body i's dense output at theta (from its rows)."""
    r = 1.0 - theta
    v = cs[C_DENSE + 36 + k, i]
    v = v * theta + cs[C_DENSE + 30 + k, i]
    v = v * r + cs[C_DENSE + 24 + k, i]
    v = v * theta + cs[C_DENSE + 18 + k, i]
    v = v * r + cs[C_DENSE + 12 + k, i]
    v = v * theta + cs[C_DENSE + 6 + k, i]
    v = v * r + cs[C_DENSE + k, i]
    return v * theta + cs[C_Y + k, i]


@jit.no_refcount
def theta_at(cs, i, t):
    """The fraction of body i's present step (dense output in its rows) at which its time is t:
    Newton on the dense time, which rises monotonically (dt/dsigma = q > 0), safeguarded by bisection."""
    t0 = cs[C_Y + 5, i]
    t1 = cs[C_N + 5, i]
    if t <= t0:
        return 0.0
    if t >= t1:
        return 1.0
    lo = 0.0
    hi = 1.0
    theta = (t - t0) / (t1 - t0)
    for _ in range(60):
        g = dense_row(cs, i, 5, theta) - t
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
        slope = (dense_row(cs, i, 5, b) - dense_row(cs, i, 5, a)) / (b - a)
        better = theta - g / slope if slope > 0.0 else 0.5 * (lo + hi)
        if not (lo < better < hi):
            better = 0.5 * (lo + hi)
        if abs(better - theta) <= 1e-16:
            return better
        theta = better
    return theta


@jit.inline
def settle(ground, coupled, x, y, vx, vy, w, rest_speed):
    """(vx, vy, w, moving) with rounding residues set to zero: a disc moves if it slides, or if it
    spins in the coupled model on a spot with a grade (spin alone feels no friction against it)."""
    if vx * vx + vy * vy <= rest_speed * rest_speed:
        vx = 0.0
        vy = 0.0
    if abs(w) <= rest_speed:
        w = 0.0
    if vx != 0.0 or vy != 0.0:
        return vx, vy, w, True
    if coupled and w != 0.0:
        ax, ay, _ = ground_at(ground, x, y)
        return vx, vy, w, ax != 0.0 or ay != 0.0
    return vx, vy, w, False


@jit.no_refcount
def finish_stretch(ground, c, members, ride, x, y, vx, vy, w):
    """(ok, time left, dx, dy) of a body's closed-form end from (x, y) at (vx, vy) if it has at most
    ``FINISH_LENGTH`` to go: the hodograph on locally uniform ground without coupled spin (on a
    straight ride, with the grade along it), a straight stop at q < ``Q_END`` otherwise."""
    decel = c[0]
    spinning = c[5] != 0.0 and c[6] != 0.0
    q = speed_scale(c, vx, vy, w)
    if not spinning and members.shape[0] == 0 and (ride[0] == RIDE_NONE or ride[0] == RIDE_LINE):
        ax, ay, m = ground_at(ground, x, y)
        if ride[0] == RIDE_LINE:
            along = ax * ride[1] + ay * ride[2]
            ax -= along * ride[1]
            ay -= along * ride[2]
        friction = decel * m
        net = friction - math.sqrt(ax * ax + ay * ay)
        if net > 0.0 and q * q <= 2.0 * net * FINISH_LENGTH and may_finish(ground, decel, q, net):
            tau, dx, dy = hodograph_rest(ax, ay, friction, vx, vy)
            return True, tau, dx, dy
        return False, 0.0, 0.0, 0.0
    if q >= Q_END:
        return False, 0.0, 0.0, 0.0
    _, _, d2, d3, d4, _ = derivatives(ground, c, members, ride, x, y, vx, vy, w)
    u = c[2] * abs(w) if c[5] != 0.0 else 0.0
    du = c[2] * math.copysign(1.0, w) * d4 if c[5] != 0.0 else 0.0
    rate = -(vx * d2 + vy * d3 + u * du) / (q * q)
    if rate <= 0.0:
        return False, 0.0, 0.0, 0.0
    tau = q / rate
    return True, tau, 0.5 * vx * tau, 0.5 * vy * tau


@jit.inline
def first_step_size(ground, decel, x, y):
    """The first step of a motion in sigma (``curved_motion.FIRST_STEP``)."""
    return FIRST_STEP / (decel * max(1e-3, ground_at(ground, x, y)[2]))
