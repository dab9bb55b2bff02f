"""Every judging predicate against Shapely (GEOS), an independent geometry library.

Shapely's ``Point.buffer`` is a polygon, so discs are compared by distance (distance from the centre
to the line's band <= r), never by polygon intersection. Random points closer than ``BAND`` to a
decision threshold are left out of the comparison (both sides are right there within rounding);
points built exactly at a threshold (tangent, and 1e-9 m either side) are checked against our
predicate exactly and against Shapely's distance to within 1e-12 m.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from shuffle_sim import judge_batch, load_court
from shuffle_sim.court.geometry import (
    TOUCH_TOLERANCE,
    band_distance,
    disc_touches_band,
    disc_touches_ring,
    point_in_annulus,
    point_in_polygon,
    ring_distance,
)
from shuffle_sim.judging.procedure import HANGER_CORNER, HANGER_END, HANGER_NONE
from shuffle_sim.testing import touching_point

#: Random points this close (m) to a threshold are not compared with the oracle.
BAND = 1e-10
COURT_ENDS = [("deck", "foot"), ("deck", "head"), ("horse-collar", None), ("ricochet", None), ("crokinole", None)]
HYPOTHESIS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])

coord = st.floats(min_value=-20.0, max_value=20.0, allow_nan=False, allow_infinity=False)
small = st.floats(min_value=1e-4, max_value=2.0, allow_nan=False, allow_infinity=False)


def courts():
    return [load_court(name, end=end) for name, end in COURT_ENDS]


def court_ids():
    return [f"{name}-{end or 'default'}" for name, end in COURT_ENDS]


def flat_band(x0, y0, x1, y1, hw):
    return LineString([(x0, y0), (x1, y1)]).buffer(hw, cap_style="flat")


# ---- single predicates over random geometry (hypothesis) -------------------------------------------


@HYPOTHESIS
@given(coord, coord, coord, coord, coord, coord, small, small)
def test_band_touching_matches_shapely(cx, cy, x0, y0, x1, y1, hw, r):
    assume(math.hypot(x1 - x0, y1 - y0) > 1e-3)
    oracle = shapely.distance(flat_band(x0, y0, x1, y1, hw), Point(cx, cy))
    assert band_distance(cx, cy, x0, y0, x1, y1, hw) == pytest.approx(oracle, abs=1e-9)
    assume(abs(oracle - r) > BAND)
    assert disc_touches_band(cx, cy, r, x0, y0, x1, y1, hw) == (oracle <= r)


@HYPOTHESIS
@given(coord, coord, coord, coord, st.floats(0.01, 5.0), st.floats(1e-4, 0.05), small)
def test_ring_touching_matches_shapely_distance_and_buffers(cx, cy, ox, oy, radius, hw, r):
    # Distance oracle: GEOS point distance to the centre, the annulus [R - hw, R + hw] around it.
    rho = shapely.distance(Point(ox, oy), Point(cx, cy))
    oracle = max(0.0, abs(rho - radius) - hw)
    assert ring_distance(cx, cy, ox, oy, radius, hw) == pytest.approx(oracle, abs=1e-9)
    assume(abs(oracle - r) > BAND)
    ours = disc_touches_ring(cx, cy, r, ox, oy, radius, hw)
    assert ours == (oracle <= r)
    # Polygon oracle: the annulus as a difference of buffers, compared outside its chord error.
    quad_segs = 256
    annulus = (
        Point(ox, oy)
        .buffer(radius + hw, quad_segs=quad_segs)
        .difference(Point(ox, oy).buffer(max(radius - hw, 0.0), quad_segs=quad_segs))
    )
    chord_error = (radius + hw) * (1 - math.cos(math.pi / (4 * quad_segs))) + 1e-12
    polygon_distance = shapely.distance(annulus, Point(cx, cy))
    assume(abs(polygon_distance - r) > 2 * chord_error)
    assert ours == (polygon_distance <= r)


polygon_points = st.lists(st.tuples(coord, coord), min_size=3, max_size=8)


@HYPOTHESIS
@given(polygon_points, coord, coord)
def test_point_in_polygon_matches_shapely(points, px, py):
    ring = Polygon(points)
    assume(ring.is_valid and ring.area > 1e-3)
    vertices = np.array(ring.exterior.coords[:-1], dtype=np.float64)
    assume(ring.exterior.distance(Point(px, py)) > BAND)
    assert point_in_polygon(px, py, vertices, 0, len(vertices)) == ring.contains(Point(px, py))


# ---- every zone, surface, line and edge of every court, at random positions ----------------------


def random_points(court, n, seed):
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = court.bounds
    pad = 3 * court.disc_radius
    return rng.uniform(x0 - pad, x1 + pad, n), rng.uniform(y0 - pad, y1 + pad, n)


@pytest.mark.parametrize("court", courts(), ids=court_ids())
def test_every_zone_contains_like_shapely(court):
    xs, ys = random_points(court, 4000, seed=1)
    pts = shapely.points(xs, ys)
    for zone in court.zones:
        if zone.kind == "polygon":
            poly = Polygon(zone.polygon)
            expected = shapely.contains(poly, pts)
            margin = shapely.distance(poly.exterior, pts)
            ours = np.array([point_in_polygon(x, y, zone.polygon, 0, len(zone.polygon)) for x, y in zip(xs, ys)])
        else:
            cx, cy, inner, outer = zone.annulus
            rho = shapely.distance(Point(cx, cy), pts)
            expected = (rho >= inner) & (rho < outer)
            margin = np.minimum(abs(rho - inner), abs(rho - outer))
            ours = np.array([point_in_annulus(x, y, cx, cy, inner, outer) for x, y in zip(xs, ys)])
        clear = margin > BAND
        assert clear.sum() > 3000
        assert np.array_equal(ours[clear], expected[clear]), zone.name
        assert expected.any(), f"no random point fell in zone {zone.name!r}"


@pytest.mark.parametrize("court", courts(), ids=court_ids())
def test_every_line_band_like_shapely(court):
    xs, ys = random_points(court, 4000, seed=2)
    # Concentrate half the points near the lines, where touching is decided.
    rng = np.random.default_rng(3)
    r = court.disc_radius
    for _i, line in enumerate(court.judged_lines):
        t = rng.uniform(0, 1, 200)
        if line.kind == "segment":
            x0, y0, x1, y1 = line.geom
            bx, by = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        else:
            cx, cy, radius, _ = line.geom
            bx, by = cx + radius * np.cos(2 * np.pi * t), cy + radius * np.sin(2 * np.pi * t)
        xs = np.concatenate([xs, bx + rng.normal(0, 2 * r, 200)])
        ys = np.concatenate([ys, by + rng.normal(0, 2 * r, 200)])
    pts = shapely.points(xs, ys)
    result = judge_batch(court, xs, ys)
    on_surface = ~result.fallen & ~result.holed
    for k, line in enumerate(court.judged_lines):
        hw = line.width / 2
        if line.kind == "segment":
            distance = shapely.distance(flat_band(*line.geom, hw), pts)
        else:
            cx, cy, radius, _ = line.geom
            distance = np.maximum(0.0, abs(shapely.distance(Point(cx, cy), pts) - radius) - hw)
        expected = distance <= r
        ours = (result.touching >> np.uint64(k)) & np.uint64(1) == 1
        clear = on_surface & (abs(distance - r) > BAND)
        assert np.array_equal(ours[clear], expected[clear]), line.name
        assert expected[clear].any() and not expected[clear].all(), line.name


@pytest.mark.parametrize("court", courts(), ids=court_ids())
def test_on_surface_like_shapely(court):
    xs, ys = random_points(court, 6000, seed=4)
    pts = shapely.points(xs, ys)
    if court.surface_kind == "polygon":
        surface = Polygon(court.surface_polygon)
        expected = shapely.covers(surface, pts)
        margin = shapely.distance(surface.exterior, pts)
    else:
        cx, cy, radius = court.surface_circle
        rho = shapely.distance(Point(cx, cy), pts)
        expected = rho <= radius
        margin = abs(rho - radius)
    result = judge_batch(court, xs, ys)
    clear = margin > BAND
    assert np.array_equal(~result.fallen[clear], expected[clear])
    assert np.all(result.dead[result.fallen]) and np.all(result.value[result.fallen] == 0)
    ours = np.array([court.on_surface(x, y) for x, y in zip(xs, ys)])
    assert np.array_equal(ours[clear], expected[clear])
    # A centre exactly on the outline is on the surface (the disc has not fallen yet).
    for x, y in court.surface_polygon if court.surface_polygon is not None else []:
        assert court.on_surface(x, y)
        assert not judge_batch(court, [x], [y]).fallen[0]


@pytest.mark.parametrize("name", ["horse-collar", "ricochet"])
def test_hanger_overhang_like_shapely(name):
    court = load_court(name)
    r = court.disc_radius
    x0, y0, x1, y1 = court.bounds
    rng = np.random.default_rng(5)
    # Near the edges, where discs overhang: within two radii of the surface's outline.
    n = 6000
    xs = np.concatenate([rng.uniform(x0, x1, n), rng.choice([x0, x1], n) + rng.uniform(-2 * r, 2 * r, n)])
    ys = np.concatenate([rng.choice([y0, y1], n) + rng.uniform(-2 * r, 2 * r, n), rng.uniform(y0, y1, n)])
    corner = rng.uniform(-2 * r, 2 * r, (n, 2))
    xs = np.concatenate([xs, np.where(corner[:, 0] > 0, x1 - corner[:, 0], x0 - corner[:, 0])])
    ys = np.concatenate([ys, y1 - abs(corner[:, 1])])
    pts = shapely.points(xs, ys)
    result = judge_batch(court, xs, ys)
    over = {"end": np.zeros(len(xs), bool), "side": np.zeros(len(xs), bool)}
    ambiguous = np.zeros(len(xs), bool)
    for edge in court.edges:
        if edge.overhang == "none":
            continue
        d = shapely.distance(LineString([edge.geom[:2], edge.geom[2:]]), pts)
        over[edge.overhang] |= d < r
        ambiguous |= abs(d - r) < BAND
    expected = np.where(over["end"], np.where(over["side"], HANGER_CORNER, HANGER_END), HANGER_NONE)
    check = ~result.fallen & ~ambiguous
    assert np.array_equal(result.hanger[check], expected[check])
    assert (expected[check] == HANGER_END).sum() > 100
    if name == "horse-collar":
        assert (expected[check] == HANGER_CORNER).sum() > 100


# ---- a full reference judge in Shapely ------------------------------------------------------------


def shapely_judge(court, xs, ys):
    """Judge every centre with Shapely geometry and the procedure of judge.py's docstring.

    Returns (value, zone index, touching mask, dead, hanger, fallen, ambiguous): ``ambiguous`` marks
    points within BAND of any threshold, which the comparison leaves out.
    """
    n = len(xs)
    pts = shapely.points(xs, ys)
    r = court.disc_radius
    ambiguous = np.zeros(n, bool)
    if court.surface_kind == "polygon":
        surface = Polygon(court.surface_polygon)
        on = shapely.covers(surface, pts)
        ambiguous |= shapely.distance(surface.exterior, pts) < BAND
    else:
        cx, cy, radius = court.surface_circle
        rho = shapely.distance(Point(cx, cy), pts)
        on = rho <= radius
        ambiguous |= abs(rho - radius) < BAND
    holed = np.zeros(n, bool)
    hole_zone = np.full(n, -1)
    for h, hole in enumerate(court.holes):
        rho = shapely.distance(Point(hole.x, hole.y), pts)
        inside = (rho <= hole.capture_radius) & ~holed
        hole_zone[inside] = len(court.zones) + h
        holed |= inside
        ambiguous |= abs(rho - hole.capture_radius) < BAND
    zone = np.full(n, -1)
    for z, spec in enumerate(court.zones):
        if spec.kind == "polygon":
            poly = Polygon(spec.polygon)
            inside = shapely.contains(poly, pts)
            ambiguous |= shapely.distance(poly.exterior, pts) < BAND
        else:
            cx, cy, inner, outer = spec.annulus
            rho = shapely.distance(Point(cx, cy), pts)
            inside = (rho >= inner) & (rho < outer)
            ambiguous |= (abs(rho - inner) < BAND) | (abs(rho - outer) < BAND)
        zone[(zone < 0) & inside] = z
    touching = np.zeros(n, np.uint64)
    touch_value = np.full(n, np.iinfo(np.int64).max)
    touch_dead = np.zeros(n, bool)
    touch_alive = np.zeros(n, bool)
    for k, line in enumerate(court.judged_lines):
        hw = line.width / 2
        if line.kind == "segment":
            d = shapely.distance(flat_band(*line.geom, hw), pts)
        else:
            cx, cy, radius, _ = line.geom
            d = np.maximum(0.0, abs(shapely.distance(Point(cx, cy), pts) - radius) - hw)
        hit = d <= r
        ambiguous |= abs(d - r) < BAND
        touching[hit] |= np.uint64(1 << k)
        if line.touch_value is not None:
            touch_value[hit] = np.minimum(touch_value[hit], line.touch_value)
        touch_dead |= hit & line.touch_dead
        touch_alive |= hit & line.touch_alive
    over = {"end": np.zeros(n, bool), "side": np.zeros(n, bool)}
    for edge in court.edges:
        if edge.overhang == "none":
            continue
        if edge.kind == "segment":
            d = shapely.distance(LineString([edge.geom[:2], edge.geom[2:]]), pts)
        else:
            d = edge.geom[2] - shapely.distance(Point(edge.geom[0], edge.geom[1]), pts)
        over[edge.overhang] |= d < r
        ambiguous |= abs(d - r) < BAND
    hanger = np.where(over["end"], np.where(over["side"], HANGER_CORNER, HANGER_END), HANGER_NONE)
    zone_dead = np.array([z.dead for z in court.zones] + [False])[zone]
    dead = touch_dead | ((zone >= 0) & zone_dead & ~touch_alive)
    zone_value = np.array([z.value for z in court.zones] + [0])[zone]
    value = np.where(touch_value != np.iinfo(np.int64).max, touch_value, np.where(zone >= 0, zone_value, 0))
    if court.hanger_end_value is not None:
        value = np.where(hanger == HANGER_END, court.hanger_end_value, value)
    if court.hanger_corner_value is not None:
        value = np.where(hanger == HANGER_CORNER, court.hanger_corner_value, value)
    value = np.where(dead, 0, value)
    # Holed and fallen discs take precedence over everything else.
    hole_value = np.array([h.value for h in court.holes] + [0])[np.where(holed, hole_zone - len(court.zones), -1)]
    value = np.where(holed, hole_value, value)
    zone = np.where(holed, hole_zone, zone)
    touching[holed] = 0
    dead = np.where(holed, False, dead)
    hanger = np.where(holed, HANGER_NONE, hanger)
    value = np.where(on, value, 0)
    zone = np.where(on, zone, -1)
    touching[~on] = 0
    dead = np.where(on, dead, True)
    hanger = np.where(on, hanger, HANGER_NONE)
    return value, zone, touching, dead, hanger, ~on, ambiguous


@pytest.mark.parametrize("court", courts(), ids=court_ids())
def test_judge_batch_matches_shapely_reference(court):
    xs, ys = random_points(court, 20000, seed=6)
    value, zone, touching, dead, hanger, fallen, ambiguous = shapely_judge(court, xs, ys)
    result = judge_batch(court, xs, ys)
    keep = ~ambiguous
    assert keep.sum() > 19000
    for name, expected in [
        ("value", value),
        ("zone", zone),
        ("touching", touching),
        ("dead", dead),
        ("hanger", hanger),
        ("fallen", fallen),
    ]:
        ours = getattr(result, name)
        bad = np.flatnonzero((ours != expected) & keep)
        assert bad.size == 0, (
            f"{name} differs at ({xs[bad[0]]!r}, {ys[bad[0]]!r}): ours {ours[bad[0]]!r}, shapely {expected[bad[0]]!r}"
        )
    # The sample reaches every zone value the court has (not a test that cannot fail).
    assert set(np.unique(value[keep])) >= {z.value for z in court.zones if not z.dead}


# ---- exactly at a line: tangent, and 1e-9 m either side ------------------------------------------


def line_cases():
    cases = []
    for name, end in COURT_ENDS:
        court = load_court(name, end=end)
        for line in court.judged_lines:
            for side in (+1, -1):
                if line.kind == "circle" and side < 0 and line.geom[2] < line.width + 2 * court.disc_radius:
                    continue
                cases.append(pytest.param(name, end, line.name, side, id=f"{name}-{end}-{line.name}-{side:+d}"))
    return cases


@pytest.mark.parametrize("name, end, line_name, side", line_cases())
def test_constructed_touching_points(name, end, line_name, side):
    court = load_court(name, end=end)
    line = court.line(line_name)
    r = court.disc_radius
    hw = line.width / 2
    for along in (0.05, 0.37, 0.5, 0.81):
        for gap in (0.0, 1e-9, -1e-9):
            x, y = touching_point(court, line_name, along, side, gap)
            if line.kind == "segment":
                ours = disc_touches_band(x, y, r, *line.geom, hw)
                oracle = shapely.distance(flat_band(*line.geom, hw), Point(x, y))
            else:
                cx, cy, radius, _ = line.geom
                ours = disc_touches_ring(x, y, r, cx, cy, radius, hw)
                oracle = max(0.0, abs(shapely.distance(Point(cx, cy), Point(x, y)) - radius) - hw)
            # Our predicate is exactly right at the constructed points ...
            assert ours == (gap <= 0.0), (along, gap, x, y)
            # ... and Shapely measures the gap that was built, to within 1e-12 m.
            assert oracle == pytest.approx(r + gap, abs=1e-12), (along, gap)
            # The judge agrees wherever the disc is still on the court.
            result = judge_batch(court, [x], [y])
            if not result.fallen[0]:
                assert (line_name in result.touching_names(0)) == (gap <= 0.0)


def test_touch_tolerance_is_tiny_and_one_sided():
    court = load_court("deck")
    line = court.line("8 ft line")
    r = court.disc_radius
    for gap, touches in [(0.5 * TOUCH_TOLERANCE, True), (10 * TOUCH_TOLERANCE, False), (1e-9, False)]:
        x, y = touching_point(court, "8 ft line", 0.5, +1, gap)
        assert disc_touches_band(x, y, r, *line.geom, line.width / 2) == touches
