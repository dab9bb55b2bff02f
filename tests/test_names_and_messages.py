"""The public functions take a court name or a ``Court`` alike, and error messages show plain numbers
(never NumPy's ``np.float64(...)``) whatever type the value arrived as."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim import judge, judge_batch, load_court, simulate_shots
from shuffle_sim.court import CourtError, as_court
from shuffle_sim.judging import edge_nearness, lag_distance, line_distance
from shuffle_sim.messages import counted, plain, shown
from shuffle_sim.noise import NoiseError, NoiseModel
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.testing import assert_value

HORSE = load_court("horse-collar")


def test_judging_takes_a_court_name_or_a_court():
    assert judge("horse-collar", 0.0, 6.2) == judge(HORSE, 0.0, 6.2)
    assert judge("deck", 0.0, 14.8 * 0.3048, end="head")["value"] == 10
    by_name = judge_batch("crokinole", [0.0, 0.1], [0.0, 0.0])
    assert by_name.value.tolist() == judge_batch(load_court("crokinole"), [0.0, 0.1], [0.0, 0.0]).value.tolist()
    assert line_distance("deck", 0.0, 11.0, "8 ft line") == line_distance(load_court("deck"), 0.0, 11.0, "8 ft line")
    assert lag_distance("deck", 0.0, 10.0) == lag_distance(load_court("deck"), 0.0, 10.0)
    assert edge_nearness("ricochet", 0.0, 0.2) == edge_nearness(load_court("ricochet"), 0.0, 0.2)
    batch = simulate_shots("deck", [0.2286], [2.2098], [0.0], [1.0], [0.0])
    assert batch.ok.all()
    # A court loaded by name is kept while its file is unchanged: its kernels' packing is done once.
    assert as_court("horse-collar") is as_court("horse-collar")
    with pytest.raises(CourtError, match="court must be a Court, a court name or a court file path \\(got int\\)"):
        judge(3, 0.0, 0.0)
    with pytest.raises(CourtError, match="unknown court 'hoarse-collar'"):
        judge("hoarse-collar", 0.0, 0.0)


def test_plotting_a_court_takes_its_name(tmp_path):
    from shuffle_sim.plot import plot_court

    plot_court("crokinole", tmp_path / "board.png", discs=[(0.0, 0.1)])
    assert (tmp_path / "board.png").stat().st_size > 10_000


def test_shown_values_are_plain_python():
    assert plain(np.float64(-0.25)) == -0.25 and type(plain(np.float64(-0.25))) is float
    assert shown((np.float64(1.5), np.int64(2))) == "(1.5, 2)"
    assert shown({"x": np.array([0.5, 1.0])}) == "{'x': [0.5, 1.0]}"
    assert shown("2 inchs") == "'2 inchs'"


def _scene(x, y, **kwargs):
    n = len(x)
    values = dict(vx=np.zeros(n), vy=np.zeros(n), omega=np.zeros(n))
    values.update(kwargs)
    return Scene(court=HORSE, x=np.asarray(x), y=np.asarray(y), **values)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: _scene([-0.3], [0.25]).validate(), "discs[0] at x=-0.3, y=0.25 is off the surface"),
        (lambda: _scene([0.0], [1.0], vy=np.array([np.nan])).validate(), "discs[0].vy must be finite (got nan)"),
        (lambda: HORSE.with_params(mu=np.float64(-0.5)), "params.mu: must not be negative (got -0.5)"),
        (lambda: HORSE.with_params(disc_restitution=np.float32(1.5)), "a restitution must lie in [0, 1] (got 1.5)"),
        (lambda: NoiseModel(speed=np.float64(-1.0)), "noise.speed must be a finite non-negative number (got -1.0)"),
        (
            lambda: simulate_shots(HORSE, np.array([0.3]), np.array([0.25]), [0.0], [1.0], [0.0]),
            "shot 0 at x[0]=0.3, y[0]=0.25",
        ),
        (lambda: assert_value(HORSE, np.float64(0.0), np.float64(6.2), 2), "disc at (0.0, 6.2) m: value 3, expected 2"),
    ],
)
def test_messages_show_plain_numbers(call, message):
    with pytest.raises((SceneError, CourtError, NoiseError, ValueError, AssertionError)) as info:
        call()
    text = str(info.value)
    assert message in text
    assert "np." not in text and "float64" not in text


def test_rules_lab_and_experiment_messages_show_plain_numbers():
    from shuffle_sim.lab.board import Disc, disc_problem
    from shuffle_sim.rules.common import RulesError, check_int

    with pytest.raises(RulesError) as info:
        check_int(np.float64(2.5), "frames")
    assert str(info.value) == "frames must be an integer (got 2.5)"
    problem = disc_problem(HORSE, [Disc(x=np.float64(np.inf), y=np.float64(0.2), team="red")], 0)
    assert problem == "disc 0: position must be finite numbers (got inf, 0.2)"
    from shuffle_sim.experiment._runner import run_experiment
    from shuffle_sim.experiment.spec import ExperimentError

    with pytest.raises(ExperimentError) as info:
        run_experiment("experiments/deck-draw.toml", workers=np.float64(2.0))
    assert str(info.value) == "workers must be a positive integer (got 2.0)"


def test_counts_are_singular_for_one():
    assert [counted(n, "event") for n in (0, 1, 2, 10_000)] == ["0 events", "1 event", "2 events", "10,000 events"]
    assert counted(1, "noisy copy", "noisy copies") == "1 noisy copy" and counted(3, "copy", "copies") == "3 copies"
