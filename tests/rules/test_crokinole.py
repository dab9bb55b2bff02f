"""Crokinole: values, 20s, the hit and open-shot rules, round points, games, matches, scorecards."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.rules.common import Board, RulesError
from shuffle_sim.rules.crokinole import (
    CrokinoleGame,
    CrokinoleMatch,
    CrokinoleOptions,
    cancellation_points,
    categories,
    judge_shot,
    round_points,
    score_round,
)

IN = 0.0254
COURT = load_court("crokinole")


def at(rho_in, team, angle_deg=0.0):
    a = math.radians(angle_deg)
    return (rho_in * IN * math.cos(a), rho_in * IN * math.sin(a), team)


@pytest.mark.parametrize(
    "rho, value, reason",
    [
        (0.0, 20, "in the 20 hole: 20, removed at once"),
        (2.0, 15, "in the 15 circle"),
        (4.3, 10, "touching the 15 line: counts 10"),
        (6.0, 10, "in the 10 circle"),
        (8.2, 5, "touching the 10 line: counts 5"),
        (10.0, 5, "in the 5 circle"),
        (11.5, 0, "touching the 5 line: removed"),
        (12.8, 0, "beyond the 5 line: removed"),
        (13.5, 0, "in the ditch: removed"),
    ],
)
def test_disc_values(rho, value, reason):
    disc = score_round(Board.of(COURT, [at(rho, "A", angle_deg=90)])).discs[0]
    assert (disc.value, disc.reason) == (value, reason)


def test_round_totals_add_twenties_set_aside():
    board = Board.of(COURT, [at(2, "A"), at(6, "A", 180), at(10, "B", 90)])
    result = score_round(board, twenties={"A": 1, "B": 2})
    assert result.scores == {"A": 20 + 15 + 10, "B": 40 + 5}


def test_round_points_and_cancellation():
    assert round_points({"A": 45, "B": 30}) == {"A": 2, "B": 0}
    assert round_points({"A": 30, "B": 30}) == {"A": 1, "B": 1}  # the crokinole tournament rules: 1 each on a tie
    assert cancellation_points({"A": 45, "B": 30}) == {"A": 15, "B": 0}
    assert cancellation_points({"A": 30, "B": 30}) == {"A": 0, "B": 0}
    with pytest.raises(RulesError, match="exactly two"):
        round_points({"A": 1})


# ---- one shot --------------------------------------------------------------------------------------
# Disc 0: B's disc in the 10; disc 1: A's disc in the 15; disc 2: A's shot disc.


def shot(shot_end, contacts, before=(True, True, False), extra=()):
    board = Board.of(COURT, [at(6, "B", 90), at(2, "A", 200), shot_end, *extra])
    return judge_shot(board, "A", 2, list(before) + [True] * len(extra), contacts)


def test_hit_through_own_disc_is_good():
    result = shot(at(5, "A", 300), [(2, 1, False, False), (1, 0, False, False)])
    assert result.foul is None and result.remove == ()


def test_hit_rule_removes_shot_disc_and_own_discs_it_moved():
    result = shot(at(5, "A", 300), [(2, 1, False, False)])
    assert result.foul == "hit no opponent disc"
    assert result.remove == (1, 2)
    assert result.why[2] == "the shot hit no opponent disc: removed"


def test_hit_rule_follows_contact_order():
    """Disc 1 touched the opponent before the shot reached it: that is not a hit by the shot."""
    result = shot(at(5, "A", 300), [(1, 0, False, False), (2, 1, False, False)])
    assert result.foul == "hit no opponent disc"


def test_twenty_without_a_hit_is_removed_and_not_counted():
    result = shot(at(0, "A"), [])
    assert result.foul and result.remove == (2,) and result.twenties == {} and result.set_aside == ()


def test_open_shot_must_end_inside_or_touching_the_fifteen_line():
    no_opponent = (False, True, False)
    short = shot(at(6, "A", 300), [], before=no_opponent)
    assert short.foul == "open shot short of the 15 line" and 2 in short.remove
    touching = shot(at(4.3, "A", 300), [], before=no_opponent)
    assert touching.foul is None and 2 not in touching.remove
    twenty = shot(at(0, "A"), [], before=no_opponent)
    assert twenty.foul is None and twenty.twenties == {"A": 1} and twenty.remove == (2,) and twenty.set_aside == (2,)


def test_legal_shot_removals_and_twenties():
    """The shot hits the opponent into the ditch and knocks its own disc into the hole."""
    board_after = [at(13.5, "B", 90), at(0, "A"), at(3, "A", 300), at(11.5, "B", 45)]
    result = judge_shot(
        Board.of(COURT, board_after), "A", 2, [True, True, False, True], [(2, 0, False, False), (2, 1, False, False)]
    )
    assert result.foul is None
    assert result.twenties == {"A": 1} and result.set_aside == (1,)
    assert result.remove == (0, 1, 3)
    assert result.why[0] == "in the ditch: removed" and result.why[3] == "touching the 5 line: removed"


def test_judge_shot_checks_its_input():
    board = Board.of(COURT, [at(6, "B", 90), at(2, "A", 200)])
    with pytest.raises(RulesError, match="on_board_before"):
        judge_shot(board, "A", 1, [True], [])
    with pytest.raises(RulesError, match="on_board_before\\[1\\]"):
        judge_shot(board, "A", 1, [True, True], [])
    with pytest.raises(RulesError, match="shot_disc"):
        judge_shot(board, "A", 0, [False, True], [])


# ---- games -----------------------------------------------------------------------------------------


def test_categories_from_seed_002():
    table = categories()
    assert {n: (c.discs_per_player, c.games_per_match, c.shootout_shots) for n, c in table.items()} == {
        "singles": (8, 10, 12),
        "cue singles": (6, 10, 6),
        "juniors": (6, 6, 6),
        "intermediates": (6, 6, 6),
        "doubles": (6, 6, 6),
        "cue doubles": (5, 6, 6),
    }


def test_singles_turns_alternate_and_the_start_alternates_by_round():
    game = CrokinoleGame(("A", "B"))
    turns = game.turns()
    assert len(turns) == 16 and [t.team for t in turns] == ["A", "B"] * 8
    assert [t.end for t in turns[:2]] == ["south", "north"]
    game.record_round({"A": 10, "B": 5})
    assert game.turns()[0].team == "B"


@pytest.mark.parametrize("name, shots", [("doubles", 24), ("cue doubles", 20)])
def test_doubles_seats_go_clockwise_and_the_start_moves(name, shots):
    game = CrokinoleGame(("A", "B"), CrokinoleOptions(category=name))
    turns = game.turns()
    assert len(turns) == shots
    assert [(t.team, t.player, t.end) for t in turns[:4]] == [
        ("A", 0, "south"),
        ("B", 0, "west"),
        ("A", 1, "north"),
        ("B", 1, "east"),
    ]
    game.record_round({"A": 0, "B": 0})
    assert (game.turns()[0].team, game.turns()[0].end) == ("B", "west")


def test_four_round_game_with_round_points_and_scorecard():
    game = CrokinoleGame(("A", "B"))
    for totals, twenties in [
        ({"A": 65, "B": 30}, {"A": 2, "B": 0}),
        ({"A": 30, "B": 30}, {}),
        ({"A": 10, "B": 45}, {"B": 1}),
        ({"A": 50, "B": 25}, {"A": 1}),
    ]:
        assert not game.over
        game.record_round(totals, twenties)
    assert game.over and game.winner == "A" and game.scores == {"A": 5, "B": 3}
    card = game.scorecard()
    assert card.twenties == {"A": 3, "B": 1}
    assert [r.points for r in card.rounds][1] == {"A": 1, "B": 1}
    assert card.to_dict()["rounds"][0] == {
        "round": 1,
        "totals": {"A": 65, "B": 30},
        "twenties": {"A": 2, "B": 0},
        "points": {"A": 2, "B": 0},
    }


def test_tied_game_stands_unless_championship_which_plays_a_fifth_round():
    tied = CrokinoleGame(("A", "B"))
    for k in range(4):
        tied.record_round({"A": 20, "B": 10} if k % 2 == 0 else {"A": 10, "B": 20})
    assert tied.over and tied.winner is None and tied.scores == {"A": 4, "B": 4}
    champ = CrokinoleGame(("A", "B"), CrokinoleOptions(championship=True))
    for k in range(4):
        champ.record_round({"A": 20, "B": 10} if k % 2 == 0 else {"A": 10, "B": 20})
    assert not champ.over
    champ.record_round({"A": 5, "B": 5})
    assert not champ.over  # still tied: another round
    champ.record_round({"A": 5, "B": 15})
    assert champ.over and champ.winner == "B" and len(champ.rounds) == 6


def test_cancellation_scoring_to_one_hundred():
    game = CrokinoleGame(("A", "B"), CrokinoleOptions(scoring="cancellation"))
    for _ in range(4):
        game.record_round({"A": 45, "B": 20})
    assert game.scores == {"A": 100, "B": 0} and game.over and game.winner == "A"


def test_record_round_checks():
    game = CrokinoleGame(("A", "B"))
    with pytest.raises(RulesError, match="20s"):
        game.record_round({"A": 15, "B": 0}, {"A": 1})
    with pytest.raises(RulesError, match="sides must be"):
        game.record_round({"A": 15, "C": 0})
    with pytest.raises(RulesError, match="category"):
        CrokinoleOptions(category="triples")


def random_totals(rng, sides):
    twenties = {s: rng.choice((0, 0, 1, 2)) for s in sides}
    return {s: 20 * twenties[s] + 5 * rng.randint(0, 12) for s in sides}, twenties


def play_game(game, rng):
    log = []
    for _ in range(10_000):
        if game.over:
            break
        log.append(game.turns())
        log.append(game.record_round(*random_totals(rng, game.sides)))
    return log


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    category=st.sampled_from(sorted(categories())),
    scoring=st.sampled_from(["points", "cancellation"]),
    championship=st.booleans(),
)
def test_whole_games(seed, category, scoring, championship):
    options = CrokinoleOptions(category=category, scoring=scoring, championship=championship)
    game = CrokinoleGame(("A", "B"), options)
    play_game(game, random.Random(seed))
    assert game.over
    for s in game.sides:
        assert game.scores[s] == sum(r.points[s] for r in game.rounds)
        assert game.twenties[s] == sum(r.twenties[s] for r in game.rounds)
    a, b = game.scores["A"], game.scores["B"]
    if scoring == "points":
        assert all(sum(r.points.values()) == 2 for r in game.rounds)
        assert len(game.rounds) >= 4 and (len(game.rounds) == 4 or championship)
        assert game.winner == (None if a == b else ("A" if a > b else "B"))
        if championship:
            assert game.winner is not None
    else:
        assert max(a, b) >= 100 and game.winner == ("A" if a > b else "B")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), category=st.sampled_from(sorted(categories())), championship=st.booleans())
def test_whole_matches(seed, category, championship):
    rng = random.Random(seed)
    match = CrokinoleMatch(("A", "B"), CrokinoleOptions(category=category, championship=championship))
    firsts = []
    for _ in range(20):
        if match.over:
            break
        game = match.next_game()
        firsts.append(game.turns()[0].team)
        play_game(game, rng)
        match.record_game(game)
    assert match.over
    assert firsts == ["A", "B"] * (len(firsts) // 2) + ["A"] * (len(firsts) % 2)
    for s in match.sides:
        assert match.points[s] == sum(g.scores[s] for g in match.games)
    if championship:
        assert match.wins[match.winner] == 2 and len(match.games) in (2, 3)
    else:
        assert len(match.games) == categories()[category].games_per_match
        a, b = match.points["A"], match.points["B"]
        assert match.winner == (None if a == b else ("A" if a > b else "B"))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game_flow(seed):
    def run():
        game = CrokinoleGame(("A", "B"), CrokinoleOptions(championship=True))
        return play_game(game, random.Random(seed))

    assert run() == run()


def test_a_board_file_may_list_the_twenties_set_aside_and_the_round_counts_them():
    from shuffle_sim.physics.scene import SceneError
    from shuffle_sim.rules import score_board
    from shuffle_sim.rules.board_file import board_from_dict

    data = {"discs": [{"x": 0.0, "y": 0.05, "team": "light"}], "twenties": {"light": 1, "dark": 2}}
    board = board_from_dict(data, "crokinole", "crokinole")
    assert board.twenties == {"light": 1, "dark": 2}
    assert score_board("crokinole", board).scores == {"light": 35, "dark": 40}
    assert score_round(board, twenties={}).scores == {"light": 15}  # twenties given to the call win
    for bad in ({"light": -1}, {"light": 1.5}, {"light": True}, [1]):
        with pytest.raises(SceneError, match="twenties"):
            board_from_dict({**data, "twenties": bad}, "crokinole", "crokinole")
    with pytest.raises(SceneError, match="twenties: unknown key"):
        board_from_dict({"discs": [], "twenties": {"yellow": 1}}, "deck", "deck")
