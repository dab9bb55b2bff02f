"""Cross-validation: the exact kernel against pymunk as pymunk's time step shrinks
(docs/design.md, 4. Validation, item 2).

The kernel's rest positions are the oracle. For each scene, pymunk runs at dt = 2, 1, 0.5 and
0.25 ms; its RMS rest-position error against the kernel must roughly halve each time dt halves
(first-order convergence) and end small. Unlike the closed-form tests in test_pymunk_engine.py,
these keep contact friction and spin on, so they also check that both engines exchange spin at an
impact the same way (a tangential impulse that stops the slip, capped at mu_c times the normal
impulse).

As there, each scene is run at several impact phases (the shooter moved back by a fraction of one
step's travel) so that the depth at which pymunk finds a contact does not make the error jump about.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.physics import simulate
from shuffle_sim.physics.scene import Scene
from shuffle_sim.reference import STATUS_REST, simulate_reference

FOOT = 0.3048
DTS = (2e-3, 1e-3, 5e-4, 2.5e-4)
PHASES = 6


def make_scene(court, xs, ys, vxs, vys, omegas):
    return Scene(
        court,
        x=np.array(xs, float),
        y=np.array(ys, float),
        vx=np.array(vxs, float),
        vy=np.array(vys, float),
        omega=np.array(omegas, float),
    )


def convergence(make):
    """RMS rest-position error of pymunk against the kernel over the phases, per dt in DTS."""
    out = []
    for dt in DTS:
        squares = []
        for k in range(PHASES):
            scene = make(dt, (k + 0.5) / PHASES)
            exact = simulate(scene)
            ref = simulate_reference(scene, dt, record_events=False)
            assert exact.ok and ref.ok
            assert np.array_equal(exact.status, ref.status)
            assert np.array_equal(exact.dead, ref.dead)
            squares.append((ref.x - exact.x) ** 2 + (ref.y - exact.y) ** 2)
        out.append(math.sqrt(float(np.mean(squares))))
    return out


def assert_first_order(errors, finest_bound):
    ratios = [errors[i] / errors[i + 1] for i in range(len(errors) - 1)]
    assert all(1.4 <= q <= 2.8 for q in ratios), (errors, ratios)
    assert 5.0 <= errors[0] / errors[-1] <= 13.0, errors
    assert errors[-1] <= finest_bound, errors


@pytest.fixture(scope="module")
def deck():
    """The deck court on a slow surface so that runs are short; contact friction as in the file."""
    court = load_court("deck").with_params(mu=0.1, spin_model="decoupled")  # pymunk's model
    assert court.params["disc_friction"] > 0 and court.params["cushion_friction"] > 0
    return court


def test_single_disc_with_spin(deck):
    """The kernel stops the disc exactly; pymunk overshoots by v0 dt / 2 (docs/design.md, 4. Validation)."""
    v0 = math.hypot(0.3, 1.2)

    def make(dt, phase):
        return make_scene(deck, [0.0], [2.0], [0.3], [1.2], [15.0])

    errors = convergence(make)
    assert errors == pytest.approx([v0 * dt / 2 for dt in DTS], rel=0.01)


def impact_maker(court, offset, spin):
    def make(dt, phase):
        v = 2.0
        return make_scene(court, [offset, 0.0], [2.0 - phase * v * dt, 2.5], [0.0, 0.0], [v, 0.0], [spin, 0.0])

    return make


@pytest.mark.parametrize(
    "offset, spin, contact_friction",
    [
        (0.0, 25.0, None),  # head on, but the spin slips at the contact: both discs go sideways
        (0.08, 0.0, None),  # oblique, friction capped by Coulomb's law
        (0.08, 20.0, None),  # oblique with spin reversing the slip
        (0.08, 0.0, 0.5),  # rough discs: the friction impulse stops the slip (not capped)
    ],
)
def test_disc_impacts(deck, offset, spin, contact_friction):
    court = deck if contact_friction is None else deck.with_params(disc_friction=contact_friction)
    errors = convergence(impact_maker(court, offset, spin))
    assert_first_order(errors, finest_bound=4.0 * 2.0 * DTS[-1])


def test_spin_changes_the_outcome_of_an_impact(deck):
    """Guard for the test above: with this spin the kernel's answer differs from the spinless one."""
    plain = simulate(impact_maker(deck, 0.08, 0.0)(1e-3, 0.5))
    spun = simulate(impact_maker(deck, 0.08, 20.0)(1e-3, 0.5))
    assert np.max(np.hypot(plain.x - spun.x, plain.y - spun.y)) > 0.05


@pytest.mark.parametrize("spin", [0.0, 10.0])
def test_backstop_rebound(deck, spin):
    far_end = 52 * FOOT

    def make(dt, phase):
        v, angle = 1.2, 0.5
        u = np.array([math.sin(angle), math.cos(angle)])
        p = np.array([0.0, far_end - 0.3]) - u * phase * v * dt
        return make_scene(deck, [p[0]], [p[1]], [v * u[0]], [v * u[1]], [spin])

    scene = make(1e-3, 0.5)
    assert simulate(scene).dead[0]  # touching the backstop kills (C-20); convergence checks pymunk agrees
    assert_first_order(convergence(make), finest_bound=2.0 * 1.2 * DTS[-1])


@pytest.mark.parametrize("spin", [0.0, 30.0])
def test_peg_deflection(spin):
    court = load_court("crokinole").with_params(spin_model="decoupled")  # pymunk's model
    peg = court.pegs[0]
    centre = np.array([peg.x, peg.y])
    out = centre / np.linalg.norm(centre)
    across = np.array([-out[1], out[0]])

    def make(dt, phase):
        v = 0.6
        p = centre + out * (0.1 + phase * v * dt) + 0.012 * across
        return make_scene(court, [p[0]], [p[1]], [-v * out[0]], [-v * out[1]], [spin])

    result = simulate(make(1e-3, 0.5))
    assert result.status[0] == STATUS_REST and len(result.events.contacts()) == 1
    assert_first_order(convergence(make), finest_bound=2.0 * 0.6 * DTS[-1])


def test_a_cluster_of_four_discs_agrees(deck):
    """Several impacts in a row, spin included: at dt = 0.25 ms pymunk lands within a few mm."""
    scene = make_scene(
        deck, [0.0, 0.05, -0.1, 0.3], [2.0, 2.6, 3.0, 3.2], [0.02, 0, 0, -0.05], [2.5, 0, 0, 0], [3.0, 0, 0, 0]
    )
    exact = simulate(scene)
    assert len(exact.events.contacts()) >= 2
    ref = simulate_reference(scene, 2.5e-4)
    assert np.array_equal(exact.status, ref.status)
    assert np.max(np.hypot(ref.x - exact.x, ref.y - exact.y)) < 5e-3
    kernel_pairs = {(int(a), int(b)) for a, b, k in zip(exact.events.a, exact.events.b, exact.events.kind) if k == 0}
    reference_pairs = {(ev.i, ev.j) for ev in ref.events if ev.kind == "disc"}
    assert kernel_pairs == reference_pairs
