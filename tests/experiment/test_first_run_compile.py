"""A first run's compile in two processes: each piece is compiled once, and the kernel is the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shuffle_sim._runtime.compile_ahead import Callee
from shuffle_sim.physics.laws.closed_form.lone import LONE_CALLEES

ROOT = Path(__file__).resolve().parents[2]
MAIN_JOB = ROOT / "experiments" / "deck-draw.toml"


def test_the_physics_callees_name_functions_and_every_argument():
    for callee in LONE_CALLEES:
        assert Callee.from_spec(callee.spec) == callee
        assert len(callee.argument_types()) == callee.dispatcher().py_func.__code__.co_argcount


@pytest.mark.slow
def test_the_two_processes_share_the_compile_and_the_kernel_gives_the_same_sums(tmp_path):
    """With this process's share (``compile_lone_parts``) run to its end first (so no race), the other
    process compiles only the physics's own loop and the kernel's blocks: every other function it
    needs is found in numba's cache. About 20 s: a whole compile from an empty cache."""
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    parts = (
        "from shuffle_sim.experiment.spec import load_experiment\n"
        "from shuffle_sim.experiment._lone_chunk import compile_lone_parts\n"
        "from shuffle_sim.experiment._plan import shot_plan\n"
        f"compile_lone_parts(load_experiment({str(MAIN_JOB)!r}), shot_plan)\n"
    )
    done = subprocess.run([sys.executable, "-c", parts], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    physics = f"""
import json
from numba.core import event
from shuffle_sim.experiment.spec import load_experiment
from shuffle_sim.experiment._lone_chunk import compile_lone_physics
from shuffle_sim.experiment._plan import shot_plan
from shuffle_sim.experiment._chunks import compute_chunk
experiment = load_experiment({str(MAIN_JOB)!r})
with event.install_recorder("numba:compile") as record:
    compile_lone_physics(experiment, shot_plan)
    sums = compute_chunk(experiment, 3, 4096)
compiled = sorted({{e.data["dispatcher"].py_func.__module__ + "." + e.data["dispatcher"].py_func.__qualname__
                    for _, e in record.buffer if e.is_start}})
print(json.dumps({{"compiled": [c for c in compiled if c.startswith("shuffle_sim")],
                   "sums": {{k: v.tolist() for k, v in sums.items()}}}}))
"""
    run = subprocess.run([sys.executable, "-c", physics], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["compiled"] == [
        "shuffle_sim.experiment._lone_kernels._play_block",
        "shuffle_sim.experiment._lone_kernels.play_lone_blocks",
        "shuffle_sim.physics.laws.closed_form.lone.run_lone",
    ]
    from shuffle_sim.experiment._chunks import compute_chunk
    from shuffle_sim.experiment.spec import load_experiment

    here = compute_chunk(load_experiment(MAIN_JOB), 3, 4096)
    assert sorted(here) == sorted(report["sums"])
    for name, values in report["sums"].items():
        np.testing.assert_array_equal(np.asarray(values), here[name], err_msg=name)
