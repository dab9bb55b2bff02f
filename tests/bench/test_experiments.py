"""``shuffle-sim bench-experiments --quick``: a smoke run of the experiments benchmark (its numbers are
not checked here: timings are benchmarks, not tests)."""

import json
import math

import pytest

from shuffle_sim.bench.experiments import GOALS
from shuffle_sim.cli import main


@pytest.mark.slow
def test_quick_run_prints_every_measurement_and_its_goal(capsys):
    assert main(["bench-experiments", "--quick", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert results["deck_draw_shots"] == 100 * 100 * 2 and results["takeout_shots"] == 60 * 60 * 5
    assert results["dask_sweep_shots"] == 60 * 60 * (1112 // 50)
    assert results["runner_shots"] == 100 * 100 * (1000 // 50)
    for key in (
        "deck_draw_seconds",
        "takeout_seconds",
        "dask_1_worker_seconds",
        "dask_2_workers_seconds",
        "runner_ratio",
        "runner_per_s",
        "kernel_single_shot_per_s",
    ):
        assert math.isfinite(results[key]) and results[key] > 0
    assert results["dask_speedup"] == pytest.approx(
        results["dask_1_worker_seconds"] / results["dask_2_workers_seconds"], rel=1e-2
    )
    assert results["goals"] == GOALS and set(results["met"]) == set(GOALS)
    assert "not the benchmark" in results["note"]
