"""One shot's rulings (``rules.shot_rulings``): the board before a shot plus its result, ruled as the
game drivers rule it: the crokinole hit rule (a 20 dropped by a shot that hit no opponent disc is a
foul, which a board's frame score cannot see), the deck's removals and C-20a, the ricochet scoring half,
horse collar pucks in the gutter."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.physics import STATUS_FALLEN, STATUS_HOLED, STATUS_REST, Scene, simulate
from shuffle_sim.playing.crokinole import shooter_context
from shuffle_sim.playing.players import Open20
from shuffle_sim.rules import Board, RulesError, ShotOutcome, score_board, shot_rulings
from shuffle_sim.rules.common import Contact
from shuffle_sim.rules.rulings import RestState

IN = 0.0254
CROKINOLE = load_court("crokinole")


def open_20(before: Board):
    """A's noise-free open 20 from the south seat on ``before``, run to rest."""
    ctx = shooter_context(before, "A", "south")
    launch = Open20().aim(ctx)
    n = len(before)
    scene = Scene(
        court=CROKINOLE,
        x=np.append(before.x, launch.x),
        y=np.append(before.y, launch.y),
        vx=np.append(np.zeros(n), launch.vx),
        vy=np.append(np.zeros(n), launch.vy),
        omega=np.zeros(n + 1),
    )
    return simulate(scene)


def test_a_20_by_a_shot_that_hit_no_opponent_disc_is_a_foul_the_board_score_cannot_see():
    before = Board.of(CROKINOLE, [(6 * IN, 0.0, "B")])  # in the 10, off the shot's line
    result = open_20(before)
    assert result.status_names[-1] == "holed"
    rulings = shot_rulings(before, result, "A")
    assert (rulings.hit, rulings.foul, rulings.twenties) == (False, "hit no opponent disc", {})
    assert rulings.remove == (1,) and rulings.why[1] == "the shot hit no opponent disc: removed"
    assert rulings.holed == (1,)
    assert score_board("crokinole", rulings.board).scores["A"] == 20  # where the discs rest: a 20 ...
    assert score_board("crokinole", rulings.board_after()).scores == {"B": 10}  # ... the rules: none
    assert "A disc removed: the shot hit no opponent disc: removed" in rulings.sentences()
    assert rulings.to_dict()["removed"][0]["why"] == "the shot hit no opponent disc: removed"


def test_an_open_20_on_an_open_board_is_set_aside_and_counted():
    rulings = shot_rulings(Board.of(CROKINOLE, []), open_20(Board.of(CROKINOLE, [])), "A")
    assert (rulings.hit, rulings.foul, rulings.twenties, rulings.remove) == (None, None, {"A": 1}, (0,))
    assert rulings.why[0] == "in the 20 hole: 20, removed at once"


def _outcome(court, discs, status, dead=None, contacts=(), start_x=None):
    x = np.array([d[0] for d in discs], dtype=float)
    y = np.array([d[1] for d in discs], dtype=float)
    status = np.array(status, dtype=np.int8)
    dead = np.zeros(len(discs), bool) if dead is None else np.array(dead)
    return ShotOutcome(RestState(status), x, y, status == STATUS_FALLEN, dead, list(contacts), start_x)


def test_deck_removals_and_c20a_charge_the_shooter():
    court = load_court("deck")
    foot = court.for_end("foot")
    ten = (0.0, 52 * 0.3048 - 15.5 * 0.3048)  # in the 10 zone at the foot
    short = (0.0, 20.0 * 0.3048)  # short of the far dead line
    before = Board(foot, [ten[0]], [ten[1]], ("black",))
    outcome = _outcome(foot, [ten, short], [STATUS_REST, STATUS_REST])
    rulings = shot_rulings(before, outcome, "yellow", shot_number=3)
    assert rulings.remove == (1,) and rulings.why[1] == "short of the far dead line: dead (C-4b)"
    assert rulings.penalty is None and not rulings.ends_frame
    kept = shot_rulings(before, outcome, "yellow", shot_number=3, short_discs="left in play")
    assert kept.remove == ()
    # the shot disc, dead off the backstop, came back onto the live disc: C-20a, 10-off to the shooter
    rebound = _outcome(foot, [ten, (0.3, ten[1] + 0.5)], [STATUS_REST, STATUS_REST], [False, True],
                       [Contact(1, 0, True, False)])  # fmt: skip
    c20a = shot_rulings(before, rebound, "yellow", shot_number=3)
    assert (c20a.penalty, c20a.penalty_points, c20a.ends_frame, c20a.replay) == ("C-20a", 10, True, True)
    assert c20a.killed == (1,) and "touched the backstop" in c20a.why[1]
    assert c20a.sentences()[-1] == (
        "penalty: C-20a: a dead disc touched a live disc: yellow 10-off; the half-round is played over"
    )
    eighth = shot_rulings(before, rebound, "yellow", shot_number=8)
    assert (eighth.penalty, eighth.replay) == ("C-20a", False)


def test_ricochet_scores_on_the_half_opposite_the_start_and_needs_the_start():
    court = load_court("ricochet")
    y = 0.3
    before = Board(court, [0.2], [y], ("red",))
    outcome = _outcome(court, [(0.2, y), (0.25, 0.4)], [STATUS_REST, STATUS_REST], start_x=-0.3)
    rulings = shot_rulings(before, outcome, "blue")
    assert rulings.half == "right" and rulings.remove == ()
    other = shot_rulings(before, _outcome(court, [(0.2, y), (0.25, 0.4)], [1, 1], start_x=0.3), "blue")
    assert other.half == "left" and other.remove == (0, 1)
    with pytest.raises(RulesError, match="start_x"):
        shot_rulings(before, _outcome(court, [(0.2, y), (0.25, 0.4)], [1, 1]), "blue")


def test_horse_collar_pucks_in_the_gutter_leave_the_table():
    court = load_court("horse-collar")
    _, _, xmax, ymax = court.bounds
    before = Board(court, [0.0], [ymax - 0.2], ("red",))
    outcome = _outcome(court, [(0.0, ymax - 0.2), (xmax + 0.05, 3.0)], [STATUS_REST, STATUS_FALLEN])
    rulings = shot_rulings(before, outcome, "red")
    assert rulings.remove == (1,) and rulings.why[1] == "in the alley: dead"


def test_the_result_must_be_the_board_plus_the_shot_disc():
    before = Board.of(CROKINOLE, [(6 * IN, 0.0, "B")])
    with pytest.raises(RulesError, match="expected the board's 1 discs plus the shot disc"):
        shot_rulings(before, _outcome(CROKINOLE, [(0, 0)], [STATUS_HOLED]), "A")
    with pytest.raises(RulesError, match="shot_number must be at least 1"):
        shot_rulings(before, _outcome(CROKINOLE, [(6 * IN, 0.0), (0, 0)], [1, STATUS_HOLED]), "A", shot_number=0)


def test_a_board_is_judged_once_and_keeps_its_own_centres():
    x = np.array([6 * IN])
    board = Board(CROKINOLE, x, [0.0], ("B",))
    x[0] = 0.0
    assert board.x[0] == 6 * IN
    assert board.judge() is board.judge()
    assert math.isclose(board.judge().value[0], 10)
