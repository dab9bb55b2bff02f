"""Geometric predicates for judging, compiled with numba (no Python objects inside).

Lines have width: a straight line is a band, a rectangle ``width`` wide with flat ends along its
centre segment (a painted line); a circular line is an annulus ``width`` wide. A disc *touches* a
line when its circle meets the band (distance from the disc's centre to the band <= radius), so a
disc exactly tangent to a line's edge touches it. Every predicate here is checked against Shapely
(GEOS) in ``tests/test_geometry_oracle.py``.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def band_distance(px, py, x0, y0, x1, y1, half_width):
    """Distance from (px, py) to a flat-ended band of half width ``half_width`` along a segment.

    In the segment's own axes (u along it from (x0, y0), v across it) the band is the rectangle
    0 <= u <= length, |v| <= half_width; the distance is zero inside it.
    """
    dx = x1 - x0
    dy = y1 - y0
    length = math.hypot(dx, dy)
    ux = dx / length
    uy = dy / length
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
    return math.hypot(du, dv)


@njit(cache=True, inline="always")
def disc_touches_band(cx, cy, r, x0, y0, x1, y1, half_width):
    """Whether a disc of radius r at (cx, cy) meets a straight line's band (tangency counts)."""
    return band_distance(cx, cy, x0, y0, x1, y1, half_width) <= r


@njit(cache=True, inline="always")
def disc_touches_ring(cx, cy, r, ox, oy, radius, half_width):
    """Whether a disc meets a circular line of the given radius and half width (an annulus).

    The disc covers radial distances from max(0, rho - r) to rho + r around the ring's centre; it
    touches the annulus [radius - hw, radius + hw] when those two intervals meet.
    """
    rho = math.hypot(cx - ox, cy - oy)
    near = rho - r
    if near < 0.0:
        near = 0.0
    return near <= radius + half_width and rho + r >= radius - half_width


@njit(cache=True, inline="always")
def ring_distance(cx, cy, ox, oy, radius, half_width):
    """Distance from a point to a circular line's band (zero inside the band)."""
    d = abs(math.hypot(cx - ox, cy - oy) - radius) - half_width
    return d if d > 0.0 else 0.0


@njit(cache=True)
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


@njit(cache=True)
def point_in_polygon_or_on_boundary(px, py, vertices):
    """Like ``point_in_polygon`` over the whole ring, but a point on the boundary counts as inside."""
    n = vertices.shape[0]
    for i in range(n):
        j = (i + 1) % n
        if point_segment_distance(px, py, vertices[i, 0], vertices[i, 1], vertices[j, 0], vertices[j, 1]) == 0.0:
            return True
    return point_in_polygon(px, py, vertices, 0, n)


@njit(cache=True, inline="always")
def point_in_annulus(px, py, ox, oy, inner, outer):
    """Whether (px, py) lies in inner <= distance < outer from (ox, oy) (inner 0: a full circle)."""
    rho = math.hypot(px - ox, py - oy)
    return rho >= inner and rho < outer
