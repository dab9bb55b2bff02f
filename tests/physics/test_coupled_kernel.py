"""The event kernel under coupled sliding and spinning (Farkas, Bartels, Unger and Wolf, PRL 90,
248302, 2003) against the brute-force face-sum reference: lone discs, impacts, pushed contacts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.physics import SPIN_STOP, STATUS_REST, STOP, simulate
from shuffle_sim.physics.contacts.impulses import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics.scene import Scene

face_friction = pytest.importorskip("shuffle_sim.reference.face_friction")

DECK = load_court("deck").with_params(spin_model="coupled")  # the model under test, whatever the default
G = DECK.params["gravity"]


def scene_of(court, *discs):
    x, y, vx, vy, w = (np.array(c, dtype=float) for c in zip(*discs))
    return Scene(court=court, x=x, y=y, vx=vx, vy=vy, omega=w)


def reference_run(court, speed, omega):
    p = court.params
    return face_friction.slide_spin(
        speed, omega, court.disc_radius, p["mu"], p["gravity"], eta=p["contact_inner_ratio"], inertia=p["inertia_ratio"]
    )


# eps0 from 0.05 to 50, eta 0, 0.5, 0.9, inertia ratios 0.4 to 0.65 (eta = 0.9 needs k > 0.4525).
LONE = [
    (0.0, 0.5, 0.05),
    (0.0, 0.4, 1.0),
    (0.0, 0.65, 50.0),
    (0.5, 0.5, 0.3),
    (0.5, 0.4, 50.0),
    (0.5, 0.65, 0.05),
    (0.9, 0.5, 1.0),
    (0.9, 0.65, 0.05),
    (0.9, 0.6, 50.0),
]


@pytest.mark.parametrize(("eta", "k", "eps0"), LONE)
def test_lone_disc_rests_and_stops_where_the_reference_says(eta, k, eps0):
    court = DECK.with_params(contact_inner_ratio=eta, inertia_ratio=k)
    # The reference at unit speed; by the scale symmetry (v, omega, t) -> (c v, c omega, c t) a launch
    # c times faster stops c times later, c^2 times farther: make that 8 m, on the court.
    unit = reference_run(court, 1.0, -1.0 / (eps0 * court.disc_radius))
    speed = math.sqrt(8.0 / unit.distance)
    omega = -speed / (eps0 * court.disc_radius)
    result = simulate(scene_of(court, (0.0, 1.0, 0.0, speed, omega)))
    ref = face_friction.SlideSpin.__new__(face_friction.SlideSpin)
    object.__setattr__(ref, "distance", unit.distance * speed**2)
    object.__setattr__(ref, "t_stop", unit.t_stop * speed)
    assert result.status[0] == STATUS_REST
    assert result.y[0] - 1.0 == pytest.approx(ref.distance, rel=1e-9)
    assert result.x[0] == 0.0 and result.omega[0] == 0.0
    (t_stop,) = result.events.t[result.events.kind == STOP]
    assert t_stop == pytest.approx(ref.t_stop, rel=1e-9)
    assert not (result.events.kind == SPIN_STOP).any()  # one stop event ends both motions


def test_spin_free_and_pure_spin_keep_the_closed_forms():
    speed, omega = 1.3, 9.0
    result = simulate(scene_of(DECK, (0.0, 1.0, 0.0, speed, 0.0), (0.5, 5.0, 0.0, 0.0, omega)))
    decel = DECK.params["mu"] * G
    assert result.y[0] - 1.0 == pytest.approx(speed**2 / (2 * decel), rel=1e-14)
    spin_stop = result.events.t[result.events.kind == SPIN_STOP]
    assert spin_stop == pytest.approx([omega / (4.0 / 3.0 * decel / DECK.disc_radius)], rel=1e-14)
    assert (result.x[1], result.y[1]) == (0.5, 5.0)


def test_spin_carries_a_disc_farther_than_the_decoupled_model():
    speed = 1.2
    omega = speed / DECK.disc_radius  # eps0 = 1: 27 % farther
    coupled = simulate(scene_of(DECK, (0.0, 1.0, 0.0, speed, omega)))
    decoupled = simulate(scene_of(DECK.with_params(spin_model="decoupled"), (0.0, 1.0, 0.0, speed, omega)))
    ratio = (coupled.y[0] - 1.0) / (decoupled.y[0] - 1.0)
    assert ratio == pytest.approx(1.27479, abs=5e-6)


def test_oblique_impact_with_spin_matches_the_reference():
    """A spinning disc glances off a resting one; each then slides on with the impulse's spin."""
    court = DECK
    r = court.disc_radius
    speed, omega = 1.0, 25.0
    target = (0.03, 3.0)
    result = simulate(scene_of(court, (0.0, 1.0, 0.0, speed, omega), (*target, 0.0, 0.0, 0.0)))
    # Reference: slide to contact (the striker's centre 2r from the target on its line), impulse, then
    # each disc alone.
    dx = target[0]
    s_contact = (target[1] - 1.0) - math.sqrt((2 * r) ** 2 - dx**2)
    run = reference_run(court, speed, omega)
    t_hit, v, w = run.at_distance(s_contact)
    w = math.copysign(w, omega)
    nx, ny = dx / (2 * r), (target[1] - 1.0 - s_contact) / (2 * r)
    p = court.params
    va = disc_disc_impulse(
        0.0, v, w, 0.0, 0.0, 0.0, nx, ny, r, p["disc_restitution"], p["disc_friction"], p["inertia_ratio"]
    )
    starts = [(0.0, 1.0 + s_contact, va[0], va[1], va[2]), (*target, va[3], va[4], va[5])]
    hits = result.events.t[result.events.kind == 0]
    assert len(hits) == 1 and hits[0] == pytest.approx(t_hit, rel=1e-9)
    for i, (x0, y0, vx, vy, wi) in enumerate(starts):
        sp = math.hypot(vx, vy)
        if wi == 0.0:
            reach = sp * sp / (2 * p["mu"] * G)
        else:
            reach = reference_run(court, sp, wi).distance
        assert result.x[i] == pytest.approx(x0 + vx / sp * reach, abs=1e-7)
        assert result.y[i] == pytest.approx(y0 + vy / sp * reach, abs=1e-7)


def test_cushion_bounce_with_spin_matches_the_reference():
    court = DECK.with_params(cushion_friction=0.3)
    r = court.disc_radius
    back = max((c for c in court.cushions if c.kind == "segment"), key=lambda c: c.geom[1])  # far backstop
    y_face = min(back.geom[1], back.geom[3]) - back.thickness / 2
    speed, omega = 0.8, -12.0
    x0, y0 = 0.6, y_face - 1.2
    angle = math.radians(20.0)
    vx, vy = -speed * math.sin(angle), speed * math.cos(angle)
    result = simulate(scene_of(court, (x0, y0, vx, vy, omega)))
    run = reference_run(court, speed, omega)
    s_contact = (y_face - r - y0) / math.cos(angle)
    assert s_contact < run.distance
    t_hit, v, w = run.at_distance(s_contact)
    w = math.copysign(w, omega)
    p = court.params
    vx2, vy2, w2 = fixed_body_impulse(
        -v * math.sin(angle), v * math.cos(angle), w, 0.0, -1.0, r, back.restitution, back.friction, p["inertia_ratio"]
    )
    hits = result.events.t[result.events.kind == 1]
    assert len(hits) == 1 and hits[0] == pytest.approx(t_hit, rel=1e-9)
    sp = math.hypot(vx2, vy2)
    reach = reference_run(court, sp, w2).distance if w2 != 0.0 else sp * sp / (2 * p["mu"] * G)
    x1 = x0 - s_contact * math.sin(angle) + vx2 / sp * reach
    y1 = y_face - r + vy2 / sp * reach
    assert result.status[0] == STATUS_REST
    assert result.x[0] == pytest.approx(x1, abs=1e-7)
    assert result.y[0] == pytest.approx(y1, abs=1e-7)


def test_discs_pushed_together_move_as_one_without_an_event_storm():
    """A spinning disc drives into a resting one with no restitution: the spinning one brakes less,
    so it keeps pushing. They go on as one, sharing velocity and spin, and stop together, touching."""
    court = DECK.with_params(disc_restitution=0.0, disc_friction=0.0)
    r = court.disc_radius
    speed, omega = 1.0, 30.0
    result = simulate(scene_of(court, (0.0, 1.0, 0.0, speed, omega), (0.0, 1.5, 0.0, 0.0, 0.0)))
    assert result.ok and len(result.events) <= 4
    assert (result.status == STATUS_REST).all()
    assert result.y[1] - result.y[0] == pytest.approx(2 * r, abs=1e-9)
    stops = result.events.t[result.events.kind == STOP]
    assert len(stops) == 2 and stops[0] == stops[1]


@pytest.mark.parametrize("model", ["coupled", "decoupled"])
def test_newtons_cradle_passes_the_momentum_down_the_line_in_both_models(model):
    court = DECK.with_params(disc_restitution=1.0, disc_friction=0.0, spin_model=model)
    r = court.disc_radius
    discs = [(0.0, 1.0, 0.0, 1.5, 4.0)] + [(0.0, 2.0 + 2 * r * k, 0.0, 0.0, 0.0) for k in range(4)]
    result = simulate(scene_of(court, *discs))
    assert result.ok
    # The last disc leaves with the striker's speed; the striker keeps its spin and little speed.
    moved = result.y[-1] - discs[-1][1]
    assert moved > 1.0
    assert all(abs(result.y[k] - discs[k][1]) < 1e-6 for k in range(1, 4))


def test_a_touching_coupled_pair_sliding_along_each_other_is_not_met_again_at_rounding_gaps():
    """Found by the physics fuzz (ricochet, coupled, seed 20261201, scene 3705): discs 8 and 14 slid
    along each other at contact, their speeds and directions equal to 1e-9, their centres 1e-17 m
    beyond contact. The search for their return found one every 60 ns from that rounding-level gap,
    and the scene ran into the event bound with 9,944 empty impacts. A touching pair now meets again
    only once parted by more than the touching tolerance, or pushed into an overlap."""
    from shuffle_sim.physics.laws.closed_form.disc_state import place_disc
    from shuffle_sim.physics.laws.closed_form.pair_predict import coupled_predict_pair
    from shuffle_sim.physics.laws.closed_form.slide import N_FLOAT_ROWS, N_INT_ROWS
    from shuffle_sim.physics.tables.court_table import H_DECEL, H_SPIN_DECEL
    from shuffle_sim.physics.tables.packing import court_table, kernel_arrays

    court = load_court("ricochet").with_params(mu=0.05090647725561335, spin_model="coupled")
    table, orbit_tables = court_table(court), kernel_arrays(court).orbit_tables
    st = np.empty((N_FLOAT_ROWS, 2))
    ist = np.empty((N_INT_ROWS, 2), dtype=np.int64)
    # Their states in that scene, at one of the impacts (x, y, vx, vy, omega).
    states = (
        (-0.3399543819207785, 1.7572485449413486, 0.014588633832448484, 8.693938898944218e-11, 0.5519700548515107),
        (-0.318725081726498, 1.8034000001000015, 0.014588633844399788, 5.589148969524625e-11, 0.5519700578114782),
    )
    for i, state in enumerate(states):
        place_disc(table, orbit_tables, st, ist, i, *state)
    contact = 2.0 * court.disc_radius
    t = coupled_predict_pair(orbit_tables, st, ist, 0, 1, 0.0, table[0, H_DECEL], table[0, H_SPIN_DECEL], contact)
    assert t > 1e-3  # inf, or a real return; before: 2.6e-6 s, then every 60 ns
