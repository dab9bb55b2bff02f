"""The disc's contact annulus and inertia ratio: court, scene and experiment parameters, validated,
and what they change in the decoupled model (pure spin-down, contact impulses)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from shuffle_sim.court import CourtError, load_court
from shuffle_sim.physics import SPIN_STOP, simulate
from shuffle_sim.physics.face_friction import torque
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.physics.tables.packing import kernel_arrays

DECK = load_court("deck")


def lone_spinner(court, omega):
    return Scene(
        court=court,
        x=np.array([0.0]),
        y=np.array([3.0]),
        vx=np.array([0.0]),
        vy=np.array([0.0]),
        omega=np.array([omega]),
    )


def test_defaults_are_a_uniform_disc_on_its_whole_face():
    assert DECK.params["contact_inner_ratio"] == 0.0
    assert DECK.params["inertia_ratio"] == 0.5
    ka = kernel_arrays(DECK)
    assert (ka.contact_inner_ratio, ka.inertia_ratio) == (0.0, 0.5)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("contact_inner_ratio", 1.0, "must lie in [0, 1) (got 1.0)"),
        ("contact_inner_ratio", -0.1, "must not be negative (got -0.1)"),
        ("inertia_ratio", 0.0, "must lie in (0, 1] (got 0.0)"),
        ("inertia_ratio", 1.5, "must lie in (0, 1] (got 1.5)"),
        ("inertia_ratio", "half", "must be a number (got 'half')"),
    ],
)
def test_bad_values_name_the_field_and_value(key, value, message):
    with pytest.raises(CourtError) as info:
        DECK.with_params(**{key: value})
    assert f"params.{key}: " in str(info.value) and message in str(info.value)


def test_court_file_materials_accept_and_check_them(tmp_path):
    text = DECK.source_path and Path(DECK.source_path).read_text()
    good = text.replace("mu = 0.016", "mu = 0.016\ncontact_inner_ratio = 0.5\ninertia_ratio = 0.45", 1)
    path = tmp_path / "deck-ring.toml"
    path.write_text(good)
    court = load_court(path)
    assert court.params["contact_inner_ratio"] == 0.5 and court.params["inertia_ratio"] == 0.45
    path.write_text(text.replace("mu = 0.016", "mu = 0.016\ninertia_ratio = 2", 1))
    with pytest.raises(CourtError, match=r"materials\.inertia_ratio: .*\(got 2\.0\)"):
        load_court(path)


def test_scene_params_override_them():
    data = {"court": "deck", "params": {"inertia_ratio": 0.4}, "discs": [{"x": 0.0, "y": 3.0, "omega": 2.0}]}
    assert Scene.from_dict(data).court.params["inertia_ratio"] == 0.4
    data["params"] = {"contact_inner_ratio": 1.2}
    with pytest.raises((SceneError, CourtError), match="contact_inner_ratio"):
        Scene.from_dict(data)


@pytest.mark.parametrize(("eta", "k"), [(0.0, 0.5), (0.0, 0.4), (0.5, 0.5), (0.9, 0.65)])
def test_pure_spin_decays_at_the_mean_lever_arm_over_the_inertia(eta, k):
    """Spinning in place the torque is mu m g r T(0) (the mean lever arm over the annulus), so
    omega falls at mu g T(0) / (k r): (4/3) mu g / r for a uniform disc on its whole face."""
    court = DECK.with_params(contact_inner_ratio=eta, inertia_ratio=k)
    omega = 7.0
    result = simulate(lone_spinner(court, omega))
    (t_spin,) = result.events.t[result.events.kind == SPIN_STOP]
    alpha = court.params["mu"] * court.params["gravity"] * torque(0.0, eta) / (k * court.disc_radius)
    assert t_spin == pytest.approx(omega / alpha, rel=1e-12)
    if (eta, k) == (0.0, 0.5):
        assert alpha == pytest.approx(
            4.0 / 3.0 * court.params["mu"] * court.params["gravity"] / court.disc_radius, rel=1e-15
        )


def test_inertia_ratio_sets_the_spin_a_cushion_gives():
    """A disc sliding along a rough cushion leaves it rolling: the contact point stops slipping, with
    the angular momentum about it kept, v - k r omega (per unit mass)."""
    spins = {}
    for k in (0.4, 0.5, 0.65):
        court = DECK.with_params(inertia_ratio=k, cushion_friction=5.0)
        # Straight at the backstop at 45 degrees, from just in front of it.
        y_back = max(c.geom[1] for c in court.cushions if c.kind == "segment") - 0.3
        scene = Scene(
            court=court,
            x=np.array([0.0]),
            y=np.array([y_back]),
            vx=np.array([1.0]),
            vy=np.array([1.0]),
            omega=np.array([0.0]),
        )
        result = simulate(scene)
        first = result.trajectories.state[1]  # right after the bounce
        spins[k] = first[4]
        assert first[2] + court.disc_radius * first[4] == pytest.approx(0.0, abs=1e-12) or first[
            2
        ] - court.disc_radius * first[4] == pytest.approx(0.0, abs=1e-12)
    assert len({round(abs(w), 9) for w in spins.values()}) == 3
    assert not math.isclose(spins[0.4], spins[0.65])
