"""Times of impact: when a sliding disc, or a pair of sliding discs, first touches something.

Two kinds of problem, both solved without time steps:

1. **A disc against something fixed** (a cushion, a peg, an edge, a hole, a kill line, a disc at
   rest). A sliding disc's centre moves on a straight line ``q + u s``, ``s`` the distance slid, so
   contact is a linear or quadratic equation in ``s``, solved in closed form with the
   cancellation-free root formulas; ``_motion.time_to_slide`` turns ``s`` into a time. Splitting
   "where" (path length) from "when" keeps these exact even near the stop, where ds/dt -> 0.
2. **Two sliding discs.** While both slide, each centre is quadratic in time, so the relative
   position is ``d(tau) = C + B tau + A tau^2`` and contact ``|d|^2 = R^2`` is a quartic
   ``f(tau) = 0``. Its earliest root in the window where both slide is isolated, never guessed:
   the roots of f'' (a quadratic, closed form) split the window into pieces on which f' is
   monotone; each holds at most one root of f' (a critical point of f), found by safeguarded
   Newton; the critical points split the window into pieces on which f is monotone, and the first
   piece on which f falls from > 0 to <= 0 holds the earliest root, polished by safeguarded Newton on
   the polynomial itself. Degenerate leading terms (equal decelerations: A = 0, a quadratic;
   discs at relative rest: no root) fall out of the same code. The window ends when either disc
   stops; the kernel predicts again then, with one disc fixed (problem 1).

Contacts follow the rules of ``contacts.tolerances``.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.tolerances import APPROACH_TOL, CONTACT_GAP, EDGE_TOL, OVERLAP_SLACK
from shuffle_sim.physics.tables.court_table import segment_frame

_EPS = 2.220446049250313e-16

# The solvers of a cushion segment, an edge and a kill line are inlined (``inline="always"``) into
# the prediction loop (``_predict.predict_path``): a real call there spills every live register, which
# cost a lone shot more than the solvers themselves. The other solvers are rarer and stay calls, to
# keep compile times short.
_MAX_ITER = 100


# --------------------------------------------------------------------------------------------------
# Problem 1: a straight path q + u s (u a unit vector) against fixed shapes. All return s >= 0 or inf.
# ``reach`` is how far the path is of interest (its stopping distance, or an event already found):
# shapes farther than that are rejected before any square root.


@jit.kernel
def _circle_entry(d2, b, rho):
    """First s where |d + u s| falls to rho, given |d|^2 = d2 > rho^2 and b = d . u < 0."""
    c = d2 - rho * rho
    disc = b * b - c
    if disc < 0.0:
        return math.inf
    s = c / (-b + math.sqrt(disc))  # the smaller root, without cancellation
    return max(0.0, s)


@jit.kernel
def circle_exit(qx, qy, ux, uy, cx, cy, rho):
    """First s >= 0 where the point q + u s leaves the circle of radius rho about c (0 if already out)."""
    dx = qx - cx
    dy = qy - cy
    b = dx * ux + dy * uy
    c = dx * dx + dy * dy - rho * rho
    disc = b * b - c
    disc = max(disc, 0.0)
    sq = math.sqrt(disc)
    s = -c / (b + sq) if b > 0.0 else -b + sq
    return max(0.0, s)


@jit.kernel
def circle_entry(qx, qy, ux, uy, speed, cx, cy, rho, reach):
    """First s where a disc sliding at ``speed`` on q + u s comes within rho of c (from outside).

    For pegs (rho = disc radius + peg radius), discs at rest (rho = 2 r) and cushion ends; applies
    the contact rule of the module docstring.
    """
    dx = qx - cx
    dy = qy - cy
    d2 = dx * dx + dy * dy
    b = dx * ux + dy * uy
    touch = rho + CONTACT_GAP
    if d2 <= touch * touch:
        dist = math.sqrt(d2)
        if speed * b < -APPROACH_TOL * dist:
            return 0.0
        rho = min(rho, dist) - OVERLAP_SLACK
        if rho <= 0.0:
            return math.inf
    elif b >= 0.0:
        return math.inf  # outside and not closing in
    else:
        far = rho + reach
        if d2 > far * far:
            return math.inf
    return _circle_entry(d2, b, rho) if b < 0.0 else math.inf


@jit.kernel
def circle_exit_contact(qx, qy, ux, uy, speed, cx, cy, rho):
    """First s where a disc inside a circular cushion reaches distance rho (= R - r) from its centre."""
    dx = qx - cx
    dy = qy - cy
    d2 = dx * dx + dy * dy
    touch = rho - CONTACT_GAP
    if touch <= 0.0 or d2 >= touch * touch:
        dist = math.sqrt(d2)
        if speed * (dx * ux + dy * uy) > APPROACH_TOL * dist:
            return 0.0
        rho = max(rho, dist) + OVERLAP_SLACK
    return circle_exit(qx, qy, ux, uy, cx, cy, rho)


@jit.kernel
def capsule_entry(qx, qy, ux, uy, speed, x0, y0, x1, y1, rho, reach):
    """First s where the centre comes within rho of the segment (x0, y0)-(x1, y1): a capsule.

    For cushions: rho = disc radius + half thickness. The capsule is a band along the segment
    capped by a circle at each end. It is convex, so a path crossing the band's flat side within the
    segment's length enters there; otherwise it can only enter through the cap on that side.
    """
    ex, ey, length = segment_frame(x0, y0, x1, y1)
    return capsule_entry_framed(qx, qy, ux, uy, speed, x0, y0, x1, y1, ex, ey, length, rho, reach)


@jit.inline
def capsule_entry_framed(qx, qy, ux, uy, speed, x0, y0, x1, y1, ex, ey, length, rho, reach):
    """``capsule_entry`` with the segment's frame given: unit direction (ex, ey) and length
    (``segment_frame``), so that a kernel can compute it once per court instead of per prediction."""
    rx = qx - x0
    ry = qy - y0
    across = -rx * ey + ry * ex
    side = 1.0 if across >= 0.0 else -1.0
    height = side * across  # distance from the segment's line
    if height - rho > reach:
        return math.inf  # every point of the capsule is within rho of the line
    along = rx * ex + ry * ey
    rate = side * (-ux * ey + uy * ex)  # d height / ds
    slide = ux * ex + uy * ey  # d along / ds
    target = rho
    if 0.0 <= along <= length and height - rho <= CONTACT_GAP:
        if speed * rate < -APPROACH_TOL:
            return 0.0
        target = min(rho, height) - OVERLAP_SLACK
    if rate < 0.0:
        s = (height - target) / -rate
        s = max(s, 0.0)
        a = along + s * slide
        if 0.0 <= a <= length:
            return s
    elif height >= target:
        return math.inf  # beside the band and not closing in
    else:
        a = along  # within the band's width, beyond an end: only the cap ahead can be hit
    if a < 0.0:
        return circle_entry(qx, qy, ux, uy, speed, x0, y0, rho, reach)
    return circle_entry(qx, qy, ux, uy, speed, x1, y1, rho, reach)


@jit.inline
def edge_crossing(qx, qy, ux, uy, x0, y0, x1, y1, reach):
    """First s where the centre crosses the edge (x0, y0)-(x1, y1) outward (surface on its left).

    Computed with the edge's direction unnormalised (lengths scale out of s); the square root of
    its length is only taken to apply ``EDGE_TOL`` at the two ends.
    """
    ex = x1 - x0
    ey = y1 - y0
    rate = -ux * ey + uy * ex  # d(inward distance)/ds, times the edge's length
    if rate >= 0.0:
        return math.inf
    inward = -(qx - x0) * ey + (qy - y0) * ex  # inward distance, times the length
    length2 = ex * ex + ey * ey
    if inward < 0.0 and inward * inward > EDGE_TOL * EDGE_TOL * length2:
        return math.inf  # beyond this edge's line elsewhere: not a crossing of this edge
    if surely_beyond(max(0.0, inward), reach, -rate):
        return math.inf
    s = (max(0.0, inward)) / -rate
    if s > reach:
        return math.inf
    a = (qx - x0) * ex + (qy - y0) * ey + s * (ux * ex + uy * ey)  # along, times the length
    if 0.0 <= a <= length2:
        return s
    tol = EDGE_TOL * math.sqrt(length2)
    return s if -tol <= a <= length2 + tol else math.inf


@jit.kernel
def surely_beyond(distance, reach, rate):
    """Whether distance / rate > reach for certain (distance >= 0, rate > 0), told without dividing.

    A shortcut for the solvers below, which reject events beyond ``reach``: the quotient is only
    computed when this says no. The relative slack of 1e-9 dwarfs the product's rounding, and the
    test declines when the product is so small (subnormal) that its rounding is not relative.
    """
    far = reach * rate
    return far > 1e-290 and distance > far * (1.0 + 1e-9)


@jit.inline
def line_passing_within(qx, qy, ux, uy, px, py, nx, ny, reach):
    """``line_passing``, or inf when the passing is certainly beyond ``reach`` (then without a division)."""
    sigma = (qx - px) * nx + (qy - py) * ny
    if sigma > 0.0:
        return 0.0
    rate = ux * nx + uy * ny
    if rate <= 0.0 or surely_beyond(-sigma, reach, rate):
        return math.inf
    return -sigma / rate


@jit.kernel
def line_passing(qx, qy, ux, uy, px, py, nx, ny):
    """First s where (centre - p) . n reaches 0 from below (0 if already past): a kill line."""
    sigma = (qx - px) * nx + (qy - py) * ny
    if sigma > 0.0:
        return 0.0
    rate = ux * nx + uy * ny
    if rate <= 0.0:
        return math.inf
    return -sigma / rate


@jit.kernel
def hole_capture(qx, qy, ux, uy, speed, decel, cx, cy, capture_radius, capture_speed):
    """First s where the centre is within the capture radius while no faster than the capture speed."""
    if speed <= capture_speed:
        s_slow = 0.0
    elif decel > 0.0:
        s_slow = (speed - capture_speed) * (speed + capture_speed) / (2.0 * decel)
    else:
        return math.inf
    return hole_capture_after(qx, qy, ux, uy, s_slow, cx, cy, capture_radius)


@jit.kernel
def hole_capture_after(qx, qy, ux, uy, s_slow, cx, cy, capture_radius):
    """First s >= ``s_slow`` (where the disc has slowed to the capture speed) with the centre within
    the capture radius."""
    dx = qx - cx
    dy = qy - cy
    b = dx * ux + dy * uy
    c = dx * dx + dy * dy - capture_radius * capture_radius
    disc = b * b - c
    if disc < 0.0:
        return math.inf
    sq = math.sqrt(disc)
    if c <= 0.0:
        s_in = 0.0
        s_out = -c / (b + sq) if b > 0.0 else -b + sq
    else:
        if b >= 0.0:
            return math.inf
        s_in = c / (-b + sq)
        s_out = -b + sq
    s = max(s_slow, s_in)
    return s if s <= s_out else math.inf


@jit.inline
def point_beyond_path(qx, qy, ux, uy, reach, cx, cy, rho):
    """Whether the point c stays farther than ``rho`` from every point of the path q + u s, 0 <= s <=
    ``reach``: then no disc on that path, however it is timed, comes within rho of c."""
    dx = cx - qx
    dy = cy - qy
    s = min(max(dx * ux + dy * uy, 0.0), reach)
    ex = dx - ux * s
    ey = dy - uy * s
    return ex * ex + ey * ey > rho * rho


@jit.inline
def paths_apart(px, py, ux, uy, reach_p, qx, qy, wx, wy, reach_q, rho):
    """Whether the paths p + u s (0 <= s <= ``reach_p``) and q + w s (0 <= s <= ``reach_q``), u and w
    unit vectors, stay farther than ``rho`` apart everywhere: then two discs moving on them, however
    each is timed, never come within rho of each other. The closest points of two segments (Ericson,
    Real-Time Collision Detection, 2005, 5.1.9): the unconstrained closest pair, clamped to the first
    segment, then to the second, then the first again."""
    rx = px - qx
    ry = py - qy
    b = ux * wx + uy * wy
    c = ux * rx + uy * ry
    f = wx * rx + wy * ry
    denom = 1.0 - b * b
    s = 0.0
    if denom > 1e-12:
        s = min(max((b * f - c) / denom, 0.0), reach_p)
    t = b * s + f
    if t < 0.0:
        t = 0.0
        s = min(max(-c, 0.0), reach_p)
    elif t > reach_q:
        t = reach_q
        s = min(max(b * t - c, 0.0), reach_p)
    dx = rx + ux * s - wx * t
    dy = ry + uy * s - wy * t
    return dx * dx + dy * dy > rho * rho


# --------------------------------------------------------------------------------------------------
# Problem 2: two sliding discs, f(t) = |C + B t + A t^2|^2 - R^2.


@jit.kernel
def _quartic(t, order, cx, cy, bx, by, ax, ay, r2):
    """f (order 0), f' (order 1) or f'' (order 2) of the contact quartic at t, from the vector form."""
    dx = cx + t * (bx + t * ax)
    dy = cy + t * (by + t * ay)
    vx = bx + 2.0 * t * ax
    vy = by + 2.0 * t * ay
    if order == 0:
        return dx * dx + dy * dy - r2
    if order == 1:
        return 2.0 * (dx * vx + dy * vy)
    return 2.0 * (vx * vx + vy * vy + 2.0 * (dx * ax + dy * ay))


@jit.kernel
def _bracketed_root(lo, hi, order, cx, cy, bx, by, ax, ay, r2):
    """Root of the quartic's derivative of ``order`` in [lo, hi], where it changes sign exactly once.

    Safeguarded Newton: a Newton step from the current point when it stays inside the bracket,
    bisection otherwise, the bracket shrinking on every step.
    """
    positive_at_lo = _quartic(lo, order, cx, cy, bx, by, ax, ay, r2) > 0.0
    x = lo if order == 0 else 0.5 * (lo + hi)
    for _ in range(_MAX_ITER):
        g = _quartic(x, order, cx, cy, bx, by, ax, ay, r2)
        if g == 0.0:
            return x
        if (g > 0.0) == positive_at_lo:
            lo = x
        else:
            hi = x
        slope = _quartic(x, order + 1, cx, cy, bx, by, ax, ay, r2)
        step_ok = slope != 0.0
        x_new = x - g / slope if step_ok else 0.5 * (lo + hi)
        if not (lo < x_new < hi):
            x_new = 0.5 * (lo + hi)
        tol = 4.0 * _EPS * max(abs(x_new), 1e-300)
        if abs(x_new - x) <= tol or hi - lo <= tol:
            return x_new
        x = x_new
    return x


@jit.kernel
def _sorted_quadratic_roots(a, b, c):
    """Real roots of a t^2 + b t + c (count, smaller, larger); a or b may be zero."""
    if a == 0.0:
        if b == 0.0:
            return 0, math.nan, math.nan
        r = -c / b
        return 1, r, r
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, math.nan, math.nan
    q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
    r1 = q / a
    r2 = c / q if q != 0.0 else r1
    if r1 > r2:
        r1, r2 = r2, r1
    return 2, r1, r2


@jit.kernel
def quartic_entry(cx, cy, bx, by, ax, ay, radius, window):
    """Earliest tau in [0, window] where |C + B tau + A tau^2| falls to ``radius`` (|C| > radius).

    Returns inf if the distance stays above ``radius`` throughout. ``window`` may be infinite only
    when A = 0 (no friction), where the relative path is a straight line.
    """
    a_norm = math.sqrt(ax * ax + ay * ay)
    b_norm = math.sqrt(bx * bx + by * by)
    if not math.isfinite(window):
        # Straight relative path (no friction); |C| > radius is given.
        dot = cx * bx + cy * by
        if a_norm != 0.0 or dot >= 0.0:
            return math.inf
        return _circle_entry(cx * cx + cy * cy, dot / b_norm, radius) / b_norm
    if window <= 0.0:
        return math.inf
    # Cheap rejection: the relative displacement over the window is at most |B| W + |A| W^2.
    if math.sqrt(cx * cx + cy * cy) - (b_norm + a_norm * window) * window > radius:
        return math.inf
    r2 = radius * radius
    a_dot_b = ax * bx + ay * by
    a_dot_c = ax * cx + ay * cy
    _, i1, i2 = _sorted_quadratic_roots(6.0 * a_norm * a_norm, 6.0 * a_dot_b, b_norm * b_norm + 2.0 * a_dot_c)
    prev = 0.0  # start of the current piece on which f is monotone
    lo = 0.0  # start of the current piece on which f' is monotone
    for k in range(3):
        hi = window if k == 2 else (i1 if k == 0 else i2)
        if not (hi > lo) or hi > window:
            continue  # a root of f'' outside (lo, window], or a NaN when there is none
        g_lo = _quartic(lo, np.int64(1), cx, cy, bx, by, ax, ay, r2)
        g_hi = _quartic(hi, np.int64(1), cx, cy, bx, by, ax, ay, r2)
        if (g_lo < 0.0 < g_hi) or (g_hi < 0.0 < g_lo):
            crit = _bracketed_root(lo, hi, np.int64(1), cx, cy, bx, by, ax, ay, r2)
            if (
                _quartic(prev, np.int64(0), cx, cy, bx, by, ax, ay, r2) > 0.0
                and _quartic(crit, np.int64(0), cx, cy, bx, by, ax, ay, r2) <= 0.0
            ):
                return _bracketed_root(prev, crit, np.int64(0), cx, cy, bx, by, ax, ay, r2)
            prev = crit
        lo = hi
    if (
        _quartic(prev, np.int64(0), cx, cy, bx, by, ax, ay, r2) > 0.0
        and _quartic(window, np.int64(0), cx, cy, bx, by, ax, ay, r2) <= 0.0
    ):
        return _bracketed_root(prev, window, np.int64(0), cx, cy, bx, by, ax, ay, r2)
    return math.inf
