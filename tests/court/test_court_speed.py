"""Court speed in players' units (``court.speed``): seconds over the court's speed course, mu from it
exactly, the defined shot through the kernel, and the errors of a speed given wrongly."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import CourtError, load_court
from shuffle_sim.court.speed import mu_for_speed, speed_for_mu
from shuffle_sim.experiment.errors import ExperimentError
from shuffle_sim.experiment.spec import parse_experiment
from shuffle_sim.physics import STATUS_REST, simulate
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.units import FOOT

DECK = load_court("deck")


@pytest.mark.parametrize("seconds", [14.0, 5.0])
def test_the_deck_speed_is_the_kitchen_to_kitchen_sliding_time_of_the_defined_shot(seconds):
    """A disc without spin shot from y = 7.25 ft that rests at y = 44.75 ft takes the court's speed,
    simulated through the kernel on a court given by its speed."""
    scene = Scene.from_dict(
        {"court": "deck", "params": {"speed": f"{seconds:g} s"}, "discs": [{"x": 0.0, "y": 7.25 * FOOT, "vy": 1.0}]}
    )
    court = scene.court
    d = 37.5 * FOOT
    assert court.params["mu"] == pytest.approx(2 * d / (court.params["gravity"] * seconds**2), rel=1e-15)
    # The launch that slides exactly d: v0^2 = 2 mu g d.
    v0 = math.sqrt(2.0 * court.params["mu"] * court.params["gravity"] * d)
    scene = Scene(
        court=court, x=np.zeros(1), y=np.array([7.25 * FOOT]), vx=np.zeros(1), vy=np.array([v0]), omega=np.zeros(1)
    )
    result = simulate(scene)
    assert result.status[0] == STATUS_REST and result.x[0] == 0.0
    assert abs(result.y[0] - 44.75 * FOOT) <= 1e-6
    assert result.t_end == pytest.approx(seconds, rel=1e-6)
    assert court.speed == pytest.approx(seconds, rel=1e-12)


def test_every_court_file_rates_its_speed_over_its_own_course(courts):
    # deck: kitchen to kitchen; horse collar: end to end; ricochet: front to the back bumper;
    # crokinole: shooting line to shooting line (courts/README.md, "Court speed").
    lengths = {
        "deck": 37.5 * FOOT,
        "horse-collar": (20 + 8 / 12) * FOOT,
        "ricochet": 70 * 0.0254,
        "crokinole": 24 * 0.0254,
    }
    for name, court in courts.items():
        assert court.speed_course.length == pytest.approx(lengths[name], rel=1e-12)
        assert court.with_params(speed=f"{court.speed!r} s").params["mu"] == pytest.approx(
            court.params["mu"], rel=1e-12
        )
    assert DECK.speed == pytest.approx(12.07, abs=0.01)  # mu = 0.016: faster than 12 s


@settings(max_examples=200, deadline=None)
@given(st.floats(0.5, 60.0), st.floats(0.1, 30.0), st.floats(1.0, 20.0))
def test_speed_and_mu_follow_from_each_other_exactly(seconds, length, gravity):
    mu = mu_for_speed(seconds, length, gravity)
    assert speed_for_mu(mu, length, gravity) == pytest.approx(seconds, rel=1e-13)
    # The closed form the kernel uses: a disc of launch speed v0 slides v0^2 / (2 mu g) in v0 / (mu g).
    v0 = math.sqrt(2 * mu * gravity * length)
    assert v0 / (mu * gravity) == pytest.approx(seconds, rel=1e-13)


def test_a_slower_court_is_a_shorter_time_and_more_friction():
    assert DECK.with_params(speed="5 s").params["mu"] > DECK.with_params(speed="14 s").params["mu"]
    assert DECK.with_params(speed="5 s").params["mu"] == pytest.approx(0.0932, abs=1e-4)


def _deck_text(materials_mu_line: str, course: bool = True) -> str:
    """The deck court file with its ``mu = ...`` line of [materials] replaced (and its course removed)."""
    lines = Path(DECK.source_path).read_text().splitlines()
    out, skip = [], False
    for line in lines:
        if line.startswith("mu = "):
            line = materials_mu_line
        if line.startswith("["):
            skip = not course and line == "[speed_course]"
        if not skip:
            out.append(line)
    return "\n".join(out) + "\n"


def test_speed_in_a_court_file_sets_mu_and_both_are_refused(tmp_path):
    fast = tmp_path / "fast.toml"
    fast.write_text(_deck_text('speed = "14 s"'))
    assert load_court(fast).speed == pytest.approx(14.0, rel=1e-12)
    both = tmp_path / "both.toml"
    both.write_text(_deck_text('mu = 0.016\nspeed = "14 s"'))
    with pytest.raises(CourtError, match=r"materials\.mu and materials\.speed: give one of them, not both"):
        load_court(both)
    neither = tmp_path / "neither.toml"
    neither.write_text(_deck_text(""))
    with pytest.raises(CourtError, match=r"materials\.mu: missing required key"):
        load_court(neither)
    no_course = tmp_path / "no-course.toml"
    no_course.write_text(_deck_text('speed = "14 s"', course=False))
    with pytest.raises(CourtError, match=r"materials\.speed: this court has no \[speed_course\]"):
        load_court(no_course)
    mu_only = tmp_path / "mu-only.toml"
    mu_only.write_text(_deck_text("mu = 0.02", course=False))
    assert load_court(mu_only).speed is None


@pytest.mark.parametrize(
    "value, message",
    [
        (14, r'a time with its unit, such as "14 s"'),
        ("14 m", r"unknown unit 'm'"),
        ("-3 s", r"a positive time"),
        ("0 s", r"a positive time"),
        ("fast", r"cannot read duration"),
    ],
)
def test_a_bad_speed_names_the_key_and_the_value(value, message):
    with pytest.raises(CourtError, match=r"params\.speed: .*" + message):
        DECK.with_params(speed=value)


def test_scenes_and_experiments_take_the_speed_and_refuse_it_with_mu():
    with pytest.raises(SceneError, match=r"params\.mu and params\.speed: give one of them, not both"):
        Scene.from_dict({"court": "deck", "params": {"speed": "14 s", "mu": 0.01}, "discs": [{"x": 0, "y": 2}]})
    base = 'name = "x"\ncourt = "deck"\n[shot]\nstart = ["0 ft", "7.25 ft"]\nspeed = 1.6\ndirection = 0\n'
    assert parse_experiment(base + '[params]\nspeed = "14 s"\n').court.speed == pytest.approx(14.0, rel=1e-12)
    with pytest.raises(ExperimentError, match=r"params\.mu and params\.speed: give one of them"):
        parse_experiment(base + '[params]\nspeed = "14 s"\nmu = 0.02\n')


def test_the_command_line_exits_2_naming_both(tmp_path):
    scene = tmp_path / "scene.json"
    scene.write_text('{"court": "deck", "params": {"speed": "14 s", "mu": 0.01}, "discs": [{"x": 0, "y": 2}]}')
    done = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "simulate", str(scene)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "params.mu and params.speed" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_courts_listing_prints_the_speed_beside_mu():
    done = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "courts"], capture_output=True, text=True, check=True
    )
    deck = next(line for line in done.stdout.splitlines() if line.startswith("deck "))
    assert "mu 0.016, 12.1 s" in deck
