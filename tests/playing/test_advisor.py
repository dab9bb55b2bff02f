"""The shot advisor: candidate shots for a board ranked by expected frame value."""

import json

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.playing.advisor import advice_context, advise
from shuffle_sim.playing.players import PlayerError, parse_player
from shuffle_sim.rules.common import Board
from shuffle_sim.units import INCH

CROKINOLE = load_court("crokinole")
BOARD = Board(CROKINOLE, np.array([0.0, 0.0, -0.15]), np.array([6 * INCH, -0.06, 0.02]), ("dark", "light", "dark"))


def test_ranked_best_first_and_the_hit_rule_known():
    ctx, advice = advise("crokinole", BOARD, parse_player("crokinole", "top-competitive-ev8"))
    assert ctx.shooter == "light" and len(advice) > 5
    expected = [a.expected for a in advice]
    assert expected == sorted(expected, reverse=True)
    assert all(0.0 <= a.success <= 1.0 and a.spread >= 0.0 for a in advice)
    # opponent discs on the board: the best shot goes for one of them, and the open 20 (which hits
    # nothing and is removed) is worth less
    best = advice[0].intent
    assert getattr(best, "target", None) in (0, 2)
    open20 = next(a for a in advice if a.intent.label == "open 20")
    assert open20.expected < advice[0].expected


def test_a_noise_free_shooter_always_does_what_it_meant():
    _, advice = advise("crokinole", BOARD, parse_player("crokinole", "exact-ev"))
    assert all(a.success == 1.0 and a.spread == 0.0 and a.expected == a.as_meant for a in advice)


@pytest.mark.parametrize("game", ["deck", "horse-collar", "ricochet"])
def test_every_game_has_advice_on_an_empty_board(game):
    court = load_court(game)
    ctx, advice = advise(game, Board(court, np.empty(0), np.empty(0), ()), parse_player(game, "expert-ev4"))
    assert advice and ctx.n_discs == 0


def test_bad_position_is_refused():
    with pytest.raises(PlayerError, match="position must be one of south"):
        advice_context("crokinole", BOARD, position="left")


def test_cli_json_and_plot(tmp_path, capsys):
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"discs": [{"x": float(x), "y": float(y), "team": t}
                                           for x, y, t in zip(BOARD.x, BOARD.y, BOARD.team)]}))
    picture = tmp_path / "advice.png"
    assert main(["advise", "crokinole", str(board), "--player", "top-competitive-ev4", "--json",
                 "--plot", str(picture)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["shooter"] == "light" and report["shots"][0]["expected"] >= report["shots"][-1]["expected"]
    assert picture.stat().st_size > 10_000
    assert main(["advise", "crokinole", str(board), "--from", "left"]) == 2
    assert "position must be one of" in capsys.readouterr().err
