"""Crokinole judging (crokinole tournament rules, docs/rules.md): 20 hole, 15/10/5, a line means the lower value, the
5 line and the ditch are dead, the quadrant lines play no part.

Frame: origin at the centre of the board. Lines at radius 4 in (15), 8 in (10), 12 in (5, the
shooting line); playing surface radius 13 in; hole 1 3/8 in across.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import judge_batch, load_court
from shuffle_sim.testing import assert_judged, assert_line_boundary
from shuffle_sim.units import INCH as IN

BOARD = load_court("crokinole")
R = BOARD.disc_radius


def polar(rho_in, deg):
    a = math.radians(deg)
    return rho_in * IN * math.cos(a), rho_in * IN * math.sin(a)


def test_twenty_in_the_hole():
    for rho_in, deg in [(0.0, 0.0), (0.5, 30.0), (0.68, 200.0)]:
        assert_judged(BOARD, *polar(rho_in, deg), value=20, zone="20", touching=[], dead=False)
    assert_judged(BOARD, *polar(0.75, 10.0), value=15, zone="15")  # beside the hole, not in it


@pytest.mark.parametrize("rho_in, value, zone", [(2.0, 15, "15"), (6.0, 10, "10"), (10.0, 5, "5")])
@pytest.mark.parametrize("deg", [7.0, 100.0, 222.5, 300.0])
def test_circle_values(rho_in, value, zone, deg):
    assert_judged(BOARD, *polar(rho_in, deg), value=value, zone=zone, touching=[], dead=False)


@pytest.mark.parametrize("line, lower, higher", [("15 line", 10, 15), ("10 line", 5, 10)])
@pytest.mark.parametrize("along", [0.03, 0.4, 0.77])
def test_a_line_means_the_lower_value(line, lower, higher, along):
    assert_line_boundary(BOARD, line, along=along, side=+1, touching_value=lower, clear_value=lower)
    assert_line_boundary(BOARD, line, along=along, side=-1, touching_value=lower, clear_value=higher)


@pytest.mark.parametrize("along", [0.1, 0.6])
def test_on_or_beyond_the_five_line_is_removed(along):
    inner = assert_line_boundary(BOARD, "5 line", along=along, side=-1, touching_value=0, clear_value=5)
    assert inner.touching["dead"] and inner.inside["dead"] and not inner.clear["dead"]
    outer = assert_line_boundary(BOARD, "5 line", along=along, side=+1, touching_value=0, clear_value=0)
    assert outer.touching["dead"] and outer.clear["dead"]
    assert_judged(BOARD, *polar(12.8, 360 * along), value=0, dead=True, zone="outside the 5 line")


@pytest.mark.parametrize("rho_in", [13.01, 13.9, 15.0])
def test_ditch_is_dead(rho_in):
    assert_judged(BOARD, *polar(rho_in, 45.0), value=0, dead=True, zone=None, touching=[])
    # A centre exactly on the edge of the surface has not fallen, but it is beyond the 5 line.
    assert_judged(BOARD, 13 * IN, 0.0, value=0, dead=True, zone="outside the 5 line")


@pytest.mark.parametrize("deg", [45.0, 135.0, 225.0, 315.0])
def test_quadrant_lines_are_ignored(deg):
    # Right on a quadrant line between the 10 and 5 lines: a 5, touching no judged line.
    assert_judged(BOARD, *polar(10.0, deg), value=5, zone="5", touching=[], dead=False)
    assert {ln.name for ln in BOARD.lines if not ln.judged} == {
        "quadrant line north-east",
        "quadrant line north-west",
        "quadrant line south-west",
        "quadrant line south-east",
    }


def test_quadrant_lines_run_between_the_seats():
    """A player sits facing the middle of a quadrant, so the quadrant lines run 45 degrees off the seat
    directions (between seats, never through a shooting area) and the pegs 22.5 degrees off the lines."""
    seats = (0.0, 90.0, 180.0, 270.0)  # east, north, west, south
    pegs = [math.degrees(math.atan2(p.y, p.x)) % 360 for p in BOARD.pegs]
    assert len(pegs) == 8
    for ln in (ln for ln in BOARD.lines if ln.name.startswith("quadrant line")):
        x0, y0, x1, y1 = ln.geom
        angle = math.degrees(math.atan2(y1, x1)) % 360
        assert math.degrees(math.atan2(y0, x0)) % 360 == pytest.approx(angle)
        assert min(abs((angle - s + 180) % 360 - 180) for s in seats) == pytest.approx(45.0)
        assert min(abs((angle - p + 180) % 360 - 180) for p in pegs) == pytest.approx(22.5)
        assert math.hypot(x0, y0) == pytest.approx(8 * IN) and math.hypot(x1, y1) == pytest.approx(12 * IN)


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0, 14.0), st.floats(0.0, 360.0))
def test_value_is_a_function_of_the_radius(rho_in, deg):
    # Rotational symmetry: the judgement depends on the radius alone (pegs are not judged).
    x, y = polar(rho_in, deg)
    rho = math.hypot(x, y)
    result = judge_batch(BOARD, [x], [y])
    hw = BOARD.line("15 line").width / 2
    margin = 1e-9
    bounds = [
        0.6875 * IN,
        4 * IN - hw - R,
        4 * IN + hw + R,
        8 * IN - hw - R,
        8 * IN + hw + R,
        12 * IN - hw - R,
        13 * IN,
    ]
    if min(abs(rho - b) for b in bounds) < margin:
        return
    expected = (
        20
        if rho <= bounds[0]
        else 15
        if rho < bounds[1]
        else 10
        if rho <= bounds[2]
        else 10
        if rho < bounds[3]
        else 5
        if rho < bounds[5]
        else 0
    )
    if bounds[3] <= rho <= bounds[4]:
        expected = 5
    assert int(result.value[0]) == expected, (rho / IN, result.records())
    assert bool(result.dead[0]) == (bounds[5] < rho)


def test_round_of_discs():
    # A 20, a 15, a disc just outside the 15 line but touching it (a 10), a 5, one on the 5 line (removed).
    xs, ys = zip(*[polar(0.0, 0), polar(2.0, 60), polar(4.0 + 0.03 + 0.6, 150), polar(10.0, 250), polar(12.0, 320)])
    result = judge_batch(BOARD, np.array(xs), np.array(ys))
    assert result.value.tolist() == [20, 15, 10, 5, 0]
    assert result.holed.tolist() == [True, False, False, False, False]
    assert result.dead.tolist() == [False, False, False, False, True]
