"""The crokinole rollouts' quick plan, compiled: a straight take-out of an opponent disc, or the open 20.

With opponent discs on the board, a straight take-out of the one with the best chance of a hit among
the ``TARGETS`` nearest the centre, along its clearest line for the shooter's direction error
(``lines.best_line``), hard enough to send it ``TAKEOUT_EXTRA`` past the ditch's edge
(``repertoire.strike_speed``'s closed form); with none in reach, or none on the board, the open 20
(``intents.hole_overshoot``: the speed that centres the hole's window). ``crokinole_rollout`` plays it.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.playing.players.launch import clearest_start, stance_point, straight_launch
from shuffle_sim.playing.players.lines import add_fixed, best_line

#: Opponent discs (nearest the centre first) the quick plan tries to take out.
TARGETS = 2
#: Starts along the arc the quick plan's take-out line is chosen from (besides the preferred one).
LINE_STARTS = 4
#: How far past the ditch's edge (m) the quick plan's take-out sends its target.
TAKEOUT_EXTRA = 0.15
#: What a hit on another opponent disc counts for when the quick plan picks its line.
OTHER_DISC_WEIGHT = 0.5
#: Speed (m past the target) the line is judged at, as ``repertoire.LINE_REACH``.
LINE_REACH = 0.3


@jit.inline
def _obstacles(bx, by, n, fixed, radius, ox, oy, reach, slow):
    """The first ``n`` board discs and the fixed obstacles (``fixed``: the pegs and the hole) into the
    obstacle arrays; returns their number."""
    for i in range(n):
        ox[i] = bx[i]
        oy[i] = by[i]
        reach[i] = 2.0 * radius
        slow[i] = math.inf
    return add_fixed(fixed, n, ox, oy, reach, slow)


@jit.inline
def _takeout_speed(stance, t, ux, uy, tx, ty, numbers):
    """The launch speed from the stance at ``t`` along (ux, uy) that sends the disc at (tx, ty)
    ``TAKEOUT_EXTRA`` past the ditch's edge: its slide out, the contact speed that gives it (an impact
    of restitution e between equal discs), and the slide to the contact."""
    radius = numbers[0]
    decel = numbers[1]
    restitution = numbers[2]
    ecx, ecy, edge_r = numbers[3], numbers[4], numbers[5]
    sx, sy = stance_point(stance, t)
    dx = tx - ecx
    dy = ty - ecy
    b = dx * ux + dy * uy
    c = dx * dx + dy * dy - edge_r * edge_r
    slide = -b + math.sqrt(b * b - c) if c < 0.0 else radius
    contact = 2.0 * math.sqrt(2.0 * decel * max(slide + TAKEOUT_EXTRA, 0.0)) / (1.0 + restitution)
    d = math.hypot(tx - sx, ty - sy)
    return math.sqrt(contact * contact + 2.0 * decel * max(d - 2.0 * radius, 0.0))


@jit.kernel
def _plan(stance, team, bx, by, side, n, numbers, sigma, fixed, obstacles):
    """The quick plan's launch (t, vx, vy) for ``team`` from ``stance`` (module docstring). ``fixed``:
    the pegs and the hole (x, y, reach, capture speed); ``obstacles``: scratch for them and the discs
    (x, y, reach, capture speed, whether a hit on it is good)."""
    ox, oy, reach, slow, good = obstacles
    radius = numbers[0]
    decel = numbers[1]
    hx, hy, capture_r, capture_v = numbers[6], numbers[7], numbers[8], numbers[9]
    m = _obstacles(bx, by, n, fixed, radius, ox, oy, reach, slow)
    any_opponent = False
    for i in range(m):
        good[i] = i < n and side[i] != team
        any_opponent = any_opponent or good[i]
    if any_opponent:
        best_p = 0.0
        best_t = -1.0
        best_angle = 0.0
        best_i = -1
        tried = np.zeros(n, np.bool_)
        for _ in range(TARGETS):
            pick = np.int64(-1)
            pick_r = math.inf
            for i in range(n):
                if good[i] and not tried[i]:
                    r = math.hypot(bx[i] - hx, by[i] - hy)
                    if r < pick_r:
                        pick_r = r
                        pick = i
            if pick < 0:
                break
            tried[pick] = True
            t, angle, p, _ = best_line(
                stance,
                0.5,
                np.int64(LINE_STARTS),
                bx[pick],
                by[pick],
                pick,
                LINE_REACH,
                decel,
                radius,
                sigma,
                OTHER_DISC_WEIGHT,
                good[:m],
                ox[:m],
                oy[:m],
                reach[:m],
                slow[:m],
                reach[:m],
            )
            if t >= 0.0 and p > best_p:
                best_p = p
                best_t = t
                best_angle = angle
                best_i = pick
        if best_i >= 0:
            ux = math.cos(best_angle)
            uy = math.sin(best_angle)
            speed = _takeout_speed(stance, best_t, ux, uy, bx[best_i], by[best_i], numbers)
            return best_t, speed * ux, speed * uy
    # the open 20
    hole_index = m - 1
    t = clearest_start(stance, 0.5, 13, hx, hy, ox[:m], oy[:m], reach[:m], hole_index)
    if t < 0.0:
        t = 0.5
    sx, sy = stance_point(stance, t)
    near = max(math.hypot(hx - sx, hy - sy) - capture_r, 0.0)
    extra = math.sqrt(near * (near + capture_v * capture_v / (2.0 * decel))) - math.hypot(hx - sx, hy - sy)
    _, _, vx, vy = straight_launch(stance, t, hx, hy, extra, decel)
    return t, vx, vy
