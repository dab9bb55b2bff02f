"""Geometric predicates for judging, compiled with numba (no Python objects inside).

Lines have width: a straight line is a band, a rectangle ``width`` wide with flat ends along its
centre segment (a painted line); a circular line is an annulus ``width`` wide. A disc *touches* a
line when its circle meets the band (distance from the disc's centre to the band <= radius, within
``TOUCH_TOLERANCE``), so a disc exactly tangent to a line's edge touches it. Every predicate here is
checked against Shapely (GEOS) in ``tests/court/test_geometry.py``.

Compilation: the band distances, on every judged disc's hot path, are inlined into their callers;
the others are ordinary calls (LLVM inlines the small ones), which keeps the judging loops quick to
compile. The polygon tests take an array and are compiled without reference counting
(``_nrt=False``: they allocate nothing), so calling them costs no atomic updates.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit

#: Exact contact: two boundaries this close (m) are in contact. It is the one tolerance of judging,
#: the same for lines, edges and hangers: a disc whose circle comes within it of a line's band
#: touches the line; a disc whose circle comes within it of an edge is flush with the edge, not
#: overhanging it (no hanger); a centre within it of the surface's outline is on the surface (not
#: fallen). Rounding in a slanted line's direction, in the half turn to a court's other end, or in a
#: disc placed at an edge minus its radius moves a computed distance by about 1e-16 m, so a disc
#: constructed exactly in contact could otherwise be judged across by one ulp (a puck flush with the
#: table's far edge came out 2.8e-16 m over it, a 13-point hanger). A picometre is far below
#: anything a referee or a measuring device can see.
TOUCH_TOLERANCE = 1e-12


@jit.kernel
def point_segment_distance(px, py, x0, y0, x1, y1):
    """Euclidean distance from (px, py) to the segment (x0, y0)-(x1, y1)."""
    dx = x1 - x0
    dy = y1 - y0
    length2 = dx * dx + dy * dy
    t = ((px - x0) * dx + (py - y0) * dy) / length2
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


@jit.inline
def segment_frame(x0, y0, x1, y1):
    """Unit direction (ux, uy) and length of the segment (x0, y0)-(x1, y1).

    The judging kernel computes this once per line and batch (``band_distance_framed``); computing
    it here, compiled, keeps those values bit-identical to ``band_distance``'s own.
    """
    dx = x1 - x0
    dy = y1 - y0
    length = math.hypot(dx, dy)
    return dx / length, dy / length, length


@jit.inline
def _band_offsets(px, py, x0, y0, ux, uy, length, half_width):
    """How far (px, py) lies beyond a band's ends (along the segment) and beyond its sides (across it),
    each 0 where it lies within: the two legs of its distance to the band."""
    rx = px - x0
    ry = py - y0
    u = rx * ux + ry * uy
    v = abs(-rx * uy + ry * ux)
    du = 0.0
    if u < 0.0:
        du = -u
    elif u > length:
        du = u - length
    dv = v - half_width
    if dv < 0.0:
        dv = 0.0
    return du, dv


@jit.inline
def band_distance_framed(px, py, x0, y0, ux, uy, length, half_width):
    """``band_distance`` for a segment given by its start, unit direction and length."""
    du, dv = _band_offsets(px, py, x0, y0, ux, uy, length, half_width)
    # hypot(a, 0) is exactly |a| (C99 Annex F); skipping the call there changes no result.
    if du == 0.0:
        return dv
    if dv == 0.0:
        return du
    return math.hypot(du, dv)


@jit.inline
def band_within_framed(px, py, x0, y0, ux, uy, length, half_width, reach):
    """``band_distance_framed(...) <= reach``, the same answer, skipping the ``hypot`` where the squared
    distance already decides it by far more than rounding (a relative 1e-9)."""
    du, dv = _band_offsets(px, py, x0, y0, ux, uy, length, half_width)
    if du == 0.0:
        return dv <= reach
    if dv == 0.0:
        return du <= reach
    squared = du * du + dv * dv
    limit = reach * reach
    if squared > 1e-200 and limit > 1e-200:  # both far from underflow, where rounding is relative
        if squared < limit * (1.0 - 1e-9):
            return True
        if squared > limit * (1.0 + 1e-9):
            return False
    return math.hypot(du, dv) <= reach


@jit.inline
def band_distance(px, py, x0, y0, x1, y1, half_width):
    """Distance from (px, py) to a flat-ended band of half width ``half_width`` along a segment.

    In the segment's own axes (u along it from (x0, y0), v across it) the band is the rectangle
    0 <= u <= length, |v| <= half_width; the distance is zero inside it.
    """
    ux, uy, length = segment_frame(x0, y0, x1, y1)
    return band_distance_framed(px, py, x0, y0, ux, uy, length, half_width)


@jit.kernel
def disc_touches_band(cx, cy, r, x0, y0, x1, y1, half_width):
    """Whether a disc of radius r at (cx, cy) meets a straight line's band (tangency counts)."""
    return band_distance(cx, cy, x0, y0, x1, y1, half_width) <= r + TOUCH_TOLERANCE


@jit.kernel
def disc_touches_ring(cx, cy, r, ox, oy, radius, half_width):
    """Whether a disc meets a circular line of the given radius and half width (an annulus).

    The disc covers radial distances from max(0, rho - r) to rho + r around the ring's centre; it
    touches the annulus [radius - hw, radius + hw] when those two intervals meet.
    """
    rho = math.hypot(cx - ox, cy - oy)
    near = rho - r
    if near < 0.0:
        near = 0.0
    return near <= radius + half_width + TOUCH_TOLERANCE and rho + r >= radius - half_width - TOUCH_TOLERANCE


@jit.kernel
def ring_distance(cx, cy, ox, oy, radius, half_width):
    """Distance from a point to a circular line's band (zero inside the band)."""
    d = abs(math.hypot(cx - ox, cy - oy) - radius) - half_width
    return d if d > 0.0 else 0.0


@jit.no_refcount
def point_in_polygon(px, py, vertices, start, stop):
    """Crossing-number test of (px, py) against the ring ``vertices[start:stop]`` (open, any orientation).

    Points exactly on the boundary may fall either way; judging never depends on that because
    every zone border is a line, and a disc on it touches the line.
    """
    inside = False
    j = stop - 1
    for i in range(start, stop):
        xi = vertices[i, 0]
        yi = vertices[i, 1]
        xj = vertices[j, 0]
        yj = vertices[j, 1]
        if (yi > py) != (yj > py):
            x_cross = xi + (py - yi) * (xj - xi) / (yj - yi)
            if px < x_cross:
                inside = not inside
        j = i
    return inside


@jit.no_refcount
def point_on_segment(px, py, x0, y0, x1, y1):
    """Whether (px, py) lies on the segment: inside its box and with a cross product of exactly zero.

    Exact for axis-parallel segments (every surface outline of the shipped courts); for a slanted
    one, a point within rounding of it. (A projected distance would not do: the projection rounds,
    and a point exactly on a side line came out a few 1e-16 m off it.)
    """
    if px < min(x0, x1) or px > max(x0, x1) or py < min(y0, y1) or py > max(y0, y1):
        return False
    return (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0) == 0.0


@jit.no_refcount
def point_in_closed_polygon(px, py, vertices, start, stop):
    """Like ``point_in_polygon``, but a point on the boundary counts as inside."""
    if point_in_polygon(px, py, vertices, start, stop):
        return True
    j = stop - 1
    for i in range(start, stop):
        if point_on_segment(px, py, vertices[j, 0], vertices[j, 1], vertices[i, 0], vertices[i, 1]):
            return True
        j = i
    return False


@jit.no_refcount
def point_near_ring(px, py, vertices, start, stop, tolerance):
    """Whether (px, py) lies within ``tolerance`` of the ring ``vertices[start:stop]``'s outline."""
    j = stop - 1
    for i in range(start, stop):
        if point_segment_distance(px, py, vertices[j, 0], vertices[j, 1], vertices[i, 0], vertices[i, 1]) <= tolerance:
            return True
        j = i
    return False


@jit.kernel
def point_in_polygon_or_on_boundary(px, py, vertices):
    """Like ``point_in_polygon`` over the whole ring, but a point on the boundary counts as inside."""
    return point_in_closed_polygon(px, py, vertices, np.int64(0), vertices.shape[0])


@jit.kernel
def point_in_annulus(px, py, ox, oy, inner, outer):
    """Whether (px, py) lies in inner <= distance < outer from (ox, oy) (inner 0: a full circle)."""
    rho = math.hypot(px - ox, py - oy)
    return rho >= inner and rho < outer


# ---- boxes: used to find regions of a court where judging cannot change ---------------------------


@jit.inline
def point_box_distance(px, py, bx0, by0, bx1, by1):
    """Distance from (px, py) to the box [bx0, bx1] x [by0, by1] (zero inside it)."""
    dx = max(bx0 - px, 0.0, px - bx1)
    dy = max(by0 - py, 0.0, py - by1)
    return math.hypot(dx, dy)


@jit.inline
def point_box_far_distance(px, py, bx0, by0, bx1, by1):
    """Distance from (px, py) to the farthest point of the box (one of its corners)."""
    return math.hypot(max(abs(px - bx0), abs(px - bx1)), max(abs(py - by0), abs(py - by1)))


@jit.kernel
def segment_meets_box(x0, y0, x1, y1, bx0, by0, bx1, by1):
    """Whether the segment (x0, y0)-(x1, y1) meets the box (Liang-Barsky clipping)."""
    dx = x1 - x0
    dy = y1 - y0
    t0 = 0.0
    t1 = 1.0
    for k in range(4):
        if k == 0:
            p, q = -dx, x0 - bx0
        elif k == 1:
            p, q = dx, bx1 - x0
        elif k == 2:
            p, q = -dy, y0 - by0
        else:
            p, q = dy, by1 - y0
        if p == 0.0:
            if q < 0.0:
                return False
        else:
            t = q / p
            if p < 0.0:
                if t > t0:
                    t0 = t
            elif t < t1:
                t1 = t
            if t0 > t1:
                return False
    return True


@jit.kernel
def segment_box_distance(x0, y0, x1, y1, bx0, by0, bx1, by1):
    """Distance between a segment and a box: zero when they meet, otherwise attained at an end of
    the segment or a corner of the box (two disjoint convex polygons)."""
    if segment_meets_box(x0, y0, x1, y1, bx0, by0, bx1, by1):
        return 0.0
    d = min(point_box_distance(x0, y0, bx0, by0, bx1, by1), point_box_distance(x1, y1, bx0, by0, bx1, by1))
    d = min(d, point_segment_distance(bx0, by0, x0, y0, x1, y1))
    d = min(d, point_segment_distance(bx1, by0, x0, y0, x1, y1))
    d = min(d, point_segment_distance(bx0, by1, x0, y0, x1, y1))
    return min(d, point_segment_distance(bx1, by1, x0, y0, x1, y1))
