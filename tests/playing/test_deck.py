"""Every start a simulated deck player can choose is legal (MSA C-3, C-4, C-4a, C-4b), judged by the
judging layer (``rules.deck.start_fault``).

Seed 000, C-4: "Players shall place their four (4) discs within and not touching lines of their
respective half of 10-Off area." C-4a: "Discs must be played from the clear from within the respective
half of 10-Off area. If disc played touches front or back lines, PENALTY: 5-Off." C-4b: "If disc played
touches side line, or triangle, PENALTY: 10-Off".
"""

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing.deck import play_deck_game
from shuffle_sim.playing.deck_engine import deck_setup
from shuffle_sim.playing.player_names import (
    parse_players,
)
from shuffle_sim.playing.players import (
    half_turn,
)
from shuffle_sim.rules.common import RulesError
from shuffle_sim.rules.deck import legal_start_span, start_fault
from shuffle_sim.rules.deck_game import DeckGame

FT = 0.3048
IN = 0.0254
COURT = load_court("deck")
SETUP = deck_setup(COURT)
SIDE_OF_SIGN = {1: "right", -1: "left"}


def _both_ends(x, y, side):
    """The start judged where it is played: at the head as planned, and turned to the foot."""
    px, py = SETUP.pivot
    fx, fy = half_turn(px, py, x, y)
    return start_fault(SETUP.court, x, y, "head", side), start_fault(SETUP.court, fx, fy, "foot", side)


def test_the_innermost_old_start_touched_the_separation_triangle():
    """The fault: a start 4 in off the centre at 7.25 ft overlaps the separation triangle by about 1 in."""
    fault = start_fault(COURT, 4 * IN, 7.25 * FT, "head", "right")
    assert fault is not None and "separation triangle" in fault
    assert start_fault(COURT, 0.4, 7.25 * FT, "head", "right") is None
    assert "not on the right half" in start_fault(COURT, -0.4, 7.25 * FT, "head", "right")
    assert start_fault(COURT, -0.4, 44.75 * FT, "foot", "right") is None  # the right half at the foot is -x
    assert "outside the 10-off area" in start_fault(COURT, 0.4, 9.0 * FT, "head", "right")
    assert "baseline" in start_fault(COURT, 0.4, 6.5 * FT + 3 * IN, "head", "right")
    assert "side of triangle" in start_fault(COURT, 2.7 * FT, 7.25 * FT, "head", "right")


@pytest.mark.parametrize("side", ["right", "left"])
def test_start_faults_name_the_lines_as_the_shooter_sees_them(side):
    """Seed 000, C-3: "Yellow shall always be played from the right side of the head of the court, and
    left side of foot of the court"; C-4a: "If disc played touches front or back lines"; C-4b: "If disc
    played touches side line, or triangle". A shooter on the right half of the 10-off area, at either
    end, touches the side of the triangle on his right and the separation triangle's right side; the
    8 ft line is in front of him and the baseline behind him. At the head the shooter faces +y (his
    right is +x); at the foot he faces -y (his right is -x)."""
    px, py = SETUP.pivot
    sign = 1 if side == "right" else -1
    for end in ("head", "foot"):

        def at(x, y, end=end):
            """A spot on the shooter's half, given as at the head; turned to the foot for a foot shooter."""
            return (sign * x, y) if end == "head" else half_turn(px, py, sign * x, y)

        outer = start_fault(COURT, *at(2.7 * FT, 7.25 * FT), end, side)
        inner = start_fault(COURT, *at(4 * IN, 7.25 * FT), end, side)
        back = start_fault(COURT, *at(0.4, 6.5 * FT + 3 * IN), end, side)
        front = start_fault(COURT, *at(0.4, 8 * FT - 1 * IN), end, side)
        assert f"touching the {side} side of triangle" in outer, (end, outer)
        assert f"touching the separation triangle {side}" in inner, (end, inner)
        assert "baseline (the back line of the 10-off area)" in back, (end, back)
        assert "8 ft line (the front line of the 10-off area)" in front, (end, front)


@pytest.mark.parametrize("sign", [1, -1])
def test_every_point_of_each_stance_is_a_legal_start(sign):
    """A player starts anywhere on its stance (the preferred point, the sampled ones, or where the
    execution noise moves it, clamped to the stance): every point of it must be legal, at both ends."""
    stance = SETUP.stance(sign)
    ts = np.concatenate(
        [np.linspace(0.0, 1.0, 201), [stance.preferred], np.arange(stance.samples) / (stance.samples - 1)]
    )
    for t in ts:
        x, y = stance.point(t)
        assert _both_ends(x, y, SIDE_OF_SIGN[sign]) == (None, None), (sign, t, x, y)
    assert start_fault(SETUP.court, *stance.point(0.0), "head", SIDE_OF_SIGN[-sign]) is not None


def test_the_stance_reaches_as_far_as_the_lines_allow():
    lo, hi = SETUP.stance_lo, SETUP.stance_hi
    clearance = 0.5 * IN
    # Half the clearance further in or out still is legal; a disc's width further is not.
    assert start_fault(SETUP.court, lo - clearance / 2, SETUP.stance_y, "head", "right") is None
    assert start_fault(SETUP.court, hi + clearance / 2, SETUP.stance_y, "head", "right") is None
    assert start_fault(SETUP.court, lo - 2 * clearance, SETUP.stance_y, "head", "right") is not None
    assert start_fault(SETUP.court, hi + 2 * clearance, SETUP.stance_y, "head", "right") is not None
    with pytest.raises(RulesError, match="clearance must be positive"):
        legal_start_span(SETUP.court, SETUP.stance_y, 0.0)
    with pytest.raises(RulesError, match="no legal start"):
        legal_start_span(SETUP.court, SETUP.stance_y, 2 * FT)


class Recording:
    """A player that notes where each of its shots started and from which half."""

    def __init__(self, inner, log):
        self.inner = inner
        self.name = inner.name
        self.log = log

    def play(self, ctx):
        decision, launch = self.inner.play(ctx)
        self.log.append((ctx.info["sign"], ctx.turn.side, launch.x, launch.y))
        return decision, launch


def test_a_whole_game_starts_every_disc_legally():
    log = []
    a, b = parse_players("deck", "novice-ev6,novice-plan")
    game = DeckGame("A", "B")
    play_deck_game(game, {"A": Recording(a, log), "B": Recording(b, log)}, seed=3, max_half_rounds=6)
    assert len(log) >= 40
    for sign, side, x, y in log:
        assert SIDE_OF_SIGN[sign] == side
        assert _both_ends(x, y, side) == (None, None), (side, x, y)
