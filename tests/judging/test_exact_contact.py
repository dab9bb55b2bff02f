"""Exact contact on every court: a disc placed exactly flush with any edge or exactly touching any
line, its position computed from the court's own numbers, is judged as courts/README.md says.

One tolerance (``geometry.TOUCH_TOLERANCE``) for lines, edges and hangers: within it, a disc touches a
line, is flush with an edge (no hanger), and has its centre on the surface (not fallen). Positions
are built two ways: exactly (``shuffle_sim.testing``, rational arithmetic settled on the last float)
and as a user would in floating point (the edge minus the radius), which lands a few 1e-16 m off.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging import judge, judge_batch
from shuffle_sim.testing import (
    assert_corner_hangers,
    assert_edge_boundary,
    assert_line_boundary,
    edge_point,
    probe_edge,
)

COURTS = [("deck", "foot"), ("deck", "head"), ("horse-collar", None), ("ricochet", None), ("crokinole", None)]
EDGES = [(name, end, e.name) for name, end in COURTS for e in load_court(name, end=end).edges]
LINES = [(name, end, ln.name) for name, end in COURTS for ln in load_court(name, end=end).judged_lines]
ALONG = (0.3, 0.5, 0.7)


def _naive_flush(court, edge, along: float, depth: float) -> tuple[float, float]:
    """The centre ``depth`` inside an edge as plain floating point puts it: the edge point plus the
    inward normal times the depth (for a circular edge, on the circle of radius R - depth)."""
    if edge.kind == "segment":
        x0, y0, x1, y1 = edge.geom
        nx, ny = edge.inward_normal()
        return x0 + along * (x1 - x0) + depth * nx, y0 + along * (y1 - y0) + depth * ny
    cx, cy, radius, _ = edge.geom
    angle = 2 * math.pi * along
    return cx + (radius - depth) * math.cos(angle), cy + (radius - depth) * math.sin(angle)


def test_the_puck_flush_with_the_far_edge_is_not_a_hanger():
    court = load_court("horse-collar")
    far = court.edge("far gutter")
    y = far.geom[1] - court.disc_radius  # 2.8e-16 m past the edge in floating point
    record = judge("horse-collar", 0.0, y)
    assert record["hanger"] is None and record["value"] == 3
    assert judge(court, 0.0, math.nextafter(y, 10.0) + 1e-9)["hanger"] == "end"


@pytest.mark.parametrize("name, end, edge", EDGES, ids=[f"{n}-{e or 'default'}-{g}" for n, e, g in EDGES])
def test_every_edge_flush_overhanging_and_falling(name, end, edge):
    court = load_court(name, end=end)
    e = court.edge(edge)
    over_value = court.hanger_end_value if e.overhang == "end" else None
    for along in ALONG:
        assert_edge_boundary(court, edge, along=along, over_value=over_value)
        # Flush as floating point puts it: still flush, the centre on the surface.
        x, y = _naive_flush(court, e, along, court.disc_radius)
        result = judge_batch(court, [x], [y])
        assert result.hanger[0] == 0 and not result.fallen[0], (edge, along, "flush", x, y)
        x, y = _naive_flush(court, e, along, 0.0)
        result = judge_batch(court, [x], [y])
        assert not result.fallen[0] and result.hanger[0] == (1 if e.overhang == "end" else 0), (edge, along, x, y)


@pytest.mark.parametrize("name, end, line", LINES, ids=[f"{n}-{e or 'default'}-{g}" for n, e, g in LINES])
def test_every_line_touched_exactly_on_both_sides(name, end, line):
    court = load_court(name, end=end)
    ln = court.line(line)
    for along in ALONG:
        for side in (1, -1):
            if ln.kind == "circle" and side == -1 and ln.geom[2] < ln.width / 2 + court.disc_radius:
                continue  # a disc cannot lie inside a circle smaller than itself
            assert_line_boundary(court, line, along=along, side=side)
            # Tangent as floating point puts it: the line's point plus the normal times hw + r.
            if ln.kind == "segment":
                x0, y0, x1, y1 = ln.geom
                length = math.hypot(x1 - x0, y1 - y0)
                nx, ny = -(y1 - y0) / length * side, (x1 - x0) / length * side
                reach = ln.width / 2 + court.disc_radius
                x, y = x0 + along * (x1 - x0) + reach * nx, y0 + along * (y1 - y0) + reach * ny
            else:
                cx, cy, radius, _ = ln.geom
                rho = radius + side * (ln.width / 2 + court.disc_radius)
                x, y = cx + rho * math.cos(2 * math.pi * along), cy + rho * math.sin(2 * math.pi * along)
            assert line in judge(court, x, y)["touching"], (line, along, side, x, y)


def test_horse_collar_corners_give_end_side_and_corner_hangers():
    for side in ("left gutter", "right gutter"):
        probe = assert_corner_hangers("horse-collar", "far gutter", side)
        assert probe.over_both["value"] == 26 and probe.over_first["value"] == 13


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([e for e in EDGES if e[0] != "deck" or e[1] == "foot"]),
    st.floats(0.05, 0.95),
    st.sampled_from([0.0, 1e-9, -1e-9, 1e-6, -1e-6]),
)
def test_edge_points_are_exact_and_judged_by_their_side_of_the_threshold(case, along, gap):
    name, end, edge = case
    court = load_court(name, end=end)
    e = court.edge(edge)
    x, y = edge_point(court, edge, along, gap)
    record = judge_batch(court, [x], [y])
    overhanging = gap < 0
    if e.overhang == "end":
        assert (record.hanger[0] > 0) == overhanging
    else:
        assert record.hanger[0] == 0  # a side or plain edge alone makes no hanger
    assert not record.fallen[0]
    x, y = edge_point(court, edge, along, gap, of="centre")
    assert judge_batch(court, [x], [y]).fallen[0] == (gap < 0)


def test_edge_probes_say_where_and_what():
    probe = probe_edge("ricochet", "front edge", along=0.4)
    assert probe.exact["hanger"] is None and probe.outside["hanger"] == "end" and probe.outside["value"] == 5
    assert probe.inside["hanger"] is None and not probe.exact["fallen"]
    fall = probe_edge("crokinole", "ditch", along=0.125, of="centre")
    assert not fall.exact["fallen"] and fall.outside["fallen"] and fall.outside["value"] == 0
    with pytest.raises(
        AssertionError,
        match=r"court 'ricochet', edge 'front edge' at along=0.5: disc 1e-09 m over "
        r"the edge at \(0\.0, .*\) m: value 5, expected 4",
    ):
        assert_edge_boundary("ricochet", "front edge", over_value=4)
    with pytest.raises(ValueError, match="has no edge 'back edge' \\(edges: 'front edge'\\)"):
        edge_point("ricochet", "back edge")
    with pytest.raises(ValueError, match="of must be 'disc' or 'centre'"):
        edge_point("ricochet", "front edge", of="rim")
    with pytest.raises(ValueError, match="hair must be at least 1e-10 m"):
        probe_edge("ricochet", "front edge", hair=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([e for e in EDGES if e[0] != "deck" or e[1] == "foot"]),
    st.floats(0.05, 0.95),
    st.floats(-0.9 * TOUCH_TOLERANCE, 0.0),
    st.booleans(),
)
def test_a_centre_within_exact_contact_beyond_an_edge_is_judged_as_on_it(case, along, gap, batch):
    """A centre beyond the surface's outline by less than ``TOUCH_TOLERANCE`` is on the surface, and in
    the zone that runs along the edge there, judged as the centre exactly on the edge: the same value,
    zone and verdict (crokinole: beyond the 5 line and removed, never alive "in the 0 circle"). One
    disc takes the full procedure, a large batch the grid of cells."""
    name, end, edge = case
    court = load_court(name, end=end)
    on = edge_point(court, edge, along, 0.0, of="centre")
    beyond = edge_point(court, edge, along, gap, of="centre")
    count = 3000 if batch else 1
    exact, near = (judge_batch(court, [p[0]] * count, [p[1]] * count) for p in (on, beyond))
    for field in ("value", "zone", "dead", "fallen", "hanger"):
        assert getattr(near, field)[0] == getattr(exact, field)[0], (field, on, beyond)
    if name == "crokinole":
        assert near.dead[0] and near.value[0] == 0
