"""Whole simulated games and matches: the rules decide, the numba engine agrees, the command line writes."""

from __future__ import annotations

import csv
import dataclasses
import json

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.playing._matches import SIDES
from shuffle_sim.playing.deck import play_deck_game
from shuffle_sim.playing.deck_engine import ENTRY_COLUMNS, deck_setup, run_deck_games
from shuffle_sim.playing.match_play import play
from shuffle_sim.playing.player_names import (
    parse_players,
)
from shuffle_sim.playing.players import (
    PlayerError,
    noise_vector,
)
from shuffle_sim.rules.crokinole import CrokinoleGame, CrokinoleOptions
from shuffle_sim.rules.deck_game import DeckGame, DeckOptions
from shuffle_sim.rules.horse_collar import HorseCollarGame
from shuffle_sim.rules.ricochet import RicochetGame, RicochetOptions

DECK = load_court("deck")


# ---- the numba deck engine against the rules-layer driver ------------------------------------------


def _python_scoreboard(skill: str, seed: int, game_index: int, setup=None) -> tuple[list[tuple], DeckGame]:
    players = dict(zip(SIDES, parse_players("deck", f"{skill}-plan")))
    game = DeckGame(*SIDES)
    play_deck_game(game, players, seed, game_index, setup=setup)
    rows = [
        (
            e.number,
            0 if e.shooting_end == "head" else 1,
            0 if e.lead == "yellow" else 1,
            e.points["A"],
            e.points["B"],
            sum(p for s, _, p in e.penalties if s == "A"),
            sum(p for s, _, p in e.penalties if s == "B"),
            int(e.replayed),
        )
        for e in game.scoreboard
    ]
    return rows, game


def _engine(skill: str, seed: int, n_games: int, setup=None):
    nv = noise_vector(parse_players("deck", skill)[0].skill)
    return run_deck_games(DECK, np.array([nv, nv]), seed, n_games, setup=setup)


def _assert_same_game(engine, g: int, skill: str, seed: int, setup=None) -> list[tuple]:
    rows, game = _python_scoreboard(skill, seed, g, setup)
    assert [tuple(int(v) for v in row) for row in engine.scoreboard(g)] == rows
    assert list(engine.scores[g]) == [game.scores["A"], game.scores["B"]]
    assert engine.winners[g] == ("A", "B").index(game.winner)
    return rows


def test_engine_plays_exactly_what_the_rules_driver_plays():
    # A tie at or over game point plays on (D-4): find one (the first seed from 11 whose 1000 games
    # hold one), and compare it with two ordinary games.
    for seed in range(11, 31):
        engine = _engine("average", seed, 1000)
        assert engine.entries.shape[2] == ENTRY_COLUMNS
        assert (engine.winners >= 0).all()
        ties = []
        for g in range(1000):
            rows = engine.scoreboard(g)
            totals = np.cumsum(rows[:, 3:5] - rows[:, 5:7], axis=0)
            if ((totals[:, 0] == totals[:, 1]) & (totals.max(axis=1) >= 75)).any():
                ties.append(g)
        if ties:
            break
    assert ties, "no game with a tie at game point among 1000 games of 20 seeds"
    for g in (0, 1, ties[0]):
        _assert_same_game(engine, g, "average", seed)


def test_engine_agrees_on_the_dead_disc_rule_c20a():
    # Take-outs with 20 m to spare send discs off the backstop and back into play (C-20a).
    setup = dataclasses.replace(deck_setup(DECK), takeout_extra=20.0)
    engine = _engine("novice", 11, 40, setup)
    replayed = [g for g in range(40) if (engine.scoreboard(g)[:, 7] == 1).any()]
    eighth = [
        g
        for g in range(40)
        if ((engine.scoreboard(g)[:, 5:7].sum(axis=1) > 0) & (engine.scoreboard(g)[:, 7] == 0)).any()
    ]
    assert replayed and eighth
    rows = _assert_same_game(engine, replayed[0], "novice", 11, setup)
    assert any(r[7] == 1 and r[5] + r[6] == 10 for r in rows)  # a replay with 10-off to the shooter
    rows = _assert_same_game(engine, eighth[0], "novice", 11, setup)
    assert any(r[7] == 0 and r[5] + r[6] == 10 and r[3] == r[4] == 0 for r in rows)  # the eighth disc


def test_engine_results_do_not_depend_on_threads_or_batching():
    import numba

    whole = _engine("expert", 4, 6)
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        nv = noise_vector(parse_players("deck", "expert")[0].skill)
        tail = run_deck_games(DECK, np.array([nv, nv]), 4, 3, first_game=3)
    finally:
        numba.set_num_threads(previous)
    for g in range(3):
        assert np.array_equal(whole.scoreboard(3 + g), tail.scoreboard(g))


# ---- whole games: the rules name the winner, totals add up ------------------------------------------


def _replay_through_rules(game: str, record) -> None:
    """Post the recorded frames to a fresh rules object: it must end exactly there, with that winner."""
    g = record
    if game == "deck":
        colour_of = g.roles
        rules = DeckGame(*[s for s in g.sides], options=DeckOptions())
        for f in g.frames:
            assert not rules.over
            replay = "replayed" in f.note
            points = None if replay else {colour_of[s]: f.score[s] for s in g.sides}
            from shuffle_sim.rules.deck_penalties import assess

            penalties = [assess("C-20a", colour_of[s]) for s in g.sides if f.points[s] < f.score[s]]
            rules.record_half_round(points if points is not None else None, penalties, replay=replay)
    elif game == "horse-collar":
        rules = HorseCollarGame(*g.sides)
        for f in g.frames:
            assert not rules.over
            rules.record_frame(max(f.points.values()))
    elif game == "ricochet":
        rules = RicochetGame(g.sides)
        for f in g.frames:
            assert not rules.over
            rules.record_round(f.points)
    else:
        rules = CrokinoleGame(g.sides, CrokinoleOptions())
        for f in g.frames:
            assert not rules.over
            rules.record_round(f.score, f.twenties)
    assert rules.over and rules.winner == g.winner
    assert rules.scores == g.totals


@pytest.mark.parametrize(
    "game,players",
    [
        ("deck", "expert-ev6,average-plan"),
        ("horse-collar", "expert-ev6,expert-plan"),
        ("ricochet", "expert-ev6,expert-plan"),
        ("crokinole", "top-competitive-ev6,average-competitive-plan"),
    ],
)
def test_whole_games_end_as_the_rules_say(game, players):
    record = play(game, players, seed=5)
    assert record.players == dict(zip(SIDES, players.split(",")))
    (g,) = record.games
    assert g.finished and record.winner == g.winner
    # A crokinole game of four rounds may end level (2 points a round shared 1-1); others have a winner.
    assert g.winner in SIDES or (game == "crokinole" and g.totals["A"] == g.totals["B"])
    running = {s: 0 for s in SIDES}
    for f in g.frames:
        for s in SIDES:
            running[s] += f.points[s]
        assert f.totals == running
        assert f.shots and all(s.team in SIDES for s in f.shots)
    assert running == g.totals
    if g.winner is not None:
        loser = SIDES[1 - SIDES.index(g.winner)]
        assert g.totals[g.winner] > g.totals[loser]
    _replay_through_rules(game, g)
    if game == "crokinole":
        assert len(g.frames) == 4
        assert all(sum(f.points.values()) == 2 for f in g.frames)
        assert all(f.score[s] >= 20 * f.twenties[s] for f in g.frames for s in SIDES)


def test_same_seed_same_game_bit_for_bit():
    a = play("deck", "expert-ev4,novice-plan", seed=9, game_length=30).to_dict()
    b = play("deck", "expert-ev4,novice-plan", seed=9, game_length=30).to_dict()
    c = play("deck", "expert-ev4,novice-plan", seed=10, game_length=30).to_dict()
    assert json.dumps(a) == json.dumps(b)
    assert json.dumps(a) != json.dumps(c)
    k1 = play("crokinole", "top-competitive-ev4", seed=2, game_length=2).to_dict()
    k2 = play("crokinole", "top-competitive-ev4", seed=2, game_length=2).to_dict()
    assert json.dumps(k1) == json.dumps(k2)


def test_ev_player_beats_the_fixed_plan_of_the_same_skill():
    deck_wins = sum(
        play("deck", "expert-ev8,expert-plan", seed=seed, game_length=40).winner == "A" for seed in range(3)
    )
    assert deck_wins == 3
    points = {"A": 0, "B": 0}
    for seed in range(3):
        totals = play("crokinole", "top-competitive-ev8,top-competitive-plan", seed=seed).games[0].totals
        points = {s: points[s] + totals[s] for s in points}
    assert points["A"] > points["B"]


def test_a_game_is_played_on_the_court_it_is_given():
    own = play("horse-collar", "expert-plan", seed=4, game_length=15)
    by_name = play("horse-collar", "expert-plan", seed=4, game_length=15, court="horse-collar")
    assert json.dumps(own.to_dict()) == json.dumps(by_name.to_dict())
    assert own.to_dict()["court"] == "horse-collar"
    fast = load_court("horse-collar").with_params(speed="7 s")
    on_fast = play("horse-collar", "expert-plan", seed=4, game_length=15, court=fast)
    assert on_fast.court is fast
    card = on_fast.to_dict()
    assert (card["court"], card["court_speed_s"], card["court_surface"]) == ("horse-collar", 7.0, {})
    # The same players and errors, another table: the pucks rest elsewhere.
    first_boards = [g.frames[0].board for g in (own.games[0], on_fast.games[0])]
    assert first_boards[0] != first_boards[1]


def test_a_crokinole_win_player_is_refused_a_court_that_is_not_flat_before_any_shot():
    graded = load_court("crokinole").with_params(slope=[0.01, 0.0])
    with pytest.raises(PlayerError, match=r"side B \(top-competitive-win\): court 'crokinole' is not flat"):
        play("crokinole", "top-competitive-plan,top-competitive-win", court=graded)


# ---- matches ---------------------------------------------------------------------------------------


def test_deck_match_rotates_colours_and_lags_for_a_third_game():
    for seed in range(6):
        record = play("deck", "average-plan", seed=seed, match=True, game_length=20)
        assert record.match and record.winner in SIDES and record.wins[record.winner] == 2
        assert [g.roles["A"] for g in record.games[:2]] == ["yellow", "black"]
        if len(record.games) == 3:
            assert record.notes and "wins and takes yellow" in record.notes[-1]
            lag_winner = record.notes[-1].split(": ")[-1].split()[0]
            assert record.games[2].roles[lag_winner] == "yellow"
            return
    pytest.fail("no three-game match in six seeds")


def test_crokinole_match_plays_the_category_games():
    record = play("crokinole", "average-competitive-plan,novice-plan", seed=1, match=True, game_length=1)
    assert len(record.games) == 10
    assert [g.roles["A"] for g in record.games[:2]] == ["south", "north"]
    assert sum(record.wins.values()) == sum(g.winner is not None for g in record.games)


def test_a_deck_game_of_frames_ends_after_its_last_frame():
    """MSA C-1: a game of a number of frames, the higher score winning after the last (a tie plays
    the D-4 round); a win player values it by the frames' own table."""
    for players in ("expert-plan", "expert-win300,expert-plan"):
        record = play("deck", players, seed=1, frames=3)
        game = record.games[0]
        rules = DeckGame(*game.sides, options=DeckOptions(frames=3))
        for frame in game.frames:
            rules.record_half_round({game.roles[s]: frame.points[s] for s in game.sides})
        assert rules.over and rules.winner == game.winner and len(game.frames) in (3, 5)


def test_a_tied_championship_crokinole_game_plays_another_round():
    """The crokinole tournament rules: "If after 4 rounds (a game) the player's scores are tied, a 5th
    round will be played to determine a game winner" (here a game of one round)."""
    for seed in range(60):
        plain = play("crokinole", "novice-plan", seed=seed, game_length=1).games[0]
        if plain.winner is None:
            break
    else:
        pytest.fail("no tied one-round game in 60 seeds")
    championship = play("crokinole", "novice-plan", seed=seed, game_length=1, championship=True).games[0]
    assert championship.frames[0].points == plain.frames[0].points == {"A": 1, "B": 1}
    assert len(championship.frames) >= 2 and championship.winner in SIDES
    assert [f.label.split(": ")[1] for f in championship.frames[:2]] == [
        "A starts from the south",
        "B starts from the north",
    ]


def test_a_championship_crokinole_match_is_best_of_three():
    record = play(
        "crokinole", "average-competitive-plan,novice-plan", seed=1, match=True, game_length=1, championship=True
    )
    assert 2 <= len(record.games) <= 3 and record.wins[record.winner] == 2


def test_play_offers_the_frames_and_championship_formats(tmp_path, capsys):
    out = tmp_path / "card"
    argv = ["play", "deck", "--frames", "2", "--players", "expert-plan", "--no-pictures", "--quiet", "--out", str(out)]
    assert main(argv) == 0
    assert "deck game of 2 frames, seed 0" in capsys.readouterr().out
    card = json.loads((out / "scorecard.json").read_text())
    assert len(card["games"][0]["frames"]) in (2, 4)


def test_horse_collar_and_ricochet_matches_are_best_of_three():
    for game, length in (("horse-collar", 21), ("ricochet", 15)):
        record = play(game, "expert-plan,novice-plan", seed=2, match=True, game_length=length)
        assert 2 <= len(record.games) <= 3 and record.wins[record.winner] == 2


# ---- the command line ------------------------------------------------------------------------------


def test_play_writes_the_scorecard_and_a_picture_per_frame(tmp_path, capsys):
    out = tmp_path / "card"
    assert (
        main(
            [
                "play",
                "crokinole",
                "--players",
                "top-competitive-ev4,novice",
                "--seed",
                "3",
                "--game-length",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "round 1:" in printed and "round 2:" in printed and "won by" in printed
    card = json.loads((out / "scorecard.json").read_text())
    frames = card["games"][0]["frames"]
    assert card["game"] == "crokinole" and card["seed"] == 3 and len(frames) == 2
    assert card["players"] == {"A": "top-competitive-ev4", "B": "novice"}
    with open(out / "scorecard.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * len(frames)
    assert [int(r["total"]) for r in rows[-2:]] == [card["games"][0]["totals"][s] for s in SIDES]
    for f in frames:
        png = out / f["picture"]
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in out.glob("*.png")) == ["game1-frame01.png", "game1-frame02.png"]


def test_play_names_the_court_it_was_played_on(tmp_path, capsys):
    from pathlib import Path

    table = (Path(__file__).parents[2] / "courts" / "horse-collar.toml").read_text()
    waxed = tmp_path / "waxed.toml"
    waxed.write_text(table.replace('name = "horse-collar"', 'name = "waxed"').replace("mu = 0.05", "mu = 0.04"))
    out = tmp_path / "card"
    argv = ["play", "horse-collar", "--court", str(waxed), "--game-length", "11", "--no-pictures", "--quiet"]
    assert main([*argv, "--out", str(out)]) == 0
    assert "horse-collar game on court waxed, seed 0" in capsys.readouterr().out
    card = json.loads((out / "scorecard.json").read_text())
    assert card["court"] == "waxed" and card["court_speed_s"] > load_court("horse-collar").speed


def test_play_deck_pictures_are_judged_at_the_scoring_end(tmp_path):
    out = tmp_path / "deck"
    assert main(["play", "deck", "--players", "expert", "--game-length", "25", "--out", str(out), "--quiet"]) == 0
    card = json.loads((out / "scorecard.json").read_text())
    frames = card["games"][0]["frames"]
    assert [f["end"] for f in frames[:2]] == ["foot", "head"]
    assert len(list(out.glob("*.png"))) == len(frames)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "deck", "--players", "pro,expert"],
        ["play", "deck", "--players", "expert-evx"],
        ["play", "crokinole", "--players", "expert"],
        ["play", "ricochet", "--game-length", "17"],
        ["play", "deck", "--seed", "-1"],
        ["play", "deck", "--court", "crokinole"],
        ["play", "deck", "--court", "no-such-court.toml"],
        ["play", "crokinole", "--frames", "12"],
        ["play", "deck", "--championship"],
        ["play", "deck", "--frames", "12", "--game-length", "50"],
    ],
)
def test_bad_play_arguments_exit_2(argv, tmp_path, capsys):
    assert main([*argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shuffle-sim: error:") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_bench_games_quick_reports_rates(capsys):
    from shuffle_sim.bench.games import QUICK, run_bench

    report = run_bench(QUICK)
    assert report["engine_games_per_s"] > 0 and report["python_driver_games_per_s"] > 0
    assert report["unfinished"] == 0 and report["half_rounds_per_game"] >= 2
    assert main(["bench-games", "--quick", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == QUICK.games


def test_ricochet_coin_toss_follows_the_seed():
    from shuffle_sim.playing.ricochet import new_game

    tosses = {(g.starter, g.side) for g in (new_game(s, 0, SIDES, RicochetOptions()) for s in range(20))}
    assert len(tosses) > 1
    assert new_game(3, 1, SIDES, RicochetOptions()).starter == new_game(3, 1, SIDES, RicochetOptions()).starter


class _WeakSlider:
    """A ricochet player who slides every weight straight ahead at 0.6 m/s: it stops at about 11.4 in
    on the half it was slid along, never reaching the bumper."""

    name = "weak"

    def play(self, ctx):
        from shuffle_sim.playing.players import Decision, Draw, Launch

        x, y = ctx.stance.point(ctx.stance.preferred)
        launch = Launch(ctx.stance.preferred, x, y, 0.0, 0.6)
        return Decision(Draw(x, 0.29, label="weak slide"), launch), launch


def test_ricochet_games_score_only_on_each_rounds_far_half():
    """Seed 004: weights are slid from one side and bounce "onto the other side of the table playing
    surface"; "If a weight comes to rest before entering the scoring surface area, it must be removed
    from the playing surface before the opponent plays the next weight." The weak slider's weights
    stay on their own half: each is removed and never scores."""
    from shuffle_sim.playing.ricochet import play_ricochet_game

    (plan, _) = parse_players("ricochet", "average-plan,average-plan")
    game = RicochetGame(("A", "B"), starter="A", start_side="left", options=RicochetOptions())
    g = play_ricochet_game(game, {"A": _WeakSlider(), "B": plan}, seed=2)
    assert g.winner == "B" and g.totals["A"] == 0
    for frame in g.frames:
        slid, scored = ("left", "right") if "from the left half onto the right" in frame.label else ("right", "left")
        assert f"from the {slid} half onto the {scored}" in frame.label
        sign = 1 if scored == "right" else -1
        assert all(disc["team"] == "B" and disc["x"] * sign > 0 for disc in frame.board), frame.label
