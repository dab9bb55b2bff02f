"""What a user waits for: lazy imports, the first-run notice, kernels compiled once, the start-up benchmark."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shuffle_sim
from shuffle_sim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_load_neither_numpy_nor_numba(flag):
    proc = _python(
        "import sys\nfrom shuffle_sim.cli import main\n"
        f"try:\n    main([{flag!r}])\nexcept SystemExit as exc:\n    assert exc.code == 0\n"
        "print(sorted(m for m in ('numpy', 'numba', 'matplotlib', 'xarray') if m in sys.modules))"
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "[]"
    if flag == "--version":
        assert lines[0] == f"shuffle-sim {shuffle_sim.__version__}"
    else:
        assert "bench-startup" in proc.stdout


def test_package_names_resolve_on_first_use_and_judge_stays_the_function():
    proc = _python(
        "import sys, shuffle_sim\nassert 'numpy' not in sys.modules\n"
        "import shuffle_sim.judging\nfrom shuffle_sim import judge, load_court, judge_batch\n"
        "assert callable(judge) and judge is shuffle_sim.judge and judge.__module__.startswith('shuffle_sim.judging')\n"
        "print(judge(load_court('deck'), 0.0, 11.1)['value'])"
    )
    assert proc.returncode == 0, proc.stderr
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        shuffle_sim.nope  # noqa: B018


# ---- the plain-Python point-in-outline test matches the numba one --------------------------------


def _outlines():
    from shuffle_sim.court import list_courts, load_court

    return [
        np.ascontiguousarray(c.surface_polygon, dtype=np.float64)
        for c in map(load_court, list_courts())
        if c.surface_kind != "circle"
    ]


OUTLINES = _outlines()


@settings(max_examples=300, deadline=None)
@given(
    k=st.integers(0, len(OUTLINES) - 1),
    vertex=st.integers(0, 1000),
    t=st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    dx=st.sampled_from([0.0, 1e-12, -1e-12, 0.01, -0.3]),
    dy=st.sampled_from([0.0, 1e-12, -1e-12, 0.02, -0.5]),
)
def test_plain_python_outline_test_matches_the_numba_kernel(k, vertex, t, dx, dy):
    from shuffle_sim.court.geometry import point_in_polygon_or_on_boundary
    from shuffle_sim.court.model import _point_in_polygon

    poly = OUTLINES[k]
    a = poly[vertex % len(poly)]
    b = poly[(vertex + 1) % len(poly)]
    x = float(a[0] + t * (b[0] - a[0]) + dx)
    y = float(a[1] + t * (b[1] - a[1]) + dy)
    assert _point_in_polygon(x, y, poly) == bool(point_in_polygon_or_on_boundary(x, y, poly))


# ---- first run: the notice, and one compiled version of the chunk kernel --------------------------

TINY = """
name = "tiny"
court = "deck"
seed = 3
samples = 5
chunk_size = 40

[shot]
start = ["9 in", "7.25 ft"]
team = "yellow"

[grid]
speed = { from = 1.6, to = 1.9, steps = 4 }
direction = [-1.6, -1.3]

[noise]
preset = "average"
"""


def test_a_compiling_run_says_so_and_shows_no_rate_until_its_first_chunk(tmp_path, monkeypatch, capsys):
    from shuffle_sim._runtime import compile_notice
    from shuffle_sim.experiment import _warmup as kernel_warmup
    from shuffle_sim.experiment._runner import run_experiment
    from shuffle_sim.experiment.spec import parse_experiment

    monkeypatch.setattr(kernel_warmup, "kernels_cached", lambda dispatchers: False)  # as on an empty cache
    monkeypatch.setattr(compile_notice, "_notice", compile_notice._Notice())  # this process has said nothing yet
    run_experiment(parse_experiment(TINY), tmp_path / "cold", progress=True)
    err = capsys.readouterr().err
    notices = [part for part in err.replace("\r", "\n").splitlines() if compile_notice.COMPILING in part]
    assert len(notices) == 1 and notices[0].startswith("tiny: ") and not any("shot/s" in n for n in notices)
    monkeypatch.undo()
    run_experiment(parse_experiment(TINY), tmp_path / "warm", progress=True)
    assert "compiling" not in capsys.readouterr().err


def test_warm_up_reports_a_cold_cache_and_the_kernels_cached_check_reads_numba_s_index(tmp_path, monkeypatch):
    from numba import njit

    from shuffle_sim.experiment import _warmup as kernel_warmup
    from shuffle_sim.experiment._chunks import compute_chunk
    from shuffle_sim.experiment._lone_chunk import play_lone_blocks, sum_lone_rows
    from shuffle_sim.experiment.spec import parse_experiment

    experiment = parse_experiment(TINY)
    kernel_warmup.warm_up(experiment, 40, compute_chunk)
    assert kernel_warmup.kernels_cached([play_lone_blocks, sum_lone_rows])  # after a warm-up, numba's cache holds them
    assert kernel_warmup.warm_up(experiment, 40, compute_chunk) is None  # and a second one finds it there
    assert not kernel_warmup.kernels_cached([njit(lambda x: x + 1)])  # nothing cached for an uncached function
    monkeypatch.setattr(kernel_warmup, "kernels_cached", lambda dispatchers: False)
    seconds = kernel_warmup.warm_up(experiment, 40, compute_chunk)
    assert seconds is not None and seconds > 0


def test_the_helper_compiles_the_chunk_kernel_for_the_run_s_own_argument_types():
    # In a fresh process: the stand-in arguments of the helper, then a real chunk; one compiled version.
    proc = _python(
        "from shuffle_sim.experiment._plan import shot_plan\n"
        "from shuffle_sim.experiment._runner import compute_chunk\n"
        "from shuffle_sim.experiment._lone_chunk import compile_lone_kernel, play_lone_blocks, sum_lone_rows\n"
        "from shuffle_sim.experiment.spec import parse_experiment\n"
        f"e = parse_experiment({TINY!r})\n"
        "compile_lone_kernel(e, shot_plan)\ncompute_chunk(e, 0, 40)\n"
        "print(len(play_lone_blocks.signatures), len(sum_lone_rows.signatures))"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "1 1"


@pytest.mark.slow
def test_bench_startup_quick_prints_every_figure_and_its_goal(capsys):
    from shuffle_sim.bench.startup import GOALS

    assert main(["bench-startup", "--quick", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    for key in (
        "warm_ratio",
        "runner_ratio",
        "version_seconds",
        "help_seconds",
        "plots_seconds",
        "warm_job_seconds",
        "bare_import_seconds",
        "runner_per_s",
        "kernel_single_shot_per_s",
    ):
        assert math.isfinite(results[key]) and results[key] > 0, key
    assert results["runner_ratio"] == pytest.approx(  # the report rounds ratios to four decimals
        results["runner_per_s"] / results["kernel_single_shot_per_s"], rel=1e-3, abs=5e-5
    )
    assert results["cold_seconds"] is None and results["cold_ratio"] is None and results["met"]["cold_ratio"] is None
    assert results["kernel_shots_with_spin"] is False  # the deck draw's shots have none: like with like
    assert results["goals"] == GOALS and set(results["met"]) == set(GOALS)
    assert "not the benchmark" in results["note"]


@pytest.mark.parametrize(
    "change, spin",
    [("", False), ("speed = 0.025\ndirection = 0.5\nspin = 0.5\n", True), ("[shot]\nspin = 0.1\n", True)],
)
def test_the_runner_is_compared_with_kernel_shots_that_have_spin_only_if_its_shots_do(change, spin):
    """The deck draw's average player has no spin errors: its shots take the kernel's spin-free path."""
    from shuffle_sim.bench.startup import MAIN_JOB, carries_spin
    from shuffle_sim.experiment.spec import parse_experiment

    text = MAIN_JOB.read_text()
    if change.startswith("[shot]"):
        text = text.replace("spin = 0.0\n", change[len("[shot]\n") :])
    elif change:
        text = text.replace('preset = "average"\n', change)
    assert carries_spin(parse_experiment(text, str(MAIN_JOB), base_dir=MAIN_JOB.parent)) is spin
