"""The friction law of speed, mu(v) = mu + mu_speed v: the kernel against a closed form and the reference.

Without spin on a flat court a slide under c + k v (c = g mu, k = g mu_speed) stops after
s = v0 / k - (c / k^2) ln(1 + k v0 / c) in t = ln(1 + k v0 / c) / k: the kernel's rest and stop time
within 1e-7 of that, written out here on its own. With spin, on grades and with impacts, the kernel
against the brute-force reference (``reference.surface_motion``: scipy's DOP853 in the time, the speed
term's force and torque summed element by element over the face, ``reference.face_friction``).
A Coulomb court (``mu_speed = 0``) keeps the closed-form law and its tables, bit for bit.
"""

import json
import math
import subprocess
import sys
import tomllib
from decimal import Decimal, localcontext
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import simulate, simulate_shots
from shuffle_sim.court import CourtError, load_court, parse_court
from shuffle_sim.court.friction_law import SERIES_BELOW, launch_speed, stop_distance, stop_time
from shuffle_sim.physics import STATUS_REST, Scene
from shuffle_sim.physics.numba_api import CLOSED_FORM, INTEGRATED, court_law, court_motion, court_surface
from shuffle_sim.physics.scene import SceneError
from shuffle_sim.reference.surface_motion import SurfaceReference

POSITION_TOL = 1e-7
TIME_TOL = 1e-7
HORSE_COLLAR = load_court("horse-collar")
DECK = load_court("deck")


def _speed_law_stop(v0: float, mu: float, mu_speed: float, g: float) -> tuple[float, float]:
    """(time, distance) of a slide from v0 under g (mu + mu_speed v), in closed form."""
    c, k = g * mu, g * mu_speed
    x = k * v0 / c
    return math.log1p(x) / k, v0 / k - c / k**2 * math.log1p(x)


def _one(court, shot):
    return Scene(court, *(np.array([value]) for value in shot))


@pytest.mark.parametrize(
    ("mu", "mu_speed", "v0"),
    [(0.0123, 0.0144, 0.6), (0.0123, 0.0144, 1.4), (0.02, 0.004, 1.2), (0.03, -0.005, 1.5), (0.05, 0.5, 2.0)],
)
def test_a_spin_free_slide_stops_where_the_closed_form_says(mu, mu_speed, v0):
    court = HORSE_COLLAR.with_params(mu=mu, mu_speed=mu_speed)
    time, distance = _speed_law_stop(v0, mu, mu_speed, court.params["gravity"])
    heading = 1.55  # nearly along the table: the longest slide (4.6 m) stays 0.1 m from the centre line
    x0, y0 = 0.0, 0.3
    vx, vy = v0 * math.cos(heading), v0 * math.sin(heading)
    expected = (x0 + distance * math.cos(heading), y0 + distance * math.sin(heading))
    assert distance < 5.5, "the slide stays on the table"
    result = simulate(_one(court, (x0, y0, vx, vy, 0.0)))
    assert result.status[0] == STATUS_REST
    assert math.hypot(result.x[0] - expected[0], result.y[0] - expected[1]) < POSITION_TOL
    assert abs(result.t_end - time) < TIME_TOL * max(1.0, time)
    batch = simulate_shots(court, [x0], [y0], [vx], [vy], [0.0])
    assert math.hypot(batch.x[0, 0] - expected[0], batch.y[0, 0] - expected[1]) < POSITION_TOL


def test_the_law_of_speed_changes_where_a_disc_rests():
    """At equal launch, a rising law stops a disc short of Coulomb's rest, a falling one beyond it."""
    rests = {}
    for mu_speed in (-0.004, 0.0, 0.01):
        court = HORSE_COLLAR.with_params(mu=0.03, mu_speed=mu_speed)
        rests[mu_speed] = simulate_shots(court, [0.0], [0.3], [0.0], [1.5], [0.0]).y[0, 0]
    assert rests[-0.004] > rests[0.0] > rests[0.01]


SURFACES = {
    "flat": {},
    "slope": {"slope": [0.001, -0.0005]},
    "crown": {"crown": "1/32 in", "slope": [0.0008, 0.0]},
}


@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("model", ["coupled", "decoupled"])
@pytest.mark.parametrize("surface", list(SURFACES))
def test_lone_discs_rest_where_the_reference_rests(surface, model):
    court = DECK.with_params(spin_model=model, mu=0.012, mu_speed=0.004, **SURFACES[surface])
    reference = SurfaceReference(court)
    rng = np.random.default_rng(len(surface) + 3 * (model == "coupled"))
    shots = []
    for spin in (0.0, 1.0, -1.0):
        v, angle = rng.uniform(0.6, 1.6), rng.uniform(-0.03, 0.03)
        shots.append((rng.uniform(-0.4, 0.4), 0.6, v * math.sin(angle), v * math.cos(angle), spin * rng.uniform(4, 20)))
    batch = simulate_shots(court, *(np.array(column) for column in zip(*shots)))
    for k, shot in enumerate(shots):
        result = simulate(_one(court, shot))
        expected = reference.run(*(np.array([value]) for value in shot))
        assert result.ok and result.status[0] == expected.status[0] == STATUS_REST
        assert math.hypot(result.x[0] - expected.x[0], result.y[0] - expected.y[0]) < POSITION_TOL, shot
        assert abs(result.t_end / expected.t_end - 1.0) < TIME_TOL, shot
        assert math.hypot(batch.x[k, 0] - expected.x[0], batch.y[k, 0] - expected.y[0]) < POSITION_TOL, shot


@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("model", ["coupled", "decoupled"])
def test_impacts_under_the_law_of_speed_rest_where_the_reference_rests(model):
    court = DECK.with_params(spin_model=model, mu=0.012, mu_speed=0.004, slope=[0.0005, 0.0])
    reference = SurfaceReference(court)
    start = (
        np.array([0.02, 0.0, 0.12]),
        np.array([0.6, 10.0, 10.6]),
        np.array([0.0, 0.0, 0.0]),
        np.array([2.3, 0.0, 0.0]),
        np.array([6.0 if model == "coupled" else -4.0, 0.0, 0.0]),
    )
    result = simulate(Scene(court, *start))
    expected = reference.run(*start)
    assert [e.kind for e in expected.contacts()], "the shot hits"
    assert list(result.status) == list(expected.status)
    assert np.hypot(result.x - expected.x, result.y - expected.y).max() < 1e-6


def test_a_coulomb_court_keeps_its_closed_forms():
    assert court_law(HORSE_COLLAR) is CLOSED_FORM
    assert court_law(HORSE_COLLAR.with_params(mu_speed=0.0)) is CLOSED_FORM
    assert court_surface(HORSE_COLLAR).size == 0
    speed_law = HORSE_COLLAR.with_params(mu_speed=0.01)
    assert court_law(speed_law) is INTEGRATED
    assert court_surface(speed_law).size > 0
    plain, lawful = court_motion(HORSE_COLLAR)[0], court_motion(speed_law)[0]
    assert np.array_equal(plain[1:], lawful[1:])
    assert (plain[0] != lawful[0]).sum() == 2  # the law's two terms, zero under Coulomb


def test_the_courts_speed_in_seconds_holds_under_the_law():
    court = HORSE_COLLAR.with_params(speed="14 s", mu_speed=0.0144)
    assert court.speed == pytest.approx(14.0, rel=1e-12)
    assert court.params["mu"] < HORSE_COLLAR.with_params(speed="14 s").params["mu"]


def test_a_law_that_turns_negative_on_the_court_is_refused():
    with pytest.raises(CourtError, match=r"params\.mu_speed: .*top speed .*got -0\.05"):
        HORSE_COLLAR.with_params(mu_speed=-0.05)
    data = tomllib.loads(Path(HORSE_COLLAR.source_path).read_text())
    data["materials"]["mu_speed"] = -0.05
    with pytest.raises(CourtError, match=r"materials\.mu_speed: .*got -0\.05"):
        parse_court(data, "custom.toml")


def test_a_launch_beyond_where_the_law_reaches_zero_is_refused():
    court = HORSE_COLLAR.with_params(mu=0.03, mu_speed=-0.01)  # zero at 3 m/s
    with pytest.raises(SceneError, match=r"discs\[0\] slides at up to 3\.1"):
        _one(court, (0.0, 0.3, 0.0, 3.0, 0.1 / court.disc_radius)).validate()
    _one(court, (0.0, 0.3, 0.0, 2.5, 0.0)).validate()


def test_a_scene_file_refusal_exits_two(tmp_path):
    scene = {
        "court": "horse-collar",
        "params": {"mu": 0.03, "mu_speed": -0.01},
        "discs": [{"x": 0.0, "y": 0.3, "vx": 0.0, "vy": 3.2}],
    }
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    run = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "simulate", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 2
    assert "discs[0]" in run.stderr and "mu_speed" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@settings(max_examples=200, deadline=None)
@given(
    v0=st.floats(1e-3, 6.0),
    c=st.floats(0.01, 2.0),
    ratio=st.floats(-0.9, 50.0),
)
def test_launch_speed_inverts_the_stop_distance(v0, c, ratio):
    k = ratio * c / 6.0  # the law stays positive up to 6 m/s
    distance = stop_distance(v0, c, k)
    assert launch_speed(distance, c, k) == pytest.approx(v0, rel=1e-12)
    assert stop_time(v0, c, k) > 0.0


@settings(max_examples=100, deadline=None)
@given(x=st.floats(0.2 * SERIES_BELOW, 5.0 * SERIES_BELOW), sign=st.sampled_from([-1.0, 1.0]))
def test_the_stop_distance_is_smooth_where_its_series_takes_over(x, sign):
    """Either side of the switch to the series, the distance follows the exact log form (in 40 digits)
    to 1e-12."""
    c, v0 = 0.12, 1.0
    k = sign * x * c / v0
    with localcontext() as digits:
        digits.prec = 40
        kk, cc = Decimal(k), Decimal(c)
        xx = kk * Decimal(v0) / cc
        exact = float(cc / kk**2 * (xx - (1 + xx).ln()))
    assert stop_distance(v0, c, k) == pytest.approx(exact, rel=1e-12)
