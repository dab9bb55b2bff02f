"""One run at a time per results folder: a lock file naming the run that owns the folder.

Two runs writing into one results folder would interleave their chunk files (or, for two different
experiment files, mix their results), so a run takes the folder's lock before it touches anything
there and gives it back however it ends: returning, raising, interrupted (Ctrl-C), or, from the
command line, terminated (``SIGTERM``).

The lock is the file ``.lock`` in the folder, holding JSON: the holder's process id, host name,
start time (UTC), and for a process on Linux its kernel start tick (so that a recycled process id is
not mistaken for the holder), plus a random token. It is written to a temporary file and hard-linked
into place, which fails if a lock is there already: the lock appears whole, or not at all, and two
runs can never both create it.

A second run finds the lock and stops with ``FolderLocked`` (the command line: exit status 2 and a
one-line message naming the folder and the holder). A lock whose holder is gone (same host, no such
process) is stale: the holder was killed (``SIGKILL``, power loss) before it could give the lock
back. The next run takes it over, with a one-line note on standard error. Takeovers go one at a time
through a second atomic step (creating the directory ``.lock.takeover``), and each re-reads the lock
inside it, so two runs that find the same stale lock cannot both take it. A lock held on another host
cannot be checked from here and counts as held.

Within one process the lock is re-entrant per thread (the command line holds it across a run and its
plots, and the run takes it again inside).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from shuffle_sim.experiment.spec import ExperimentError

LOCK_FILE = ".lock"
TAKEOVER_DIR = ".lock.takeover"
#: A takeover directory older than this (s) was left by a run that died mid-takeover.
TAKEOVER_TIMEOUT = 30.0

_held: dict[tuple[Path, int], int] = {}  # (folder, thread) -> nesting depth
_held_guard = threading.Lock()


class FolderLocked(ExperimentError):
    """The results folder belongs to another run; the message names the folder and the holder."""


def _process_start_tick(pid: int) -> int | None:
    """The kernel's start time of process ``pid`` in clock ticks since boot (Linux), else None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces; field 22 is the start time.
    try:
        return int(stat[stat.rindex(")") + 2 :].split()[19])
    except (ValueError, IndexError):
        return None


def _alive(holder: dict) -> bool:
    """Whether the holder's process still runs (only asked for a holder on this host)."""
    pid = holder.get("pid")
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # a process of another user runs under that id
    tick = holder.get("start_tick")
    if isinstance(tick, int):
        now = _process_start_tick(pid)
        if now is not None and now != tick:
            return False  # the id was recycled by a younger process
    return True


def describe(holder: dict | None) -> str:
    """ "pid 123 on host h, started 2026-12-01T00:10:00Z" (or what can be said of an unreadable lock)."""
    if holder is None:
        return "an unknown run (the lock file cannot be read)"
    return f"pid {holder.get('pid')} on host {holder.get('host')}, started {holder.get('started')}"


def read_holder(folder: str | os.PathLike) -> dict | None:
    """The lock's contents, or None if there is no lock or it cannot be read."""
    try:
        data = json.loads((Path(folder) / LOCK_FILE).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _note(message: str) -> None:
    print(f"shuffle-sim: {message}", file=sys.stderr)


class ResultsLock:
    """The lock of one results folder, held by this process (``acquire``, ``release``)."""

    def __init__(self, folder: str | os.PathLike, note: Callable[[str], None] = _note):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_FILE
        self.note = note
        self.token: str | None = None

    def _contents(self) -> dict:
        pid = os.getpid()
        holder = {
            "pid": pid,
            "host": socket.gethostname(),
            "started": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "token": secrets.token_hex(8),
            "argv": sys.argv[:8],
        }
        tick = _process_start_tick(pid)
        if tick is not None:
            holder["start_tick"] = tick
        return holder

    def _create(self, holder: dict) -> bool:
        """Put ``holder`` in place as the lock, atomically; False if a lock is there already."""
        tmp = self.folder / f".lock.{holder['pid']}.{holder['token']}.tmp"
        tmp.write_text(json.dumps(holder) + "\n")
        try:
            os.link(tmp, self.path)
            return True
        except FileExistsError:
            return False
        except OSError:
            # A file system without hard links: exclusive creation (the lock is briefly empty, and an
            # empty lock reads as held by an unknown run, never as free).
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                return False
            with os.fdopen(fd, "w") as fh:
                fh.write(json.dumps(holder) + "\n")
            return True
        finally:
            tmp.unlink(missing_ok=True)

    def _take_over(self, stale: dict, holder: dict) -> bool | None:
        """Replace the ``stale`` lock by ``holder``, one takeover at a time. True: taken; False: the
        lock changed meanwhile (look again); None: another takeover is under way (look again soon)."""
        guard = self.folder / TAKEOVER_DIR
        try:
            guard.mkdir()
        except FileExistsError:
            try:
                if time.time() - guard.stat().st_mtime > TAKEOVER_TIMEOUT:
                    guard.rmdir()  # left by a run that died mid-takeover
            except OSError:
                pass
            return None
        try:
            if read_holder(self.folder) != stale:
                return False
            self.path.unlink(missing_ok=True)
            return self._create(holder)
        finally:
            guard.rmdir()

    def acquire(self, wait: float = 5.0) -> None:
        """Take the lock, or raise ``FolderLocked`` naming the folder and the holder.

        ``wait`` (s) bounds the time spent on races (a lock being created or taken over by another
        run at the same moment); a lock held by a live run is reported at once.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        holder = self._contents()
        here = socket.gethostname()
        deadline = time.monotonic() + wait
        while True:
            if self._create(holder):
                self.token = holder["token"]
                return
            current = read_holder(self.folder)
            stale = current is not None and current.get("host") == here and not _alive(current)
            if current is not None and not stale:
                where = (
                    ""
                    if current.get("host") == here
                    else (f"; it cannot be checked from host {here}: remove {self.path} if that run is gone")
                )
                raise FolderLocked(
                    f"{self.folder}: results folder in use by another run ({describe(current)}){where}; "
                    "wait for it to end or choose another --out"
                )
            if stale:
                assert current is not None
                taken = self._take_over(current, holder)
                if taken:
                    self.token = holder["token"]
                    self.note(f"{self.folder}: took over the lock of a run that is gone ({describe(current)})")
                    return
            if time.monotonic() > deadline:
                if current is None and self.path.exists():
                    raise FolderLocked(
                        f"{self.folder}: results folder in use by {describe(None)}; remove "
                        f"{self.path} if no run is using the folder"
                    )
                raise FolderLocked(
                    f"{self.folder}: could not take the results folder's lock within {wait:g} s "
                    "(other runs are starting there)"
                )
            time.sleep(0.02)

    def release(self) -> None:
        """Give the lock back, if it is still ours (never remove another run's lock)."""
        if self.token is None:
            return
        current = read_holder(self.folder)
        if current is not None and current.get("token") == self.token:
            self.path.unlink(missing_ok=True)
        self.token = None


@contextlib.contextmanager
def folder_lock(folder: str | os.PathLike, note: Callable[[str], None] = _note) -> Iterator[None]:
    """Hold the results folder's lock for the ``with`` block (re-entrant within a thread)."""
    key = (Path(os.path.abspath(folder)), threading.get_ident())
    with _held_guard:
        depth = _held.get(key, 0)
        if depth:
            _held[key] = depth + 1
    if depth:
        try:
            yield
        finally:
            with _held_guard:
                _held[key] -= 1
        return
    lock = ResultsLock(folder, note)
    lock.acquire()
    with _held_guard:
        _held[key] = 1
    try:
        yield
    finally:
        with _held_guard:
            del _held[key]
        lock.release()
