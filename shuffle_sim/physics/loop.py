"""The event loop: run a scene to rest, one event at a time, under either motion law (numba).

Every body keeps its next own event (stop, cushion, peg, edge, hole, spin stop; a ride's end on a
graded court), every disc its next kill-line crossing and spin stop, every pair of discs its next
impact; they are predicted by the motion law (``laws.ops``). The loop takes the earliest of them all
(``state.earliest_event``). Under the integrated law predictions hold only up to the end of each
body's present step: when the earliest event lies beyond the earliest such end (the *horizon*),
that body takes its next step instead and its predictions are made again. Otherwise the event is
logged and applied, and only what it changed is predicted again: the moved discs' own events and
their pairs, while every other prediction stays valid.

The rules are the same under both laws and written here once:

* events at the same instant are taken one after another (pairs in contact and approaching are due
  at once: ``contacts.tolerances``), so simultaneous impacts become a short sequence of pairwise
  impulses; ties go to the lowest disc, then a body's own event over a kill line over a spin stop
  over an impact;
* impacts at one instant are counted; past ``pushing.STORM_IMPACTS`` each further one ends the
  exchange (``contacts.pushing``). The integrated law counts impacts on cushions and pegs too and
  ends a storm against them as well: there a grade can press discs into a body, and a disc pinched
  between them bounces without end; the closed-form law counts disc-disc impacts only
  (``ops.storms_at_bodies``);
* a kill line makes its disc dead (MSA C-21) and changes nothing else; a killing cushion makes the
  disc that hits it dead (MSA C-20), logged as a kill right after the impact;
* the log gets every event but a ride's end, with each disc's standing just before the event;
* ``max_events`` events at most: a scene that reaches the bound returns ``ok`` False with the state
  at the last event.

Everything is compiled with ``error_model="numpy"`` (a division by zero gives inf or NaN instead of
raising); every division whose divisor can vanish is guarded where it matters. The loop and the run
from a start allocate nothing and are compiled without numba's reference counting
(``jit.no_refcount``), so passing the state arrays costs no atomic increments.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.pushing import STORM_IMPACTS
from shuffle_sim.physics.events import DISC_CUSHION, DISC_DISC, DISC_PEG, KILLED
from shuffle_sim.physics.laws import ops
from shuffle_sim.physics.laws.integrated.rides import RIDE_END
from shuffle_sim.physics.laws.law import CLOSED_FORM
from shuffle_sim.physics.state import DEAD, T_KILL, earliest_event, log_event
from shuffle_sim.physics.tables.court_table import F_INDEX, obstacle_overlap


@jit.no_refcount
def run_events(law, motion, state, ev, seg, max_events):
    """Run the discs placed in ``state`` (``ops.place``) until every one is at rest or gone.

    ``law``, ``motion`` and ``state`` as ``laws.ops`` describes them; ``ev`` the event log (E,
    ``state.EV_COLUMNS``), ``seg`` the law's trajectory log (no rows: nothing logged). Returns
    (events logged, segments logged, ok, end time, events processed); ``ok`` is False if
    ``max_events`` events were processed before the end or a motion could not be integrated. Logged
    cushion, peg, hole and kill-line indices are those of ``KernelArrays``.
    """
    table = motion[0]
    st = state[0]
    ist = state[1]
    pair_t = state[2]
    now = 0.0
    # Counters start as int64 values, not literals, so each helper compiles for one signature.
    n_ev = np.int64(0)
    n_seg = np.int64(0)
    event_row = np.int64(-1)
    ok = True
    processed = np.int64(0)
    impacts_now = np.int64(0)  # impacts so far at the instant ``now``
    ops.begin(law, motion, state)
    while True:
        n_seg = ops.refresh(law, motion, state, seg, n_seg, now, event_row)
        t, kind, a, b = earliest_event(st, ist, pair_t)
        horizon, lead = ops.horizon(law, state)
        if kind == -1 and lead < 0:
            break
        if processed >= max_events:
            ok = False
            break
        if t > horizon:
            if not ops.advance(law, motion, state, lead, horizon):
                ok = False
                break
            continue
        processed += 1
        t = ops.exact_time(law, motion, state, kind, a, b, t, now)
        if t > now:
            impacts_now = 0
        now = max(now, t)
        if kind == RIDE_END:
            event_row = np.int64(-1)
            if not ops.end_ride(law, motion, state, a, now):
                ok = False
            if not ops.start_pending(law, motion, state, now):
                ok = False
                break
            continue
        counted = kind == DISC_DISC or (kind in (DISC_CUSHION, DISC_PEG) and ops.storms_at_bodies(law))
        if counted:
            impacts_now += 1
        if kind == DISC_DISC:
            b_logged = b
            b_dead = ist[DEAD, b]
        else:
            b_logged = np.int64(table[b, F_INDEX]) if b >= 0 else b
            b_dead = 0
        event_row = n_ev
        n_ev = log_event(ev, n_ev, now, kind, a, b_logged, ist[DEAD, a], b_dead)
        if kind == KILLED:
            ist[DEAD, a] = 1
            st[T_KILL, a] = np.inf
            continue
        storm = counted and impacts_now > STORM_IMPACTS
        n_ev, applied, kills = ops.apply_event(law, motion, state, ev, n_ev, now, kind, a, b, storm)
        if kills and ist[DEAD, a] == 0:
            ist[DEAD, a] = 1
            n_ev = log_event(ev, n_ev, now, KILLED, a, -1, 0, 0)
        if not applied:
            ok = False
            break
        if not ops.start_pending(law, motion, state, now):
            ok = False
            break
    return n_ev, n_seg, ok, now, processed


@jit.no_refcount
def run_from_start(law, motion, start, tolerance, state, ev, seg, max_events, final):
    """A whole scene from its start, in one compiled call: check every disc's start against the
    cushions and pegs (``obstacle_overlap`` with ``tolerance``), place the discs, run them
    (``run_events``) and write each disc's (x, y, vx, vy, omega) at the end into ``final`` (N, 5).

    ``start`` is (N, 5): x, y, vx, vy, omega; ``state`` a fresh or used state of N discs. Returns
    (bad, n_ev, n_seg, ok, t_end): ``bad`` is the first disc whose start overlaps a cushion or peg
    (nothing is run then), or -1.
    """
    table = motion[0]
    n = start.shape[0]
    for i in range(n):
        kind, _ = obstacle_overlap(table, start[i, 0], start[i, 1], tolerance)
        if kind >= 0:
            return i, 0, 0, False, 0.0
    ops.clear(law, state)
    placed = True
    for i in range(n):
        x, y, vx, vy, w = start[i, 0], start[i, 1], start[i, 2], start[i, 3], start[i, 4]
        placed = ops.place(law, motion, state, i, x, y, vx, vy, w) and placed
    n_ev, n_seg, ok, t_end, _ = run_events(law, motion, state, ev, seg, max_events)
    for i in range(n):
        x, y, vx, vy, w = ops.state_at(law, motion, state, i, t_end)
        final[i, 0] = x
        final[i, 1] = y
        final[i, 2] = vx
        final[i, 3] = vy
        final[i, 4] = w
    return -1, n_ev, n_seg, ok and placed, t_end


@jit.no_refcount
def run_table(table, orbit_tables, st, ist, pair_t, ev, seg, max_events):
    """``run_events`` under the closed-form law, the motion and state given as arrays: for the game
    engines and rollouts that run flat courts from their own numba loops."""
    return run_events(CLOSED_FORM, (table, orbit_tables), (st, ist, pair_t), ev, seg, max_events)
