"""A command that compiles says so once, with the time it expects; one that does not says nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shuffle_sim._runtime import compile_notice

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)


def test_the_first_compile_is_said_once_and_no_compile_says_nothing():
    watch = (
        "from numba import njit\nfrom shuffle_sim._runtime import compile_notice\ncompile_notice.watch('k', 'cmd')\n"
    )
    compiled = _python(watch + "njit(lambda x: x + 1)(1)\nnjit(lambda x: x - 1)(1.0)\ncompile_notice.finish()")
    assert compiled.returncode == 0, compiled.stderr
    lines = [line for line in compiled.stderr.splitlines() if line.strip()]
    assert lines == [f"cmd: {compile_notice.COMPILING} ({compile_notice.AHEAD})"]  # no record for key 'k'
    quiet = _python(watch + "compile_notice.finish()")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_the_expected_time_leaves_out_what_the_cache_or_this_process_holds(monkeypatch):
    from shuffle_sim.court import load_court
    from shuffle_sim.judging.packing import judge_arrays
    from shuffle_sim.judging.procedure import judge_prepare

    judge_prepare(judge_arrays(load_court("deck")))
    record = {
        "shuffle_sim.judging.procedure.judge_prepare": 2.0,  # compiled here or cached: left out
        "shuffle_sim.judging.procedure.no_such_kernel": 3.0,  # not found: still to compile
        "shuffle_sim.no_such_module.kernel": 4.0,
    }
    monkeypatch.setattr(compile_notice, "recorded_seconds", lambda: {"key": record})
    assert compile_notice.expected("key") == {
        "shuffle_sim.judging.procedure.no_such_kernel": 3.0,
        "shuffle_sim.no_such_module.kernel": 4.0,
    }
    assert compile_notice.expected("another key") == {} and compile_notice.expected(None) == {}


@pytest.mark.parametrize("key", sorted(compile_notice.recorded_seconds()))
def test_every_recorded_command_names_kernels_that_exist(key):
    """The record is current with the package: most of each command's seconds are in kernels found
    under their recorded names (``shuffle-sim bench-startup --first-use --record`` renews it)."""
    record = compile_notice.recorded_seconds()[key]
    found = sum(s for name, s in record.items() if compile_notice._dispatcher(name) is not None)
    assert found >= 0.5 * sum(record.values()), key
