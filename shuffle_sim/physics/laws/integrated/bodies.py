"""Bodies of the curved event loop (``loop_steps``): a disc, or discs moving on as one, placed,
started, read at a time, stepped and brought to rest; the event and trajectory logs' rows (numba)."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_MOVING, STATUS_REST, STOP
from shuffle_sim.physics.laws.integrated import state
from shuffle_sim.physics.laws.integrated.dense import OUT_ROWS
from shuffle_sim.physics.laws.integrated.motion import (
    NO_RIDE,
    RIDE_NONE,
    derivatives,
    onto_ride,
    spin_after,
    spin_stop_time,
)
from shuffle_sim.physics.laws.integrated.pairs import disc_at
from shuffle_sim.physics.laws.integrated.predict import MAX_STEPS, _predict_body
from shuffle_sim.physics.laws.integrated.rides import settles
from shuffle_sim.physics.laws.integrated.step import step
from shuffle_sim.physics.state import (
    DEAD,
    LEADER,
    MOVED,
    NEXT_B,
    NEXT_DISC,
    NEXT_KIND,
    SEG_COLUMNS,
    STATUS,
    T_KILL,
    T_NEXT,
    T_SPIN,
    TOUCHED,
    write_segment,
)
from shuffle_sim.physics.tables.court_table import H_SPIN_DECEL, H_SPIN_SPEED_DECEL
from shuffle_sim.physics.tables.surface import surface_at

#: Columns of the integrated law's trajectory log: every law's nine (``state.SEG_COLUMNS``), then the
#: disc's leader, its offset from it (2) and its body's ride (6).
BODY_SEG_COLUMNS = SEG_COLUMNS + 9


@jit.inline
def members_of(st, ist, lead, buf):
    """The offsets of a group's discs in ``buf[:count]``; (count, the view). A lone disc is no group:
    its view is empty. (Inlined: the view is made in the caller, which may run without numba's
    reference counting and so cannot take an array a call returns.)"""
    count = np.int64(0)
    n = st.shape[1]
    for i in range(n):
        if ist[LEADER, i] == lead and ist[STATUS, i] < STATUS_FALLEN:
            buf[count, 0] = st[state.C_OFFSET, i]
            buf[count, 1] = st[state.C_OFFSET + 1, i]
            count += 1
    if count <= 1:
        return count, buf[:0]
    return count, buf[:count]


@jit.kernel
def body_state(table, orbit_tables, surface, st, ist, lead, t, members, out):
    """(x, y, vx, vy, w) of body ``lead``'s leader at time t (>= its step's start), integrated from its
    step's start (not from the dense output)."""
    phase = ist[state.I_PHASE, lead]
    if phase == state.PHASE_REST:
        return st[state.C_Y, lead], st[state.C_Y + 1, lead], 0.0, 0.0, st[state.C_Y + 4, lead]
    if phase == state.PHASE_FINISH:
        x, y, vx, vy = disc_at(st, ist, lead, t)
        return x - st[state.C_OFFSET, lead], y - st[state.C_OFFSET + 1, lead], vx, vy, st[state.C_Y + 4, lead]
    c = state.constants(table, orbit_tables, surface, st[state.C_SIGN, lead])
    ride = state.ride_of_body(st, lead)
    if t >= st[state.C_N + 5, lead]:
        return (
            st[state.C_N, lead],
            st[state.C_N + 1, lead],
            st[state.C_N + 2, lead],
            st[state.C_N + 3, lead],
            st[state.C_N + 4, lead],
        )
    if t <= st[state.C_Y + 5, lead]:
        return (
            st[state.C_Y, lead],
            st[state.C_Y + 1, lead],
            st[state.C_Y + 2, lead],
            st[state.C_Y + 3, lead],
            st[state.C_Y + 4, lead],
        )
    state.body_dense(surface, c, members, ride, st, ist, lead, out)
    theta = state.theta_at(st, lead, t)
    e, _, _ = step(
        surface,
        c,
        members,
        ride,
        state.rows(st, np.int64(state.C_Y), lead),
        state.rows(st, np.int64(state.C_F), lead),
        st[state.C_H, lead] * theta,
    )
    return e[0], e[1], e[2], e[3], e[4]


@jit.kernel
def start_body(table, orbit_tables, surface, st, ist, lead, t, x, y, vx, vy, w, ride, ride_row, buf, out):
    """Give body ``lead`` (a lone disc, or a group's leader with its members' offsets set) a new motion
    from its leader's state at time t: at rest (perhaps spinning in place) or stepping (its first
    step taken). Returns False if the first step could not be taken."""
    coupled = orbit_tables.shape[0] > 0
    _, members = members_of(st, ist, lead, buf)
    vx, vy, w, moving = settles(surface, coupled, x, y, vx, vy, w)
    st[state.C_Y, lead] = x
    st[state.C_Y + 1, lead] = y
    st[state.C_Y + 2, lead] = vx
    st[state.C_Y + 3, lead] = vy
    st[state.C_Y + 4, lead] = w
    st[state.C_Y + 5, lead] = t
    st[T_NEXT, lead] = math.inf
    ist[NEXT_KIND, lead] = -1
    ist[state.I_DENSE, lead] = 0
    ist[state.I_STEPS, lead] = 0
    st[state.C_LO, lead] = 0.0
    st[state.C_STEP_END, lead] = math.inf
    st[state.C_SIGN, lead] = 0.0 if w == 0.0 else math.copysign(1.0, w)
    if not moving:
        # At rest, every member on its own (a group is no more); a spin decays in place.
        for i in range(st.shape[1]):
            if ist[LEADER, i] != lead or ist[STATUS, i] >= STATUS_FALLEN:
                continue
            xi = x + st[state.C_OFFSET, i]
            yi = y + st[state.C_OFFSET + 1, i]
            _rest(surface, table, st, ist, i, t, xi, yi, w)
        return True
    ist[state.I_PHASE, lead] = state.PHASE_STEP
    state.set_ride(st, lead, ride)
    ist[state.I_RIDE_ROW, lead] = ride_row
    st[state.C_START, lead] = x
    st[state.C_START + 1, lead] = y
    st[state.C_START + 2, lead] = vx
    st[state.C_START + 3, lead] = vy
    st[state.C_ACCEL, lead] = state.body_acceleration(table, surface, vx, vy, w)
    c = state.constants(table, orbit_tables, surface, st[state.C_SIGN, lead])
    d = derivatives(surface, c, members, ride, x, y, vx, vy, w)
    for r in range(6):
        st[state.C_F + r, lead] = d[r]
    st[state.C_H_NEXT, lead] = state.first_step_size(surface, c[0], x, y)
    for i in range(st.shape[1]):
        if ist[LEADER, i] == lead and ist[STATUS, i] < STATUS_FALLEN:
            ist[STATUS, i] = STATUS_MOVING
            st[T_SPIN, i] = math.inf
    return _next_stretch(table, orbit_tables, surface, st, ist, lead, members, out)


@jit.kernel
def _rest(surface, table, st, ist, i, t, x, y, w):
    """Disc i at rest at (x, y) from time t, alone, spinning at w (decaying in place)."""
    ist[LEADER, i] = i
    ist[state.I_PHASE, i] = state.PHASE_REST
    ist[STATUS, i] = STATUS_REST
    st[state.C_OFFSET, i] = 0.0
    st[state.C_OFFSET + 1, i] = 0.0
    st[state.C_Y, i] = x
    st[state.C_Y + 1, i] = y
    st[state.C_Y + 2, i] = 0.0
    st[state.C_Y + 3, i] = 0.0
    st[state.C_Y + 4, i] = w
    st[state.C_Y + 5, i] = t
    st[state.C_STEP_END, i] = math.inf
    st[T_NEXT, i] = math.inf
    ist[NEXT_KIND, i] = -1
    state.set_ride(st, i, NO_RIDE)
    ist[state.I_RIDE_ROW, i] = -1
    if w != 0.0:
        m = surface_at(surface, x, y)[2]
        st[T_SPIN, i] = t + spin_stop_time(w, table[0, H_SPIN_DECEL] * m, table[0, H_SPIN_SPEED_DECEL] * m)
    else:
        st[T_SPIN, i] = math.inf


@jit.kernel
def _next_stretch(table, orbit_tables, surface, st, ist, lead, members, out):
    """From the body's present step-start state: finish in closed form if the slide left is short
    enough, else take the next step; then predict the body's own events on it."""
    c = state.constants(table, orbit_tables, surface, st[state.C_SIGN, lead])
    ride = state.ride_of_body(st, lead)
    x = st[state.C_Y, lead]
    y = st[state.C_Y + 1, lead]
    ok, tau, dx, dy = state.finish_stretch(
        surface, c, members, ride, x, y, st[state.C_Y + 2, lead], st[state.C_Y + 3, lead], st[state.C_Y + 4, lead]
    )
    ist[state.I_DENSE, lead] = 0
    st[state.C_LO, lead] = 0.0
    if ok:
        ist[state.I_PHASE, lead] = state.PHASE_FINISH
        st[state.C_FINISH, lead] = st[state.C_Y + 5, lead] + tau
        st[state.C_FINISH + 1, lead] = x + dx
        st[state.C_FINISH + 2, lead] = y + dy
        w = st[state.C_Y + 4, lead]
        if c[5] != 0.0 or w == 0.0:
            w = 0.0
        else:
            m = surface_at(surface, x, y)[2]
            w = spin_after(w, c[6], c[1] * m, c[9] * m, tau)
        st[state.C_FINISH + 3, lead] = w
        st[state.C_STEP_END, lead] = math.inf
        st[T_NEXT, lead] = st[state.C_FINISH, lead]
        ist[NEXT_KIND, lead] = STOP
        ist[NEXT_B, lead] = -1
        ist[NEXT_DISC, lead] = lead
        for i in range(st.shape[1]):
            if ist[LEADER, i] == lead:
                st[T_KILL, i] = math.inf
        return True
    ist[state.I_PHASE, lead] = state.PHASE_STEP
    ist[state.I_STEPS, lead] += 1
    if ist[state.I_STEPS, lead] > MAX_STEPS or not state.take_step(surface, c, members, ride, st, lead):
        return False
    # Other discs' pairs read every present step's dense output (``pairs``): made at once.
    state.body_dense(surface, c, members, ride, st, ist, lead, out)
    _predict_body(table, orbit_tables, surface, st, ist, lead, members, out)
    return True


@jit.kernel
def _free_acceleration(table, orbit_tables, surface, x, y, vx, vy, w, no_members):
    """The acceleration of a lone disc in time (m/s^2): gravity and friction, no ride (``no_members``:
    an empty (0, 2) array)."""
    sign = 0.0 if w == 0.0 else math.copysign(1.0, w)
    c = state.constants(table, orbit_tables, surface, sign)
    _, _, dvx, dvy, _, q = derivatives(surface, c, no_members, NO_RIDE, x, y, vx, vy, w)
    if q == 0.0:
        return 0.0, 0.0
    return dvx / q, dvy / q


@jit.kernel
def clear_discs(st, ist):
    """Every disc out of play and its own body, before ``place_disc`` puts them on the court one by
    one (a disc not yet placed must not count as a member of another's body)."""
    for i in range(st.shape[1]):
        ist[LEADER, i] = i
        ist[STATUS, i] = STATUS_FALLEN
        ist[state.I_PHASE, i] = state.PHASE_REST
        ist[MOVED, i] = 0
        st[state.C_OFFSET, i] = 0.0
        st[state.C_OFFSET + 1, i] = 0.0
        st[T_NEXT, i] = math.inf
        st[T_KILL, i] = math.inf
        st[T_SPIN, i] = math.inf


@jit.kernel
def place_disc(table, orbit_tables, surface, st, ist, i, x, y, vx, vy, omega, buf, out):
    """Put disc ``i`` at (x, y) with its launch velocity and spin at time 0, alive, its own body (the
    discs' state cleared first by ``clear_discs``)."""
    ist[LEADER, i] = i
    ist[STATUS, i] = STATUS_MOVING
    ist[DEAD, i] = 0
    ist[TOUCHED, i] = 0
    ist[MOVED, i] = 1
    ist[state.I_PHASE, i] = state.PHASE_REST
    st[state.C_OFFSET, i] = 0.0
    st[state.C_OFFSET + 1, i] = 0.0
    st[T_KILL, i] = math.inf
    st[T_SPIN, i] = math.inf
    st[T_NEXT, i] = math.inf
    return start_body(
        table, orbit_tables, surface, st, ist, i, 0.0, x, y, vx, vy, omega, NO_RIDE, np.int64(-1), buf, out
    )


@jit.kernel
def disc_state_at(table, orbit_tables, surface, st, ist, i, t, buf, out):
    """(x, y, vx, vy, omega) of disc i at time t (at or after its body's step start)."""
    lead = ist[LEADER, i]
    if ist[STATUS, i] >= STATUS_FALLEN or ist[state.I_PHASE, lead] == state.PHASE_REST:
        return st[state.C_Y, i], st[state.C_Y + 1, i], 0.0, 0.0, st[state.C_Y + 4, i]
    _, members = members_of(st, ist, lead, buf)
    x, y, vx, vy, w = body_state(table, orbit_tables, surface, st, ist, lead, t, members, out)
    return x + st[state.C_OFFSET, i], y + st[state.C_OFFSET + 1, i], vx, vy, w


@jit.kernel
def _log_segment(table, orbit_tables, surface, st, ist, seg, n_seg, i, t, event, buf, out):
    if n_seg >= seg.shape[0]:
        return n_seg
    x, y, vx, vy, w = disc_state_at(table, orbit_tables, surface, st, ist, i, t, buf, out)
    lead = ist[LEADER, i]
    write_segment(seg, n_seg, t, i, ist[STATUS, i], x, y, vx, vy, w, event)
    seg[n_seg, 9] = lead
    seg[n_seg, 10] = st[state.C_OFFSET, i]
    seg[n_seg, 11] = st[state.C_OFFSET + 1, i]
    for k in range(6):
        seg[n_seg, 12 + k] = st[state.C_RIDE + k, lead] if ist[state.I_PHASE, lead] == state.PHASE_STEP else 0.0
    return n_seg + 1


@jit.kernel
def _advance(table, orbit_tables, surface, st, ist, lead, buf, out):
    """Body ``lead`` accepts its present step and moves on to its next stretch (``_next_stretch``)."""
    for r in range(6):
        st[state.C_Y + r, lead] = st[state.C_N + r, lead]
        st[state.C_F + r, lead] = st[state.C_K + r, lead]
    _, members = members_of(st, ist, lead, buf)
    ride = state.ride_of_body(st, lead)
    if ride[0] != RIDE_NONE:
        x, y, vx, vy = onto_ride(
            ride, st[state.C_Y, lead], st[state.C_Y + 1, lead], st[state.C_Y + 2, lead], st[state.C_Y + 3, lead]
        )
        st[state.C_Y, lead] = x
        st[state.C_Y + 1, lead] = y
        st[state.C_Y + 2, lead] = vx
        st[state.C_Y + 3, lead] = vy
        c = state.constants(table, orbit_tables, surface, st[state.C_SIGN, lead])
        d = derivatives(surface, c, members, ride, x, y, vx, vy, st[state.C_Y + 4, lead])
        for r in range(6):
            st[state.C_F + r, lead] = d[r]
    return _next_stretch(table, orbit_tables, surface, st, ist, lead, members, out)


@jit.kernel
def _finish_body(surface, table, st, ist, lead, t):
    """A body's closed-form stop: its discs at rest where they end (a group splits), marked moved."""
    x = st[state.C_FINISH + 1, lead]
    y = st[state.C_FINISH + 2, lead]
    w = st[state.C_FINISH + 3, lead]
    for i in range(st.shape[1]):
        if ist[LEADER, i] != lead or ist[STATUS, i] >= STATUS_FALLEN:
            continue
        _rest(surface, table, st, ist, i, t, x + st[state.C_OFFSET, i], y + st[state.C_OFFSET + 1, i], w)
        ist[MOVED, i] = 1


@jit.kernel
def new_scratch(n):
    """(buf (n, 2), out (``dense.OUT_ROWS``, 6), pend (n, 7), rides (n, 7), group (n,), states (2, 5))."""
    return (
        np.zeros((n, 2)),
        np.zeros((OUT_ROWS, 6)),
        np.zeros((n, 7)),
        np.zeros((n, 7)),
        np.zeros(n, np.int64),
        np.zeros((2, 5)),
    )
