"""The compile helper: when it starts, that a command waits for what it is compiling, and that the
kernels load what it compiled, unchanged."""

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

#: The grade of the JIT probe's deck court whose ``simulate`` carries out each plan: none (flat), or
#: one the integrated law runs.
SIMULATE_PLANS = {"simulate_flat": None, "simulate_sloped": (0.0005, 0.0002)}

_F2 = "float64[:, ::1]"
#: A kernel named by its signature's text, as the helper's command line names one.
_DISC_STATE = "shuffle_sim.physics.laws.closed_form.disc_state"
STATE_AT = Callee(_DISC_STATE, "state_at", f"({_F2}, {_F2}, {_F2}, int64[:, ::1], int64, float64)")


def _rest_state_hex(result) -> list[str]:
    """The kernel's result, bit for bit: positions, spins and the end time."""
    return [float(v).hex() for v in np.concatenate([result.x, result.y, result.omega, [result.t_end]])]


def test_a_callee_s_spec_round_trips_with_the_colons_of_its_signature_and_names_every_argument():
    assert Callee.from_spec(STATE_AT.spec) == STATE_AT
    assert len(STATE_AT.argument_types()) == STATE_AT.dispatcher().py_func.__code__.co_argcount
    recorded = compile_ahead.plan("simulate_flat")[-1]
    assert recorded.name == "state_at" and recorded.argument_types() == STATE_AT.argument_types()


@pytest.fixture
def no_helper_yet(monkeypatch):
    """A process that has started no helper and considered no plan (this session's own compiles may
    have), on a machine with a core to spare."""
    monkeypatch.setattr(compile_ahead, "_started", [])
    monkeypatch.setattr(compile_ahead, "_planned", set())
    monkeypatch.setattr(compile_ahead, "core_to_spare", lambda: True)
    monkeypatch.delenv(compile_ahead.ENV_SWITCH, raising=False)


def test_one_helper_runs_at_a_time_and_a_plan_is_considered_once(monkeypatch, no_helper_yet):
    launched = []

    class RunningProcess:
        def __init__(self, argv, **kwargs):
            launched.append(argv[-1])

        def poll(self):
            return None  # still compiling

    monkeypatch.setattr(compile_ahead, "needs_compiling", lambda callee: True)
    monkeypatch.setattr(compile_ahead, "await_plan", lambda process, callees: None)
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", RunningProcess)
    assert compile_ahead.start_plan("simulate_flat") is not None
    assert compile_ahead.start_plan("advise_deck") is None  # the first still runs
    compile_ahead._started.clear()
    assert compile_ahead.start_plan("simulate_flat") is None  # once per process
    assert compile_ahead.start_plan("advise_deck") is None
    assert compile_ahead.start_plan("play_deck") is not None
    assert launched == ["@simulate_flat", "@play_deck"]


def test_a_helper_that_cannot_start_is_no_helper(monkeypatch, no_helper_yet):
    def refuse(*args, **kwargs):
        raise OSError("no processes left")

    monkeypatch.setattr(compile_ahead, "needs_compiling", lambda callee: True)
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", refuse)
    assert compile_ahead.start_plan("simulate_flat") is None


def test_a_function_compiled_in_this_process_needs_no_compiling():
    from shuffle_sim.physics import simulate

    simulate(jit_probe_scene())
    assert not any(compile_ahead.needs_compiling(c) for c in compile_ahead.plan("simulate_flat"))


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(SIMULATE_PLANS))
def test_simulate_s_kernel_loads_every_kernel_the_helper_compiled_and_runs_the_same(tmp_path, key):
    """Under either motion law, with the helper run to its end first (alone, so no race, and compiling
    what beside a command it would wait for), simulate's kernel compiles none of the planned kernels
    (each is loaded from the cache, or a caller of it is), and the result is bit-identical to this
    process's. A whole compile from an empty cache: about 15 s on the flat court, a minute or two on
    the graded one."""
    from shuffle_sim.physics import simulate

    slope = SIMULATE_PLANS[key]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    env[compile_ahead.ENV_SWITCH] = "0"
    helper = subprocess.run(
        [sys.executable, "-m", "shuffle_sim._runtime.compile_ahead", f"@{key}"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert helper.returncode == 0, helper.stderr
    probe = f"""
import json
from shuffle_sim.bench.physics import jit_probe_scene
from shuffle_sim._runtime.compile_ahead import needs_compiling, plan
from shuffle_sim.physics import simulate
planned = [c for c in plan({key!r}) if c.module.startswith("shuffle_sim.physics")]
report = {{"cold": [needs_compiling(c) for c in planned]}}
result = simulate(jit_probe_scene({slope!r}))
stats = [c.dispatcher().stats for c in planned]
report["hits"] = [sum(s.cache_hits.values()) for s in stats]
report["misses"] = [sum(s.cache_misses.values()) for s in stats]
report["state"] = [float(v).hex() for v in [*result.x, *result.y, *result.omega, result.t_end]]
print(json.dumps(report))
"""
    run = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    n = len(report["cold"])
    assert n >= 4
    assert report["cold"] == [False] * n
    assert report["misses"] == [0] * n  # none compiled here: each loaded, or its caller was
    assert report["hits"][-1] == 1
    assert report["state"] == _rest_state_hex(simulate(jit_probe_scene(slope)))


def test_every_recorded_plan_holds_its_command_s_kernels_in_order_with_every_argument():
    """The plans the commands start their helper on (``compile_plans.json``) are current with the
    benchmark's list of kernels (``bench.first_use.PLANS``), and every function is still found and its
    recorded types are one per argument."""
    from shuffle_sim.bench.first_use import PLANS

    assert set(compile_ahead.recorded_plans()) == set(PLANS)
    for key, functions in PLANS.items():
        callees = compile_ahead.plan(key)
        assert list(dict.fromkeys(f"{c.module}.{c.name}" for c in callees)) == list(functions), key
        for callee in callees:
            assert len(callee.argument_types()) == callee.dispatcher().py_func.__code__.co_argcount


@pytest.mark.parametrize(
    "switch, cold, spare, starts",
    [
        ("", True, True, True),
        ("1", True, True, True),
        ("0", True, True, False),  # switched off
        ("", False, True, False),  # compiled already, or in the cache
        ("", True, False, False),  # no core to spare
    ],
)
def test_a_command_s_plan_starts_its_helper_only_when_some_of_it_is_cold_and_a_core_is_free(
    monkeypatch, no_helper_yet, switch, cold, spare, starts
):
    launched, awaited = [], []

    class FakeProcess:
        def __init__(self, argv, env, **kwargs):
            launched.append((argv, env[compile_ahead.ENV_PARENT]))

        def poll(self):
            return None

    monkeypatch.setenv(compile_ahead.ENV_SWITCH, switch)
    monkeypatch.setattr(compile_ahead, "needs_compiling", lambda callee: cold and callee.name == "state_at")
    monkeypatch.setattr(compile_ahead, "core_to_spare", lambda: spare)
    monkeypatch.setattr(compile_ahead, "await_plan", lambda process, callees: awaited.append(callees))
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", FakeProcess)
    before = compile_ahead.helpers_started()
    process = compile_ahead.start_plan("simulate_flat")
    assert (process is not None) is starts
    assert compile_ahead.helpers_started() == before + starts
    if starts:
        module = "shuffle_sim._runtime.compile_ahead"
        assert launched == [([sys.executable, "-P", "-m", module, "@simulate_flat"], str(os.getpid()))]
        assert [[c.name for c in callees] for callees in awaited] == [["state_at"]]  # only what is still cold
    else:
        assert launched == [] and awaited == []


def test_a_plan_leaves_out_a_kernel_no_longer_found_and_the_helper_waits_only_beside_a_command(monkeypatch, tmp_path):
    plans = tmp_path / "plans.json"
    found = {"function": "shuffle_sim.physics.laws.closed_form.disc_state.state_at", "args": ["int64"]}
    gone = {"function": "shuffle_sim.physics.no_such_module.kernel", "args": ["int64"]}
    waited = {"function": "shuffle_sim.physics.laws.closed_form.impacts.disc_disc_impact", "args": [], "wait": True}
    plans.write_text(json.dumps({"keys": {"k": [gone, found, waited]}}))
    monkeypatch.setattr(compile_ahead, "PLANS_FILE", plans)
    assert [c.name for c in compile_ahead.plan("k")] == ["state_at"]
    assert [c.name for c in compile_ahead.plan("k", waits=True)] == ["disc_disc_impact"]
    assert compile_ahead.plan("no such key") == []
    compiled, awaited = [], []
    monkeypatch.setattr(compile_ahead, "compile_callees", lambda callees: compiled.extend(callees))
    monkeypatch.setattr(compile_ahead, "await_plan", lambda process, callees: awaited.extend(callees))
    monkeypatch.setattr(compile_ahead.os, "nice", lambda increment: 0)  # not this test process
    monkeypatch.delenv(compile_ahead.ENV_PARENT, raising=False)
    assert compile_ahead.main(["@k", STATE_AT.spec]) == 0
    assert [c.name for c in compiled] == ["state_at", "state_at"]
    assert awaited == []  # run alone: it waits for no one
    monkeypatch.setenv(compile_ahead.ENV_PARENT, str(os.getppid()))
    assert compile_ahead.main(["@k"]) == 0
    assert [c.name for c in awaited] == ["disc_disc_impact"]  # beside its command: waits for it


_TINY_KERNELS = """
from numba import njit


@njit(cache=True)
def planned(x):
    return x + 1


@njit(cache=True)
def unplanned(x):
    return x * 2
"""


def test_a_command_waits_for_the_kernel_its_helper_is_compiling_and_loads_it_from_the_cache(tmp_path):
    """In a fresh process on an empty cache the helper is started just before the kernel is called,
    so it is still starting when this process reaches the kernel: this process waits for it and then
    loads it (a cache hit, nothing compiled here), while a kernel outside the plan is compiled here."""
    (tmp_path / "tiny_kernels.py").write_text(_TINY_KERNELS)
    probe = """
import json, time
from shuffle_sim._runtime import compile_ahead
callee = compile_ahead.Callee("tiny_kernels", "planned", "(int64,)")
process = compile_ahead._launch([callee.spec])
compile_ahead.await_plan(process, [callee])
import tiny_kernels
began = time.perf_counter()
result = tiny_kernels.planned(1), tiny_kernels.unplanned(3)
waited = time.perf_counter() - began
helper = process.wait()
stats = {name: getattr(tiny_kernels, name).stats for name in ("planned", "unplanned")}
print(json.dumps({"result": result, "helper": helper, "waited": waited,
    "hits": {n: sum(s.cache_hits.values()) for n, s in stats.items()},
    "misses": {n: sum(s.cache_misses.values()) for n, s in stats.items()}}))
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["result"] == [2, 6] and report["helper"] == 0
    assert report["hits"] == {"planned": 1, "unplanned": 0}
    assert report["misses"] == {"planned": 0, "unplanned": 1}


def test_a_command_stops_waiting_when_its_helper_ends_without_the_kernel(tmp_path):
    """A helper that fails (here: a module it cannot import) leaves this process to compile the
    kernel itself, at once."""
    (tmp_path / "tiny_kernels.py").write_text(_TINY_KERNELS)
    probe = """
import json
from shuffle_sim._runtime import compile_ahead
callee = compile_ahead.Callee("tiny_kernels", "planned", "(int64,)")
process = compile_ahead._launch(["no_such_module:planned:(int64,)"])
compile_ahead.await_plan(process, [callee])
import tiny_kernels
print(json.dumps({"result": tiny_kernels.planned(1), "helper": process.wait(),
    "misses": sum(tiny_kernels.planned.stats.cache_misses.values())}))
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report == {"result": 2, "helper": 1, "misses": 1}


@pytest.mark.slow
@pytest.mark.parametrize("key", ["simulate_flat", "simulate_sloped", "advise_deck", "play_deck", "play_crokinole"])
def test_a_command_compiles_every_kernel_of_its_plan_for_the_recorded_types(tmp_path, key):
    """The recorded plan is current: on an empty cache, the command alone (its helper switched off)
    compiles every kernel of its plan, those its helper compiles and those it waits for, for exactly
    the recorded argument types. A whole cold compile of the command: about a minute."""
    from shuffle_sim._runtime.compile_log import read_logs
    from shuffle_sim.bench.first_use import COMMANDS, write_inputs

    write_inputs(tmp_path)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), SHUFFLE_SIM_COMPILE_LOG=str(tmp_path / "logs"))
    env[compile_ahead.ENV_SWITCH] = "0"
    (command,) = [c for c in COMMANDS if c.key == key]
    argv = [a.replace("{dir}", str(tmp_path)) for a in command.args]
    run = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", *argv], env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    compiled = {(c["function"], c["signature"]) for log in read_logs(tmp_path / "logs") for c in log["compilations"]}
    planned = [*compile_ahead.plan(key), *compile_ahead.plan(key, waits=True)]
    assert planned
    assert [c.spec for c in planned if (f"{c.module}.{c.name}", c.signature) not in compiled] == []
