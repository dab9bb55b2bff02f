"""The shot lab's first use on an empty numba cache: ``shuffle-sim bench-startup``'s ``lab`` entry
(``python -m shuffle_sim.lab.first_use --json``, run by ``bench.first_use`` as a command of its own).

``shuffle-sim lab`` is started in a new process on a new empty numba cache (its compile events
logged, as for the other commands of ``first_use``) and driven in the system Chromium as a user
would, from the moment it is started:

* ``cold_seconds``: until the page is usable, a disc placed on the court judged (its value on the
  page, ``window.labLabelsReceived``). Goal: at most 30 s;
* ``first_grade_seconds``: then, a grade typed into the court's field until the aim's predicted
  path on the graded court is drawn. On a first run the lab compiles the graded court's kernels in
  the background from the start; the relief of a grade typed before they are ready is drawn at once
  and its path waits, saying so;
* ``grade_seconds``: another grade typed once that one is answered (the kernels ready, as in a warm
  lab). Goal: at most 2 s.

Without Chromium the entry says so instead (``skipped``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from shuffle_sim._runtime.compile_log import ENV_LOG, read_logs
from shuffle_sim.bench.first_use import LAB, format_first_use, kernel_report
from shuffle_sim.lab.browser import LabPage, chromium, chromium_path, lab_server
from shuffle_sim.lab.latency import GRADES, TARGETS, grade_seconds

#: The court the lab is opened on (its default) and a disc placed in its far 10; the grades typed and
#: the warm grade's goal are ``latency``'s (``GRADES``, ``TARGETS``).
COURT = "deck"
DISC = (0.0, 11.2)
#: A predicted path has more points than this (an empty one: none while it waits).
PATH_POINTS = 50
#: How long any one step may take before the measurement gives up (s).
TIMEOUT = 900.0
#: How long the lab is given to stop after a Ctrl-C and write its compile events (s).
STOP_TIMEOUT = 30.0


def _first_path_seconds(page: LabPage, grade: str, timeout: float) -> float:
    """Seconds from ``grade`` typed as the court's grade across to the aim's predicted path on the
    graded court drawn: on a first run the relief comes at once and the path once the graded court's
    kernels are ready (until then the path is empty and the page says it waits)."""
    page.page.evaluate("() => { window.labPathReceived = null; }")
    began = time.perf_counter()
    page.set_value("grade_x", grade)
    page.wait_for(f"window.labPathReceived != null && labModel('aim_path').data.x.length > {PATH_POINTS}", timeout)
    return time.perf_counter() - began


def lab_first_use(timeout: float = TIMEOUT) -> dict:
    """The lab's first use (module docstring): seconds, goals and the compile events of its server."""
    if chromium_path() is None:
        return {"command": LAB, "skipped": "no Chromium on this machine"}
    with tempfile.TemporaryDirectory(prefix="shuffle-sim-lab-first-use-") as tmp:
        cache, logs = Path(tmp) / "cache", Path(tmp) / "logs"
        env = {"NUMBA_CACHE_DIR": str(cache), ENV_LOG: str(logs)}
        began = time.perf_counter()
        with chromium() as browser, lab_server(COURT, env=env) as (url, proc):
            page = LabPage(browser, url, court=COURT, ready_timeout=timeout)
            page.page.evaluate("() => { window.labLabelsReceived = null; }")
            page.click_at(*DISC)
            page.wait_for("window.labLabelsReceived != null", timeout)
            usable = time.perf_counter() - began
            first_grade = _first_path_seconds(page, GRADES[0], timeout)
            again = grade_seconds(page, GRADES[1], timeout)
            proc.send_signal(signal.SIGINT)  # Ctrl-C: the lab stops and writes its compile events
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(STOP_TIMEOUT)
        report = kernel_report(read_logs(logs))
    return {
        "command": f"lab --court {COURT}",
        "cold_seconds": round(usable, 2),
        "first_grade_seconds": round(first_grade, 2),
        "grade_seconds": round(again, 3),
        "grade_goal_seconds": TARGETS["grade"],
        "grade_met": again <= TARGETS["grade"],
        **report,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    found = lab_first_use()
    print(json.dumps(found) if args.json else format_first_use({LAB: found}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["COURT", "lab_first_use", "main"]
