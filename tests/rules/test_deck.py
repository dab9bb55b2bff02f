"""Deck shuffleboard half-round scoring, shot effects (removals, C-20a) and the lag (C-2)."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.rules.common import Board, RulesError
from shuffle_sim.rules.deck import lag_winner, score_half_round, shot_effect

FT = 0.3048
IN = 0.0254
COURT = load_court("deck")  # foot end: the diagram the court file describes
R = COURT.disc_radius
HALF_LINE = 0.5 * IN


def board(*discs, court=COURT):
    return Board.of(court, discs)


# Centres well inside each zone of the foot diagram (y measured from the head end).
IN_10 = (0.0, 36.5 * FT)
IN_8_RIGHT = (0.2, 39.5 * FT)
IN_8_LEFT = (-0.2, 39.5 * FT)
IN_7_RIGHT = (0.3, 42.5 * FT)
IN_10_OFF = (0.0, 44.75 * FT)  # on the separation triangle, which D-2 ignores
SHORT = (0.3, 30 * FT)
PAST_BASELINE = (0.3, 47 * FT)
IN_ALLEY = (1.2, 40 * FT)


def test_both_sides_score_all_their_discs():
    frame = score_half_round(
        board(
            (*IN_10, "yellow"),
            (*IN_8_RIGHT, "yellow"),
            (*IN_7_RIGHT, "black"),
            (*IN_8_LEFT, "black"),
            (*IN_10_OFF, "yellow"),
        )
    )
    assert frame.scores == {"yellow": 10 + 8 - 10, "black": 7 + 8}
    assert [d.value for d in frame.discs] == [10, 8, 7, 8, -10]
    assert frame.discs[0].reason == "in the 10 zone, touching no line"
    assert frame.discs[4].reason == "10-off"
    assert frame.void is None


def test_scores_equal_sum_of_disc_values_and_teams_listed():
    frame = score_half_round(board((*IN_10, "yellow")), teams=("yellow", "black"))
    assert frame.scores == {"yellow": 10, "black": 0}


@settings(max_examples=200, deadline=None)
@given(dy=st.floats(-0.1, 0.1))
def test_fourteen_foot_line_boundary(dy):
    """A disc touching the 14 ft line (it has width) scores nothing; clear of it, the 10 or the 8 (D-2)."""
    reach = R + HALF_LINE
    assume(abs(abs(dy) - reach) > 1e-9)
    frame = score_half_round(board((0.12, 38 * FT + dy, "black")))
    disc = frame.discs[0]
    if abs(dy) <= reach:
        assert disc.value == 0
        assert disc.reason == "touching the 14 ft line: scores nothing (D-2)"
    else:
        assert disc.value == (10 if dy < 0 else 8)


@pytest.mark.parametrize(
    "where, reason",
    [
        (SHORT, "short of the far dead line: dead (C-4b)"),
        (PAST_BASELINE, "past the far baseline: dead (C-21, C-22)"),
        (IN_ALLEY, "off the side of the court into the alley: dead (C-21, C-23)"),
        ((0.0, 53 * FT), "off the end of the court: dead (C-20, C-21)"),
        ((0.3, 32 * FT + 0.05), "touching the dead line: in play (C-4b note), scores nothing"),
        ((0.3, 33 * FT), "outside the scoring diagram: scores nothing"),
        ((0.0, 45.5 * FT + 0.05), "touching the baseline: scores nothing (D-2)"),
    ],
)
def test_discs_worth_nothing_say_why(where, reason):
    disc = score_half_round(board((*where, "yellow"))).discs[0]
    assert disc.value == 0
    assert disc.reason == reason


def test_short_disc_left_in_play_option_reason():
    disc = score_half_round(board((*SHORT, "yellow")), short_discs="left in play").discs[0]
    assert disc.value == 0 and "left in play" in disc.reason
    with pytest.raises(RulesError, match="short_discs"):
        score_half_round(board((*SHORT, "yellow")), short_discs="kept")


def test_head_end_is_the_half_turned_diagram():
    head = COURT.for_end("head")
    x, y = IN_7_RIGHT
    frame = score_half_round(board((-x, 52 * FT - y, "yellow"), court=head))
    assert frame.scores == {"yellow": 7}


def test_shot_effect_removes_dead_discs_at_once():
    b = board(
        (*IN_10, "yellow"), (*SHORT, "black"), (*PAST_BASELINE, "yellow"), (*IN_ALLEY, "black"), (*IN_8_LEFT, "black")
    )
    effect = shot_effect(b, shot_number=5)
    assert effect.remove == (1, 2, 3)
    assert effect.why[1] == "short of the far dead line: dead (C-4b)"
    assert not effect.replay and effect.penalty is None and not effect.ends_half_round
    left = shot_effect(b, shot_number=5, short_discs="left in play")
    assert left.remove == (2, 3)


def test_killed_disc_is_removed_even_on_a_scoring_zone():
    b = board((*IN_10, "yellow"), (*IN_8_LEFT, "black"))
    effect = shot_effect(b, shot_number=2, killed=[0])
    assert effect.remove == (0,)
    assert "backstop" in effect.why[0] and "C-20" in effect.why[0]


@pytest.mark.parametrize(
    "contact, replay_rule",
    [
        ((0, 1, True, False), True),
        ((0, 1, False, True), True),
        ((0, 1, True, True), False),
        ((0, 1, False, False), False),
    ],
)
def test_dead_disc_touching_live_disc_replays_half_round(contact, replay_rule):
    """C-20a: replay and 10-off to the shooter; dead on dead or live on live is play."""
    b = board((*IN_10, "yellow"), (*IN_8_LEFT, "black"))
    effect = shot_effect(b, shot_number=3, contacts=[contact])
    assert effect.replay is replay_rule
    assert effect.ends_half_round is replay_rule
    assert effect.penalty == ("C-20a" if replay_rule else None)


def test_dead_disc_contact_on_eighth_disc_is_not_replayed():
    b = board((*IN_10, "yellow"), (*IN_8_LEFT, "black"))
    effect = shot_effect(b, shot_number=8, contacts=[(1, 0, True, False)])
    assert effect.penalty == "C-20a" and effect.ends_half_round and not effect.replay


def test_shot_effect_checks_its_input():
    b = board((*IN_10, "yellow"))
    with pytest.raises(RulesError, match="shot_number"):
        shot_effect(b, shot_number=9)
    with pytest.raises(RulesError, match=r"contacts\[0\].b"):
        shot_effect(b, shot_number=1, contacts=[(0, 4, False, True)])
    with pytest.raises(RulesError, match="killed"):
        shot_effect(b, shot_number=1, killed=[3])


# ---- the lag (C-2) -------------------------------------------------------------------------------

DEAD_LINE_Y = 32 * FT


def test_lag_a_touching_disc_beats_a_clear_one():
    """Seed 000, C-2: "the disc nearest the line determines who shall have color choice. The measurement
    is from center of disc to center of line, EXCEPT if the disc is not touching the line, it shall be
    measured from the edge of the disc closest to the line to the edge of the line closes to disc."
    Read with common sense: a disc touching the line is nearer it than any disc clear of it -- here a
    disc touching it 3.4 in off centre against one missing it by half an inch."""
    touching = (0.0, DEAD_LINE_Y + 3.4 * IN)  # touches: centre 3.4 in from the line's centre
    near_miss = (0.2, DEAD_LINE_Y - (R + HALF_LINE + 0.5 * IN))  # clear of it by 0.5 in, edge to edge
    assert lag_winner(COURT, touching, near_miss) == 0
    assert lag_winner(COURT, near_miss, touching) == 1


def test_lag_touching_discs_compare_centres_and_clear_discs_compare_gaps():
    """Seed 000, C-2: centre of disc to centre of line when touching; edge to edge when not."""
    assert lag_winner(COURT, (0.0, DEAD_LINE_Y + 3.0 * IN), (0.3, DEAD_LINE_Y - 1.0 * IN)) == 1
    assert (
        lag_winner(
            COURT, (0.0, DEAD_LINE_Y + R + HALF_LINE + 0.4 * IN), (0.3, DEAD_LINE_Y - (R + HALF_LINE + 0.3 * IN))
        )
        == 1
    )


def test_lag_black_touching_yellow_gives_yellow_the_choice():
    yellow = (0.0, DEAD_LINE_Y + 0.3)
    black = (0.0, DEAD_LINE_Y)
    assert lag_winner(COURT, yellow, black) == 1
    assert lag_winner(COURT, yellow, black, second_touched_first=True) == 0


def test_lag_black_touching_yellow_into_the_alley_still_gives_yellow_the_choice():
    """Seed 000, C-2: "If the last black disc shot touches or moves the last yellow disc, the color
    choice goes to the player of yellow." The rule names no place where the discs must end: yellow
    wins when black knocks it into the alley (None), and when both end there."""
    black = (0.0, DEAD_LINE_Y)
    assert lag_winner(COURT, None, black, second_touched_first=True) == 0
    assert lag_winner(COURT, None, None, second_touched_first=True) == 0
    # Untouched, a disc in the alley loses to one on the court; two in the alley lag again.
    assert lag_winner(COURT, None, black) == 1
    assert lag_winner(COURT, black, None) == 0
    assert lag_winner(COURT, None, None) is None


def test_lag_tie_is_lagged_again():
    assert lag_winner(COURT, (-0.3, DEAD_LINE_Y + 0.02), (0.3, DEAD_LINE_Y - 0.02)) is None


@settings(max_examples=100, deadline=None)
@given(a=st.floats(-1.0, 1.0), b=st.floats(-1.0, 1.0))
def test_lag_is_symmetric_and_prefers_the_nearer_disc(a, b):
    first = (-0.3, DEAD_LINE_Y + a)
    second = (0.3, DEAD_LINE_Y + b)
    forward = lag_winner(COURT, first, second)
    backward = lag_winner(COURT, second, first)
    if forward is None:
        assert backward is None
    else:
        assert backward == 1 - forward
    if abs(a) + 1e-9 < abs(b) and abs(b) <= R + HALF_LINE:
        assert forward == 0  # both measured centre to centre while touching
    if abs(a) <= R + HALF_LINE - 1e-9 < abs(b) - 2e-9:
        assert forward == 0  # touching beats clear, however near the clear one is
