"""Compile part of a command's kernels in a second process while this process compiles the rest.

numba compiles a kernel's callees one after another, each once per signature, and with ``cache=True``
keeps each in its cache under its own name and signature. The first time a command runs on an empty
cache (a new install, a changed source), ``start_plan`` starts a second Python process that compiles
the command's *plan* into the same cache: the kernels the command reaches last, with the argument
types it compiled them for on a cold run (``compile_plans.json``, written by ``shuffle-sim
bench-startup --record``; ``bench.first_use.PLANS`` names them). When this process's compile reaches
one of them, numba finds it in the cache and loads it (milliseconds) instead of compiling it again.
On a machine with a free core the two processes share the work.

A kernel the helper has not finished when this process reaches it would be compiled twice, so this
process waits for it instead (``await_plan``), as long as the helper runs. A plan may likewise name
kernels the helper waits for rather than compiles (``"wait": true``): callees of its own kernels that
this process compiles first, so that neither compiles what the other is compiling. The helper
compiles its kernels in the order this process reaches them, and waits only for kernels this
process compiles before it reaches any of the helper's later ones, so neither waits on the other at
once; a wait also ends after ``LONGEST_WAIT``, and then the kernel is compiled where it is needed.
Either way each process runs the same compiled code, so nothing but the time depends on the helper:
numba writes each cache file aside and renames it into place, so a file it reads is whole.

The helper starts once per plan and process, only when some of the plan is still to compile, a core
is free (``helper_process.core_to_spare``), and the environment variable
``SHUFFLE_SIM_COMPILE_HELPER`` is not ``0``. Run as ``python -m shuffle_sim._runtime.compile_ahead
@key`` it carries out ``key``'s plan; ``module:name:signature`` arguments name single functions.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pickle
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shuffle_sim._runtime.compile_log import install_from_environment
from shuffle_sim._runtime.helper_process import core_to_spare, module_command

#: Set to "0" to never start the helper.
ENV_SWITCH = "SHUFFLE_SIM_COMPILE_HELPER"
#: The process a helper was started beside (its process id): the one whose compiles it may wait for.
ENV_PARENT = "SHUFFLE_SIM_COMPILE_PARENT"
#: Each command's plan: {"keys": {key: [{"function": "module.qualname", "args": [types]}]}}.
PLANS_FILE = Path(__file__).with_name("compile_plans.json")
#: The longest a process waits for the other to finish one kernel (s); then it compiles it itself.
LONGEST_WAIT = 120.0
#: How often a waiting process looks for the helper's kernel in the cache (s).
POLL_SECONDS = 0.02

_started: list[subprocess.Popen] = []  # running helpers, kept to be reaped
_count = 0


@dataclass(frozen=True)
class Callee:
    """A numba function and one signature to compile it for, as numba's signature string
    (``"(float64[:, ::1], int64)"``)."""

    module: str
    name: str
    signature: str
    #: The argument types themselves, when they come from a record (``signature`` is then their text).
    types: tuple | None = field(default=None, compare=False)

    @property
    def spec(self) -> str:
        """The helper's command-line form, ``module:name:signature``."""
        return f"{self.module}:{self.name}:{self.signature}"

    @classmethod
    def from_spec(cls, spec: str) -> Callee:
        module, name, signature = spec.split(":", 2)
        return cls(module, name, signature)

    @classmethod
    def from_record(cls, function: str, args: list) -> Callee:
        """A planned kernel: ``module.qualname`` and its argument types as ``numba_types`` data."""
        from shuffle_sim._runtime.numba_types import decode_signature

        module, _, name = function.rpartition(".")
        types = decode_signature(args)
        return cls(module, name, "(" + ", ".join(str(t) for t in types) + ")", types)

    def dispatcher(self):
        return getattr(importlib.import_module(self.module), self.name)

    def argument_types(self) -> tuple:
        if self.types is not None:
            return self.types
        from numba.core.sigutils import normalize_signature

        args, _ = normalize_signature(self.signature)
        return tuple(args)


def needs_compiling(callee: Callee) -> bool:
    """Whether calling ``callee`` for its signature would compile it: not compiled or loaded in this
    process yet, and no entry for it in numba's cache. False when that cannot be told (numba's
    caching off or unlike the one this was written for): the helper is then not worth starting."""
    dispatcher = callee.dispatcher()
    if getattr(dispatcher, "signatures", None):
        return False
    index = cache_index(dispatcher)
    if index is None:
        return False
    try:
        key = dispatcher._cache._index_key(callee.argument_types(), dispatcher.targetctx.codegen())
    except Exception:
        return False
    return key not in index


def cache_index(dispatcher) -> dict | None:
    """The entries of numba's cache for ``dispatcher`` that are current with its source (empty when
    there are none), or None when numba's cache cannot be read (caching off, or a numba unlike the
    one this was written for). The same index numba reads before it loads a function."""
    try:
        return dispatcher._cache._cache_file._load_index()
    except (AttributeError, OSError, EOFError, pickle.UnpicklingError):
        return None


def _launch(arguments: list[str]) -> subprocess.Popen | None:
    """The helper process, started with ``arguments`` beside this one, or None if none could start."""
    argv, env = module_command(__name__, *arguments)
    env[ENV_PARENT] = str(os.getpid())
    try:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
    except (OSError, ValueError, TypeError):  # no interpreter to start (an embedded Python, say)
        return None
    global _count
    _started.append(process)
    _count += 1
    return process


def helpers_started() -> int:
    """How many helpers this process has started (the benchmark reports whether its probe used one)."""
    return _count


def compile_callees(callees: list[Callee]) -> None:
    """Compile each callee for its signature, in order (into numba's cache)."""
    for callee in callees:
        callee.dispatcher().compile(callee.argument_types())


def recorded_plans() -> dict[str, list[dict]]:
    """Every command's recorded plan (empty when the file is missing)."""
    try:
        return json.loads(PLANS_FILE.read_text())["keys"]
    except (OSError, ValueError, KeyError):
        return {}


def write_recorded_plans(keys: dict[str, list[dict]], machine: str) -> Path:
    """Replace the plans of ``keys`` (others kept)."""
    plans = {**recorded_plans(), **keys}
    lines = [f'{{\n "machine": {json.dumps(machine)},\n "keys": {{']
    for n, key in enumerate(sorted(plans)):
        entries = ",\n".join(f"   {json.dumps(entry)}" for entry in plans[key])  # a kernel a line
        lines.append(f"  {json.dumps(key)}: [\n{entries}\n  ]" + ("," if n < len(plans) - 1 else ""))
    PLANS_FILE.write_text("\n".join([*lines, " }", "}"]) + "\n")
    return PLANS_FILE


def plan(key: str, waits: bool = False) -> list[Callee]:
    """The kernels the helper compiles for ``key``'s recorded plan, in order (``waits``: those it
    waits for instead); those whose function is no longer found, or whose types cannot be read back,
    are left out."""
    out = []
    for entry in recorded_plans().get(key, []):
        if bool(entry.get("wait", False)) != waits:
            continue
        try:
            callee = Callee.from_record(entry["function"], entry["args"])
            callee.dispatcher()
        except Exception:  # a renamed kernel or a changed type: the record is out of date there
            continue
        out.append(callee)
    return out


_planned: set[str] = set()  # the plans this process has considered starting


def start_plan(key: str) -> subprocess.Popen | None:
    """Start the helper on ``key``'s recorded plan (module docstring), once per process, and have this
    process wait for the planned kernels it reaches before the helper is done with them
    (``await_plan``); the started process, or None."""
    if key in _planned or os.environ.get(ENV_SWITCH, "") == "0":
        return None
    _planned.add(key)
    for process in list(_started):
        if process.poll() is not None:
            _started.remove(process)
    if _started:  # one helper at a time
        return None
    todo = [c for c in plan(key) if needs_compiling(c)]
    if not todo or not core_to_spare():
        return None
    started = _launch([f"@{key}"])
    if started is not None:
        await_plan(started, todo)
    return started


def await_plan(process, callees: list[Callee]) -> None:
    """Make this process wait, before it looks in numba's cache for one of ``callees``, until
    ``process`` (the helper, or the helper's parent: anything with ``poll()``, None while it runs) has
    put it there, or has ended, or ``LONGEST_WAIT`` has passed: numba then loads it instead of
    compiling it a second time. Other signatures of the same functions, and every other function, are
    looked up as always."""
    by_dispatcher: dict[int, tuple[Any, set]] = {}
    for callee in callees:
        dispatcher = callee.dispatcher()
        by_dispatcher.setdefault(id(dispatcher), (dispatcher, set()))[1].add(callee.argument_types())
    for dispatcher, pending in by_dispatcher.values():
        cache = dispatcher._cache
        cache.load_overload = _waiting_load(cache, cache.load_overload, pending, process)


def _waiting_load(cache, load, pending: set, process):
    def load_overload(sig, target_context):
        key = tuple(sig)
        if key in pending:
            pending.discard(key)
            index_key = cache._index_key(key, target_context.codegen())
            deadline = time.monotonic() + LONGEST_WAIT
            while process.poll() is None and time.monotonic() < deadline:
                if index_key in cache._cache_file._load_index():
                    break
                time.sleep(POLL_SECONDS)
        return load(sig, target_context)

    return load_overload


class _Parent:
    """The helper's parent process, as ``await_plan`` polls it: None while it runs."""

    def __init__(self) -> None:
        self.pid = os.getppid()

    def poll(self) -> int | None:
        return None if os.getppid() == self.pid else 0  # an orphan is handed to another parent


def main(argv: list[str]) -> int:
    with contextlib.suppress(AttributeError, OSError):
        os.nice(5)  # the caller's compile comes first when the cores get busy
    install_from_environment(role="compile helper")
    callees: list[Callee] = []
    for spec in argv:
        if spec.startswith("@"):
            if os.environ.get(ENV_PARENT) == str(os.getppid()):  # started beside a command, not alone
                await_plan(_Parent(), plan(spec[1:], waits=True))
            callees += plan(spec[1:])
        else:
            callees.append(Callee.from_spec(spec))
    compile_callees(callees)
    return 0


if __name__ == "__main__":
    from shuffle_sim._runtime.quick_exit import exit_now

    exit_now(main(sys.argv[1:]))
