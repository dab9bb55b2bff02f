"""Execution errors with a floor (``NoiseModel.speed_floor``): the speed error's absolute part beside the
proportional one, in the speed's own slot of the random stream, in every noise kernel (experiments,
the players, the numba deck engine, the lab); a model without a floor draws bit for bit as before."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim import noise
from shuffle_sim.experiment._chunks import executed_shots
from shuffle_sim.experiment.spec import parse_experiment
from shuffle_sim.playing.players.launch import noise_vector, perturb

BASE = """
name = "floor"
court = "deck"
seed = 42
samples = 400
[shot]
start = ["9 in", "7.25 ft"]
direction = -1.2
[grid]
speed = [0.5, 1.5, 4.5]
[noise]
NOISE
"""


def shots(noise_table: str):
    exp = parse_experiment(BASE.replace("NOISE", noise_table), "floor.toml")
    return exp, executed_shots(exp, 0, exp.n_shots)


def test_the_floor_is_one_normal_in_the_speeds_slot_and_the_other_errors_keep_theirs():
    exp, with_floor = shots("speed = 0.02\nspeed_floor = 0.05\ndirection = 0.3")
    _, without = shots("speed = 0.02\ndirection = 0.3")
    z = noise.normals(exp.seed, 0, exp.n_shots, 2, stream=noise.STREAM_EXECUTION)
    v = np.repeat([0.5, 1.5, 4.5], exp.samples)
    np.testing.assert_allclose(with_floor.speed, np.maximum(v + np.hypot(0.02 * v, 0.05) * z[:, 0], 0.0), rtol=1e-13)
    np.testing.assert_array_equal(without.speed, v * (1 + 0.02 * z[:, 0]))  # as before the floor, bit for bit
    np.testing.assert_array_equal(with_floor.direction, without.direction)  # the direction's slot did not move


def test_a_floor_alone_is_drawn_and_a_zero_floor_is_the_old_model():
    exp, floor_only = shots("speed_floor = 0.05")
    v = np.repeat([0.5, 1.5, 4.5], exp.samples)
    spread = [np.std(floor_only.speed[k * 400 : (k + 1) * 400] - v[k * 400]) for k in range(3)]
    assert spread == pytest.approx([0.05] * 3, rel=0.12)  # the same absolute error at every speed
    _, zero = shots("speed = 0.02\nspeed_floor = 0.0")
    _, plain = shots("speed = 0.02")
    np.testing.assert_array_equal(zero.speed, plain.speed)


def test_the_relative_error_grows_at_low_speed():
    model = noise.NoiseModel(speed=0.025, speed_floor=0.04)
    assert model.speed_sd(4.0) / 4.0 == pytest.approx(math.hypot(0.025, 0.01))
    assert model.speed_sd(1.0) / 1.0 == pytest.approx(math.hypot(0.025, 0.04))
    assert model.scaled(2.0).speed_floor == 0.08
    assert not model.is_exact and noise.NoiseModel(speed_floor=0.0).is_exact


def test_the_players_perturb_a_launch_with_the_floor_in_the_same_normal():
    stance = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    vx, vy = 0.3, 1.2
    speed = math.hypot(vx, vy)
    _, ax, ay, _ = perturb(stance, 0.5, vx, vy, 0.0, 1.3, 0.0, 0.0, 0.0, 0.02, 0.0, 0.0, 0.0, 0.05)
    assert math.hypot(ax, ay) == pytest.approx(speed + math.hypot(0.02 * speed, 0.05) * 1.3, rel=1e-12)
    assert perturb(stance, 0.5, vx, vy, 0.0, 1.3, 0.4, 0.0, 0.0, 0.02, 0.01, 0.0, 0.0) == perturb(
        stance, 0.5, vx, vy, 0.0, 1.3, 0.4, 0.0, 0.0, 0.02, 0.01, 0.0, 0.0, 0.0
    )
    assert noise_vector(noise.skill_preset("deck", "average")).tolist()[4] == 0.04


def test_every_preset_has_a_floor_by_the_documented_rule():
    """skills.toml: the floor is the proportional error at the game's softest common launch v_c."""
    v_c = {"deck": 1.63, "horse-collar": 1.93, "ricochet": 1.56, "crokinole": 0.773}
    for game, speed in v_c.items():
        for name, model in noise.skill_presets(game).items():
            assert model.speed_floor == pytest.approx(model.speed * speed, rel=0.03), (game, name)


def test_parse_noise_reads_the_floor_and_refuses_a_bad_one():
    assert noise.parse_noise({"speed": 0.02, "speed_floor": 0.03}, "x").speed_floor == 0.03
    with pytest.raises(noise.NoiseError, match=r"x\.speed_floor: must be a finite non-negative number"):
        noise.parse_noise({"speed_floor": -0.1}, "x")
