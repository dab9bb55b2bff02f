"""The event loop: run a scene to rest exactly, one event at a time (numba, no Python inside).

Every disc keeps its next boundary event (stop, cushion, peg, edge, hole), its next kill-line
crossing and its spin stop; every pair of discs keeps its next impact (``_predict``). The loop takes
the earliest of all of them, moves only the discs it involves to that instant (closed form,
``_motion``), applies the event (impulses: ``_resolve``), and predicts again only what that event
changed: the involved discs' own events and their pairs. Predictions for everyone else stay valid
because their reference states are untouched.

Events at the same instant are taken one after another (pairs in contact and approaching are due
at once; see ``_toi``), so simultaneous impacts become a short sequence of pairwise impulses.

Impacts are applied by ``_impacts`` (touching discs pushed together move on as one; an event storm
at one instant ends after ``STORM_IMPACTS`` impacts), discs are placed and read by ``_disc_state``,
and the logs are written by ``_logs``.

The loop is bounded by ``max_events``; a scene that reaches the bound returns ``ok = False`` with
the state at the last event.

The court comes as a packed table (``_court_table``). ``run_table`` and the helpers it calls at every
event are compiled without numba's reference counting (``jit.no_refcount``: they allocate nothing),
so passing the state arrays costs no atomic increments; it is one compiled function that every
batch loop calls once per shot, which keeps the first compile short. (A shot on an empty board
takes ``_lone_loop.run_lone``, this loop for one disc with its state in local variables: the same
results, bit for bit.) Its predictions are inlined, so the loop predicts in one place: at the start
every disc counts as moved. ``run_scene``
takes the court's ``KernelArrays`` and separate log columns and packs them per call. Everything
is compiled with ``error_model="numpy"`` (a division by zero gives inf or NaN instead of raising);
every division whose divisor can vanish is guarded where it matters.

Arrays (see ``_motion`` for the state rows and ``_logs`` for the logs): st (N_FLOAT_ROWS, N)
float64 and ist (N_INT_ROWS, N) int64, the discs' state; pair_t (N, N) float64, the pair impact
times (upper triangle); ev and seg, the event and trajectory logs.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.compile_ahead import Callee
from shuffle_sim.physics._court_table import F_INDEX, H_DECEL, H_RADIUS, H_SPIN_DECEL, F, obstacle_overlap
from shuffle_sim.physics._disc_state import kinematics, place_disc, restart, state_at
from shuffle_sim.physics._impacts import STORM_IMPACTS, disc_disc_impact, fixed_body_impact
from shuffle_sim.physics._logs import EV_COLUMNS, SEG_COLUMNS, log_event, log_segment
from shuffle_sim.physics._motion import (
    DEAD,
    KILL_B,
    MODE,
    MOVED,
    NEXT_B,
    NEXT_KIND,
    OMEGA,
    STATUS,
    T_KILL,
    T_NEXT,
    T_SPIN,
    TOUCHED,
    set_motion,
)
from shuffle_sim.physics._pair_predict import coupled_predict_pair, predict_pair
from shuffle_sim.physics._predict import coupled_event_times, coupled_slow_distance, predict_disc
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
    STOP,
)


@jit.inline
def _earliest_event(st, ist, pair_t):
    """(t, kind, a, b) of the earliest pending event: a disc's boundary event, kill-line crossing or
    spin stop, or a pair's impact; kind -1 when nothing is pending. Ties go to the disc with the
    lowest index, then to boundary events over kill lines over spin stops over impacts."""
    n = st.shape[1]
    t = math.inf
    kind = np.int64(-1)
    a = np.int64(-1)
    b = np.int64(-1)
    for i in range(n):
        if st[T_NEXT, i] < t:
            t, kind, a, b = st[T_NEXT, i], ist[NEXT_KIND, i], i, ist[NEXT_B, i]
        if st[T_KILL, i] < t:
            t, kind, a, b = st[T_KILL, i], KILLED, i, ist[KILL_B, i]
        if st[T_SPIN, i] < t:
            t, kind, a, b = st[T_SPIN, i], SPIN_STOP, i, -1
    for i in range(n):
        for j in range(i + 1, n):
            if pair_t[i, j] < t:
                t, kind, a, b = pair_t[i, j], DISC_DISC, i, j
    return t, kind, a, b


@jit.no_refcount
def _apply_event(table, orbits, st, ist, ev, n_ev, now, kind, a, b, impacts_now):
    """Log the event (kind, a, b) at ``now`` and apply it; returns the number of events logged.

    ``b`` is a disc, a table row, or -1; the log reports discs and the rows' own indices.
    ``impacts_now`` counts the disc-disc impacts at this instant, this one included.
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    if kind == DISC_DISC:
        b_logged = b
        b_dead = ist[DEAD, b]
    else:
        b_logged = np.int64(table[b, F_INDEX]) if b >= 0 else b
        b_dead = 0
    n_ev = log_event(ev, n_ev, now, kind, a, b_logged, ist[DEAD, a], b_dead)
    if kind == KILLED:
        ist[DEAD, a] = 1
        st[T_KILL, a] = math.inf
        return n_ev
    if kind == SPIN_STOP:
        # Zero, not the decayed reference spin: alpha * (|w| / alpha) may miss |w| by a rounding.
        st[OMEGA, a] = 0.0
        st[T_SPIN, a] = math.inf
        return n_ev
    # The remaining kinds change the motion of disc a, or of the discs a disc-disc impact marks.
    ist[MOVED, a] = 1
    if kind == DISC_DISC:
        ist[TOUCHED, a] = 1
        ist[TOUCHED, b] = 1
        disc_disc_impact(table, orbits, st, ist, a, b, now, impacts_now > STORM_IMPACTS)
    elif kind in (DISC_CUSHION, DISC_PEG):
        if fixed_body_impact(table, orbits, st, ist, a, b, now) and ist[DEAD, a] == 0:
            ist[DEAD, a] = 1
            n_ev = log_event(ev, n_ev, now, KILLED, a, -1, 0, 0)
    elif kind == STOP:
        x, y, _, _, w = kinematics(orbits, radius, st, ist, a, now, decel, spin_decel)
        restart(orbits, radius, st, ist, a, now, x, y, 0.0, 0.0, w, decel, spin_decel)
    else:  # FALL or HOLED: out of play where it crossed the edge, or at the hole's centre
        x, y, _, _, _ = kinematics(orbits, radius, st, ist, a, now, decel, spin_decel)
        if kind == HOLED:
            x = table[b, F]
            y = table[b, F + 1]
        set_motion(orbits, radius, st, a, now, x, y, 0.0, 0.0, 0.0, decel, spin_decel)
        ist[STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
    return n_ev


@jit.no_refcount
def run_table(table, orbits, st, ist, pair_t, ev, seg, max_events):
    """Run the discs placed in ``st``/``ist`` (``place_disc``) until every one is at rest or gone.

    ``table`` is the packed court (``pack_court``), ``orbits`` the coupled model's packed tables (no
    rows for the decoupled model: ``KernelArrays.orbit_tables``). Returns (events logged, segments logged, ok,
    end time, events processed); ``ok`` is False if ``max_events`` events were processed before the
    end. Logged cushion, peg, hole and kill-line indices are those of ``KernelArrays``.
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    contact = 2.0 * radius
    n = st.shape[1]
    now = 0.0
    # Counters start as int64 values, not literals, so each helper compiles for one signature.
    n_ev = np.int64(0)
    n_seg = np.int64(0)
    # Every path is new at the start: each disc is marked MOVED and predicted at the top of the loop,
    # the one place that predicts (the prediction is inlined, so one call site keeps compiling short).
    for i in range(n):
        ist[MOVED, i] = 1
    event_row = np.int64(-1)
    ok = True
    processed = np.int64(0)
    impacts_now = np.int64(0)  # disc-disc impacts so far at the instant ``now``
    while True:
        # Predict again everything about the discs whose motion changed, and their pairs: a pair of
        # two such discs once, when its first disc is predicted.
        for i in range(n):
            if ist[MOVED, i] == 0:
                continue
            if n_seg < seg.shape[0]:
                n_seg = log_segment(orbits, radius, st, ist, seg, n_seg, i, now, decel, spin_decel, event_row)
            # The tables are passed only to the coupled motion's functions, never to inlined code: an
            # array handed to inlined code costs reference counting on every call.
            coupled_i = st[MODE, i] >= 0
            s_slow = coupled_slow_distance(table, orbits, st, i) if coupled_i else 0.0
            s_next, s_kill = predict_disc(table, st, ist, i, s_slow)
            if coupled_i:
                coupled_event_times(table, orbits, st, ist, i, s_next, s_kill)
            for k in range(n):
                if k < i and ist[MOVED, k] == 0:
                    if coupled_i or st[MODE, k] >= 0:
                        pair_t[k, i] = coupled_predict_pair(orbits, st, ist, k, i, now, decel, spin_decel, contact)
                    else:
                        pair_t[k, i] = predict_pair(st, ist, k, i, now, decel, contact)
                elif k > i:
                    if coupled_i or st[MODE, k] >= 0:
                        pair_t[i, k] = coupled_predict_pair(orbits, st, ist, i, k, now, decel, spin_decel, contact)
                    else:
                        pair_t[i, k] = predict_pair(st, ist, i, k, now, decel, contact)
        for i in range(n):
            ist[MOVED, i] = 0
        t, kind, a, b = _earliest_event(st, ist, pair_t)
        if kind == -1:
            break
        if processed >= max_events:
            ok = False
            break
        processed += 1
        if t > now:
            impacts_now = 0
        now = max(now, t)
        if kind == DISC_DISC:
            impacts_now += 1
        event_row = n_ev
        n_ev = _apply_event(table, orbits, st, ist, ev, n_ev, now, kind, a, b, impacts_now)
    return n_ev, n_seg, ok, now, processed


@jit.no_refcount
def run_from_start(table, orbits, start, tolerance, st, ist, pair_t, ev, seg, max_events, final):
    """A whole scene from its start, in one compiled call: check every disc's start against the cushions
    and pegs (``obstacle_overlap`` with ``tolerance``), place the discs, run them (``run_table``) and
    write each disc's (x, y, vx, vy, omega) at the end into ``final`` (N, 5).

    ``start`` is (N, 5): x, y, vx, vy, omega. Returns (bad, n_ev, n_seg, ok, t_end): ``bad`` is the
    first disc whose start overlaps a cushion or peg (nothing is run then), or -1. One entry point
    compiles the placing, the loop and the read-back together, which is the shorter first compile.
    """
    n = start.shape[0]
    for i in range(n):
        kind, _ = obstacle_overlap(table, start[i, 0], start[i, 1], tolerance)
        if kind >= 0:
            return i, 0, 0, False, 0.0
    for i in range(n):
        place_disc(table, orbits, st, ist, i, start[i, 0], start[i, 1], start[i, 2], start[i, 3], start[i, 4])
    n_ev, n_seg, ok, t_end, _ = run_table(table, orbits, st, ist, pair_t, ev, seg, max_events)
    for i in range(n):
        x, y, vx, vy, w = state_at(table, orbits, st, ist, i, t_end)
        final[i, 0] = x
        final[i, 1] = y
        final[i, 2] = vx
        final[i, 3] = vy
        final[i, 4] = w
    return -1, n_ev, n_seg, ok, t_end


# The first compile of ``run_from_start`` (``simulate``'s kernel) is shared with a helper process
# (``compile_ahead``): the callees the loop's compile reaches last, the coupled pair prediction (the
# largest) first. Measured on 2 cores with an empty cache: 9.4 to 9.7 s with the helper, 15.2 s without.
_F2 = "float64[:, ::1]"
_I2 = "int64[:, ::1]"
RUN_FROM_START = Callee(
    __name__, "run_from_start", f"({_F2}, {_F2}, {_F2}, float64, {_F2}, {_I2}, {_F2}, {_F2}, {_F2}, int64, {_F2})"
)
RUN_FROM_START_SHARED = (
    Callee(
        "shuffle_sim.physics._pair_predict",
        "coupled_predict_pair",
        f"({_F2}, {_F2}, {_I2}, int64, int64, float64, float64, float64, float64)",
    ),
    Callee(
        "shuffle_sim.physics._impacts",
        "disc_disc_impact",
        f"({_F2}, {_F2}, {_F2}, {_I2}, int64, int64, float64, boolean)",
    ),
    Callee("shuffle_sim.physics._impacts", "fixed_body_impact", f"({_F2}, {_F2}, {_F2}, {_I2}, int64, int64, float64)"),
    Callee("shuffle_sim.physics._disc_state", "state_at", f"({_F2}, {_F2}, {_F2}, {_I2}, int64, float64)"),
)


@jit.kernel
def run_scene(table, orbits, st, ist, pair_t, touched, ev_t, ev_i, seg_t, seg_i, seg_f, max_events):
    """``run_table`` on the court's table and spin tables, with the logs split into columns.

    ``touched`` (N,) bool; ``ev_t`` (E,) and ``ev_i`` (E, 5) int64: kind, a, b, a_dead, b_dead;
    ``seg_t`` (S,), ``seg_i`` (S, 2) int64: disc, status, ``seg_f`` (S, 5): x, y, vx, vy, omega.
    """
    ev = np.empty((ev_t.shape[0], EV_COLUMNS))
    seg = np.empty((seg_t.shape[0], SEG_COLUMNS))
    n_ev, n_seg, ok, t_end, processed = run_table(table, orbits, st, ist, pair_t, ev, seg, max_events)
    for i in range(st.shape[1]):
        touched[i] = ist[TOUCHED, i] != 0
    for k in range(n_ev):
        ev_t[k] = ev[k, 0]
        for c in range(5):
            ev_i[k, c] = np.int64(ev[k, 1 + c])
    for k in range(n_seg):
        seg_t[k] = seg[k, 0]
        seg_i[k, 0] = np.int64(seg[k, 1])
        seg_i[k, 1] = np.int64(seg[k, 2])
        for c in range(5):
            seg_f[k, c] = seg[k, 3 + c]
    return n_ev, n_seg, ok, t_end, processed
