"""Ricochet judging (ricochet rules, docs/rules.md): zone values, a line scores the smaller number, the first
line must be cleared, short of the scoring area is dead, a front overhang scores 5; and the nearness
measure the closest-weights rule uses.

Frame: origin at the centre of the front edge, +y toward the back bumper. Lines at 7, 11, 17 and
24 in from the front edge (the 24 in line is the first line a rebounding weight crosses).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import load_court
from shuffle_sim.judging import edge_nearness
from shuffle_sim.testing import assert_judged, assert_line_boundary
from shuffle_sim.units import INCH as IN

TABLE = load_court("ricochet")
R = TABLE.disc_radius


@pytest.mark.parametrize("y_in, value, zone", [(3.5, 4, "4"), (9.0, 3, "3"), (14.0, 2, "2"), (20.5, 1, "1")])
@pytest.mark.parametrize("x_in", [-7.5, 7.5])
def test_zone_values_on_both_halves(x_in, y_in, value, zone):
    assert_judged(TABLE, x_in * IN, y_in * IN, value=value, zone=zone, touching=[], dead=False, hanger=None)


@pytest.mark.parametrize(
    "line, lower, higher",
    [
        ("17 in line", 1, 2),
        ("11 in line", 2, 3),
        ("7 in line", 3, 4),
    ],
)
def test_a_line_scores_the_smaller_number(line, lower, higher):
    # side +1 is toward the back (lower values), side -1 toward the front edge (higher values).
    assert_line_boundary(TABLE, line, along=0.3, side=+1, touching_value=lower, clear_value=lower)
    assert_line_boundary(TABLE, line, along=0.7, side=-1, touching_value=lower, clear_value=higher)


def test_first_line_must_be_cleared():
    inside = assert_line_boundary(TABLE, "first line", along=0.4, side=-1, touching_value=0, clear_value=1)
    assert not inside.touching["dead"]  # on the first line: in the scoring area but worth nothing
    beyond = assert_line_boundary(TABLE, "first line", along=0.4, side=+1, touching_value=0, clear_value=0)
    assert not beyond.touching["dead"] and beyond.clear["dead"]


@pytest.mark.parametrize("y_in", [26.0, 40.0, 70.0])
def test_short_of_the_scoring_area_is_dead(y_in):
    assert_judged(TABLE, 5 * IN, y_in * IN, value=0, dead=True, zone="short of the scoring area")


def test_front_overhang_scores_five():
    for overhang in (1e-9, 0.5 * IN, R - 1e-9):
        assert_judged(TABLE, -4 * IN, R - overhang, value=5, hanger="end", dead=False)
    assert_judged(TABLE, -4 * IN, 0.0, value=5, hanger="end")  # centre on the edge: still on the table
    assert_judged(TABLE, -4 * IN, R + 1e-9, value=4, hanger=None)
    assert_judged(TABLE, -4 * IN, -1e-6, value=0, dead=True, hanger=None)  # fallen off the front


@settings(max_examples=200, deadline=None)
@given(st.floats(-14 * IN, 14 * IN), st.floats(-0.9 * IN, 30 * IN))
def test_nearness_to_the_front_edge(x, y):
    # The nearest point of the weight to the front edge: y - r; negative when it overhangs.
    assert edge_nearness(TABLE, x, y) == pytest.approx(y - R, abs=1e-15)
    if edge_nearness(TABLE, x, y) < 0 <= y:
        assert_judged(TABLE, x, y, value=5, hanger="end")


def test_nearness_orders_weights_like_example_a():
    # Example A: a blue and a red weight in the 3 section, the red ahead: red is nearer the front.
    red, blue = (3 * IN, 8.0 * IN), (-3 * IN, 9.5 * IN)
    assert_judged(TABLE, *red, value=3)
    assert_judged(TABLE, *blue, value=3)
    assert edge_nearness(TABLE, *red) < edge_nearness(TABLE, *blue)
