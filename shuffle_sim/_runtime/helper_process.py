"""Helper processes (the plot helper, the compile helper): when to start one, and how.

A helper process only helps when a core would otherwise sit idle: on a machine whose other cores are
busy it takes CPU from the work it means to speed up (measured for the plot helper: 1.9 s in one
process, 2.3 s with the helper, with one of two cores taken by another job). ``core_to_spare`` says
whether a core is free; ``module_command`` gives the command that runs one of this package's modules
in a new Python process, this very package whatever the current folder holds.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: The folder that holds this package (the ``shuffle_sim`` folder's parent).
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def module_command(module: str, *args: str) -> tuple[list[str], dict[str, str]]:
    """(argv, environment) that run ``python -m module args...`` with this interpreter and this
    package: its folder first on ``PYTHONPATH``, and ``-P`` so that the current folder is not put
    before it (a folder of the same name there would be imported instead)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return [sys.executable, "-P", "-m", module, *args], env


def core_to_spare() -> bool:
    """Two or more cores, and fewer than one busy core besides this process's.

    Busy cores are the smaller of the last minute's load average and the number of other tasks
    running right now (Linux's ``/proc/loadavg``): the average alone still counts the commands that
    ran just before this one and have ended (a script that runs the job again and again keeps it near
    1 on an idle machine), and the count alone can catch a short task in passing."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return False
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here (Windows)
        return True
    return min(load, other_tasks_running()) <= cores - 1.5


def other_tasks_running() -> float:
    """Tasks running or ready to run now besides this process (``/proc/loadavg``), or inf if unknown."""
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return float("inf")
    return max(0, running - 1)
