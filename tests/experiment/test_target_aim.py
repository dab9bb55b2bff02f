"""A shot aimed at a target (``[shot] target`` without a speed) stops on the target on its cell's court,
under Coulomb friction and under the friction law of speed alike: the launch comes from the court's own
law (``court.friction_law``), not from Coulomb's square root."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim.court.friction_law import decelerations, launch_speed
from shuffle_sim.experiment._chunks import intended_shots
from shuffle_sim.shots import simulate_shots
from shuffle_sim.units import FOOT
from tests.experiment.test_court_speed_axis import experiment as speeds_experiment

TARGET_Y_FT = [35.5, 36.6, 37.9, 43.0]  # the grid of ``test_court_speed_axis``'s experiment
TARGET_X_FT = [-0.3, 0.0]


def _experiment(params: str, axis: str = ""):
    """``test_court_speed_axis``'s experiment (a shot from the foot aimed at a grid of targets in the
    far scoring area, one exact shot a cell) with ``params`` and ``axis``."""
    return speeds_experiment(axis=axis, params=params)


def _rests(experiment):
    """Each cell's intended shot played alone on its cell's court: (the shots, rest x, rest y)."""
    shots = intended_shots(experiment, 0, experiment.n_shots)
    vx, vy = shots.velocities()
    courts = experiment.courts()
    x = np.empty(experiment.n_shots)
    y = np.empty(experiment.n_shots)
    for k, court in enumerate(courts):
        rows = shots.court == k
        batch = simulate_shots(court, shots.start_x[rows], shots.start_y[rows], vx[rows], vy[rows], shots.spin[rows])
        x[rows] = batch.x[:, 0]
        y[rows] = batch.y[:, 0]
    return shots, x, y


def _targets(experiment):
    """The target of each cell, in the grid's order (target_y, target_x)."""
    ty, tx = np.meshgrid(TARGET_Y_FT, TARGET_X_FT, indexing="ij")
    per_court = np.column_stack([tx.ravel(), ty.ravel()]) * FOOT
    return np.tile(per_court, (len(experiment.courts()), 1))


@pytest.mark.parametrize("mu_speed", [0.0, 0.004, -0.0005])
def test_an_aimed_shot_stops_on_its_target_under_the_courts_friction_law(mu_speed):
    experiment = _experiment(f"[params]\nmu_speed = {mu_speed}\n")
    shots, x, y = _rests(experiment)
    targets = _targets(experiment)
    assert np.max(np.hypot(x - targets[:, 0], y - targets[:, 1])) < 1e-6
    court = experiment.courts()[0]
    distance = np.hypot(targets[:, 0] - shots.start_x, targets[:, 1] - shots.start_y)
    c, k = decelerations(court.params)
    if mu_speed == 0.0:  # Coulomb's aim, as it always was: sqrt(2 mu g) times the root of the distance
        assert np.array_equal(shots.speed, math.sqrt(2.0 * c) * np.sqrt(distance))
    else:  # the speed law's own inverse, the same as the players' and the lab's
        assert np.allclose(shots.speed, [launch_speed(d, c, k) for d in distance], rtol=1e-14, atol=0.0)
        coulomb = np.sqrt(2.0 * c * distance)
        assert np.all(shots.speed > coulomb) if k > 0 else np.all(shots.speed < coulomb)


def test_each_court_of_a_court_speed_axis_aims_with_its_own_law():
    experiment = _experiment("[params]\nmu_speed = 0.004\n", axis='court_speed = ["9 s", "14 s"]')
    shots, x, y = _rests(experiment)
    targets = _targets(experiment)
    assert len(experiment.courts()) == 2
    assert np.max(np.hypot(x - targets[:, 0], y - targets[:, 1])) < 1e-6
    slow, fast = (shots.speed[shots.court == k] for k in range(2))
    assert np.all(fast < slow)  # the faster court needs gentler launches to the same targets
