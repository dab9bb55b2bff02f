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
from shuffle_sim.physics._court_table import F_INDEX, H_DECEL, H_RADIUS, F, obstacle_overlap
from shuffle_sim.physics._curved_bodies import (
    _advance,
    _finish_body,
    _log_event,
    _log_segment,
    clear_discs,
    curved_state_at,
    make_scratch,
    place_curved,
)
from shuffle_sim.physics._curved_contacts import _body_event, _disc_disc, _out_of_play, _pair_states, _start_pending
from shuffle_sim.physics._curved_predict import _predict_pairs, _rest_events
from shuffle_sim.physics._curved_rides import RIDE_END
from shuffle_sim.physics._impacts import STORM_IMPACTS
from shuffle_sim.physics.curved_motion import max_acceleration
from shuffle_sim.physics.curved_state import (
    C_STEP_END,
    C_T_KILL,
    C_T_NEXT,
    C_T_SPIN,
    C_Y,
    I_DEAD,
    I_KILL_B,
    I_LEADER,
    I_MOVED,
    I_NEXT_B,
    I_NEXT_DISC,
    I_NEXT_KIND,
    I_PHASE,
    I_STATUS,
    PHASE_REST,
    PHASE_STEP,
)
from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    HOLED,
    KILLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_REST,
    STOP,
)


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
            active = ci[I_LEADER, i] == i and ci[I_STATUS, i] < STATUS_FALLEN and ci[I_PHASE, i] == PHASE_STEP
            if active and cs[C_STEP_END, i] < horizon:
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
        if kind in (DISC_CUSHION, DISC_PEG):
            impacts_now += 1
        ok = (
            _body_event(table, spin, ground, cs, ci, lead, a, kind, b, now, impacts_now > STORM_IMPACTS, scratch) and ok
        )
        if kind in (DISC_CUSHION, DISC_PEG):
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
