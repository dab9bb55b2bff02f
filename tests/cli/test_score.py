"""``shuffle-sim score GAME BOARD.json [--json]``: one frame scored from resting discs, explained."""

import json

import pytest

from shuffle_sim.cli import main

FT = 0.3048
IN = 0.0254


def score(tmp_path, capsys, game, data, *extra):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    status = main(["score", game, str(path), *extra])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_deck_json(tmp_path, capsys):
    board = {
        "discs": [
            {"x": 0.0, "y": 36.5 * FT, "team": "yellow"},
            {"x": 0.12, "y": 38 * FT, "team": "black", "vx": 0, "vy": 0.0},
            {"x": 0.0, "y": 44.75 * FT, "team": "black"},
            {"x": 0.3, "y": 30 * FT, "team": "yellow"},
            {"x": 1.2, "y": 40 * FT, "team": "yellow"},  # in the alley: off the surface, fallen
        ]
    }
    status, out, _ = score(tmp_path, capsys, "deck", board, "--json")
    assert status == 0
    result = json.loads(out)
    assert set(result) == {"scores", "discs", "void"}
    assert result["scores"] == {"yellow": 10, "black": -10}
    assert result["void"] is None
    assert [d["reason"] for d in result["discs"]] == [
        "in the 10 zone, touching no line",
        "touching the 14 ft line: scores nothing (D-2)",
        "10-off",
        "short of the far dead line: dead (C-4b)",
        "off the side of the court into the alley: dead (C-21, C-23)",
    ]
    assert result["discs"][0] == {
        "x": 0.0,
        "y": 36.5 * FT,
        "team": "yellow",
        "value": 10,
        "reason": "in the 10 zone, touching no line",
    }


def test_deck_head_end_and_text_output(tmp_path, capsys):
    board = {"court": "deck", "end": "head", "discs": [{"x": 0.0, "y": 52 * FT - 36.5 * FT, "team": "black"}]}
    status, out, _ = score(tmp_path, capsys, "deck", board)
    assert status == 0
    assert "in the 10 zone, touching no line" in out and "scores: black 10" in out and "head" in out


def test_horse_collar_seed_example_and_void(tmp_path, capsys):
    pucks = [(-4, 244.5), (-4, 238.5), (4, 239.5), (-5, 200), (0, 210), (5, 220), (10.5, 230), (0, 249)]
    board = {"discs": [{"x": x * IN, "y": y * IN, "team": "red"} for x, y in pucks]}
    status, out, _ = score(tmp_path, capsys, "horse-collar", board, "--json")
    result = json.loads(out)
    assert status == 0 and result["scores"] == {"red": 10} and result["void"] is None
    board["discs"].append({"x": 0.0, "y": 150 * IN, "team": "red"})
    status, out, _ = score(tmp_path, capsys, "horse-collar", board, "--json", "--side", "Ann")
    result = json.loads(out)
    assert result["scores"] == {"Ann": 0} and "foul line" in result["void"]


def test_horse_collar_hanger_reason(tmp_path, capsys):
    board = {"discs": [{"x": 0.0, "y": 247.5 * IN, "team": "blue"}]}
    _, out, _ = score(tmp_path, capsys, "horse-collar", board, "--json")
    assert json.loads(out)["discs"][0]["reason"] == "13-point hanger over the far end"


def test_ricochet_example_b(tmp_path, capsys):
    weights = [(5, 3, "blue"), (10, 9, "blue"), (5, 13, "red"), (10, 20, "red"), (0, 40, "red")]
    board = {"discs": [{"x": x * IN, "y": y * IN, "team": t} for x, y, t in weights]}
    status, out, _ = score(tmp_path, capsys, "ricochet", board, "--json")
    result = json.loads(out)
    assert status == 0 and result["scores"] == {"blue": 7, "red": 0}
    assert result["discs"][4]["reason"] == "short of the scoring area: removed"


def test_crokinole_round(tmp_path, capsys):
    discs = [(0, 0, "A"), (4.3, 0, "A"), (0, 6, "B"), (0, -13.5, "B")]  # last one in the ditch
    board = {"discs": [{"x": x * IN, "y": y * IN, "team": t} for x, y, t in discs]}
    status, out, _ = score(tmp_path, capsys, "crokinole", board, "--json")
    result = json.loads(out)
    assert status == 0 and result["scores"] == {"A": 30, "B": 10}
    assert [d["reason"] for d in result["discs"]] == [
        "in the 20 hole: 20, removed at once",
        "touching the 15 line: counts 10",
        "in the 10 circle",
        "in the ditch: removed",
    ]


@pytest.mark.parametrize(
    "game, data, message",
    [
        ("deck", {"discs": [{"x": 0.0, "y": 10.0, "vy": 1.5}]}, "discs[0].vy: a board to score is at rest"),
        ("deck", {"court": "crokinole", "discs": []}, "is a crokinole court, not a deck court"),
        ("deck", '{"discs": [{"x": NaN, "y": 10.0}]}', "discs[0].x must be finite"),
        ("deck", {"discs": [{"x": 0.0}]}, "discs[0].y: missing required key"),
        ("ricochet", {"discs": [{"x": 0.0, "y": 0.3}], "spin": 1}, "spin: unknown key"),
        ("deck", {"discs": [{"x": 0.0, "y": 10.0}]}, None),
    ],
)
def test_bad_boards_exit_2_with_one_line(tmp_path, capsys, game, data, message):
    status, out, err = score(tmp_path, capsys, game, data)
    if message is None:
        assert status == 0
        return
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_side_is_for_horse_collar_only(tmp_path, capsys):
    status, _, err = score(tmp_path, capsys, "deck", {"discs": []}, "--side", "Ann")
    assert status == 2 and "--side applies to horse-collar only" in err


def test_unknown_game_and_missing_file(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "curling", str(tmp_path / "x.json")])
    assert exc.value.code == 2
    assert main(["score", "deck", str(tmp_path / "missing.json")]) == 2
    assert "cannot read board file" in capsys.readouterr().err


def test_ricochet_half_from_the_board_the_option_or_the_weights(tmp_path, capsys):
    """Seed 004: weights are slid along one half and bounce "onto the other side"; only that half scores."""
    weights = [(-5, 3, "red"), (5, 9, "blue")]
    board = {"discs": [{"x": x * IN, "y": y * IN, "team": t} for x, y, t in weights]}
    status, _, err = score(tmp_path, capsys, "ricochet", board)
    assert status == 2 and err.count("\n") == 1 and "--half left|right" in err
    status, out, _ = score(tmp_path, capsys, "ricochet", board, "--json", "--half", "right")
    assert status == 0 and json.loads(out)["scores"] == {"red": 0, "blue": 3}
    status, out, _ = score(tmp_path, capsys, "ricochet", {**board, "half": "left"}, "--json")
    assert status == 0 and json.loads(out)["scores"] == {"red": 4, "blue": 0}
    status, out, _ = score(tmp_path, capsys, "ricochet", {**board, "half": "left"}, "--half", "right")
    assert status == 0 and "(scoring half: right)" in out and "scores: red 0, blue 3" in out
    status, _, err = score(tmp_path, capsys, "ricochet", {**board, "half": "up"})
    assert status == 2 and "half: must be one of left, right" in err
    status, _, err = score(tmp_path, capsys, "deck", {"discs": [], "half": "left"})
    assert status == 2 and "half: unknown key" in err
    status, _, err = score(tmp_path, capsys, "deck", {"discs": []}, "--half", "left")
    assert status == 2 and "--half applies to ricochet only" in err
