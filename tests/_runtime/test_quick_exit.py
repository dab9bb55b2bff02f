"""``quick_exit.exit_now``: the exit status, flushed output and exit handlers of a normal exit, without
the interpreter's teardown; and a normal exit when a thread is still at work."""

from __future__ import annotations

import subprocess
import sys


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)


def test_exit_now_keeps_the_status_the_output_and_the_exit_handlers():
    proc = _python(
        "import atexit, sys\n"
        "from shuffle_sim._runtime.quick_exit import exit_now\n"
        "atexit.register(lambda: print('handler ran'))\n"
        "print('unflushed', end='')\n"
        "sys.stderr.write('to stderr')\n"
        "exit_now(3)\n"
    )
    assert proc.returncode == 3
    assert proc.stdout == "unflushedhandler ran\n"
    assert proc.stderr == "to stderr"


def test_exit_now_waits_for_a_thread_that_is_still_working(tmp_path):
    done = tmp_path / "done"
    proc = _python(
        "import threading, time\n"
        "from shuffle_sim._runtime.quick_exit import exit_now\n"
        "def work():\n"
        "    time.sleep(0.3)\n"
        f"    open({str(done)!r}, 'w').write('yes')\n"
        "threading.Thread(target=work).start()\n"
        "exit_now(0)\n"
    )
    assert proc.returncode == 0
    assert done.read_text() == "yes"


def test_the_command_line_exits_with_its_status():
    ok = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert ok.returncode == 0 and ok.stdout.strip()
    bad = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "run", "no-such-experiment.toml"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("shuffle-sim: error:") and bad.stderr.count("\n") == 1
