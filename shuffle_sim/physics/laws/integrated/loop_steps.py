"""What the event loop (``loop``) asks of the integrated law (numba, no Python inside).

Every moving *body* (a disc, or discs moving on as one: ``state``) advances step by step in its own
regularised variable (``motion``) and holds its present step; every prediction is made on present
steps only: a body's own next event and its discs' kill-line crossings along its present step
(``predict``), and every pair of discs of different bodies over the time both present steps cover
(``pairs``). The earliest end of a present step is the *horizon*: everything before it has been
searched, and when the loop's earliest event lies beyond it, the body whose step ends there takes
its next step (``advance``). An event's state is reached by integrating the bodies involved from
their steps' starts to it, its time made exact on the integrated states; bodies not involved keep
their steps.

A disc pressed against a cushion or a peg by the grade rides it (``rides``); discs pushed together
move on as one body (``groups``). A body split by an event leaves its discs *pending*: they start
again, on their own or riding, once the event is applied (``start_pending``).

The motion is ``(table, orbit_tables, surface)``: the packed court, the coupled model's packed
tables (no rows for the decoupled model) and the packed surface; the state is ``(st, ist, pair_t,
pair_rho, scratch)`` (``new_state``).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    HOLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_REST,
    STOP,
)
from shuffle_sim.physics.laws.integrated.bodies import _advance, _finish_body, _log_segment, new_scratch
from shuffle_sim.physics.laws.integrated.contacts import _body_event, _out_of_play
from shuffle_sim.physics.laws.integrated.groups import _disc_disc, _pair_states, _start_pending
from shuffle_sim.physics.laws.integrated.predict import _predict_pairs, _rest_events
from shuffle_sim.physics.laws.integrated.rides import RIDE_END
from shuffle_sim.physics.laws.integrated.state import (
    C_STEP_END,
    C_Y,
    I_PHASE,
    N_INT_ROWS,
    N_ROWS,
    PHASE_REST,
    PHASE_STEP,
)
from shuffle_sim.physics.state import DEAD, LEADER, MOVED, STATUS, T_SPIN, log_event
from shuffle_sim.physics.tables.court_table import H_RADIUS, F


@jit.kernel
def new_state(n):
    """The state of ``n`` discs: (st, ist, pair_t, pair_rho, scratch), with every pair's time and
    target cleared."""
    return (
        np.zeros((N_ROWS, n)),
        np.zeros((N_INT_ROWS, n), np.int64),
        np.full((n, n), math.inf),
        np.zeros((n, n)),
        new_scratch(n),
    )


@jit.no_refcount
def clear_pairs(pair_t, pair_rho):
    """No pair predicted, every pair's contact target cleared: before a new scene in old state arrays."""
    n = pair_t.shape[0]
    for i in range(n):
        for j in range(n):
            pair_t[i, j] = math.inf
            pair_rho[i, j] = 0.0


@jit.no_refcount
def begin(st, scratch):
    """Nothing pending, no ride and no group in the making before the first event."""
    _, _, pend, rides, group, _ = scratch
    for i in range(st.shape[1]):
        pend[i, 5] = 0.0
        rides[i, 6] = -1.0
        group[i] = 0


@jit.no_refcount
def refresh(table, orbit_tables, surface, st, ist, pair_t, pair_rho, scratch, seg, n_seg, now, event_row):
    """Log the moved discs' segments and predict what the last event changed: a disc at rest's events
    (a hole under it, a kill line it lies past), the moved bodies' pairs; then clear the marks (a
    moving body's own events were predicted when its motion started). Returns the trajectory log's
    next free row."""
    buf, out, _, _, _, _ = scratch
    n = st.shape[1]
    contact = 2.0 * table[0, H_RADIUS]
    for i in range(n):
        if ist[MOVED, i] == 0:
            continue
        n_seg = _log_segment(table, orbit_tables, surface, st, ist, seg, n_seg, i, now, event_row, buf, out)
        if ist[STATUS, i] == STATUS_REST:
            _rest_events(table, st, ist, i)
    for i in range(n):
        if ist[MOVED, i] != 0 and ist[LEADER, i] == i:
            _predict_pairs(st, ist, i, now, pair_t, pair_rho, contact, np.bool_(True))
    for i in range(n):
        if ist[MOVED, i] != 0 and ist[LEADER, i] != i and ist[MOVED, ist[LEADER, i]] == 0:
            _predict_pairs(st, ist, ist[LEADER, i], now, pair_t, pair_rho, contact, np.bool_(True))
    for i in range(n):
        ist[MOVED, i] = 0
    return n_seg


@jit.kernel
def horizon(st, ist):
    """(t, body): the earliest end of a stepping body's present step, and that body (-1: none)."""
    t = math.inf
    lead = np.int64(-1)
    for i in range(st.shape[1]):
        active = ist[LEADER, i] == i and ist[STATUS, i] < STATUS_FALLEN and ist[I_PHASE, i] == PHASE_STEP
        if active and st[C_STEP_END, i] < t:
            t = st[C_STEP_END, i]
            lead = i
    return t, lead


@jit.no_refcount
def advance(table, orbit_tables, surface, st, ist, pair_t, pair_rho, scratch, lead, t):
    """Nothing happens before body ``lead``'s step ends at t: it takes its next step, and its pairs
    are searched over it. False if the step could not be taken."""
    buf, out, _, _, _, _ = scratch
    if not _advance(table, orbit_tables, surface, st, ist, lead, buf, out):
        return False
    contact = 2.0 * table[0, H_RADIUS]
    _predict_pairs(st, ist, lead, t, pair_t, pair_rho, contact, np.bool_(False))
    return True


@jit.no_refcount
def exact_time(table, orbit_tables, surface, st, ist, pair_rho, scratch, kind, a, b, t, now):
    """The time of the event (kind, a, b) predicted at t: an impact's made exact on the integrated
    states (``groups._pair_states``, which keeps them for the impact), not before the last event."""
    if kind != DISC_DISC:
        return t
    buf, out, _, _, _, states = scratch
    return _pair_states(table, orbit_tables, surface, st, ist, a, b, t, now, pair_rho[a, b], buf, out, states)


@jit.no_refcount
def end_ride(table, orbit_tables, surface, st, ist, scratch, a, now):
    """Disc a's body leaves the cushion or peg it rode: the body is split at that instant, its discs
    left pending (not an event of the log: only the way the motion is computed changes)."""
    return _body_event(
        table,
        orbit_tables,
        surface,
        st,
        ist,
        ist[LEADER, a],
        a,
        np.int64(RIDE_END),
        np.int64(-1),
        now,
        np.bool_(False),
        scratch,
    )


@jit.no_refcount
def apply_event(table, orbit_tables, surface, st, ist, pair_rho, scratch, ev, n_ev, now, kind, a, b, storm):
    """Apply the event (kind, a, b) at ``now`` (logged already; kill lines are the loop's): (the event
    log's next free row, ok, whether a cushion a hit kills it). A body the event splits leaves its discs
    pending (``start_pending``). ``storm``: more than ``pushing.STORM_IMPACTS`` impacts at this instant
    already."""
    if ist[STATUS, a] == STATUS_REST and kind == SPIN_STOP:
        st[C_Y + 4, a] = 0.0
        st[T_SPIN, a] = math.inf
        return n_ev, True, False
    lead = ist[LEADER, a]
    if kind == HOLED and ist[I_PHASE, lead] == PHASE_REST:
        # At rest over a hole: it drops in where it lies, to the hole's centre.
        _out_of_play(st, ist, a, np.int64(HOLED), table[b, F], table[b, F + 1], now)
        return n_ev, True, False
    if kind == STOP:
        _finish_body(surface, table, st, ist, lead, now)
        for i in range(st.shape[1]):
            if ist[MOVED, i] != 0 and i != a:
                n_ev = log_event(ev, n_ev, now, STOP, i, -1, ist[DEAD, i], 0)
        return n_ev, True, False
    if kind == DISC_DISC:
        contact = 2.0 * table[0, H_RADIUS]
        ok = _disc_disc(table, orbit_tables, surface, st, ist, a, b, now, pair_rho[a, b], storm, contact, scratch)
        return n_ev, ok, False
    # An own event of a body: reached by integration, then applied.
    ok = _body_event(table, orbit_tables, surface, st, ist, lead, a, kind, b, now, storm, scratch)
    pend = scratch[2]
    kills = kind in (DISC_CUSHION, DISC_PEG) and pend[a, 6] != 0.0
    pend[a, 6] = 0.0
    return n_ev, ok, kills


@jit.no_refcount
def start_pending(table, orbit_tables, surface, st, ist, scratch, now):
    """Start every disc an event left pending, as its own body (perhaps riding); False if a first step
    could not be taken."""
    buf, out, pend, rides, _, _ = scratch
    return _start_pending(table, orbit_tables, surface, st, ist, now, pend, rides, buf, out)
