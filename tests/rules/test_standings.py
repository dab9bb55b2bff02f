"""Crokinole standings: points, head-to-head, most 20s, shoot-outs (crokinole tournament rules)."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.rules.common import RulesError
from shuffle_sim.rules.standings import GameRecord, shoot_out, standings


def order(rows):
    return [r.player for r in rows]


def test_points_rank_players():
    records = [GameRecord("Ann", "Bob", 6, 2), GameRecord("Bob", "Cy", 6, 2), GameRecord("Ann", "Cy", 4, 4)]
    rows = standings(records)
    assert [(r.place, r.player, r.points, r.decided_by) for r in rows] == [
        (1, "Ann", 10, "points"),
        (2, "Bob", 8, "points"),
        (3, "Cy", 6, "points"),
    ]


def test_two_tied_players_head_to_head():
    records = [GameRecord("Ann", "Bob", 2, 6), GameRecord("Ann", "Cy", 8, 0), GameRecord("Bob", "Cy", 4, 4)]
    rows = standings(records)
    assert order(rows) == ["Bob", "Ann", "Cy"]  # Ann 10, Bob 10: Bob won their game
    assert rows[0].decided_by == "head-to-head"


def test_three_tied_head_to_head_then_repeated_on_the_rest():
    records = [
        GameRecord("Ann", "Bob", 6, 2),
        GameRecord("Ann", "Cy", 4, 4),
        GameRecord("Bob", "Cy", 5, 3),
        GameRecord("Ann", "Dee", 0, 8),
        GameRecord("Bob", "Dee", 3, 5),
        GameRecord("Cy", "Dee", 3, 5),
    ]
    rows = standings(records)
    points = {r.player: r.points for r in rows}
    assert points == {"Dee": 18, "Ann": 10, "Bob": 10, "Cy": 10}
    # among the three: Ann 10, Bob 7, Cy 7; then Bob and Cy alone: Bob 5, Cy 3
    assert order(rows) == ["Dee", "Ann", "Bob", "Cy"]
    assert [r.decided_by for r in rows] == ["points", "head-to-head", "head-to-head", "head-to-head"]


def test_most_twenties_when_head_to_head_is_level():
    records = [GameRecord("Ann", "Bob", 4, 4, twenties_a=3, twenties_b=5)]
    rows = standings(records)
    assert order(rows) == ["Bob", "Ann"] and rows[0].decided_by == "20s"


def test_preliminaries_use_most_twenties_first():
    records = [
        GameRecord("Ann", "Bob", 6, 2, 1, 2),
        GameRecord("Ann", "Cy", 4, 4, 0, 0),
        GameRecord("Bob", "Cy", 8, 0, 3, 0),
    ]
    assert order(standings(records, stage="playoff")) == ["Ann", "Bob", "Cy"]  # head-to-head
    assert order(standings(records, stage="preliminary")) == ["Bob", "Ann", "Cy"]  # 20s: Bob 5, Ann 1


def test_twenties_between_tied_players_is_the_playoff_default():
    """Seed 002, tie-breaking a) ii): "if still tied player with most 20's between tied players in that
    playoff round will placed higher." Ann and Bob drew with one 20 each: the 20s Bob made against Cy
    do not count, so they stay tied and shoot it out; counting the whole round is an option."""
    records = [
        GameRecord("Ann", "Bob", 4, 4, 1, 1),
        GameRecord("Ann", "Cy", 8, 0, 0, 0),
        GameRecord("Bob", "Cy", 8, 0, 5, 0),
    ]
    with pytest.raises(RulesError, match="shoot-out needs make_twenties"):
        standings(records)
    with pytest.raises(RulesError, match="shoot-out needs make_twenties"):
        standings(records, twenties_scope="between tied")
    assert order(standings(records, twenties_scope="round"))[:2] == ["Bob", "Ann"]
    split = [
        GameRecord("Ann", "Bob", 4, 4, 1, 3),
        GameRecord("Ann", "Cy", 8, 0, 6, 0),
        GameRecord("Bob", "Cy", 8, 0, 0, 0),
    ]
    rows = standings(split)  # between them Bob made 3 and Ann 1; over the round Ann made 7
    assert order(rows)[:2] == ["Bob", "Ann"] and rows[0].decided_by == "20s"
    assert order(standings(split, twenties_scope="round"))[:2] == ["Ann", "Bob"]
    with pytest.raises(RulesError, match="twenties_scope"):
        standings(split, twenties_scope="all")


def test_shoot_out_breaks_a_tie_that_nothing_else_breaks():
    records = [GameRecord("Ann", "Bob", 4, 4, 2, 2)]
    made = {"Ann": iter([5, 7]), "Bob": iter([5, 6])}
    calls = []

    def make_twenties(player, k):
        calls.append((player, k))
        return next(made[player])

    rows = standings(records, make_twenties=make_twenties)
    assert order(rows) == ["Ann", "Bob"] and rows[0].decided_by == "shoot-out"
    assert calls == [("Ann", 12), ("Bob", 12), ("Ann", 12), ("Bob", 12)]  # singles: 12 shots, again while tied
    doubles_calls = []
    standings(
        records, category_name="doubles", make_twenties=lambda p, k: doubles_calls.append(k) or {"Ann": 2, "Bob": 4}[p]
    )
    assert set(doubles_calls) == {6}


def test_shoot_out_ranks_everyone_and_reshoots_only_the_tied():
    made = {"Ann": [9], "Bob": [7, 4], "Cy": [7, 6], "Dee": [2]}
    result = shoot_out(["Ann", "Bob", "Cy", "Dee"], 12, lambda p, k: made[p].pop(0))
    assert result.order == ("Ann", "Cy", "Bob", "Dee")
    assert result.rounds == ({"Ann": 9, "Bob": 7, "Cy": 7, "Dee": 2}, {"Bob": 4, "Cy": 6})


def test_shoot_out_checks_the_callable_and_is_bounded():
    with pytest.raises(RulesError, match="at most 6"):
        shoot_out(["Ann", "Bob"], 6, lambda p, k: 7)
    with pytest.raises(RulesError, match="still tied after 50 rounds"):
        shoot_out(["Ann", "Bob"], 6, lambda p, k: 3, max_rounds=50)
    with pytest.raises(RulesError, match="different players"):
        GameRecord("Ann", "Ann", 1, 1)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 6), stage=st.sampled_from(["playoff", "preliminary"]))
def test_round_robin_standings_properties(seed, n_players, stage):
    """Standings over a random round robin: every player once, ordered by points, ties placed by the
    tie-breakers, and the same seed gives the same standings."""

    def run():
        rng = random.Random(seed)
        players = [f"P{k}" for k in range(n_players)]
        records = []
        for a, b in itertools.combinations(players, 2):
            pa = rng.choice((0, 2, 4, 6, 8))
            records.append(GameRecord(a, b, pa, 8 - pa, rng.randint(0, 2), rng.randint(0, 2)))
        shots_rng = random.Random(seed + 1)
        return records, standings(records, stage=stage, make_twenties=lambda p, k: shots_rng.randint(0, k))

    records, rows = run()
    assert run()[1] == rows
    assert sorted(order(rows)) == sorted({r.a for r in records} | {r.b for r in records})
    assert [r.place for r in rows] == list(range(1, len(rows) + 1))
    assert all(x.points >= y.points for x, y in itertools.pairwise(rows))
    for x, y in itertools.pairwise(rows):
        if x.points == y.points and stage == "preliminary":
            assert x.twenties >= y.twenties
