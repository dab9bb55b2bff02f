"""Events along one step of a curved motion: the first time its disc reaches a shape, never missed.

A step of a curved motion (``motion``) runs from the state Y to the state N over the times
Y_t to N_t; its dense output (``curved_step.dense``) gives the state at any fraction theta of it.
Every boundary of the court is a *shape* with a *gap* that is positive until its event happens:

==================  ==================================================  =================================
shape               gap                                                 events
==================  ==================================================  =================================
``S_HALFPLANE``     (p - P) . n                                         edge crossed (fall), kill line
``S_OUTSIDE``       norm(p - c) - rho                                   peg, disc at rest
``S_INSIDE``        rho - norm(p - c)                                   round edge (fall), round cushion
``S_CAPSULE``       distance to the segment - rho                       straight cushion
``S_HOLE``          max(norm(p - c) - capture radius, v - capture)      a hole's capture
==================  ==================================================  =================================

No contact is stepped over. Any disc's acceleration is at most A (``state.body_acceleration``),
so over a stretch of duration T its path departs from the chord between the stretch's ends by at
most A T^2 / 8 (the error of linear interpolation). A shape that the chord, widened by that, does
not reach (``clear``) cannot be reached by the path: the search (``first_event``) tries the rest of
the step at once, halves a stretch it cannot clear, doubles the next after one it clears, and
brackets the event where the gap at a stretch's end is no longer positive; the root is then polished
on the dense output by the Illinois method. The speed bound |dv/dt| <= A clears a hole the disc
passes too fast. Most steps are cleared from their two ends alone, before any dense output is made.

Contacts at the start of a motion follow the rules of ``toi``: touching and approaching, the event
is at once; touching but not approaching, only a push into an overlap of ``toi.OVERLAP_SLACK`` is a
new contact (``start_shape``).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.tolerances import APPROACH_TOL, CONTACT_GAP, EDGE_TOL, OVERLAP_SLACK
from shuffle_sim.physics.laws.integrated.motion import dense_component
from shuffle_sim.physics.tables.court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    EDGE_CIRCLE,
    EDGE_SEGMENT,
    F_KIND,
    H_RADIUS,
    HOLE,
    KILL_LINE,
    PEG,
    F,
)

S_NONE = np.int64(-1)
S_HALFPLANE = 0
S_OUTSIDE = 1
S_INSIDE = 2
S_CAPSULE = 3
S_HOLE = 4
#: A shape: (kind, six numbers, rho). Half plane: P, n, then the edge's direction and length for the
#: along-check (length < 0: a kill line, unbounded); circles: c; capsule: the segment's start, its unit
#: direction and length; hole: c, capture radius, capture speed.
NO_SHAPE = (-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

#: Slack (m) added to every chord bound for the dense output's own error (about 1e-11 m here).
DENSE_SLACK = 1e-9
#: Stretches shorter than this (as a fraction of a step) are not split again: a chord so short cannot
#: dip into a shape that its two ends are clear of.
MIN_STRETCH = 1e-13
#: Bounds on the search's and the polish's iterations (never reached in the tests; bounds, not tolerances).
MAX_SEARCH = 2000
MAX_POLISH = 200


@jit.kernel
def _segment_distance(px, py, x0, y0, ux, uy, length):
    """Distance from p to the segment x0 + u s, 0 <= s <= length, and the unit normal from the
    segment's nearest point to p."""
    rx = px - x0
    ry = py - y0
    s = min(max(rx * ux + ry * uy, 0.0), length)
    dx = rx - s * ux
    dy = ry - s * uy
    d = math.sqrt(dx * dx + dy * dy)
    if d == 0.0:
        return 0.0, -uy, ux
    return d, dx / d, dy / d


@jit.kernel
def _point_segment(px, py, ax, ay, bx, by):
    """Distance from p to the segment a-b."""
    ex = bx - ax
    ey = by - ay
    e2 = ex * ex + ey * ey
    u = 0.0 if e2 == 0.0 else min(max(((px - ax) * ex + (py - ay) * ey) / e2, 0.0), 1.0)
    dx = px - ax - u * ex
    dy = py - ay - u * ey
    return math.sqrt(dx * dx + dy * dy)


@jit.kernel
def _segments_distance(ax, ay, bx, by, cx, cy, dx, dy):
    """Distance between the segments a-b and c-d (zero if they cross)."""
    d1x = bx - ax
    d1y = by - ay
    d2x = dx - cx
    d2y = dy - cy
    den = d1x * d2y - d1y * d2x
    if den != 0.0:
        s = ((cx - ax) * d2y - (cy - ay) * d2x) / den
        t = ((cx - ax) * d1y - (cy - ay) * d1x) / den
        if 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0:
            return 0.0
    return min(
        min(_point_segment(ax, ay, cx, cy, dx, dy), _point_segment(bx, by, cx, cy, dx, dy)),
        min(_point_segment(cx, cy, ax, ay, bx, by), _point_segment(dx, dy, ax, ay, bx, by)),
    )


@jit.kernel
def gap(shape, x, y, speed):
    """The shape's gap at a centre (x, y) moving at ``speed`` (module docstring)."""
    kind = shape[0]
    if kind == S_HALFPLANE:
        return (x - shape[1]) * shape[3] + (y - shape[2]) * shape[4]
    if kind == S_OUTSIDE:
        return math.sqrt((x - shape[1]) ** 2 + (y - shape[2]) ** 2) - shape[7]
    if kind == S_INSIDE:
        return shape[7] - math.sqrt((x - shape[1]) ** 2 + (y - shape[2]) ** 2)
    if kind == S_CAPSULE:
        return _segment_distance(x, y, shape[1], shape[2], shape[3], shape[4], shape[5])[0] - shape[7]
    return max(math.sqrt((x - shape[1]) ** 2 + (y - shape[2]) ** 2) - shape[3], speed - shape[4])


@jit.kernel
def clear(shape, xa, ya, va, xb, yb, vb, delta, dv):
    """Whether no path within ``delta`` of the chord (xa, ya)-(xb, yb), its speed within ``dv`` of
    both ends' speeds, can close the shape's gap."""
    kind = shape[0]
    if kind == S_HALFPLANE:
        return min(gap(shape, xa, ya, 0.0), gap(shape, xb, yb, 0.0)) > delta
    if kind == S_OUTSIDE:
        return _point_segment(shape[1], shape[2], xa, ya, xb, yb) > shape[7] + delta
    if kind == S_INSIDE:
        far = max(
            math.sqrt((xa - shape[1]) ** 2 + (ya - shape[2]) ** 2),
            math.sqrt((xb - shape[1]) ** 2 + (yb - shape[2]) ** 2),
        )
        return far + delta < shape[7]
    if kind == S_CAPSULE:
        return (
            _segments_distance(
                xa, ya, xb, yb, shape[1], shape[2], shape[1] + shape[5] * shape[3], shape[2] + shape[5] * shape[4]
            )
            > shape[7] + delta
        )
    # A hole: out of reach, or too fast all along (|dv/dt| <= A).
    if _point_segment(shape[1], shape[2], xa, ya, xb, yb) > shape[3] + delta:
        return True
    return 0.5 * (va + vb) - dv > shape[4]


@jit.no_refcount
def start_shape(table, row, x, y, vx, vy, alive, moving):
    """The shape of table row ``row`` for a search from a centre (x, y) moving at (vx, vy), with the
    contact rules of ``toi`` applied: (shape, at_once). ``at_once`` is True when the event happens
    right now (touching and approaching, already past a kill line, over a hole slowly enough);
    the shape's kind is S_NONE when the row cannot be met (a dead disc and a kill line, a disc at rest
    and anything but a hole or a kill line, a disc beyond an edge's line elsewhere)."""
    f = table[row, F_KIND]
    g0 = table[row, F]
    g1 = table[row, F + 1]
    g2 = table[row, F + 2]
    g3 = table[row, F + 3]
    r = table[0, H_RADIUS]
    speed = math.sqrt(vx * vx + vy * vy)
    if f == KILL_LINE:
        if not alive:
            return NO_SHAPE, False
        shape = (float(S_HALFPLANE), g0, g1, -g2, -g3, 0.0, 0.0, -1.0)
        g = gap(shape, x, y, 0.0)
        return shape, g < 0.0 or (g == 0.0 and vx * g2 + vy * g3 > 0.0)
    if f == HOLE:
        shape = (float(S_HOLE), g0, g1, g2, g3, 0.0, 0.0, 0.0)
        if not moving:
            return shape, g3 > 0.0 and (x - g0) ** 2 + (y - g1) ** 2 <= g2 * g2
        return shape, gap(shape, x, y, speed) <= 0.0
    if not moving:
        return NO_SHAPE, False
    if f == EDGE_SEGMENT:
        ex = g2 - g0
        ey = g3 - g1
        length = math.sqrt(ex * ex + ey * ey)
        ux = ex / length
        uy = ey / length
        shape = (float(S_HALFPLANE), g0, g1, -uy, ux, ux, uy, length)
        g = gap(shape, x, y, 0.0)
        if g < -EDGE_TOL:
            return NO_SHAPE, False  # beyond this edge's line elsewhere: not a crossing of this edge
        return shape, g <= 0.0 and -vx * uy + vy * ux < 0.0
    if f == EDGE_CIRCLE:
        shape = (float(S_INSIDE), g0, g1, 0.0, 0.0, 0.0, 0.0, g2)
        return shape, gap(shape, x, y, 0.0) <= 0.0 and (x - g0) * vx + (y - g1) * vy > 0.0
    if f == CUSHION_SEGMENT:
        rho = r + table[row, F + 4]
        ux = table[row, F + 8]
        uy = table[row, F + 9]
        length = table[row, F + 10]
        d, nx, ny = _segment_distance(x, y, g0, g1, ux, uy, length)
        if d - rho <= CONTACT_GAP:
            if vx * nx + vy * ny < -APPROACH_TOL:
                return (float(S_CAPSULE), g0, g1, ux, uy, length, 0.0, rho), True
            rho = min(rho, d) - OVERLAP_SLACK
        return (float(S_CAPSULE), g0, g1, ux, uy, length, 0.0, rho), False
    if f == CUSHION_CIRCLE:
        rho = g2 - r
        d = math.sqrt((x - g0) ** 2 + (y - g1) ** 2)
        if d >= rho - CONTACT_GAP:
            if (x - g0) * vx + (y - g1) * vy > APPROACH_TOL * d:
                return (float(S_INSIDE), g0, g1, 0.0, 0.0, 0.0, 0.0, rho), True
            rho = max(rho, d) + OVERLAP_SLACK
        return (float(S_INSIDE), g0, g1, 0.0, 0.0, 0.0, 0.0, rho), False
    if f == PEG:
        return outside_shape(g0, g1, r + g2, x, y, vx, vy)
    return NO_SHAPE, False


@jit.kernel
def outside_shape(cx, cy, rho, x, y, vx, vy):
    """A circle to stay out of (a peg, a disc at rest) from a centre at (x, y) moving at (vx, vy), with
    ``toi.circle_entry``'s contact rules: (shape, at_once)."""
    d = math.sqrt((x - cx) ** 2 + (y - cy) ** 2)
    if d <= rho + CONTACT_GAP:
        if (x - cx) * vx + (y - cy) * vy < -APPROACH_TOL * d:
            return (float(S_OUTSIDE), cx, cy, 0.0, 0.0, 0.0, 0.0, rho), True
        rho = min(rho, d) - OVERLAP_SLACK
        if rho <= 0.0:
            return NO_SHAPE, False
    return (float(S_OUTSIDE), cx, cy, 0.0, 0.0, 0.0, 0.0, rho), False


@jit.kernel
def edge_holds(shape, x, y):
    """Whether a crossing of an edge's line at (x, y) lies on the edge (within ``toi.EDGE_TOL``); kill
    lines (no length) always hold."""
    if shape[0] != S_HALFPLANE or shape[7] < 0.0:
        return True
    along = (x - shape[1]) * shape[5] + (y - shape[2]) * shape[6]
    return -EDGE_TOL <= along <= shape[7] + EDGE_TOL


@jit.kernel
def _probe(dense, y0, y1, y2, y3, y5, theta, ox, oy):
    """(x, y, speed, t) of a member at offset (ox, oy) at the fraction theta of a step."""
    x = dense_component(dense, np.int64(0), y0, theta) + ox
    y = dense_component(dense, np.int64(1), y1, theta) + oy
    vx = dense_component(dense, np.int64(2), y2, theta)
    vy = dense_component(dense, np.int64(3), y3, theta)
    return x, y, math.sqrt(vx * vx + vy * vy), dense_component(dense, np.int64(5), y5, theta)


@jit.no_refcount
def first_event(shape, dense, y0, y1, y2, y3, y5, lo, hi, ox, oy, accel):
    """The first fraction theta in (lo, hi] of a step at which the shape's gap is no longer positive
    (inf if none), on the dense output ``dense`` of the step from (y0, y1, y2, y3, ., y5), for a
    member at offset (ox, oy) of a body no disc of which accelerates faster than ``accel``.

    The gap at ``lo`` is positive (``start_shape``). See the module docstring for the search."""
    xa, ya, va, ta = _probe(dense, y0, y1, y2, y3, y5, lo, ox, oy)
    theta = lo
    width = hi - lo
    for _ in range(MAX_SEARCH):
        if theta >= hi:
            return math.inf
        end = min(theta + width, hi)
        xb, yb, vb, tb = _probe(dense, y0, y1, y2, y3, y5, end, ox, oy)
        duration = tb - ta
        if clear(
            shape, xa, ya, va, xb, yb, vb, accel * duration * duration / 8.0 + DENSE_SLACK, 0.5 * accel * duration
        ):
            theta, xa, ya, va, ta = end, xb, yb, vb, tb
            width *= 2.0
            continue
        if gap(shape, xb, yb, vb) <= 0.0:
            root = _polish(shape, dense, y0, y1, y2, y3, y5, theta, end, ox, oy)
            xr, yr, _, _ = _probe(dense, y0, y1, y2, y3, y5, root, ox, oy)
            if edge_holds(shape, xr, yr):
                return root
            return math.inf  # the edge's line is crossed beside the edge: another edge's event
        if end - theta <= MIN_STRETCH:
            theta, xa, ya, va, ta = end, xb, yb, vb, tb
            continue
        width = 0.5 * (end - theta)
    return math.inf


@jit.no_refcount
def _polish(shape, dense, y0, y1, y2, y3, y5, a, b, ox, oy):
    """The first theta in (a, b] with gap <= 0, the gap positive at a and not at b: the Illinois
    method (regula falsi that halves the stale end's weight) to the last bit; the end returned is
    the one at which the gap is no longer positive. Compiled on its own: it runs only once an event
    is bracketed, and inlined into ``first_event`` it doubled that function's compile."""
    xa, ya, va, _ = _probe(dense, y0, y1, y2, y3, y5, a, ox, oy)
    xb, yb, vb, _ = _probe(dense, y0, y1, y2, y3, y5, b, ox, oy)
    ga = gap(shape, xa, ya, va)
    gb = gap(shape, xb, yb, vb)
    side = np.int64(0)
    for _ in range(MAX_POLISH):
        if b - a <= 2.0e-16 * max(1.0, b):
            break
        m = a + ga * (b - a) / (ga - gb)
        if not (a < m < b):
            m = 0.5 * (a + b)
        xm, ym, vm, _ = _probe(dense, y0, y1, y2, y3, y5, m, ox, oy)
        gm = gap(shape, xm, ym, vm)
        if gm > 0.0:
            a = m
            ga = gm
            if side == 1:
                gb *= 0.5
            side = 1
        else:
            b = m
            gb = gm
            if side == -1:
                ga *= 0.5
            side = np.int64(-1)
    return b
