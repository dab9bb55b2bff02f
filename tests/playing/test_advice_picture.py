"""The advice picture (``advise --plot``): the court, the best shots' paths and a legend naming them,
with nothing cut off at the figure's edges and the legend clear of the court."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing.advisor import advice_figure, advise
from shuffle_sim.playing.player_names import (
    parse_player,
)
from shuffle_sim.rules.common import Board
from shuffle_sim.units import INCH
from tests.figure_checks import clipped_texts, overlapping_tick_labels

#: Boards whose best shots have long names (take-outs, "3.0 m to spare"), by game: discs and shooter.
BOARDS = {
    "deck": ((np.array([0.0, 0.2]), np.array([11.2, 10.5]), ("yellow", "black")), "black"),
    "crokinole": ((np.array([0.0, 0.0, -0.15]), np.array([6 * INCH, -0.06, 0.02]), ("dark", "light", "dark")), None),
}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_the_advice_picture_shows_everything_and_its_legend_clear_of_the_court(game):
    (xs, ys, teams), shooter = BOARDS[game]
    board = Board(load_court(game), xs, ys, teams)
    ctx, advice = advise(game, board, parse_player(game, "exact-ev"), shooter=shooter)
    assert any(len(a.intent.label) > 30 for a in advice[:3])
    fig = advice_figure(ctx, advice, best=3)
    for dpi in (100, 120):  # on screen and as written
        fig.set_dpi(dpi)
        assert clipped_texts(fig) == []
        assert overlapping_tick_labels(fig) == []
    (legend,) = fig.legends
    assert len(legend.get_texts()) == 3
    renderer = fig.canvas.get_renderer()
    court_box = fig.axes[0].get_window_extent(renderer)
    assert legend.get_window_extent(renderer).y1 <= court_box.y0  # below the court, not over it
