"""Strategy on any court: the advisor told the score and the deck's win players on a graded court,
the one line when no shot reaches, and the read table's error against finer reads."""

import hashlib
import json

import numpy as np

from shuffle_sim.court import load_court
from shuffle_sim.playing import play
from shuffle_sim.playing.advisor import advise, unreached_line
from shuffle_sim.playing.player_names import parse_player
from shuffle_sim.playing.search.kr_uct import WinSearch
from shuffle_sim.rules.common import Board
from shuffle_sim.units import FOOT

DRIFTING = load_court("deck-drifting")
#: A fast horse collar table (14 s) with a cross grade of 1 in 300: every path to the far zones
#: leaves the table on the way.
STEEP_TABLE = load_court("horse-collar").with_params(speed="14 s", slope=[1 / 300, 0.0])

#: Five deck boards at the foot (x, y in feet, team): a disc in the 10; one in each of two zones;
#: an empty board; three discs; a guard in front of a disc in the 10.
FIVE_BOARDS = (
    [(0.0, 36.5, "yellow")],
    [(-0.6, 39.5, "yellow"), (0.9, 42.5, "black")],
    [],
    [(0.2, 36.0, "yellow"), (-0.5, 40.0, "black"), (0.8, 39.5, "yellow")],
    [(0.0, 33.0, "yellow"), (0.0, 37.0, "black")],
)


def _board(discs, court=DRIFTING):
    x = np.array([d[0] * FOOT for d in discs])
    y = np.array([d[1] * FOOT for d in discs])
    return Board(court, x, y, tuple(d[2] for d in discs))


def test_told_the_score_the_advisor_ranks_aimed_shots_on_a_graded_court():
    player = parse_player("deck", "expert-ev")
    ctx, advice = advise(
        "deck", _board(FIVE_BOARDS[0]), player, shooter="black", samples=32, score=(70, 60), hammer=True
    )
    assert ctx.court.name == "deck-drifting" and len(advice) > 3
    wins = [a.win for a in advice]
    assert wins == sorted(wins, reverse=True) and all(0.0 <= w <= 1.0 for w in wins)
    # Aimed for the court: the drifting court's draws are not the flat court's, and they make it.
    _, flat_advice = advise("deck", _board(FIVE_BOARDS[0], load_court("deck")), player, shooter="black", samples=1)
    flat = {a.intent.label: a.launch for a in flat_advice}
    draws = [a for a in advice if a.intent.label.startswith("draw to the 8 left")]
    assert draws and draws[0].launch.vx != flat[draws[0].intent.label].vx
    assert max(a.success for a in advice if a.intent.label.startswith("draw")) > 0.5


def test_when_no_shot_reaches_the_advisor_says_so_in_one_line():
    empty = Board(STEEP_TABLE, np.empty(0), np.empty(0), ())
    ctx, advice = advise("horse-collar", empty, parse_player("horse-collar", "expert-ev"), samples=4)
    assert advice == [] and ctx.info["unreached"][0].startswith("draw to the 3")
    line = unreached_line(ctx, advice)
    assert line.startswith("no shot reaches on court 'horse-collar' (slope [0.00333")
    assert "no draw to the 3, draw to the 2" in line and "\n" not in line
    # On a slower table (10 s) graded 1 in 1000 the draws reach and are ranked.
    mild = Board(STEEP_TABLE.with_params(speed="10 s", slope=[0.001, 0.0]), np.empty(0), np.empty(0), ())
    ctx, advice = advise("horse-collar", mild, parse_player("horse-collar", "expert-ev"), samples=4)
    assert any(a.intent.label.startswith("draw to the 3") for a in advice)
    assert not any(label.startswith("draw") for label in ctx.info["unreached"])


def test_win_players_finish_a_short_deck_game_on_the_drifting_court():
    record = play("deck", "expert-win200,expert-plan", seed=3, court="deck-drifting", frames=2)
    game = record.games[0]
    assert game.finished and record.winner in ("A", "B", None) and len(game.frames) >= 2


#: SHA-256 of the JSON rows (``advise --json``'s ``shots``) of the flat case below: on a flat court
#: under Coulomb friction the rollouts run the closed form and no read table, bit for bit.
FLAT_ADVICE_SHA256 = "5a4345910fd8980fce4b286b9bd6ad59f62632c2ea20371ac4eee621acfe2955"


def test_on_a_flat_court_the_advice_told_the_score_is_unchanged_bit_for_bit():
    board = Board(load_court("deck"), np.array([0.0, 0.2]), np.array([11.125, 10.6]), ("yellow", "black"))
    player = parse_player("deck", "expert-ev")
    _, advice = advise("deck", board, player, shooter="yellow", samples=64, score=(60, 62), hammer=True)
    rows = json.dumps([a.to_dict() for a in advice])
    assert hashlib.sha256(rows.encode()).hexdigest() == FLAT_ADVICE_SHA256


def _read_table_errors(boards, samples, density):
    """Per board and candidate of the advisor told the score (black with the hammer at 70-60): the
    win probability over ``samples`` rollouts with the plans read from the court's read table, the
    same rollouts (the same execution errors) with a table ``density`` times as fine, and the
    paired difference's mean and 95 % half-width."""
    player = parse_player("deck", "expert-ev")
    rows = []
    for b, discs in enumerate(boards):
        ctx, advice = advise("deck", _board(discs), player, shooter="black", samples=1, score=(70, 60), hammer=True)
        situation = ctx.info["situation"]
        launches = [a.launch for a in advice for _ in range(samples)]
        ids = np.tile(np.arange(samples, dtype=np.int64), len(advice))
        values = [
            WinSearch().evaluate(ctx, player.skill, situation, launches, ids, d).reshape(len(advice), samples)
            for d in (1, density)
        ]
        for c, a in enumerate(advice):
            diff = values[0][c] - values[1][c]
            half = 1.96 * diff.std(ddof=1) / np.sqrt(samples)
            rows.append((b, a.intent.label, values[0][c].mean(), values[1][c].mean(), diff.mean(), half))
    print(f"{'board':>5s}  {'shot':40s} {'table':>6s} {'finer':>6s} {'diff':>7s} {'(95%)':>6s}")
    for b, label, table, finer, diff, half in rows:
        print(f"{b:5d}  {label[:40]:40s} {table:6.3f} {finer:6.3f} {diff:+7.3f} {half:6.3f}")
    return rows


def test_the_read_table_moves_win_estimates_little_on_one_board():
    rows = _read_table_errors(FIVE_BOARDS[:1], samples=48, density=2)
    assert rows and all(abs(diff) <= 0.05 for *_, diff, _ in rows)


def test_five_boards_within_two_points():
    rows = _read_table_errors(FIVE_BOARDS, samples=1068, density=4)
    assert len({r[0] for r in rows}) == 5
    assert all(abs(diff) + half <= 0.02 for *_, diff, half in rows)
