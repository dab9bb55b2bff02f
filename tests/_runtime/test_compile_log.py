"""numba's compile events, per function: nested compiles, own seconds, and the log a process writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from numba import njit

from shuffle_sim._runtime.compile_log import ENV_LOG, CompileLog, read_logs

ROOT = Path(__file__).resolve().parents[2]


def test_a_kernel_s_callees_nest_in_its_compile_and_its_own_seconds_leave_them_out():
    @njit
    def callee(x):
        return x + 1

    @njit
    def caller(x):
        return callee(x) * 2

    log = CompileLog().install()
    caller(1.0)
    caller(2)  # another signature: compiled again, both functions
    by_name: dict[str, list] = {}
    for c in log.compilations:
        by_name.setdefault(c.function.rsplit(".", 1)[-1], []).append(c)
    assert len(by_name["caller"]) == 2 and len(by_name["callee"]) == 2
    assert {c.signature for c in by_name["caller"]} == {"(float64)", "(int64)"}
    assert all(c.parent is None for c in by_name["caller"])
    assert all(c.parent.endswith("caller") for c in by_name["callee"])
    for outer in by_name["caller"]:
        assert outer.own_seconds <= outer.seconds and outer.own_cpu_seconds <= outer.cpu_seconds
    summary = log.summary()
    assert summary["count"] == len(log.compilations)
    assert summary["seconds"] == round(sum(c.seconds for c in by_name["caller"]), 3)


def test_a_command_writes_its_log_when_the_variable_names_a_folder(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{ENV_LOG: str(tmp_path / "logs")})
    code = "from numba import njit\nfrom shuffle_sim.cli import main\nmain(['courts'])\nnjit(lambda x: x)(1)"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (log,) = read_logs(tmp_path / "logs")
    assert log["pid"] > 0 and log["count"] == 1 and json.dumps(log)
