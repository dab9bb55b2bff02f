"""Deck game and match flow: turns, lead changes, game point, ties, frames, the match, whole games."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.rules.common import Board, RulesError
from shuffle_sim.rules.deck_game import DeckGame, DeckMatch, DeckOptions
from shuffle_sim.rules.deck_penalties import PenaltyAssessment, assess

FT = 0.3048
COURT = load_court("deck")


def x_sign(turn):
    """Which physical half of the court (+x or -x) a shot comes from: the shooter's right at the head is
    +x; at the foot the shooter faces -y, so his left is +x."""
    return +1 if (turn.end, turn.side) in {("head", "right"), ("foot", "left")} else -1


def test_first_half_round_turns():
    turns = DeckGame("A", "B").turns()
    assert len(turns) == 8
    assert [t.colour for t in turns] == ["yellow", "black"] * 4
    assert [t.team for t in turns] == ["A", "B"] * 4
    assert {t.end for t in turns} == {"head"}
    assert turns[0].side == "right" and turns[1].side == "left"  # C-3: yellow from the right at the head
    assert [t.shot for t in turns] == list(range(1, 9))


def test_singles_walk_and_change_lead_every_half_round():
    game = DeckGame("A", "B")
    leads, ends = [], []
    for _ in range(4):
        leads.append(game.turns()[0].colour)
        ends.append(game.turns()[0].end)
        game.record_half_round({"yellow": 0, "black": 0})
    assert leads == ["yellow", "black", "yellow", "black"]  # C-3c
    assert ends == ["head", "foot", "head", "foot"]


def test_doubles_change_lead_after_a_round_and_partners_stay_at_their_ends():
    game = DeckGame("A", "B", DeckOptions(format="doubles"))
    leads, players = [], []
    for _ in range(6):
        turns = game.turns()
        leads.append(turns[0].colour)
        players.append((turns[0].end, turns[0].player))
        game.record_half_round({})
    assert leads == ["yellow", "yellow", "black", "black", "yellow", "yellow"]  # C-3d
    assert players == [("head", 0), ("foot", 1)] * 3


def test_yellow_keeps_to_its_half_of_the_court():
    game = DeckGame("A", "B")
    for _ in range(4):
        for t in game.turns():
            assert x_sign(t) == (+1 if t.colour == "yellow" else -1)
        game.record_half_round({})


def test_game_ends_after_the_half_round_that_reaches_game_point_ahead():
    game = DeckGame("A", "B", DeckOptions(game_point=75))
    game.record_half_round({"yellow": 40, "black": 30})
    game.record_half_round({"yellow": 30, "black": 30})
    assert not game.over  # 70-60
    game.record_half_round({"yellow": 10, "black": 5})
    assert game.over and game.winner == "A" and game.scores == {"A": 80, "B": 65}
    with pytest.raises(RulesError, match="over"):
        game.turns()


def test_side_over_game_point_but_behind_does_not_win():
    game = DeckGame("A", "B", DeckOptions(game_point=50))
    game.record_half_round({"yellow": 45, "black": 60})
    assert game.over and game.winner == "B"


def test_tie_at_game_point_plays_one_more_round_in_singles():
    """D-4: the extension is played in full even if a side goes ahead in its first half."""
    game = DeckGame("A", "B", DeckOptions(game_point=50))
    game.record_half_round({"yellow": 50, "black": 50})
    assert not game.over
    game.record_half_round({"yellow": 10, "black": 0})
    assert not game.over  # 60-50 after one half of the round
    game.record_half_round({"yellow": 0, "black": 7})
    assert game.over and game.winner == "A"


def test_tie_below_game_point_after_extension_still_decides():
    game = DeckGame("A", "B", DeckOptions(game_point=50))
    game.record_half_round({"yellow": 52, "black": 52})
    game.record_half_round({"yellow": -10, "black": -10})
    game.record_half_round({"yellow": -10, "black": 0})
    assert game.over and game.winner == "B" and game.scores == {"A": 32, "B": 42}  # below 50: still wins


def test_tie_again_repeats_the_extension_and_doubles_play_two_rounds():
    game = DeckGame("A", "B", DeckOptions(format="doubles", game_point=50))
    game.record_half_round({"yellow": 50, "black": 50})
    for _ in range(4):
        assert not game.over
        game.record_half_round({"yellow": 7, "black": 7})
    assert not game.over  # still tied after two rounds: again
    for k in range(4):
        assert not game.over
        game.record_half_round({"yellow": 8 if k == 3 else 0, "black": 0})
    assert game.over and game.winner == "A"


def test_fixed_frame_game_and_colour_switch_at_half():
    """C-1: one 24-frame game, sides switching colours at half way; tied after 24 frames: D-4."""
    game = DeckGame("A", "B", DeckOptions(frames=24, switch_colours_at_half=True))
    for k in range(24):
        assert game.side_of("yellow") == ("A" if k < 12 else "B")
        game.record_half_round({"yellow": 8, "black": 7})
    assert game.scores == {"A": 12 * 8 + 12 * 7, "B": 12 * 7 + 12 * 8}
    assert not game.over  # tied after the last frame: one more full round
    game.record_half_round({"yellow": 10, "black": 0})
    assert not game.over
    game.record_half_round({"yellow": 0, "black": 0})
    assert game.over and game.winner == "B" and game.completed == 26


@pytest.mark.parametrize("frames", [24, 36])
def test_24_and_36_frame_games_switch_colours_at_half_way_by_default(frames):
    """Seed 000, C-1: "One single 24 or 36 frame game with teams switching colors at the half way point." """
    game = DeckGame("A", "B", DeckOptions(frames=frames))
    for k in range(frames):
        assert game.side_of("yellow") == ("A" if k < frames // 2 else "B")
        game.record_half_round({"yellow": 7, "black": 0})
    assert game.scores == {"A": 7 * frames // 2, "B": 7 * frames // 2}  # each side had yellow half the game
    assert not game.over  # tied after the last frame: D-4
    kept = DeckGame("A", "B", DeckOptions(frames=24, switch_colours_at_half=False))
    for _ in range(24):
        kept.record_half_round({"yellow": 7, "black": 0})
    assert kept.side_of("yellow") == "A" and kept.over and kept.winner == "A"


def test_twelve_and_sixteen_frame_games_keep_their_colours():
    """Seed 000, C-1: only the 24 and 36 frame games switch colours at half way."""
    assert not DeckOptions(frames=12).switches_colours and not DeckOptions(frames=16).switches_colours
    assert DeckOptions(frames=16, switch_colours_at_half=True).switches_colours


@pytest.mark.parametrize("frames", [12, 16])
def test_frames_or_game_point_whichever_comes_first(frames):
    """Seed 000, C-1: "Best two-out-of-three 12 or 16 frame game or 75." """
    options = DeckOptions(frames=frames, game_point=75, frames_or_game_point=True)
    early = DeckGame("A", "B", options)  # 10 a frame for yellow: 80 after 8 frames, before the last frame
    while not early.over:
        early.record_half_round({"yellow": 10, "black": 0})
    assert early.completed == 8 and early.winner == "A"
    late = DeckGame("A", "B", options)  # 3 a frame: the frames run out first
    while not late.over:
        late.record_half_round({"yellow": 3, "black": 1})
    assert late.completed == frames and late.winner == "A" and late.scores["A"] < 75
    with pytest.raises(RulesError, match="frames_or_game_point needs a number of frames"):
        DeckOptions(frames_or_game_point=True)


def test_fixed_frame_game_without_tie_ends_at_its_frame_count():
    game = DeckGame("A", "B", DeckOptions(frames=12))
    for _ in range(12):
        assert not game.over
        game.record_half_round({"yellow": 7, "black": 0})
    assert game.over and game.winner == "A" and game.completed == 12


def test_options_are_checked():
    with pytest.raises(RulesError, match="format"):
        DeckOptions(format="triples")
    with pytest.raises(RulesError, match="game_point"):
        DeckOptions(game_point=0)
    with pytest.raises(RulesError, match="switch_colours_at_half"):
        DeckOptions(frames=13, switch_colours_at_half=True)
    with pytest.raises(RulesError, match="sides"):
        DeckGame("A", "A")
    with pytest.raises(RulesError, match="colour"):
        DeckGame().record_half_round({"red": 3})


# ---- shot by shot: C-20a through the half-round tracker --------------------------------------------

IN_10 = (0.0, 36.5 * FT)
IN_8 = (-0.2, 39.5 * FT)


def test_dead_disc_replay_charges_the_shooter_and_replays():
    game = DeckGame("A", "B")
    half = game.half_round()
    board = Board.of(COURT, [(*IN_10, "yellow"), (*IN_8, "black")])
    half.after_shot(board)
    effect = half.after_shot(board, contacts=[(1, 0, True, False)])  # black's shot, a dead disc hits live
    assert effect.replay and half.ended and half.entry.replayed
    assert half.entry.penalties == (("B", "C-20a", 10),)
    assert game.scores == {"A": 0, "B": -10}
    assert game.completed == 0 and game.turns()[0].colour == "yellow"


def test_dead_disc_on_eighth_shot_scores_only_the_ten_off():
    game = DeckGame("A", "B")
    half = game.half_round()
    board = Board.of(COURT, [(*IN_10, "yellow"), (*IN_8, "black")])
    for _ in range(7):
        half.after_shot(board)
    assert half.next_turn().colour == "black"
    half.after_shot(board, contacts=[(0, 1, False, True)])
    assert half.ended and not half.entry.replayed
    assert half.entry.points == {"A": 0, "B": 0}
    assert game.scores == {"A": 0, "B": -10} and game.completed == 1


def test_half_round_finish_scores_the_board_with_penalties():
    game = DeckGame("A", "B")
    half = game.half_round()
    board = Board.of(COURT, [(*IN_10, "yellow"), (*IN_8, "black")])
    for k in range(8):
        if k == 3:
            half.penalize("C-9", "black")
        half.after_shot(board)
    entry = half.finish(board)
    assert entry.points == {"A": 10, "B": 8} and entry.penalties == (("B", "C-9", 5),)
    assert game.scores == {"A": 10, "B": 3}
    with pytest.raises(RulesError, match="no shot left"):
        half.after_shot(board)


# ---- the match -------------------------------------------------------------------------------------


def finish_game(game, winner):
    colour = game.colour_of(winner)
    game.record_half_round({colour: 75})
    assert game.over and game.winner == winner


def test_match_colours_by_line_number_and_lag_for_game_three():
    match = DeckMatch("low", "high")
    g1 = match.next_game()
    assert g1.side_of("yellow") == "low"  # C-1a
    finish_game(g1, "high")
    match.record_game(g1)
    g2 = match.next_game()
    assert g2.side_of("black") == "low"
    finish_game(g2, "low")
    match.record_game(g2)
    assert match.needs_lag
    with pytest.raises(RulesError, match="lag"):
        match.next_game()
    dead_line = 32 * FT
    winner = match.decide_lag(COURT, yellow_xy=(0.3, dead_line + 0.2), black_xy=(-0.3, dead_line + 0.01))
    assert winner == "high"
    match.record_lag(winner, "black")
    g3 = match.next_game()
    assert g3.side_of("black") == "high"
    finish_game(g3, "high")
    match.record_game(g3)
    assert match.over and match.winner == "high" and len(match.games) == 3


def test_match_over_in_two_games_and_forfeit():
    match = DeckMatch("A", "B")
    for _ in range(2):
        g = match.next_game()
        finish_game(g, "A")
        match.record_game(g)
    assert match.over and match.winner == "A" and not match.needs_lag
    other = DeckMatch("A", "B")
    other.forfeit("A")
    assert other.over and other.winner == "B"


# ---- whole games over many seeds ---------------------------------------------------------------------


def random_points(rng):
    return sum(rng.choice((0, 0, 0, 7, 8, 10, -10)) for _ in range(4))


def play_random_game(seed, options):
    """A game driven by random (seeded) half-round outcomes; the game and the log of the flow."""
    game = DeckGame("A", "B", options)
    return game, drive(game, random.Random(seed))


def drive(game, rng, max_half_rounds=5000):
    """Play ``game`` with random half-round outcomes, penalties and replays; return a log of everything
    the game told the driver."""
    log = []
    for _ in range(max_half_rounds):
        if game.over:
            break
        turns = game.turns()
        log.append(turns)
        roll = rng.random()
        if roll < 0.05:
            shot = rng.randint(1, 8)
            shooter = turns[shot - 1].colour
            charge = assess("C-20a", shooter)
            if shot < 8:
                game.record_half_round(None, [charge], replay=True)
            else:
                game.record_half_round({}, [charge])
        elif roll < 0.09:
            offender = rng.choice(("yellow", "black"))
            charge = PenaltyAssessment(
                rule="C-10",
                offender=offender,
                points_off=10 + 10 * rng.randint(0, 3),
                credit=rng.choice((0, 7, 8, 10, 15, 25)),
                compound=True,
            )
            game.record_half_round(None, [charge])
        else:
            penalties = [
                assess(rng.choice(("C-9", "C-11", "C-14")), rng.choice(("yellow", "black")))
                for _ in range(rng.choice((0, 0, 0, 0, 1, 2)))
            ]
            points = {"yellow": random_points(rng), "black": random_points(rng)}
            if rng.random() < 0.3:  # level the scores, so that ties at game point (D-4) are common
                gap = game.scores[game.side_of("yellow")] - game.scores[game.side_of("black")]
                points["black"] = points["yellow"] + gap
                penalties = []
            game.record_half_round(points, penalties)
        log.append(tuple(game.scoreboard[-1:]))
    return log


def oracle_end(scoreboard, options, sides=("A", "B")):
    """Independent reading of C-1, D-3, D-4: the index of the scoreboard line after which the game ends,
    and the winner."""
    totals = dict.fromkeys(sides, 0)
    completed = 0
    decision_at = None  # half-round count at which a tie extension is decided
    extension = 2 if options.format == "singles" else 4
    for index, line in enumerate(scoreboard):
        for s in sides:
            totals[s] += line.points.get(s, 0) - sum(p for who, _, p in line.penalties if who == s)
        if line.replayed:
            continue
        completed += 1
        a, b = totals[sides[0]], totals[sides[1]]
        if decision_at is not None:
            due = completed == decision_at
        else:
            due = options.frames is not None and completed == options.frames
            if options.frames is None or options.frames_or_game_point:
                due = due or a >= options.game_point or b >= options.game_point
        if due:
            if a != b:
                return index, sides[0] if a > b else sides[1]
            decision_at = completed + extension
    return None, None


game_options = st.sampled_from([None, None, 12, 16, 24, 36]).flatmap(
    lambda frames: st.builds(
        DeckOptions,
        format=st.sampled_from(["singles", "doubles"]),
        game_point=st.sampled_from([50, 75, 100]),
        frames=st.just(frames),
        frames_or_game_point=st.just(False) if frames is None else st.booleans(),
    )
)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=game_options)
def test_whole_games_end_with_the_winner_the_rules_name(seed, options):
    game, _ = play_random_game(seed, options)
    assert game.over, "every game ends"
    board = game.scoreboard
    for side in game.sides:
        assert game.scores[side] == sum(line.total(side) for line in board)
    index, winner = oracle_end(board, options)
    assert index == len(board) - 1, "the game ends exactly when the rules say"
    assert game.winner == winner
    loser = next(s for s in game.sides if s != winner)
    assert game.scores[winner] > game.scores[loser]
    numbers = [line.number for line in board if not line.replayed]
    assert numbers == list(range(len(numbers))), "replays repeat their half-round; completed ones count on"
    assert all(line.number == nxt.number for line, nxt in itertools.pairwise(board) if line.replayed)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=game_options)
def test_same_seed_same_game_flow(seed, options):
    first_game, first_log = play_random_game(seed, options)
    second_game, second_log = play_random_game(seed, options)
    assert first_log == second_log
    assert first_game.scoreboard == second_game.scoreboard and first_game.winner == second_game.winner


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_whole_matches(seed):
    rng = random.Random(seed)
    match = DeckMatch("A", "B", DeckOptions(game_point=rng.choice((50, 75))))
    colours = []
    for _ in range(3):
        if match.over:
            break
        if match.needs_lag:
            match.record_lag(rng.choice(match.sides), rng.choice(("yellow", "black")))
        game = match.next_game()
        colours.append(game.side_of("yellow"))
        drive(game, rng)
        match.record_game(game)
    assert match.over
    assert colours[:2] == ["A", "B"]
    assert match.wins[match.winner] == 2 and len(match.games) in (2, 3)
    assert sum(match.wins.values()) == len(match.games)
