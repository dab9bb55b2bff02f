"""One disc alone on a court that is not flat: the lone-disc event loop on curved paths (numba).

The curved counterpart of ``lone.run_lone``, with the same inputs and outputs: a disc launched on an
empty court, run to rest, a fall or a hole, its events taken in time order. Between events the disc
follows its curved motion (``curved_motion``), step after step; in each step every boundary of the
court is searched for an event (``curved_events``), from the chord between the step's ends first, on
the step's dense output only when the chord cannot rule the event out. An event's state is reached by
integrating from the step's start to the event (a shorter step), not taken from the interpolant. The
events and their order are the flat loop's: stop, cushion, peg, fall and hole (boundary events), kill
line, spin stop; ties go boundary, kill line, spin stop. Impulses come from ``kernel.fixed_body_bounce``.

Two things have no counterpart on a flat court. A disc pressed against a cushion or a peg by the
grade *rides* it (``curved_motion``) once an impact leaves it approaching slower than
``kernel.PUSH_MERGE_SPEED``; the ride ends where the body's push falls to zero or the contact runs
off a straight cushion's end (event kind ``RIDE_END``, not logged: it changes nothing but the way the
motion is computed). And a disc that spins in the coupled model is never at rest on a graded spot:
spin without slide feels no friction against the grade (F(0) = 0), so it slides off.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    F_KIND,
    H_DECEL,
    H_INERTIA,
    H_INNER,
    H_RADIUS,
    H_SPIN_DECEL,
    HOLE,
    KILL_LINE,
    PEG,
    F,
)
from shuffle_sim.physics._impacts import PUSH_MERGE_SPEED, fixed_body_bounce
from shuffle_sim.physics._motion import REST_SPEED
from shuffle_sim.physics.curved_events import (
    NO_SHAPE,
    S_HALFPLANE,
    clear,
    first_event,
    gap,
    start_shape,
)
from shuffle_sim.physics.curved_motion import (
    FIRST_STEP,
    MAX_REJECTS,
    NO_RIDE,
    Q_END,
    RIDE_INSIDE,
    RIDE_LINE,
    RIDE_NONE,
    RIDE_OUTSIDE,
    dense_component,
    derivatives,
    hodograph_rest,
    max_acceleration,
    may_finish,
    next_step,
    onto_ride,
    ride_force,
    ride_normal,
    speed_scale,
)
from shuffle_sim.physics.curved_step import dense, step
from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_PEG,
    FALL,
    HOLED,
    KILLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
    STATUS_REST,
)
from shuffle_sim.physics.ground import ground_at, motion_tolerance

#: Not an event of the log: the end of a ride (the disc leaves the cushion or peg it rode).
RIDE_END = -2
#: Samples per step of a ridden body's push, where the ride may end (a push that falls to zero and
#: rises again between two samples is not seen: the disc would leave the body for that long).
RIDE_SAMPLES = 16
#: Newton corrections of an event's time on the integrated states, the gap it aims for there (m, or
#: m/s^2 for a ride's push) and the offset (a fraction of the step) of the dense output's slope.
EVENT_NEWTON = 4
EVENT_GAP = 1e-13
EVENT_PROBE = 1e-6
#: Steps allowed in one motion (a bound: a deck draw takes about 15, a shot that rides a cushion a
#: few dozen).
MAX_STEPS = 20_000


@jit.inline
def motion_constants(table, spin, ground, w):
    """The constants of ``curved_motion.derivatives`` for a motion with spin ``w``."""
    sign = 0.0 if w == 0.0 else math.copysign(1.0, w)
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
def settles(ground, coupled, x, y, vx, vy, w):
    """(vx, vy, w, moving): velocity and spin with rounding residues set to zero, and whether the disc
    moves: it slides, or it spins in the coupled model on a spot with a grade."""
    if vx * vx + vy * vy <= REST_SPEED * REST_SPEED:
        vx = 0.0
        vy = 0.0
    if abs(w) <= REST_SPEED:
        w = 0.0
    if vx != 0.0 or vy != 0.0:
        return vx, vy, w, True
    if coupled and w != 0.0:
        ax, ay, _ = ground_at(ground, x, y)
        return vx, vy, w, ax != 0.0 or ay != 0.0
    return vx, vy, w, False


@jit.no_refcount
def ride_of(table, row, x, y):
    """The ride (``curved_motion``) on the cushion or peg of table row ``row`` by a disc centred at (x, y)."""
    f = table[row, F_KIND]
    r = table[0, H_RADIUS]
    if f == CUSHION_SEGMENT:
        x0 = table[row, F]
        y0 = table[row, F + 1]
        ux = table[row, F + 8]
        uy = table[row, F + 9]
        s = min(max((x - x0) * ux + (y - y0) * uy, 0.0), table[row, F + 10])
        dx = x - x0 - s * ux
        dy = y - y0 - s * uy
        d = math.sqrt(dx * dx + dy * dy)
        if s <= 0.0 or s >= table[row, F + 10]:
            # Off the flat side: the end cap, a circle of the capsule's radius.
            return (float(RIDE_OUTSIDE), x0 + s * ux, y0 + s * uy, r + table[row, F + 4], 0.0, 0.0)
        # The line the rider's centre keeps to: p . n = (x0, y0) . n + rho.
        nx = dx / d
        ny = dy / d
        return (float(RIDE_LINE), nx, ny, x0 * nx + y0 * ny + r + table[row, F + 4], 0.0, 0.0)
    if f == CUSHION_CIRCLE:
        return (float(RIDE_INSIDE), table[row, F], table[row, F + 1], table[row, F + 2] - r, 0.0, 0.0)
    return (float(RIDE_OUTSIDE), table[row, F], table[row, F + 1], r + table[row, F + 2], 0.0, 0.0)


@jit.no_refcount
def pushed_ride(ground, c, members, table, row, x, y, vx, vy, w):
    """After an impact on the cushion or peg of row ``row``: (vx, vy, ride). The disc rides the body
    (its normal velocity removed) if it leaves slower than ``PUSH_MERGE_SPEED`` and the body would
    have to push to keep it at contact; else it is free (``NO_RIDE``)."""
    ride = ride_of(table, row, x, y)
    nx, ny, kappa = ride_normal(ride, x, y)
    normal = vx * nx + vy * ny
    if normal >= PUSH_MERGE_SPEED:
        return vx, vy, NO_RIDE
    tx = vx - normal * nx
    ty = vy - normal * ny
    if tx * tx + ty * ty <= REST_SPEED * REST_SPEED:
        tx = 0.0
        ty = 0.0
    if tx == 0.0 and ty == 0.0 and (c[5] == 0.0 or w == 0.0):
        # It would rest against the body: only its normal velocity is left, which the body takes.
        ax, ay, _ = ground_at(ground, x, y)
        if ax * nx + ay * ny < 0.0:
            return 0.0, 0.0, ride
        return vx, vy, NO_RIDE
    if ride_force(ground, c, members, ride, x, y, tx, ty, w) > 0.0:
        return tx, ty, ride
    return vx, vy, NO_RIDE


@jit.inline
def ride_shapes(table, row, ride):
    """The half planes whose gaps close where a ride on a straight cushion (row ``row``) must end: on
    its flat side, the rider's distances from the two ends along it; on an end cap, its distance
    past that end (beyond it the flat side takes over). None for a peg or a round cushion."""
    if table[row, F_KIND] != CUSHION_SEGMENT:
        return NO_SHAPE, NO_SHAPE
    x0 = table[row, F]
    y0 = table[row, F + 1]
    ux = table[row, F + 8]
    uy = table[row, F + 9]
    length = table[row, F + 10]
    x1 = x0 + length * ux
    y1 = y0 + length * uy
    start = (float(S_HALFPLANE), x0, y0, ux, uy, 0.0, 0.0, -1.0)
    end = (float(S_HALFPLANE), x1, y1, -ux, -uy, 0.0, 0.0, -1.0)
    if ride[0] == RIDE_LINE:
        return start, end
    if (ride[1] - x0) ** 2 + (ride[2] - y0) ** 2 <= (ride[1] - x1) ** 2 + (ride[2] - y1) ** 2:
        return (float(S_HALFPLANE), x0, y0, -ux, -uy, 0.0, 0.0, -1.0), NO_SHAPE
    return (float(S_HALFPLANE), x1, y1, ux, uy, 0.0, 0.0, -1.0), NO_SHAPE


@jit.no_refcount
def ride_release(ground, c, members, ride, out, y0, y1, y2, y3, y4, lo, hi):
    """The first theta in (lo, hi] of a step (dense output ``out``) at which the ridden body's push is
    no longer positive, from ``RIDE_SAMPLES`` samples and a polish of the first sign change; inf if none."""
    prev = lo
    for k in range(1, RIDE_SAMPLES + 1):
        theta = lo + (hi - lo) * k / RIDE_SAMPLES
        if _push(ground, c, members, ride, out, y0, y1, y2, y3, y4, theta) <= 0.0:
            a = prev
            b = theta
            for _ in range(200):
                if b - a <= 2.0e-16 * max(1.0, b):
                    break
                m = 0.5 * (a + b)
                if _push(ground, c, members, ride, out, y0, y1, y2, y3, y4, m) > 0.0:
                    a = m
                else:
                    b = m
            return b
        prev = theta
    return math.inf


@jit.inline
def _push(ground, c, members, ride, out, y0, y1, y2, y3, y4, theta):
    x = dense_component(out, 0, y0, theta)
    y = dense_component(out, 1, y1, theta)
    vx = dense_component(out, 2, y2, theta)
    vy = dense_component(out, 3, y3, theta)
    w = dense_component(out, 4, y4, theta)
    if vx == 0.0 and vy == 0.0 and (c[5] == 0.0 or w == 0.0):
        return 1.0
    return ride_force(ground, c, members, ride, x, y, vx, vy, w)


@jit.no_refcount
def straight_stop(ground, c, members, ride, x, y, vx, vy, w):
    """(time left, dx, dy) of a motion whose speed scale q is below ``Q_END``: a straight stop at the
    present rate of q's fall (the distance left is below 1e-15 m)."""
    d0, d1, d2, d3, d4, q = derivatives(ground, c, members, ride, x, y, vx, vy, w)
    if q == 0.0:
        return 0.0, 0.0, 0.0
    # dq/dt = (v . dv/dt + u du/dt) / q with u = r |w|; in sigma each derivative carries a factor q.
    u = c[2] * abs(w) if c[5] != 0.0 else 0.0
    du = c[2] * math.copysign(1.0, w) * d4 if c[5] != 0.0 else 0.0
    rate = -(vx * d2 + vy * d3 + u * du) / (q * q)
    if rate <= 0.0:
        return 0.0, 0.0, 0.0
    tau = q / rate
    return tau, 0.5 * vx * tau, 0.5 * vy * tau


@jit.no_refcount
def run_lone_curved(table, spin, ground, x, y, vx, vy, omega, max_events, out, members):
    """Run one disc launched at (x, y) with (vx, vy, omega) at time 0 on the curved court ``ground``
    until it rests or leaves play; ``lone.run_lone``'s result: (x, y, vx, vy, omega, status, dead, ok,
    t_end, processed).

    ``out`` is a (7, 6) scratch array for the dense output, ``members`` an empty (0, 2) array (a lone
    disc is no group).
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    coupled = spin.shape[0] > 0
    accel = max_acceleration(ground, decel)
    now = 0.0
    processed = 0
    ok = True
    dead = False
    status = STATUS_MOVING
    vx, vy, omega, moving = settles(ground, coupled, x, y, vx, vy, omega)
    c = motion_constants(table, spin, ground, omega)
    ride = NO_RIDE
    ride_row = -1
    # The motion: its state y0..y5 (x, y, vx, vy, omega, t) and derivatives f0..f5, the next step h,
    # and where it started (for the contact rules of its shapes).
    y0, y1, y2, y3, y4, y5 = x, y, vx, vy, omega, 0.0
    f0 = f1 = f2 = f3 = f4 = f5 = 0.0
    h = 0.0
    sx, sy, svx, svy = x, y, vx, vy
    steps = 0
    fresh = True  # a motion has just started: check its events at once
    while True:
        if fresh:
            fresh = False
            steps = 0
            if status == STATUS_FALLEN or status == STATUS_HOLED:
                break
            if moving:
                status = STATUS_MOVING
                c = motion_constants(table, spin, ground, y4)
                f0, f1, f2, f3, f4, f5 = derivatives(ground, c, members, ride, y0, y1, y2, y3, y4)
                h = FIRST_STEP / (decel * max(1e-3, ground_at(ground, y0, y1)[2]))
                sx, sy, svx, svy = y0, y1, y2, y3
            else:
                status = STATUS_REST
            # Events due right now (touching and approaching, past a kill line, over a hole).
            kind = -1
            b = -1
            for row in range(1, table.shape[0]):
                if row == ride_row:
                    continue
                shape, at_once = start_shape(table, row, y0, y1, y2, y3, not dead, moving)
                if at_once:
                    f = table[row, F_KIND]
                    if f == KILL_LINE:
                        if kind == -1:
                            kind = KILLED
                            b = row
                    else:
                        kind = _event_kind(f)
                        b = row
                        break
            if kind != -1:
                if processed >= max_events:
                    ok = False
                    break
                processed += 1
                if kind == KILLED:
                    dead = True
                    fresh = True
                    continue
                y0, y1, y2, y3, y4, status, dead, ride, ride_row, moving = _apply(
                    ground, c, members, table, kind, b, y0, y1, y2, y3, y4, status, dead
                )
                fresh = True
                continue
            if not moving:
                # At rest: only the spin may still stop, in place.
                if y4 == 0.0:
                    break
                m = ground_at(ground, y0, y1)[2]
                t_spin = now + abs(y4) / (spin_decel * m)
                if processed >= max_events:
                    ok = False
                    break
                processed += 1
                now = t_spin
                y4 = 0.0
                break  # nothing else can happen to a disc at rest without spin
        # ---- moving: finish in closed form, or take a step and look for its events -------------
        if steps >= MAX_STEPS:
            ok = False
            break
        steps += 1
        q = speed_scale(c, y2, y3, y4)
        spinning = c[5] != 0.0 and c[6] != 0.0
        finish = False
        tau = 0.0
        ex = 0.0
        ey = 0.0
        if not spinning and (ride[0] == RIDE_NONE or ride[0] == RIDE_LINE):
            ax, ay, m = ground_at(ground, y0, y1)
            if ride[0] == RIDE_LINE:
                along = ax * ride[1] + ay * ride[2]
                ax -= along * ride[1]
                ay -= along * ride[2]
            friction = decel * m
            net = friction - math.sqrt(ax * ax + ay * ay)
            if may_finish(ground, decel, q, net):
                tau, ex, ey = hodograph_rest(ax, ay, friction, y2, y3)
                finish = _finish_clear(table, ride, ride_row, dead, y0, y1, q, q * tau, y4, spin_decel * m, tau)
        elif q < Q_END:
            tau, ex, ey = straight_stop(ground, c, members, ride, y0, y1, y2, y3, y4)
            finish = True
        if finish:
            if processed >= max_events:
                ok = False
                break
            processed += 1
            now = y5 + tau
            y0 += ex
            y1 += ey
            if c[5] != 0.0 or y4 == 0.0:
                y4 = 0.0
            else:
                y4 -= c[6] * spin_decel * ground_at(ground, y0, y1)[2] * tau
                if y4 * c[6] <= 0.0:
                    y4 = 0.0
            y2 = 0.0
            y3 = 0.0
            y5 = now
            moving = False
            ride = NO_RIDE
            ride_row = -1
            fresh = True
            continue
        # One accepted step.
        rejects = 0
        while True:
            n, k, err = step(ground, c, members, ride, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h)
            if err <= 1.0:
                break
            rejects += 1
            h = next_step(h, err)
            if rejects >= MAX_REJECTS:
                break
        if rejects >= MAX_REJECTS:
            ok = False
            break
        # Events in this step: the earliest of every shape's, the spin's stop and the ride's end.
        lo = 0.0
        have_dense = False
        while True:
            theta, kind, b, shape, have_dense = _step_event(
                table,
                ground,
                c,
                members,
                ride,
                ride_row,
                dead,
                sx,
                sy,
                svx,
                svy,
                accel,
                out,
                have_dense,
                y0,
                y1,
                y2,
                y3,
                y4,
                y5,
                f0,
                f1,
                f2,
                f3,
                f4,
                f5,
                h,
                n,
                lo,
            )
            if kind != KILLED:
                break
            if processed >= max_events:
                break
            processed += 1
            dead = True
            now = dense_component(out, 5, y5, theta)
            lo = theta
        if kind == KILLED:  # the event bound, reached at a kill line
            ok = False
            break
        if kind == -1:
            y0, y1, y2, y3, y4, y5 = n
            f0, f1, f2, f3, f4, f5 = k
            if ride[0] != RIDE_NONE:
                y0, y1, y2, y3 = onto_ride(ride, y0, y1, y2, y3)
                f0, f1, f2, f3, f4, f5 = derivatives(ground, c, members, ride, y0, y1, y2, y3, y4)
            h = next_step(h, err)
            continue
        if processed >= max_events:
            ok = False
            break
        processed += 1
        # Integrate to the event (its time made exact on the integrated states), then apply it.
        e = event_state(
            ground,
            c,
            members,
            ride,
            shape,
            kind == RIDE_END,
            out,
            y0,
            y1,
            y2,
            y3,
            y4,
            y5,
            f0,
            f1,
            f2,
            f3,
            f4,
            f5,
            h,
            theta,
            lo,
        )
        y0, y1, y2, y3, y4, y5 = e
        now = y5
        if kind == SPIN_STOP:
            y4 = 0.0
            moving = True
        elif kind == RIDE_END:
            ride = NO_RIDE
            ride_row = -1
            moving = True
        else:
            y0, y1, y2, y3, y4, status, dead, ride, ride_row, moving = _apply(
                ground, c, members, table, kind, b, y0, y1, y2, y3, y4, status, dead
            )
        fresh = True
    return (
        y0,
        y1,
        (y2 if status == STATUS_MOVING else 0.0),
        (y3 if status == STATUS_MOVING else 0.0),
        y4,
        status,
        dead,
        ok,
        now,
        processed,
    )


@jit.inline
def _event_gap(ground, c, members, ride, shape, push, x, y, vx, vy, w):
    """The gap that closes at an event: a shape's, or the ridden body's push (``push``)."""
    if push and shape[0] < 0.0:
        if vx == 0.0 and vy == 0.0:
            return 1.0
        return ride_force(ground, c, members, ride, x, y, vx, vy, w)
    return gap(shape, x, y, math.sqrt(vx * vx + vy * vy))


@jit.no_refcount
def event_state(
    ground, c, members, ride, shape, push, out, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h, theta, lo
):
    """The state at an event found at the fraction ``theta`` of a step on its dense output ``out``,
    integrated from the step's start, with theta corrected by Newton's method on the integrated states
    (the slope of the gap from the dense output) until the gap there is within ``EVENT_GAP`` of zero:
    the dense output errs by up to about the step's tolerance, the integration far less."""
    e, _, _ = step(ground, c, members, ride, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h * theta)
    if shape[0] < 0.0 and not push:
        return e  # a spin stop: the spin is set to zero, the path does not change
    for _ in range(EVENT_NEWTON):
        g = _event_gap(ground, c, members, ride, shape, push, e[0], e[1], e[2], e[3], e[4])
        if abs(g) <= EVENT_GAP:
            break
        a = max(lo, theta - EVENT_PROBE)
        b = min(1.0, theta + EVENT_PROBE)
        ga = _event_gap(
            ground,
            c,
            members,
            ride,
            shape,
            push,
            dense_component(out, 0, y0, a),
            dense_component(out, 1, y1, a),
            dense_component(out, 2, y2, a),
            dense_component(out, 3, y3, a),
            dense_component(out, 4, y4, a),
        )
        gb = _event_gap(
            ground,
            c,
            members,
            ride,
            shape,
            push,
            dense_component(out, 0, y0, b),
            dense_component(out, 1, y1, b),
            dense_component(out, 2, y2, b),
            dense_component(out, 3, y3, b),
            dense_component(out, 4, y4, b),
        )
        slope = (gb - ga) / (b - a)
        if not slope < 0.0:
            break
        better = min(1.0, max(lo, theta - g / slope))
        if better == theta:
            break
        theta = better
        e, _, _ = step(ground, c, members, ride, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h * theta)
    return e


@jit.inline
def _event_kind(f):
    """The event of meeting a table row of kind ``f``."""
    if f == CUSHION_SEGMENT or f == CUSHION_CIRCLE:
        return DISC_CUSHION
    if f == PEG:
        return DISC_PEG
    if f == HOLE:
        return HOLED
    if f == KILL_LINE:
        return KILLED
    return FALL


@jit.no_refcount
def _apply(ground, c, members, table, kind, b, x, y, vx, vy, w, status, dead):
    """Apply a boundary event (cushion, peg, fall, hole) of table row ``b`` to a disc at (x, y) moving
    at (vx, vy) with spin w: (x, y, vx, vy, w, status, dead, ride, ride_row, moving)."""
    if kind == DISC_CUSHION or kind == DISC_PEG:
        vx, vy, w, kills = fixed_body_bounce(table, b, x, y, vx, vy, w)
        dead = dead or kills
        c2 = (c[0], c[1], c[2], c[3], c[4], c[5], 0.0 if w == 0.0 else math.copysign(1.0, w), c[7])
        vx, vy, ride = pushed_ride(ground, c2, members, table, b, x, y, vx, vy, w)
        vx, vy, w, moving = settles(ground, c[5] != 0.0, x, y, vx, vy, w)
        if ride[0] != RIDE_NONE and moving:
            return x, y, vx, vy, w, STATUS_MOVING, dead, ride, b, True
        return x, y, vx, vy, w, STATUS_MOVING, dead, NO_RIDE, -1, moving
    if kind == HOLED:
        return table[b, F], table[b, F + 1], 0.0, 0.0, 0.0, STATUS_HOLED, dead, NO_RIDE, -1, False
    return x, y, 0.0, 0.0, 0.0, STATUS_FALLEN, dead, NO_RIDE, -1, False


@jit.no_refcount
def _finish_clear(table, ride, ride_row, dead, x, y, speed, reach, w, spin_rate, tau):
    """Whether the closed-form end of a slide of length at most ``reach`` from (x, y) meets nothing:
    no shape within reach, no end of a ridden cushion, and no spin stop before the slide's (decoupled
    spin, ``spin_rate``)."""
    if w != 0.0 and abs(w) <= spin_rate * tau:
        return False
    slack = reach + 1e-12
    for row in range(1, table.shape[0]):
        if row == ride_row:
            continue
        shape, at_once = start_shape(table, row, x, y, 0.0, 0.0, not dead, True)
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
def _step_event(
    table,
    ground,
    c,
    members,
    ride,
    ride_row,
    dead,
    sx,
    sy,
    svx,
    svy,
    accel,
    out,
    have_dense,
    y0,
    y1,
    y2,
    y3,
    y4,
    y5,
    f0,
    f1,
    f2,
    f3,
    f4,
    f5,
    h,
    n,
    lo,
):
    """The earliest event in the fraction (lo, 1] of the step of h from (y, f) that ends at ``n``:
    (theta, kind, table row, have_dense). Shapes are built from the motion's start (sx, sy, svx,
    svy); the dense output is written into ``out`` only if a chord cannot rule an event out."""
    best = math.inf
    kind = -1
    b = -1
    found = NO_SHAPE
    if lo == 0.0:
        xa, ya, va, ta = y0, y1, math.sqrt(y2 * y2 + y3 * y3), y5
    else:
        xa = dense_component(out, 0, y0, lo)
        ya = dense_component(out, 1, y1, lo)
        va = math.hypot(dense_component(out, 2, y2, lo), dense_component(out, 3, y3, lo))
        ta = dense_component(out, 5, y5, lo)
    xb, yb, vb, tb = n[0], n[1], math.sqrt(n[2] * n[2] + n[3] * n[3]), n[5]
    duration = tb - ta
    delta = accel * duration * duration / 8.0 + 1e-9
    dv = 0.5 * accel * duration
    for row in range(1, table.shape[0]):
        if row == ride_row:
            continue
        shape, _ = start_shape(table, row, sx, sy, svx, svy, not dead, True)
        if shape[0] < 0.0:
            continue
        if clear(shape, xa, ya, va, xb, yb, vb, delta, dv):
            continue
        if not have_dense:
            dense(ground, c, members, ride, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h, out)
            have_dense = True
        theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, best), 0.0, 0.0, accel)
        event = _event_kind(table[row, F_KIND])
        # Ties: a boundary event before a kill line.
        if theta < best or (theta == best and kind == KILLED and event != KILLED):
            best = theta
            kind = event
            b = row
            found = shape
    if ride[0] != RIDE_NONE:
        if not have_dense:
            dense(ground, c, members, ride, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h, out)
            have_dense = True
        theta = ride_release(ground, c, members, ride, out, y0, y1, y2, y3, y4, lo, min(1.0, best))
        if theta < best:
            best = theta
            kind = RIDE_END
            b = -1
            found = NO_SHAPE
        first, last = ride_shapes(table, ride_row, ride)
        for shape in (first, last):
            if shape[0] < 0.0 or gap(shape, xa, ya, 0.0) <= 0.0:
                continue
            theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, best), 0.0, 0.0, accel)
            if theta < best:
                best = theta
                kind = RIDE_END
                b = -1
                found = shape
    if c[6] != 0.0 and c[5] == 0.0 and n[4] * c[6] <= 0.0:
        # Decoupled spin reaching zero: its sign is fixed for the motion, so it crosses zero once.
        if not have_dense:
            dense(ground, c, members, ride, y0, y1, y2, y3, y4, y5, f0, f1, f2, f3, f4, f5, h, out)
            have_dense = True
        a = lo
        e = 1.0
        for _ in range(200):
            if e - a <= 2.0e-16:
                break
            m = 0.5 * (a + e)
            if dense_component(out, 4, y4, m) * c[6] > 0.0:
                a = m
            else:
                e = m
        if e < best:
            best = e
            kind = SPIN_STOP
            b = -1
            found = NO_SHAPE
    return best, kind, b, found, have_dense
