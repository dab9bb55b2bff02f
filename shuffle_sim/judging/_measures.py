"""Distances the rules measure from a resting disc: to a line's band, the MSA C-2 lag distance, and
nearness to an edge (ricochet's closest-weights rule)."""

from __future__ import annotations

import math

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.geometry import band_distance, point_segment_distance, ring_distance


def line_distance(court: Court | str, x: float, y: float, line: str, end: str | None = None) -> float:
    """Distance from a disc to a line's band: edge of disc to edge of line, 0 when touching."""
    court = as_court(court, end)
    ln = court.line(line)
    r = court.disc_radius
    if ln.kind == "segment":
        d = band_distance(x, y, *ln.geom, ln.width / 2)
    else:
        d = ring_distance(x, y, ln.geom[0], ln.geom[1], ln.geom[2], ln.width / 2)
    return max(0.0, d - r)


def lag_distance(court: Court | str, x: float, y: float, line: str = "dead line", end: str | None = None) -> float:
    """Lag measurement of MSA rule C-2 from a disc at (x, y) to a line (default: the far dead line).

    When the disc touches the line: centre of disc to centre of line. Otherwise: nearest edge of disc
    to nearest edge of line. Smaller wins the lag.
    """
    court = as_court(court, end)
    ln = court.line(line)
    if line_distance(court, x, y, line) > 0.0:
        return line_distance(court, x, y, line)
    if ln.kind == "segment":
        return point_segment_distance(x, y, *ln.geom)
    return abs(math.hypot(x - ln.geom[0], y - ln.geom[1]) - ln.geom[2])


def edge_nearness(court: Court | str, x: float, y: float, edge: str = "front edge") -> float:
    """Distance from an edge to the disc's nearest point (ricochet: nearness to the front edge).

    Negative when the disc overhangs the edge. Smaller is nearer.
    """
    court = as_court(court)
    e = court.edge(edge)
    r = court.disc_radius
    if e.kind == "segment":
        x0, y0 = e.geom[0], e.geom[1]
        nx, ny = e.inward_normal()
        return (x - x0) * nx + (y - y0) * ny - r
    return e.geom[2] - math.hypot(x - e.geom[0], y - e.geom[1]) - r
