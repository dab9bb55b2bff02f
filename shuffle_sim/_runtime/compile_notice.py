"""Saying so when a command compiles: once, on standard error, with the expected time and progress.

numba compiles a kernel on its first call and keeps the machine code in its cache, so a warm command
loads its kernels in a fraction of a second, but the first use of a command on an empty cache (a new
install, an upgrade, a new machine or container) compiles for seconds to minutes. ``watch`` listens to
numba's compile events (``numba:compile``, one per function compiled): at the first one it prints one
line, what is compiling and about how long it takes, and on a terminal a progress bar that advances
as the kernels are compiled; a command that compiles nothing (a warm cache) prints nothing.
``announce`` says so at once, for a caller that knows it is about to compile (the experiment runner
checks numba's cache before its first chunk).

The expected time comes from measurement: the functions each command compiled on an empty cache and
the processor seconds each took of its own (``shuffle-sim bench-startup --record``, on a 2-core
machine), kept in ``compile_seconds.json`` under the command's key (``judge``, ``play_deck``, ...).
A compile helper's functions (``compile_ahead``) are left out: they compile beside the command, so
the record is what the command waits for with a core free for the helper (with none, the wait is
longer than said).
Of those, the ones numba's cache already holds are left out, so a command whose kernels were partly
compiled before (by another command or by ``shuffle-sim compile``) expects only the rest. A function
that is no longer found under its recorded name counts as still to compile. A key with no record
gives no estimate: the line then says only that kernels are compiling.
"""

from __future__ import annotations

import importlib
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

#: The measured compile seconds per command key: {"keys": {key: {"module.qualname": seconds}}}.
SECONDS_FILE = Path(__file__).with_name("compile_seconds.json")
#: What the line says is happening.
COMPILING = "compiling kernels, first use only"
#: How to do it ahead, said with it.
AHEAD = "`shuffle-sim compile` does it ahead"
#: The bar is taken down after this long (s) without a compile, so that the command's output is not
#: drawn over; the next compile puts it back.
IDLE_SECONDS = 0.5


def recorded_seconds() -> dict[str, dict[str, float]]:
    """The measured compile seconds per key and function (empty when the file is missing)."""
    try:
        return json.loads(SECONDS_FILE.read_text())["keys"]
    except (OSError, ValueError, KeyError):
        return {}


def write_recorded_seconds(keys: dict[str, dict[str, float]], machine: str) -> Path:
    """Replace the records of ``keys`` (others kept): each function's own compile seconds."""
    data: dict[str, Any] = {"machine": machine, "keys": {**recorded_seconds(), **keys}}
    data["keys"] = {k: data["keys"][k] for k in sorted(data["keys"])}
    SECONDS_FILE.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    return SECONDS_FILE


def _dispatcher(name: str):
    """The numba function recorded as ``module.qualname``, or None when it is not found there."""
    module, _, attribute = name.rpartition(".")
    while module:
        try:
            found = importlib.import_module(module)
            for part in attribute.split("."):
                found = getattr(found, part)
            return found if hasattr(found, "py_func") else None
        except ImportError:
            module, _, head = module.rpartition(".")
            attribute = f"{head}.{attribute}"
        except AttributeError:
            return None
    return None


def is_cached(name: str) -> bool:
    """Whether numba's cache holds compiled code, current with its source, for the function recorded
    as ``name``, or it is compiled in this process already."""
    from shuffle_sim._runtime.compile_ahead import cache_index

    dispatcher = _dispatcher(name)
    if dispatcher is None:
        return False
    return bool(getattr(dispatcher, "signatures", None)) or bool(cache_index(dispatcher))


def expected(key: str | None) -> dict[str, float]:
    """The recorded functions of ``key`` still to compile, with their seconds (empty: no record)."""
    record = recorded_seconds().get(key or "", {})
    return {name: seconds for name, seconds in record.items() if not is_cached(name)}


class _Notice:
    """The one notice of this process: the line, then the bar while compiles go on."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.key: str | None = None
        self.what = "shuffle-sim"
        self.said = False
        self.listening = False
        self.depth = 0
        self.last_event = 0.0
        self.todo: dict[str, float] = {}
        self.total = 0.0
        self.done = 0.0
        self.bar = None
        self.ticker: threading.Thread | None = None

    @property
    def stream(self):
        return sys.stderr  # read when written: a caller may have replaced it

    def say(self) -> None:
        """The line, once, and the bar (on a terminal)."""
        with self.lock:
            if self.said:
                return
            self.said = True
            self.todo = expected(self.key)
            self.total = sum(self.todo.values())
            about = f": about {self.total:.0f} s" if self.total >= 1.0 else ""
            print(f"{self.what}: {COMPILING}{about} ({AHEAD})", file=self.stream, flush=True)
            self._show_bar()
            self.ticker = threading.Thread(target=self._tick, name="shuffle-sim-compile-notice", daemon=True)
            self.ticker.start()

    def _show_bar(self) -> None:
        if self.bar is not None or not _on_terminal(self.stream):
            return
        from tqdm import tqdm

        total = self.total if self.total >= 1.0 else None
        form = "{desc} {percentage:3.0f}%|{bar}| {elapsed} of about {total:.0f} s" if total else "{desc} {elapsed}"
        self.bar = tqdm(
            total=total,
            initial=min(self.done, total or 0.0),
            desc="compiling",
            bar_format=form,
            leave=False,
            file=self.stream,
        )

    def _tick(self) -> None:
        while True:
            time.sleep(0.25)
            with self.lock:
                if self.bar is None:
                    continue
                if self.depth == 0 and time.monotonic() - self.last_event > IDLE_SECONDS:
                    self.bar.close()
                    self.bar = None
                else:
                    self.bar.refresh()

    def started(self, name: str) -> None:
        with self.lock:
            self.depth += 1
            self.last_event = time.monotonic()
            if not self.said:
                self.say()
            elif self.bar is None:
                self._show_bar()

    def ended(self, name: str) -> None:
        with self.lock:
            self.depth = max(0, self.depth - 1)
            self.last_event = time.monotonic()
            seconds = self.todo.pop(name, 0.0)
            self.done += seconds
            if self.bar is not None and self.bar.total and seconds:
                self.bar.update(min(seconds, max(0.0, self.bar.total - self.bar.n)))

    def close(self) -> None:
        with self.lock:
            if self.bar is not None:
                self.bar.close()
                self.bar = None


def _on_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


_notice = _Notice()


def _listen() -> None:
    if _notice.listening:
        return
    from numba.core import event

    def name_of(ev) -> str:
        function = ev.data["dispatcher"].py_func
        return f"{function.__module__}.{function.__qualname__}"

    class _Listener(event.Listener):
        def on_start(self, ev) -> None:
            _notice.started(name_of(ev))

        def on_end(self, ev) -> None:
            _notice.ended(name_of(ev))

    event.register("numba:compile", _Listener())
    _notice.listening = True


def watch(key: str | None = None, what: str = "shuffle-sim") -> None:
    """Say so at numba's first compile in this process (module docstring), ``key`` naming the record
    of the expected time; ``what`` starts the line (the command, say)."""
    with _notice.lock:
        if key is not None:
            _notice.key = key
        _notice.what = what
        _listen()


def expect(key: str) -> None:
    """Name the record of the expected time, for a command that knows it only once its input is read
    (``simulate`` on a court that is not flat); no effect once the line is said."""
    with _notice.lock:
        if not _notice.said:
            _notice.key = key


def announce(what: str, key: str | None = None) -> None:
    """Say so now, unless this process said it already (then the bar comes back while compiles go on)."""
    with _notice.lock:
        if key is not None and not _notice.said:
            _notice.key = key
        if not _notice.said:
            _notice.what = what
        _listen()
        _notice.say()


def said() -> bool:
    """Whether this process has said that it compiles."""
    return _notice.said


def finish() -> None:
    """Take the bar down (the command is done compiling, or done)."""
    _notice.close()


__all__ = [
    "AHEAD",
    "COMPILING",
    "SECONDS_FILE",
    "announce",
    "expect",
    "expected",
    "finish",
    "is_cached",
    "recorded_seconds",
    "said",
    "watch",
    "write_recorded_seconds",
]
