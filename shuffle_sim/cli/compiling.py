"""Compiling ahead: ``shuffle-sim compile [GAME ...|--all]``.

A command's first use on an empty numba cache compiles the kernels it needs (seconds to minutes, once
per install); ``compile`` does that ahead, for a container image, a cluster's workers or a CI job, so
that later commands only load them. The tasks (``_compile_tasks``) call the package's entry points on
tiny cases, each in a process of its own, several at once (one per core by default): numba's compiler
works in one thread a process, and each process writes what it compiles to numba's cache (beside the
package's sources, or ``NUMBA_CACHE_DIR``), which the others and every later command read. A task
waits for the tasks whose kernels it shares (``Task.after``), so that no kernel is compiled by two
processes at once. A progress bar on standard error counts the tasks done.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from shuffle_sim.cli._common import UsageError, positive_int
from shuffle_sim.games import game_names


def run_task(name: str, games: list[str], graded: bool) -> tuple[float, float]:
    """Run the task ``name`` of ``tasks(games, graded)`` in this (worker) process; its wall seconds and
    this process's processor seconds meanwhile (nearly all of it compiling)."""
    from shuffle_sim.cli._compile_tasks import tasks

    began, began_cpu = time.perf_counter(), time.process_time()
    next(t for t in tasks(games, graded) if t.name == name).run()
    if _log is not None:  # the benchmark's record of what compiled (``SHUFFLE_SIM_COMPILE_LOG``)
        _log.write(os.environ["SHUFFLE_SIM_COMPILE_LOG"])
    return time.perf_counter() - began, time.process_time() - began_cpu


_log = None


def _worker_setup() -> None:
    # One compile per core: no helper processes beside the workers, no thread pool for the tiny cases.
    global _log
    os.environ["SHUFFLE_SIM_COMPILE_HELPER"] = "0"
    import numba

    numba.set_num_threads(1)
    if os.environ.get("SHUFFLE_SIM_COMPILE_LOG"):
        from shuffle_sim._runtime.compile_log import CompileLog

        _log = CompileLog().install()


def compile_ahead(
    games: list[str], graded: bool, workers: int, progress: bool = True
) -> dict[str, tuple[float, float] | str]:
    """Run every task for ``games`` (``graded``: the graded court's too) in ``workers`` processes, each
    as soon as the tasks it waits for are done; returns each task's (wall, processor) seconds, or its
    error."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from multiprocessing import get_context

    from tqdm import tqdm

    from shuffle_sim.cli._compile_tasks import tasks

    todo = tasks(games, graded)
    results: dict[str, tuple[float, float] | str] = {}
    bar = tqdm(total=len(todo), unit="task", desc="compiling", disable=not progress, file=sys.stderr)
    # spawn, not fork: a forked child would inherit this process's numba state half made.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_worker_setup) as pool:
        running: dict[Future, str] = {}
        while todo or running:
            for task in [t for t in todo if all(a in results for a in t.after)]:
                if len(running) >= workers:
                    break
                todo.remove(task)
                running[pool.submit(run_task, task.name, games, graded)] = task.name
            if not running:  # every task left waits for one that failed
                for task in todo:
                    results[task.name] = "not run: a task it waits for failed"
                break
            bar.set_postfix_str(", ".join(running.values()))
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                name = running.pop(future)
                error = future.exception()
                results[name] = future.result() if error is None else f"{type(error).__name__}: {error}"
                bar.update(1)
    bar.close()
    return results


def cmd_compile(args: argparse.Namespace) -> int:
    """Compile every kernel the named games' commands need (``--all``: every game, graded courts too)."""
    if args.all and args.game:
        raise UsageError("compile: name games or give --all, not both")
    unknown = [g for g in args.game if g not in game_names()]
    if unknown:
        raise UsageError(f"compile: unknown game {unknown[0]!r}: choose from {', '.join(game_names())}")
    games = list(game_names()) if args.all or not args.game else list(dict.fromkeys(args.game))
    graded = args.all or not args.game
    workers = args.workers or max(1, os.cpu_count() or 1)
    began = time.perf_counter()
    what = ", ".join(games) + (" and graded courts" if graded else "")
    print(f"compiling the kernels of {what} in {workers} processes", file=sys.stderr)
    results = compile_ahead(games, graded, workers, progress=not args.quiet)
    failed = {name: r for name, r in results.items() if isinstance(r, str)}
    for name, error in failed.items():
        print(f"shuffle-sim: compile: {name}: {error}", file=sys.stderr)
    print(f"compiled in {time.perf_counter() - began:.0f} s ({len(results) - len(failed)} of {len(results)} tasks)")
    return 1 if failed else 0


def register(sub) -> None:
    """Add this module's subcommand to the parser's subparsers ``sub``."""
    p = sub.add_parser(
        "compile",
        help="compile the kernels of the named games' commands ahead (images, clusters, CI); no game: all",
    )
    p.add_argument("game", nargs="*", metavar="GAME", help=f"a game: {', '.join(game_names())} (repeatable)")
    p.add_argument("--all", action="store_true", help="every game's commands, graded courts too (the default)")
    p.add_argument("--workers", type=positive_int, default=None, metavar="N", help="processes (default: one per core)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_compile)
