"""What the event loop (``loop``) asks of the closed-form law (numba, no Python inside).

Every disc is its own body and its whole path is known from its reference state (``slide``), so a
prediction, once made, holds until the disc's motion changes: no step ever ends (``horizon`` is
never reached). The motion is ``(table, orbit_tables)``: the packed court and the coupled model's
packed tables (no rows for the decoupled model); the state is ``(st, ist, pair_t)``: the discs'
rows (``physics.state``, then ``slide``'s) and the pairs' impact times (upper triangle).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    FALL,
    HOLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_HOLED,
    STOP,
)
from shuffle_sim.physics.laws.closed_form.disc_state import kinematics, restart
from shuffle_sim.physics.laws.closed_form.impacts import disc_disc_impact, fixed_body_impact
from shuffle_sim.physics.laws.closed_form.pair_predict import coupled_predict_pair, predict_pair
from shuffle_sim.physics.laws.closed_form.paths import log_segment
from shuffle_sim.physics.laws.closed_form.predict import coupled_event_times, coupled_slow_distance, predict_disc
from shuffle_sim.physics.laws.closed_form.slide import MODE, N_FLOAT_ROWS, N_INT_ROWS, OMEGA, set_motion
from shuffle_sim.physics.state import MOVED, STATUS, T_SPIN, TOUCHED
from shuffle_sim.physics.tables.court_table import H_DECEL, H_RADIUS, H_SPIN_DECEL, F


@jit.kernel
def new_state(n):
    """The state of ``n`` discs: (st, ist, pair_t)."""
    return (np.empty((N_FLOAT_ROWS, n)), np.empty((N_INT_ROWS, n), np.int64), np.empty((n, n)))


@jit.inline
def begin(st, ist):
    """Every path is new at the start: each disc is marked moved, to be predicted."""
    for i in range(st.shape[1]):
        ist[MOVED, i] = 1


@jit.no_refcount
def refresh(table, orbit_tables, st, ist, pair_t, seg, n_seg, now, event_row):
    """Log and predict again everything about the discs whose motion changed (``MOVED``) and their
    pairs, a pair of two such discs once, when its first disc is predicted; then clear the marks.
    Returns the trajectory log's next free row. (One call site: the predictions, inlined here,
    compile once.)"""
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    contact = 2.0 * radius
    n = st.shape[1]
    for i in range(n):
        if ist[MOVED, i] == 0:
            continue
        if n_seg < seg.shape[0]:
            n_seg = log_segment(orbit_tables, radius, st, ist, seg, n_seg, i, now, decel, spin_decel, event_row)
        # The tables are passed only to the coupled motion's functions, never to inlined code: an
        # array handed to inlined code costs reference counting on every call.
        coupled_i = st[MODE, i] >= 0
        s_slow = coupled_slow_distance(table, orbit_tables, st, i) if coupled_i else 0.0
        s_next, s_kill = predict_disc(table, st, ist, i, s_slow)
        if coupled_i:
            coupled_event_times(table, orbit_tables, st, ist, i, s_next, s_kill)
        for k in range(n):
            if k < i and ist[MOVED, k] == 0:
                if coupled_i or st[MODE, k] >= 0:
                    pair_t[k, i] = coupled_predict_pair(orbit_tables, st, ist, k, i, now, decel, spin_decel, contact)
                else:
                    pair_t[k, i] = predict_pair(st, ist, k, i, now, decel, contact)
            elif k > i:
                if coupled_i or st[MODE, k] >= 0:
                    pair_t[i, k] = coupled_predict_pair(orbit_tables, st, ist, i, k, now, decel, spin_decel, contact)
                else:
                    pair_t[i, k] = predict_pair(st, ist, i, k, now, decel, contact)
    for i in range(n):
        ist[MOVED, i] = 0
    return n_seg


@jit.no_refcount
def apply_event(table, orbit_tables, st, ist, now, kind, a, b, storm):
    """Apply the event (kind, a, b) at ``now`` (logged already; kill lines are the loop's) and mark the
    discs whose motion changed; True if a cushion a hit kills it.

    ``b`` is a disc or a table row; ``storm``: more than ``pushing.STORM_IMPACTS`` impacts at this
    instant already.
    """
    if kind == SPIN_STOP:
        # Zero, not the decayed reference spin: alpha * (|w| / alpha) may miss |w| by a rounding.
        st[OMEGA, a] = 0.0
        st[T_SPIN, a] = math.inf
        return False
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    ist[MOVED, a] = 1
    if kind == DISC_DISC:
        ist[TOUCHED, a] = 1
        ist[TOUCHED, b] = 1
        disc_disc_impact(table, orbit_tables, st, ist, a, b, now, storm)
        return False
    if kind in (DISC_CUSHION, DISC_PEG):
        return fixed_body_impact(table, orbit_tables, st, ist, a, b, now, storm)
    if kind == STOP:
        x, y, _, _, w = kinematics(orbit_tables, radius, st, ist, a, now, decel, spin_decel)
        restart(orbit_tables, radius, st, ist, a, now, x, y, 0.0, 0.0, w, decel, spin_decel)
        return False
    # FALL or HOLED: out of play where it crossed the edge, or at the hole's centre
    x, y, _, _, _ = kinematics(orbit_tables, radius, st, ist, a, now, decel, spin_decel)
    if kind == HOLED:
        x = table[b, F]
        y = table[b, F + 1]
    set_motion(orbit_tables, radius, st, a, now, x, y, 0.0, 0.0, 0.0, decel, spin_decel)
    ist[STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
    return False
