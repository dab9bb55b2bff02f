"""Horse collar judging (horse collar rules, docs/rules.md): 1/2/3, lines, foul line, hangers 13 and 26.

The table's frame: origin at the centre of the shooter's end, +y toward the far (scoring) end at
20 ft 8 in; the surface is 20 in wide (|x| <= 10 in). Trey line 6 in and deuce line 12 in from the
far end, foul line 6 ft from it.
"""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim import judge_batch, load_court
from shuffle_sim.testing import assert_judged, assert_line_boundary, probe_line
from shuffle_sim.units import INCH as IN

TABLE = load_court("horse-collar")
FAR = 248 * IN  # 20 ft 8 in
R = TABLE.disc_radius


@pytest.mark.parametrize(
    "x_in, y_in, value, zone",
    [
        (0.0, 244.5, 3, "3"),
        (-6.0, 245.0, 3, "3"),
        (0.0, 239.0, 2, "2"),
        (5.0, 200.0, 1, "1"),
        (-3.0, 180.0, 1, "1"),
    ],
)
def test_zone_values(x_in, y_in, value, zone):
    assert_judged(TABLE, x_in * IN, y_in * IN, value=value, zone=zone, touching=[], dead=False, hanger=None)


@pytest.mark.parametrize("side", [+1, -1])
def test_touching_deuce_line_is_one(side):
    # "All pucks touching or in front of the deuce line count as 1", from either side of it.
    assert_line_boundary(TABLE, "deuce line", side=side, touching_value=1, clear_value=2 if side == +1 else 1)


@pytest.mark.parametrize("side", [+1, -1])
def test_touching_trey_line_is_two(side):
    # "Between the deuce line and the trey line (including any touching the trey line) count as 2".
    assert_line_boundary(TABLE, "trey line", side=side, touching_value=2, clear_value=3 if side == +1 else 2)


@pytest.mark.parametrize("side", [+1, -1])
def test_foul_line_touch_is_dead(side):
    probe = assert_line_boundary(TABLE, "foul line", side=side, touching_value=0)
    assert probe.touching["dead"] and probe.inside["dead"]
    # Completely clear of it beyond: a 1; short of it: dead.
    assert probe.clear["dead"] == (side == -1)
    assert probe.clear["value"] == (1 if side == +1 else 0)


def test_short_of_foul_line_is_dead():
    assert_judged(TABLE, 0.0, 100 * IN, value=0, dead=True, zone="short of the foul line")


def test_end_hanger_is_thirteen():
    for overhang in (1e-9, 0.5 * IN, R - 1e-9):
        assert_judged(TABLE, 0.0, FAR - R + overhang, value=13, hanger="end", dead=False)
    # A hair short of hanging over the end: a 3.
    assert_judged(TABLE, 0.0, FAR - R - 1e-9, value=3, hanger=None)
    # Centre exactly on the end edge: still on the table, hanging half over.
    assert_judged(TABLE, 0.0, FAR, value=13, hanger="end")


@pytest.mark.parametrize("sx", [+1, -1])
def test_corner_hanger_is_twenty_six(sx):
    x = sx * (10 * IN - R + 0.3 * IN)
    assert_judged(TABLE, x, FAR - R + 0.3 * IN, value=26, hanger="corner", dead=False)
    assert_judged(TABLE, sx * 10 * IN, FAR, value=26, hanger="corner")  # centre on the very corner


@pytest.mark.parametrize("y_in, value", [(244.5, 3), (239.0, 2), (200.0, 1)])
def test_side_only_overhang_keeps_the_zone_value(y_in, value):
    for x in (10 * IN - R + 0.4 * IN, -(10 * IN - R + 1e-9), 10 * IN):
        assert_judged(TABLE, x, y_in * IN, value=value, hanger=None, dead=False)
    assert_judged(TABLE, 10 * IN - R + 0.4 * IN, 100 * IN, value=0, dead=True, hanger=None)  # short stays dead


@pytest.mark.parametrize("x_in, y_in", [(0.0, 248.01), (10.01, 200.0), (-10.01, 244.0), (0.0, -0.01), (10.2, 248.2)])
def test_fallen_is_dead(x_in, y_in):
    assert_judged(TABLE, x_in * IN, y_in * IN, value=0, dead=True, zone=None, hanger=None, touching=[])


def test_seed_example_one_three_two_twos_three_ones_is_ten():
    # Seed 003: one puck worth 3, two worth 2 and three worth 1, nothing short of the foul line: 10.
    xs = np.array([0.0, -5.0, 5.0, -6.0, 0.0, 6.0]) * IN
    ys = np.array([245.0, 239.0, 239.0, 190.0, 200.0, 210.0]) * IN
    result = judge_batch(TABLE, xs, ys)
    assert sorted(result.value.tolist()) == [1, 1, 1, 2, 2, 3]
    assert not result.dead.any()
    assert int(result.value.sum()) == 10
    # The pucks do not overlap (a real position on the table).
    d = np.hypot(xs[:, None] - xs[None, :], ys[:, None] - ys[None, :]) + np.eye(len(xs)) * 1e9
    assert d.min() > 2 * R


def test_hangers_and_lines_in_one_frame():
    # A 13, a 26, a puck touching the deuce line (1) and one touching the trey line (2): 42.
    deuce = probe_line(TABLE, "deuce line", along=0.3, side=-1).touching_point
    trey = probe_line(TABLE, "trey line", along=0.7, side=-1).touching_point
    xs = np.array([0.0, 10 * IN - R + 0.3 * IN, deuce[0], trey[0]])
    ys = np.array([FAR - 0.5 * R, FAR - 0.5 * R, deuce[1], trey[1]])
    result = judge_batch(TABLE, xs, ys)
    assert result.value.tolist() == [13, 26, 1, 2]
    assert [result.touching_names(i) for i in range(4)] == [[], [], ["deuce line"], ["trey line"]]
