"""Benchmark of batch experiments: ``shuffle-sim bench-experiments [--json]``.

Measured after JIT warm-up, wall-clock time, on this machine:

1. a one-million-shot deck draw heatmap on an empty court (``experiments/deck-draw.toml``), results
   and plots written; goal: at most 3 s on 2 cores;
2. a one-million-shot deck take-out against seven resting discs (``experiments/deck-takeout.toml``
   with more samples per cell), results and plots written; goal: at most 5 s;
3. the same CPU-bound take-out sweep on a Dask ``LocalCluster`` with 1 and with 2 worker processes of
   one thread each (one numba thread per task); goal: 2 workers at least 1.6 times as fast as 1.
   The sweep (4,003,200 shots in chunks of 65,536: about 9 s on one worker) is sized so that the
   computing outweighs Dask's fixed costs (scheduling, moving results, assembling the grid: about
   0.3 s with one worker and 0.9 s with two, whose scheduler shares the two cores). Half as many
   shots in half-size chunks, about 4 s of computing, gave only 1.4 to 1.5 times. Each cluster
   runs the sweep twice and the better time counts.
4. ``runner_ratio``: a ten-million-shot deck draw through the runner in this process, in shots per
   second, over the kernel's single-shot batch rate on like shots (spin-free, as the deck draw's
   are) measured in this process just before and after, each side the best of three
   (``bench.startup.runner_ratio``); goal: at least 0.5.

It prints the measured numbers and ratios; it asserts nothing (timings are not tests).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shuffle_sim.experiment import RunSummary

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"
GOALS = {"deck_draw_seconds": 3.0, "takeout_seconds": 5.0, "dask_speedup": 1.6, "runner_ratio": 0.5}


def _variant(name: str, samples: int, chunk_size: int | None = None):
    """An experiment file of ``experiments/`` with another number of samples per grid cell."""
    from shuffle_sim.experiment.spec import parse_experiment

    path = EXPERIMENTS / f"{name}.toml"
    text = re.sub(r"(?m)^samples = \d+", f"samples = {samples}", path.read_text())
    if chunk_size is not None:
        text = re.sub(r"(?m)^samples = ", f"chunk_size = {chunk_size}\nsamples = ", text, count=1)
    return parse_experiment(text, str(path), base_dir=path.parent)


def _timed_run(experiment, out: Path, plots: bool = True, **kwargs) -> tuple[float, RunSummary]:
    from shuffle_sim.experiment import run_experiment
    from shuffle_sim.experiment.heatmaps import save_plots

    began = time.perf_counter()
    summary = run_experiment(experiment, out, progress=False, **kwargs)
    if plots:
        save_plots(summary.out)
    return time.perf_counter() - began, summary


def _dask_time(experiment, workers: int, out: Path, warm, repeats: int) -> float:
    """Best wall time of ``repeats`` runs of ``experiment`` on a new ``LocalCluster`` of ``workers``
    one-thread workers (the best, as for every rate here: the machine is shared and noisy)."""
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        # Warm-up: every worker loads the compiled kernels before the clock starts.
        _timed_run(warm, out / "warm", plots=False, dask=client)
        return min(_timed_run(experiment, out / f"sweep-{k}", plots=False, dask=client)[0] for k in range(repeats))


def run_benchmarks(as_json: bool = False, quick: bool = False) -> dict:
    """Run the three benchmarks and print their numbers (``quick``: tiny sizes, a smoke run only)."""
    scale = 50 if quick else 1
    draw = _variant("deck-draw", max(1, 100 // scale))  # 100 x 100 cells x 100 samples = 1,000,000 shots
    takeout = _variant("deck-takeout", max(1, 278 // scale))  # 60 x 60 cells x 278 samples = 1,000,800 shots
    sweep = _variant("deck-takeout", max(1, 1112 // scale), chunk_size=65536)  # 4,003,200 shots
    warm_draw = _variant("deck-draw", 1)
    warm_takeout = _variant("deck-takeout", 1)

    results: dict = {"cores": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="shuffle-sim-bench-") as tmp_name:
        tmp = Path(tmp_name)
        _timed_run(warm_draw, tmp / "warm-draw")  # JIT compile (or load the cache) and import everything
        _timed_run(warm_takeout, tmp / "warm-takeout")

        seconds, summary = _timed_run(draw, tmp / "draw")
        results["deck_draw_shots"] = summary.n_shots
        results["deck_draw_seconds"] = round(seconds, 3)
        seconds, summary = _timed_run(takeout, tmp / "takeout")
        results["takeout_shots"] = summary.n_shots
        results["takeout_seconds"] = round(seconds, 3)

        results["dask_sweep_shots"] = sweep.n_shots
        repeats = 1 if quick else 2
        one = _dask_time(sweep, 1, tmp / "dask1", warm_takeout, repeats)
        two = _dask_time(sweep, 2, tmp / "dask2", warm_takeout, repeats)
        results["dask_1_worker_seconds"] = round(one, 3)
        results["dask_2_workers_seconds"] = round(two, 3)
        results["dask_speedup"] = round(one / two, 3)

    from shuffle_sim.bench.startup import runner_ratio

    runner = runner_ratio(max(1, 1000 // scale), 20_000 if quick else 2_000_000, 1 if quick else 3)
    results.update({k: round(v, 4) if isinstance(v, float) else v for k, v in runner.items()})

    results["goals"] = GOALS
    results["met"] = {
        "deck_draw_seconds": results["deck_draw_seconds"] <= GOALS["deck_draw_seconds"],
        "takeout_seconds": results["takeout_seconds"] <= GOALS["takeout_seconds"],
        "dask_speedup": results["dask_speedup"] >= GOALS["dask_speedup"],
        "runner_ratio": results["runner_ratio"] >= GOALS["runner_ratio"],
    }
    if quick:
        results["note"] = "quick smoke run with 1/50 of the sizes: not the benchmark"
    if as_json:
        print(json.dumps(results, indent=2))
    else:
        _print_results(results, quick, one, two)
    return results


def _print_results(results: dict, quick: bool, one: float, two: float) -> None:
    """The benchmarks' numbers as lines, each beside its goal (``one``, ``two``: the Dask sweep's
    seconds on one and two workers)."""

    def line(label, key, goal, shown=None):
        """The result ``key`` (as ``shown``, else as it is) beside its goal and whether it was met."""
        value = results[key] if shown is None else shown
        print(f"{label:58s} {value:>10} (goal {goal}) {'ok' if results['met'][key] else 'MISSED'}")

    print(f"batch experiment benchmark on {results['cores']} cores" + (" (QUICK: not the benchmark)" if quick else ""))
    line(f"deck draw, {results['deck_draw_shots']:,} shots, results + plots (s)", "deck_draw_seconds", "<= 3 s")
    line(f"take-out vs 7 discs, {results['takeout_shots']:,} shots, results + plots (s)", "takeout_seconds", "<= 5 s")
    print(
        f"{'Dask LocalCluster sweep, ' + format(results['dask_sweep_shots'], ',') + ' shots:':58s} "
        f"1 worker {one:.3f} s, 2 workers {two:.3f} s"
    )
    line("Dask speed-up, 2 workers / 1 worker", "dask_speedup", ">= 1.6x", f"{results['dask_speedup']:.2f}x")
    line(f"runner / kernel single-shot batch rate ({results['runner_shots']:,} shots)", "runner_ratio", ">= 0.5")
    print(
        f"deck draw: {results['deck_draw_shots'] / results['deck_draw_seconds']:,.0f} shots/s; "
        f"take-out: {results['takeout_shots'] / results['takeout_seconds']:,.0f} shots/s"
    )
