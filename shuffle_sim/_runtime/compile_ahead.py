"""Compile part of a kernel's call tree in a second process while this process compiles the rest.

numba compiles a kernel's callees one after another, each once per signature, and with ``cache=True``
keeps each in its cache under its own name and signature. The first time a kernel is compiled (an
empty cache: a new install, a changed source), ``start_helper`` starts a second Python process that
compiles a list of the kernel's callees into the same cache. When this process's compile reaches one of
them, numba finds it in the cache and loads it (milliseconds) instead of compiling it again. On a
machine with a free core the two processes share the work; what cannot be shared is the kernel's own
body and the callees this process reaches first.

The list should name the callees this process reaches late (numba compiles them in the order the
caller's source calls them), so that the helper has finished them by then. A callee the helper has not
finished in time is compiled here, as without the helper. Either way this process runs the same
compiled code, so nothing but the time depends on the helper: numba writes each cache file aside and
renames it into place, so a file it reads is whole.

The helper starts only when the kernel's cache holds no entry for its signature, a core is free
(``helper_process.core_to_spare``), and the environment variable ``SHUFFLE_SIM_COMPILE_HELPER`` is not
``0``. Run as ``python -m shuffle_sim._runtime.compile_ahead module:name:signature ...`` it compiles the named
functions in order.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import subprocess
import sys
from dataclasses import dataclass

from shuffle_sim._runtime.compile_log import install_from_environment
from shuffle_sim._runtime.helper_process import core_to_spare, module_command

#: Set to "0" to never start the helper.
ENV_SWITCH = "SHUFFLE_SIM_COMPILE_HELPER"

_started: list[subprocess.Popen] = []  # running helpers, kept to be reaped
_count = 0


@dataclass(frozen=True)
class Callee:
    """A numba function and one signature to compile it for, as numba's signature string
    (``"(float64[:, ::1], int64)"``)."""

    module: str
    name: str
    signature: str

    @property
    def spec(self) -> str:
        """The helper's command-line form, ``module:name:signature``."""
        return f"{self.module}:{self.name}:{self.signature}"

    @classmethod
    def from_spec(cls, spec: str) -> Callee:
        module, name, signature = spec.split(":", 2)
        return cls(module, name, signature)

    def dispatcher(self):
        return getattr(importlib.import_module(self.module), self.name)

    def argument_types(self) -> tuple:
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


def start_helper(entry: Callee, callees: tuple[Callee, ...]) -> subprocess.Popen | None:
    """Start the helper compiling ``callees`` if ``entry`` is about to be compiled and a core is free
    (module docstring); the started process, or None."""
    for process in list(_started):
        if process.poll() is not None:
            _started.remove(process)
    if _started:  # one helper at a time (threads calling at once, say)
        return None
    if os.environ.get(ENV_SWITCH, "") == "0" or not needs_compiling(entry) or not core_to_spare():
        return None
    argv, env = module_command(__name__, *(c.spec for c in callees))
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


def main(argv: list[str]) -> int:
    with contextlib.suppress(AttributeError, OSError):
        os.nice(5)  # the caller's compile comes first when the cores get busy
    install_from_environment()
    compile_callees([Callee.from_spec(spec) for spec in argv])
    return 0


if __name__ == "__main__":
    from shuffle_sim._runtime.quick_exit import exit_now

    exit_now(main(sys.argv[1:]))
