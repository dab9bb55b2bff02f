"""Predictions of pairs: when two discs next meet, in the closed-form motion or the coupled one.

Two sliding discs in the closed form meet at the earliest root of a quartic (``_toi.quartic_entry``);
a sliding disc meets a resting one where its straight path says. When one of two sliding discs is in
the coupled motion, a conservative advancement finds the contact without ever stepping over it
(``coupled_pair_entry``). Every prediction is made from the discs' reference states (``slide``),
so it stays valid until the motion of one of its discs changes.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.tolerances import APPROACH_TOL, CONTACT_GAP, OVERLAP_SLACK
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_MOVING
from shuffle_sim.physics.face_friction import force
from shuffle_sim.physics.laws.closed_form import slide
from shuffle_sim.physics.laws.closed_form.coupled import MODE_SLIDE_LIMIT, MODE_SPIN_LIMIT, _meta
from shuffle_sim.physics.laws.closed_form.predict import path_reach
from shuffle_sim.physics.laws.closed_form.toi import circle_entry, paths_apart, point_beyond_path, quartic_entry
from shuffle_sim.physics.state import STATUS
from shuffle_sim.physics.tables.orbit_layout import M_ETA, M_FV_STAR

#: Bound on the steps of the coupled pair search (each one evaluates both discs once).
PAIR_SEARCH_STEPS = 2000
#: The coupled pair search stops this close (s) to the contact it converges on.
PAIR_TIME_TOL = 1e-12
#: Shares of the present gap that the pair search's error bound E h^2 may take: a long step to rule
#: out a contact, the usual step to close in on one (``coupled_pair_entry``).
LONG_STEP_SHARE = 0.9
STEP_SHARE = 0.5


@jit.inline
def _force_range(orbit_tables, radius, eta, st, i, speed, w):
    """(least, greatest) F disc i can feel from now to its stop: eps runs monotonically from its
    present value to its end (eps*, or infinity in the pure-slide limit), and F is monotone in eps."""
    mode = int(st[slide.MODE, i])
    if mode < 0 or mode == MODE_SLIDE_LIMIT or w == 0.0:
        return 1.0, 1.0
    f_now = force(speed / (radius * abs(w)), eta)
    f_end = 1.0 if mode == MODE_SPIN_LIMIT else _meta(orbit_tables, M_FV_STAR)  # f_v* = F(eps*)
    return min(f_now, f_end), max(f_now, f_end)


@jit.no_refcount
def coupled_pair_entry(orbit_tables, radius, eta, st, i, j, now, t_end, decel, spin_decel, rho, si, vi, wi, sj, vj, wj):
    """Earliest t in [now, t_end] at which discs i and j (both sliding, at least one in the coupled
    motion) come within ``rho`` (their distance at ``now`` is above it); inf if they do not.
    (si, vi, wi) and (sj, vj, wj) are their distances slid, speeds and spins at ``now``
    (``_motion.disc_motion_call``), which the caller has at hand.

    Conservative advancement. From the search's start to its stop, each disc's deceleration lies
    between decel F_lo and decel F_hi (``_force_range``, evaluated once: eps only moves on toward its
    end, so the range at the start holds throughout). Then from the exact state at any t of the
    search, the distance slid after tau differs from the parabola of the mean deceleration by at most
    decel (F_hi - F_lo) tau^2 / 4. Over a step h the true separation is therefore at least that of
    the two mean parabolas (a quartic, ``_toi.quartic_entry``) less E h^2; no contact can come before
    the quartic reaches rho + E h^2, so t advances to there (or by h if it never does). h keeps E h^2
    at 0.9 of the gap (a long step that rules out a contact at once), or at half of it when the
    bound meets rho within the long step, so the steps shorten as the discs close in, and the search ends within
    ``PAIR_TIME_TOL`` of the contact. Paths that stay farther apart than rho from here to their stops
    (``_toi.paths_apart``) end the search before it starts.
    """
    if (
        st[slide.UX, i] == st[slide.UX, j]
        and st[slide.UY, i] == st[slide.UY, j]
        and st[slide.SPEED, i] == st[slide.SPEED, j]
        and st[slide.OMEGA, i] == st[slide.OMEGA, j]
        and st[slide.T0, i] == st[slide.T0, j]
        and st[slide.MODE, i] == st[slide.MODE, j]
    ):
        return math.inf  # one motion (a group moving as one): their separation never changes
    left_i = path_reach(st, i, decel) - si
    left_j = path_reach(st, j, decel) - sj
    if paths_apart(
        st[slide.PX, i] + st[slide.UX, i] * si,
        st[slide.PY, i] + st[slide.UY, i] * si,
        st[slide.UX, i],
        st[slide.UY, i],
        max(left_i, 0.0),
        st[slide.PX, j] + st[slide.UX, j] * sj,
        st[slide.PY, j] + st[slide.UY, j] * sj,
        st[slide.UX, j],
        st[slide.UY, j],
        max(left_j, 0.0),
        rho,
    ):
        return math.inf
    lo_i, hi_i = _force_range(orbit_tables, radius, eta, st, i, vi, wi)
    lo_j, hi_j = _force_range(orbit_tables, radius, eta, st, j, vj, wj)
    spread = 0.25 * decel * (hi_i - lo_i + hi_j - lo_j)
    ax = 0.25 * decel * ((lo_i + hi_i) * st[slide.UX, i] - (lo_j + hi_j) * st[slide.UX, j])
    ay = 0.25 * decel * ((lo_i + hi_i) * st[slide.UY, i] - (lo_j + hi_j) * st[slide.UY, j])
    t = now
    for step in range(PAIR_SEARCH_STEPS):
        if step > 0:
            si, vi, _ = slide.disc_motion_call(orbit_tables, radius, st, i, t, decel, spin_decel)
            sj, vj, _ = slide.disc_motion_call(orbit_tables, radius, st, j, t, decel, spin_decel)
        cx = st[slide.PX, j] + st[slide.UX, j] * sj - st[slide.PX, i] - st[slide.UX, i] * si
        cy = st[slide.PY, j] + st[slide.UY, j] * sj - st[slide.PY, i] - st[slide.UY, i] * si
        gap = math.sqrt(cx * cx + cy * cy) - rho
        if gap <= 0.0:
            return t
        left = t_end - t
        if left <= 0.0:
            return math.inf
        bx = vj * st[slide.UX, j] - vi * st[slide.UX, i]
        by = vj * st[slide.UY, j] - vi * st[slide.UY, i]
        if spread == 0.0:
            h = left
            tau = quartic_entry(cx, cy, bx, by, ax, ay, rho, h)
        else:
            # A long step first (E h^2 at 0.9 of the gap): most searches end without a contact. If
            # the bound meets rho within it, the usual step (half the gap) advances farther.
            h = min(left, math.sqrt(LONG_STEP_SHARE * gap / spread))
            tau = quartic_entry(cx, cy, bx, by, ax, ay, rho + spread * h * h, h)
            if tau != math.inf:
                h = min(left, math.sqrt(STEP_SHARE * gap / spread))
                tau = quartic_entry(cx, cy, bx, by, ax, ay, rho + spread * h * h, h)
        if tau == math.inf:
            t += h
        elif spread == 0.0:
            return t + tau  # exact parabolas: the quartic's root is the contact
        else:
            if tau <= PAIR_TIME_TOL:
                return t + tau
            t += tau
    # The step bound was reached still short of a contact (discs grazing side by side for long):
    # no contact is claimed.
    return math.inf


@jit.inline
def touching_pair_entry(cx, cy, bx, by, ax, ay, dist, contact, window):
    """When two touching discs in the closed-form motion, not approaching, meet (from now): once
    pushed into an overlap of OVERLAP_SLACK, or, if they part first, when they come back to contact.
    Measuring the return from the present overlap instead would let each bounce of a pair that parts
    and returns (friction turning them together) sink it OVERLAP_SLACK deeper: the physics fuzz found
    resting pairs overlapping by ten bounces' worth, just over 1e-9 m."""
    pushed = quartic_entry(cx, cy, bx, by, ax, ay, min(contact, dist) - OVERLAP_SLACK, window)
    return min(pushed, quartic_entry(cx, cy, bx, by, ax, ay, contact, window))


#: Times at which ``coupled_pair_return`` looks for a touching pair to have parted.
RETURN_SAMPLES = 32


@jit.inline
def coupled_pair_return(orbit_tables, radius, eta, st, i, j, now, t_end, decel, spin_decel, rho, apart):
    """Earliest t in [now, t_end] at which discs i and j, touching at ``now``, come back within ``rho``
    after parting: the first of ``RETURN_SAMPLES`` evenly spaced times at which they are farther than
    ``apart`` (> rho) from each other, then ``coupled_pair_entry`` from there; inf if no sample sees
    them parted. A pair that never parts by more than ``apart`` is still touching (``_toi.CONTACT_GAP``):
    it meets again only when pushed into an overlap, which the pushed-contact search finds; searching
    for a return from a gap at the level of rounding would find one every few nanoseconds, an endless
    chain of empty impacts (the physics fuzz found such a pair sliding along each other). A return
    between two samples is caught the same way, later by at most the overlap slack."""
    if not t_end > now:
        return math.inf
    h = (t_end - now) / RETURN_SAMPLES
    for k in range(1, RETURN_SAMPLES + 1):
        t = now + k * h
        si, vi, wi = slide.disc_motion_call(orbit_tables, radius, st, i, t, decel, spin_decel)
        sj, vj, wj = slide.disc_motion_call(orbit_tables, radius, st, j, t, decel, spin_decel)
        cx = st[slide.PX, j] + st[slide.UX, j] * sj - st[slide.PX, i] - st[slide.UX, i] * si
        cy = st[slide.PY, j] + st[slide.UY, j] * sj - st[slide.PY, i] - st[slide.UY, i] * si
        if math.sqrt(cx * cx + cy * cy) > apart:
            return coupled_pair_entry(
                orbit_tables, radius, eta, st, i, j, t, t_end, decel, spin_decel, rho, si, vi, wi, sj, vj, wj
            )
    return math.inf


@jit.no_refcount
def predict_pair(st, ist, i, j, now, decel, contact):
    """Time of the next impact of discs i and j after ``now`` (inf if none while they slide), both in
    the closed-form motion (``MODE`` -1; ``coupled_predict_pair`` otherwise).

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
        xi, yi = slide.position_at(st, i, now, decel)
        xj, yj = slide.position_at(st, j, now, decel)
        vi = slide.speed_at(st, i, now, decel)
        vj = slide.speed_at(st, j, now, decel)
        cx = xj - xi
        cy = yj - yi
        bx = vj * st[slide.UX, j] - vi * st[slide.UX, i]
        by = vj * st[slide.UY, j] - vi * st[slide.UY, i]
        ax = 0.5 * decel * (st[slide.UX, i] - st[slide.UX, j])
        ay = 0.5 * decel * (st[slide.UY, i] - st[slide.UY, j])
        dist = math.sqrt(cx * cx + cy * cy)
        window = min(st[slide.T_STOP, i], st[slide.T_STOP, j]) - now
        if dist - contact <= CONTACT_GAP:
            if bx * cx + by * cy < -APPROACH_TOL * dist:
                return now
            return now + touching_pair_entry(cx, cy, bx, by, ax, ay, dist, contact, window)
        return now + quartic_entry(cx, cy, bx, by, ax, ay, contact, window)
    mover = i if moving_i else j
    fixed = j if moving_i else i
    qx, qy = slide.position_at(st, mover, now, decel)
    speed = slide.speed_at(st, mover, now, decel)
    reach = slide.stopping_distance(speed, decel)
    s = circle_entry(
        qx,
        qy,
        st[slide.UX, mover],
        st[slide.UY, mover],
        speed,
        st[slide.PX, fixed],
        st[slide.PY, fixed],
        contact,
        reach,
    )
    if s > reach:
        return math.inf
    return now + slide.time_to_slide(speed, decel, s)


@jit.no_refcount
def coupled_predict_pair(orbit_tables, st, ist, i, j, now, decel, spin_decel, contact):
    """``predict_pair`` when disc i or j is in the coupled motion (``MODE`` >= 0).

    Where every moving disc of the pair is in the closed form, this is ``predict_pair``; otherwise
    two sliding discs meet where ``coupled_pair_entry`` finds it, and a sliding disc meets a resting
    one where its straight path says, at the time its motion gives.
    """
    si = ist[STATUS, i]
    sj = ist[STATUS, j]
    if si >= STATUS_FALLEN or sj >= STATUS_FALLEN:
        return math.inf
    moving_i = si == STATUS_MOVING
    moving_j = sj == STATUS_MOVING
    if not (moving_i or moving_j):
        return math.inf
    radius_disc = 0.5 * contact
    mover = i if moving_i else j
    fixed = j if moving_i else i
    if (moving_i and moving_j and st[slide.MODE, i] < 0 and st[slide.MODE, j] < 0) or (
        not (moving_i and moving_j) and st[slide.MODE, mover] < 0
    ):
        return predict_pair(st, ist, i, j, now, decel, contact)  # every moving disc in the closed form
    # Paths that never come within contact (plus the touching tolerance) need no motion at all: the
    # straight paths from the reference states to the stops hold every position still to come.
    near = contact + 2.0 * CONTACT_GAP
    if moving_i and moving_j:
        if paths_apart(
            st[slide.PX, i],
            st[slide.PY, i],
            st[slide.UX, i],
            st[slide.UY, i],
            path_reach(st, i, decel),
            st[slide.PX, j],
            st[slide.PY, j],
            st[slide.UX, j],
            st[slide.UY, j],
            path_reach(st, j, decel),
            near,
        ):
            return math.inf
    elif point_beyond_path(
        st[slide.PX, mover],
        st[slide.PY, mover],
        st[slide.UX, mover],
        st[slide.UY, mover],
        st[slide.REACH, mover],
        st[slide.PX, fixed],
        st[slide.PY, fixed],
        near,
    ):
        return math.inf
    if moving_i and moving_j:
        s_i, vi, wi = slide.disc_motion_call(orbit_tables, radius_disc, st, i, now, decel, spin_decel)
        s_j, vj, wj = slide.disc_motion_call(orbit_tables, radius_disc, st, j, now, decel, spin_decel)
        xi = st[slide.PX, i] + st[slide.UX, i] * s_i
        yi = st[slide.PY, i] + st[slide.UY, i] * s_i
        xj = st[slide.PX, j] + st[slide.UX, j] * s_j
        yj = st[slide.PY, j] + st[slide.UY, j] * s_j
        cx = xj - xi
        cy = yj - yi
        bx = vj * st[slide.UX, j] - vi * st[slide.UX, i]
        by = vj * st[slide.UY, j] - vi * st[slide.UY, i]
        dist = math.sqrt(cx * cx + cy * cy)
        window = min(st[slide.T_STOP, i], st[slide.T_STOP, j]) - now
        eta = _meta(orbit_tables, M_ETA)
        if dist - contact <= CONTACT_GAP:
            if bx * cx + by * cy < -APPROACH_TOL * dist:
                return now
            # Touching, not approaching: they collide once pushed into an overlap of OVERLAP_SLACK, or,
            # once parted by more than the touching tolerance, when they come back to contact
            # (``coupled_pair_return``; ``touching_pair_entry`` for the closed form).
            pushed = coupled_pair_entry(
                orbit_tables,
                radius_disc,
                eta,
                st,
                i,
                j,
                now,
                now + window,
                decel,
                spin_decel,
                min(contact, dist) - OVERLAP_SLACK,
                s_i,
                vi,
                wi,
                s_j,
                vj,
                wj,
            )
            back = coupled_pair_return(
                orbit_tables,
                radius_disc,
                eta,
                st,
                i,
                j,
                now,
                now + window,
                decel,
                spin_decel,
                contact,
                contact + CONTACT_GAP,
            )
            return min(pushed, back)
        # The coupled search needs a finite window; without friction nothing is coupled.
        return coupled_pair_entry(
            orbit_tables,
            radius_disc,
            eta,
            st,
            i,
            j,
            now,
            now + window,
            decel,
            spin_decel,
            contact,
            s_i,
            vi,
            wi,
            s_j,
            vj,
            wj,
        )
    # Coupled: along the straight path from where the disc is now, in arc length, then its time.
    done, speed, _ = slide.disc_motion_call(orbit_tables, radius_disc, st, mover, now, decel, spin_decel)
    left = st[slide.REACH, mover] - done
    s = circle_entry(
        st[slide.PX, mover] + st[slide.UX, mover] * done,
        st[slide.PY, mover] + st[slide.UY, mover] * done,
        st[slide.UX, mover],
        st[slide.UY, mover],
        speed,
        st[slide.PX, fixed],
        st[slide.PY, fixed],
        contact,
        left,
    )
    if s > left:
        return math.inf
    if s == 0.0:
        return now
    t = st[slide.T0, mover] + slide.time_for_distance(
        orbit_tables,
        radius_disc,
        int(st[slide.MODE, mover]),
        st[slide.SIGMA0, mover],
        st[slide.REACH, mover],
        st[slide.THETA, mover],
        st[slide.SPEED, mover],
        st[slide.OMEGA, mover],
        decel,
        done + s,
    )
    return max(t, now)
