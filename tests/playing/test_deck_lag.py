"""The simulated lag for the third game's colours (MSA C-2), judged from real kernel shots."""

import math

import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing.deck import judge_lag
from shuffle_sim.playing.deck_engine import deck_setup
from shuffle_sim.playing.players import Launch
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.deck_game import DeckMatch

SETUP = deck_setup(load_court("deck"))
COURT = SETUP.court
DEAD_LINE = COURT.line("dead line").geom[1]
R = COURT.disc_radius


def _black_into(yellow_x: float, offset: float, speed: float):
    """Yellow's lag disc resting on the far dead line at ``yellow_x``; black's lag shot from the left
    half aimed ``offset`` radii left of it and 1.8 radii short (a glancing hit to its left side)."""
    yellow = shoot(COURT, [], [], Launch(0.5, yellow_x, DEAD_LINE, 0.0, 0.0))  # at rest on the line
    sx, sy = SETUP.stance(-1).point(0.5)
    tx, ty = yellow_x - offset * R, DEAD_LINE - 1.8 * R
    angle = math.atan2(ty - sy, tx - sx)
    black = shoot(COURT, [yellow_x], [DEAD_LINE], Launch(0.5, sx, sy, speed * math.cos(angle), speed * math.sin(angle)))
    return yellow, black


@pytest.mark.parametrize("offset, speed, black_falls", [(0.6, 2.0, False), (1.5, 3.0, True)])
def test_black_knocking_yellow_into_the_alley_gives_yellow_the_lag(offset, speed, black_falls):
    """Seed 000, C-2: "If the last black disc shot touches or moves the last yellow disc, the color
    choice goes to the player of yellow." Black's lag disc hits yellow's into the right alley (and,
    at the harder speed, follows into the left one): yellow (side A, the lower line number) wins."""
    first, second = _black_into(0.80, offset, speed)
    assert not first.fallen[0] and second.fallen[0] and bool(second.fallen[1]) == black_falls
    assert any({c.a, c.b} == {0, 1} for c in second.contacts)
    winner, note = judge_lag(DeckMatch("A", "B"), COURT, first, second)
    assert winner == "A" and "black touched yellow" in note and "in the alley" in note


def test_a_yellow_disc_in_the_alley_untouched_loses_the_lag():
    first = shoot(COURT, [], [], Launch(0.5, 0.3, 6.0, 1.5, 3.0))  # off the right side
    assert first.fallen[0]
    sx, sy = SETUP.stance(-1).point(0.5)
    speed = math.sqrt(2.0 * COURT.params["mu"] * COURT.params["gravity"] * (DEAD_LINE - sy))
    second = shoot(COURT, [], [], Launch(0.5, sx, sy, 0.0, speed))
    assert not second.fallen[0]
    winner, _ = judge_lag(DeckMatch("A", "B"), COURT, first, second)
    assert winner == "B"
