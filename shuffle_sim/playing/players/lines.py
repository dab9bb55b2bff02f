"""Lines of fire in numba: which disc a straight shot touches first, and the start and aim along a
shooting arc that give a take-out its best chance under the shooter's own direction error.

A disc launched from S along the unit direction u touches obstacle i (a resting disc: reach 2 r; a
peg: r + its radius) at the smallest s > 0 with |S + s u - O_i| = reach_i, if it is still moving
there (s < v0^2 / (2 mu g)). A hole is in the way only where the disc crosses it no faster than the
hole's capture speed (``physics``: a hole takes a disc whose centre is over it while it is that
slow), so a firm take-out passes straight over the 20 hole while a slow draw would drop in.

A straight take-out of disc k from start t hits it for every direction whose first contact is disc
k: a window of angles, narrowed or cut in pieces by the discs and pegs in the way. A shooter with
direction error sigma (normal) aimed at angle a hits with probability
P(a) = sum over the window of the normal density of (angle - a) / sigma, computed on a grid of
angles. ``best_line`` tries every start of the stance and every aim on the grid and returns the
pair with the largest P: the clearest line for this shooter, which is the centre of a wide open
window, or the middle of a gap between a peg and a disc when the target is partly hidden.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.playing.players.launch import stance_point

#: Flags of a direction on the angle grid: what the disc touches first.
LINE_MISS = 0
LINE_OTHER = 1  # another disc of the wanted set (an opponent disc: it satisfies the hit rule)
LINE_TARGET = 2
#: Direction error (rad) assumed by a noise-free shooter: the aim is still the middle of the window.
SIGMA_FLOOR = math.radians(0.3)
#: Angles on the grid across a target's window (and as many again spread over 3 sigma either side).
WINDOW_ANGLES = 41


@jit.inline
def add_fixed(fixed, start, ox, oy, reach, slow):
    """Enter the fixed obstacles (``fixed``: x, y, reach, capture speed, as ``fixed_obstacles`` gives
    them) after the first ``start`` entries of the obstacle arrays; returns the obstacles' number."""
    fixed_x, fixed_y, fixed_reach, fixed_slow = fixed
    for j in range(fixed_x.shape[0]):
        ox[start + j] = fixed_x[j]
        oy[start + j] = fixed_y[j]
        reach[start + j] = fixed_reach[j]
        slow[start + j] = fixed_slow[j]
    return start + fixed_x.shape[0]


@jit.kernel
def first_contact(sx, sy, ux, uy, v0sq, decel, ox, oy, reach, slow, skip):
    """(index, distance) of the first obstacle a disc from (sx, sy) along unit (ux, uy) touches.

    ``v0sq``: the launch speed squared (the disc stops after v0sq / (2 decel)); obstacle i blocks
    only where the disc is no faster than ``slow[i]`` (inf for discs and pegs, the capture speed for
    holes); ``skip[i]`` obstacles are ignored. (-1, inf) if nothing is touched.
    """
    best = -1
    best_s = math.inf
    stop = v0sq / (2.0 * decel) if decel > 0.0 else math.inf
    for i in range(ox.shape[0]):
        if skip[i]:
            continue
        dx = ox[i] - sx
        dy = oy[i] - sy
        b = dx * ux + dy * uy
        c = dx * dx + dy * dy - reach[i] * reach[i]
        if b <= 0.0:
            continue
        disc = b * b - c
        if disc < 0.0:
            continue
        s = b - math.sqrt(disc)
        if s < 0.0:
            s = 0.0
        if s >= stop or s >= best_s:
            continue
        if slow[i] < math.inf:
            speed_sq = v0sq - 2.0 * decel * s
            if speed_sq > slow[i] * slow[i]:
                continue
        best = i
        best_s = s
    return best, best_s


@jit.kernel
def window_flags(sx, sy, angles, v0sq, decel, target, good, ox, oy, reach, slow, skip, out):
    """``out[j]``: what a disc from (sx, sy) at ``angles[j]`` touches first (``LINE_*``)."""
    for j in range(angles.shape[0]):
        ux = math.cos(angles[j])
        uy = math.sin(angles[j])
        i, _ = first_contact(sx, sy, ux, uy, v0sq, decel, ox, oy, reach, slow, skip)
        if i == target:
            out[j] = LINE_TARGET
        elif i >= 0 and good[i]:
            out[j] = LINE_OTHER
        else:
            out[j] = LINE_MISS


@jit.inline
def _start_window(stance, t, tx, ty, disc_radius, ox, oy, start_reach):
    """The start at stance parameter ``t`` and the target's hit window seen from it: (usable, sx, sy,
    distance to the target, direction of its centre, half-width of the window). Not usable when the
    start lies too near an obstacle (``start_reach``) or touches the target."""
    sx, sy = stance_point(stance, t)
    for i in range(ox.shape[0]):
        if (sx - ox[i]) ** 2 + (sy - oy[i]) ** 2 < start_reach[i] * start_reach[i]:
            return False, sx, sy, 0.0, 0.0, 0.0
    d = math.hypot(tx - sx, ty - sy)
    if d <= 2.0 * disc_radius:
        return False, sx, sy, d, 0.0, 0.0
    return True, sx, sy, d, math.atan2(ty - sy, tx - sx), math.asin(min(1.0, 2.0 * disc_radius / d))


@jit.kernel
def best_line(
    stance,
    preferred,
    samples,
    tx,
    ty,
    target,
    extra,
    decel,
    disc_radius,
    sigma,
    other_weight,
    good,
    ox,
    oy,
    reach,
    slow,
    start_reach,
):
    """The start and aim of a straight take-out of obstacle ``target`` (at tx, ty) most likely to hit it.

    Starts: the stance's ``preferred`` parameter and ``samples`` evenly spaced ones, each free of the
    obstacles (``start_reach``: how near an obstacle a start may lie). The launch speed slides
    ``extra`` metres past the target's centre. Score of an aim: P(first contact is the target) plus
    ``other_weight`` times P(first contact is another ``good`` disc), under a normal direction error
    ``sigma`` (at least ``SIGMA_FLOOR``). Ties go to the fuller hit, then to the start nearest
    ``preferred``. Returns (t, aim angle, P(target), P(target or another good disc)); t = -1 when no
    start can touch the target at all.
    """
    sigma = max(sigma, SIGMA_FLOOR)
    n = ox.shape[0]
    skip = np.zeros(n, dtype=np.bool_)
    best_t = -1.0
    best_angle = 0.0
    best_score = -1.0
    best_p = 0.0
    best_any = 0.0
    best_full = math.inf
    best_off = math.inf
    flags = np.empty(0, dtype=np.int64)
    for k in range(samples + 1):
        t = preferred if k == 0 else (k - 1) / (samples - 1)
        usable, sx, sy, d, centre, half = _start_window(stance, t, tx, ty, disc_radius, ox, oy, start_reach)
        if not usable:
            continue
        step = 2.0 * half / (WINDOW_ANGLES - 1)
        spread = math.ceil(3.0 * sigma / step)
        m = WINDOW_ANGLES + 2 * spread
        angles = centre - half - spread * step + step * np.arange(m)
        if flags.shape[0] != m:
            flags = np.empty(m, dtype=np.int64)
        v0sq = 2.0 * decel * (d + extra)
        window_flags(sx, sy, angles, v0sq, decel, target, good, ox, oy, reach, slow, skip, flags)
        weights = np.exp(-0.5 * ((np.arange(-m + 1, m) * step) / sigma) ** 2) * step / (sigma * math.sqrt(2 * math.pi))
        for a in range(m):
            if flags[a] != LINE_TARGET:
                continue
            p = 0.0
            q = 0.0
            for j in range(m):
                if flags[j] == LINE_TARGET:
                    p += weights[j - a + m - 1]
                elif flags[j] == LINE_OTHER:
                    q += weights[j - a + m - 1]
            score = p + other_weight * q
            full = abs(angles[a] - centre)
            off = abs(t - preferred)
            better = score > best_score + 1e-9
            if not better and abs(score - best_score) <= 1e-9:
                better = full < best_full - 1e-12 or (abs(full - best_full) <= 1e-12 and off < best_off)
            if better:
                best_t = t
                best_angle = angles[a]
                best_score = score
                best_p = p
                best_any = p + q
                best_full = full
                best_off = off
    return best_t, best_angle, best_p, best_any


@jit.kernel
def visible_fraction(stance, samples, tx, ty, target, extra, decel, disc_radius, ox, oy, reach, slow, start_reach):
    """How much of board disc ``target`` a straight shot can see: the largest fraction, over the starts
    of the stance, of its hit window (the directions passing within 2 r of its centre) whose first
    contact is the target. 1: a clear line; between 0 and 1: partly hidden; 0: fully hidden."""
    n = ox.shape[0]
    skip = np.zeros(n, dtype=np.bool_)
    good = np.zeros(n, dtype=np.bool_)
    flags = np.empty(WINDOW_ANGLES, dtype=np.int64)
    best = 0.0
    for k in range(samples):
        t = k / (samples - 1)
        usable, sx, sy, d, centre, half = _start_window(stance, t, tx, ty, disc_radius, ox, oy, start_reach)
        if not usable:
            continue
        # the window's open ends just inside its edges: a grazing line counts
        angles = centre - 0.98 * half + (1.96 * half / (WINDOW_ANGLES - 1)) * np.arange(WINDOW_ANGLES)
        window_flags(sx, sy, angles, 2.0 * decel * (d + extra), decel, target, good, ox, oy, reach, slow, skip, flags)
        seen = 0
        for j in range(WINDOW_ANGLES):
            if flags[j] == LINE_TARGET:
                seen += 1
        best = max(best, seen / WINDOW_ANGLES)
    return best
