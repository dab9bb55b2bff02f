"""The event loop on a curved court: run a scene to rest, one event at a time (numba, no Python inside).

The curved counterpart of ``kernel.run_table``, with the same logs and the same events. Every moving
*body* (a disc, or discs moving on as one: ``curved_state``) advances step by step in its own
regularised variable (``curved_motion``); a body holds its present step, and every prediction is made
on present steps only:

* a body's own next event (stop, cushion, peg, fall, hole, spin stop, the end of a ride) and its
  discs' kill-line crossings, searched along its present step (``curved_events``; the body's
  ``C_T_NEXT``, each disc's ``C_T_KILL``);
* every pair of discs of different bodies, searched over the time both present steps cover
  (``curved_pairs``).

The loop takes the earliest predicted event if it comes before the earliest end of a present step
(the *horizon*): everything before the horizon has been searched. Otherwise the body whose step ends
there takes its next step, and only its own events and its pairs are predicted again. An event's
state is reached by integrating the bodies involved from their steps' starts to it, its time made
exact on the integrated states (``curved_lone.event_state``, ``_pair_states``); bodies not involved
keep their steps. Events at one instant are taken one after another, as on a flat court.

Sustained contact. A disc pressed against a cushion or a peg by the grade rides it (``curved_lone``).
Discs left touching and pushed together (both sliding, closing slower than
``kernel.PUSH_MERGE_SPEED``), and the sliding discs touching them, move on as one *group*: their mean
velocity and, on a curved court, their mean spin too (one body has one state), the group feeling the
mean gravity and friction of its discs (``curved_motion.derivatives``). A group splits into its discs
at its next event (an impact, a fall, a hole, its stop); so does a touching group after
``kernel.STORM_IMPACTS`` impacts at one instant, as on a flat court.

Logs: the event log is the flat loop's (``kernel.EV_COLUMNS``); the trajectory log has a row per
disc at every start of its body's motion, the flat loop's nine columns and then the disc's body (its
leader), offset from it and ride (``CURVED_SEG_COLUMNS``), from which ``curved_sampling`` integrates
the same steps again.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    F_INDEX,
    F_KIND,
    H_DECEL,
    H_FRICTION,
    H_INERTIA,
    H_RADIUS,
    H_RESTITUTION,
    H_SPIN_DECEL,
    HOLE,
    KILL_LINE,
    PEG,
    F,
    obstacle_overlap,
)
from shuffle_sim.physics._impacts import PUSH_MERGE_SPEED, STORM_IMPACTS, fixed_body_bounce
from shuffle_sim.physics._motion import REST_SPEED
from shuffle_sim.physics._resolve import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics._toi import APPROACH_TOL, CONTACT_GAP, OVERLAP_SLACK
from shuffle_sim.physics.curved_events import NO_SHAPE, clear, first_event, gap, start_shape
from shuffle_sim.physics.curved_lone import (
    RIDE_END,
    event_state,
    pushed_ride,
    ride_release,
    ride_shapes,
)
from shuffle_sim.physics.curved_motion import (
    NO_RIDE,
    RIDE_NONE,
    derivatives,
    max_acceleration,
    onto_ride,
)
from shuffle_sim.physics.curved_pairs import disc_at, pair_entry
from shuffle_sim.physics.curved_state import (
    C_DENSE,
    C_EVENT_THETA,
    C_F,
    C_FINISH,
    C_H,
    C_H_NEXT,
    C_K,
    C_LO,
    C_N,
    C_OFFSET,
    C_RIDE,
    C_SIGN,
    C_START,
    C_STEP_END,
    C_T_KILL,
    C_T_NEXT,
    C_T_SPIN,
    C_Y,
    I_DEAD,
    I_DENSE,
    I_KILL_B,
    I_LEADER,
    I_MOVED,
    I_NEXT_B,
    I_NEXT_DISC,
    I_NEXT_KIND,
    I_PHASE,
    I_RIDE_ROW,
    I_STATUS,
    I_STEPS,
    I_TOUCHED,
    PHASE_FINISH,
    PHASE_REST,
    PHASE_STEP,
    body_dense,
    constants,
    finish_stretch,
    first_step_size,
    ride_of_body,
    set_ride,
    settle,
    take_step,
    theta_at,
)
from shuffle_sim.physics.curved_step import step
from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    FALL,
    HOLED,
    KILLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
    STATUS_REST,
    STOP,
)
from shuffle_sim.physics.ground import ground_at

#: Columns of the curved trajectory log: the flat log's nine (``kernel.SEG_COLUMNS``), then the
#: disc's leader, its offset from it (2) and its body's ride (6).
CURVED_SEG_COLUMNS = 18
#: Steps a body may take in one motion (a bound, as ``curved_lone.MAX_STEPS``).
MAX_STEPS = 20_000


@jit.inline
def _log_event(ev, n, t, kind, a, b, a_dead, b_dead):
    if n < ev.shape[0]:
        ev[n, 0] = t
        ev[n, 1] = kind
        ev[n, 2] = a
        ev[n, 3] = b
        ev[n, 4] = a_dead
        ev[n, 5] = b_dead
        return n + 1
    return n


@jit.kernel
def members_of(cs, ci, lead, buf):
    """The offsets of a group's discs in ``buf[:count]``; (count, the view). A lone disc is no group:
    its view is empty."""
    count = 0
    n = cs.shape[1]
    for i in range(n):
        if ci[I_LEADER, i] == lead and ci[I_STATUS, i] < STATUS_FALLEN:
            buf[count, 0] = cs[C_OFFSET, i]
            buf[count, 1] = cs[C_OFFSET + 1, i]
            count += 1
    if count <= 1:
        return count, buf[:0]
    return count, buf[:count]


@jit.kernel
def body_state(table, spin, ground, cs, ci, lead, t, members, out):
    """(x, y, vx, vy, w) of body ``lead``'s leader at time t (>= its step's start), integrated from its
    step's start (not from the dense output)."""
    phase = ci[I_PHASE, lead]
    if phase == PHASE_REST:
        return cs[C_Y, lead], cs[C_Y + 1, lead], 0.0, 0.0, cs[C_Y + 4, lead]
    if phase == PHASE_FINISH:
        x, y, vx, vy = disc_at(cs, ci, lead, t)
        return x - cs[C_OFFSET, lead], y - cs[C_OFFSET + 1, lead], vx, vy, cs[C_Y + 4, lead]
    c = constants(table, spin, ground, cs[C_SIGN, lead])
    ride = ride_of_body(cs, lead)
    if t >= cs[C_N + 5, lead]:
        return cs[C_N, lead], cs[C_N + 1, lead], cs[C_N + 2, lead], cs[C_N + 3, lead], cs[C_N + 4, lead]
    if t <= cs[C_Y + 5, lead]:
        return cs[C_Y, lead], cs[C_Y + 1, lead], cs[C_Y + 2, lead], cs[C_Y + 3, lead], cs[C_Y + 4, lead]
    body_dense(ground, c, members, ride, cs, ci, lead, out)
    theta = theta_at(cs, lead, t)
    e, _, _ = step(
        ground,
        c,
        members,
        ride,
        cs[C_Y, lead],
        cs[C_Y + 1, lead],
        cs[C_Y + 2, lead],
        cs[C_Y + 3, lead],
        cs[C_Y + 4, lead],
        cs[C_Y + 5, lead],
        cs[C_F, lead],
        cs[C_F + 1, lead],
        cs[C_F + 2, lead],
        cs[C_F + 3, lead],
        cs[C_F + 4, lead],
        cs[C_F + 5, lead],
        cs[C_H, lead] * theta,
    )
    return e[0], e[1], e[2], e[3], e[4]


@jit.kernel
def start_body(table, spin, ground, cs, ci, lead, t, x, y, vx, vy, w, ride, ride_row, buf, out):
    """Give body ``lead`` (a lone disc, or a group's leader with its members' offsets set) a new motion
    from its leader's state at time t: at rest (perhaps spinning in place) or stepping (its first
    step taken). Returns False if the first step could not be taken."""
    coupled = spin.shape[0] > 0
    count, members = members_of(cs, ci, lead, buf)
    vx, vy, w, moving = settle(ground, coupled, x, y, vx, vy, w, REST_SPEED)
    cs[C_Y, lead] = x
    cs[C_Y + 1, lead] = y
    cs[C_Y + 2, lead] = vx
    cs[C_Y + 3, lead] = vy
    cs[C_Y + 4, lead] = w
    cs[C_Y + 5, lead] = t
    cs[C_T_NEXT, lead] = math.inf
    ci[I_NEXT_KIND, lead] = -1
    ci[I_DENSE, lead] = 0
    ci[I_STEPS, lead] = 0
    cs[C_LO, lead] = 0.0
    cs[C_STEP_END, lead] = math.inf
    cs[C_SIGN, lead] = 0.0 if w == 0.0 else math.copysign(1.0, w)
    if not moving:
        # At rest, every member on its own (a group is no more); a spin decays in place.
        for i in range(cs.shape[1]):
            if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
                continue
            xi = x + cs[C_OFFSET, i]
            yi = y + cs[C_OFFSET + 1, i]
            _rest(ground, table, cs, ci, i, t, xi, yi, w)
        return True
    ci[I_PHASE, lead] = PHASE_STEP
    set_ride(cs, lead, ride)
    ci[I_RIDE_ROW, lead] = ride_row
    cs[C_START, lead] = x
    cs[C_START + 1, lead] = y
    cs[C_START + 2, lead] = vx
    cs[C_START + 3, lead] = vy
    c = constants(table, spin, ground, cs[C_SIGN, lead])
    d = derivatives(ground, c, members, ride, x, y, vx, vy, w)
    for r in range(6):
        cs[C_F + r, lead] = d[r]
    cs[C_H_NEXT, lead] = first_step_size(ground, c[0], x, y)
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] == lead and ci[I_STATUS, i] < STATUS_FALLEN:
            ci[I_STATUS, i] = STATUS_MOVING
            cs[C_T_SPIN, i] = math.inf
    return _next_stretch(table, spin, ground, cs, ci, lead, members, out)


@jit.inline
def _rest(ground, table, cs, ci, i, t, x, y, w):
    """Disc i at rest at (x, y) from time t, alone, spinning at w (decaying in place)."""
    ci[I_LEADER, i] = i
    ci[I_PHASE, i] = PHASE_REST
    ci[I_STATUS, i] = STATUS_REST
    cs[C_OFFSET, i] = 0.0
    cs[C_OFFSET + 1, i] = 0.0
    cs[C_Y, i] = x
    cs[C_Y + 1, i] = y
    cs[C_Y + 2, i] = 0.0
    cs[C_Y + 3, i] = 0.0
    cs[C_Y + 4, i] = w
    cs[C_Y + 5, i] = t
    cs[C_STEP_END, i] = math.inf
    cs[C_T_NEXT, i] = math.inf
    ci[I_NEXT_KIND, i] = -1
    set_ride(cs, i, NO_RIDE)
    ci[I_RIDE_ROW, i] = -1
    if w != 0.0:
        cs[C_T_SPIN, i] = t + abs(w) / (table[0, H_SPIN_DECEL] * ground_at(ground, x, y)[2])
    else:
        cs[C_T_SPIN, i] = math.inf


@jit.kernel
def _next_stretch(table, spin, ground, cs, ci, lead, members, out):
    """From the body's present step-start state: finish in closed form if the slide left is short
    enough, else take the next step; then predict the body's own events on it."""
    c = constants(table, spin, ground, cs[C_SIGN, lead])
    ride = ride_of_body(cs, lead)
    x = cs[C_Y, lead]
    y = cs[C_Y + 1, lead]
    ok, tau, dx, dy = finish_stretch(
        ground, c, members, ride, x, y, cs[C_Y + 2, lead], cs[C_Y + 3, lead], cs[C_Y + 4, lead]
    )
    ci[I_DENSE, lead] = 0
    cs[C_LO, lead] = 0.0
    if ok:
        ci[I_PHASE, lead] = PHASE_FINISH
        cs[C_FINISH, lead] = cs[C_Y + 5, lead] + tau
        cs[C_FINISH + 1, lead] = x + dx
        cs[C_FINISH + 2, lead] = y + dy
        w = cs[C_Y + 4, lead]
        if c[5] != 0.0 or w == 0.0:
            w = 0.0
        else:
            w -= c[6] * c[1] * ground_at(ground, x, y)[2] * tau
            if w * c[6] <= 0.0:
                w = 0.0
        cs[C_FINISH + 3, lead] = w
        cs[C_STEP_END, lead] = math.inf
        cs[C_T_NEXT, lead] = cs[C_FINISH, lead]
        ci[I_NEXT_KIND, lead] = STOP
        ci[I_NEXT_B, lead] = -1
        ci[I_NEXT_DISC, lead] = lead
        for i in range(cs.shape[1]):
            if ci[I_LEADER, i] == lead:
                cs[C_T_KILL, i] = math.inf
        return True
    ci[I_PHASE, lead] = PHASE_STEP
    ci[I_STEPS, lead] += 1
    if ci[I_STEPS, lead] > MAX_STEPS or not take_step(ground, c, members, ride, cs, lead):
        return False
    # Other discs' pairs read every present step's dense output (``curved_pairs``): made at once.
    body_dense(ground, c, members, ride, cs, ci, lead, out)
    _predict_body(table, spin, ground, cs, ci, lead, members, out)
    return True


@jit.kernel
def _predict_body(table, spin, ground, cs, ci, lead, members, out):
    """The body's next own event in its present step from C_LO on (``C_T_NEXT``, ``I_NEXT_KIND``,
    ``I_NEXT_B``, ``I_NEXT_DISC``), and each member's next kill-line crossing (``C_T_KILL``)."""
    c = constants(table, spin, ground, cs[C_SIGN, lead])
    ride = ride_of_body(cs, lead)
    ride_row = ci[I_RIDE_ROW, lead]
    decel = c[0]
    accel = max_acceleration(ground, decel)
    lo = cs[C_LO, lead]
    y0 = cs[C_Y, lead]
    y1 = cs[C_Y + 1, lead]
    y2 = cs[C_Y + 2, lead]
    y3 = cs[C_Y + 3, lead]
    y5 = cs[C_Y + 5, lead]
    best = math.inf
    kind = -1
    b = -1
    who = lead
    have = ci[I_DENSE, lead] != 0
    if have:
        body_dense(ground, c, members, ride, cs, ci, lead, out)
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        ox = cs[C_OFFSET, i]
        oy = cs[C_OFFSET + 1, i]
        alive = ci[I_DEAD, i] == 0
        cs[C_T_KILL, i] = math.inf
        kill = math.inf
        kill_b = -1
        # The chord of the rest of the step, for a first look without the dense output.
        if lo == 0.0:
            xa, ya, va, ta = y0 + ox, y1 + oy, math.sqrt(y2 * y2 + y3 * y3), y5
        else:
            xa, ya, va, ta = _dense_probe(cs, lead, lo, ox, oy)
        xb = cs[C_N, lead] + ox
        yb = cs[C_N + 1, lead] + oy
        vb = math.sqrt(cs[C_N + 2, lead] ** 2 + cs[C_N + 3, lead] ** 2)
        duration = cs[C_N + 5, lead] - ta
        delta = accel * duration * duration / 8.0 + 1e-9
        dv = 0.5 * accel * duration
        sx = cs[C_START, lead] + ox
        sy = cs[C_START + 1, lead] + oy
        rider = ride_row >= 0 and ox == ride[4] and oy == ride[5]
        for row in range(1, table.shape[0]):
            if rider and row == ride_row:
                continue
            shape, at_once = start_shape(table, row, sx, sy, cs[C_START + 2, lead], cs[C_START + 3, lead], alive, True)
            if shape[0] < 0.0:
                continue
            if at_once and lo == 0.0:
                if table[row, F_KIND] == KILL_LINE:
                    if kill > 0.0:
                        kill = 0.0
                        kill_b = row
                elif best > 0.0:
                    best = 0.0
                    kind = _event_kind(table[row, F_KIND])
                    b = row
                    who = i
                continue
            if at_once:
                continue
            if clear(shape, xa, ya, va, xb, yb, vb, delta, dv):
                continue
            if not have:
                body_dense(ground, c, members, ride, cs, ci, lead, out)
                have = True
            is_kill = table[row, F_KIND] == KILL_LINE
            theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, kill if is_kill else best), ox, oy, accel)
            if is_kill:
                if theta < kill:
                    kill = theta
                    kill_b = row
            elif theta < best:
                best = theta
                kind = _event_kind(table[row, F_KIND])
                b = row
                who = i
        if kill_b >= 0:
            cs[C_T_KILL, i] = _dense_time(cs, lead, kill)
            ci[I_KILL_B, i] = kill_b
    if ride[0] != RIDE_NONE:
        if not have:
            body_dense(ground, c, members, ride, cs, ci, lead, out)
            have = True
        theta = ride_release(
            ground,
            c,
            members,
            ride,
            out,
            y0,
            y1,
            cs[C_Y + 2, lead],
            cs[C_Y + 3, lead],
            cs[C_Y + 4, lead],
            lo,
            min(1.0, best),
        )
        if theta < best:
            best = theta
            kind = RIDE_END
            b = -1
        first, last = ride_shapes(table, ride_row, ride)
        for shape in (first, last):
            if shape[0] < 0.0:
                continue
            ox = ride[4]
            oy = ride[5]
            if gap(shape, _dense_probe(cs, lead, lo, ox, oy)[0], _dense_probe(cs, lead, lo, ox, oy)[1], 0.0) <= 0.0:
                continue
            theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, best), ox, oy, accel)
            if theta < best:
                best = theta
                kind = RIDE_END
                b = -1
    if c[6] != 0.0 and c[5] == 0.0 and cs[C_N + 4, lead] * c[6] <= 0.0:
        if not have:
            body_dense(ground, c, members, ride, cs, ci, lead, out)
            have = True
        a = lo
        e = 1.0
        for _ in range(200):
            if e - a <= 2.0e-16:
                break
            m = 0.5 * (a + e)
            if _dense_value(cs, lead, 4, m) * c[6] > 0.0:
                a = m
            else:
                e = m
        if e < best:
            best = e
            kind = SPIN_STOP
            b = -1
            who = lead
    if kind == -1:
        cs[C_T_NEXT, lead] = math.inf
        ci[I_NEXT_KIND, lead] = -1
    else:
        cs[C_T_NEXT, lead] = _dense_time(cs, lead, best)
        ci[I_NEXT_KIND, lead] = kind
        ci[I_NEXT_B, lead] = b
        ci[I_NEXT_DISC, lead] = who
        cs[C_EVENT_THETA, lead] = best


@jit.inline
def _dense_value(cs, lead, k, theta):
    r = 1.0 - theta
    v = cs[C_DENSE + 36 + k, lead]
    v = v * theta + cs[C_DENSE + 30 + k, lead]
    v = v * r + cs[C_DENSE + 24 + k, lead]
    v = v * theta + cs[C_DENSE + 18 + k, lead]
    v = v * r + cs[C_DENSE + 12 + k, lead]
    v = v * theta + cs[C_DENSE + 6 + k, lead]
    v = v * r + cs[C_DENSE + k, lead]
    return v * theta + cs[C_Y + k, lead]


@jit.inline
def _dense_time(cs, lead, theta):
    if theta >= 1.0:
        return cs[C_N + 5, lead]
    if theta <= 0.0:
        return cs[C_Y + 5, lead]
    return _dense_value(cs, lead, 5, theta)


@jit.inline
def _dense_probe(cs, lead, theta, ox, oy):
    vx = _dense_value(cs, lead, 2, theta)
    vy = _dense_value(cs, lead, 3, theta)
    return (
        _dense_value(cs, lead, 0, theta) + ox,
        _dense_value(cs, lead, 1, theta) + oy,
        math.sqrt(vx * vx + vy * vy),
        _dense_value(cs, lead, 5, theta),
    )


@jit.inline
def _event_kind(f):
    if f == CUSHION_SEGMENT or f == CUSHION_CIRCLE:
        return DISC_CUSHION
    if f == PEG:
        return DISC_PEG
    if f == HOLE:
        return HOLED
    if f == KILL_LINE:
        return KILLED
    return FALL


# --------------------------------------------------------------------------------------------------
# Discs at rest, and pairs


@jit.kernel
def _rest_events(table, cs, ci, i):
    """A disc at rest: dropped into a hole under it (capture speed above zero) at once, killed at once
    if already past a kill line (alive), as ``predict.predict_path`` says for a disc at rest."""
    x = cs[C_Y, i]
    y = cs[C_Y + 1, i]
    now = cs[C_Y + 5, i]
    cs[C_T_KILL, i] = math.inf
    for row in range(1, table.shape[0]):
        f = table[row, F_KIND]
        if f == HOLE or (f == KILL_LINE and ci[I_DEAD, i] == 0):
            _, at_once = start_shape(table, row, x, y, 0.0, 0.0, ci[I_DEAD, i] == 0, False)
            if not at_once:
                continue
            if f == HOLE:
                cs[C_T_NEXT, i] = now
                ci[I_NEXT_KIND, i] = HOLED
                ci[I_NEXT_B, i] = row
                ci[I_NEXT_DISC, i] = i
                return
            if cs[C_T_KILL, i] == math.inf:
                cs[C_T_KILL, i] = now
                ci[I_KILL_B, i] = row


@jit.kernel
def _pair_time(cs, ci, a, b, now, pair_rho, contact, accel, fresh):
    """The next impact of discs a < b (of different bodies) from ``now`` within both bodies' present
    steps, with the contact rules of ``toi``: ``fresh`` when a body's motion has just started (the
    pair's target is set again), else the target of a touching pair returns to contact once the pair
    has parted by more than CONTACT_GAP."""
    la = ci[I_LEADER, a]
    lb = ci[I_LEADER, b]
    pa = ci[I_PHASE, la]
    pb = ci[I_PHASE, lb]
    if pa == PHASE_REST and pb == PHASE_REST:
        return math.inf
    end = math.inf
    for lead in (la, lb):
        phase = ci[I_PHASE, lead]
        if phase == PHASE_STEP:
            end = min(end, cs[C_STEP_END, lead])
        elif phase == PHASE_FINISH:
            end = min(end, cs[C_FINISH, lead])
    xa, ya, vxa, vya = disc_at(cs, ci, a, now)
    xb, yb, vxb, vyb = disc_at(cs, ci, b, now)
    dx = xb - xa
    dy = yb - ya
    d = math.sqrt(dx * dx + dy * dy)
    if fresh:
        if d - contact <= CONTACT_GAP:
            if (vxb - vxa) * dx + (vyb - vya) * dy < -APPROACH_TOL * d:
                pair_rho[a, b] = contact
                return now
            pair_rho[a, b] = min(contact, d) - OVERLAP_SLACK
        else:
            pair_rho[a, b] = contact
    elif pair_rho[a, b] < contact and d > contact + CONTACT_GAP:
        pair_rho[a, b] = contact
    rho = pair_rho[a, b]
    if d <= rho:
        return now
    return pair_entry(cs, ci, a, b, rho, now, end, accel)


@jit.kernel
def _predict_pairs(cs, ci, lead, now, pair_t, pair_rho, contact, accel, fresh):
    """Predict every pair of a disc of body ``lead`` with a disc of another body."""
    n = cs.shape[1]
    for i in range(n):
        if ci[I_LEADER, i] != lead:
            continue
        for j in range(n):
            if j == i:
                continue
            a = min(i, j)
            b = max(i, j)
            if ci[I_STATUS, i] >= STATUS_FALLEN or ci[I_STATUS, j] >= STATUS_FALLEN or ci[I_LEADER, j] == lead:
                pair_t[a, b] = math.inf  # out of play, or one body: no impact
                continue
            pair_t[a, b] = _pair_time(cs, ci, a, b, now, pair_rho, contact, accel, fresh)


# --------------------------------------------------------------------------------------------------
# Applying events


@jit.kernel
def _pair_states(table, spin, ground, cs, ci, a, b, t, now, rho, buf, out, states):
    """The states of discs a and b at their impact near time t, each integrated from its body's step
    start; t is corrected by Newton's method on the integrated distance (its rate from the integrated
    velocities), within both bodies' present steps and not before ``now``, until the distance is
    within 1e-13 m of rho: the dense outputs that found t err by up to about the steps' tolerance.
    Fills ``states`` (2, 5) with each disc's (x, y, vx, vy, w); returns the time."""
    lo = now
    hi = math.inf
    for k in range(2):
        lead = ci[I_LEADER, a if k == 0 else b]
        if ci[I_PHASE, lead] == PHASE_STEP:
            lo = max(lo, cs[C_Y + 5, lead])
            hi = min(hi, cs[C_N + 5, lead])
    for _ in range(8):
        for k in range(2):
            i = a if k == 0 else b
            lead = ci[I_LEADER, i]
            _, members = members_of(cs, ci, lead, buf)
            x, y, vx, vy, w = body_state(table, spin, ground, cs, ci, lead, t, members, out)
            states[k, 0] = x + cs[C_OFFSET, i]
            states[k, 1] = y + cs[C_OFFSET + 1, i]
            states[k, 2] = vx
            states[k, 3] = vy
            states[k, 4] = w
        dx = states[1, 0] - states[0, 0]
        dy = states[1, 1] - states[0, 1]
        g = math.sqrt(dx * dx + dy * dy) - rho
        if abs(g) <= 1e-13:
            break
        rate = (dx * (states[1, 2] - states[0, 2]) + dy * (states[1, 3] - states[0, 3])) / (g + rho)
        if not rate < 0.0:
            break
        better = min(hi, max(lo, t - g / rate))
        if better == t:
            break
        t = better
    return t


@jit.kernel
def _free_acceleration(table, spin, ground, x, y, vx, vy, w):
    """The acceleration of a lone disc in time (m/s^2): gravity and friction, no ride."""
    sign = 0.0 if w == 0.0 else math.copysign(1.0, w)
    c = constants(table, spin, ground, sign)
    no_members = np.empty((0, 2))
    _, _, dvx, dvy, _, q = derivatives(ground, c, no_members, NO_RIDE, x, y, vx, vy, w)
    if q == 0.0:
        return 0.0, 0.0
    return dvx / q, dvy / q


@jit.kernel
def _dissolve(table, spin, ground, cs, ci, lead, t, buf, out, pend):
    """Split body ``lead`` into its discs at time t: each disc's (x, y, vx, vy, w) into ``pend``
    (its row 5 set to 1), each its own leader again."""
    _, members = members_of(cs, ci, lead, buf)
    x, y, vx, vy, w = body_state(table, spin, ground, cs, ci, lead, t, members, out)
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        pend[i, 0] = x + cs[C_OFFSET, i]
        pend[i, 1] = y + cs[C_OFFSET + 1, i]
        pend[i, 2] = vx
        pend[i, 3] = vy
        pend[i, 4] = w
        pend[i, 5] = 1.0
        ci[I_LEADER, i] = i
        cs[C_OFFSET, i] = 0.0
        cs[C_OFFSET + 1, i] = 0.0


@jit.kernel
def _grow_group(table, spin, ground, cs, ci, t, contact, buf, out, pend, group):
    """Mark in ``group`` the pending discs ``group`` already holds and, transitively, every sliding
    disc touching one of them without clearly leaving it (as ``kernel._merge_pushing_group``): their
    bodies are split (``_dissolve``) and they join."""
    n = cs.shape[1]
    grew = True
    while grew:
        grew = False
        for k in range(n):
            if group[k] != 0 or ci[I_STATUS, k] != STATUS_MOVING:
                continue
            if pend[k, 5] != 0.0:
                xk, yk, vxk, vyk = pend[k, 0], pend[k, 1], pend[k, 2], pend[k, 3]
            else:
                xk, yk, vxk, vyk = disc_at(cs, ci, k, t)
            if vxk == 0.0 and vyk == 0.0:
                continue
            for m in range(n):
                if group[m] == 0:
                    continue
                dx = xk - pend[m, 0]
                dy = yk - pend[m, 1]
                dist = math.sqrt(dx * dx + dy * dy)
                if (
                    dist - contact <= CONTACT_GAP
                    and (vxk - pend[m, 2]) * dx + (vyk - pend[m, 3]) * dy < PUSH_MERGE_SPEED * dist
                ):
                    if pend[k, 5] == 0.0:
                        _dissolve(table, spin, ground, cs, ci, ci[I_LEADER, k], t, buf, out, pend)
                    group[k] = 1
                    grew = True
                    break


@jit.kernel
def _start_group(table, spin, ground, cs, ci, t, pend, group, buf, out):
    """Start the discs marked in ``group`` as one body: the lowest-numbered leads; offsets from it;
    the mean velocity and the mean spin (which conserve momentum and cannot add energy)."""
    n = cs.shape[1]
    lead = -1
    count = 0
    vx = 0.0
    vy = 0.0
    w = 0.0
    for i in range(n):
        if group[i] == 0:
            continue
        if lead < 0:
            lead = i
        count += 1
        vx += pend[i, 2]
        vy += pend[i, 3]
        w += pend[i, 4]
    for i in range(n):
        if group[i] == 0:
            continue
        ci[I_LEADER, i] = lead
        cs[C_OFFSET, i] = pend[i, 0] - pend[lead, 0]
        cs[C_OFFSET + 1, i] = pend[i, 1] - pend[lead, 1]
        ci[I_MOVED, i] = 1
        pend[i, 5] = 0.0
    return start_body(
        table,
        spin,
        ground,
        cs,
        ci,
        lead,
        t,
        pend[lead, 0],
        pend[lead, 1],
        vx / count,
        vy / count,
        w / count,
        NO_RIDE,
        -1,
        buf,
        out,
    )


@jit.kernel
def _start_pending(table, spin, ground, cs, ci, t, pend, rides, buf, out):
    """Start every disc still pending (``pend[i, 5]``) as its own body, with its ride (``rides``)."""
    ok = True
    for i in range(cs.shape[1]):
        if pend[i, 5] == 0.0:
            continue
        pend[i, 5] = 0.0
        ci[I_MOVED, i] = 1
        if ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        ride = (rides[i, 0], rides[i, 1], rides[i, 2], rides[i, 3], rides[i, 4], rides[i, 5])
        row = int(rides[i, 6])
        ok = (
            start_body(
                table,
                spin,
                ground,
                cs,
                ci,
                i,
                t,
                pend[i, 0],
                pend[i, 1],
                pend[i, 2],
                pend[i, 3],
                pend[i, 4],
                ride,
                row,
                buf,
                out,
            )
            and ok
        )
        rides[i, 0] = 0.0
        rides[i, 6] = -1.0
    return ok


@jit.kernel
def _pushing(table, spin, ground, contact, xa, ya, vxa, vya, wa, xb, yb, vxb, vyb, wb):
    """Whether two touching sliding discs are pushed together: closing slower than PUSH_MERGE_SPEED with
    |d|^2 curving down (its second derivative |g|^2 + d . (a_b - a_a) negative), as ``kernel._disc_disc``."""
    if (vxa == 0.0 and vya == 0.0) or (vxb == 0.0 and vyb == 0.0):
        return False
    dx = xb - xa
    dy = yb - ya
    dist = math.sqrt(dx * dx + dy * dy)
    gx = vxb - vxa
    gy = vyb - vya
    if gx * dx + gy * dy >= PUSH_MERGE_SPEED * dist:
        return False
    aax, aay = _free_acceleration(table, spin, ground, xa, ya, vxa, vya, wa)
    abx, aby = _free_acceleration(table, spin, ground, xb, yb, vxb, vyb, wb)
    return gx * gx + gy * gy + dx * (abx - aax) + dy * (aby - aay) < 0.0


# --------------------------------------------------------------------------------------------------
# The loop


@jit.kernel
def clear_discs(cs, ci):
    """Every disc out of play and its own body, before ``place_curved`` puts them on the court one by
    one (a disc not yet placed must not count as a member of another's body)."""
    for i in range(cs.shape[1]):
        ci[I_LEADER, i] = i
        ci[I_STATUS, i] = STATUS_FALLEN
        ci[I_PHASE, i] = PHASE_REST
        ci[I_MOVED, i] = 0
        cs[C_OFFSET, i] = 0.0
        cs[C_OFFSET + 1, i] = 0.0
        cs[C_T_NEXT, i] = math.inf
        cs[C_T_KILL, i] = math.inf
        cs[C_T_SPIN, i] = math.inf


@jit.kernel
def place_curved(table, spin, ground, cs, ci, i, x, y, vx, vy, omega, buf, out):
    """Put disc ``i`` at (x, y) with its launch velocity and spin at time 0, alive, its own body (the
    discs' state cleared first by ``clear_discs``)."""
    ci[I_LEADER, i] = i
    ci[I_STATUS, i] = STATUS_MOVING
    ci[I_DEAD, i] = 0
    ci[I_TOUCHED, i] = 0
    ci[I_MOVED, i] = 1
    ci[I_PHASE, i] = PHASE_REST
    cs[C_OFFSET, i] = 0.0
    cs[C_OFFSET + 1, i] = 0.0
    cs[C_T_KILL, i] = math.inf
    cs[C_T_SPIN, i] = math.inf
    cs[C_T_NEXT, i] = math.inf
    return start_body(table, spin, ground, cs, ci, i, 0.0, x, y, vx, vy, omega, NO_RIDE, -1, buf, out)


@jit.kernel
def curved_state_at(table, spin, ground, cs, ci, i, t, buf, out):
    """(x, y, vx, vy, omega) of disc i at time t (at or after its body's step start)."""
    lead = ci[I_LEADER, i]
    if ci[I_STATUS, i] >= STATUS_FALLEN or ci[I_PHASE, lead] == PHASE_REST:
        return cs[C_Y, i], cs[C_Y + 1, i], 0.0, 0.0, cs[C_Y + 4, i]
    _, members = members_of(cs, ci, lead, buf)
    x, y, vx, vy, w = body_state(table, spin, ground, cs, ci, lead, t, members, out)
    return x + cs[C_OFFSET, i], y + cs[C_OFFSET + 1, i], vx, vy, w


@jit.kernel
def _log_segment(table, spin, ground, cs, ci, seg, n_seg, i, t, event, buf, out):
    if n_seg >= seg.shape[0]:
        return n_seg
    x, y, vx, vy, w = curved_state_at(table, spin, ground, cs, ci, i, t, buf, out)
    lead = ci[I_LEADER, i]
    seg[n_seg, 0] = t
    seg[n_seg, 1] = i
    seg[n_seg, 2] = ci[I_STATUS, i]
    seg[n_seg, 3] = x
    seg[n_seg, 4] = y
    seg[n_seg, 5] = vx
    seg[n_seg, 6] = vy
    seg[n_seg, 7] = w
    seg[n_seg, 8] = event
    seg[n_seg, 9] = lead
    seg[n_seg, 10] = cs[C_OFFSET, i]
    seg[n_seg, 11] = cs[C_OFFSET + 1, i]
    for k in range(6):
        seg[n_seg, 12 + k] = cs[C_RIDE + k, lead] if ci[I_PHASE, lead] == PHASE_STEP else 0.0
    return n_seg + 1


@jit.kernel
def run_curved(table, spin, ground, cs, ci, pair_t, pair_rho, ev, seg, max_events, scratch):
    """Run the discs placed in ``cs``/``ci`` (``place_curved``) on the curved court ``ground`` until
    every one is at rest or gone: ``kernel.run_table``'s results (events logged, segments logged, ok,
    end time, events processed). ``scratch`` is ``curved_scratch(n)``."""
    buf, out, pend, rides, group, states = scratch
    n = cs.shape[1]
    radius = table[0, H_RADIUS]
    contact = 2.0 * radius
    accel = max_acceleration(ground, table[0, H_DECEL])
    now = 0.0
    n_ev = np.int64(0)
    n_seg = np.int64(0)
    event_row = np.int64(-1)
    ok = True
    processed = np.int64(0)
    impacts_now = np.int64(0)
    for i in range(n):
        pend[i, 5] = 0.0
        rides[i, 6] = -1.0
        group[i] = 0
    while True:
        # Log and predict what the last event changed: the moved discs' segments and pairs.
        for i in range(n):
            if ci[I_MOVED, i] == 0:
                continue
            n_seg = _log_segment(table, spin, ground, cs, ci, seg, n_seg, i, now, event_row, buf, out)
            if ci[I_STATUS, i] == STATUS_REST:
                _rest_events(table, cs, ci, i)
        for i in range(n):
            if ci[I_MOVED, i] != 0 and ci[I_LEADER, i] == i:
                _predict_pairs(cs, ci, i, now, pair_t, pair_rho, contact, accel, True)
        for i in range(n):
            if ci[I_MOVED, i] != 0 and ci[I_LEADER, i] != i and ci[I_MOVED, ci[I_LEADER, i]] == 0:
                _predict_pairs(cs, ci, ci[I_LEADER, i], now, pair_t, pair_rho, contact, accel, True)
        for i in range(n):
            ci[I_MOVED, i] = 0
        # The earliest event, and the horizon: the earliest end of a present step.
        t = math.inf
        kind = np.int64(-1)
        a = np.int64(-1)
        b = np.int64(-1)
        for i in range(n):
            if ci[I_STATUS, i] >= STATUS_FALLEN:
                continue
            if ci[I_LEADER, i] == i and cs[C_T_NEXT, i] < t:
                t, kind, a, b = cs[C_T_NEXT, i], ci[I_NEXT_KIND, i], ci[I_NEXT_DISC, i], ci[I_NEXT_B, i]
            if cs[C_T_KILL, i] < t:
                t, kind, a, b = cs[C_T_KILL, i], KILLED, i, ci[I_KILL_B, i]
            if cs[C_T_SPIN, i] < t:
                t, kind, a, b = cs[C_T_SPIN, i], SPIN_STOP, i, -1
        for i in range(n):
            for j in range(i + 1, n):
                if pair_t[i, j] < t:
                    t, kind, a, b = pair_t[i, j], DISC_DISC, i, j
        horizon = math.inf
        lead = -1
        for i in range(n):
            if ci[I_LEADER, i] == i and ci[I_STATUS, i] < STATUS_FALLEN and ci[I_PHASE, i] == PHASE_STEP:
                if cs[C_STEP_END, i] < horizon:
                    horizon = cs[C_STEP_END, i]
                    lead = i
        if kind == -1 and lead < 0:
            break
        if processed >= max_events:
            ok = False
            break
        if t > horizon:
            # Nothing happens before the step of body ``lead`` ends: it takes its next step.
            processed_steps = _advance(table, spin, ground, cs, ci, lead, buf, out)
            if not processed_steps:
                ok = False
                break
            _predict_pairs(cs, ci, lead, horizon, pair_t, pair_rho, contact, accel, False)
            continue
        processed += 1
        if kind == DISC_DISC:
            # The impact's time made exact on the integrated states (``_pair_states``), not before the
            # last event.
            t = _pair_states(table, spin, ground, cs, ci, a, b, t, now, pair_rho[a, b], buf, out, states)
        if t > now:
            impacts_now = 0
        now = max(now, t)
        if kind == RIDE_END:
            lead = ci[I_LEADER, a]
            ok = _body_event(table, spin, ground, cs, ci, lead, a, kind, b, now, False, scratch)
            event_row = np.int64(-1)
            if not _start_pending(table, spin, ground, cs, ci, now, pend, rides, buf, out):
                ok = False
                break
            continue
        if kind == DISC_DISC:
            b_logged = b
            b_dead = ci[I_DEAD, b]
        else:
            b_logged = np.int64(table[b, F_INDEX]) if b >= 0 else b
            b_dead = 0
        event_row = n_ev
        n_ev = _log_event(ev, n_ev, now, kind, a, b_logged, ci[I_DEAD, a], b_dead)
        if kind == KILLED:
            ci[I_DEAD, a] = 1
            cs[C_T_KILL, a] = math.inf
            continue
        if kind == SPIN_STOP and ci[I_STATUS, a] == STATUS_REST:
            cs[C_Y + 4, a] = 0.0
            cs[C_T_SPIN, a] = math.inf
            continue
        if kind == HOLED and ci[I_PHASE, ci[I_LEADER, a]] == PHASE_REST:
            # At rest over a hole: it drops in where it lies, to the hole's centre.
            _out_of_play(cs, ci, a, HOLED, table[b, F], table[b, F + 1], now)
            continue
        if kind == STOP:
            lead = ci[I_LEADER, a]
            _finish_body(ground, table, cs, ci, lead, now)
            for i in range(n):
                if ci[I_MOVED, i] != 0 and i != a:
                    n_ev = _log_event(ev, n_ev, now, STOP, i, -1, ci[I_DEAD, i], 0)
            continue
        if kind == DISC_DISC:
            ok = (
                _disc_disc(
                    table,
                    spin,
                    ground,
                    cs,
                    ci,
                    a,
                    b,
                    now,
                    pair_rho[a, b],
                    impacts_now + 1 > STORM_IMPACTS,
                    contact,
                    scratch,
                )
                and ok
            )
            impacts_now += 1
            if not ok:
                break
            continue
        # An own event of a body: reached by integration, then applied.
        lead = ci[I_LEADER, a]
        if kind == DISC_CUSHION or kind == DISC_PEG:
            impacts_now += 1
        ok = (
            _body_event(table, spin, ground, cs, ci, lead, a, kind, b, now, impacts_now > STORM_IMPACTS, scratch) and ok
        )
        if kind == DISC_CUSHION or kind == DISC_PEG:
            if pend[a, 6] != 0.0 and ci[I_DEAD, a] == 0:
                ci[I_DEAD, a] = 1
                n_ev = _log_event(ev, n_ev, now, KILLED, a, -1, 0, 0)
            pend[a, 6] = 0.0
        if not ok:
            break
        ok = _start_pending(table, spin, ground, cs, ci, now, pend, rides, buf, out)
        if not ok:
            break
    return n_ev, n_seg, ok, now, processed


@jit.kernel
def _advance(table, spin, ground, cs, ci, lead, buf, out):
    """Body ``lead`` accepts its present step and moves on to its next stretch (``_next_stretch``)."""
    for r in range(6):
        cs[C_Y + r, lead] = cs[C_N + r, lead]
        cs[C_F + r, lead] = cs[C_K + r, lead]
    _, members = members_of(cs, ci, lead, buf)
    ride = ride_of_body(cs, lead)
    if ride[0] != RIDE_NONE:
        x, y, vx, vy = onto_ride(ride, cs[C_Y, lead], cs[C_Y + 1, lead], cs[C_Y + 2, lead], cs[C_Y + 3, lead])
        cs[C_Y, lead] = x
        cs[C_Y + 1, lead] = y
        cs[C_Y + 2, lead] = vx
        cs[C_Y + 3, lead] = vy
        c = constants(table, spin, ground, cs[C_SIGN, lead])
        d = derivatives(ground, c, members, ride, x, y, vx, vy, cs[C_Y + 4, lead])
        for r in range(6):
            cs[C_F + r, lead] = d[r]
    return _next_stretch(table, spin, ground, cs, ci, lead, members, out)


@jit.kernel
def _finish_body(ground, table, cs, ci, lead, t):
    """A body's closed-form stop: its discs at rest where they end (a group splits), marked moved."""
    x = cs[C_FINISH + 1, lead]
    y = cs[C_FINISH + 2, lead]
    w = cs[C_FINISH + 3, lead]
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        _rest(ground, table, cs, ci, i, t, x + cs[C_OFFSET, i], y + cs[C_OFFSET + 1, i], w)
        ci[I_MOVED, i] = 1


@jit.kernel
def _body_event(table, spin, ground, cs, ci, lead, a, kind, row, t, storm, scratch):
    """Apply a body's own event (cushion, peg, fall, hole, spin stop) of its disc a at time t: the body
    is integrated to it, split into its discs (``pend``), and disc a's event applied; a cushion that
    kills sets ``pend[a, 6]``. The discs are started by the caller (``_start_pending``).

    ``storm``: more than ``kernel.STORM_IMPACTS`` impacts at this instant already. A disc pinched
    between a cushion or peg and other discs can bounce between them without end at one instant; past
    that many, its impact on the body is perfectly inelastic along the normal (restitution 0), which
    ends the exchange: a stand-in for the sustained contact force, as a group is for discs."""
    buf, out, pend, rides, group, states = scratch
    _, members = members_of(cs, ci, lead, buf)
    c = constants(table, spin, ground, cs[C_SIGN, lead])
    ride = ride_of_body(cs, lead)
    body_dense(ground, c, members, ride, cs, ci, lead, out)
    theta = cs[C_EVENT_THETA, lead]
    ox = cs[C_OFFSET, a]
    oy = cs[C_OFFSET + 1, a]
    shape = NO_SHAPE
    if kind != SPIN_STOP and row >= 0:
        shape, _ = start_shape(
            table,
            row,
            cs[C_START, lead] + ox,
            cs[C_START + 1, lead] + oy,
            cs[C_START + 2, lead],
            cs[C_START + 3, lead],
            ci[I_DEAD, a] == 0,
            True,
        )
        shape = _shifted(shape, ox, oy)
    e = event_state(
        ground,
        c,
        members,
        ride,
        shape,
        False,
        out,
        cs[C_Y, lead],
        cs[C_Y + 1, lead],
        cs[C_Y + 2, lead],
        cs[C_Y + 3, lead],
        cs[C_Y + 4, lead],
        cs[C_Y + 5, lead],
        cs[C_F, lead],
        cs[C_F + 1, lead],
        cs[C_F + 2, lead],
        cs[C_F + 3, lead],
        cs[C_F + 4, lead],
        cs[C_F + 5, lead],
        cs[C_H, lead],
        theta,
        cs[C_LO, lead],
    )
    if kind == SPIN_STOP:
        # The body's spin (a group shares one) reached zero: the body moves on, whole, without it.
        for i in range(cs.shape[1]):
            if ci[I_LEADER, i] == lead and ci[I_STATUS, i] < STATUS_FALLEN:
                ci[I_MOVED, i] = 1
        return start_body(
            table, spin, ground, cs, ci, lead, t, e[0], e[1], e[2], e[3], 0.0, ride, ci[I_RIDE_ROW, lead], buf, out
        )
    # Split the body at the event's state.
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        pend[i, 0] = e[0] + cs[C_OFFSET, i]
        pend[i, 1] = e[1] + cs[C_OFFSET + 1, i]
        pend[i, 2] = e[2]
        pend[i, 3] = e[3]
        pend[i, 4] = e[4]
        pend[i, 5] = 1.0
        ci[I_LEADER, i] = i
        cs[C_OFFSET, i] = 0.0
        cs[C_OFFSET + 1, i] = 0.0
    x = pend[a, 0]
    y = pend[a, 1]
    if kind == DISC_CUSHION or kind == DISC_PEG:
        vx, vy, w, kills = fixed_body_bounce(table, row, x, y, pend[a, 2], pend[a, 3], pend[a, 4])
        if storm:
            vx, vy, w = _inelastic_bounce(table, row, x, y, pend[a, 2], pend[a, 3], pend[a, 4])
        pend[a, 6] = 1.0 if kills else 0.0
        sign = 0.0 if w == 0.0 else math.copysign(1.0, w)
        c2 = constants(table, spin, ground, sign)
        no_members = buf[:0]
        vx, vy, new_ride = pushed_ride(ground, c2, no_members, table, row, x, y, vx, vy, w)
        pend[a, 2] = vx
        pend[a, 3] = vy
        pend[a, 4] = w
        for k in range(6):
            rides[a, k] = new_ride[k]
        rides[a, 6] = float(row) if new_ride[0] != RIDE_NONE else -1.0
        return True
    if kind == RIDE_END:
        return True
    if kind == HOLED:
        x = table[row, F]
        y = table[row, F + 1]
    _out_of_play(cs, ci, a, kind, x, y, t)
    pend[a, 5] = 0.0
    return True


@jit.kernel
def _out_of_play(cs, ci, a, kind, x, y, t):
    """Disc a leaves play (FALL or HOLED) at (x, y) at time t, alone."""
    ci[I_LEADER, a] = a
    ci[I_STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
    ci[I_PHASE, a] = PHASE_REST
    cs[C_Y, a] = x
    cs[C_Y + 1, a] = y
    cs[C_Y + 2, a] = 0.0
    cs[C_Y + 3, a] = 0.0
    cs[C_Y + 4, a] = 0.0
    cs[C_Y + 5, a] = t
    cs[C_T_NEXT, a] = math.inf
    cs[C_T_KILL, a] = math.inf
    cs[C_T_SPIN, a] = math.inf
    ci[I_MOVED, a] = 1


@jit.kernel
def _inelastic_bounce(table, row, x, y, vx, vy, w):
    """``kernel.fixed_body_bounce`` with restitution 0: the normal from the body (as it finds it), then
    ``resolve.fixed_body_impulse``."""
    f = table[row, F_KIND]
    g0 = table[row, F]
    g1 = table[row, F + 1]
    if f == CUSHION_SEGMENT:
        ex = table[row, F + 2] - g0
        ey = table[row, F + 3] - g1
        u = min(max(((x - g0) * ex + (y - g1) * ey) / (ex * ex + ey * ey), 0.0), 1.0)
        nx = x - (g0 + u * ex)
        ny = y - (g1 + u * ey)
        mu_c = table[row, F + 6]
    elif f == CUSHION_CIRCLE:
        nx = g0 - x
        ny = g1 - y
        mu_c = table[row, F + 4]
    else:
        nx = x - g0
        ny = y - g1
        mu_c = table[row, F + 4]
    norm = math.sqrt(nx * nx + ny * ny)
    return fixed_body_impulse(vx, vy, w, nx / norm, ny / norm, table[0, H_RADIUS], 0.0, mu_c, table[0, H_INERTIA])


@jit.inline
def _shifted(shape, ox, oy):
    """A shape moved by (-ox, -oy): the shape a body's reference point meets when its disc at offset
    (ox, oy) meets ``shape``."""
    return (shape[0], shape[1] - ox, shape[2] - oy, shape[3], shape[4], shape[5], shape[6], shape[7])


@jit.kernel
def _disc_disc(table, spin, ground, cs, ci, a, b, t, rho, storm, contact, scratch):
    """Collide discs a and b at time t, their states there in ``states`` (``_pair_states``): both bodies
    split, the impulse applied, and the discs started again, on their own or moving on as one (module
    docstring)."""
    buf, out, pend, rides, group, states = scratch
    t_hit = t
    for lead in (ci[I_LEADER, a], ci[I_LEADER, b]):
        if ci[I_LEADER, lead] == lead and pend[lead, 5] == 0.0:
            _dissolve(table, spin, ground, cs, ci, lead, t_hit, buf, out, pend)
    pend[a, 0], pend[a, 1], pend[a, 2], pend[a, 3], pend[a, 4] = (
        states[0, 0],
        states[0, 1],
        states[0, 2],
        states[0, 3],
        states[0, 4],
    )
    pend[b, 0], pend[b, 1], pend[b, 2], pend[b, 3], pend[b, 4] = (
        states[1, 0],
        states[1, 1],
        states[1, 2],
        states[1, 3],
        states[1, 4],
    )
    pend[a, 5] = 1.0
    pend[b, 5] = 1.0
    dx = pend[b, 0] - pend[a, 0]
    dy = pend[b, 1] - pend[a, 1]
    dist = math.sqrt(dx * dx + dy * dy)
    vax, vay, wa, vbx, vby, wb = disc_disc_impulse(
        pend[a, 2],
        pend[a, 3],
        pend[a, 4],
        pend[b, 2],
        pend[b, 3],
        pend[b, 4],
        dx / dist,
        dy / dist,
        table[0, H_RADIUS],
        table[0, H_RESTITUTION],
        table[0, H_FRICTION],
        table[0, H_INERTIA],
    )
    pend[a, 2], pend[a, 3], pend[a, 4] = vax, vay, wa
    pend[b, 2], pend[b, 3], pend[b, 4] = vbx, vby, wb
    ci[I_TOUCHED, a] = 1
    ci[I_TOUCHED, b] = 1
    merge = storm or _pushing(
        table, spin, ground, contact, pend[a, 0], pend[a, 1], vax, vay, wa, pend[b, 0], pend[b, 1], vbx, vby, wb
    )
    ok = True
    if merge and ((vax != 0.0 or vay != 0.0) and (vbx != 0.0 or vby != 0.0)):
        for i in range(cs.shape[1]):
            group[i] = 0
        group[a] = 1
        group[b] = 1
        _grow_group(table, spin, ground, cs, ci, t, contact, buf, out, pend, group)
        ok = _start_group(table, spin, ground, cs, ci, t, pend, group, buf, out)
        for i in range(cs.shape[1]):
            group[i] = 0
    return _start_pending(table, spin, ground, cs, ci, t, pend, rides, buf, out) and ok


def curved_scratch(n: int):
    """The scratch arrays of ``run_curved`` for ``n`` discs (numba builds them the same way inside
    its batch loops: ``make_scratch``)."""
    return make_scratch(n)


@jit.kernel
def make_scratch(n):
    """(buf (n, 2), out (7, 6), pend (n, 7), rides (n, 7), group (n,), states (2, 5))."""
    return (
        np.zeros((n, 2)),
        np.zeros((7, 6)),
        np.zeros((n, 7)),
        np.zeros((n, 7)),
        np.zeros(n, np.int64),
        np.zeros((2, 5)),
    )


@jit.kernel
def run_curved_from_start(table, spin, ground, start, tolerance, cs, ci, pair_t, pair_rho, ev, seg, max_events, final):
    """``kernel.run_from_start`` on a curved court: check the starts against cushions and pegs, place
    the discs, run them (``run_curved``) and write each disc's (x, y, vx, vy, omega) at the end into
    ``final``. Returns (bad, n_ev, n_seg, ok, t_end)."""
    n = start.shape[0]
    for i in range(n):
        kind, _ = obstacle_overlap(table, start[i, 0], start[i, 1], tolerance)
        if kind >= 0:
            return i, 0, 0, False, 0.0
    scratch = make_scratch(n)
    buf, out, _, _, _, _ = scratch
    for i in range(n):
        for j in range(n):
            pair_t[i, j] = math.inf
            pair_rho[i, j] = 0.0
    ok = True
    clear_discs(cs, ci)
    for i in range(n):
        ok = (
            place_curved(
                table,
                spin,
                ground,
                cs,
                ci,
                i,
                start[i, 0],
                start[i, 1],
                start[i, 2],
                start[i, 3],
                start[i, 4],
                buf,
                out,
            )
            and ok
        )
    n_ev, n_seg, run_ok, t_end, _ = run_curved(
        table, spin, ground, cs, ci, pair_t, pair_rho, ev, seg, max_events, scratch
    )
    for i in range(n):
        x, y, vx, vy, w = curved_state_at(table, spin, ground, cs, ci, i, t_end, buf, out)
        final[i, 0] = x
        final[i, 1] = y
        final[i, 2] = vx
        final[i, 3] = vy
        final[i, 4] = w
    return -1, n_ev, n_seg, ok and run_ok, t_end
