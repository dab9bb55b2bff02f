"""Bodies of the curved event loop (``curved_kernel``): a disc, or discs moving on as one, placed,
started, read at a time, stepped and brought to rest; the event and trajectory logs' rows (numba)."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import H_SPIN_DECEL
from shuffle_sim.physics._curved_predict import MAX_STEPS, _predict_body
from shuffle_sim.physics._motion import REST_SPEED
from shuffle_sim.physics.curved_motion import NO_RIDE, RIDE_NONE, derivatives, onto_ride
from shuffle_sim.physics.curved_pairs import disc_at
from shuffle_sim.physics.curved_state import (
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
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_MOVING, STATUS_REST, STOP
from shuffle_sim.physics.ground import ground_at

#: Columns of the curved trajectory log: the flat log's nine (``kernel.SEG_COLUMNS``), then the
#: disc's leader, its offset from it (2) and its body's ride (6).
CURVED_SEG_COLUMNS = 18


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
    _, members = members_of(cs, ci, lead, buf)
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
