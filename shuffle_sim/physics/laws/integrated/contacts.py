"""A body's own events in the integrated law: cushions, pegs, falls, holes, a spin's stop and a
ride's end, each reached by integration and applied; a group that meets a cushion or peg slowly rides
it whole; a disc leaving play (numba)."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.bounce import fixed_body_bounce
from shuffle_sim.physics.contacts.pushing import PUSH_MERGE_SPEED
from shuffle_sim.physics.events import DISC_CUSHION, DISC_PEG, FALL, HOLED, SPIN_STOP, STATUS_FALLEN, STATUS_HOLED
from shuffle_sim.physics.laws.integrated.bodies import members_of, start_body
from shuffle_sim.physics.laws.integrated.lone_events import event_state
from shuffle_sim.physics.laws.integrated.motion import RIDE_NONE, onto_ride, ride_normal
from shuffle_sim.physics.laws.integrated.rides import RIDE_END, pushed_ride, ride_from, ride_of
from shuffle_sim.physics.laws.integrated.shapes import NO_SHAPE, start_shape
from shuffle_sim.physics.laws.integrated.state import (
    C_EVENT_THETA,
    C_F,
    C_H,
    C_LO,
    C_OFFSET,
    C_SIGN,
    C_START,
    C_Y,
    I_PHASE,
    I_RIDE_ROW,
    PHASE_REST,
    body_dense,
    constants,
    ride_of_body,
    rows,
)
from shuffle_sim.physics.state import DEAD, LEADER, MOVED, STATUS, T_KILL, T_NEXT, T_SPIN
from shuffle_sim.physics.tables.court_table import F


@jit.kernel
def _body_event(table, orbit_tables, surface, st, ist, lead, a, kind, row, t, storm, scratch):
    """Apply a body's own event (cushion, peg, fall, hole, spin stop) of its disc a at time t: the body
    is integrated to it, split into its discs (``pend``), and disc a's event applied; a cushion that
    kills sets ``pend[a, 6]``. The discs are started by the caller (``_start_pending``).

    ``storm``: more than ``kernel.STORM_IMPACTS`` impacts at this instant already. A disc pinched
    between a cushion or peg and other discs can bounce between them without end at one instant; past
    that many, its impact on the body is perfectly inelastic along the normal (restitution 0), which
    ends the exchange: a stand-in for the sustained contact force, as a group is for discs."""
    buf, out, pend, rides, _, _ = scratch
    _, members = members_of(st, ist, lead, buf)
    c = constants(table, orbit_tables, surface, st[C_SIGN, lead])
    ride = ride_of_body(st, lead)
    body_dense(surface, c, members, ride, st, ist, lead, out)
    theta = st[C_EVENT_THETA, lead]
    ox = st[C_OFFSET, a]
    oy = st[C_OFFSET + 1, a]
    shape = NO_SHAPE
    if kind != SPIN_STOP and row >= 0:
        shape, _ = start_shape(
            table,
            row,
            st[C_START, lead] + ox,
            st[C_START + 1, lead] + oy,
            st[C_START + 2, lead],
            st[C_START + 3, lead],
            ist[DEAD, a] == 0,
            np.bool_(True),
        )
        shape = _shifted(shape, ox, oy)
    e = event_state(
        surface,
        c,
        members,
        ride,
        shape,
        np.bool_(False),
        out,
        rows(st, np.int64(C_Y), lead),
        rows(st, np.int64(C_F), lead),
        st[C_H, lead],
        theta,
        st[C_LO, lead],
    )
    if kind == SPIN_STOP:
        # The body's spin (a group shares one) reached zero: the body moves on, whole, without it.
        for i in range(st.shape[1]):
            if ist[LEADER, i] == lead and ist[STATUS, i] < STATUS_FALLEN:
                ist[MOVED, i] = 1
        return start_body(
            table,
            orbit_tables,
            surface,
            st,
            ist,
            lead,
            t,
            e[0],
            e[1],
            e[2],
            e[3],
            0.0,
            ride,
            ist[I_RIDE_ROW, lead],
            buf,
            out,
        )
    if (
        kind in (DISC_CUSHION, DISC_PEG)
        and members.shape[0] > 0
        and _group_rides(table, orbit_tables, surface, st, ist, lead, a, row, t, e, buf, out)
    ):
        return True
    # Split the body at the event's state.
    for i in range(st.shape[1]):
        if ist[LEADER, i] != lead or ist[STATUS, i] >= STATUS_FALLEN:
            continue
        pend[i, 0] = e[0] + st[C_OFFSET, i]
        pend[i, 1] = e[1] + st[C_OFFSET + 1, i]
        pend[i, 2] = e[2]
        pend[i, 3] = e[3]
        pend[i, 4] = e[4]
        pend[i, 5] = 1.0
        ist[LEADER, i] = i
        st[C_OFFSET, i] = 0.0
        st[C_OFFSET + 1, i] = 0.0
    x = pend[a, 0]
    y = pend[a, 1]
    if kind in (DISC_CUSHION, DISC_PEG):
        vx, vy, w, kills = fixed_body_bounce(table, row, x, y, pend[a, 2], pend[a, 3], pend[a, 4], storm)
        pend[a, 6] = 1.0 if kills else 0.0
        sign = 0.0 if w == 0.0 else math.copysign(1.0, w)
        c2 = constants(table, orbit_tables, surface, sign)
        no_members = buf[:0]
        vx, vy, new_ride = pushed_ride(surface, c2, no_members, table, row, x, y, vx, vy, w)
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
    _out_of_play(st, ist, a, kind, x, y, t)
    pend[a, 5] = 0.0
    return True


@jit.kernel
def _group_rides(table, orbit_tables, surface, st, ist, lead, a, row, t, e, buf, out):
    """A group (discs pressed together, moving on as one) whose disc a meets the cushion or peg of row
    ``row`` at state ``e`` slower than ``PUSH_MERGE_SPEED``, and is not killed by it, rides it whole
    through disc a (its velocity into the body removed); returns whether it does. Split into its
    discs, the group would meet the body again at once, disc by disc, without end (the grade presses
    it in)."""
    ox = st[C_OFFSET, a]
    oy = st[C_OFFSET + 1, a]
    _, _, _, kills = fixed_body_bounce(table, row, e[0] + ox, e[1] + oy, e[2], e[3], e[4], False)
    if kills:
        return False
    ride = ride_from(ride_of(table, row, e[0] + ox, e[1] + oy), ox, oy)
    nx, ny, _ = ride_normal(ride, e[0], e[1])
    if e[2] * nx + e[3] * ny <= -PUSH_MERGE_SPEED:
        return False
    x, y, vx, vy = onto_ride(ride, e[0], e[1], e[2], e[3])
    for i in range(st.shape[1]):
        if ist[LEADER, i] == lead and ist[STATUS, i] < STATUS_FALLEN:
            ist[MOVED, i] = 1
    return start_body(table, orbit_tables, surface, st, ist, lead, t, x, y, vx, vy, e[4], ride, row, buf, out)


@jit.kernel
def _out_of_play(st, ist, a, kind, x, y, t):
    """Disc a leaves play (FALL or HOLED) at (x, y) at time t, alone."""
    ist[LEADER, a] = a
    ist[STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
    ist[I_PHASE, a] = PHASE_REST
    st[C_Y, a] = x
    st[C_Y + 1, a] = y
    st[C_Y + 2, a] = 0.0
    st[C_Y + 3, a] = 0.0
    st[C_Y + 4, a] = 0.0
    st[C_Y + 5, a] = t
    st[T_NEXT, a] = math.inf
    st[T_KILL, a] = math.inf
    st[T_SPIN, a] = math.inf
    ist[MOVED, a] = 1


@jit.kernel
def _shifted(shape, ox, oy):
    """A shape moved by (-ox, -oy): the shape a body's reference point meets when its disc at offset
    (ox, oy) meets ``shape``."""
    return (shape[0], shape[1] - ox, shape[2] - oy, shape[3], shape[4], shape[5], shape[6], shape[7])
