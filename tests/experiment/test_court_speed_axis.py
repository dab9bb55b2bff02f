"""Court speed as an experiment axis (``grid.court_speed``): each cell on its own court, the same
numbers as a run on that court alone, whatever the chunking; and the errors of an axis given wrongly."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim.experiment import run_experiment
from shuffle_sim.experiment._chunks import compute_chunk
from shuffle_sim.experiment.spec import ExperimentError, parse_experiment

BASE = """
name = "speeds"
court = "deck"
end = "foot"
seed = 3
samples = SAMPLES
[shot]
start = ["9 in", "7.25 ft"]
target = ["0 ft", "37.35 ft"]
team = "yellow"
[grid]
AXIS
target_y = ["35.5 ft", "36.6 ft", "37.9 ft", "43 ft"]
target_x = ["-0.3 ft", "0 ft"]
NOISE
BOARD
[collect]
outcomes = OUTCOMES
"""


def experiment(
    axis='court_speed = ["5 s", "14 s"]',
    samples=1,
    noise='[noise]\npreset = "exact"',
    board="",
    outcomes='["expected_value", "p_value", "p_dead"]',
    params="",
):
    text = (
        BASE.replace("SAMPLES", str(samples))
        .replace("AXIS", axis)
        .replace("NOISE", noise)
        .replace("BOARD", board)
        .replace("OUTCOMES", outcomes)
    ) + params
    return parse_experiment(text, "speeds.toml")


def sums_by_cell(exp, chunk_size=None):
    out = compute_chunk(exp, 0, chunk_size or exp.n_shots)
    return out["value_sum"], out["value_counts"], out["dead"]


@pytest.mark.parametrize(
    "board", ["", '[board]\ndiscs = [{ name = "guard", team = "black", x = "1.5 ft", y = "30 ft" }]']
)
def test_each_cell_plays_on_its_own_court_as_a_run_on_that_court_alone(board):
    outcomes = (
        '["expected_value", "p_value", "p_dead", "p_removed"]' if board else '["expected_value", "p_value", "p_dead"]'
    )
    both = experiment(board=board, outcomes=outcomes)
    assert [c.speed for c in both.courts()] == pytest.approx([5.0, 14.0], rel=1e-12)
    whole = sums_by_cell(both)
    per_court = 8  # 4 x 2 aim points
    for k, seconds in enumerate(("5 s", "14 s")):
        alone = experiment(axis="", board=board, outcomes=outcomes, params=f'[params]\nspeed = "{seconds}"\n')
        for got, want in zip(whole, sums_by_cell(alone)):
            assert np.array_equal(got[k * per_court : (k + 1) * per_court], want)
    # Exact shots to the same aim points rest at the same places on both courts: the court's speed
    # cancels out of a noiseless lone shot (v^2 / mu), so the two halves agree.
    if not board:
        assert np.array_equal(whole[0][:per_court], whole[0][per_court:])


def test_with_noise_the_two_courts_part_and_chunking_changes_nothing(tmp_path):
    noisy = experiment(samples=400, noise='[noise]\npreset = "average"')
    one = run_experiment(noisy, tmp_path / "one", progress=False).grid.to_xarray()
    many = run_experiment(noisy, tmp_path / "many", chunk_size=333, progress=False).grid.to_xarray()
    assert one.identical(many)
    assert one["court_mu"].values.tolist() == [c.params["mu"] for c in noisy.courts()]
    assert one["court_speed"].attrs["units"] == "s"
    ten = one["p_value"].sel(value=10)
    # The floor of the speed error weighs more on the fast court's softer launches: fewer 10s there.
    assert float(ten.sel(court_speed=14.0).sum()) < float(ten.sel(court_speed=5.0).sum())


def test_worker_processes_and_records_carry_the_courts(tmp_path):
    noisy = experiment(
        samples=30, noise='[noise]\npreset = "expert"', outcomes='["expected_value", "p_value"]\nrecords = true'
    )
    here = run_experiment(noisy, tmp_path / "here", progress=False)
    there = run_experiment(noisy, tmp_path / "there", workers=2, chunk_size=97, progress=False)
    assert here.grid.to_xarray().identical(there.grid.to_xarray())
    import pandas as pd

    records = pd.read_parquet(here.records_path)
    assert sorted(set(records["grid_court_speed"])) == [5.0, 14.0]
    assert records.equals(pd.read_parquet(there.records_path))


def test_a_skill_and_a_court_speed_axis_together():
    exp = experiment(axis='court_speed = ["5 s", "14 s"]\nskill = ["exact", "expert"]', noise="", samples=50)
    assert exp.grid_shape == (2, 2, 4, 2)
    out = compute_chunk(exp, 0, exp.n_shots)
    assert out["shots"].sum() == exp.n_shots


@pytest.mark.parametrize(
    "text, message",
    [
        ('court_speed = ["5 m"]', r"grid\.court_speed\[0\]: unknown unit 'm'"),
        ("court_speed = [5]", r"grid\.court_speed\[0\]: a court speed is a time with its unit"),
        ('court_speed = ["5 s", "5 s"]', r"grid\.court_speed: values must not repeat"),
    ],
)
def test_a_bad_axis_names_the_key_and_the_value(text, message):
    with pytest.raises(ExperimentError, match=message):
        experiment(axis=text)


def test_the_axis_refuses_a_speed_or_mu_in_params_and_a_distribution():
    with pytest.raises(ExperimentError, match=r"params\.speed: the grid's court_speed axis sets"):
        experiment(params='[params]\nspeed = "9 s"\n')
    with pytest.raises(ExperimentError, match=r"params\.mu: the grid's court_speed axis sets"):
        experiment(params="[params]\nmu = 0.02\n")
    with pytest.raises(ExperimentError, match=r"distributions\.court_speed: unknown shot parameter"):
        experiment(params='[distributions]\ncourt_speed = { uniform = ["5 s", "9 s"] }\n')


def test_a_plot_selects_a_court_speed_by_its_time():
    exp = experiment(
        params='[[plots]]\nmetric = "p_value:10"\nx = "target_x"\ny = "target_y"\nselect = { court_speed = "14 s" }\n'
    )
    assert exp.plots[0].select == {"court_speed": 14.0}
