"""The event loop: run a scene to rest exactly, one event at a time (numba, no Python inside).

Every disc keeps its next boundary event (stop, cushion, peg, edge, hole), its next kill-line
crossing and its spin stop; every pair of discs keeps its next impact (``predict``). The loop takes
the earliest of all of them, moves only the discs it involves to that instant (closed form,
``motion``), applies the event (impulses: ``resolve``), and predicts again only what that event
changed: the involved discs' own events and their pairs. Predictions for everyone else stay valid
because their reference states are untouched.

Events at the same instant are taken one after another (pairs in contact and approaching are due
at once; see ``toi``), so simultaneous impacts become a short sequence of pairwise impulses.

Discs left touching and pushed together by their friction (both sliding, the contact closing while
the normal speed is below ``PUSH_MERGE_SPEED``) would otherwise bounce ever faster and closer
(inelastic collapse). They move on as one instead, together with the sliding discs that touch them:
all take their common centre-of-mass velocity, which conserves momentum, cannot add energy, and
stops them together, still touching.

A disc pinched between touching discs with little restitution can need thousands of pairwise
impulses at one instant before no contact approaches any more (the impulses converge geometrically,
slowly when the contacts are nearly in line: an event storm that the physics fuzz found at
restitution 0.02). After ``STORM_IMPACTS`` disc-disc impacts at one instant, each further impact
there ends with its two discs and the sliding discs touching them moving on as one, as above: the
storm ends after a few merges, momentum is conserved and no energy is added.

The loop is bounded by ``max_events``; a scene that reaches the bound returns ``ok = False`` with
the state at the last event.

The court comes as a packed table (``table``). ``run_table`` and the helpers it calls at every
event are compiled without numba's reference counting (``jit.no_refcount``: they allocate nothing),
so passing the state arrays costs no atomic increments; it is one compiled function that every
batch loop calls once per shot, which keeps the first compile short. (A shot on an empty board
takes ``lone.run_lone``, this loop for one disc with its state in local variables: the same
results, bit for bit.) Its predictions are inlined, so the loop predicts in one place: at the start
every disc counts as moved. ``run_scene``
takes the court's ``KernelArrays`` and separate log columns and packs them per call. Everything
is compiled with ``error_model="numpy"`` (a division by zero gives inf or NaN instead of raising);
every division whose divisor can vanish is guarded where it matters.

Arrays (see ``motion`` for the state rows):
  st (N_FLOAT_ROWS, N) float64 and ist (N_INT_ROWS, N) int64: the discs' state;
  pair_t (N, N) float64: pair impact times (upper triangle);
  ev (E, EV_COLUMNS) float64: the event log, one event per row: time, kind, a, b, a_dead, b_dead
  (standing just before the event);
  seg (S, SEG_COLUMNS) float64: the trajectory log, one motion segment per row: from time t, disc,
  status, x, y, vx, vy, omega, and the row of the event log whose event started it (-1 at the
  start). One event may start several segments (a disc-disc impact, a group moving as one).
A log with no rows records nothing (the batch API's case); the integers in the logs are exact.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.compile_ahead import Callee
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
from shuffle_sim.physics._friction import force
from shuffle_sim.physics._motion import (
    DEAD,
    KILL_B,
    MOVED,
    NEXT_B,
    NEXT_KIND,
    OMEGA,
    STATUS,
    T0,
    T_KILL,
    T_NEXT,
    T_SPIN,
    TOUCHED,
    UX,
    UY,
    PX,
    PY,
    MODE,
    coupled_disc_motion,
    motion_after,
    position_at,
    set_motion,
    speed_at,
    spin_after,
    start_reference,
)
from shuffle_sim.physics._predict import (
    coupled_event_times,
    coupled_predict_pair,
    coupled_slow_distance,
    predict_disc,
    predict_pair,
)
from shuffle_sim.physics._resolve import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics._court_table import (
    obstacle_overlap,
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    F_INDEX,
    F_KIND,
    H_DECEL,
    H_FRICTION,
    H_INERTIA,
    H_INNER,
    H_RADIUS,
    H_RESTITUTION,
    H_SPIN_DECEL,
    F,
    decelerations,
)
from shuffle_sim.physics._toi import CONTACT_GAP

#: Touching discs pushed together by friction with a normal speed below this (m/s) move on as one.
PUSH_MERGE_SPEED = 1e-3
#: Disc-disc impacts at one instant after which a further impact there merges the touching group.
STORM_IMPACTS = 256


@jit.no_refcount
def _place(orbits, radius, st, ist, i, x, y, vx, vy, omega, decel, spin_decel):
    moving = set_motion(orbits, radius, st, i, 0.0, x, y, vx, vy, omega, decel, spin_decel)
    ist[STATUS, i] = STATUS_MOVING if moving else STATUS_REST
    ist[DEAD, i] = 0
    ist[TOUCHED, i] = 0
    ist[MOVED, i] = 0
    st[T_NEXT, i] = math.inf
    st[T_KILL, i] = math.inf
    ist[NEXT_KIND, i] = -1
    ist[NEXT_B, i] = -1
    ist[KILL_B, i] = -1


@jit.no_refcount
def place_disc(table, orbits, st, ist, i, x, y, vx, vy, omega):
    """Put disc ``i`` at (x, y) with its launch velocity and spin at time 0, alive. ``orbits`` is the
    coupled model's packed tables (``coupled.coupled_tables``), or no rows for the decoupled model."""
    _place(orbits, table[0, H_RADIUS], st, ist, i, x, y, vx, vy, omega, table[0, H_DECEL], table[0, H_SPIN_DECEL])


@jit.no_refcount
def _state(orbits, radius, st, ist, i, t, decel, spin_decel):
    """(x, y, vx, vy, omega) of disc ``i`` at time ``t`` (>= the time of its last event)."""
    if st[MODE, i] < 0:
        x, y = position_at(st, i, t, decel)
        speed = speed_at(st, i, t, decel) if ist[STATUS, i] == STATUS_MOVING else 0.0
        return x, y, st[UX, i] * speed, st[UY, i] * speed, spin_after(st[OMEGA, i], spin_decel, t - st[T0, i])
    s, speed, w = coupled_disc_motion(orbits, radius, st, i, t, decel)
    if ist[STATUS, i] != STATUS_MOVING:
        speed = 0.0
    return st[PX, i] + st[UX, i] * s, st[PY, i] + st[UY, i] * s, st[UX, i] * speed, st[UY, i] * speed, w


@jit.no_refcount
def state_at(table, orbits, st, ist, i, t):
    """(x, y, vx, vy, omega) of disc ``i`` at time ``t`` (>= the time of its last event)."""
    return _state(orbits, table[0, H_RADIUS], st, ist, i, t, table[0, H_DECEL], table[0, H_SPIN_DECEL])


@jit.no_refcount
def load_disc(ka, st, ist, i, x, y, vx, vy, omega):
    """``place_disc`` for a court given as ``KernelArrays``."""
    decel, spin_decel = decelerations(ka.mu, ka.gravity, ka.disc_radius, ka.contact_inner_ratio, ka.inertia_ratio)
    _place(ka.orbit_tables, ka.disc_radius, st, ist, i, x, y, vx, vy, omega, decel, spin_decel)


@jit.no_refcount
def disc_state(ka, st, ist, i, t):
    """``state_at`` for a court given as ``KernelArrays``."""
    decel, spin_decel = decelerations(ka.mu, ka.gravity, ka.disc_radius, ka.contact_inner_ratio, ka.inertia_ratio)
    return _state(ka.orbit_tables, ka.disc_radius, st, ist, i, t, decel, spin_decel)


# --------------------------------------------------------------------------------------------------
# Logs (inlined: a few stores each)


#: Columns of the event log and of the trajectory log.
EV_COLUMNS = 6
SEG_COLUMNS = 9


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


@jit.inline
def _log_segment(orbits, radius, st, ist, seg, n, i, t, decel, spin_decel, event):
    if n < seg.shape[0]:  # (the loop also checks before calling, so that no log costs nothing)
        x, y, vx, vy, w = _state(orbits, radius, st, ist, i, t, decel, spin_decel)
        seg[n, 0] = t
        seg[n, 1] = i
        seg[n, 2] = ist[STATUS, i]
        seg[n, 3] = x
        seg[n, 4] = y
        seg[n, 5] = vx
        seg[n, 6] = vy
        seg[n, 7] = w
        seg[n, 8] = event
        return n + 1
    return n


@jit.no_refcount
def sample_trajectories(table, orbits, seg, n_discs, times, out):
    """Every disc's centre at each of ``times``, in closed form from a trajectory log ``seg``.

    ``out`` is (T, N, 2). A disc is NaN before its first segment and once it has fallen or been
    holed. ``times`` must be sorted. Each segment's motion is started again from its logged state, as
    the kernel started it.
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    for i in range(n_discs):
        k = -1  # the row of the disc's current segment
        nxt = 0  # the next row to look at
        for f in range(times.shape[0]):
            t = times[f]
            while nxt < seg.shape[0] and seg[nxt, 0] <= t:
                if seg[nxt, 1] == i:
                    k = nxt
                nxt += 1
            if k < 0 or seg[k, 2] == STATUS_FALLEN or seg[k, 2] == STATUS_HOLED:
                out[f, i, 0] = math.nan
                out[f, i, 1] = math.nan
                continue
            ux, uy, speed, w, _, _, mode, sigma0, reach, theta = start_reference(
                orbits, radius, seg[k, 0], seg[k, 3], seg[k, 4], seg[k, 5], seg[k, 6], seg[k, 7], decel, spin_decel)
            s, _, _ = motion_after(orbits, radius, mode, sigma0, reach, theta, speed, w, decel, spin_decel, t - seg[k, 0])
            out[f, i, 0] = seg[k, 3] + ux * s
            out[f, i, 1] = seg[k, 4] + uy * s


# --------------------------------------------------------------------------------------------------
# Applying events


@jit.no_refcount
def _restart(orbits, radius, st, ist, i, t, x, y, vx, vy, w, decel, spin_decel):
    """New motion for disc i from time t (after an impulse or a stop)."""
    moving = set_motion(orbits, radius, st, i, t, x, y, vx, vy, w, decel, spin_decel)
    ist[STATUS, i] = STATUS_MOVING if moving else STATUS_REST


@jit.no_refcount
def _merge_pushing_group(orbits, radius, st, ist, t, decel, spin_decel, contact):
    """Give every disc marked MOVED, and every sliding disc touching one of them without clearly
    leaving it (transitively), their common velocity: their momentum over their number.

    Averaging conserves momentum and cannot add kinetic energy. The group then slides as one, every
    member on the same line at the same speed, and stops at once, still touching. In the coupled
    model the members also take their mean spin (which cannot add energy either), so that they share
    one ratio v / (r omega) and with it one deceleration: they stay exactly together.
    """
    n = st.shape[1]
    grew = True
    while grew:
        grew = False
        for k in range(n):
            if ist[MOVED, k] != 0 or ist[STATUS, k] != STATUS_MOVING:
                continue
            xk, yk, vxk, vyk, _ = _state(orbits, radius, st, ist, k, t, decel, spin_decel)
            for m in range(n):
                if ist[MOVED, m] == 0:
                    continue
                xm, ym, vxm, vym, _ = _state(orbits, radius, st, ist, m, t, decel, spin_decel)
                dx = xk - xm
                dy = yk - ym
                dist = math.sqrt(dx * dx + dy * dy)
                if dist - contact <= CONTACT_GAP and (vxk - vxm) * dx + (vyk - vym) * dy < PUSH_MERGE_SPEED * dist:
                    ist[MOVED, k] = 1
                    grew = True
                    break
    count = 0
    sum_x = 0.0
    sum_y = 0.0
    sum_w = 0.0
    for k in range(n):
        if ist[MOVED, k] != 0:
            _, _, vx, vy, w = _state(orbits, radius, st, ist, k, t, decel, spin_decel)
            sum_x += vx
            sum_y += vy
            sum_w += w
            count += 1
    coupled = orbits.shape[0] > 0
    for k in range(n):
        if ist[MOVED, k] != 0:
            x, y, _, _, w = _state(orbits, radius, st, ist, k, t, decel, spin_decel)
            if coupled:
                w = sum_w / count
            _restart(orbits, radius, st, ist, k, t, x, y, sum_x / count, sum_y / count, w, decel, spin_decel)


@jit.inline
def _sliding_decel(orbits, radius, eta, decel, speed, w):
    """The deceleration of a disc sliding at ``speed`` with spin ``w``: mu g, or mu g F(eps) coupled."""
    if orbits.shape[0] == 0 or w == 0.0:
        return decel
    return decel * force(speed / (radius * abs(w)), eta)


@jit.no_refcount
def _disc_disc(table, orbits, st, ist, a, b, t, storm):
    """Collide discs a and b at time t and mark the discs whose motion changed (MOVED).

    If their friction keeps pushing the two together, they and the sliding discs touching them move
    on as one (``_merge_pushing_group``); so do they after the impulse when ``storm`` says that
    ``STORM_IMPACTS`` impacts have already happened at this instant (see ``run_table``).
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    xa, ya, vax, vay, wa = _state(orbits, radius, st, ist, a, t, decel, spin_decel)
    xb, yb, vbx, vby, wb = _state(orbits, radius, st, ist, b, t, decel, spin_decel)
    dx = xb - xa
    dy = yb - ya
    dist = math.sqrt(dx * dx + dy * dy)
    nx = dx / dist
    ny = dy / dist
    vax, vay, wa, vbx, vby, wb = disc_disc_impulse(vax, vay, wa, vbx, vby, wb, nx, ny, radius,
                                                   table[0, H_RESTITUTION], table[0, H_FRICTION],
                                                   table[0, H_INERTIA])
    _restart(orbits, radius, st, ist, a, t, xa, ya, vax, vay, wa, decel, spin_decel)
    _restart(orbits, radius, st, ist, b, t, xb, yb, vbx, vby, wb, decel, spin_decel)
    ist[MOVED, a] = 1
    ist[MOVED, b] = 1
    if storm:
        _merge_pushing_group(orbits, radius, st, ist, t, decel, spin_decel, 2.0 * radius)
        return
    speed_a = math.sqrt(vax * vax + vay * vay)
    speed_b = math.sqrt(vbx * vbx + vby * vby)
    if decel > 0.0 and ist[STATUS, a] == STATUS_MOVING and ist[STATUS, b] == STATUS_MOVING:
        gx = vbx - vax
        gy = vby - vay
        if gx * nx + gy * ny < PUSH_MERGE_SPEED:
            # Relative acceleration: each disc decelerates along its own direction of travel.
            if orbits.shape[0] == 0:
                ax = 0.5 * decel * (vax / speed_a - vbx / speed_b)
                ay = 0.5 * decel * (vay / speed_a - vby / speed_b)
            else:
                eta = table[0, H_INNER]
                dec_a = _sliding_decel(orbits, radius, eta, decel, speed_a, st[OMEGA, a])
                dec_b = _sliding_decel(orbits, radius, eta, decel, speed_b, st[OMEGA, b])
                ax = 0.5 * (dec_a * vax / speed_a - dec_b * vbx / speed_b)
                ay = 0.5 * (dec_a * vay / speed_a - dec_b * vby / speed_b)
            # Curvature of |d|^2 at contact: negative means the contact keeps closing.
            if gx * gx + gy * gy + 2.0 * (ax * dx + ay * dy) < 0.0:
                _merge_pushing_group(orbits, radius, st, ist, t, decel, spin_decel, 2.0 * radius)


@jit.inline
def fixed_body_bounce(table, row, xi, yi, vx, vy, w):
    """Bounce a disc at (xi, yi) moving at (vx, vy) with spin w off the cushion or peg in table row
    ``row``; returns its new (vx, vy, w) and whether the body kills (MSA C-20)."""
    f = table[row, F_KIND]
    g0 = table[row, F]
    g1 = table[row, F + 1]
    if f == CUSHION_SEGMENT:
        # Normal from the nearest point of the cushion's segment to the centre.
        ex = table[row, F + 2] - g0
        ey = table[row, F + 3] - g1
        u = min(max(((xi - g0) * ex + (yi - g1) * ey) / (ex * ex + ey * ey), 0.0), 1.0)
        nx = xi - (g0 + u * ex)
        ny = yi - (g1 + u * ey)
        e, mu_c, kills = table[row, F + 5], table[row, F + 6], table[row, F + 7]
    elif f == CUSHION_CIRCLE:
        nx = g0 - xi
        ny = g1 - yi
        e, mu_c, kills = table[row, F + 3], table[row, F + 4], table[row, F + 5]
    else:  # a peg
        nx = xi - g0
        ny = yi - g1
        e, mu_c, kills = table[row, F + 3], table[row, F + 4], 0.0
    norm = math.sqrt(nx * nx + ny * ny)
    vx, vy, w = fixed_body_impulse(vx, vy, w, nx / norm, ny / norm, table[0, H_RADIUS], e, mu_c, table[0, H_INERTIA])
    return vx, vy, w, kills != 0.0


@jit.no_refcount
def _disc_fixed(table, orbits, st, ist, i, row, t):
    """Bounce disc i off the cushion or peg in table row ``row`` at time t; True if it kills."""
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    xi, yi, vx, vy, w = _state(orbits, radius, st, ist, i, t, decel, spin_decel)
    vx, vy, w, kills = fixed_body_bounce(table, row, xi, yi, vx, vy, w)
    _restart(orbits, radius, st, ist, i, t, xi, yi, vx, vy, w, decel, spin_decel)
    return kills


# --------------------------------------------------------------------------------------------------
# The loop


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
                n_seg = _log_segment(orbits, radius, st, ist, seg, n_seg, i, now, decel, spin_decel, event_row)
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
        if kind == -1:
            break
        if processed >= max_events:
            ok = False
            break
        processed += 1
        if t > now:
            impacts_now = 0
        now = max(now, t)
        # b is a disc, a table row, or -1; the log reports discs and the rows' own indices.
        if kind == DISC_DISC:
            b_logged = b
            b_dead = ist[DEAD, b]
        else:
            b_logged = np.int64(table[b, F_INDEX]) if b >= 0 else b
            b_dead = 0
        event_row = n_ev
        n_ev = _log_event(ev, n_ev, now, kind, a, b_logged, ist[DEAD, a], b_dead)
        if kind == KILLED:
            ist[DEAD, a] = 1
            st[T_KILL, a] = math.inf
            continue
        if kind == SPIN_STOP:
            # Zero, not the decayed reference spin: alpha * (|w| / alpha) may miss |w| by a rounding.
            st[OMEGA, a] = 0.0
            st[T_SPIN, a] = math.inf
            continue
        # The remaining kinds change the motion of disc a, or of the discs a disc-disc impact marks.
        ist[MOVED, a] = 1
        if kind == DISC_DISC:
            ist[TOUCHED, a] = 1
            ist[TOUCHED, b] = 1
            impacts_now += 1
            _disc_disc(table, orbits, st, ist, a, b, now, impacts_now > STORM_IMPACTS)
        elif kind == DISC_CUSHION or kind == DISC_PEG:
            if _disc_fixed(table, orbits, st, ist, a, b, now) and ist[DEAD, a] == 0:
                ist[DEAD, a] = 1
                n_ev = _log_event(ev, n_ev, now, KILLED, a, -1, 0, 0)
        elif kind == STOP:
            x, y, _, _, w = _state(orbits, radius, st, ist, a, now, decel, spin_decel)
            _restart(orbits, radius, st, ist, a, now, x, y, 0.0, 0.0, w, decel, spin_decel)
        else:  # FALL or HOLED: out of play where it crossed the edge, or at the hole's centre
            x, y, _, _, _ = _state(orbits, radius, st, ist, a, now, decel, spin_decel)
            if kind == HOLED:
                x = table[b, F]
                y = table[b, F + 1]
            set_motion(orbits, radius, st, a, now, x, y, 0.0, 0.0, 0.0, decel, spin_decel)
            ist[STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
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
RUN_FROM_START = Callee(__name__, "run_from_start",
                       f"({_F2}, {_F2}, {_F2}, float64, {_F2}, {_I2}, {_F2}, {_F2}, {_F2}, int64, {_F2})")
RUN_FROM_START_SHARED = (
    Callee("shuffle_sim.physics._predict", "coupled_predict_pair",
           f"({_F2}, {_F2}, {_I2}, int64, int64, float64, float64, float64, float64)"),
    Callee(__name__, "_disc_disc", f"({_F2}, {_F2}, {_F2}, {_I2}, int64, int64, float64, boolean)"),
    Callee(__name__, "_disc_fixed", f"({_F2}, {_F2}, {_F2}, {_I2}, int64, int64, float64)"),
    Callee(__name__, "state_at", f"({_F2}, {_F2}, {_F2}, {_I2}, int64, float64)"),
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
