"""The experiment runner: identical results whatever the chunking, workers, scheduler or interruptions."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from shuffle_sim.experiment._runner import run_experiment
from shuffle_sim.experiment.spec import ExperimentError, parse_experiment
from shuffle_sim.experiment.store import ResultsDir, open_records, open_results

# Yellow's shot into a court with two resting discs: collisions, removals and frame scores all occur.
SMALL = """
name = "small"
title = "small take-out"
court = "deck"
seed = 11
samples = 11
chunk_size = 20

[shot]
start = ["9 in", "7.25 ft"]
team = "yellow"

[grid]
speed = { from = 1.7, to = 2.6, steps = 4 }
direction = [-1.6, -1.3, -1.0]

[noise]
preset = "average"

[board]
discs = [
    { name = "target", team = "black", x = "0 ft", y = "37.3 ft" },
    { name = "mine", team = "yellow", x = "-0.6 ft", y = "39.6 ft" },
]

[collect]
outcomes = ["expected_value", "p_value", "p_dead", "p_hanger", "p_removed", "expected_score",
            "expected_opponent_score", "expected_margin"]
records = true

[[plots]]
metric = "p_removed:target"
"""


@pytest.fixture(scope="module")
def small():
    return parse_experiment(SMALL, "small.toml")


@pytest.fixture(scope="module")
def reference(small, tmp_path_factory):
    """The uninterrupted in-process run that every other way of running must reproduce exactly."""
    out = tmp_path_factory.mktemp("reference")
    summary = run_experiment(small, out, progress=False)
    assert summary.complete and summary.computed == small.n_chunks(20) == 7
    return open_results(out), open_records(out)


def _assert_same(out: Path, reference) -> None:
    ds, records = reference
    xr.testing.assert_identical(open_results(out), ds)
    got = open_records(out)
    assert got.equals(records)


def test_results_are_self_describing(small, reference, tmp_path):
    ds, records = reference
    assert ds.attrs["experiment"] == SMALL
    assert ds.attrs["seed"] == "11" and "Philox" in ds.attrs["rng"]
    assert ds.attrs["package_version"]
    assert set(ds.dims) == {"speed", "direction", "value", "board_disc"}
    assert ds["speed"].attrs["units"] == "m/s" and ds["direction"].attrs["units"] == "deg"
    assert int(ds["shots"].sum() + ds["failed"].sum()) == small.n_shots
    assert len(records) == small.n_shots
    # The grid agrees with the per-shot records it was reduced from.
    ok = records[records["ok"]]
    mean = ok.groupby(["grid_speed", "grid_direction"])["value"].mean()
    for (speed, direction), value in mean.items():
        assert float(ds["expected_value"].sel(speed=speed, direction=direction)) == pytest.approx(value)
    np.testing.assert_allclose(ds["p_value"].sum("value").values, 1.0)
    margin = ds["expected_score"] - ds["expected_opponent_score"]
    np.testing.assert_allclose(ds["expected_margin"].values, margin.values)
    # Fast shots down the middle knock the target out at least sometimes.
    assert float(ds["p_removed"].sel(board_disc="target").max()) > 0.0


@pytest.mark.parametrize("chunk_size", [1, 7, 50, 10_000])
def test_chunk_size_does_not_change_results(small, reference, tmp_path, chunk_size):
    run_experiment(small, tmp_path, chunk_size=chunk_size, progress=False)
    _assert_same(tmp_path, reference)


def test_local_worker_processes_give_identical_results(small, reference, tmp_path):
    summary = run_experiment(small, tmp_path, workers=2, progress=False)
    assert summary.complete and summary.computed == 7
    _assert_same(tmp_path, reference)


def test_dask_local_cluster_gives_identical_results(small, reference, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        summary = run_experiment(small, tmp_path, dask=client, chunk_size=13, progress=False)
    assert summary.complete and summary.n_chunks == math.ceil(small.n_shots / 13)
    _assert_same(tmp_path, reference)


def test_interrupted_run_resumes_to_identical_results(small, reference, tmp_path):
    first = run_experiment(small, tmp_path, progress=False, stop_after=3)
    assert not first.complete and first.computed == 3
    results = ResultsDir(tmp_path)
    assert sorted(p.name for p in results.chunks.glob("chunk-*.npz")) == [f"chunk-{k:08d}.npz" for k in range(3)]
    assert not results.grid_path.exists()
    # Debris of a worker killed mid-write: a temporary file and a truncated chunk file.
    (results.chunks / ".chunk-00000003.npz.abc.tmp").write_bytes(b"partial")
    results.chunk_path(4).write_bytes(b"PK\x03\x04 truncated")
    finished_before = {k: results.chunk_path(k).stat().st_mtime_ns for k in range(3)}

    second = run_experiment(small, tmp_path, resume=True, progress=False)
    assert second.complete and second.reused == 3 and second.computed == 4
    assert {k: results.chunk_path(k).stat().st_mtime_ns for k in range(3)} == finished_before  # none repeated
    _assert_same(tmp_path, reference)

    again = run_experiment(small, tmp_path, resume=True, progress=False)
    assert again.computed == 0 and again.reused == 7
    _assert_same(tmp_path, reference)


def test_resume_refuses_results_of_another_experiment_or_layout(small, tmp_path):
    run_experiment(small, tmp_path, progress=False, stop_after=1)
    other = parse_experiment(SMALL.replace("seed = 11", "seed = 12"), "small.toml")
    with pytest.raises(ExperimentError, match="different experiment"):
        run_experiment(other, tmp_path, resume=True, progress=False)
    with pytest.raises(ExperimentError, match="chunk size 5: the run there used 20"):
        run_experiment(small, tmp_path, resume=True, chunk_size=5, progress=False)
    # A fresh run (no --resume) starts over in the same folder.
    summary = run_experiment(other, tmp_path, progress=False)
    assert summary.complete and summary.reused == 0


def test_straight_draws_match_the_closed_form_stop_and_the_judge(tmp_path):
    """Oracle: on a bare court a straight shot stops at v^2 / (2 mu g) (docs/design.md, 3. Physics model);
    judge it there."""
    from shuffle_sim.court import load_court
    from shuffle_sim.judging import judge_batch

    text = """
name = "straight"
court = "deck"
samples = 3
[shot]
start = ["0 in", "7 ft"]
direction = 0.0
[grid]
start_x = ["0 ft", "0.9 ft"]
speed = { from = 1.40, to = 2.10, steps = 71 }
[collect]
outcomes = ["expected_value", "p_dead"]
"""
    exp = parse_experiment(text, "straight.toml")
    run_experiment(exp, tmp_path, progress=False)
    ds = open_results(tmp_path)
    court = load_court("deck")
    mu, g = court.params["mu"], court.params["gravity"]
    checked = 0
    for x in ds["start_x"].values:
        for speed in ds["speed"].values:
            y = 7 * 0.3048 + speed**2 / (2 * mu * g)
            near = judge_batch(court, [x] * 3, [y - 2e-3, y, y + 2e-3])
            if y > 51 * 0.3048 or len(set(near.value.tolist())) != 1 or len(set(near.dead.tolist())) != 1:
                continue  # within 2 mm of a line or near the backstop: not a fair comparison
            cell = dict(start_x=x, speed=speed)
            assert float(ds["expected_value"].sel(cell)) == near.value[1], cell
            assert float(ds["p_dead"].sel(cell)) == float(near.dead[1]), cell
            checked += 1
    assert checked > 100
    assert set(ds["expected_value"].values.ravel().tolist()) >= {0.0, 7.0, 8.0, 10.0, -10.0}


def test_cli_run_and_plot(tmp_path, capsys):
    from shuffle_sim.cli import main

    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "small: 132 shots in 7 chunks (7 computed, 0 reused)" in printed
    assert f"results: {out / 'grid.nc'} and {out / 'shots.parquet'}" in printed
    assert (out / "p_removed-target.png").is_file()
    for name in ("experiment.toml", "court.toml", "manifest.json"):
        assert (out / name).is_file()

    assert main(["plot", str(out), "--metric", "p_value:10", "--metric", "expected_margin"]) == 0
    assert (out / "p_value-10.png").is_file() and (out / "expected_margin.png").is_file()
    capsys.readouterr()
    assert main(["plot", str(out), "--metric", "p_value:11"]) == 2
    assert "no value '11'" in capsys.readouterr().err
    assert main(["plot", str(tmp_path / "nowhere")]) == 2
    assert "no results here" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["run", str(path), "--workers", "0"])
    assert exit_info.value.code == 2
    assert "expected a positive integer, got '0'" in capsys.readouterr().err


def test_sampled_starts_off_the_surface_are_counted_as_failed_not_fatal(tmp_path):
    """Start noise near the edge (or a start axis reaching past it) sends some starts off the court:
    those shots are not played and count in their cell's ``failed``, and the run goes on."""
    text = """
name = "edge"
court = "deck"
seed = 5
samples = 40
chunk_size = 64
[shot]
start = ["0 ft", "7.25 ft"]
direction = 0.0
[grid]
start_x = ["0 ft", "2.9 ft", "3.5 ft"]
speed = [2.0, 2.2]
[noise]
start = "1 in"
[collect]
outcomes = ["expected_value"]
records = true
"""
    exp = parse_experiment(text, "edge.toml")
    summary = run_experiment(exp, tmp_path, progress=False)
    ds = open_results(tmp_path)
    records = open_records(tmp_path)
    shots = ds["shots"].values
    failed = ds["failed"].values
    np.testing.assert_array_equal(shots + failed, 40)
    assert summary.failed == failed.sum()
    assert failed[0].sum() == 0  # from the centre line every start is on the court
    assert failed[1].min() > 0 and failed[1].max() < 40  # 2.9 ft: an inch from the 3 ft edge, some fall off
    assert (failed[2] == 40).all() and np.isnan(ds["expected_value"].values[2]).all()  # 3.5 ft: all off
    half_width = 3 * 0.3048
    off = np.abs(records["start_x"].to_numpy()) > half_width
    np.testing.assert_array_equal(~records["played"].to_numpy(), off)
    assert not records["ok"].to_numpy()[off].any()


def test_ricochet_experiments_score_only_the_half_opposite_the_start(tmp_path):
    """Seed 004: a weight "bounces off the back bumper onto the other side of the table playing surface";
    one that comes to rest "before entering the scoring surface area" is removed. Straight slides that
    stop short of the bumper rest on the half they started from: dead, worth nothing, from either half;
    banks onto the other half score."""
    text = """
name = "ricochet-straight"
court = "ricochet"
samples = 2
[shot]
start = ["7.5 in", "1.1 in"]
direction = 0.0
[grid]
start_x = ["-7.5 in", "7.5 in"]
speed = { from = 0.45, to = 0.75, steps = 7 }
[collect]
outcomes = ["expected_value", "p_dead"]
"""
    exp = parse_experiment(text, "ricochet-straight.toml")
    run_experiment(exp, tmp_path, progress=False)
    ds = open_results(tmp_path)
    assert (ds["expected_value"].values == 0.0).all() and (ds["p_dead"].values == 1.0).all()
    bank = (
        text.replace("ricochet-straight", "ricochet-bank")
        .replace("direction = 0.0", "")
        .replace(
            'start_x = ["-7.5 in", "7.5 in"]\nspeed = { from = 0.45, to = 0.75, steps = 7 }',
            "speed = { from = 2.0, to = 3.6, steps = 17 }\ndirection = { from = -14.0, to = -1.0, steps = 14 }",
        )
    )
    exp = parse_experiment(bank, "ricochet-bank.toml")
    run_experiment(exp, tmp_path / "bank", progress=False)
    ds = open_results(tmp_path / "bank")
    assert ds["expected_value"].values.max() > 0.0
