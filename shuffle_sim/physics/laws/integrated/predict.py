"""Predictions of the curved event loop (``loop_steps``): a body's own next event along its
present step (stop, cushion, peg, fall, hole, spin stop, the end of a ride, kill lines), searched on
the step's dense output, and the time of contact of a pair of discs over the time both present
steps cover (numba)."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.tolerances import APPROACH_TOL, CONTACT_GAP, OVERLAP_SLACK
from shuffle_sim.physics.events import HOLED, SPIN_STOP, STATUS_FALLEN
from shuffle_sim.physics.laws.integrated import state
from shuffle_sim.physics.laws.integrated.motion import RIDE_NONE, spin_stop_fraction
from shuffle_sim.physics.laws.integrated.pairs import disc_at, pair_entry
from shuffle_sim.physics.laws.integrated.rides import RIDE_END, ride_release, ride_shapes
from shuffle_sim.physics.laws.integrated.shapes import clear, first_event, gap, start_shape
from shuffle_sim.physics.state import DEAD, KILL_B, LEADER, NEXT_B, NEXT_DISC, NEXT_KIND, STATUS, T_KILL, T_NEXT
from shuffle_sim.physics.tables.court_table import (
    F_KIND,
    HOLE,
    KILL_LINE,
    event_of_row,
)

#: Steps a body may take in one motion (a bound, as ``curved_lone.MAX_STEPS``).
MAX_STEPS = 20_000


@jit.kernel
def _predict_body(table, orbit_tables, surface, st, ist, lead, members, out):
    """The body's next own event in its present step from C_LO on (``T_NEXT``, ``NEXT_KIND``,
    ``NEXT_B``, ``NEXT_DISC``), and each member's next kill-line crossing (``T_KILL``)."""
    c = state.constants(table, orbit_tables, surface, st[state.C_SIGN, lead])
    ride = state.ride_of_body(st, lead)
    ride_row = ist[state.I_RIDE_ROW, lead]
    accel = st[state.C_ACCEL, lead]
    lo = st[state.C_LO, lead]
    y0 = st[state.C_Y, lead]
    y1 = st[state.C_Y + 1, lead]
    y2 = st[state.C_Y + 2, lead]
    y3 = st[state.C_Y + 3, lead]
    y5 = st[state.C_Y + 5, lead]
    best = math.inf
    kind = np.int64(-1)
    b = np.int64(-1)
    who = lead
    have = ist[state.I_DENSE, lead] != 0
    if have:
        state.body_dense(surface, c, members, ride, st, ist, lead, out)
    for i in range(st.shape[1]):
        if ist[LEADER, i] != lead or ist[STATUS, i] >= STATUS_FALLEN:
            continue
        ox = st[state.C_OFFSET, i]
        oy = st[state.C_OFFSET + 1, i]
        alive = ist[DEAD, i] == 0
        st[T_KILL, i] = math.inf
        kill = math.inf
        kill_b = np.int64(-1)
        # The chord of the rest of the step, for a first look without the dense output.
        if lo == 0.0:
            xa, ya, va, ta = y0 + ox, y1 + oy, math.sqrt(y2 * y2 + y3 * y3), y5
        else:
            xa, ya, va, ta = _dense_probe(st, lead, lo, ox, oy)
        xb = st[state.C_N, lead] + ox
        yb = st[state.C_N + 1, lead] + oy
        vb = math.sqrt(st[state.C_N + 2, lead] ** 2 + st[state.C_N + 3, lead] ** 2)
        duration = st[state.C_N + 5, lead] - ta
        delta = accel * duration * duration / 8.0 + 1e-9
        dv = 0.5 * accel * duration
        sx = st[state.C_START, lead] + ox
        sy = st[state.C_START + 1, lead] + oy
        rider = ride_row >= 0 and ox == ride[4] and oy == ride[5]
        for row in range(1, table.shape[0]):
            if rider and row == ride_row:
                continue
            shape, at_once = start_shape(
                table, row, sx, sy, st[state.C_START + 2, lead], st[state.C_START + 3, lead], alive, np.bool_(True)
            )
            if shape[0] < 0.0:
                continue
            if at_once and lo == 0.0:
                if table[row, F_KIND] == KILL_LINE:
                    if kill > 0.0:
                        kill = 0.0
                        kill_b = row
                elif best > 0.0:
                    best = 0.0
                    kind = event_of_row(table[row, F_KIND])
                    b = row
                    who = i
                continue
            if at_once:
                continue
            if clear(shape, xa, ya, va, xb, yb, vb, delta, dv):
                continue
            if not have:
                state.body_dense(surface, c, members, ride, st, ist, lead, out)
                have = np.bool_(True)
            is_kill = table[row, F_KIND] == KILL_LINE
            theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, kill if is_kill else best), ox, oy, accel)
            if is_kill:
                if theta < kill:
                    kill = theta
                    kill_b = row
            elif theta < best:
                best = theta
                kind = event_of_row(table[row, F_KIND])
                b = row
                who = i
        if kill_b >= 0:
            st[T_KILL, i] = _dense_time(st, lead, kill)
            ist[KILL_B, i] = kill_b
    if ride[0] != RIDE_NONE:
        if not have:
            state.body_dense(surface, c, members, ride, st, ist, lead, out)
            have = np.bool_(True)
        theta = ride_release(
            surface,
            c,
            members,
            ride,
            out,
            y0,
            y1,
            st[state.C_Y + 2, lead],
            st[state.C_Y + 3, lead],
            st[state.C_Y + 4, lead],
            lo,
            min(1.0, best),
        )
        if theta < best:
            best = theta
            kind = RIDE_END
            b = np.int64(-1)
        first, last = ride_shapes(table, ride_row, ride)
        for shape in (first, last):
            if shape[0] < 0.0:
                continue
            ox = ride[4]
            oy = ride[5]
            px, py, _, _ = _dense_probe(st, lead, lo, ox, oy)
            if gap(shape, px, py, 0.0) <= 0.0:
                continue
            theta = first_event(shape, out, y0, y1, y2, y3, y5, lo, min(1.0, best), ox, oy, accel)
            if theta < best:
                best = theta
                kind = RIDE_END
                b = np.int64(-1)
    if c[6] != 0.0 and c[5] == 0.0 and st[state.C_N + 4, lead] * c[6] <= 0.0:
        if not have:
            state.body_dense(surface, c, members, ride, st, ist, lead, out)
            have = np.bool_(True)
        e = spin_stop_fraction(out, st[state.C_Y + 4, lead], c[6], lo)
        if e < best:
            best = e
            kind = SPIN_STOP
            b = np.int64(-1)
            who = lead
    if kind == -1:
        st[T_NEXT, lead] = math.inf
        ist[NEXT_KIND, lead] = -1
    else:
        st[T_NEXT, lead] = _dense_time(st, lead, best)
        ist[NEXT_KIND, lead] = kind
        ist[NEXT_B, lead] = b
        ist[NEXT_DISC, lead] = who
        st[state.C_EVENT_THETA, lead] = best


@jit.kernel
def _dense_time(st, lead, theta):
    if theta >= 1.0:
        return st[state.C_N + 5, lead]
    if theta <= 0.0:
        return st[state.C_Y + 5, lead]
    return state.dense_row(st, lead, np.int64(5), theta)


@jit.kernel
def _dense_probe(st, lead, theta, ox, oy):
    vx = state.dense_row(st, lead, np.int64(2), theta)
    vy = state.dense_row(st, lead, np.int64(3), theta)
    return (
        state.dense_row(st, lead, np.int64(0), theta) + ox,
        state.dense_row(st, lead, np.int64(1), theta) + oy,
        math.sqrt(vx * vx + vy * vy),
        state.dense_row(st, lead, np.int64(5), theta),
    )


@jit.kernel
def _rest_events(table, st, ist, i):
    """A disc at rest: dropped into a hole under it (capture speed above zero) at once, killed at once
    if already past a kill line (alive), as ``predict.predict_path`` says for a disc at rest."""
    x = st[state.C_Y, i]
    y = st[state.C_Y + 1, i]
    now = st[state.C_Y + 5, i]
    st[T_KILL, i] = math.inf
    for row in range(1, table.shape[0]):
        f = table[row, F_KIND]
        if f == HOLE or (f == KILL_LINE and ist[DEAD, i] == 0):
            _, at_once = start_shape(table, row, x, y, 0.0, 0.0, ist[DEAD, i] == 0, np.bool_(False))
            if not at_once:
                continue
            if f == HOLE:
                st[T_NEXT, i] = now
                ist[NEXT_KIND, i] = HOLED
                ist[NEXT_B, i] = row
                ist[NEXT_DISC, i] = i
                return
            if st[T_KILL, i] == math.inf:
                st[T_KILL, i] = now
                ist[KILL_B, i] = row


@jit.kernel
def _pair_time(st, ist, a, b, now, pair_rho, contact, fresh):
    """The next impact of discs a < b (of different bodies) from ``now`` within both bodies' present
    steps, with the contact rules of ``toi``: ``fresh`` when a body's motion has just started (the
    pair's target is set again), else the target of a touching pair returns to contact once the pair
    has parted by more than CONTACT_GAP."""
    la = ist[LEADER, a]
    lb = ist[LEADER, b]
    pa = ist[state.I_PHASE, la]
    pb = ist[state.I_PHASE, lb]
    if pa == state.PHASE_REST and pb == state.PHASE_REST:
        return math.inf
    end = math.inf
    for lead in (la, lb):
        phase = ist[state.I_PHASE, lead]
        if phase == state.PHASE_STEP:
            end = min(end, st[state.C_STEP_END, lead])
        elif phase == state.PHASE_FINISH:
            end = min(end, st[state.C_FINISH, lead])
    xa, ya, vxa, vya = disc_at(st, ist, a, now)
    xb, yb, vxb, vyb = disc_at(st, ist, b, now)
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
    return pair_entry(st, ist, a, b, rho, now, end)


@jit.kernel
def _predict_pairs(st, ist, lead, now, pair_t, pair_rho, contact, fresh):
    """Predict every pair of a disc of body ``lead`` with a disc of another body."""
    n = st.shape[1]
    for i in range(n):
        if ist[LEADER, i] != lead:
            continue
        for j in range(n):
            if j == i:
                continue
            a = min(i, j)
            b = max(i, j)
            if ist[STATUS, i] >= STATUS_FALLEN or ist[STATUS, j] >= STATUS_FALLEN or ist[LEADER, j] == lead:
                pair_t[a, b] = math.inf  # out of play, or one body: no impact
                continue
            pair_t[a, b] = _pair_time(st, ist, a, b, now, pair_rho, contact, fresh)
