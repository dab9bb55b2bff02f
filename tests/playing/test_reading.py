"""Players read a court that is not flat: launches solved with the kernel (``players.reading``)."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.physics import Scene, sample_positions, simulate
from shuffle_sim.playing.advisor import advice_context, advise
from shuffle_sim.playing.player_names import (
    parse_player,
)
from shuffle_sim.playing.players import (
    Draw,
    Open20,
    PlayerError,
    TakeOut,
    straight_launch,
)
from shuffle_sim.playing.players.reading import READ_TOLERANCE, surface_court
from shuffle_sim.playing.players.repertoire import Strike
from shuffle_sim.rules.common import Board

DECK, CROKINOLE, HORSE_COLLAR = (load_court(name) for name in ("deck", "crokinole", "horse-collar"))
#: What the aim must land within (m): the solve's tolerance, checked with an independent simulate.
LANDS = 10 * READ_TOLERANCE


@pytest.fixture(scope="module")
def height_map(tmp_path_factory):
    """A height map of breaks up to 0.3 mm over the crokinole board, on a 12 x 12 grid."""
    folder = tmp_path_factory.mktemp("reading")
    xmin, ymin, xmax, ymax = CROKINOLE.bounds
    extent = [[xmin - 0.05, ymin - 0.05], [xmax + 0.05, ymax + 0.05]]
    x, y = np.meshgrid(np.linspace(extent[0][0], extent[1][0], 12), np.linspace(extent[0][1], extent[1][1], 12))
    np.save(folder / "heights.npy", 0.0003 * np.sin(3.0 * y) * np.cos(2.0 * x))
    return {"file": str(folder / "heights.npy"), "extent": extent}


def _empty_context(game, court):
    return advice_context(game, Board(court, np.zeros(0), np.zeros(0), ()))


def _rest(court, launch):
    one = Scene(court, *(np.array([v]) for v in (launch.x, launch.y, launch.vx, launch.vy, launch.omega)))
    result = simulate(one)
    return float(result.x[0]), float(result.y[0])


DRAWS = {
    "deck graded": ("deck", {"slope": [0.001, 0.0]}, (0.1, 12.0)),
    "deck graded and crowned": ("deck", {"slope": [-0.0008, 0.0003], "crown": "1/32 in"}, (-0.2, 11.0)),
    "horse collar crowned": ("horse-collar", {"crown": "1/16 in"}, (0.05, 5.8)),
    "crokinole dished and graded": ("crokinole", {"crown": "1/16 in", "slope": [0.02, -0.01]}, (0.12, 0.1)),
}


@pytest.mark.parametrize("case", list(DRAWS))
def test_a_read_draw_rests_at_its_point(case):
    game, params, (x, y) = DRAWS[case]
    court = load_court(game).with_params(**params)
    ctx = _empty_context(game, court)
    read = Draw(x, y).aim(ctx)
    flat = Draw(x, y).aim(replace(ctx, reads=0.0))
    rx, ry = _rest(surface_court(ctx.court), read)
    assert math.hypot(rx - x, ry - y) < LANDS
    fx, fy = _rest(surface_court(ctx.court), flat)
    assert math.hypot(fx - x, fy - y) > 5 * LANDS, "the surface must drift a flat aim clearly off"


def test_a_read_draw_rests_at_its_point_on_a_mapped_board(height_map):
    court = CROKINOLE.with_params(height_map=height_map)
    ctx = _empty_context("crokinole", court)
    read = Draw(-0.1, 0.15).aim(ctx)
    rx, ry = _rest(surface_court(ctx.court), read)
    assert math.hypot(rx + 0.1, ry - 0.15) < LANDS


def _nearest_pass(court, launch, px, py):
    """The lone path's point nearest (px, py) and its speed there, from 20,000 frames."""
    one = Scene(court, *(np.array([v]) for v in (launch.x, launch.y, launch.vx, launch.vy, launch.omega)))
    times, positions = sample_positions(simulate(one), 20_000)
    gaps = np.hypot(positions[:, 0, 0] - px, positions[:, 0, 1] - py)
    k = int(np.argmin(gaps))
    speed = math.hypot(*(positions[k + 1, 0] - positions[k - 1, 0])) / (times[k + 1] - times[k - 1])
    return float(gaps[k]), speed


def test_a_read_take_out_passes_through_its_target_at_the_meant_speed():
    court = DECK.with_params(slope=[0.001, 0.0], crown="1/32 in")
    board = Board(court, np.array([0.1]), np.array([12.0]), ("black",))
    ctx = advice_context("deck", board, "yellow")
    extra = 0.5
    launch = TakeOut(0, extra).aim(ctx)
    gap, speed = _nearest_pass(surface_court(ctx.court), launch, 0.1, 12.0)
    assert gap < LANDS
    assert speed == pytest.approx(math.sqrt(2.0 * ctx.decel * extra), rel=0.01)


def test_crokinole_strikes_and_open_20s_are_read():
    court = CROKINOLE.with_params(slope=[0.02, 0.01])
    board = Board(court, np.array([0.1]), np.array([0.15]), ("dark",))
    ctx = advice_context("crokinole", board, "light")
    strike = Strike(0, 0.1).aim(ctx)
    gap, _ = _nearest_pass(surface_court(ctx.court), strike, *_strike_point(ctx, strike))
    assert gap < LANDS
    hole = ctx.court.holes[0]
    gap, _ = _nearest_pass(surface_court(ctx.court), Open20().aim(ctx), hole.x, hole.y)
    assert gap < LANDS


def _strike_point(ctx, launch):
    """The point a strike's flat line aims at: its target's distance along the flat launch's line."""
    flat = Strike(0, 0.1).aim(replace(ctx, reads=0.0))
    d = math.hypot(ctx.board_x[0] - flat.x, ctx.board_y[0] - flat.y)
    u = math.hypot(flat.vx, flat.vy)
    return flat.x + d * flat.vx / u, flat.y + d * flat.vy / u


def test_on_a_flat_court_the_aim_is_the_closed_form():
    ctx = _empty_context("deck", DECK)
    launch = Draw(0.1, 12.0).aim(ctx)
    sx, sy, vx, vy = straight_launch(ctx.stance.array, launch.t, 0.1, 12.0, 0.0, ctx.decel)
    assert (launch.x, launch.y, launch.vx, launch.vy) == (sx, sy, vx, vy)
    assert Draw(0.1, 12.0).aim(replace(ctx, reads=0.0)) == launch


def test_a_player_who_reads_part_of_the_drift_aims_between():
    court = DECK.with_params(slope=[0.001, 0.0])
    ctx = _empty_context("deck", court)
    full, none, half = (Draw(0.1, 12.0).aim(replace(ctx, reads=f)) for f in (1.0, 0.0, 0.5))
    assert half.vx == pytest.approx(0.5 * (full.vx + none.vx), abs=1e-15)
    assert none.vx != full.vx


def test_flat_players_parse_and_bad_reads_are_refused():
    player = parse_player("deck", "expert-ev-flat")
    assert player.reads == 0.0 and player.name == "expert-ev-flat" and player.strategy.name == "ev"
    assert parse_player("deck", "expert-ev").reads == 1.0
    with pytest.raises(PlayerError, match="reads must be a number in"):
        replace(player, reads=1.5)


def test_the_advisor_refuses_a_crokinole_score_on_a_court_that_is_not_flat_before_any_shot(monkeypatch):
    import shuffle_sim.playing.advisor as advisor

    def no_shots(*args, **kwargs):
        raise AssertionError("a shot was simulated before the court was checked")

    monkeypatch.setattr(advisor, "simulate_shots", no_shots)
    board = Board(load_court("crokinole").with_params(slope=[0.01, 0.0]), np.zeros(0), np.zeros(0), ())
    with pytest.raises(PlayerError, match=r"advise with a score: court 'crokinole' is not flat \(slope"):
        advise("crokinole", board, parse_player("crokinole", "top-competitive-ev"), score=(1, 1))


def _success(court, who: str, label: str = "draw to the 10") -> float:
    board = Board(court.for_end("foot"), np.zeros(0), np.zeros(0), ())
    _, advice = advise("deck", board, parse_player("deck", who), samples=200)
    return next(a.success for a in advice if a.intent.label == label)


def test_the_advisor_reads_a_cross_grade_and_a_flat_aim_misses():
    """A 1-in-1000 cross grade on the fast deck court: the read draw to the 10 succeeds about as often
    as on the flat court; aimed as if flat, it drifts out of the 10 (about 25 cm)."""
    graded = DECK.with_params(slope=[0.001, 0.0])
    on_flat = _success(DECK, "expert-ev")
    assert abs(_success(graded, "expert-ev") - on_flat) < 0.08
    assert _success(graded, "expert-ev-flat") < on_flat - 0.4


def test_a_draw_planned_toward_the_head_end_rests_at_its_point_on_the_real_court():
    """Deck players plan in the frame turned toward the foot; the surface turns with the board."""
    from shuffle_sim.playing.deck import _to_court
    from shuffle_sim.playing.deck_engine import deck_setup

    court = DECK.with_params(slope=[0.001, 0.0004])
    ctx = advice_context("deck", Board(court.for_end("head"), np.zeros(0), np.zeros(0), ()))
    real = _to_court(deck_setup(court), True, Draw(0.1, 12.0).aim(ctx))
    px, py = DECK.ends["head"]
    rx, ry = _rest(surface_court(court), real)
    assert math.hypot(rx - (2.0 * px - 0.1), ry - (2.0 * py - 12.0)) < LANDS


def test_the_turned_surface_is_the_real_surface_seen_from_the_other_end(tmp_path):
    from shuffle_sim.playing._deck_setup import half_turned_surface

    xmin, ymin, xmax, ymax = DECK.bounds
    extent = [[xmin - 0.1, ymin - 0.1], [xmax + 0.1, ymax + 0.1]]
    x, y = np.meshgrid(np.linspace(xmin - 0.1, xmax + 0.1, 7), np.linspace(ymin - 0.1, ymax + 0.1, 30))
    np.save(tmp_path / "h.npy", 0.0003 * np.sin(y) * np.cos(3.0 * x) + 0.0001 * x)
    court = DECK.with_params(
        slope=[0.001, -0.0004], crown="1/32 in", height_map={"file": str(tmp_path / "h.npy"), "extent": extent}
    )
    px, py = DECK.ends["head"]
    turned = half_turned_surface(court.surface_shape, (px, py))
    qx, qy = np.array([0.3, -0.5, 0.0]), np.array([3.0, 8.0, 14.0])
    _, hx, hy = court.surface_shape.heights(qx, qy)
    _, thx, thy = turned.heights(2.0 * px - qx, 2.0 * py - qy)
    np.testing.assert_allclose(thx, -hx, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(thy, -hy, rtol=1e-9, atol=1e-12)


def test_advise_on_a_graded_court_from_the_command_line(tmp_path, capsys):
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"court": "deck-drifting", "discs": [{"x": 0.1, "y": 12.2, "team": "black"}]}))
    assert main(["advise", "deck", str(board), "--samples", "40", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    shots = report["shots"]
    assert shots and all(0.0 <= s["success"] <= 1.0 for s in shots) and report["unreached"] is None
    # Told the score, the shots are ranked by the chance to win, rolled out on the graded court.
    assert main(["advise", "deck", str(board), "--samples", "40", "--score", "10-20"]) == 0
    out = capsys.readouterr().out
    assert "by win probability" in out and "not ranked" not in out
