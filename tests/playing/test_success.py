"""Whether a shot did what it means (``players.success``), judged on sampled outcomes, and the
interval and sample count the advisor reports with it."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.playing.crokinole import CrokinoleTactics, PegHide
from shuffle_sim.playing.deck import shooter_context
from shuffle_sim.playing.players import Draw, Open20, ShotContext, TakeOut
from shuffle_sim.playing.players.success import intent_met, samples_for_margin, wilson_interval
from shuffle_sim.rules.common import Board
from shuffle_sim.shots import simulate_shots

DECK = load_court("deck")
CROKINOLE = load_court("crokinole")
FT = 0.3048


def _outcomes(ctx, launches):
    xs, ys, vxs, vys = (np.array([getattr(la, k) for la in launches]) for k in ("x", "y", "vx", "vy"))
    return simulate_shots(ctx.court, xs, ys, vxs, vys, np.zeros(len(launches)), board=ctx.board_scene())


def test_a_take_out_succeeds_when_its_target_stops_scoring():
    """An open yellow disc in the 10: black's take-out aimed full on knocks it out of the 10; aimed a
    metre wide it misses and the disc still scores: success only for the first."""
    ctx = shooter_context(Board(DECK, [0.0], [36.5 * FT], ("yellow",)), "black", "left")
    intent = TakeOut(0, 3.0)
    good = intent.aim(ctx)
    wide = type(good)(good.t, good.x, good.y, good.vx - 0.25, good.vy, 0.0)
    batch = _outcomes(ctx, [good, wide])
    assert batch.value[0, 0] <= 0 and batch.value[1, 0] == 10
    assert intent_met(ctx, intent, batch).tolist() == [True, False]


def test_a_draw_succeeds_only_in_its_zone_clear_of_the_lines():
    ctx = shooter_context(Board(DECK, [], [], ()), "yellow", "right")
    spot = ctx.tactics.setup.spots_for(1)[0]  # the 10
    intent = Draw(*spot)
    exact = intent.aim(ctx)
    short = type(exact)(exact.t, exact.x, exact.y, exact.vx * 0.95, exact.vy * 0.95, 0.0)
    batch = _outcomes(ctx, [exact, short])
    assert batch.value[0, 0] == 10 and batch.value[1, 0] != 10
    assert intent_met(ctx, intent, batch).tolist() == [True, False]


def test_an_open_20_succeeds_when_it_drops():
    tactics = CrokinoleTactics(CROKINOLE)
    ctx = ShotContext(
        CROKINOLE,
        tactics.stance("south"),
        np.empty(0),
        np.empty(0),
        (),
        "light",
        tactics,
        info={"seat": "south", "opponent_shots_left": 1},
    )
    launch = Open20().aim(ctx)
    fast = type(launch)(launch.t, launch.x, launch.y, launch.vx * 1.5, launch.vy * 1.5, 0.0)
    assert intent_met(ctx, Open20(), _outcomes(ctx, [launch, fast])).tolist() == [True, False]


def test_a_peg_hide_succeeds_hidden_from_the_seat_across_the_board():
    """A disc resting just behind a peg on the shooter's side, 22.5 degrees off the line between the
    seats, is hidden from the opponent across the board; the same disc resting in the open, off the
    peg's line, is not (nor is one behind a peg 67.5 degrees off: the far seat sees round it)."""
    tactics = CrokinoleTactics(CROKINOLE)
    ctx = ShotContext(
        CROKINOLE,
        tactics.stance("south"),
        np.empty(0),
        np.empty(0),
        (),
        "light",
        tactics,
        info={"seat": "south", "opponent_shots_left": 1},
    )
    hides = tactics.hide(ctx)
    hide = next(h for h in hides if abs(h.x) < abs(h.y))  # 22.5 degrees off the south-north line
    assert isinstance(hide, PegHide)
    a = math.atan2(hide.y, hide.x)
    rho = math.hypot(hide.x, hide.y)
    open_x, open_y = rho * math.cos(a + 0.4), rho * math.sin(a + 0.4)
    side = next(h for h in hides if abs(h.x) > abs(h.y))
    batch = simulate_shots(
        CROKINOLE, [hide.x, open_x, side.x], [hide.y, open_y, side.y], [0.0] * 3, [1e-9] * 3, [0.0] * 3
    )
    assert intent_met(ctx, hide, batch).tolist() == [True, False, False]


def test_default_samples_bound_the_interval_by_three_points():
    n = samples_for_margin(0.03)
    assert n == 1068
    low, high = wilson_interval(n // 2, n)
    assert high - low <= 0.06 + 1e-9
    assert samples_for_margin(0.03) - 1 < 1.959963984540054**2 / (4 * 0.03**2) <= n


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 5000), data=st.data())
def test_wilson_interval_holds_the_rate_within_zero_and_one(n, data):
    k = data.draw(st.integers(0, n))
    low, high = wilson_interval(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0
    if 0 < k < n:
        assert low < k / n < high


def test_wilson_interval_matches_the_formula_at_a_known_point():
    """Wilson (1927): 8 successes of 10 at 95 %: (0.4902, 0.9433) to four places (a standard table)."""
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


@pytest.mark.parametrize("n", [0, -3])
def test_wilson_interval_without_samples_is_everything(n):
    assert wilson_interval(0, n) == (0.0, 1.0)
