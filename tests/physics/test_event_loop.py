"""Whole scenes through the kernel against closed-form results: impacts, cushions, pegs, holes,
hangers, falls, kill lines, Newton's cradles, grazing and simultaneous contacts, high speeds."""

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.physics import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    FALL,
    HOLED,
    KILLED,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
    STATUS_REST,
    STOP,
    sample_positions,
    simulate,
)
from shuffle_sim.physics.scene import Scene
from shuffle_sim.units import FOOT, INCH

DECK = load_court("deck")
CROKINOLE = load_court("crokinole")
RICOCHET = load_court("ricochet")
TABLE = load_court("horse-collar")


def scene(court, discs):
    """A scene from (x, y, vx, vy, omega) rows."""
    d = np.array(discs, dtype=float).reshape(-1, 5)
    return Scene(court=court, x=d[:, 0], y=d[:, 1], vx=d[:, 2], vy=d[:, 3], omega=d[:, 4])


def decel(court):
    return court.params["mu"] * court.params["gravity"]


def velocities_at(result, t):
    """Each disc's (vx, vy) just after time t, from the trajectory log (the last segment starting <= t)."""
    tr = result.trajectories
    out = np.full((result.scene.n_discs, 2), np.nan)
    for k in np.flatnonzero(tr.t <= t):
        i = tr.disc[k]
        speed0 = math.hypot(*tr.state[k, 2:4])
        if speed0 == 0:
            out[i] = 0.0
            continue
        speed = max(speed0 - tr.decel * (t - tr.t[k]), 0.0)
        out[i] = tr.state[k, 2:4] / speed0 * speed
    return out


def velocities_before(result, t):
    """Each disc's (vx, vy) just before time t (segments starting strictly before t)."""
    tr = result.trajectories
    out = np.full((result.scene.n_discs, 2), np.nan)
    for k in np.flatnonzero(tr.t < t):
        i = tr.disc[k]
        speed0 = math.hypot(*tr.state[k, 2:4])
        speed = max(speed0 - tr.decel * (t - tr.t[k]), 0.0)
        out[i] = tr.state[k, 2:4] / speed0 * speed if speed0 else 0.0
    return out


# ---- disc against disc ------------------------------------------------------------------------------


@pytest.mark.parametrize("e", [0.0, 0.5, 0.8, 1.0])
def test_head_on_impact_and_the_rest_positions_that_follow(e):
    court = DECK.with_params(disc_restitution=e, disc_friction=0.3)
    a = decel(court)
    r = court.disc_radius
    v0, y0, y1 = 1.5, 1.0, 5.0
    result = simulate(scene(court, [(0, y0, 0, v0, 0), (0, y1, 0, 0, 0)]))
    contacts = result.events.contacts()
    assert list(contacts.kind) == [DISC_DISC]
    v = math.sqrt(v0 * v0 - 2 * a * (y1 - 2 * r - y0))
    assert contacts.t[0] == pytest.approx((v0 - v) / a, rel=1e-12)
    v1, v2 = (1 - e) * v / 2, (1 + e) * v / 2
    assert result.y[0] == pytest.approx(y1 - 2 * r + v1 * v1 / (2 * a), rel=1e-9)
    assert result.y[1] == pytest.approx(y1 + v2 * v2 / (2 * a), rel=1e-9)
    assert result.x[0] == result.x[1] == 0.0
    assert list(result.status) == [STATUS_REST, STATUS_REST]
    # A straight, spinless hit exchanges no spin.
    assert np.all(result.omega == 0.0)


def test_elastic_frictionless_oblique_impact_splits_at_right_angles():
    court = DECK.with_params(disc_restitution=1.0, disc_friction=0.0)
    result = simulate(scene(court, [(0, 1.0, 0, 1.6, 0), (0.07, 4.0, 0, 0, 0)]))
    (t_hit,) = result.events.t[result.events.kind == DISC_DISC]
    va, vb = velocities_at(result, t_hit)
    (vin,) = velocities_before(result, t_hit)[:1]
    assert va @ vb == pytest.approx(0.0, abs=1e-12)
    assert va + vb == pytest.approx(vin, abs=1e-12)
    # Each then slides straight: the rest positions lie on those two perpendicular lines.
    tr = result.trajectories
    start = {int(tr.disc[k]): tr.state[k, :2] for k in np.flatnonzero(tr.t == t_hit)}
    da = np.array([result.x[0], result.y[0]]) - start[0]
    db = np.array([result.x[1], result.y[1]]) - start[1]
    assert da @ db == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("n", [3, 5])
def test_newtons_cradle_only_the_last_disc_moves(n):
    court = DECK.with_params(disc_restitution=1.0, disc_friction=0.0)
    r = court.disc_radius
    v = 1.0
    discs = [(0.0, 5.0 + 2 * r * k, 0.0, v if k == 0 else 0.0, 0.0) for k in range(n)]
    result = simulate(scene(court, discs))
    ys = np.array([d[1] for d in discs])
    np.testing.assert_allclose(result.y[:-1], ys[:-1], rtol=0, atol=1e-12)
    assert result.y[-1] == pytest.approx(ys[-1] + v * v / (2 * decel(court)), rel=1e-9)
    # One impulse per pair, all at the start: no event storm.
    hits = result.events.kind == DISC_DISC
    assert hits.sum() == n - 1
    assert np.all(result.events.t[hits] == 0.0)
    assert list(zip(result.events.a[hits], result.events.b[hits])) == [(k, k + 1) for k in range(n - 1)]


def test_newtons_cradle_hit_from_a_distance():
    court = DECK.with_params(disc_restitution=1.0, disc_friction=0.0)
    r = court.disc_radius
    discs = [(0.0, 2.0, 0.0, 1.8, 0.0)] + [(0.0, 6.0 + 2 * r * k, 0.0, 0.0, 0.0) for k in range(3)]
    result = simulate(scene(court, discs))
    np.testing.assert_allclose(result.y[1:3], [6.0, 6.0 + 2 * r], atol=1e-12)
    assert result.y[0] == pytest.approx(6.0 - 2 * r, abs=1e-12)
    assert (result.events.kind == DISC_DISC).sum() == 3


def test_grazing_pass_exactly_tangent_does_not_deflect():
    court = DECK
    r = court.disc_radius
    result = simulate(scene(court, [(0, 1.0, 0, 1.5, 0), (2 * r, 4.0, 0, 0, 0)]))
    assert result.x[0] == pytest.approx(0.0, abs=1e-12)
    assert (result.x[1], result.y[1]) == (2 * r, 4.0)


@pytest.mark.parametrize("inside", [1e-12, 1e-9, 1e-6])
def test_grazing_pass_a_hair_inside_deflects_a_hair(inside):
    court = DECK
    r = court.disc_radius
    result = simulate(scene(court, [(0, 1.0, 0, 1.5, 0), (2 * r - inside, 4.0, 0, 0, 0)]))
    assert np.isfinite(result.x).all() and np.isfinite(result.y).all()
    assert (result.events.kind == DISC_DISC).sum() == 1
    # The contact normal is off square by about sqrt(inside / r), and so is the deflection.
    assert 0 < -result.x[0] < 20 * math.sqrt(inside)
    assert 0 < result.x[1] - (2 * r - inside) < 20 * math.sqrt(inside)
    assert math.hypot(result.x[1] - result.x[0], result.y[1] - result.y[0]) >= 2 * r - 1e-9


def test_simultaneous_impacts_on_two_discs_conserve_momentum():
    court = DECK.with_params(disc_friction=0.0)
    r = court.disc_radius
    d = 1.2 * r  # B and C sit symmetrically, so A touches both at the same instant
    result = simulate(scene(court, [(0, 1.0, 0, 1.6, 0), (-d, 4.0, 0, 0, 0), (d, 4.0, 0, 0, 0)]))
    hits = result.events.t[result.events.kind == DISC_DISC]
    assert len(hits) >= 2
    t_hit = hits[0]
    assert hits[1] == t_hit
    before = velocities_before(result, t_hit)
    after = velocities_at(result, t_hit)
    np.testing.assert_allclose(after.sum(axis=0), before.sum(axis=0), atol=1e-12)
    assert after[1, 0] < 0 < after[2, 0]

    def energy(v):
        return 0.5 * (v**2).sum()

    assert energy(after) <= energy(before) * (1 + 1e-12)
    rest = np.column_stack([result.x, result.y])
    gaps = [np.hypot(*(rest[i] - rest[j])) for i in range(3) for j in range(i + 1, 3)]
    assert min(gaps) >= 2 * r - 1e-9


def test_high_speed_disc_disc_impact_is_not_missed():
    court = DECK
    result = simulate(scene(court, [(0, 0.2, 0, 80.0, 0), (0.05, 12.0, 0, 0, 0)]))
    assert (result.events.kind == DISC_DISC).sum() >= 1
    assert result.y[1] != 12.0


def test_discs_pushed_together_by_friction_move_on_as_one():
    # e = 0 and a slow, slightly cut hit: B leaves along the line of centres, A keeps a small
    # sideways part; their friction pushes them together, so they slide on together, touching, and
    # stop together instead of bouncing ever faster and closer.
    court = DECK.with_params(disc_restitution=0.0, disc_friction=0.0)
    r = court.disc_radius
    result = simulate(scene(court, [(0, 1.0, 0, 0.8, 0), (0.2 * r, 3.0, 0, 0, 0)]))
    assert result.ok and len(result.events) < 10
    assert math.hypot(result.x[1] - result.x[0], result.y[1] - result.y[0]) == pytest.approx(2 * r, abs=1e-9)
    stops = result.events.t[result.events.kind == STOP]
    assert len(stops) == 2 and stops[0] == stops[1]


# ---- cushions, pegs, holes, edges --------------------------------------------------------------------


def test_cushion_reflection_with_restitution():
    court = RICOCHET.with_params(cushion_friction=0.0)
    e = court.cushions[0].restitution  # the back bumper
    result = simulate(scene(court, [(0.0, 1.0, 0.2, 1.5, 0.0)]))
    first = result.events.contacts()
    assert first.kind[0] == DISC_CUSHION and first.b[0] == 0
    t = first.t[0]
    (vin,) = velocities_before(result, t)
    (vout,) = velocities_at(result, t)
    assert vout[0] == pytest.approx(vin[0], rel=1e-12)
    assert vout[1] == pytest.approx(-e * vin[1], rel=1e-12)
    # It touched the bumper: its centre was one radius from the bumper's line.
    tr = result.trajectories
    (k,) = np.flatnonzero((tr.t == t) & (tr.disc == 0))
    assert tr.state[k, 1] == pytest.approx(72 * INCH - court.disc_radius, abs=1e-12)


def test_rough_cushion_turns_a_glancing_hit_into_spin():
    court = RICOCHET.with_params(cushion_friction=0.3)
    result = simulate(scene(court, [(0.0, 1.0, 0.4, 1.5, 0.0)]))
    assert result.events.kind[0] == DISC_CUSHION
    tr = result.trajectories
    (k,) = np.flatnonzero(tr.t == result.events.t[0])
    assert tr.state[k, 4] != 0.0  # the disc leaves the bumper spinning


def test_peg_deflection():
    court = CROKINOLE.with_params(peg_friction=0.0)
    peg = court.pegs[0]
    e = peg.restitution
    # From above, so that peg 7 (straight below peg 0) is not in the way.
    result = simulate(scene(court, [(peg.x - 0.01, 0.25, 0.0, -1.0, 0.0)]))
    first = result.events.contacts()
    assert first.kind[0] == DISC_PEG and first.b[0] == 0
    t = first.t[0]
    (vin,) = velocities_before(result, t)
    (vout,) = velocities_at(result, t)
    tr = result.trajectories
    (k,) = np.flatnonzero(tr.t == t)
    n = tr.state[k, :2] - (peg.x, peg.y)
    assert np.hypot(*n) == pytest.approx(court.disc_radius + peg.radius, abs=1e-12)
    n /= np.hypot(*n)
    expected = vin - (1 + e) * (vin @ n) * n
    np.testing.assert_allclose(vout, expected, atol=1e-12)


def test_hole_capture_when_slow_and_pass_when_fast():
    court = CROKINOLE
    slow = simulate(scene(court, [(0.0, -0.25, 0.0, 0.8, 0.0)]))
    assert slow.status[0] == STATUS_HOLED
    assert (slow.x[0], slow.y[0]) == (0.0, 0.0)
    assert list(slow.events.kind) == [HOLED] and slow.events.b[0] == 0
    assert slow.judging()[0]["value"] == 20
    fast = simulate(scene(court, [(0.0, -0.25, 0.0, 2.0, 0.0)]))
    assert HOLED not in fast.events.kind
    assert fast.status[0] == STATUS_FALLEN  # on into the ditch
    assert fast.judging()[0]["value"] == 0


def test_disc_at_rest_over_a_hole_drops_in():
    result = simulate(scene(CROKINOLE, [(0.005, 0.0, 0.0, 0.0, 0.0)]))
    assert result.status[0] == STATUS_HOLED and result.events.t[0] == 0.0


def table_shot(court, x, y_stop, y0=0.5):
    """A puck launched up the table from (x, y0) to stop with its centre at y_stop."""
    return (x, y0, 0.0, math.sqrt(2 * decel(court) * (y_stop - y0)), 0.0)


def test_table_puck_stops_hanging_over_the_end_for_13():
    court = TABLE
    far = 20 * FOOT + 8 * INCH
    result = simulate(scene(court, [table_shot(court, 0.0, far - court.disc_radius / 2)]))
    assert result.status[0] == STATUS_REST
    assert result.y[0] == pytest.approx(far - court.disc_radius / 2, abs=1e-9)
    rec = result.judging()[0]
    assert (rec["value"], rec["hanger"]) == (13, "end")


def test_table_puck_hanging_at_a_corner_for_26():
    court = TABLE
    far = 20 * FOOT + 8 * INCH
    x = 10 * INCH - court.disc_radius / 2  # already over the side, which alone means nothing
    result = simulate(scene(court, [table_shot(court, x, far - court.disc_radius / 2)]))
    rec = result.judging()[0]
    assert (rec["value"], rec["hanger"]) == (26, "corner")


def test_table_puck_that_goes_too_far_falls():
    court = TABLE
    far = 20 * FOOT + 8 * INCH
    result = simulate(scene(court, [table_shot(court, 0.0, far + 0.5)]))
    assert result.status[0] == STATUS_FALLEN
    assert list(result.events.kind) == [FALL]
    assert result.y[0] == pytest.approx(far, abs=1e-12)  # it left where its centre crossed the end
    rec = result.judging()[0]
    assert rec["value"] == 0 and rec["dead"]


def test_high_speed_does_not_tunnel_through_a_thin_bumper():
    court = RICOCHET
    r = court.disc_radius
    result = simulate(scene(court, [(0.1, 0.3, 0.0, 200.0, 0.0)]))
    kinds = list(result.events.kind)
    assert kinds[0] == DISC_CUSHION and result.events.b[0] == 0
    assert result.status[0] == STATUS_FALLEN and kinds[-1] == FALL  # back out over the front edge
    _, positions = sample_positions(result, 2001)
    assert np.nanmax(positions[:, 0, 1]) <= 72 * INCH - r + 1e-12


def test_high_speed_peg_hit_is_not_missed():
    court = CROKINOLE
    peg = court.pegs[0]
    result = simulate(scene(court, [(peg.x, 0.3, 0.0, -100.0, 0.0)]))
    assert result.events.kind[0] == DISC_PEG


# ---- standing: kill lines and killing cushions (MSA C-20, C-20a, C-21) ------------------------------


def test_disc_past_the_far_baseline_is_dead_but_keeps_sliding():
    court = DECK
    y_stop = 14.8  # past the foot baseline (45.5 ft = 13.87 m), short of the backstop
    v0 = math.sqrt(2 * decel(court) * (y_stop - 1.0))
    result = simulate(scene(court, [(0.0, 1.0, 0.0, v0, 0.0)]))
    assert result.y[0] == pytest.approx(y_stop, rel=1e-9)
    (k,) = np.flatnonzero(result.events.kind == KILLED)
    assert result.events.b[k] == 0  # the first kill line
    # It became dead when it was entirely past the baseline band: centre half a width and a radius beyond.
    kill_y = 45.5 * FOOT + 0.5 * INCH + court.disc_radius
    a = decel(court)
    assert result.events.t[k] == pytest.approx((v0 - math.sqrt(v0 * v0 - 2 * a * (kill_y - 1.0))) / a, rel=1e-12)
    assert result.dead[0] and result.judging()[0]["dead"]


def test_backstop_kills_and_the_rebound_scores_nothing():
    court = DECK
    # To the backstop at 2 m/s; back off it at 0.8 m/s (e = 0.4), to rest in the foot scoring area.
    v0 = math.sqrt(4.0 + 2 * decel(court) * (52 * FOOT - court.disc_radius - 1.0))
    result = simulate(scene(court, [(0.0, 1.0, 0.0, v0, 0.0)]))
    kinds = list(result.events.kind)
    assert kinds.index(KILLED) < kinds.index(DISC_CUSHION)  # dead at the baseline already
    assert result.y[0] < 45.5 * FOOT - 3 * INCH  # back in front of the baseline
    assert result.dead[0]
    rec = result.judging()[0]
    assert rec["dead"] and rec["value"] == 0
    assert rec["zone"] is not None  # the judge alone would have scored it


def test_backstop_kills_a_disc_that_never_passed_a_kill_line():
    court = DECK.for_end("head")  # the kill line is at the head end now, far behind the disc
    v0 = math.sqrt(4.0 + 2 * decel(court) * (52 * FOOT - court.disc_radius - 8.0))
    result = simulate(scene(court, [(0.0, 8.0, 0.0, v0, 0.0)]))
    kinds = list(result.events.kind)
    k = kinds.index(DISC_CUSHION)
    assert kinds[k + 1] == KILLED and result.events.b[k + 1] == -1
    assert not result.events.a_dead[k] and result.dead[0]


def test_dead_disc_touching_a_live_one_is_logged_with_both_standings():
    court = DECK.with_params(cushion_friction=0.0)
    r = court.disc_radius
    aim = np.array([-0.2, 52 * FOOT - r]) - np.array([0.3, 1.0])
    u = aim / np.hypot(*aim)
    v0 = math.sqrt(3.5**2 + 2 * decel(court) * np.hypot(*aim))
    shot = (0.3, 1.0, u[0] * v0, u[1] * v0, 0.0)
    alone = simulate(scene(court, [shot]))
    # Put a live disc on the rebound's path, in front of the baseline.
    times, positions = sample_positions(alone, 4001)
    (t_wall,) = alone.events.t[alone.events.kind == DISC_CUSHION]
    back = positions[times > t_wall, 0]
    target = back[np.flatnonzero(back[:, 1] < 13.4)[0]]
    result = simulate(scene(court, [shot, (target[0], target[1], 0.0, 0.0, 0.0)]))
    hits = np.flatnonzero(result.events.kind == DISC_DISC)
    assert len(hits) >= 1
    k = hits[0]
    assert (result.events.a[k], result.events.b[k]) == (0, 1)
    assert result.events.a_dead[k] and not result.events.b_dead[k]


# ---- the bound, determinism -------------------------------------------------------------------------


def test_a_scene_that_never_ends_stops_at_the_event_bound():
    court = DECK.with_params(mu=0.0, cushion_restitution=1.0)
    result = simulate(scene(court, [(0.0, 5.0, 0.0, 3.0, 0.0)]), max_events=50)
    assert not result.ok
    assert len(result.events) >= 50
    assert result.status[0] == STATUS_MOVING
    assert result.to_json()["discs"][0]["status"] == "moving"


def test_same_scene_same_result_bit_for_bit():
    court = CROKINOLE
    discs = [(0.05, -0.28, -0.1, 1.2, 3.0), (0.0, 0.15, 0, 0, 0), (-0.15, 0.05, 0, 0, 0), (0.12, 0.15, 0, 0, 0)]
    a = simulate(scene(court, discs))
    b = simulate(scene(court, discs))
    for field in ("x", "y", "vx", "vy", "omega", "status", "dead"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    np.testing.assert_array_equal(a.events.t, b.events.t)
    np.testing.assert_array_equal(a.trajectories.log, b.trajectories.log)
