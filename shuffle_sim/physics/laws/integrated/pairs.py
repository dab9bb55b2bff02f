"""When two discs on a curved court first touch: a search in time on both discs' present steps.

Each moving body holds its present step and that step's dense output (``state``), each in its
own regularised variable; a disc's position at a time t comes from its body's dense output at the
fraction of the step where the body's time is t (``curved_state.theta_at``). Two discs of different
bodies meet where their relative position d(t) = p_b(t) - p_a(t) has length ``rho`` (twice the
radius, or a shorter target under the contact rules of ``toi``). Every body accelerates at most its
A until its next event (``state.body_acceleration``), so over a stretch of duration T the relative path departs from
the chord between its ends by at most 2 A T^2 / 8 (A T^2 / 8 if one of them rests); a stretch whose
widened chord stays out of the circle of radius rho about the origin holds no contact. The search
(``pair_entry``) tries the whole window, halves what it cannot clear, doubles after each stretch it
clears, and brackets the first contact where the gap at a stretch's end is no longer positive; the
root is polished by the Illinois method. A disc finishing its slide in closed form moves less than
``curved_state.FINISH_LENGTH`` in a straight line, which the bound includes.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.laws.integrated.state import (
    C_ACCEL,
    C_FINISH,
    C_OFFSET,
    C_Y,
    FINISH_LENGTH,
    I_PHASE,
    PHASE_FINISH,
    PHASE_STEP,
    dense_row,
    theta_at,
)
from shuffle_sim.physics.state import LEADER

#: Slack (m) of the bound, for the dense output's own error (as ``curved_events.DENSE_SLACK``).
PAIR_SLACK = 1e-9
#: Bounds on the search's and polish's iterations (never reached in the tests; bounds, not tolerances).
MAX_SEARCH = 4000
MAX_POLISH = 200
#: Stretches shorter than this (s) are not split again.
MIN_STRETCH = 1e-14


@jit.no_refcount
def disc_at(st, ist, i, t):
    """(x, y, vx, vy) of disc i at time t, from its body's present step (or rest, or finish)."""
    lead = ist[LEADER, i]
    ox = st[C_OFFSET, i]
    oy = st[C_OFFSET + 1, i]
    phase = ist[I_PHASE, lead]
    if phase == PHASE_STEP:
        theta = theta_at(st, lead, t)
        return (
            dense_row(st, lead, np.int64(0), theta) + ox,
            dense_row(st, lead, np.int64(1), theta) + oy,
            dense_row(st, lead, np.int64(2), theta),
            dense_row(st, lead, np.int64(3), theta),
        )
    if phase == PHASE_FINISH:
        t0 = st[C_Y + 5, lead]
        t1 = st[C_FINISH, lead]
        s = 1.0 if t1 <= t0 else min(1.0, max(0.0, (t - t0) / (t1 - t0)))
        x = st[C_Y, lead] + s * (st[C_FINISH + 1, lead] - st[C_Y, lead])
        y = st[C_Y + 1, lead] + s * (st[C_FINISH + 2, lead] - st[C_Y + 1, lead])
        return x + ox, y + oy, (1.0 - s) * st[C_Y + 2, lead], (1.0 - s) * st[C_Y + 3, lead]
    return st[C_Y, i], st[C_Y + 1, i], 0.0, 0.0


@jit.kernel
def _bound(st, ist, lead):
    """How fast body ``lead`` may accelerate, for the pair bound: its A while stepping, none otherwise."""
    return st[C_ACCEL, lead] if ist[I_PHASE, lead] == PHASE_STEP else 0.0


@jit.kernel
def _clear(ax, ay, bx, by, rho, delta):
    """Whether the segment from (ax, ay) to (bx, by), widened by delta, stays out of the circle of
    radius rho about the origin."""
    ex = bx - ax
    ey = by - ay
    e2 = ex * ex + ey * ey
    u = 0.0 if e2 == 0.0 else min(max(-(ax * ex + ay * ey) / e2, 0.0), 1.0)
    dx = ax + u * ex
    dy = ay + u * ey
    return math.sqrt(dx * dx + dy * dy) > rho + delta


@jit.kernel
def _relative(st, ist, a, b, t):
    xa, ya, _, _ = disc_at(st, ist, a, t)
    xb, yb, _, _ = disc_at(st, ist, b, t)
    return xb - xa, yb - ya


@jit.no_refcount
def pair_entry(st, ist, a, b, rho, t_lo, t_hi):
    """The first time in (t_lo, t_hi] at which discs a and b (different bodies, at least one moving)
    come within ``rho`` of each other, their distance at t_lo above it; inf if they do not."""
    la = ist[LEADER, a]
    lb = ist[LEADER, b]
    spread = _bound(st, ist, la) + _bound(st, ist, lb)
    finishing = FINISH_LENGTH * ((ist[I_PHASE, la] == PHASE_FINISH) + (ist[I_PHASE, lb] == PHASE_FINISH))
    if not t_hi > t_lo:
        return math.inf
    t = t_lo
    dx, dy = _relative(st, ist, a, b, t)
    width = t_hi - t_lo
    for _ in range(MAX_SEARCH):
        if t >= t_hi:
            return math.inf
        end = min(t + width, t_hi)
        ex, ey = _relative(st, ist, a, b, end)
        duration = end - t
        delta = spread * duration * duration / 8.0 + finishing + PAIR_SLACK
        if _clear(dx, dy, ex, ey, rho, delta):
            t, dx, dy = end, ex, ey
            width *= 2.0
            continue
        if ex * ex + ey * ey <= rho * rho:
            return _polish(st, ist, a, b, rho, t, end)
        if duration <= MIN_STRETCH * max(1.0, end):
            t, dx, dy = end, ex, ey
            continue
        width = 0.5 * duration
    return math.inf


@jit.no_refcount
def _polish(st, ist, a, b, rho, lo, hi):
    """The first time in (lo, hi] at which the pair's distance is no longer above rho (above at lo,
    not at hi): the Illinois method on the distance; the end returned is the one within rho."""
    dx, dy = _relative(st, ist, a, b, lo)
    g_lo = math.sqrt(dx * dx + dy * dy) - rho
    dx, dy = _relative(st, ist, a, b, hi)
    g_hi = math.sqrt(dx * dx + dy * dy) - rho
    side = np.int64(0)
    for _ in range(MAX_POLISH):
        if hi - lo <= 4.0e-16 * max(1.0, hi):
            break
        m = lo + g_lo * (hi - lo) / (g_lo - g_hi)
        if not (lo < m < hi):
            m = 0.5 * (lo + hi)
        dx, dy = _relative(st, ist, a, b, m)
        g = math.sqrt(dx * dx + dy * dy) - rho
        if g > 0.0:
            lo = m
            g_lo = g
            if side == 1:
                g_hi *= 0.5
            side = 1
        else:
            hi = m
            g_hi = g
            if side == -1:
                g_lo *= 0.5
            side = np.int64(-1)
    return hi
