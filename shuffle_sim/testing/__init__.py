"""Helpers for validating a court file's judging (lines, edges, hangers) in your own pytest suite.

A court file is data; these functions let you state what it must judge and get a clear failure when
it does not::

    from shuffle_sim.testing import assert_value, assert_line_boundary, probe_line, touching_point

    def test_my_court():
        assert_value("my-court.toml", 0.0, 14.0, 10)              # a disc in the 10 zone is a 10
        assert_line_boundary("my-court.toml", "8 ft line",          # touching the line scores 0,
                             touching_value=0, clear_value=8, side=-1)  # a hair clear of it, 8

``touching_point`` builds a disc centre whose circle is exactly ``gap`` metres from a line's band
(a line has width; ``gap`` 0 is tangency, negative overlaps the band), for straight and circular
lines. ``probe_line`` judges three discs there: exactly touching, a hair into the band and a hair
clear of it.

Edges have two thresholds, and the same helpers probe both. ``edge_point`` builds a disc centre
whose circle is exactly ``gap`` metres inside an edge (``of="disc"``: 0 is flush, negative overhangs
by ``-gap``: where hangers begin) or whose centre is (``of="centre"``: 0 is on the edge, negative
beyond it: where the disc falls). ``probe_edge`` judges three discs at either threshold: exactly
there, a hair inside and a hair outside; ``probe_corner`` judges a disc flush with, or a hair over,
each of two edges that meet at a corner (end, side and corner hangers). The ``assert_*`` functions
raise ``AssertionError`` naming the court, the end, the point and the line or edge. Every court
argument may be a ``Court`` or a court name or file path.

"Exactly" is meant literally: for ``gap`` the returned centre is the floating-point point, moved
along one coordinate, whose exact (rational) distance to the band is the largest not above
``r + gap`` (straight lines: the perpendicular distance, for ``along`` in [0, 1]; circles: the radial
distance); for an edge, whose exact distance inside the edge is the smallest not below ``r + gap``
(``of="disc"``) or ``gap`` (``of="centre"``). Judging counts boundaries within
``geometry.TOUCH_TOLERANCE`` (1e-12 m) of each other as in exact contact: a disc within it of a line
touches the line, one within it of an edge is flush (not a hanger), a centre within it of the edge
is on the surface. So a disc placed at an edge minus its radius in floating point, a few 1e-16 m
off, is judged as exactly flush; and a ``hair`` must be well above the tolerance.

Inside the package: ``_lines`` (points at a line's boundary), ``_edges`` (points at an edge's
thresholds, corners) and ``_common`` (judging one disc, what the probes share).
"""

from shuffle_sim.testing._common import assert_judged, assert_value, judged
from shuffle_sim.testing._edges import (
    CornerProbe,
    EdgeProbe,
    assert_corner_hangers,
    assert_edge_boundary,
    corner_point,
    edge_point,
    probe_corner,
    probe_edge,
)
from shuffle_sim.testing._lines import LineProbe, assert_line_boundary, probe_line, touching_point

__all__ = [
    "CornerProbe",
    "EdgeProbe",
    "LineProbe",
    "assert_corner_hangers",
    "assert_edge_boundary",
    "assert_judged",
    "assert_line_boundary",
    "assert_value",
    "corner_point",
    "edge_point",
    "judged",
    "probe_corner",
    "probe_edge",
    "probe_line",
    "touching_point",
]
