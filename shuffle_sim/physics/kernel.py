"""The event loop: run a scene to rest exactly, one event at a time (numba, no Python inside).

Every disc keeps its next boundary event (stop, cushion, peg, edge, hole), its next kill-line
crossing and its spin stop; every pair of discs keeps its next impact. The loop takes the earliest
of all of them, moves only the discs it involves to that instant (closed form), applies the event,
and predicts again only what that event changed: the involved discs' own events and their pairs.
Predictions for everyone else stay valid because their reference states are untouched.

Events at the same instant are taken one after another (pairs in contact and approaching are due
at once; see ``toi``), so simultaneous impacts become a short sequence of pairwise impulses.

Two discs left touching and pushed together by their friction (both sliding, the contact closing
while the normal speed is below ``PUSH_MERGE_SPEED``) would otherwise bounce ever faster and closer
(inelastic collapse). They move on as one instead: both take their common centre-of-mass velocity,
which conserves momentum, cannot add energy, and stops them together, still touching.

The loop is bounded by ``max_events``; a scene that reaches the bound returns ``ok = False`` with
the state at the last event.

Arrays (see ``motion`` for the state rows):
  st (N_FLOAT_ROWS, N) float64, ist (N_INT_ROWS, N) int64 state; pair_t (N, N) pair impact times
  (upper triangle); touched (N,) bool, set for discs that took part in a disc-disc impact;
  ev_t (E,) / ev_i (E, 5) event log: time; kind, a, b, a_dead, b_dead (standing before the event);
  seg_t (S,) / seg_i (S, 2) / seg_f (S, 5) trajectory log: from time t, disc and status; x, y, vx,
  vy, omega. Zero-length logs record nothing (the batch API's case).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from shuffle_sim.geometry import point_segment_distance
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
from shuffle_sim.physics.motion import (
    DEAD,
    KILL_B,
    NEXT_B,
    NEXT_KIND,
    OMEGA,
    PX,
    PY,
    SPEED,
    STATUS,
    T0,
    T_KILL,
    T_NEXT,
    T_SPIN,
    T_STOP,
    UX,
    UY,
    position_at,
    set_reference,
    speed_at,
    spin_after,
    stopping_distance,
    time_to_slide,
)
from shuffle_sim.physics.resolve import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics.toi import (
    APPROACH_TOL,
    CONTACT_GAP,
    OVERLAP_SLACK,
    capsule_entry,
    circle_entry,
    circle_exit,
    circle_exit_contact,
    edge_crossing,
    hole_capture,
    line_passing,
    quartic_entry,
)

#: Touching discs pushed together by friction with a normal speed below this (m/s) move on as one.
PUSH_MERGE_SPEED = 1e-3


@njit(cache=True, error_model="numpy")
def decelerations(mu, gravity, radius):
    """Sliding deceleration mu g (m/s^2) and spin deceleration (4/3) mu g / r (rad/s^2)."""
    decel = mu * gravity
    return decel, 4.0 / 3.0 * decel / radius


@njit(cache=True, error_model="numpy")
def load_disc(ka, st, ist, i, x, y, vx, vy, omega):
    """Put disc ``i`` at (x, y) with its launch velocity and spin at time 0, alive, on court ``ka``."""
    decel, spin_decel = decelerations(ka.mu, ka.gravity, ka.disc_radius)
    moving = set_reference(st, i, 0.0, x, y, vx, vy, omega, decel, spin_decel)
    ist[STATUS, i] = STATUS_MOVING if moving else STATUS_REST
    ist[DEAD, i] = 0
    st[T_NEXT, i] = math.inf
    st[T_KILL, i] = math.inf
    ist[NEXT_KIND, i] = -1
    ist[NEXT_B, i] = -1
    ist[KILL_B, i] = -1


@njit(cache=True, error_model="numpy", inline="always")
def _state(st, ist, i, t, decel, spin_decel):
    x, y = position_at(st, i, t, decel)
    speed = speed_at(st, i, t, decel) if ist[STATUS, i] == STATUS_MOVING else 0.0
    return x, y, st[UX, i] * speed, st[UY, i] * speed, spin_after(st[OMEGA, i], spin_decel, t - st[T0, i])


@njit(cache=True, error_model="numpy")
def disc_state(ka, st, ist, i, t):
    """(x, y, vx, vy, omega) of disc ``i`` at time ``t`` (>= the time of its last event) on court ``ka``."""
    decel, spin_decel = decelerations(ka.mu, ka.gravity, ka.disc_radius)
    return _state(st, ist, i, t, decel, spin_decel)


@njit(cache=True, error_model="numpy")
def obstacle_overlap(ka, x, y, tolerance):
    """(kind, index) of the first cushion or peg a disc at (x, y) overlaps by more than ``tolerance``.

    ``ka`` is the court's ``KernelArrays``; ``kind`` is DISC_CUSHION (index as in the event log) or
    DISC_PEG; (-1, -1) when there is none.
    """
    r = ka.disc_radius
    seg = ka.cushion_segments
    for k in range(seg.shape[0]):
        if point_segment_distance(x, y, seg[k, 0], seg[k, 1], seg[k, 2], seg[k, 3]) < r + seg[k, 4] - tolerance:
            return DISC_CUSHION, k
    circ = ka.cushion_circles
    for k in range(circ.shape[0]):
        if math.sqrt((x - circ[k, 0]) ** 2 + (y - circ[k, 1]) ** 2) > circ[k, 2] - r + tolerance:
            return DISC_CUSHION, seg.shape[0] + k
    pegs = ka.pegs
    for k in range(pegs.shape[0]):
        if math.sqrt((x - pegs[k, 0]) ** 2 + (y - pegs[k, 1]) ** 2) < r + pegs[k, 2] - tolerance:
            return DISC_PEG, k
    return -1, -1


# --------------------------------------------------------------------------------------------------
# Predictions


@njit(cache=True, error_model="numpy", inline="always")
def _predict_boundary(st, ist, i, decel, r, fall_segments, fall_circles, cushion_segments, cushion_circles,
                      pegs, holes):
    """Disc i's next stop, cushion, peg, fall or hole event along its current path (from T0)."""
    t0 = st[T0, i]
    qx = st[PX, i]
    qy = st[PY, i]
    status = ist[STATUS, i]
    st[T_NEXT, i] = math.inf
    ist[NEXT_KIND, i] = -1
    ist[NEXT_B, i] = -1
    if status == STATUS_REST:
        for k in range(holes.shape[0]):  # a disc at rest over a hole drops in at once
            if holes[k, 3] > 0.0 and (qx - holes[k, 0]) ** 2 + (qy - holes[k, 1]) ** 2 <= holes[k, 2] ** 2:
                st[T_NEXT, i] = t0
                ist[NEXT_KIND, i] = HOLED
                ist[NEXT_B, i] = k
                return
        return
    if status != STATUS_MOVING:
        return
    ux = st[UX, i]
    uy = st[UY, i]
    speed = st[SPEED, i]
    best = stopping_distance(speed, decel)
    kind = STOP if math.isfinite(best) else -1
    b = -1
    for k in range(fall_segments.shape[0]):
        s = edge_crossing(qx, qy, ux, uy, fall_segments[k, 0], fall_segments[k, 1], fall_segments[k, 2], fall_segments[k, 3], best)
        if s < best:
            best, kind, b = s, FALL, -1
    for k in range(fall_circles.shape[0]):
        s = circle_exit(qx, qy, ux, uy, fall_circles[k, 0], fall_circles[k, 1], fall_circles[k, 2])
        if s < best:
            best, kind, b = s, FALL, -1
    for k in range(cushion_segments.shape[0]):
        s = capsule_entry(qx, qy, ux, uy, speed, cushion_segments[k, 0], cushion_segments[k, 1], cushion_segments[k, 2], cushion_segments[k, 3], r + cushion_segments[k, 4], best)
        if s < best:
            best, kind, b = s, DISC_CUSHION, k
    for k in range(cushion_circles.shape[0]):
        s = circle_exit_contact(qx, qy, ux, uy, speed, cushion_circles[k, 0], cushion_circles[k, 1], cushion_circles[k, 2] - r)
        if s < best:
            best, kind, b = s, DISC_CUSHION, cushion_segments.shape[0] + k
    for k in range(pegs.shape[0]):
        s = circle_entry(qx, qy, ux, uy, speed, pegs[k, 0], pegs[k, 1], r + pegs[k, 2], best)
        if s < best:
            best, kind, b = s, DISC_PEG, k
    for k in range(holes.shape[0]):
        s = hole_capture(qx, qy, ux, uy, speed, decel, holes[k, 0], holes[k, 1], holes[k, 2], holes[k, 3])
        if s < best:
            best, kind, b = s, HOLED, k
    if kind == -1:
        return
    st[T_NEXT, i] = st[T_STOP, i] if kind == STOP else t0 + time_to_slide(speed, decel, best)
    ist[NEXT_KIND, i] = kind
    ist[NEXT_B, i] = b


@njit(cache=True, error_model="numpy", inline="always")
def _predict_kill(st, ist, i, decel, kill_lines):
    """When a live disc i passes a kill line along its current path (at once if already past)."""
    st[T_KILL, i] = math.inf
    ist[KILL_B, i] = -1
    if ist[DEAD, i] != 0 or ist[STATUS, i] >= STATUS_FALLEN:
        return
    speed = st[SPEED, i]
    reach = stopping_distance(speed, decel)
    best = math.inf
    for k in range(kill_lines.shape[0]):
        s = line_passing(st[PX, i], st[PY, i], st[UX, i], st[UY, i], kill_lines[k, 0], kill_lines[k, 1], kill_lines[k, 2], kill_lines[k, 3])
        # Passing the line exactly where the disc stops leaves it on the line, not past it.
        if s < best and (s == 0.0 or s < reach):
            best = s
            ist[KILL_B, i] = k
    if math.isfinite(best):
        st[T_KILL, i] = st[T0, i] + time_to_slide(speed, decel, best)


@njit(cache=True, error_model="numpy", inline="always")
def _predict_pair(st, ist, i, j, now, decel, contact):
    """Time of the next impact of discs i and j after ``now`` (inf if none while they slide).

    ``contact`` is the distance of the centres at contact, 2 r.
    """
    si = ist[STATUS, i]
    sj = ist[STATUS, j]
    if si >= STATUS_FALLEN or sj >= STATUS_FALLEN:
        return math.inf
    moving_i = si == STATUS_MOVING
    moving_j = sj == STATUS_MOVING
    if not (moving_i or moving_j):
        return math.inf
    if moving_i and moving_j:
        xi, yi = position_at(st, i, now, decel)
        xj, yj = position_at(st, j, now, decel)
        vi = speed_at(st, i, now, decel)
        vj = speed_at(st, j, now, decel)
        cx = xj - xi
        cy = yj - yi
        bx = vj * st[UX, j] - vi * st[UX, i]
        by = vj * st[UY, j] - vi * st[UY, i]
        ax = 0.5 * decel * (st[UX, i] - st[UX, j])
        ay = 0.5 * decel * (st[UY, i] - st[UY, j])
        dist = math.sqrt(cx * cx + cy * cy)
        radius = contact
        if dist - contact <= CONTACT_GAP:
            if bx * cx + by * cy < -APPROACH_TOL * dist:
                return now
            radius = min(contact, dist) - OVERLAP_SLACK
        window = min(st[T_STOP, i], st[T_STOP, j]) - now
        return now + quartic_entry(cx, cy, bx, by, ax, ay, radius, window)
    mover = i if moving_i else j
    fixed = j if moving_i else i
    qx, qy = position_at(st, mover, now, decel)
    speed = speed_at(st, mover, now, decel)
    reach = stopping_distance(speed, decel)
    s = circle_entry(qx, qy, st[UX, mover], st[UY, mover], speed, st[PX, fixed], st[PY, fixed], contact, reach)
    if s > reach:
        return math.inf
    return now + time_to_slide(speed, decel, s)


# --------------------------------------------------------------------------------------------------
# Logs (inlined: they are a few stores each)


@njit(error_model="numpy", inline="always")
def _log_event(ev_t, ev_i, n, t, kind, a, b, a_dead, b_dead):
    if n < ev_t.shape[0]:
        ev_t[n] = t
        ev_i[n, 0] = kind
        ev_i[n, 1] = a
        ev_i[n, 2] = b
        ev_i[n, 3] = a_dead
        ev_i[n, 4] = b_dead
        return n + 1
    return n


@njit(error_model="numpy", inline="always")
def _log_segment(st, ist, seg_t, seg_i, seg_f, n, i, t, decel, spin_decel):
    if n < seg_t.shape[0]:
        x, y, vx, vy, w = _state(st, ist, i, t, decel, spin_decel)
        seg_t[n] = t
        seg_i[n, 0] = i
        seg_i[n, 1] = ist[STATUS, i]
        seg_f[n, 0] = x
        seg_f[n, 1] = y
        seg_f[n, 2] = vx
        seg_f[n, 3] = vy
        seg_f[n, 4] = w
        return n + 1
    return n


# --------------------------------------------------------------------------------------------------
# Applying events


@njit(cache=True, error_model="numpy", inline="always")
def _restart(st, ist, i, t, x, y, vx, vy, w, decel, spin_decel):
    """New motion for disc i from time t (after an impulse or a stop)."""
    moving = set_reference(st, i, t, x, y, vx, vy, w, decel, spin_decel)
    ist[STATUS, i] = STATUS_MOVING if moving else STATUS_REST


@njit(cache=True, error_model="numpy", inline="always")
def _disc_disc(st, ist, a, b, t, decel, spin_decel, r, e, mu_c):
    """Collide discs a and b at time t; merge them if friction keeps pushing them together."""
    xa, ya, vax, vay, wa = _state(st, ist, a, t, decel, spin_decel)
    xb, yb, vbx, vby, wb = _state(st, ist, b, t, decel, spin_decel)
    dx = xb - xa
    dy = yb - ya
    dist = math.sqrt(dx * dx + dy * dy)
    nx = dx / dist
    ny = dy / dist
    vax, vay, wa, vbx, vby, wb = disc_disc_impulse(vax, vay, wa, vbx, vby, wb, nx, ny, r, e, mu_c)
    speed_a = math.sqrt(vax * vax + vay * vay)
    speed_b = math.sqrt(vbx * vbx + vby * vby)
    if decel > 0.0 and speed_a > 0.0 and speed_b > 0.0:
        gx = vbx - vax
        gy = vby - vay
        if gx * nx + gy * ny < PUSH_MERGE_SPEED:
            # Relative acceleration: each disc decelerates along its own direction of travel.
            ax = 0.5 * decel * (vax / speed_a - vbx / speed_b)
            ay = 0.5 * decel * (vay / speed_a - vby / speed_b)
            # Curvature of |d|^2 at contact: negative means the contact keeps closing.
            if gx * gx + gy * gy + 2.0 * (ax * dx + ay * dy) < 0.0:
                vax = 0.5 * (vax + vbx)
                vay = 0.5 * (vay + vby)
                vbx = vax
                vby = vay
    _restart(st, ist, a, t, xa, ya, vax, vay, wa, decel, spin_decel)
    _restart(st, ist, b, t, xb, yb, vbx, vby, wb, decel, spin_decel)


@njit(cache=True, error_model="numpy", inline="always")
def _disc_fixed(st, ist, i, is_peg, k, t, decel, spin_decel, r, cushion_segments, cushion_circles, pegs):
    """Bounce disc i off peg k or cushion k at time t; returns True if that cushion kills."""
    xi, yi, vx, vy, w = _state(st, ist, i, t, decel, spin_decel)
    n_seg = cushion_segments.shape[0]
    if is_peg:
        nx = xi - pegs[k, 0]
        ny = yi - pegs[k, 1]
        e, mu_c, kills = pegs[k, 3], pegs[k, 4], 0.0
    elif k < n_seg:
        # Normal from the nearest point of the cushion's segment to the centre.
        ex = cushion_segments[k, 2] - cushion_segments[k, 0]
        ey = cushion_segments[k, 3] - cushion_segments[k, 1]
        u = min(max(((xi - cushion_segments[k, 0]) * ex + (yi - cushion_segments[k, 1]) * ey) / (ex * ex + ey * ey), 0.0), 1.0)
        nx = xi - (cushion_segments[k, 0] + u * ex)
        ny = yi - (cushion_segments[k, 1] + u * ey)
        e, mu_c, kills = cushion_segments[k, 5], cushion_segments[k, 6], cushion_segments[k, 7]
    else:
        nx = cushion_circles[k - n_seg, 0] - xi
        ny = cushion_circles[k - n_seg, 1] - yi
        e, mu_c, kills = cushion_circles[k - n_seg, 3], cushion_circles[k - n_seg, 4], cushion_circles[k - n_seg, 5]
    norm = math.sqrt(nx * nx + ny * ny)
    vx, vy, w = fixed_body_impulse(vx, vy, w, nx / norm, ny / norm, r, e, mu_c)
    _restart(st, ist, i, t, xi, yi, vx, vy, w, decel, spin_decel)
    return kills != 0.0


@njit(cache=True, error_model="numpy")
def run_scene(ka, st, ist, pair_t, touched, ev_t, ev_i, seg_t, seg_i, seg_f, max_events):
    """Run the discs loaded into ``st``/``ist`` (see ``load_disc``) until every one is at rest or gone.

    ``ka`` is the court's ``KernelArrays``. Returns (events logged, segments logged, ok, end time,
    events processed); ``ok`` is False if ``max_events`` events were processed before the end.
    """
    r = ka.disc_radius
    decel, spin_decel = decelerations(ka.mu, ka.gravity, r)
    fall_segments = ka.fall_segments
    fall_circles = ka.fall_circles
    cushion_segments = ka.cushion_segments
    cushion_circles = ka.cushion_circles
    pegs = ka.pegs
    holes = ka.holes
    kill_lines = ka.kill_lines
    n = st.shape[1]
    now = 0.0
    # Counters start as int64 values, not literals, so each helper compiles for one signature.
    n_ev = np.int64(0)
    n_seg = np.int64(0)
    for i in range(n):
        touched[i] = False
        n_seg = _log_segment(st, ist, seg_t, seg_i, seg_f, n_seg, i, now, decel, spin_decel)
        _predict_boundary(st, ist, i, decel, r, fall_segments, fall_circles, cushion_segments, cushion_circles,
                          pegs, holes)
        _predict_kill(st, ist, i, decel, kill_lines)
    for i in range(n):
        for j in range(i + 1, n):
            pair_t[i, j] = _predict_pair(st, ist, i, j, now, decel, 2.0 * r)
    ok = True
    processed = 0
    while True:
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
            now = t
        b_dead = ist[DEAD, b] if kind == DISC_DISC else 0
        n_ev = _log_event(ev_t, ev_i, n_ev, now, kind, a, b, ist[DEAD, a], b_dead)
        moved = a  # the disc whose motion changed (also b after a disc-disc impact)
        if kind == DISC_DISC:
            touched[a] = True
            touched[b] = True
            _disc_disc(st, ist, a, b, now, decel, spin_decel, r, ka.disc_restitution, ka.disc_friction)
            n_seg = _log_segment(st, ist, seg_t, seg_i, seg_f, n_seg, b, now, decel, spin_decel)
        elif kind == DISC_CUSHION or kind == DISC_PEG:
            kills = _disc_fixed(st, ist, a, kind == DISC_PEG, b, now, decel, spin_decel, r, cushion_segments,
                                cushion_circles, pegs)
            if kills and ist[DEAD, a] == 0:
                ist[DEAD, a] = 1
                n_ev = _log_event(ev_t, ev_i, n_ev, now, KILLED, a, -1, 0, 0)
        elif kind == STOP:
            x, y, _, _, w = _state(st, ist, a, now, decel, spin_decel)
            _restart(st, ist, a, now, x, y, 0.0, 0.0, w, decel, spin_decel)
        elif kind == FALL or kind == HOLED:
            # Out of play: a fallen disc where it crossed the edge, a holed one at the hole's centre.
            x, y = position_at(st, a, now, decel)
            if kind == HOLED:
                x = holes[b, 0]
                y = holes[b, 1]
            set_reference(st, a, now, x, y, 0.0, 0.0, 0.0, decel, spin_decel)
            ist[STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
        elif kind == KILLED:
            ist[DEAD, a] = 1
            st[T_KILL, a] = math.inf
            moved = -1
        else:  # SPIN_STOP: the reference spin already decays to exactly zero by then
            st[T_SPIN, a] = math.inf
            moved = -1
        if moved < 0:
            continue
        n_seg = _log_segment(st, ist, seg_t, seg_i, seg_f, n_seg, a, now, decel, spin_decel)
        # Predict again everything about the discs whose motion changed, and their pairs.
        for m in range(2 if kind == DISC_DISC else 1):
            i = a if m == 0 else b
            _predict_boundary(st, ist, i, decel, r, fall_segments, fall_circles, cushion_segments, cushion_circles,
                              pegs, holes)
            _predict_kill(st, ist, i, decel, kill_lines)
            for k in range(n):
                if k < i:
                    pair_t[k, i] = _predict_pair(st, ist, k, i, now, decel, 2.0 * r)
                elif k > i:
                    pair_t[i, k] = _predict_pair(st, ist, i, k, now, decel, 2.0 * r)
    return n_ev, n_seg, ok, now, processed
