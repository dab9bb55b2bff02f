"""Run a few independent tasks (drawing figures) side by side on the machine's cores.

Drawing a figure with matplotlib is plain Python holding the interpreter lock, so threads would take
turns. Forked processes do not: each starts as a copy of this one, with its modules, data and fonts
already loaded, and writes its own files. Where ``os.fork`` does not exist, with one core or one
task, or when the machine's cores are already busy (load average), the tasks run one after the other
here: a copy of the process then costs more than it saves. A task that fails in a child runs again
here, so its error is raised as usual.
"""

from __future__ import annotations

import os
import sys
import warnings


def run_side_by_side(tasks: list, cores: int | None = None) -> None:
    """Call every task in ``tasks`` (callables without arguments, results thrown away)."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        if hasattr(os, "getloadavg"):
            cores = min(cores, max(1, round(cores - os.getloadavg()[0] + 1)))  # this process's core and the idle ones
    if len(tasks) < 2 or cores < 2 or not hasattr(os, "fork"):
        for task in tasks:
            task()
        return
    groups = [tasks[k::cores] for k in range(min(cores, len(tasks)))]
    children = []
    sys.stdout.flush()
    sys.stderr.flush()
    for group in groups[1:]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork beside idle numba threads: the child draws only
            pid = os.fork()
        if pid == 0:  # the child: run its tasks and leave at once (no exit handlers, no buffers flushed twice)
            code = 0
            try:
                for task in group:
                    task()
            except BaseException:
                code = 1
            os._exit(code)
        children.append((pid, group))
    try:
        for task in groups[0]:
            task()
    finally:
        failed = []
        for pid, group in children:
            _, status = os.waitpid(pid, 0)
            if status != 0:
                failed.extend(group)
    for task in failed:
        task()
