"""Which numba kernels a process compiled, and for how long: numba's ``numba:compile`` events.

numba announces every compilation (a cache miss: a function compiled for one signature) as a
``numba:compile`` event with a start and an end. A kernel's callees are compiled while the kernel is
typed, so the events nest: a kernel's own seconds are its event's seconds less those of the events
nested in it. ``CompileLog`` keeps, per function and signature, the count, the inclusive seconds and
the own seconds, and who compiled it (its parent event).

With the environment variable ``SHUFFLE_SIM_COMPILE_LOG`` set to a folder, the command line and the
compile helpers (``compile_ahead``) each install a log at start-up and write it at exit as
``compile-<pid>.json`` in that folder (``shuffle-sim bench-startup`` reads them). The log costs nothing
when the variable is not set: numba is then not even imported for it.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Folder into which each process writes its log at exit (unset: no log).
ENV_LOG = "SHUFFLE_SIM_COMPILE_LOG"


@dataclass
class Compilation:
    """One function compiled for one signature in this process."""

    function: str  # module.qualname
    signature: str
    parent: str | None  # the function being compiled when this one began (None: called from Python)
    arg_types: list | None  # the argument types as JSON data (``numba_types``), None if not writable
    began: float  # seconds since the log was installed
    seconds: float = 0.0  # inclusive: its callees' compiles too
    own_seconds: float = 0.0  # less the compiles nested in it
    cpu_seconds: float = 0.0  # the compiling thread's processor time, inclusive
    own_cpu_seconds: float = 0.0  # the same less the compiles nested in it


@dataclass
class CompileLog:
    """Records ``numba:compile`` events while installed (``install``)."""

    compilations: list[Compilation] = field(default_factory=list)
    role: str = "command"  # or "compile helper" (``compile_ahead``)
    _stack: list[list] = field(default_factory=list)  # [record, wall and cpu at its start, nested wall and cpu]
    _origin: float = field(default_factory=time.perf_counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def on_start(self, event) -> None:
        dispatcher = event.data["dispatcher"]
        function = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        signature = "(" + ", ".join(str(a) for a in event.data["args"]) + ")"
        with self._lock:
            parent = self._stack[-1][0].function if self._stack else None
            now = time.perf_counter()
            record = Compilation(function, signature, parent, _encoded(event.data["args"]), now - self._origin)
            self._stack.append([record, now, time.thread_time(), 0.0, 0.0])

    def on_end(self, event) -> None:
        with self._lock:
            if not self._stack:
                return
            record, began, began_cpu, nested, nested_cpu = self._stack.pop()
            record.seconds = time.perf_counter() - began
            record.cpu_seconds = time.thread_time() - began_cpu
            record.own_seconds = max(0.0, record.seconds - nested)
            record.own_cpu_seconds = max(0.0, record.cpu_seconds - nested_cpu)
            self.compilations.append(record)
            if self._stack:
                self._stack[-1][3] += record.seconds
                self._stack[-1][4] += record.cpu_seconds

    def install(self) -> CompileLog:
        """Start listening to numba's compile events (for the rest of the process)."""
        from numba.core import event

        class _Listener(event.Listener):
            def on_start(inner, ev) -> None:
                self.on_start(ev)

            def on_end(inner, ev) -> None:
                self.on_end(ev)

        event.register("numba:compile", _Listener())
        return self

    def summary(self) -> dict:
        """The log as plain data: every compilation, and the totals (top-level compiles' seconds)."""
        top = [c for c in self.compilations if c.parent is None]
        return {
            "pid": os.getpid(),
            "role": self.role,
            "compilations": [c.__dict__ for c in sorted(self.compilations, key=lambda c: c.began)],
            "count": len(self.compilations),
            "seconds": round(sum(c.seconds for c in top), 3),
            "cpu_seconds": round(sum(c.cpu_seconds for c in top), 3),
        }

    def write(self, folder: str | os.PathLike) -> Path:
        """Write ``summary`` to ``folder/compile-<pid>.json``; the path written."""
        path = Path(folder) / f"compile-{os.getpid()}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.summary()))
        return path


def _encoded(argument_types) -> list | None:
    from shuffle_sim._runtime.numba_types import encode_signature

    try:
        return encode_signature(argument_types)
    except Exception:  # a type that cannot be pickled: recorded by its name only
        return None


def install_from_environment(role: str = "command") -> CompileLog | None:
    """Install a log that is written at exit when ``SHUFFLE_SIM_COMPILE_LOG`` names a folder."""
    folder = os.environ.get(ENV_LOG)
    if not folder:
        return None
    log = CompileLog(role=role).install()
    atexit.register(log.write, folder)
    return log


def read_logs(folder: str | os.PathLike) -> list[dict]:
    """Every process's log written in ``folder``, in the order the processes wrote them."""
    paths = sorted(Path(folder).glob("compile-*.json"), key=lambda p: p.stat().st_mtime)
    return [json.loads(p.read_text()) for p in paths]


__all__ = ["ENV_LOG", "Compilation", "CompileLog", "install_from_environment", "read_logs"]
