"""Measurements the rules need: the lag distance of MSA rule C-2 and distances to lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import load_court
from shuffle_sim.judging import lag_distance, line_distance
from shuffle_sim.testing import touching_point
from shuffle_sim.units import FOOT as FT
from shuffle_sim.units import INCH as IN

DECK = load_court("deck")
R = DECK.disc_radius
HW = DECK.line("dead line").width / 2
DEAD_LINE_Y = 32 * FT  # the far dead line at the foot, 20 ft from the foot end


@settings(max_examples=300, deadline=None)
@given(st.floats(-2.5 * FT, 2.5 * FT), st.floats(-1 * FT, 1 * FT))
def test_lag_is_centre_to_centre_when_touching_else_edge_to_edge(x, dy):
    # C-2: "from center of disc to center of line, EXCEPT if the disc is not touching the line, ...
    # from the edge of the disc closest to the line to the edge of the line closest to the disc".
    lag = lag_distance(DECK, x, DEAD_LINE_Y + dy)
    if abs(abs(dy) - (HW + R)) < 1e-12:
        return
    if abs(dy) < HW + R:
        assert lag == pytest.approx(abs(dy), abs=1e-12)
    else:
        assert lag == pytest.approx(abs(dy) - HW - R, abs=1e-12)


def test_lag_at_built_points():
    assert lag_distance(DECK, 0.0, DEAD_LINE_Y) == 0.0
    for side in (+1, -1):
        x, y = touching_point(DECK, "dead line", 0.5, side, gap=0.0)
        assert lag_distance(DECK, x, y) == pytest.approx(HW + R, abs=1e-12)  # touching: centre to centre
        x, y = touching_point(DECK, "dead line", 0.5, side, gap=2 * IN)
        assert lag_distance(DECK, x, y) == pytest.approx(2 * IN, abs=1e-12)  # clear: edge to edge
    # The rule's consequence: a disc a hair clear of the line beats one just touching it.
    clear = lag_distance(DECK, *touching_point(DECK, "dead line", 0.5, -1, gap=1e-9))
    touching = lag_distance(DECK, *touching_point(DECK, "dead line", 0.5, -1, gap=-1e-9))
    assert clear < touching


def test_lag_at_the_head_end():
    # From the foot the lag is shot to the dead line at the head end, 20 ft from the head.
    assert lag_distance(DECK, 0.3, 20 * FT, end="head") == pytest.approx(0.0, abs=1e-12)
    assert lag_distance(DECK, 0.3, 20 * FT + HW + R + 1 * IN, end="head") == pytest.approx(1 * IN, abs=1e-12)
    with pytest.raises(KeyError, match="no line 'lag line'"):
        lag_distance(DECK, 0.0, 0.0, line="lag line")


def test_line_distance_for_straight_and_circular_lines():
    board = load_court("crokinole")
    r = board.disc_radius
    hw = board.line("10 line").width / 2
    assert line_distance(board, 5 * IN, 0.0, "10 line") == pytest.approx(3 * IN - hw - r, abs=1e-12)
    assert line_distance(board, 0.0, -9 * IN, "10 line") == pytest.approx(1 * IN - hw - r, abs=1e-12)
    assert line_distance(board, 0.0, 8 * IN, "10 line") == 0.0
    assert line_distance(DECK, 0.0, 30 * FT, "dead line") == pytest.approx(2 * FT - HW - R, abs=1e-12)
