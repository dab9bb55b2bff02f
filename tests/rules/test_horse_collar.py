"""Horse collar: puck values, the foul-line void, "a 3 before anything counts", 51 with the hammer."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.rules.common import Board, RulesError
from shuffle_sim.rules.horse_collar import (
    VOID_FOUL_LINE,
    VOID_NO_THREE,
    HorseCollarGame,
    HorseCollarOptions,
    score_frame,
)

IN = 0.0254
COURT = load_court("horse-collar")
R_IN = COURT.disc_radius / IN  # 1 5/32 in
HW_IN = 1 / 8  # half of a 1/4 in line
END, TREY, DEUCE, FOUL = 248.0, 242.0, 236.0, 176.0  # inches from the shooter's end


def puck(x_in, y_in, team="red"):
    return (x_in * IN, y_in * IN, team)


def frame(*pucks, side=None):
    return score_frame(Board.of(COURT, pucks), side=side)


THREE = [puck(-4, 244.5)]
TWOS = [puck(-4, 238.5), puck(4, 239.5)]
ONES = [puck(-5, 200), puck(0, 210), puck(5, 220)]
IN_ALLEY = [puck(10.5, 230), puck(-10.6, 200)]


def test_seed_example_one_three_two_twos_three_ones_make_ten():
    result = frame(*THREE, *TWOS, *ONES, *IN_ALLEY)
    assert result.scores == {"red": 10}
    assert result.void is None
    assert [d.value for d in result.discs] == [3, 2, 2, 1, 1, 1, 0, 0]
    assert result.discs[6].reason == "in the alley: dead"


def test_a_puck_short_of_the_foul_line_voids_the_frame():
    result = frame(*THREE, *TWOS, puck(0, 150))
    assert result.scores == {"red": 0} and result.void == VOID_FOUL_LINE
    assert result.discs[0].reason == "in the 3 zone, but the frame is void"
    assert result.discs[-1].reason == "short of the foul line: dead"


def test_a_puck_touching_the_foul_line_voids_the_frame():
    result = frame(*THREE, puck(0, FOUL + HW_IN + R_IN - 0.01))
    assert result.void == VOID_FOUL_LINE
    assert result.discs[-1].reason == "touching the foul line: has not cleared the foul line, dead"
    clear = frame(*THREE, puck(0, FOUL + HW_IN + R_IN + 0.01))
    assert clear.void is None and clear.scores == {"red": 4}


def test_nothing_counts_without_a_three():
    result = frame(*TWOS, *ONES, puck(0, TREY - HW_IN - R_IN + 0.01))  # touching the trey line: a 2
    assert result.void == VOID_NO_THREE and result.scores == {"red": 0}
    assert "touching the trey line: counts 2" in result.discs[-1].reason


@pytest.mark.parametrize(
    "where, value, reason",
    [
        ((0, 247.5), 13, "13-point hanger over the far end"),
        ((9.5, 247.5), 26, "26-point hanger at a corner"),
        ((-9.5, 247.5), 26, "26-point hanger at a corner"),
        ((9.5, 230), 1, "in the 1 zone"),  # overhanging a side only: nothing special
        ((0, DEUCE + HW_IN + R_IN - 0.01), 1, "touching the deuce line: counts 1"),
    ],
)
def test_hangers_and_lines(where, value, reason):
    result = frame(*THREE, puck(*where))
    assert result.discs[-1].value == value and result.discs[-1].reason == reason
    assert result.scores == {"red": 3 + value}


def test_a_hanger_opens_the_scoring():
    assert frame(puck(0, 247.5), *ONES).scores == {"red": 16}


def test_side_name():
    assert frame(*THREE, puck(0, 200, "blue")).scores == {"blue+red": 4}
    assert frame(*THREE, side="Ann").scores == {"Ann": 3}


def oracle_value(y):
    """Independent reading of the horse collar rules for a puck clear of the sides: (value, void-causing)."""
    if y > END:
        return 0, False  # in the far gutter
    if y + R_IN > END:
        return 13, False
    if y - R_IN > TREY + HW_IN:
        return 3, False
    if y + R_IN >= TREY - HW_IN or y - R_IN > DEUCE + HW_IN:
        return 2, False
    if y + R_IN >= DEUCE - HW_IN or y - R_IN > FOUL + HW_IN:
        return 1, False
    return 0, True


@settings(max_examples=150, deadline=None)
@given(ys=st.lists(st.floats(150.0, 249.0), min_size=1, max_size=8))
def test_frame_scoring_against_an_independent_reading(ys):
    for y in ys:
        for edge in (
            END,
            END - R_IN,
            TREY + HW_IN + R_IN,
            TREY - HW_IN - R_IN,
            DEUCE + HW_IN + R_IN,
            DEUCE - HW_IN - R_IN,
            FOUL + HW_IN + R_IN,
        ):
            assume(abs(y - edge) > 1e-6)
    pucks = [puck(-6 + 12 * k / 8, y) for k, y in enumerate(ys)]
    result = frame(*pucks)
    values = [oracle_value(y) for y in ys]
    if any(void for _, void in values) or max(v for v, _ in values) < 3:
        expected = 0
    else:
        expected = sum(v for v, _ in values)
    assert result.scores == {"red": expected}
    assert sum(d.value for d in result.discs) == expected


# ---- the game ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "team_size, players",
    [
        (1, [0] * 8),
        (2, [0] * 4 + [1] * 4),
        (4, [0, 0, 1, 1, 2, 2, 3, 3]),
    ],
)
def test_one_side_throws_all_eight_in_team_order(team_size, players):
    game = HorseCollarGame("A", "B", HorseCollarOptions(team_size=team_size))
    turns = game.turns()
    assert [t.team for t in turns] == ["A"] * 8 and [t.player for t in turns] == players
    assert {t.end for t in turns} == {"head"}
    game.record_frame(0)
    assert {t.team for t in game.turns()} == {"B"} and game.turns()[0].end == "foot"


def test_first_side_over_51_waits_for_the_hammer():
    game = HorseCollarGame("A", "B")
    game.record_frame(40)
    game.record_frame(30)
    game.record_frame(15)  # A 55
    assert not game.over
    game.record_frame(30)  # B 60: the hammer overtakes
    assert game.over and game.winner == "B"


def test_hammer_side_reaching_51_wins_when_ahead_and_tie_plays_another_pair():
    game = HorseCollarGame("A", "B")
    game.record_frame(20)
    game.record_frame(51)
    assert game.over and game.winner == "B"
    tie = HorseCollarGame("A", "B")
    tie.record_frame(52)
    tie.record_frame(52)
    assert not tie.over
    tie.record_frame(0)
    tie.record_frame(3)
    assert tie.over and tie.winner == "B"


def test_record_frame_from_a_scored_board_and_checks():
    game = HorseCollarGame("A", "B")
    entry = game.record_frame(frame(*THREE, *TWOS, *ONES))
    assert entry.points == 10 and entry.side == "A"
    void = game.record_frame(frame(*TWOS))
    assert void.points == 0 and void.void == VOID_NO_THREE
    with pytest.raises(RulesError, match="points"):
        game.record_frame(-3)
    with pytest.raises(RulesError, match="team_size"):
        HorseCollarOptions(team_size=3)


def random_frame(rng):
    if rng.random() < 0.4:
        return 0  # void
    return sum(rng.choice((0, 1, 1, 2, 3, 3, 13, 26)) for _ in range(rng.randint(1, 8)))


def play(seed, options):
    rng = random.Random(seed)
    game = HorseCollarGame("A", "B", options)
    log = []
    for _ in range(10_000):
        if game.over:
            break
        log.append(game.turns())
        points = random_frame(rng)
        gap = game.scores[game.sides[0]] - game.scores[game.hammer]
        if game.thrower() == game.hammer and gap >= 0 and rng.random() < 0.3:
            points = gap  # level the scores, so that ties at 51 or more are common
        log.append(game.record_frame(points))
    return game, log


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game_point=st.sampled_from([21, 51]), team_size=st.sampled_from([1, 2, 4]))
def test_whole_games(seed, game_point, team_size):
    game, _ = play(seed, HorseCollarOptions(game_point=game_point, team_size=team_size))
    assert game.over
    frames = game.scoreboard
    assert len(frames) % 2 == 0, "the game ends only after the hammer has thrown"
    for side in game.sides:
        assert game.scores[side] == sum(f.points for f in frames if f.side == side)
    # no earlier pair ended the game
    totals = {"A": 0, "B": 0}
    for k, f in enumerate(frames[:-2]):
        totals[f.side] += f.points
        if k % 2 == 1:
            assert max(totals.values()) < game_point or totals["A"] == totals["B"]
    winner = game.winner
    loser = "B" if winner == "A" else "A"
    assert game.scores[winner] >= game_point and game.scores[winner] > game.scores[loser]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game_flow(seed):
    assert play(seed, HorseCollarOptions())[1] == play(seed, HorseCollarOptions())[1]
