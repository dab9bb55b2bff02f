"""The crokinole skill presets make open 20s at the published rates (55 % and 65 %), by simulation."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from shuffle_sim.calibrate.skill_rate import calibrate_scale, main, make_rate
from shuffle_sim.experiment.spec import load_experiment
from shuffle_sim.noise import EXACT, skill_preset

OPEN20 = Path(__file__).resolve().parents[2] / "experiments" / "crokinole-open20.toml"
SHOTS = 8000  # standard error about 0.55 percentage points


@pytest.fixture(scope="module")
def open20():
    return load_experiment(OPEN20)


@pytest.mark.parametrize("skill, rate", [("average competitive", 0.55), ("top competitive", 0.65)])
def test_presets_make_open_20s_at_the_published_rates(open20, skill, rate):
    made = make_rate(open20, skill_preset("crokinole", skill), SHOTS)
    assert made == pytest.approx(rate, abs=0.025), "recalibrate: see experiments/README.md"


@pytest.mark.courts_own_spin_model
def test_the_presets_are_calibrated_under_the_coupled_model(open20):
    assert open20.court.params["spin_model"] == "coupled"  # the court's default, which the rates above hold for


def test_a_spin_error_moves_the_rate_only_under_the_coupled_model(open20):
    """A twisted disc brakes less and slides farther (coupled); decoupled, spin leaves a lone path alone."""
    decoupled = replace(open20, court=open20.court.with_params(spin_model="decoupled"))
    coupled = replace(open20, court=open20.court.with_params(spin_model="coupled"))
    base = skill_preset("crokinole", "top competitive")
    twisted = replace(base, spin=20.0)  # rad/s: r omega = v / 2.7 at the open 20's launch speed
    assert make_rate(decoupled, twisted, 4000) == pytest.approx(make_rate(decoupled, base, 4000), abs=0.001)
    assert make_rate(coupled, twisted, 4000) - make_rate(coupled, base, 4000) > 0.008


@pytest.mark.parametrize("skill", ["average competitive", "top competitive"])
def test_the_spin_of_a_flick_is_too_small_to_move_the_rate(open20, skill):
    """Why the presets carry no spin error (docs/players/skills.md): a flick spins a disc only through its sideways
    error, the spin's spread at most v / (k r) times the direction's (k = I / (m r^2)), which is far below
    what moves the open-20 rate."""
    base = skill_preset("crokinole", skill)
    params = open20.court.params
    speed = math.sqrt(2 * params["mu"] * params["gravity"] * 0.381)  # stops 12 in + 3 in from the start
    flick = replace(base, spin=base.direction * speed / (params["inertia_ratio"] * open20.court.disc_radius))
    assert 3.0 < flick.spin < 5.0  # rad/s
    assert make_rate(open20, flick, SHOTS) == pytest.approx(make_rate(open20, base, SHOTS), abs=0.0025)


@pytest.mark.courts_own_spin_model
def test_the_check_names_the_spin_model(capsys):
    assert main([str(OPEN20), "--check", "--shots", "200", "--spin-model", "decoupled"]) == 0
    assert "spin model decoupled" in capsys.readouterr().out.splitlines()[0]
    assert main([str(OPEN20), "--check", "--shots", "200"]) == 0
    assert "spin model coupled" in capsys.readouterr().out.splitlines()[0]


def test_rates_order_by_skill(open20):
    rates = [
        make_rate(open20, m, 4000)
        for m in (
            EXACT,
            skill_preset("crokinole", "top competitive"),
            skill_preset("crokinole", "average competitive"),
            skill_preset("crokinole", "novice"),
        )
    ]
    assert rates[0] == 1.0  # the nominal shot is a 20
    assert rates == sorted(rates, reverse=True)


def test_calibration_finds_the_scale_of_a_preset(open20):
    base = skill_preset("crokinole", "top competitive")
    scale, found = calibrate_scale(open20, base.scaled(0.5), 0.65, shots=4000, tolerance=0.005)
    assert found == pytest.approx(0.65, abs=0.005)
    assert scale == pytest.approx(2.0, rel=0.15)  # undoes the halving
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        calibrate_scale(open20, base, 1.0)


def test_calibration_can_vary_the_speed_error_alone(open20):
    from dataclasses import replace

    from shuffle_sim.calibrate.skill_rate import scaled

    base = skill_preset("crokinole", "top competitive")
    start = replace(base, speed=0.1)
    scale, found = calibrate_scale(open20, start, 0.65, shots=4000, tolerance=0.005, vary="speed")
    assert found == pytest.approx(0.65, abs=0.005)
    assert 0.1 * scale == pytest.approx(base.speed, rel=0.1)  # back to the preset's speed error
    assert scaled(start, scale, "speed").direction == base.direction  # the direction is left alone
    with pytest.raises(ValueError, match="vary must be one of"):
        scaled(start, 2.0, "aim")
