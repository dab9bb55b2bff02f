"""Scenes with impacts on courts that are not flat: the kernel against the reference, and a fuzz.

Shots driven into resting discs on a graded and crowned deck court and on a dished, tilted crokinole
board (pegs, the ditch and the hole), in both spin models: every disc rests within 1e-6 m of the
brute-force reference (``reference.surface_motion``), with the same status, and the kernel's contacts
(disc-disc, cushion, peg) are the reference's, in order; so every contact the reference finds is
found.

The fuzz runs ``reference.fuzz`` on the four courts with a slope or a crown (``fuzz_court``: random
scenes of 1 to 16 discs and random materials through the scene batch API, checked for the kernel's
invariants): 12,500 scenes per court and spin model, 100,000 in all, as many as the flat fuzz runs
per spin model, on two numba threads; the first ``SURFACE_FUZZ_RERUN`` of each run again on one
thread and must agree bit for bit (the curved path runs a few per cent of the flat kernel's speed, so
the thread check takes a fifth of the scenes rather than all). ``SHUFFLE_SIM_SURFACE_FUZZ_SCENES``
sets another count.

Not covered: a grade that presses a disc against another that rides a cushion, the first bouncing
off the rider rather than moving on with it (a dome on the ricochet table, ``crown = "-1/64 in"``,
coupled model, seed 20261202, scene 95), makes a sequence of impacts without end that reaches the
event bound (``shuffle_sim.physics``, "Limits").
"""

import math
import os

import numpy as np
import pytest

from shuffle_sim import simulate
from shuffle_sim.court import load_court
from shuffle_sim.physics import DISC_CUSHION, DISC_DISC, DISC_PEG, Scene
from shuffle_sim.physics.scene import SceneError
from shuffle_sim.reference.fuzz import fuzz_court
from shuffle_sim.reference.surface_motion import SurfaceReference

POSITION_TOL = 1e-6
CONTACTS = (DISC_DISC, DISC_CUSHION, DISC_PEG)
SURFACES = {
    "deck": {"slope": [0.001, 0.0005], "crown": "1/32 in"},
    "crokinole": {"crown": "1/16 in", "slope": [0.002, -0.001]},
    "horse-collar": {"crown": "1/32 in", "slope": [0.0005, 0.0]},
    "ricochet": {"slope": [0.0, -0.003], "crown": "1/64 in"},
}
SURFACE_FUZZ_SCENES = int(os.environ.get("SHUFFLE_SIM_SURFACE_FUZZ_SCENES", "12500"))
SURFACE_FUZZ_RERUN = SURFACE_FUZZ_SCENES // 5


def _deck_scene(rng):
    """A shot from the near baseline at one of 1 to 3 discs resting around the far 10."""
    n = int(rng.integers(2, 5))
    xs, ys = [rng.uniform(-0.3, 0.3)], [0.6]
    while len(xs) < n:
        x, y = rng.uniform(-0.5, 0.5), rng.uniform(9.0, 11.5)
        if all(math.hypot(x - a, y - b) > 0.16 for a, b in zip(xs, ys)):
            xs.append(x)
            ys.append(y)
    return xs, ys, rng.uniform(1.6, 2.6), rng.uniform(-0.01, 0.01), rng.uniform(-10.0, 10.0)


def _crokinole_scene(rng):
    """A shot from the outer circle at one of 1 to 3 discs inside the pegs."""
    n = int(rng.integers(2, 5))
    start = rng.uniform(0.0, 2.0 * math.pi)
    xs, ys = [0.28 * math.cos(start)], [0.28 * math.sin(start)]
    while len(xs) < n:
        radius, angle = rng.uniform(0.0, 0.2), rng.uniform(0.0, 2.0 * math.pi)
        x, y = radius * math.cos(angle), radius * math.sin(angle)
        if all(math.hypot(x - a, y - b) > 0.04 for a, b in zip(xs, ys)):
            xs.append(x)
            ys.append(y)
    return xs, ys, rng.uniform(0.8, 1.8), 0.0, rng.uniform(-50.0, 50.0)


def _scenes(court, make, seed: int, count: int):
    """``count`` valid scenes: the first disc aimed at the second (turned by a small angle), half of
    them with spin."""
    rng = np.random.default_rng(seed)
    scenes = []
    while len(scenes) < count:
        xs, ys, speed, turn, w = make(rng)
        w = w if rng.uniform() < 0.5 else 0.0
        dx, dy = xs[1] - xs[0], ys[1] - ys[0]
        length = math.hypot(dx, dy)
        c, s = math.cos(turn), math.sin(turn)
        rest = np.zeros(len(xs) - 1)
        start = (
            np.array(xs),
            np.array(ys),
            np.r_[speed * (c * dx - s * dy) / length, rest],
            np.r_[speed * (s * dx + c * dy) / length, rest],
            np.r_[w, rest],
        )
        try:
            scene = Scene(court, *start)
            scene.validate()
            result = simulate(scene)
        except SceneError:
            continue
        scenes.append((start, result))
    return scenes


@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("model", ["coupled", "decoupled"])
@pytest.mark.parametrize("name", ["deck", "crokinole"])
def test_scenes_with_impacts_rest_where_the_reference_rests(name, model):
    court = load_court(name).with_params(spin_model=model, **SURFACES[name])
    reference = SurfaceReference(court)
    make = _deck_scene if name == "deck" else _crokinole_scene
    contacts = 0
    for start, result in _scenes(court, make, seed=11 + (model == "coupled"), count=6):
        expected = reference.run(*start)
        found = [(k, a, b) for k, a, b in zip(result.events.kind, result.events.a, result.events.b) if k in CONTACTS]
        assert found == [(e.kind, e.a, e.b) for e in expected.contacts()], start
        assert list(result.status) == list(expected.status), start
        assert np.hypot(result.x - expected.x, result.y - expected.y).max() < POSITION_TOL, start
        contacts += len(found)
    assert contacts >= 6  # the scenes do collide


@pytest.mark.slow
@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("spin_model", ["decoupled", "coupled"])
@pytest.mark.parametrize("name", list(SURFACES))
def test_random_scenes_on_curved_courts_keep_the_invariants(name, spin_model, tmp_path):
    court = load_court(name).with_params(**SURFACES[name])
    report = fuzz_court(
        court, SURFACE_FUZZ_SCENES, 20261202, spin_model, failures_dir=tmp_path, rerun=SURFACE_FUZZ_RERUN
    )
    assert report.n_scenes == SURFACE_FUZZ_SCENES
    if report.failures:
        first = report.files[0]
        pytest.fail(f"{report.summary()}\n{first.name}:\n{first.read_text()}")
    assert report.max_events < 10_000
