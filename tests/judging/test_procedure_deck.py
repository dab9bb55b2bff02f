"""Deck shuffleboard judging (MSA rules, docs/rules.md): zones, lines, dead discs, both ends.

Positions are given in feet from the head end (the court's frame: origin at the centre of the head
end, +y toward the foot); the scoring diagram judged by default is the one at the foot.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import judge, judge_batch, load_court
from shuffle_sim.testing import assert_judged, assert_line_boundary, assert_value, probe_line, touching_point
from shuffle_sim.units import FOOT as FT
from shuffle_sim.units import INCH as IN

COURT = load_court("deck")
HEAD = load_court("deck", end="head")
LENGTH = 52 * FT
R = COURT.disc_radius


@pytest.mark.parametrize(
    "x_ft, y_ft, value, zone",
    [
        (0.0, 37.2, 10, "10"),
        (-0.5, 39.5, 8, "8 left"),
        (0.5, 39.5, 8, "8 right"),
        (-0.6, 42.5, 7, "7 left"),
        (0.6, 42.5, 7, "7 right"),
        (1.0, 44.75, -10, "10-off"),
        (-1.6, 44.75, -10, "10-off"),
    ],
)
def test_zone_values(x_ft, y_ft, value, zone):
    assert_judged(COURT, x_ft * FT, y_ft * FT, value=value, zone=zone, touching=[], dead=False, hanger=None)


def test_separation_triangle_is_ignored():
    # A disc right on the separation triangle in the 10-off area is a 10-off, touching no line (D-2).
    for x in (0.0, 1.5 * IN, -1.5 * IN):
        assert_judged(COURT, x, 44.75 * FT, value=-10, touching=[], dead=False)
    sep = COURT.line("separation triangle left")
    assert not sep.judged


@pytest.mark.parametrize(
    "line, side, inside_value",
    [
        ("14 ft line", +1, 8),  # from the 8s side the 14 ft line scores 0
        ("14 ft line", -1, 10),  # from the 10's side too
        ("11 ft line", +1, 7),
        ("11 ft line", -1, 8),
        ("8 ft line", +1, -10),
        ("8 ft line", -1, 7),
        ("baseline", -1, -10),
    ],
)
def test_touching_any_line_scores_nothing(line, side, inside_value):
    # along 0.3: away from the centre line, which crosses the middle of the 8 and 11 ft lines.
    probe = assert_line_boundary(COURT, line, along=0.3, side=side, touching_value=0, clear_value=inside_value)
    assert not probe.touching["dead"] and not probe.inside["dead"]


@pytest.mark.parametrize(
    "line, along, side, clear_value",
    [
        ("centre line", 0.25, +1, 8),
        ("centre line", 0.25, -1, 8),
        ("centre line", 0.75, +1, 7),
        ("centre line", 0.75, -1, 7),
        ("left side of triangle", 0.19, -1, 10),
        ("right side of triangle", 0.19, +1, 10),
        ("left side of triangle", 0.47, -1, 8),
        ("right side of triangle", 0.71, +1, 7),
        ("left side of triangle", 0.93, -1, -10),
    ],
)
def test_centre_line_and_triangle_sides(line, along, side, clear_value):
    assert_line_boundary(COURT, line, along=along, side=side, touching_value=0, clear_value=clear_value)


def test_short_of_far_dead_line_is_dead_but_touching_it_is_alive():
    assert_judged(COURT, 0.0, 31 * FT, value=0, dead=True, zone="short of the dead line")
    probe = probe_line(COURT, "dead line", side=-1)  # the short side (toward the head)
    assert probe.touching["dead"] is False and probe.touching["touching"] == ["dead line"]
    assert probe.inside["dead"] is False
    assert probe.clear["dead"] is True and probe.clear["zone"] == "short of the dead line"
    # Past the dead line, outside the diagram: alive and worth nothing.
    assert_judged(COURT, 0.0, 33 * FT, value=0, dead=False, zone=None, touching=[])
    clear_beyond = probe_line(COURT, "dead line", side=+1).clear
    assert clear_beyond["dead"] is False and clear_beyond["touching"] == []


def test_past_far_baseline_is_dead_but_touching_it_is_alive():
    assert_judged(COURT, 0.0, 47 * FT, value=0, dead=True, zone="past the baseline")
    probe = probe_line(COURT, "baseline", along=0.4, side=+1)  # beyond the baseline
    assert probe.touching["dead"] is False and probe.touching["value"] == 0
    assert probe.inside["dead"] is False
    assert probe.clear["dead"] is True and probe.clear["zone"] == "past the baseline"


@pytest.mark.parametrize("y_ft", [10.0, 33.0, 37.5, 44.75, 50.0])
def test_alley_is_dead(y_ft):
    for side in (+1, -1):
        x = side * (3 * FT + 1e-6)
        assert_judged(COURT, x, y_ft * FT, value=0, dead=True, zone=None, touching=[], hanger=None)
    # Overhanging the alley with the centre still on the court means nothing special.
    assert_judged(COURT, 3 * FT - 1 * IN, 33 * FT, value=0, dead=False, hanger=None)


def test_head_end_diagram_is_judged_when_asked():
    assert_value(COURT, 0.0, (52 - 37.2) * FT, 0, end="foot")  # the head's 10 is outside the foot diagram...
    assert_judged(COURT, 0.0, (52 - 37.2) * FT, value=0, dead=True, end="foot")  # ...short of the far dead line
    assert_judged(COURT, 0.0, (52 - 37.2) * FT, value=10, zone="10", end="head")
    assert_judged(HEAD, 0.0, 31 * FT, value=0, dead=True, zone="short of the dead line")
    assert_judged(HEAD, 0.0, 19 * FT, value=0, dead=False, zone=None)  # past the head dead line (20 ft)


def mirrored(x, y):
    """The point at the head end that corresponds to (x, y) at the foot: a half turn about the centre."""
    return -x, LENGTH - y


def assert_same_judgement(foot_xy, head_xy):
    a = judge(COURT, *foot_xy)
    b = judge(HEAD, *head_xy)
    for key in ("value", "touching", "dead", "hanger"):
        assert a[key] == b[key], (key, foot_xy, a, b)
    # On a zone border (always under a line) the zone is the first in file order, whichever end.
    if not a["touching"]:
        assert a["zone"] == b["zone"], (foot_xy, a, b)


@settings(max_examples=400, deadline=None)
@given(st.floats(-3.5 * FT, 3.5 * FT), st.floats(28 * FT, 52 * FT))
def test_head_end_mirrors_foot_at_random_points(x, y):
    assert_same_judgement((x, y), mirrored(x, y))


@pytest.mark.parametrize("line", [ln.name for ln in COURT.judged_lines])
@pytest.mark.parametrize("side", [+1, -1])
def test_head_end_mirrors_foot_at_lines(line, side):
    # The same disc a hair either side of every line at both ends (the head's line runs the other
    # way after the half turn, so the same physical side is the same ``side`` argument).
    for gap in (1e-9, -1e-9):
        for along in (0.2, 0.7):
            foot = touching_point(COURT, line, along, side, gap)
            head = touching_point(HEAD, line, along, side, gap)
            np.testing.assert_allclose(head, mirrored(*foot), atol=1e-12)
            assert_same_judgement(foot, head)


def test_per_disc_values_of_a_half_round():
    # Four yellow and four black discs: 10, 8, 7, 10-off, on a line, dead short, dead long, 7.
    xs_ft = [0.0, -0.5, 0.6, 1.0, 0.0, 0.0, 0.0, -0.6]
    ys_ft = [37.2, 39.5, 42.5, 44.75, 41.0, 31.0, 47.0, 42.5]
    result = judge_batch(COURT, np.array(xs_ft) * FT, np.array(ys_ft) * FT)
    assert result.value.tolist() == [10, 8, 7, -10, 0, 0, 0, 7]
    assert result.dead.tolist() == [False] * 5 + [True, True, False]
