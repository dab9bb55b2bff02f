"""Paired axes: every value of a paired axis replays the same random executions (common random numbers)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr

from shuffle_sim.experiment._grid_file import GridResults
from shuffle_sim.experiment._runner import run_experiment
from shuffle_sim.experiment.spec import ExperimentError, parse_experiment
from shuffle_sim.experiment.store import open_records, open_results
from shuffle_sim.experiment.views import build_view

# A deck draw with a little execution noise, at two directions; spin changes where a disc stops
# (coupled sliding and spin), so the two spins give different outcomes from the same executions.
DRAW = """
name = "spin-draw"
title = "Does spin help the draw?"
court = "deck"
seed = 2024
samples = {samples}
chunk_size = {chunk}
{paired}

[shot]
start = ["9 in", "7.25 ft"]
speed = 1.72
team = "yellow"
{spin}

[grid]
direction = [-1.6, -1.4]
{grid}

[noise]
speed = 0.03
direction = 0.6

[collect]
outcomes = ["expected_value", "p_value", "p_dead", "p_hanger"]
{records}
"""
SPINS = (0.0, 3.0)


def _draw(samples: int, chunk: int = 65536, spin: float | None = None, records: bool = False):
    paired = spin is None
    text = DRAW.format(
        samples=samples,
        chunk=chunk,
        paired='paired = ["spin"]' if paired else "",
        spin="" if paired else f"spin = {spin}",
        grid=f"spin = [{SPINS[0]}, {SPINS[1]}]" if paired else "",
        records="records = true" if records else "",
    )
    return parse_experiment(text, "spin-draw.toml")


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    """The paired run over 100,000 shots a cell, and the two separate runs of its spins (same seed)."""
    out = tmp_path_factory.mktemp("paired")
    paired = run_experiment(_draw(100_000, chunk=50_000), out / "paired", progress=False, plots=False)
    separate = [run_experiment(_draw(100_000, spin=s), out / f"spin-{s}", progress=False, plots=False) for s in SPINS]
    return paired, separate


def test_paired_difference_equals_two_separate_same_seed_runs_bit_for_bit(large):
    paired, (zero, six) = large
    ds = paired.grid
    assert ds.attrs["paired_axes"] == "spin" and "draw index" in ds.attrs["rng"]
    assert int(ds["shots"].values.sum()) + int(ds["failed"].values.sum()) == 400_000
    for metric in ("expected_value", "p_dead", "p_hanger", "shots"):
        both = ds[metric].ordered("direction", "spin")
        difference = both[:, 1] - both[:, 0]
        apart = six.grid[metric].values - zero.grid[metric].values
        np.testing.assert_array_equal(difference, apart, err_msg=metric)
        assert np.array_equal(both[:, 0], zero.grid[metric].values)
    p = ds["p_value"].ordered("direction", "spin", "value")
    np.testing.assert_array_equal(p[:, 1] - p[:, 0], six.grid["p_value"].values - zero.grid["p_value"].values)
    # The drawn difference map holds the same numbers.
    view = build_view(ds, "p_value:10", "direction", diff=("spin", SPINS[1], SPINS[0]))
    np.testing.assert_array_equal(view.values, six.grid["p_value"].values[:, -1] - zero.grid["p_value"].values[:, -1])
    assert np.all(np.abs(view.values) > 0)  # spin moves the outcome: the comparison is not empty
    # Common random numbers: the paired error is far below the error of two independent runs.
    independent = np.sqrt(
        sum(r.grid["p_value"].values[:, -1] * (1 - r.grid["p_value"].values[:, -1]) for r in (zero, six)) / 100_000
    )
    assert np.all(view.stderr < 0.8 * independent)


def test_paired_results_do_not_depend_on_chunks_or_workers(tmp_path):
    reference = open_results(run_experiment(_draw(9, chunk=4), tmp_path / "a", progress=False, plots=False).out)
    assert int(open_results(tmp_path / "a").attrs["n_shots"]) == 36
    for name, kwargs in (("b", dict(chunk_size=7)), ("c", dict(chunk_size=1000)), ("d", dict(workers=2, chunk_size=6))):
        summary = run_experiment(_draw(9, chunk=4), tmp_path / name, progress=False, plots=False, **kwargs)
        xr.testing.assert_identical(open_results(summary.out), reference)
    assert (
        run_experiment(_draw(9), tmp_path / "e", chunk_size=7, progress=False, plots=False).n_chunks == 5
    )  # 8 a chunk


def test_pair_sums_match_the_per_shot_records(tmp_path):
    experiment = _draw(40, chunk=30, records=True)
    summary = run_experiment(experiment, tmp_path, progress=False, plots=False)
    ds = summary.grid
    shots = open_records(tmp_path).sort_values("shot")
    assert (shots["draw"].values == shots["shot"].values // 2).all()
    # Each draw: the same execution errors at both spins (the same intended shot besides the spin).
    a = shots[shots["grid_spin"] == SPINS[0]].set_index("draw")
    b = shots[shots["grid_spin"] == SPINS[1]].set_index("draw")
    np.testing.assert_array_equal(a["speed"], b["speed"])
    np.testing.assert_array_equal(a["direction"], b["direction"])
    both = a["ok"] & b["ok"]
    values = ds["value"].values.tolist()
    for u, direction in enumerate(ds["direction"].values):
        mine = both & (a["grid_direction"] == direction)
        assert ds["pair_shots"].values[u, 0] == mine.sum()
        quantities = {"value": "value", "dead": "dead", "hanger": "hanger"}
        labels = ds["pair_quantity"].values.tolist()
        for q, column in quantities.items():
            d = a.loc[mine, column].astype(np.int64) - b.loc[mine, column].astype(np.int64)
            if column == "hanger":
                d = (a.loc[mine, column] > 0).astype(np.int64) - (b.loc[mine, column] > 0).astype(np.int64)
            assert ds["pair_diff_sum"].values[u, 0, labels.index(q)] == d.sum()
            assert ds["pair_diff_sumsq"].values[u, 0, labels.index(q)] == (d * d).sum()
        joint = np.zeros((len(values), len(values)), np.int64)
        for va, vb in zip(a.loc[mine, "value"], b.loc[mine, "value"]):
            joint[values.index(va), values.index(vb)] += 1
        np.testing.assert_array_equal(ds["pair_value_counts"].values[u, 0], joint)
        # The paired standard error is the per-draw difference's, as numpy computes it.
        ten = (a.loc[mine, "value"] == 10).astype(float) - (b.loc[mine, "value"] == 10).astype(float)
        view = build_view(ds, "p_value:10", "direction", diff=("spin", SPINS[0], SPINS[1]))
        assert view.stderr[u] == pytest.approx(ten.std(ddof=1) / math.sqrt(len(ten)), rel=1e-12, abs=1e-15)
        value = a.loc[mine, "value"].astype(float) - b.loc[mine, "value"].astype(float)
        view = build_view(ds, "expected_value", "direction", diff=("spin", SPINS[0], SPINS[1]))
        assert view.stderr[u] == pytest.approx(value.std(ddof=1) / math.sqrt(len(value)), rel=1e-12)


def test_an_unpaired_difference_takes_the_two_sides_as_independent(tmp_path):
    summary = run_experiment(_draw(60, records=True), tmp_path, progress=False, plots=False)
    shots = open_records(tmp_path)
    view = build_view(summary.grid, "p_value:10", "spin", diff=("direction", -1.4, -1.6))
    for k, spin in enumerate(SPINS):
        sides = [
            shots[(shots["grid_spin"] == spin) & (shots["grid_direction"] == d) & shots["ok"]]["value"] == 10
            for d in (-1.4, -1.6)
        ]
        assert view.values[k] == pytest.approx(sides[0].mean() - sides[1].mean(), abs=1e-15)
        expected = math.sqrt(sum(s.astype(float).var(ddof=1) / len(s) for s in sides))
        assert view.stderr[k] == pytest.approx(expected, rel=1e-12)


def test_a_paired_board_experiment_sums_frame_scores_and_removals(tmp_path):
    text = """
name = "takeout-spin"
court = "deck"
seed = 3
samples = 12
chunk_size = 10
paired = ["spin"]
[shot]
start = ["9 in", "7.25 ft"]
speed = 2.4
team = "yellow"
[grid]
direction = [-1.4, -1.2]
spin = [0.0, -8.0, 8.0]
[noise]
preset = "average"
[board]
discs = [{ name = "target", team = "black", x = "0 ft", y = "37.3 ft" }]
[collect]
outcomes = ["expected_value", "p_removed", "expected_margin"]
"""
    summary = run_experiment(parse_experiment(text, "t.toml"), tmp_path, progress=False, plots=False)
    ds = summary.grid
    assert ds["pair_quantity"].values.tolist()[-4:] == ["score", "opponent_score", "margin", "removed:target"]
    assert ds["spin_a"].values.tolist() == [0.0, 0.0, -8.0] and ds["spin_b"].values.tolist() == [-8.0, 8.0, 8.0]
    assert ds["pair_shots"].dims == ("direction", "pair")
    for metric in ("p_removed:target", "expected_margin"):
        view = build_view(ds, metric, "direction", diff=("spin", 8.0, 0.0))
        assert view.stderr is not None and np.all(np.isfinite(view.stderr))
    # Reading the file back gives the same dataset (the pair variables included).
    xr.testing.assert_identical(open_results(tmp_path), summary.grid.to_xarray())
    again = GridResults.from_xarray(open_results(tmp_path))
    np.testing.assert_array_equal(again["pair_diff_sumsq"].values, ds["pair_diff_sumsq"].values)


def test_averaging_a_paired_axis_under_a_paired_difference_is_refused(tmp_path):
    text = DRAW.format(
        samples=4,
        chunk=100,
        paired='paired = ["spin", "direction"]',
        spin="",
        grid="spin = [0.0, 3.0]\nspeed = [1.70, 1.74]",
        records="",
    )
    summary = run_experiment(parse_experiment(text, "t.toml"), tmp_path, progress=False, plots=False)
    with pytest.raises(ExperimentError, match="cannot average over direction, which is paired with spin"):
        build_view(summary.grid, "p_dead", "speed", diff=("spin", 0.0, 3.0), average=["direction"])
    # Selected or plotted instead, the other paired axis picks the pair of each cell.
    view = build_view(summary.grid, "p_dead", "speed", diff=("spin", 3.0, 0.0), select={"direction": -1.4})
    assert view.stderr.shape == (2,) and view.fixed == {"direction": -1.4}
    view = build_view(summary.grid, "p_dead", "speed", "direction", diff=("spin", 3.0, 0.0))
    assert view.stderr.shape == (2, 2) and not np.isnan(view.stderr).any()


@pytest.mark.parametrize(
    "change, message",
    [
        ('paired = ["speed"]', r"paired\[0\]: must name a grid axis \(direction, spin\) \(got 'speed'\)"),
        ('paired = ["spin", "spin"]', "paired: axis names must not repeat"),
        ('paired = "spin"', "paired: must be a list of grid axis names"),
    ],
)
def test_bad_paired_axes_are_named(change, message):
    text = DRAW.format(samples=3, chunk=10, paired=change, spin="", grid="spin = [0.0, 3.0]", records="")
    with pytest.raises(ExperimentError, match=message):
        parse_experiment(text, "bad.toml")


def test_paired_axes_need_two_to_sixteen_combinations():
    one = DRAW.format(samples=3, chunk=10, paired='paired = ["spin"]', spin="", grid="spin = [1.0]", records="")
    with pytest.raises(ExperimentError, match="at least two values to compare"):
        parse_experiment(one, "one.toml")
    many = DRAW.format(
        samples=3,
        chunk=10,
        paired='paired = ["spin"]',
        spin="",
        grid="spin = { from = 0, to = 10, steps = 17 }",
        records="",
    )
    with pytest.raises(ExperimentError, match="17 combinations of values, more than 16"):
        parse_experiment(many, "many.toml")
