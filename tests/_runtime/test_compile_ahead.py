"""The compile helper: when it starts, and that simulate's kernel loads what it compiled, unchanged."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from shuffle_sim._runtime import compile_ahead
from shuffle_sim._runtime.compile_ahead import Callee
from shuffle_sim.bench.physics import jit_probe_scene
from shuffle_sim.physics.loop import (
    RUN_CURVED_FROM_START,
    RUN_CURVED_FROM_START_SHARED,
    RUN_FROM_START,
    RUN_FROM_START_SHARED,
)

#: Each motion law's helper lists (``physics.loop``), and the grade of the JIT probe's deck court whose
#: ``simulate`` compiles them: none (flat), or one the integrated law runs.
HELPERS = {
    "flat": ("RUN_FROM_START", "RUN_FROM_START_SHARED", None),
    "curved": ("RUN_CURVED_FROM_START", "RUN_CURVED_FROM_START_SHARED", (0.0005, 0.0002)),
}


def _rest_state_hex(result) -> list[str]:
    """The kernel's result, bit for bit: positions, spins and the end time."""
    return [float(v).hex() for v in np.concatenate([result.x, result.y, result.omega, [result.t_end]])]


def test_a_callee_s_spec_round_trips_with_the_colons_of_its_signature_and_names_every_argument():
    for callee in (RUN_FROM_START, *RUN_FROM_START_SHARED, RUN_CURVED_FROM_START, *RUN_CURVED_FROM_START_SHARED):
        assert Callee.from_spec(callee.spec) == callee
        assert len(callee.argument_types()) == callee.dispatcher().py_func.__code__.co_argcount


@pytest.mark.parametrize(
    "switch, cold, spare, starts",
    [
        ("", True, True, True),
        ("0", True, True, False),  # switched off
        ("", False, True, False),  # compiled already, or in the cache
        ("", True, False, False),  # no core to spare
        ("1", True, True, True),
    ],
)
def test_the_helper_starts_only_for_a_cold_cache_with_a_core_to_spare(monkeypatch, switch, cold, spare, starts):
    launched = []

    class FakeProcess:
        def __init__(self, argv, **kwargs):
            launched.append(argv)

        def poll(self):
            return 0

    monkeypatch.setattr(compile_ahead, "_started", [])  # none running from this session's own first compile
    monkeypatch.setenv(compile_ahead.ENV_SWITCH, switch)
    monkeypatch.setattr(compile_ahead, "needs_compiling", lambda callee: cold)
    monkeypatch.setattr(compile_ahead, "core_to_spare", lambda: spare)
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", FakeProcess)
    before = compile_ahead.helpers_started()
    process = compile_ahead.start_helper(RUN_FROM_START, RUN_FROM_START_SHARED)
    assert (process is not None) is starts
    assert compile_ahead.helpers_started() == before + starts
    if starts:
        assert launched == [
            [sys.executable, "-P", "-m", "shuffle_sim._runtime.compile_ahead", *(c.spec for c in RUN_FROM_START_SHARED)]
        ]


def test_one_helper_runs_at_a_time(monkeypatch):
    class RunningProcess:
        def __init__(self, argv, **kwargs):
            pass

        def poll(self):
            return None  # still compiling

    monkeypatch.setattr(compile_ahead, "_started", [])
    monkeypatch.setattr(compile_ahead, "needs_compiling", lambda callee: True)
    monkeypatch.setattr(compile_ahead, "core_to_spare", lambda: True)
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", RunningProcess)
    assert compile_ahead.start_helper(RUN_FROM_START, RUN_FROM_START_SHARED) is not None
    assert compile_ahead.start_helper(RUN_FROM_START, RUN_FROM_START_SHARED) is None


def test_a_helper_that_cannot_start_is_no_helper(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("no processes left")

    monkeypatch.setattr(compile_ahead, "_started", [])
    monkeypatch.setattr(compile_ahead, "needs_compiling", lambda callee: True)
    monkeypatch.setattr(compile_ahead, "core_to_spare", lambda: True)
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", refuse)
    assert compile_ahead.start_helper(RUN_FROM_START, RUN_FROM_START_SHARED) is None


def test_a_function_compiled_in_this_process_needs_no_compiling():
    from shuffle_sim.physics import simulate

    simulate(jit_probe_scene())
    assert not compile_ahead.needs_compiling(RUN_FROM_START)


@pytest.mark.slow
@pytest.mark.parametrize("law", sorted(HELPERS))
def test_simulate_s_kernel_loads_every_shared_callee_the_helper_compiled_and_runs_the_same(tmp_path, law):
    """The helper's signatures are those simulate's kernel compiles, under either motion law: with the
    helper run to its end first (so no race), the kernel's compile finds each shared callee in the
    cache, and the result is bit-identical to this process's. A whole compile from an empty cache:
    about 15 s on the flat court, a minute or two on the graded one."""
    from shuffle_sim.physics import loop as engine_loop
    from shuffle_sim.physics import simulate

    entry_name, shared_name, slope = HELPERS[law]
    shared = getattr(engine_loop, shared_name)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    env[compile_ahead.ENV_SWITCH] = "0"
    helper = subprocess.run(
        [sys.executable, "-m", "shuffle_sim._runtime.compile_ahead", *(c.spec for c in shared)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert helper.returncode == 0, helper.stderr
    probe = f"""
import json
from shuffle_sim.bench.physics import jit_probe_scene
from shuffle_sim._runtime.compile_ahead import needs_compiling
from shuffle_sim.physics import simulate
from shuffle_sim.physics.loop import {entry_name} as ENTRY, {shared_name} as SHARED
scene = jit_probe_scene({slope!r})
report = {{"entry_cold": needs_compiling(ENTRY), "shared_cold": [needs_compiling(c) for c in SHARED]}}
result = simulate(scene)
stats = [c.dispatcher().stats for c in SHARED]
report["hits"] = [sum(s.cache_hits.values()) for s in stats]
report["misses"] = [sum(s.cache_misses.values()) for s in stats]
report["state"] = [float(v).hex() for v in [*result.x, *result.y, *result.omega, result.t_end]]
print(json.dumps(report))
"""
    run = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    n = len(shared)
    assert report["entry_cold"] is True
    assert report["shared_cold"] == [False] * n
    assert report["hits"] == [1] * n and report["misses"] == [0] * n
    assert report["state"] == _rest_state_hex(simulate(jit_probe_scene(slope)))
