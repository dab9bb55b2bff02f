"""Ricochet: values, short weights removed, closest-weights-only scoring (examples A and B), the game."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.playing.players import Launch
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.common import Board, RulesError
from shuffle_sim.rules.ricochet import (
    RicochetGame,
    RicochetOptions,
    coin_toss,
    round_half,
    score_only_far_half,
    score_round,
    scoring_half,
    shot_removals,
)

IN = 0.0254
COURT = load_court("ricochet")
R_IN = COURT.disc_radius / IN  # 1 in
HW_IN = 1 / 8
LINES = [(7.0, 3), (11.0, 2), (17.0, 1), (24.0, 0)]  # line (in from the front edge), value on it
ZONES = [(0.0, 7.0, 4), (7.0, 11.0, 3), (11.0, 17.0, 2), (17.0, 24.0, 1)]


def weight(x_in, y_in, team):
    return (x_in * IN, y_in * IN, team)


def round_of(*weights, **kw):
    return score_round(Board.of(COURT, weights), **kw)


def test_example_a_only_the_weight_ahead_scores():
    """Seed 004 example A: a blue and a red weight in the 3 section, the red ahead: only the red scores."""
    result = round_of(weight(5, 8.4, "red"), weight(9, 9.6, "blue"), weight(5, 14, "red"), weight(9, 20, "blue"))
    assert result.scores == {"red": 3, "blue": 0}
    assert result.discs[0].reason == "in the 3 zone, nearer than every opposing weight: scores"
    assert result.discs[1].reason == "in the 3 zone, but red has the nearest weight: scores nothing"
    assert result.discs[2].reason == "in the 2 zone, but behind an opposing weight: scores nothing"


def test_example_b_two_weights_ahead_both_score():
    """Seed 004 example B: two blue weights ahead of the red weights: both blues score, the reds do not."""
    result = round_of(weight(5, 3, "blue"), weight(10, 9, "blue"), weight(5, 13, "red"), weight(10, 20, "red"))
    assert result.scores == {"blue": 4 + 3, "red": 0}


def test_equal_nearness_neither_scores_from_that_depth():
    level = round_of(weight(5, 9, "blue"), weight(10, 9, "red"))
    assert level.scores == {"blue": 0, "red": 0}
    deeper = round_of(weight(5, 3, "blue"), weight(5, 9, "blue"), weight(10, 9, "red"))
    assert deeper.scores == {"blue": 4, "red": 0}
    assert "level with an opposing weight" in deeper.discs[1].reason


def test_front_overhang_scores_five_and_lines_score_the_smaller_number():
    result = round_of(weight(5, 0.5, "blue"), weight(10, 7.5, "blue"), weight(5, 20, "red"))
    assert [d.value for d in result.discs] == [5, 3, 0]
    assert result.discs[0].reason.startswith("overhanging the front edge: 5")
    assert result.discs[1].reason.startswith("touching the 7 in line: counts 3")


def test_weight_must_clear_the_first_line():
    result = round_of(weight(5, 24.5, "blue"))
    assert result.scores == {"blue": 0}
    assert result.discs[0].reason.startswith("touching the first line: has not cleared it, scores nothing")
    assert shot_removals(Board.of(COURT, [weight(5, 24.5, "blue")])) == {}


def test_short_and_fallen_weights_are_removed_at_once():
    b = Board.of(COURT, [weight(0, 30, "blue"), weight(5, 9, "red"), weight(-5, -1.5, "red")])
    assert shot_removals(b) == {0: "short of the scoring area: removed", 2: "off the table: dead"}
    assert score_round(b).scores == {"blue": 0, "red": 3}


def oracle(weights):
    """Independent reading of the ricochet rules from the weights' distances to the front edge (y, inches)."""
    live = []
    for _x, y, team in weights:
        if y < 0:
            continue  # fell off the front
        touched = [v for line, v in LINES if abs(y - line) <= R_IN + HW_IN]
        if y > 24 and not touched:
            continue  # short of the scoring area
        if y - R_IN < 0:
            value = 5
        elif touched:
            value = min(touched)
        else:
            value = next(v for lo, hi, v in ZONES if lo <= y < hi)
        live.append((y - R_IN, team, value))
    live.sort()
    scores = {}
    if not live:
        return scores
    leader = live[0][1]
    if len(live) > 1 and live[1][0] == live[0][0] and live[1][1] != leader:
        return scores
    for _near, team, value in live:
        if team != leader:
            break
        scores[leader] = scores.get(leader, 0) + value
    return scores


@settings(max_examples=200, deadline=None)
@given(
    ys=st.lists(st.floats(-0.9, 30.0), min_size=1, max_size=8),
    teams=st.lists(st.sampled_from(["blue", "red"]), min_size=8, max_size=8),
)
def test_closest_weights_rule_against_an_independent_reading(ys, teams):
    for y in ys:
        for edge in [R_IN, 0.0] + [line + s * (R_IN + HW_IN) for line, _ in LINES for s in (-1, 1)]:
            assume(abs(y - edge) > 1e-6)
        for _lo, hi, _ in ZONES:
            assume(abs(y - hi) > 1e-6)
    assume(len(set(ys)) == len(ys))
    weights = [(1.5 + 13 * k / 7, y, teams[k]) for k, y in enumerate(ys)]
    result = round_of(*[weight(*w) for w in weights], half="right")
    expected = oracle(weights)
    assert {t: v for t, v in result.scores.items() if v} == {t: v for t, v in expected.items() if v}
    assert len([t for t, v in result.scores.items() if v]) <= 1, "only one player scores a round"


# ---- the game ----------------------------------------------------------------------------------------


def test_turns_alternate_from_the_starter_and_sides_alternate_by_round():
    game = RicochetGame(("Ann", "Bob"), starter="Bob", start_side="right")
    turns = game.turns()
    assert [t.team for t in turns] == ["Bob", "Ann"] * 4 and {t.side for t in turns} == {"right"}
    game.record_round({"Ann": 3})
    turns = game.turns()
    assert turns[0].team == "Ann" and {t.side for t in turns} == {"left"}  # scorer starts, other side
    game.record_round({})
    assert game.turns()[0].team == "Ann" and game.turns()[0].side == "right"  # Ann scored last


def test_option_scorer_shoots_last():
    game = RicochetGame(("Ann", "Bob"), starter="Ann", options=RicochetOptions(scorer_starts=False))
    game.record_round({"Ann": 2})
    assert game.turns()[0].team == "Bob" and game.turns()[-1].team == "Ann"


def test_game_point_reached_or_passed_at_end_of_round():
    game = RicochetGame(("Ann", "Bob"), options=RicochetOptions(game_point=21))
    game.record_round({"Ann": 14})
    game.record_round({"Bob": 20})
    assert not game.over
    game.record_round({"Ann": 9})
    assert game.over and game.winner == "Ann" and game.scores == {"Ann": 23, "Bob": 20}


def test_record_round_checks():
    game = RicochetGame(("Ann", "Bob"))
    with pytest.raises(RulesError, match="only one player"):
        game.record_round({"Ann": 3, "Bob": 2})
    with pytest.raises(RulesError, match="game_point"):
        RicochetOptions(game_point=18)
    with pytest.raises(RulesError, match="start_side"):
        RicochetGame(("Ann", "Bob"), start_side="middle")
    game.record_round(round_of(weight(5, 3, "Ann"), weight(10, 9, "Bob")))
    assert game.scores == {"Ann": 4, "Bob": 0}


def random_round(rng, players):
    if rng.random() < 0.25:
        return {}
    return {rng.choice(players): sum(rng.choice((1, 2, 3, 4, 5)) for _ in range(rng.randint(1, 4)))}


def play(seed, options):
    rng = random.Random(seed)
    players = ("Ann", "Bob")
    starter, side = coin_toss(rng, players)
    game = RicochetGame(players, starter=starter, start_side=side, options=options)
    log = [(starter, side)]
    for _ in range(10_000):
        if game.over:
            break
        log.append(game.turns())
        log.append(game.record_round(random_round(rng, players)))
    return game, log


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game_point=st.sampled_from([15, 21]), scorer_starts=st.booleans())
def test_whole_games(seed, game_point, scorer_starts):
    game, _log = play(seed, RicochetOptions(game_point=game_point, scorer_starts=scorer_starts))
    assert game.over
    rounds = game.scoreboard
    for p in game.players:
        assert game.scores[p] == sum(r.points[p] for r in rounds)
    assert game.scores[game.winner] >= game_point
    loser = next(p for p in game.players if p != game.winner)
    assert game.scores[loser] < game_point
    assert rounds[-1].points[game.winner] > 0, "the game ends on the winner's scoring round"
    assert game.scores[game.winner] - rounds[-1].points[game.winner] < game_point, "and not later"
    for a, b in itertools.pairwise(rounds):
        assert a.side != b.side
    last_scorer = None
    for a, b in itertools.pairwise(rounds):
        scorers = [p for p, v in a.points.items() if v]
        last_scorer = scorers[0] if scorers else last_scorer
        if last_scorer is None:
            assert b.starter == a.starter
        else:
            assert (b.starter == last_scorer) == scorer_starts


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game_flow(seed):
    assert play(seed, RicochetOptions())[1] == play(seed, RicochetOptions())[1]


# ---- the scoring half (the ricochet rules: "bounces off the back bumper onto the other side") ----------------


def test_the_scoring_half_is_opposite_the_half_slid_from():
    """Seed 004: each weight "bounces off the back bumper onto the other side of the table playing surface"."""
    assert scoring_half("left") == "right" and scoring_half("right") == "left"
    game = RicochetGame(("Ann", "Bob"), start_side="left")
    assert game.scoring_half == "right"
    entry = game.record_round({})
    assert entry.half == "right" and game.scoring_half == "left"


def test_weak_weight_stopped_in_its_own_half_scores_nothing():
    """Seed 004: "If a weight comes to rest before entering the scoring surface area, it must be removed
    from the playing surface before the opponent plays the next weight."

    The repro of the fault: a weight slid at 0.6 m/s from the left front stops at about 11.4 in on the
    left half, touching the 11 in line; it never rebounded onto the right half, so it scores nothing
    and is removed.
    """
    r = COURT.disc_radius
    out = shoot(COURT, [], [], Launch(0.5, -7.5 * IN, r + 0.001, 0.0, 0.6))
    assert out.x[0] == pytest.approx(-7.5 * IN) and out.y[0] / IN == pytest.approx(11.4, abs=0.05)
    board = Board(COURT, out.x, out.y, ("blue",))
    half = scoring_half("left")
    result = score_round(board, half=half)
    assert result.scores == {"blue": 0}
    assert result.discs[0].reason == "on the left half: never rebounded onto the right half, removed"
    assert shot_removals(board, half) == {0: result.discs[0].reason}
    # Judged on its own, with no half known, the same weight would be a 2 (on the 11 in line).
    assert score_round(board).scores == {"blue": 2}


def test_weights_off_the_scoring_half_take_no_part_in_the_nearness_contest():
    """Seed 004: "Point total for a round is the sum of the points for each weight that is closer to the
    front edge of the playing surface than any of the opponent's weights" -- weights in play only."""
    b = Board.of(COURT, [weight(-5, 3, "red"), weight(5, 9, "blue"), weight(10, 20, "blue")], half="right")
    result = score_round(b)
    assert result.scores == {"red": 0, "blue": 3 + 1}
    assert result.discs[0].value == 0 and "never rebounded onto the right half" in result.discs[0].reason
    assert score_round(b, half="left").scores == {"red": 4, "blue": 0}  # the argument overrides the board


def test_scoring_half_taken_from_the_weights_or_refused():
    one_half = Board.of(COURT, [weight(-5, 3, "red"), weight(-10, 9, "blue"), weight(6, 40, "blue")])
    assert round_half(one_half) == "left"  # the short weight on the right says nothing
    both = Board.of(COURT, [weight(-5, 3, "red"), weight(10, 9, "blue")])
    with pytest.raises(RulesError, match=r"both halves.*--half left\|right"):
        score_round(both)
    with pytest.raises(RulesError, match="half"):
        Board.of(COURT, [], half="middle")


def test_a_worthless_weight_nearest_the_front_says_so():
    """Seed 004: "The weight must clear the first line completely to score." A weight touching the first
    line is worth nothing even when it is the nearest weight in play."""
    result = round_of(weight(5, 24.5, "blue"), half="right")
    assert result.scores == {"blue": 0}
    reason = result.discs[0].reason
    assert (
        reason
        == "touching the first line: has not cleared it, scores nothing (though nearer than every opposing weight)"
    )
    assert ": scores" not in reason.replace("scores nothing", "")


@settings(max_examples=100, deadline=None)
@given(
    ys=st.lists(st.floats(1.2, 22.0), min_size=1, max_size=8),
    sides=st.lists(st.booleans(), min_size=8, max_size=8),
    teams=st.lists(st.sampled_from(["blue", "red"]), min_size=8, max_size=8),
    half=st.sampled_from(["left", "right"]),
)
def test_only_weights_on_the_scoring_half_count(ys, sides, teams, half):
    """Seed 004: weights that never rebounded onto the scoring half are removed; the rest score as if alone."""
    sign = -1 if half == "left" else 1
    weights = [((1.5 + 13 * k / 7) * (sign if on else -sign), y, teams[k]) for k, (y, on) in enumerate(zip(ys, sides))]
    full = score_round(Board.of(COURT, [weight(*w) for w in weights]), half=half)
    kept = [w for w in weights if w[0] * sign > 0]
    alone = score_round(Board.of(COURT, [weight(*w) for w in kept]), half=half)
    assert {t: v for t, v in full.scores.items() if v} == {t: v for t, v in alone.scores.items() if v}
    removed = shot_removals(Board.of(COURT, [weight(*w) for w in weights]), half)
    assert set(removed) == {k for k, w in enumerate(weights) if w[0] * sign < 0}


def test_batch_outcomes_take_the_scoring_half_from_the_start():
    x = np.array([[-0.1, 0.2], [0.1, -0.2]])
    value = np.array([[3, 4], [2, 5]])
    dead = np.zeros((2, 2), bool)
    hanger = np.array([[0, 1], [0, 1]], np.int8)
    score_only_far_half(np.array([-0.19, -0.19]), x, value, dead, hanger)  # both shots slid from the left
    assert value.tolist() == [[0, 4], [2, 0]] and dead.tolist() == [[True, False], [False, True]]
    assert hanger.tolist() == [[0, 1], [0, 0]]
