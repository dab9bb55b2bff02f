"""The pymunk reference engine against closed-form results (docs/design.md, 4. Validation, item 1).

Oracles here are written out by hand from first principles (stopping distance v0^2 / (2 mu g), the
impulse of an impact along the line of centres with restitution e, reflection off a wall), so they
check the pymunk set-up independently of the exact kernel. Contact friction is switched off where a
closed form needs it (which also exercises the engine's path for a zero disc friction).

Pymunk's error is first order in its time step, but an impact's share of it depends on how deep
the discs overlap in the step that finds the contact (a fraction of v dt that jumps about as dt
changes). The convergence tests therefore average over that phase: each scene is run with the
shooter moved back by (k + 1/2) / K of one step's travel, k = 0 .. K-1, and the RMS error over
those runs must roughly halve when dt halves.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court, parse_court
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.reference import (
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
    STATUS_REST,
    PymunkCourt,
    simulate_reference,
)
from shuffle_sim.reference.pymunk_engine import RAIL_SEGMENTS

FOOT = 0.3048
DTS = (2e-3, 1e-3, 5e-4, 2.5e-4)
PHASES = 6


# ---- closed-form oracles -------------------------------------------------------------------------


def slide_to_rest(p, v, decel):
    """Rest position of a disc sliding from p with velocity v under Coulomb deceleration."""
    return p + v * np.linalg.norm(v) / (2.0 * decel)


def speed_after(v0, distance, decel):
    return math.sqrt(v0 * v0 - 2.0 * decel * distance)


def travel_to_contact(p, u, centre, contact):
    """Distance along unit direction u from p until the centre is ``contact`` from ``centre``."""
    w = centre - p
    along = u @ w
    return along - math.sqrt(contact * contact - (w @ w - along * along))


def hit_resting_disc(pa, va, pb, r, e, decel):
    """Rest positions after a sliding disc hits an equal resting disc, frictionless contact."""
    speed = np.linalg.norm(va)
    u = va / speed
    s = travel_to_contact(pa, u, pb, 2 * r)
    vc = speed_after(speed, s, decel)
    pc = pa + u * s
    n = (pb - pc) / (2 * r)
    jn = (1 + e) / 2 * vc * (u @ n)  # impulse per unit mass along the line of centres
    return slide_to_rest(pc, vc * u - jn * n, decel), slide_to_rest(pb, jn * n, decel)


def bounce(p, u, speed, s, n, e, decel):
    """Slide s along u, reflect off a frictionless wall with normal n and restitution e, then rest."""
    vc = speed_after(speed, s, decel) * u
    return slide_to_rest(p + u * s, vc - (1 + e) * (vc @ n) * n, decel)


# ---- helpers -------------------------------------------------------------------------------------


def make_scene(court, xs, ys, vxs, vys, omegas=None):
    n = len(xs)
    return Scene(
        court,
        x=np.array(xs, float),
        y=np.array(ys, float),
        vx=np.array(vxs, float),
        vy=np.array(vys, float),
        omega=np.zeros(n) if omegas is None else np.array(omegas, float),
    )


def rms_errors(make):
    """RMS rest-position error over the impact phases, for each dt in DTS."""
    out = []
    for dt in DTS:
        squares = []
        for k in range(PHASES):
            scene, exact = make(dt, (k + 0.5) / PHASES)
            res = simulate_reference(scene, dt, record_events=False)
            assert res.ok
            got = np.column_stack([res.x, res.y])
            squares.append(np.sum((got - np.asarray(exact)) ** 2, axis=1))
        out.append(math.sqrt(float(np.mean(squares))))
    return out


def assert_first_order(errors, finest_bound):
    ratios = [errors[i] / errors[i + 1] for i in range(len(errors) - 1)]
    assert all(1.4 <= q <= 2.8 for q in ratios), (errors, ratios)
    assert 5.0 <= errors[0] / errors[-1] <= 13.0, errors  # three halvings: about 8
    assert errors[-1] <= finest_bound, errors


@pytest.fixture(scope="module")
def deck():
    """The deck court on a slow surface (short runs), frictionless contacts for the closed forms."""
    return load_court("deck").with_params(mu=0.1, disc_friction=0.0, cushion_friction=0.0)


@pytest.fixture(scope="module")
def crokinole():
    return load_court("crokinole").with_params(disc_friction=0.0, peg_friction=0.0)


# ---- a single disc -------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTS)
def test_single_disc_overshoots_by_v0_dt_over_two(deck, dt):
    """Chipmunk moves a body with its velocity from before the step's friction: +v0 dt / 2."""
    v0, heading = 1.3, 0.3
    u = np.array([math.sin(heading), math.cos(heading)])
    scene = make_scene(deck, [-0.3], [2.0], [v0 * u[0]], [v0 * u[1]])
    res = simulate_reference(scene, dt)
    decel = 0.1 * deck.params["gravity"]
    exact = slide_to_rest(np.array([-0.3, 2.0]), v0 * u, decel)
    error = np.array([res.x[0], res.y[0]]) - exact
    assert res.ok and res.status[0] == STATUS_REST and not res.dead[0]
    assert error @ u == pytest.approx(v0 * dt / 2, rel=0.01)  # ahead along the line...
    assert abs(error @ np.array([u[1], -u[0]])) < 1e-12  # ...and never off it
    assert res.vx[0] == 0.0 and res.vy[0] == 0.0
    stop_time = v0 / decel
    assert stop_time <= res.time <= stop_time + 11 * dt  # the rest check runs every 10 steps


def test_spin_decays_at_four_thirds_mu_g_over_r(deck):
    """The gear joint's torque (2/3) mu m g r stops a spinning disc at omega0 / ((4/3) mu g / r)."""
    dt = 5e-4
    omega0 = 12.0
    scene = make_scene(deck, [0.0], [3.0], [0.0], [0.0], [omega0])
    table = PymunkCourt(deck, dt, rest_check_every=1)
    table.add_disc(0.0, 3.0, omega=omega0)
    alpha = (4.0 / 3.0) * 0.1 * deck.params["gravity"] / deck.disc_radius
    assert table.run()
    assert table.time == pytest.approx(omega0 / alpha, abs=1.5 * dt)
    res = table.result()
    assert res.omega[0] == 0.0 and res.x[0] == 0.0 and res.y[0] == 3.0
    assert simulate_reference(scene, dt).status[0] == STATUS_REST


def test_spin_on_a_sliding_disc_does_not_bend_its_path(deck):
    """Basic model: translation and rotation decouple on the floor (docs/design.md, 3. Physics model)."""
    scene = make_scene(deck, [0.0], [2.0], [0.0], [1.5], [-20.0])
    res = simulate_reference(scene, 1e-3)
    assert res.x[0] == 0.0


# ---- impacts: first-order convergence to the closed forms ----------------------------------------


def head_on_maker(deck, offset=0.0, **params):
    court = deck.with_params(**params) if params else deck
    restitution = court.params["disc_restitution"]
    decel = court.params["mu"] * court.params["gravity"]
    r = court.disc_radius

    def make(dt, phase):
        v = 2.0
        pa = np.array([offset, 2.0 - phase * v * dt])
        pb = np.array([0.0, 2.5])
        exact = hit_resting_disc(pa, np.array([0.0, v]), pb, r, restitution, decel)
        return make_scene(court, [pa[0], pb[0]], [pa[1], pb[1]], [0, 0], [v, 0]), exact

    return make


@pytest.mark.parametrize("contact_friction", [0.0, 0.3])
def test_head_on_impact_converges(deck, contact_friction):
    """Head on there is no slip at the contact, so contact friction changes nothing; with it the
    restitution is a product of shape elasticities, without it the disc pair handler sets it."""
    maker = head_on_maker(deck, disc_friction=contact_friction)
    assert_first_order(rms_errors(maker), finest_bound=2.0 * 2.0 * DTS[-1])


def test_oblique_impact_converges(deck):
    assert_first_order(rms_errors(head_on_maker(deck, offset=0.08)), finest_bound=4.0 * 2.0 * DTS[-1])


def test_perfectly_elastic_oblique_impact_splits_at_right_angles(deck):
    """Equal discs, e = 1, no contact friction: the two paths after impact are perpendicular."""
    court = deck.with_params(disc_restitution=1.0)
    r = court.disc_radius
    pa, pb = np.array([0.05, 2.0]), np.array([0.0, 2.5])
    table = PymunkCourt(court, 2.5e-4)
    table.add_disc(*pa, 0.0, 2.0)
    table.add_disc(*pb)
    assert table.run()
    res = table.result()
    # A's contact point is on its straight path where it is 2r from B.
    pc = pa + np.array([0.0, 1.0]) * travel_to_contact(pa, np.array([0.0, 1.0]), pb, 2 * r)
    da = np.array([res.x[0], res.y[0]]) - pc
    db = np.array([res.x[1], res.y[1]]) - pb
    cos_angle = da @ db / (np.linalg.norm(da) * np.linalg.norm(db))
    assert abs(cos_angle) < 0.01
    assert [ev.kind for ev in res.events] == ["disc"]


def test_inelastic_head_on_impact_moves_on_together(deck):
    """e = 0 cannot be written as a product of shape elasticities: the pair handler sets it."""
    errors = rms_errors(head_on_maker(deck, disc_restitution=0.0))
    assert errors[-1] < 2.0 * 2.0 * DTS[-1]
    assert errors[0] / errors[-1] > 5.0


def cushion_maker(deck, angle):
    r = deck.disc_radius
    decel = deck.params["mu"] * deck.params["gravity"]
    e = deck.cushions[0].restitution
    far_end = 52 * FOOT

    def make(dt, phase):
        v = 1.2
        u = np.array([math.sin(angle), math.cos(angle)])
        p = np.array([0.0, far_end - 0.3]) - u * phase * v * dt
        s = (far_end - r - p[1]) / u[1]
        exact = bounce(p, u, v, s, np.array([0.0, -1.0]), e, decel)
        return make_scene(deck, [p[0]], [p[1]], [v * u[0]], [v * u[1]]), exact[None]

    return make


@pytest.mark.parametrize("angle", [0.0, 0.5])
def test_cushion_rebound_converges(deck, angle):
    assert_first_order(rms_errors(cushion_maker(deck, angle)), finest_bound=2.0 * 1.2 * DTS[-1])


def test_backstop_touch_kills_and_the_disc_rebounds(deck):
    scene, _ = cushion_maker(deck, 0.0)(1e-3, 0.0)
    res = simulate_reference(scene, 1e-3)
    assert res.dead[0] and res.status[0] == STATUS_REST
    assert ("cushion", 0, 0) in [(ev.kind, ev.i, ev.j) for ev in res.events]  # foot backstop is cushions[0]
    assert res.y[0] < 52 * FOOT - deck.disc_radius


def test_touching_a_killing_cushion_kills(deck):
    """The head backstop lies behind no kill line: the touch alone makes the disc dead (C-20)."""
    res = simulate_reference(make_scene(deck, [0.2], [0.5], [0.0], [-1.2]), 1e-3)
    head_backstop = [c.name for c in deck.cushions].index("head backstop")
    assert [(ev.kind, ev.j) for ev in res.events] == [("cushion", head_backstop), ("killed", -1)]
    assert res.dead[0] and res.status[0] == STATUS_REST and res.y[0] > deck.disc_radius


def test_peg_deflection_converges(crokinole):
    peg = crokinole.pegs[0]
    r = crokinole.disc_radius
    decel = crokinole.params["mu"] * crokinole.params["gravity"]
    centre = np.array([peg.x, peg.y])
    out = centre / np.linalg.norm(centre)
    across = np.array([-out[1], out[0]])

    def make(dt, phase):
        v = 0.6
        p = centre + out * (0.1 + phase * v * dt) + 0.012 * across
        s = travel_to_contact(p, -out, centre, r + peg.radius)
        q = p - out * s
        n = (q - centre) / (r + peg.radius)
        exact = bounce(p, -out, v, s, n, peg.restitution, decel)
        return make_scene(crokinole, [p[0]], [p[1]], [-v * out[0]], [-v * out[1]]), exact[None]

    scene, _ = make(1e-3, 0.0)
    events = simulate_reference(scene, 1e-3).events
    assert [(ev.kind, ev.j) for ev in events] == [("peg", 0)]
    assert_first_order(rms_errors(make), finest_bound=3.0 * 0.6 * DTS[-1])


def ring_court(rail_restitution=0.5):
    """A round table with a circular rail and no edge: the rail is the only way to stop leaving."""
    return parse_court(
        {
            "name": "ring",
            "game": "custom",
            "frame": {"origin": "centre", "x": "east", "y": "north"},
            "disc": {"diameter": "2 in", "mass": "0.1 kg"},
            "materials": {"mu": 0.1, "disc_friction": 0.0, "cushion_friction": 0.0},
            "surface": {"circle": {"centre": [0, 0], "radius": "0.5 m"}},
            "cushions": [
                {"name": "rail", "circle": {"centre": [0, 0], "radius": "0.5 m"}, "restitution": rail_restitution}
            ],
        },
        "<ring>",
    )


@pytest.mark.parametrize("heading_deg", [0.0, 37.0, 90.0])
def test_circular_rail_returns_a_radial_shot(heading_deg):
    court = ring_court()
    r = court.disc_radius
    decel = 0.1 * court.params["gravity"]
    out = np.array([math.cos(math.radians(heading_deg)), math.sin(math.radians(heading_deg))])
    v, start = 1.0, 0.2
    exact = bounce(start * out, out, v, 0.5 - r - start, -out, 0.5, decel)
    scene = make_scene(court, [start * out[0]], [start * out[1]], [v * out[0]], [v * out[1]])
    dt = 2.5e-4
    res = simulate_reference(scene, dt)
    # The rail is a ring of segments whose normals are off by up to pi / N: the rebound turns by
    # up to twice that over the way back.
    way_back = np.linalg.norm(exact - (0.5 - r) * out)
    tolerance = 2.0 * v * dt + 2.0 * math.pi / RAIL_SEGMENTS * way_back
    assert np.hypot(res.x[0] - exact[0], res.y[0] - exact[1]) < tolerance
    assert [ev.kind for ev in res.events] == ["cushion"] and not res.dead[0]


# ---- edges, kill lines, holes --------------------------------------------------------------------


def test_disc_falls_into_the_alley_when_its_centre_crosses_the_side(deck):
    dt = 1e-3
    vx, vy = 1.5, 1.0
    scene = make_scene(deck, [0.0], [2.0], [vx], [vy])
    res = simulate_reference(scene, dt)
    side = 3 * FOOT
    assert res.status[0] == STATUS_FALLEN and res.ok
    assert side <= res.x[0] <= side + vx * dt
    assert (res.vx[0], res.vy[0], res.omega[0]) == (0.0, 0.0, 0.0)
    # The crossing point lies on the disc's straight path.
    assert res.y[0] == pytest.approx(2.0 + (res.x[0] - 0.0) * vy / vx, abs=1e-9)
    assert [ev.kind for ev in res.events] == ["fall"] and res.events[0].j == 0  # right alley


def test_a_fallen_disc_leaves_the_court(deck):
    """A later disc passes where the fallen one crossed: nothing is left there to hit."""
    table = PymunkCourt(deck, 1e-3)
    table.add_disc(2.9 * FOOT, 3.0, 0.5, 0.0)
    table.run()
    fallen = table.result()
    table.add_disc(3 * FOOT - 0.1, 1.0, 0.0, 1.6)
    table.run()
    res = table.result()
    assert list(res.status) == [STATUS_FALLEN, STATUS_REST]
    assert res.x[0] == fallen.x[0] and res.y[0] == fallen.y[0]
    assert res.x[1] == 3 * FOOT - 0.1 and [ev.kind for ev in res.events] == ["fall"]


@pytest.mark.parametrize("beyond, dead", [(-0.003, False), (0.003, True)])
def test_kill_line_makes_a_disc_dead_and_it_keeps_moving(deck, beyond, dead):
    """Entirely past the far baseline (centre half a width plus a radius beyond it) is dead."""
    dt = 1e-3
    baseline = deck.line("baseline")
    kill_y = baseline.geom[1] + baseline.width / 2 + deck.disc_radius
    decel = 0.1 * deck.params["gravity"]
    start = kill_y - 1.0
    # Aim so that the rest position, with pymunk's overshoot of v0 dt / 2, lies `beyond` the line.
    v0 = math.sqrt(2 * decel * (1.0 + beyond))
    v0 -= v0 * dt / 2 / (v0 / decel)  # first-order correction of the overshoot
    res = simulate_reference(make_scene(deck, [0.0], [start], [0.0], [v0]), dt)
    assert res.status[0] == STATUS_REST
    assert (res.y[0] > kill_y) == dead
    assert bool(res.dead[0]) == dead
    assert [(ev.kind, ev.i, ev.j) for ev in res.events] == ([("killed", 0, 0)] if dead else [])


def test_slow_disc_over_the_hole_drops_in(crokinole):
    hole = crokinole.holes[0]
    res = simulate_reference(make_scene(crokinole, [0.0], [-0.2], [0.0], [0.75]), 1e-3)
    assert res.status[0] == STATUS_HOLED
    assert (res.x[0], res.y[0], res.vx[0], res.vy[0], res.omega[0]) == (hole.x, hole.y, 0.0, 0.0, 0.0)
    assert [ev.kind for ev in res.events] == ["holed"]
    # It was over the hole and slow enough when it dropped: re-run it to that instant.
    table = PymunkCourt(crokinole, 1e-3)
    table.add_disc(0.0, -0.2, 0.0, 0.75)
    table.run(max_time=res.events[0].time - 1.5e-3)  # all steps before the one that found it
    before = table.result()
    assert before.status[0] == STATUS_MOVING
    speed = math.hypot(before.vx[0], before.vy[0])
    assert speed < hole.capture_speed
    assert math.hypot(before.x[0] + before.vx[0] * 1e-3, before.y[0] + before.vy[0] * 1e-3) <= hole.capture_radius


def test_fast_disc_crosses_the_hole_and_falls_into_the_ditch(crokinole):
    res = simulate_reference(make_scene(crokinole, [0.0], [-0.25], [0.0], [2.7]), 1e-3)
    assert res.status[0] == STATUS_FALLEN
    assert 13 * 0.0254 <= math.hypot(res.x[0], res.y[0]) <= 13 * 0.0254 + 2.7 * 1e-3
    assert [ev.kind for ev in res.events] == ["fall"]


# ---- the table, bounds, options and errors -------------------------------------------------------


def test_half_round_on_a_table_matches_the_closed_form(deck):
    """Shot 2 starts after shot 1 rests and knocks it on: the table keeps discs between runs."""
    dt = 2.5e-4
    decel = 0.1 * deck.params["gravity"]
    r = deck.disc_radius
    table = PymunkCourt(deck, dt)
    assert table.add_disc(0.0, 2.0, 0.0, 1.5) == 0
    assert table.run()
    first = table.result()
    rest1 = np.array([first.x[0], first.y[0]])
    assert table.add_disc(0.0, 1.0, 0.0, 2.5) == 1
    assert table.run()
    res = table.result()
    exact_b, exact_a = hit_resting_disc(np.array([0.0, 1.0]), np.array([0.0, 2.5]), rest1, r, 0.8, decel)
    assert np.hypot(res.x[1] - exact_b[0], res.y[1] - exact_b[1]) < 2.5 * dt * 2
    assert np.hypot(res.x[0] - exact_a[0], res.y[0] - exact_a[1]) < 2.5 * dt * 2
    assert list(res.status) == [STATUS_REST, STATUS_REST] and res.time > first.time
    assert res.steps == round(res.time / dt)


def test_sleeping_and_check_interval_do_not_change_rest_positions(deck):
    court = load_court("deck").with_params(mu=0.1)
    scene = make_scene(
        court, [0.0, 0.05, -0.1, 0.3], [2.0, 2.6, 3.0, 3.2], [0.02, 0, 0, -0.05], [2.5, 0, 0, 0], [3.0, 0, 0, 0]
    )
    a = simulate_reference(scene, 1e-3)
    b = simulate_reference(scene, 1e-3, sleep=False, rest_check_every=1)
    assert np.array_equal(a.x, b.x) and np.array_equal(a.y, b.y)
    assert len([ev for ev in a.events if ev.kind == "disc"]) >= 2  # collisions happened
    again = simulate_reference(scene, 1e-3)
    assert np.array_equal(a.x, again.x) and np.array_equal(a.omega, again.omega)


def test_max_time_ends_a_run_still_moving(deck):
    res = simulate_reference(make_scene(deck, [0.0], [2.0], [0.0], [2.0]), 1e-3, max_time=0.5)
    assert not res.ok and res.status[0] == STATUS_MOVING
    assert res.time == pytest.approx(0.5)


@pytest.mark.parametrize("bad", [0.0, -1e-3, float("nan"), float("inf")])
def test_bad_time_step_is_named(deck, bad):
    with pytest.raises(ValueError, match="dt"):
        PymunkCourt(deck, bad)


def test_bad_disc_value_is_named(deck):
    table = PymunkCourt(deck)
    with pytest.raises(ValueError, match=r"disc 0: vy"):
        table.add_disc(0.0, 1.0, 0.0, float("nan"))


def test_scenes_are_validated(deck):
    scene = make_scene(deck, [0.0, 0.05], [2.0, 2.0], [0.0, 0.0], [1.0, 0.0])
    with pytest.raises(SceneError, match="overlap"):
        simulate_reference(scene)


@settings(max_examples=40, deadline=None)
@given(
    x0=st.floats(-0.8, 0.8),
    heading=st.floats(-1.4, 1.4),
    speed=st.floats(0.3, 2.0),
)
def test_falls_exactly_when_the_straight_path_crosses_a_side(x0, heading, speed):
    """Closed form: the disc slides v^2 / (2 mu g) along its heading; it falls iff that path crosses
    x = +-3 ft. Within one step's travel of the side, either is allowed (pymunk checks per step)."""
    court = load_court("deck").with_params(mu=0.1)
    dt = 1e-3
    decel = 0.1 * court.params["gravity"]
    u = np.array([math.sin(heading), math.cos(heading)])
    rest = np.array([x0, 2.0]) + u * speed * speed / (2 * decel)
    side = 3 * FOOT
    beyond = abs(rest[0]) - side
    assume(abs(beyond) > 2 * speed * dt)
    res = simulate_reference(make_scene(court, [x0], [2.0], [speed * u[0]], [speed * u[1]]), dt)
    if beyond > 0:
        assert res.status[0] == STATUS_FALLEN
        assert side <= abs(res.x[0]) <= side + speed * dt
        # It left on its straight path.
        assert abs((res.x[0] - x0) * u[1] - (res.y[0] - 2.0) * u[0]) < 1e-9
    else:
        assert res.status[0] == STATUS_REST
        assert np.hypot(res.x[0] - rest[0], res.y[0] - rest[1]) == pytest.approx(speed * dt / 2, rel=0.02)
