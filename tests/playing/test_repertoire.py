"""The crokinole repertoire played noise-free on fixed boards: each shot does what it says."""

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.physics import STATUS_FALLEN, STATUS_HOLED
from shuffle_sim.playing.crokinole import CrokinoleTactics
from shuffle_sim.playing.players import Open20, PlayerError, ShotContext, skills_for
from shuffle_sim.playing.players.intents import hole_overshoot
from shuffle_sim.playing.players.lines import first_contact
from shuffle_sim.playing.players.repertoire import Shot, Strike, strike_line, visibility
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.common import Board, reached_by
from shuffle_sim.units import INCH

COURT = load_court("crokinole")
TACTICS = CrokinoleTactics(COURT)


def polar(r_in, degrees):
    a = math.radians(degrees)
    return r_in * INCH * math.cos(a), r_in * INCH * math.sin(a)


def context(discs, teams, skill=None):
    return ShotContext(
        COURT,
        TACTICS.stance("south"),
        [d[0] for d in discs],
        [d[1] for d in discs],
        teams,
        "A",
        TACTICS,
        info={"seat": "south"},
        skill=skill,
    )


def played(ctx, intent):
    launch = intent.aim(ctx)
    out = shoot(COURT, ctx.board_x, ctx.board_y, launch)
    judged = Board(COURT, out.x, out.y, (*ctx.board_team, "A")).judge()
    return out, judged


def gone(out, judged, i):
    return bool(out.fallen[i] or judged.dead[i])


def test_first_contact_is_the_nearest_obstacle_on_the_ray():
    ox, oy = np.array([0.0, 0.0, 0.5]), np.array([0.2, 0.4, 0.0])
    reach = np.full(3, 0.03)
    slow = np.full(3, np.inf)
    i, s = first_contact(0.0, 0.0, 0.0, 1.0, 10.0, 1.0, ox, oy, reach, slow, np.zeros(3, dtype=np.bool_))
    assert i == 0 and s == pytest.approx(0.17)
    # a slow obstacle (a hole) blocks only a disc crossing it slowly enough
    slow[0] = 0.6
    i, _ = first_contact(0.0, 0.0, 0.0, 1.0, 10.0, 1.0, ox, oy, reach, slow, np.zeros(3, dtype=np.bool_))
    assert i == 1
    i, _ = first_contact(0.0, 0.0, 0.0, 1.0, 0.4, 1.0, ox, oy, reach, slow, np.zeros(3, dtype=np.bool_))
    assert i == 0  # v0^2 = 0.4: it crosses the hole at sqrt(0.4 - 2 * 0.17) < 0.6


def test_strike_takes_out_a_disc_in_clear_view():
    ctx = context([polar(6, 0)], ("B",))
    assert visibility(ctx, 0) == 1.0
    out, judged = played(ctx, Strike(0, 0.1))
    assert gone(out, judged, 0)


def test_strike_line_for_a_top_player_hits_a_clear_disc_nineteen_times_in_twenty():
    top = skills_for("crokinole")["top competitive"]
    for spot in (polar(6, 0), polar(8, -90), polar(10, 180)):
        ctx = context([spot], ("B",), top)
        assert strike_line(ctx, 0)[2] >= 0.95


def test_strike_passes_over_the_hole_at_take_out_speed():
    far = polar(6, 90)  # straight across the board, over the 20 hole
    ctx = context([far], ("B",))
    out, _judged = played(ctx, Strike(0, 0.1))
    assert 0 in reached_by(1, out.contacts) and out.result.status[1] != STATUS_HOLED


def test_open_20_drops_in_with_its_overshoot():
    ctx = context([], ())
    out, _ = played(ctx, Open20())
    assert out.result.status[0] == STATUS_HOLED
    hole = COURT.holes[0]
    extra = hole_overshoot(12 * INCH, hole.capture_radius, hole.capture_speed, ctx.decel)
    assert 0.0 < extra < 12 * INCH
    # the window's ends in speed are equally far on a log scale
    lo = (12 * INCH - hole.capture_radius) / (12 * INCH + extra)
    hi = (12 * INCH - hole.capture_radius + hole.capture_speed**2 / (2 * ctx.decel)) / (12 * INCH + extra)
    assert math.log(lo) == pytest.approx(-math.log(hi))


BOARD = ([polar(6, 90), polar(9, 45)], ("B", "B"))


def test_take_out_and_stick():
    ctx = context(*BOARD)
    out, judged = played(ctx, Shot("stick", 0))
    assert gone(out, judged, 0) and not gone(out, judged, 2) and judged.value[2] >= 5


def test_take_out_and_roll_off_leaves_no_shooter():
    ctx = context(*BOARD)
    out, judged = played(ctx, Shot("roll off", 0))
    assert gone(out, judged, 0) and out.result.status[2] == STATUS_FALLEN


def test_take_out_and_roll_in():
    ctx = context([polar(7, 200)], ("B",))
    out, judged = played(ctx, Shot("roll in", 0))
    assert gone(out, judged, 0) and judged.value[1] >= 15


def test_double_take_out():
    ctx = context(*BOARD)
    out, judged = played(ctx, Shot("double", 0, 1))
    assert gone(out, judged, 0) and gone(out, judged, 1)
    with pytest.raises(PlayerError, match="second must differ"):
        Shot("double", 0, 0).aim(ctx)


def test_carom_reaches_a_disc_hidden_from_the_whole_arc():
    ctx = context([polar(5.5, 67.5), polar(4.6, 51.5), polar(4.6, 83.5)], ("B", "A", "A"))
    assert visibility(ctx, 0) == 0.0
    with pytest.raises(PlayerError, match="no straight line"):
        Strike(0, 0.1).aim(ctx)
    out, _ = played(ctx, Shot("carom", 0))
    assert 0 in reached_by(3, out.contacts)
    assert TACTICS.plan(ctx).kind == "carom"  # the fixed plan finds it too


def test_unknown_goal_is_refused():
    with pytest.raises(PlayerError, match="goal"):
        Shot("bounce", 0).aim(context(*BOARD))
