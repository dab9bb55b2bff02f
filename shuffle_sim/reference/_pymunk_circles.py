"""Circles in a pymunk space as straight pieces: a cushion ring of segments seen from inside, and the
sensor quads beyond a circular edge (the crokinole rail and ditch)."""

from __future__ import annotations

import math

import pymunk

#: Segments in the ring of sensor quads beyond a circular edge; the ring's distance from the true
#: circle is at most R (1 / cos(pi / N) - 1), about 6e-6 m for the 13 in crokinole ditch.
EDGE_SEGMENTS = 512
#: Segments in the ring that stands for a circular cushion. A segment's normal is off the circle's
#: by at most pi / N (1.5e-3 rad), which turns a rebound by up to twice that.
RAIL_SEGMENTS = 2048


def ring_segments(body: pymunk.Body, cx: float, cy: float, radius: float) -> list[pymunk.Segment]:
    """A closed ring of segments tangent to the circle at their midpoints, joined smoothly."""
    n = RAIL_SEGMENTS
    outer = radius / math.cos(math.pi / n)
    pts = [
        (cx + outer * math.cos(2 * math.pi * (k + 0.5) / n), cy + outer * math.sin(2 * math.pi * (k + 0.5) / n))
        for k in range(n)
    ]
    segments = []
    for k in range(n):
        seg = pymunk.Segment(body, pts[k], pts[(k + 1) % n], 0.0)
        seg.set_neighbors(pts[k - 1], pts[(k + 2) % n])
        segments.append(seg)
    return segments


def outside_of_circle(cx: float, cy: float, radius: float, reach: float) -> list[list[tuple[float, float]]]:
    """Convex quads covering the outside of a circle (from the circle out to ``radius + reach``).

    Their inner sides are tangent to the circle at their midpoints, so a centre counts as outside
    at most R (1 / cos(pi / N) - 1) beyond the true circle.
    """
    n = EDGE_SEGMENTS
    inner = radius / math.cos(math.pi / n)
    far = (radius + reach) / math.cos(math.pi / n)
    quads = []
    for k in range(n):
        a0 = 2 * math.pi * (k - 0.5) / n
        a1 = 2 * math.pi * (k + 0.5) / n
        quads.append(
            [
                (cx + inner * math.cos(a0), cy + inner * math.sin(a0)),
                (cx + far * math.cos(a0), cy + far * math.sin(a0)),
                (cx + far * math.cos(a1), cy + far * math.sin(a1)),
                (cx + inner * math.cos(a1), cy + inner * math.sin(a1)),
            ]
        )
    return quads
