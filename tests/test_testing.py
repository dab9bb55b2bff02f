"""The user-facing testing helpers: points at a line's boundary, probes and clear assertions."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import load_court
from shuffle_sim.court import court_path
from shuffle_sim.testing import (
    LineProbe,
    assert_judged,
    assert_line_boundary,
    assert_value,
    judged,
    probe_line,
    touching_point,
)
from shuffle_sim.units import FOOT as FT
from shuffle_sim.units import INCH as IN

DECK = load_court("deck")
BOARD = load_court("crokinole")


def exact_offset_squared(line, x, y):
    """Exact squared distance from (x, y) to the line's centre (segment: perpendicular; circle: radial)."""
    if line.kind == "segment":
        x0, y0, x1, y1 = map(Fraction, line.geom)
        cross = (x1 - x0) * (Fraction(y) - y0) - (y1 - y0) * (Fraction(x) - x0)
        return cross * cross / ((x1 - x0) ** 2 + (y1 - y0) ** 2)
    cx, cy = Fraction(line.geom[0]), Fraction(line.geom[1])
    return (Fraction(x) - cx) ** 2 + (Fraction(y) - cy) ** 2


STRAIGHT = [(DECK, ln.name) for ln in DECK.judged_lines]
CIRCLES = [(BOARD, ln.name) for ln in BOARD.judged_lines]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(STRAIGHT),
    st.floats(0.0, 1.0),
    st.sampled_from([1, -1]),
    st.sampled_from([0.0, 1e-9, -1e-9, 1e-3, -2e-2, 0.25]),
)
def test_touching_point_is_exact_for_straight_lines(case, along, side, gap):
    court, name = case
    line = court.line(name)
    x, y = touching_point(court, name, along, side, gap)
    target = Fraction(line.width) / 2 + Fraction(court.disc_radius) + Fraction(gap)
    offset2 = exact_offset_squared(line, x, y)
    assert offset2 <= target * target
    # The last such float: one ulp further out (along the coordinate that moves fastest) is beyond.
    x0, y0, x1, y1 = line.geom
    n = (-(y1 - y0) * side, (x1 - x0) * side)
    if abs(n[0]) >= abs(n[1]):
        x = math.nextafter(x, math.copysign(math.inf, n[0]))
    else:
        y = math.nextafter(y, math.copysign(math.inf, n[1]))
    assert exact_offset_squared(line, x, y) > target * target
    # On the asked side, at the asked place along the line.
    cross_sign = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
    assert math.copysign(1, cross_sign) == side
    u = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)
    assert u == pytest.approx(along, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(CIRCLES), st.floats(0.0, 1.0), st.sampled_from([1, -1]), st.sampled_from([0.0, 1e-9, -1e-9, 0.01])
)
def test_touching_point_is_exact_for_circles(case, along, side, gap):
    court, name = case
    line = court.line(name)
    x, y = touching_point(court, name, along, side, gap)
    rho = Fraction(line.geom[2]) + side * (Fraction(line.width) / 2 + Fraction(court.disc_radius) + Fraction(gap))
    offset2 = exact_offset_squared(line, x, y)
    assert offset2 <= rho * rho if side > 0 else offset2 >= rho * rho
    assert math.atan2(y, x) % (2 * math.pi) == pytest.approx(
        (2 * math.pi * along) % (2 * math.pi), abs=1e-9
    ) or along in (0.0, 1.0)


def test_probe_line_judges_three_discs():
    probe = probe_line(DECK, "8 ft line", along=0.3, side=-1)
    assert isinstance(probe, LineProbe)
    assert probe.court == "deck" and probe.end == "foot" and probe.line == "8 ft line"
    assert probe.touching["touching"] == ["8 ft line"] and probe.inside["touching"] == ["8 ft line"]
    assert probe.clear["touching"] == [] and probe.clear["value"] == 7
    assert probe.clear_point[1] < probe.touching_point[1] < probe.inside_point[1]
    ring = probe_line(BOARD, "10 line", along=0.1, side=+1, hair=1e-6)
    assert ring.touching["value"] == 5 and ring.clear["value"] == 5 and ring.clear["touching"] == []


def test_helpers_take_names_paths_and_ends(tmp_path):
    path = court_path("deck")
    assert judged("deck", 0.0, 37.2 * FT)["value"] == 10
    assert judged(str(path), 0.0, 37.2 * FT)["value"] == 10
    assert_value(path, 0.0, 14.8 * FT, 10, end="head")
    head = probe_line("deck", "baseline", along=0.5, side=+1, end="head")
    assert head.end == "head" and head.touching_point[1] == pytest.approx(6.5 * FT - 0.5 * IN - 3 * IN)


def test_assert_value_failure_names_court_point_and_judgement():
    with pytest.raises(AssertionError) as info:
        assert_value(DECK, 0.0, 41 * FT, 8)
    message = str(info.value)
    assert "court 'deck' (foot end)" in message
    assert f"({0.0!r}, {41 * FT!r}) m" in message
    assert "value 0, expected 8" in message and "'11 ft line'" in message


def test_assert_judged_lists_every_wrong_field():
    rec = assert_judged(BOARD, 0.0, 0.0, value=20, zone="20", touching=[], dead=False, hanger=None)
    assert rec["value"] == 20
    assert_judged(BOARD, 4 * IN, 0.0, touching="15 line")
    with pytest.raises(AssertionError) as info:
        assert_judged(BOARD, 12 * IN, 0.0, value=5, dead=False, touching=["10 line"])
    message = str(info.value)
    assert "court 'crokinole'" in message
    assert "value 0, expected 5" in message and "dead True, expected False" in message
    assert "touching ['5 line'], expected ['10 line']" in message


def test_assert_line_boundary_failures_name_the_line():
    with pytest.raises(AssertionError, match=r"line '14 ft line' at along=0.3, side=-1: disc exactly touching"):
        assert_line_boundary(DECK, "14 ft line", along=0.3, side=-1, touching_value=10)
    with pytest.raises(AssertionError, match=r"1e-09 m clear of the band .* value 8, expected 10"):
        assert_line_boundary(DECK, "14 ft line", along=0.3, side=+1, clear_value=10)
    # A line the court does not judge is never touched.
    with pytest.raises(AssertionError, match="expected it to touch the line"):
        assert_line_boundary(DECK, "separation triangle left", along=0.5)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(line="no such line"), "has no line 'no such line' \\(lines: 'baseline'"),
        (dict(line="8 ft line", side=0), "side must be \\+1 or -1"),
        (dict(line="8 ft line", along=1.5), "along must lie in \\[0, 1\\]"),
        (dict(line="8 ft line", gap=-1.0), "past the middle of line '8 ft line'"),
        (dict(line="8 ft line", gap=math.nan), "gap must be a finite number"),
    ],
)
def test_touching_point_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        touching_point(DECK, **kwargs)


def test_bad_probe_arguments():
    with pytest.raises(ValueError, match=r"cannot lie 0\.2 m inside circular line '15 line'"):
        touching_point(BOARD, "15 line", side=-1, gap=0.2)
    with pytest.raises(ValueError, match="hair must be at least 1e-10 m"):
        probe_line(DECK, "8 ft line", hair=1e-13)


def test_a_users_own_court_file(tmp_path):
    # What a user's test of their own court looks like: a two-zone strip with a line between.
    path = tmp_path / "strip.toml"
    path.write_text("""
name = "strip"
game = "custom"
frame = { origin = "near end", x = "right", y = "away" }
disc = { diameter = "2 in", mass = "0.25 kg" }
materials = { mu = 0.05 }
surface = { polygon = [["-1 ft", "0 ft"], ["1 ft", "0 ft"], ["1 ft", "4 ft"], ["-1 ft", "4 ft"], ["-1 ft", "0 ft"]] }

[[lines]]
name = "middle line"
from = ["-1 ft", "2 ft"]
to = ["1 ft", "2 ft"]
width = "1/2 in"
touch_value = 1

[[zones]]
name = "far"
value = 2
polygon = [["-1 ft", "2 ft"], ["1 ft", "2 ft"], ["1 ft", "4 ft"], ["-1 ft", "4 ft"], ["-1 ft", "2 ft"]]
""")
    assert_value(path, 0.0, 3 * FT, 2)
    assert_value(path, 0.0, 1 * FT, 0)
    assert_line_boundary(path, "middle line", side=+1, touching_value=1, clear_value=2)
    assert_line_boundary(path, "middle line", side=-1, touching_value=1, clear_value=0)
