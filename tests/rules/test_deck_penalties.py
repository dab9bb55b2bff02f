"""MSA penalty table I as data, and the compound and displacement penalties applied exactly."""

import pytest

from shuffle_sim.court import load_court
from shuffle_sim.rules.common import Board, RulesError
from shuffle_sim.rules.deck_game import DeckGame, DeckOptions
from shuffle_sim.rules.deck_penalties import assess, load_penalty_table, penalty_table

FT = 0.3048
COURT = load_court("deck")

TABLE_I = {  # rule id -> points, as printed at the end of the MSA rules
    "C-3b": 10,
    "C-4a": 5,
    "C-4b": 5,
    "C-4c": 10,
    "C-5": 10,
    "C-5a": 10,
    "C-6": 5,
    "C-7": 5,
    "C-8": 10,
    "C-9": 5,
    "C-9a": 5,
    "C-10": 10,
    "C-11": 10,
    "C-12": 10,
    "C-13": 10,
    "C-14": 5,
    "C-15": 10,
    "C-16": 10,
    "C-17": 10,
    "C-18": 10,
    "C-19": 10,
    "C-20a": 10,
    "C-20b": 10,
    "C-20c": 10,
    "C-25": 0,
    "D-2": 5,
    "F-1a": 10,
    "F-1c": 10,
    "F-2": 10,
    "C-3b.2": 10,  # the second paragraph of rule 3b, which the table folds into C-3b
}


def test_table_holds_every_record_of_table_one():
    table = penalty_table()
    assert {rule: p.points for rule, p in table.items()} == TABLE_I
    assert {rule for rule, p in table.items() if p.compound} == {"C-3b", "C-3b.2", "C-10", "C-13", "C-15", "C-18"}
    assert table["C-3b"].compound_if == table["C-3b.2"].compound_if == "live disc touched"
    assert {rule for rule, p in table.items() if p.game_point_exception} == {"C-3b.2", "C-10", "C-13", "C-15", "C-18"}
    assert table["C-20c"].suspended and table["C-25"].disqualifies
    assert {rule for rule, p in table.items() if p.returns_shot_disc} == {"C-3b"}


@pytest.mark.parametrize(
    "text, message",
    [
        ('[[penalty]]\nrule = "X-1"\ndescription = "d"\npoints = 7\n', r"penalty\[0\]\.points: must be 5 or 10"),
        (
            '[[penalty]]\nrule = "X-1"\ndescription = "d"\npoints = 5\ncolour = "red"\n',
            r"penalty\[0\]\.colour: unknown key",
        ),
        (
            '[[penalty]]\nrule = "X-1"\ndescription = "d"\npoints = 5\n'
            '[[penalty]]\nrule = "X-1"\ndescription = "e"\npoints = 5\n',
            r"penalty\[1\]\.rule: duplicate rule",
        ),
        ('[[penalty]]\nrule = "X-1"\npoints = 5\n', r"penalty\[0\]\.description: missing required key"),
        (
            '[[penalty]]\nrule = "X-1"\ndescription = "d"\npoints = 5\ncompound = "yes"\n',
            r"penalty\[0\]\.compound: must be true or false",
        ),
        (
            '[[penalty]]\nrule = "X-1"\ndescription = "d"\npoints = 5\ngame_point_exception = true\n',
            r"penalty\[0\]\.game_point_exception: only a compound penalty",
        ),
        (
            '[[penalty]]\nrule = "X-1"\ndescription = "d"\npoints = 5\n'
            "removes_shot_disc = true\nreturns_shot_disc = true\n",
            r"penalty\[0\]\.returns_shot_disc: a shot disc is either removed or returned",
        ),
    ],
)
def test_bad_table_files_name_the_record_and_key(tmp_path, text, message):
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(RulesError, match=message):
        load_penalty_table(path)


def test_simple_penalties_take_five_or_ten():
    assert assess("C-14", "yellow").points_off == 5
    assert assess("C-11", "black").points_off == 10
    simple = assess("C-9", "yellow")
    assert simple.credit == 0 and not simple.compound and simple.remove == ()
    with pytest.raises(RulesError, match="rule must be a rule of MSA table I"):
        assess("C-99", "yellow")


def test_suspended_and_disqualifying_rules():
    with pytest.raises(RulesError, match="suspended"):
        assess("C-20c", "yellow")
    assert assess("C-20c", "yellow", allow_suspended=True).points_off == 10
    dq = assess("C-25", "black")
    assert dq.disqualifies and dq.points_off == 0


# A court at the moment of an offence by yellow.
IN_10 = (0.0, 36.5 * FT)
IN_8 = (-0.2, 39.5 * FT)
IN_7 = (0.3, 42.5 * FT)
TEN_OFF_L = (-0.4, 44.75 * FT)
TEN_OFF_R = (0.4, 44.75 * FT)
TEN_OFF_C = (0.0, 44.75 * FT)
ON_LINE = (0.12, 38 * FT)
SHORT = (0.3, 30 * FT)


def court_at_offence():
    return Board.of(
        COURT,
        [
            (*IN_10, "yellow"),
            (*IN_7, "yellow"),
            (*TEN_OFF_L, "yellow"),
            (*TEN_OFF_R, "yellow"),
            (*IN_8, "black"),
            (*TEN_OFF_C, "black"),
            (*ON_LINE, "black"),
            (*SHORT, "black"),
        ],
    )


@pytest.mark.parametrize("rule", ["C-10", "C-13", "C-15", "C-18", "C-3b", "C-3b.2"])
def test_compound_penalty_takes_ten_offs_voids_and_credits(rule):
    """Offender: 10 plus his two 10-offs; his 10 and 7 void; opponent credited his 8 (10-off excepted)."""
    charge = assess(rule, "yellow", court_at_offence())
    assert charge.compound
    assert charge.points_off == 10 + 2 * 10
    assert charge.credit == 8


def test_shooting_opponents_disc_without_touching_a_live_disc_is_plain():
    charge = assess("C-3b", "yellow", court_at_offence(), live_disc_touched=False)
    assert not charge.compound and charge.points_off == 10 and charge.credit == 0


def test_compound_penalty_needs_the_board():
    with pytest.raises(RulesError, match="board: rule C-10 needs the discs"):
        assess("C-10", "yellow")


def test_hook_shot_displacement():
    """C-17: shot disc removed, opponent credited his displaced discs, all displaced removed, offender's
    displaced 10-offs deducted."""
    b = court_at_offence()
    charge = assess("C-17", "yellow", b, displaced=[2, 4, 5, 1])
    assert charge.points_off == 10 + 10  # yellow's 10-off at index 2
    assert charge.credit == 8  # black's 8; black's 10-off is not a good disc
    assert charge.remove == (1, 2, 4, 5)
    assert charge.remove_shot_disc


def test_hesitation_shot_deducts_only_displaced_ten_offs():
    charge = assess("C-16", "yellow", court_at_offence(), displaced=[2, 4])
    assert charge.points_off == 20 and charge.credit == 0
    assert charge.remove == (2,) and not charge.remove_shot_disc


def test_compound_penalty_replays_the_half_round():
    game = DeckGame("A", "B")  # A yellow
    half = game.half_round()
    charge = half.penalize("C-10", "yellow", court_at_offence())
    entry = half.entry
    assert charge.compound and entry.replayed
    assert entry.points == {"A": 0, "B": 8}
    assert entry.penalties == (("A", "C-10", 30),)
    assert game.scores == {"A": -30, "B": 8}
    assert game.completed == 0 and game.turns()[0].colour == "yellow"  # same half-round again


def test_compound_penalty_not_replayed_once_opponent_reaches_game_point():
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 0, "black": 70})
    half = game.half_round()
    half.penalize("C-13", "yellow", court_at_offence())
    assert not half.entry.replayed
    assert game.scores == {"A": -30, "B": 78}
    assert game.over and game.winner == "B"


def test_compound_penalty_credit_decides_game_point():
    """Judged with the credit posted: 68 + 8 reaches 75, so no replay."""
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 0, "black": 68})
    half = game.half_round()
    half.penalize("C-15", "yellow", court_at_offence())
    assert not half.entry.replayed and game.over


def test_compound_penalty_below_game_point_is_replayed():
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 0, "black": 60})
    half = game.half_round()
    half.penalize("C-18", "yellow", court_at_offence())
    assert half.entry.replayed and not game.over and game.completed == 1


def test_simple_penalties_are_posted_with_the_half_round():
    game = DeckGame("A", "B")
    half = game.half_round()
    half.penalize("C-14", "black")
    half.penalize("C-11", "yellow")
    assert not half.ended
    with pytest.raises(RulesError, match="D-3"):
        half.finish(Board.of(COURT, []))


def test_points_with_a_compound_penalty_are_refused():
    game = DeckGame("A", "B")
    charge = assess("C-10", "yellow", court_at_offence())
    with pytest.raises(RulesError, match="points=None"):
        game.record_half_round({"yellow": 10}, [charge])


def _at_game_point_then(rule, **kwargs):
    """Black (B) at 70 of 75; yellow (A) commits ``rule`` touching a live disc: B is credited 8 (78)."""
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 0, "black": 70})
    half = game.half_round()
    half.penalize(rule, "yellow", court_at_offence(), **kwargs)
    return game, half


def test_shooting_opponents_disc_touching_a_live_disc_is_replayed_even_at_game_point():
    """Seed 000, rule C-3b, first paragraph: "If a LIVE disc is touched, PENALTY - 10 Off; plus any
    10-Offs offender had on the court; good disc of the offender does not count. Opponent's good disc
    shall be credited to opponent's score (excepting any 10-Offs) and the Half-Round shall be played
    over." -- no "unless game point has been reached" here, so the replay stands at game point."""
    game, half = _at_game_point_then("C-3b")
    assert half.entry.replayed and half.entry.penalties == (("A", "C-3b", 30),)
    assert game.scores == {"A": -30, "B": 78}
    assert not game.over and game.completed == 1  # the same half-round is played again
    assert game.half_round().turns[0].colour == "black"


def test_shooting_from_opponents_half_touching_a_live_disc_is_not_replayed_at_game_point():
    """Seed 000, rule C-3b, second paragraph: "If a live disc is touched, penalty 10-Off, plus any
    10-Offs the offender had on the court [...] and the frame shall be played over, unless game point
    has been reached by offender's opponent." """
    game, half = _at_game_point_then("C-3b.2")
    assert not half.entry.replayed and half.entry.penalties == (("A", "C-3b.2", 30),)
    assert game.over and game.winner == "B"
    below = DeckGame("A", "B", DeckOptions(game_point=75))
    below.record_half_round({"yellow": 0, "black": 50})
    below_half = below.half_round()
    below_half.penalize("C-3b.2", "yellow", court_at_offence())
    assert below_half.entry.replayed and not below.over


def test_shooting_from_opponents_half_without_touching_removes_the_disc_and_play_continues():
    """Seed 000, rule C-3b, second paragraph: "If player shoots his or her disc from opponent's
    respective half, and live disc is not touched: Penalty 10-Off, that disc is removed from court and
    play continues." """
    _, half = _at_game_point_then("C-3b.2", live_disc_touched=False)
    assert not half.ended and half.penalties[-1].points_off == 10 and half.penalties[-1].remove_shot_disc
    plain = assess("C-3b", "yellow", court_at_offence(), live_disc_touched=False)
    assert not plain.remove_shot_disc  # first paragraph: the opponent's disc goes back to its start


def test_shooting_opponents_disc_without_touching_returns_it_and_keeps_the_turn_order():
    """Seed 000, rule C-3b, first paragraph: "Player shooting opponent's disc; if LIVE disc is not
    touched, PENALTY - 10 Off, and opponent's disc shall be returned to the starting position and play
    continued as before the infraction. [...] the Half-Round is not complete until the 8th disc has
    been shot by the correct player." Yellow, on its second shot (shot 3), plays a black disc
    touching nothing: 10-off, the shot is as if not played, yellow shoots shot 3 again."""
    game = DeckGame("A", "B")
    half = game.half_round()
    empty = Board.of(COURT, [])
    for _ in range(2):
        half.after_shot(empty)
    assert half.next_turn().shot == 3 and half.next_turn().colour == "yellow"
    charge = half.foul_shot("C-3b", empty, live_disc_touched=False)
    assert charge.points_off == 10 and charge.return_shot_disc and not charge.remove_shot_disc
    assert not half.ended
    turn = half.next_turn()
    assert (turn.shot, turn.colour) == (3, "yellow")
    colours = []
    while (turn := half.next_turn()) is not None:
        colours.append(turn.colour)
        half.after_shot(empty)
    assert colours == ["yellow", "black"] * 3  # shots 3 to 8, each by the correct player
    entry = half.finish(empty)
    assert entry.penalties == (("A", "C-3b", 10),) and game.scores == {"A": -10, "B": 0}


def test_shooting_from_opponents_half_without_touching_uses_the_turn():
    """Seed 000, rule C-3b, second paragraph: "that disc is removed from court and play continues":
    the disc was played (and taken off), so the next shooter follows."""
    game = DeckGame("A", "B")
    half = game.half_round()
    charge = half.foul_shot("C-3b.2", Board.of(COURT, []), live_disc_touched=False)
    assert charge.remove_shot_disc and not charge.return_shot_disc
    assert (half.next_turn().shot, half.next_turn().colour) == (2, "black")


def test_game_point_exception_counts_the_half_rounds_earlier_penalties():
    """Seed 000, rule C-13: "[...] the half-round shall be played over, unless game point has been
    reached by opponent." Black, at 70 of 75, has already taken a 5-off (C-14) in this half-round when
    yellow shoots before black's disc comes to rest: the credit of 8 brings black to 73, not to game
    point, so the half-round is played over."""
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 0, "black": 70})
    half = game.half_round()
    half.penalize("C-14", "black")
    half.penalize("C-13", "yellow", court_at_offence())
    assert half.entry.replayed and not game.over
    assert game.scores == {"A": -30, "B": 73}
    # Without the earlier 5-off, 78: game point reached, no replay (the exception applies).
    again = DeckGame("A", "B", DeckOptions(game_point=75))
    again.record_half_round({"yellow": 0, "black": 70})
    again_half = again.half_round()
    again_half.penalize("C-13", "yellow", court_at_offence())
    assert not again_half.entry.replayed and again.over


def test_game_point_exception_counts_earlier_credits_to_the_opponent():
    """An earlier hook shot (C-17) by yellow in the same half-round credited black 8 for a displaced
    disc: 62 + 8 + 8 (the compound penalty's credit) reaches 75, so no replay (C-15)."""
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 0, "black": 62})
    half = game.half_round()
    half.penalize("C-17", "yellow", court_at_offence(), displaced=[4])
    half.penalize("C-15", "yellow", court_at_offence())
    assert not half.entry.replayed and game.over and game.scores["B"] == 78
