"""The shot advisor: candidate shots for a board ranked by expected frame value."""

import json

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.playing.advisor import advice_context, advise
from shuffle_sim.playing.player_names import (
    parse_player,
)
from shuffle_sim.playing.players import (
    PlayerError,
)
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


def test_a_noise_free_shooter_plays_each_shot_as_meant():
    """One execution each, the noise-free one: its value is the value as meant, and it succeeds exactly
    when the shot played as aimed does what it means."""
    _, advice = advise("crokinole", BOARD, parse_player("crokinole", "exact-ev"))
    assert all(a.samples == 1 and a.spread == 0.0 and a.expected == a.as_meant for a in advice)
    assert all(a.success == float(a.meant_succeeds) for a in advice)
    assert any(a.meant_succeeds for a in advice)


FT = 0.3048
DECK = load_court("deck")


def _deck_board(discs, court=DECK):
    return Board(court, np.array([d[0] for d in discs]), np.array([d[1] for d in discs]), tuple(d[2] for d in discs))


@pytest.mark.parametrize(
    "end, shooter, half",
    [("foot", "yellow", "right"), ("foot", "black", "left"), ("head", "yellow", "left"), ("head", "black", "right")],
)
def test_the_deck_shooter_starts_from_the_half_of_its_colour(end, shooter, half):
    """Seed 000, C-3: "Yellow shall always be played from the right side of the head of the court, and
    left side of foot of the court" (black the other half). A board at the foot is shot from the head;
    a board at the head from the foot. The half is named as the shooter sees it."""
    board = _deck_board([], court=DECK.for_end(end))
    ctx = advice_context("deck", board, shooter)
    assert ctx.info["position"] == half
    assert ctx.stance.geom[0] * (1 if half == "right" else -1) > 0  # canonical frame: the shooter's right is +x


def test_a_guarded_take_out_is_not_called_a_success():
    """Yellow on the left 8 with a guard straight in front of it: black's take-outs of it rarely remove
    it, and the advisor says so, each row with its samples and a 95 % interval within +-3 points."""
    eight = (-0.25, 12.4, "yellow")
    guard = (-0.25, 11.2, "yellow")
    ctx, advice = advise("deck", _deck_board([eight, guard]), parse_player("deck", "expert-ev"), shooter="black")
    assert ctx.info["position"] == "left"
    takeouts = [a for a in advice if a.intent.label.startswith("take out disc 0")]
    assert takeouts and all(a.success < 0.15 and not a.meant_succeeds for a in takeouts)
    for a in advice:
        assert a.samples == 1068
        assert a.success_low <= a.success <= a.success_high
        assert a.success_high - a.success_low <= 0.06 + 1e-9


def test_a_dead_disc_touching_a_live_one_costs_the_deck_shooter_ten():
    """Seed 000, C-20a: "If a dead disc rebounds or ricochets and touches a live disc [...] a 10-Off
    PENALTY to the player shooting the offending disc". A firm shot past a yellow 7 into the backstop
    rebounds onto it: worth -10 to black, whatever the board shows."""
    import math

    from shuffle_sim.playing.advisor import _frame_values
    from shuffle_sim.playing.deck import shooter_context
    from shuffle_sim.playing.players import Launch
    from shuffle_sim.shots import simulate_shots

    board = _deck_board([(-0.6, 13.3, "yellow")])
    ctx = shooter_context(board, "black", "right")
    sx, sy = ctx.stance.point(0.5)
    a = math.atan2(15.85 - sy, -0.3 - sx) - 0.004
    launch = Launch(0.5, sx, sy, 3.1 * math.cos(a), 3.1 * math.sin(a))
    batch = simulate_shots(ctx.court, [sx], [sy], [launch.vx], [launch.vy], [0.0], board=ctx.board_scene())
    assert ctx.tactics.evaluate(ctx, batch)[0] != -10.0
    assert _frame_values("deck", ctx, [launch], parse_player("deck", "exact").skill, 1, batch)[0] == -10.0


def test_with_a_score_the_shots_are_ranked_by_the_chance_to_win():
    """The advisor told the score ranks by the probability of winning the game (the win players'
    estimate), not by the frame's value."""
    board = _deck_board([(0.0, 36.5 * FT, "yellow")])
    _, advice = advise(
        "deck",
        board,
        parse_player("deck", "expert-ev"),
        shooter="black",
        samples=200,
        score=(70, 60),
        hammer=True,
        shots_left=0,
    )
    wins = [a.win for a in advice]
    assert wins == sorted(wins, reverse=True)
    assert all(0.0 <= a.win_low <= a.win <= a.win_high <= 1.0 and a.win_samples >= 64 for a in advice)
    # Black 70, yellow 60 with a disc in the 10, black's last shot of the half-round: a 7 takes black
    # to 77 against 70, over game point and ahead, the game won (D-3); knocking the 10 out has the
    # better frame value but leaves the game going. The draw's chance to win is about its chance to
    # rest in the 7 (0.85 for an expert, speed floor included), far above the take-out's.
    takeout = max((a for a in advice if a.intent.label.startswith("take out disc 0")), key=lambda a: a.expected)
    best = advice[0]
    assert best.intent.label.startswith("draw to the 7") and best.win > 0.8
    assert takeout.expected > best.expected and takeout.win < best.win


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
    board.write_text(
        json.dumps(
            {"discs": [{"x": float(x), "y": float(y), "team": t} for x, y, t in zip(BOARD.x, BOARD.y, BOARD.team)]}
        )
    )
    picture = tmp_path / "advice.png"
    assert (
        main(["advise", "crokinole", str(board), "--player", "top-competitive-ev4", "--json", "--plot", str(picture)])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["shooter"] == "light" and report["shots"][0]["expected"] >= report["shots"][-1]["expected"]
    assert picture.stat().st_size > 10_000
    assert main(["advise", "crokinole", str(board), "--from", "left"]) == 2
    assert "position must be one of" in capsys.readouterr().err
    assert main(["advise", "crokinole", str(board), "--score", "3-x"]) == 2
    assert "--score must be MINE-THEIRS" in capsys.readouterr().err
    assert (
        main(
            [
                "advise",
                "crokinole",
                str(board),
                "--player",
                "top-competitive-ev",
                "--samples",
                "40",
                "--score",
                "2-4",
                "--hammer",
                "--frames-left",
                "0",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    rows = report["shots"]
    assert report["score"] == [2, 4] and all(r["samples"] == 40 and r["win"] is not None for r in rows)
    assert [r["win"] for r in rows] == sorted((r["win"] for r in rows), reverse=True)


def test_every_kind_of_shot_is_named_in_players_words():
    """One naming for the kinds the advice shows: lower-case words, as the shots' own labels say them
    ("take-out", "take-out and stick"), never a class name ("TakeOut")."""
    import re

    from shuffle_sim.playing.advisor import Advice
    from shuffle_sim.playing.players import Launch
    from shuffle_sim.playing.players.intents import Bank, Draw, Guard, Hanger, Hide, Open20, TakeOut
    from shuffle_sim.playing.players.repertoire import GOALS, Shot, Strike

    intents = [Draw(0.0, 0.0), TakeOut(0, 0.1), Guard(0, 0.2), Hide(0, 0.2), Open20(), Hanger(), Bank(0.0, 0.0)]
    intents += [Strike(0, 0.1)] + [Shot(goal, 0, 1) for goal in GOALS]
    words = re.compile(r"^[a-z0-9]+([ -][a-z0-9]+)*$")
    for intent in intents:
        row = Advice(intent, Launch(0.0, 0.0, 0.0, 0.0, 1.0), 0.0, 0.5, 0.1, 0.0).to_dict()
        assert words.match(row["kind"]), (type(intent).__name__, row["kind"])
    assert [i.kind for i in intents[:2]] == ["draw", "take-out"] and Shot("stick", 0).kind == "take-out and stick"


def _twenties_board(twenties):
    return Board(CROKINOLE, BOARD.x, BOARD.y, BOARD.team, twenties=twenties)


def test_the_20s_set_aside_count_in_the_round_and_the_game():
    """Two 20s set aside for light, a tied game's last round, light's last shot: whatever light shoots,
    its round total (40 and its 15) beats dark's 20 (two 10s), the round and the game are won. The
    frame value counts the 20s too: a hide (removed by the hit rule) leaves 15 + 40 against 20."""
    _, advice = advise(
        "crokinole",
        _twenties_board({"light": 2}),
        parse_player("crokinole", "top-competitive-ev"),
        samples=16,
        score=(3, 3),
        hammer=True,
        shots_left=0,
    )
    assert advice and all(a.win == 1.0 for a in advice)
    hide = next(a for a in advice if a.intent.label.startswith("hide behind"))
    assert hide.as_meant == 35.0  # no opponent shot left to take anything back


def test_the_shot_number_counts_the_discs_and_the_20s_already_shot():
    from shuffle_sim.playing.search.told_situation import advice_situation

    ctx = advice_context("crokinole", _twenties_board({"light": 2, "dark": 1}))
    situation, assumed = advice_situation("crokinole", ctx, (2, 4), True)
    # 3 discs and 3 20s: at least 6 shots played, the hammer's next is shot 8 of 16
    assert situation.later == 8 and (situation.twenties_mine, situation.twenties_theirs) == (2, 1)
    assert situation.rounds_left == 0  # 2-4: three rounds played of four
    assert "shot 8 of 16" in assumed["shots_left"] and "3 20s set aside" in assumed["shots_left"]
    assert "3 rounds played" in assumed["frames_left"]
    for args, message in (
        (dict(shots_left=3), "the hammer shoots the even-numbered shots"),
        (dict(shots_left=12), "leave 3 before it, fewer than the 3 discs on the board and 3 20s"),
        (dict(frames_left=2), "2-4 is 3 rounds played of 4, so 0 after this one"),
    ):
        with pytest.raises(PlayerError, match=message):
            advice_situation("crokinole", ctx, (2, 4), True, **args)
    with pytest.raises(PlayerError, match="add up to an even number"):
        advice_situation("crokinole", ctx, (2, 3), True)
    with pytest.raises(PlayerError, match="a whole game of 4 rounds"):
        advice_situation("crokinole", ctx, (4, 4), True)
    ricochet = advice_context("ricochet", Board(load_court("ricochet"), np.empty(0), np.empty(0), ()))
    with pytest.raises(PlayerError, match="frames_left: ricochet is valued as the frame stands"):
        advice_situation("ricochet", ricochet, (3, 4), True, frames_left=1)


def test_the_advisor_prints_the_situation_it_assumed(tmp_path, capsys):
    """Told only the score and the hammer, the advisor says how many shots it takes to be left and why."""
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"court": "deck", "discs": [{"x": 0.0, "y": 36.5 * 0.3048, "team": "yellow"}]}))
    argv = ["advise", "deck", str(board), "--shooter", "black", "--samples", "8", "--score", "70-60", "--hammer"]
    assert main([*argv, "--player", "exact"]) == 0
    out = capsys.readouterr().out
    assert "the shooter has the hammer (the last shot of the half-round): shot 2 of 8, 6 shots after it" in out
    assert "assumed: the shots before this one are the fewest the board allows (1 disc on the board" in out
    assert "(--shots-left N says otherwise)" in out
    assert main([*argv, "--player", "exact", "--shots-left", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["assumed"] == {} and "shot 8 of 8, no shots after it" in report["situation"][1]


def test_a_deck_game_of_frames_is_valued_by_its_own_table():
    """The last shot of a 16-frame game (MSA C-1), level at 30 with a yellow 10 on the board: black
    must take it out, for after this frame the higher score wins. A draw to the 7 that misses it
    leaves 37 to 40, the game lost, where a game to 75 would go on."""
    board = _deck_board([(0.0, 36.5 * FT, "yellow")])
    told = dict(shooter="black", samples=100, score=(30, 30), hammer=True, shots_left=0)
    ctx, advice = advise("deck", board, parse_player("deck", "expert-ev"), frames=16, frames_left=0, **told)
    assert "frame 16 of 16 (MSA C-1): no frames after it" in ctx.info["situation"].describe()[0]
    assert advice[0].intent.label.startswith("take out disc 0")
    draw = next(a for a in advice if a.intent.label == "draw to the 7 left")
    assert draw.win == 0.0
    _, to_75 = advise("deck", board, parse_player("deck", "expert-ev"), **told)
    assert next(a for a in to_75 if a.intent.label == "draw to the 7 left").win > 0.3
    for args, message in (
        (dict(frames=16), "frames_left: a deck game of 16 frames needs the frames after this one"),
        (dict(frames=16, frames_left=16), "frames_left must be a whole number from 0 to 15"),
        (dict(frames=16, frames_left=2, game_length=50), "game_length: a deck game of 16 frames has no game point"),
        (dict(championship=True), "championship: only crokinole"),
    ):
        with pytest.raises(PlayerError, match=message):
            advise("deck", board, parse_player("deck", "expert-ev"), **told, **args)


def test_a_level_championship_crokinole_game_plays_an_extra_round(tmp_path, capsys):
    """Level 4-4 after four rounds: a plain game is over, a championship game (crokinole tournament
    rules) is in its extra round, which the hammer's last shot can win."""
    from shuffle_sim.playing.search.told_situation import advice_situation

    ctx = advice_context("crokinole", BOARD)
    with pytest.raises(PlayerError, match="4-4 is 4 rounds played, a whole game of 4 rounds"):
        advice_situation("crokinole", ctx, (4, 4), True)
    situation, assumed = advice_situation("crokinole", ctx, (4, 4), True, championship=True)
    assert situation.championship and situation.rounds_left == 0
    assert "level after 4: an extra round" in assumed["frames_left"]
    with pytest.raises(PlayerError, match="5-3 is 4 rounds played, past 4 and not level"):
        advice_situation("crokinole", ctx, (5, 3), True, championship=True)
    board = tmp_path / "board.json"
    board.write_text(
        json.dumps(
            {"discs": [{"x": float(x), "y": float(y), "team": t} for x, y, t in zip(BOARD.x, BOARD.y, BOARD.team)]}
        )
    )
    argv = ["advise", "crokinole", str(board), "--player", "exact", "--score", "4-4", "--hammer", "--shots-left", "0"]
    assert main([*argv, "--championship", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "another round, a championship game" in report["situation"][0]
    assert 0.0 < max(r["win"] for r in report["shots"]) <= 1.0
    assert main(argv) == 2
    assert "a whole game of 4 rounds" in capsys.readouterr().err
