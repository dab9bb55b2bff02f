"""One run per results folder: the lock file, its holder, stale locks, and every way a run ends."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shuffle_sim.cli import main
from shuffle_sim.experiment._lock import LOCK_FILE, FolderLocked, ResultsLock, folder_lock, read_holder
from shuffle_sim.experiment._runner import run_experiment
from shuffle_sim.experiment.spec import parse_experiment
from shuffle_sim.experiment.store import ResultsDir, open_results

DRAW = """
name = "lock-draw"
court = "deck"
seed = 3
samples = 5
chunk_size = 10
[shot]
start = ["9 in", "7.25 ft"]
team = "yellow"
[grid]
speed = [1.6, 1.7, 1.8]
direction = [-1.5, -1.4]
[collect]
outcomes = ["expected_value"]
"""

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def draw():
    return parse_experiment(DRAW, "lock-draw.toml")


@pytest.fixture()
def draw_file(tmp_path):
    path = tmp_path / "lock-draw.toml"
    path.write_text(DRAW)
    return path


def _dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _write_lock(folder: Path, **holder) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / LOCK_FILE).write_text(json.dumps(holder))


def test_the_lock_names_its_holder_and_is_given_back(tmp_path):
    folder = tmp_path / "out"
    with folder_lock(folder):
        holder = read_holder(folder)
        assert holder["pid"] == os.getpid() and holder["host"] == socket.gethostname()
        assert time.strptime(holder["started"], "%Y-%m-%dT%H:%M:%SZ")
        with folder_lock(folder):  # re-entrant in the same thread (the command line nests it)
            assert read_holder(folder) == holder
        assert read_holder(folder) == holder
        other = ResultsLock(folder)
        with pytest.raises(FolderLocked) as exc:
            other.acquire()
        message = str(exc.value)
        assert str(folder) in message and f"pid {os.getpid()} on host {socket.gethostname()}" in message
        assert holder["started"] in message and "\n" not in message
        other.release()  # never removes a lock it does not hold
        assert read_holder(folder) == holder
    assert not (folder / LOCK_FILE).exists()
    assert sorted(p.name for p in folder.iterdir()) == []  # no temporary files left behind


def test_another_thread_is_another_run(tmp_path):
    errors = []

    def second():
        try:
            with folder_lock(tmp_path):
                pass
        except FolderLocked as exc:
            errors.append(exc)

    with folder_lock(tmp_path):
        thread = threading.Thread(target=second)
        thread.start()
        thread.join()
    assert len(errors) == 1


def test_a_live_holder_stops_a_second_run_and_a_resume(draw, draw_file, tmp_path, capsys):
    folder = tmp_path / "out"
    holder = dict(pid=os.getppid(), host=socket.gethostname(), started="2026-12-01T00:00:00Z", token="x")
    _write_lock(folder, **holder)
    for resume in (False, True):
        with pytest.raises(FolderLocked, match="in use by another run"):
            run_experiment(draw, folder, resume=resume, progress=False)
        assert main(["run", str(draw_file), "--out", str(folder), "--quiet"] + (["--resume"] if resume else [])) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and err.startswith("shuffle-sim: error: ")
        assert str(folder) in err and f"pid {os.getppid()} on host {socket.gethostname()}" in err
        assert "2026-12-01T00:00:00Z" in err
    assert read_holder(folder) == holder  # untouched
    assert not (folder / "manifest.json").exists()


def test_a_stale_lock_is_taken_over_with_a_message(draw, tmp_path, capsys):
    folder = tmp_path / "out"
    gone = _dead_pid()
    _write_lock(folder, pid=gone, host=socket.gethostname(), started="2026-11-30T23:00:00Z", token="old")
    summary = run_experiment(draw, folder, progress=False)
    assert summary.complete
    err = capsys.readouterr().err
    assert f"took over the lock of a run that is gone (pid {gone} on host {socket.gethostname()}" in err
    assert not (folder / LOCK_FILE).exists()


def test_a_recycled_process_id_is_not_the_holder(tmp_path, capsys):
    tick_now = ResultsLock(tmp_path)._contents().get("start_tick")
    if tick_now is None:
        pytest.skip("process start times are read from /proc (Linux)")
    # Our own id, alive, but with another start time: the id was reused after the holder died.
    _write_lock(tmp_path, pid=os.getpid(), host=socket.gethostname(), started="x", start_tick=tick_now + 12345)
    with folder_lock(tmp_path):
        assert read_holder(tmp_path)["start_tick"] == tick_now
    assert "took over" in capsys.readouterr().err


def test_a_lock_from_another_host_counts_as_held(tmp_path):
    _write_lock(tmp_path, pid=_dead_pid(), host="elsewhere.invalid", started="2026-12-01T00:00:00Z")
    with pytest.raises(FolderLocked, match=r"host elsewhere\.invalid.*cannot be checked from host"):
        ResultsLock(tmp_path).acquire()


def test_an_unreadable_lock_counts_as_held(tmp_path):
    (tmp_path / LOCK_FILE).write_text("")
    with pytest.raises(FolderLocked, match="unknown run"):
        ResultsLock(tmp_path).acquire(wait=0.1)
    assert (tmp_path / LOCK_FILE).exists()


def test_two_takeovers_of_one_stale_lock_cannot_both_win(tmp_path):
    stale = dict(pid=_dead_pid(), host=socket.gethostname(), started="x", token="old")
    _write_lock(tmp_path, **stale)
    first, second = ResultsLock(tmp_path, note=lambda m: None), ResultsLock(tmp_path, note=lambda m: None)
    assert first._take_over(stale, first._contents()) is True
    # The second found the same stale lock before the first replaced it: its re-read sees the change.
    assert second._take_over(stale, second._contents()) is False
    (tmp_path / ".lock.takeover").mkdir()  # a takeover under way elsewhere
    assert second._take_over(read_holder(tmp_path), second._contents()) is None


@pytest.mark.parametrize("ending", ["error", "interrupt", "stop_after"])
def test_the_lock_is_given_back_however_the_run_ends(draw, tmp_path, monkeypatch, ending):
    folder = tmp_path / "out"
    if ending != "stop_after":
        real = ResultsDir.write_chunk
        calls = []

        def failing(*args, **kwargs):  # the fault strikes as the second chunk is stored
            calls.append(1)
            if len(calls) == 2:
                raise RuntimeError("worker fault") if ending == "error" else KeyboardInterrupt()
            return real(*args, **kwargs)

        monkeypatch.setattr(ResultsDir, "write_chunk", failing)
        with pytest.raises(RuntimeError if ending == "error" else KeyboardInterrupt):
            run_experiment(draw, folder, progress=False)
    else:
        assert not run_experiment(draw, folder, progress=False, stop_after=1).complete
    assert not (folder / LOCK_FILE).exists()
    assert run_experiment(draw, folder, resume=True, progress=False).complete


# ---- real processes ------------------------------------------------------------------------------


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "shuffle_sim.cli", *args]


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["NUMBA_NUM_THREADS"] = "1"
    return env


def _start_and_wait_for_lock(draw_file: Path, folder: Path) -> subprocess.Popen:
    """Start ``shuffle-sim run`` into ``folder`` and return once it holds the folder's lock."""
    run = subprocess.Popen(
        _cli("run", str(draw_file), "--out", str(folder), "--quiet", "--no-plots"),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while read_holder(folder) is None or read_holder(folder)["pid"] != run.pid:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "the run never took the lock"
        time.sleep(0.002)
    return run


def test_two_real_runs_into_one_folder(draw_file, tmp_path):
    """A run paused while it holds the lock: a second run and a resume both exit 2 naming it; once it
    ends, the folder is free and complete."""
    folder = tmp_path / "out"
    first = _start_and_wait_for_lock(draw_file, folder)
    os.kill(first.pid, signal.SIGSTOP)
    try:
        for extra in ([], ["--resume"]):
            second = subprocess.run(
                _cli("run", str(draw_file), "--out", str(folder), "--quiet", *extra),
                env=_env(),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert second.returncode == 2, second
            lines = second.stderr.strip().splitlines()
            assert len(lines) == 1 and str(folder) in lines[0] and f"pid {first.pid} on host" in lines[0], lines
    finally:
        os.kill(first.pid, signal.SIGCONT)
    _out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert not (folder / LOCK_FILE).exists()
    assert int(open_results(folder)["shots"].sum()) == 30


def test_a_killed_run_leaves_a_stale_lock_that_the_next_run_takes_over(draw_file, tmp_path):
    folder = tmp_path / "out"
    first = _start_and_wait_for_lock(draw_file, folder)
    os.kill(first.pid, signal.SIGKILL)
    first.communicate(timeout=60)
    assert read_holder(folder)["pid"] == first.pid  # SIGKILL: nothing could give the lock back
    second = subprocess.run(
        _cli("run", str(draw_file), "--out", str(folder), "--quiet", "--no-plots", "--resume"),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert second.returncode == 0, second.stderr
    assert f"took over the lock of a run that is gone (pid {first.pid} on host" in second.stderr
    assert not (folder / LOCK_FILE).exists()


def test_a_terminated_run_gives_the_lock_back(draw_file, tmp_path):
    folder = tmp_path / "out"
    first = _start_and_wait_for_lock(draw_file, folder)
    os.kill(first.pid, signal.SIGTERM)
    first.communicate(timeout=120)
    assert first.returncode in (0, 128 + signal.SIGTERM)  # terminated, or it had just finished
    assert not (folder / LOCK_FILE).exists()
