"""The game registry: every per-game list comes from it, and a fifth game plugs in with one entry.

The toy game "push" (``toy_game.py`` beside this file) is added exactly as docs/adding-a-game.md
says: a rules part, a play part, one registry entry and a court file. It then works everywhere the
four real games do: the court loader accepts its court, ``shuffle-sim score`` and ``shuffle-sim play``
offer it, the one game loop plays it, and drawings colour its sides.
"""

from __future__ import annotations

import json

import pytest

from shuffle_sim import games
from shuffle_sim.cli import build_parser, main
from shuffle_sim.court import CourtError, load_court
from shuffle_sim.playing import play
from shuffle_sim.plot import team_colours
from tests import toy_game


@pytest.fixture
def push(tmp_path, monkeypatch):
    (tmp_path / "push.toml").write_text(toy_game.COURT)
    monkeypatch.setenv("SHUFFLE_SIM_COURTS", str(tmp_path))
    entry = games.register_game(
        games.GameEntry(
            name="push",
            title="push (a test game)",
            court="push",
            scorer_path="tests.toy_game:score_frame",
            play_path="tests.toy_game",
            default_players="exact-plan,exact-ev4",
            sides=("green", "white"),
            surface_colour="#dddddd",
        )
    )
    yield entry
    games.unregister_game("push")


def test_the_four_games_come_from_the_data_file():
    assert games.game_names()[:4] == ("deck", "horse-collar", "ricochet", "crokinole")
    assert games.get_game("ricochet").game_lengths == (15, 21)
    with pytest.raises(games.UnknownGameError, match="deck, horse-collar, ricochet, crokinole"):
        games.get_game("curling")


def test_court_of_an_unregistered_game_is_refused_and_accepted_once_registered(tmp_path, monkeypatch):
    path = tmp_path / "push.toml"
    path.write_text(toy_game.COURT)
    with pytest.raises(CourtError, match="game: must be one of"):
        load_court(path)
    games.register_game(
        games.GameEntry(
            "push",
            "push",
            "push",
            "tests.toy_game:score_frame",
            "tests.toy_game",
            "exact",
            ("green", "white"),
            "#dddddd",
        )
    )
    try:
        assert load_court(path).game == "push"
    finally:
        games.unregister_game("push")


def test_command_line_offers_a_registered_game(push):
    choices = next(
        a for a in build_parser()._subparsers._group_actions[0].choices["play"]._actions if a.dest == "game"
    ).choices
    assert "push" in choices


def test_score_a_board_of_the_toy_game(push, tmp_path, capsys):
    board = tmp_path / "board.json"
    board.write_text(
        json.dumps(
            {
                "discs": [
                    {"x": 0.0, "y": 2.6, "team": "A"},
                    {"x": 0.1, "y": 1.9, "team": "B"},
                    {"x": -0.1, "y": 2.2, "team": "B"},
                ]
            }
        )
    )
    assert main(["score", "push", str(board), "--json"]) == 0
    frame = json.loads(capsys.readouterr().out)
    assert frame["scores"] == {"A": 2, "B": 2}  # B: 1 in the middle, 1 on the far line


def test_one_game_loop_plays_the_toy_game_to_its_end(push):
    record = play("push", "exact-plan,exact-ev4", seed=3)
    game = record.games[0]
    assert game.finished and game.winner in ("A", "B")
    assert max(game.totals.values()) >= toy_game.GAME_POINT
    assert all(len(f.shots) == 2 * toy_game.DISCS_PER_SIDE for f in game.frames)
    # Exact players draw to the far zone or take the opponent's disc off the far end: every frame scores.
    assert all(sum(f.points.values()) > 0 for f in game.frames)
    assert any("take out" in s.intent for f in game.frames for s in f.shots)
    again = play("push", "exact-plan,exact-ev4", seed=3)
    assert again.to_dict() == record.to_dict()


def test_drawings_colour_the_toy_game_sides(push):
    court = load_court("push")
    colours = team_colours(court, ["A", "B", "A"])
    assert colours[0] == colours[2] != colours[1]
