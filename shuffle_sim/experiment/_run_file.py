"""A run of an experiment file as the command line starts it: lock, Dask, run, plots.

``run_file`` holds the results folder's lock (``_lock``) across the run and its plots, connects to a
Dask scheduler when asked, and draws the plots in a helper process when a core is free
(``_plot_helper``) or here otherwise. SIGTERM unwinds like Ctrl-C does, so the lock is always given
back.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

from shuffle_sim.experiment.errors import ExperimentError


@contextlib.contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """Within the block, SIGTERM raises SystemExit(143) (so ``finally`` clauses run, as for Ctrl-C)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _exit(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _dask_client(address: str):
    """A Dask client connected to the scheduler at ``address``; ``ExperimentError`` if it cannot be."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ExperimentError("--dask needs the optional extra: pip install 'shuffle_sim[dask]'") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise ExperimentError(f"cannot reach the Dask scheduler at {address!r} ({exc})") from None


def _kernels_ready(experiment) -> bool:
    """Whether numba's cache holds every kernel a run of ``experiment`` calls (no first-run compile)."""
    from shuffle_sim.experiment._warmup import job_kernels, kernels_cached

    return kernels_cached(job_kernels(experiment))


def run_file(
    path: str | os.PathLike,
    out: str | os.PathLike | None = None,
    *,
    resume: bool = False,
    workers: int = 1,
    dask: str | None = None,
    chunk_size: int | None = None,
    plots: bool = True,
    progress: bool = True,
):
    """Run the experiment file at ``path`` into ``out`` (default ``results/NAME``) and draw its plots.

    Returns ``(experiment, summary, plot_paths)``: the ``Experiment`` read from the file, the run's
    ``RunSummary`` and the plot files written (none with ``plots=False``). ``dask`` is a scheduler address; ``workers``
    local worker processes otherwise.
    """
    from shuffle_sim._runtime.helper_process import core_to_spare
    from shuffle_sim.experiment._plot_helper import PlotHelper

    # With a core to spare, the plots' process starts first: it imports matplotlib and rehearses the
    # plots while this one loads the kernels and computes.
    with PlotHelper() if plots and core_to_spare() else contextlib.nullcontext() as helper:
        from shuffle_sim.experiment._lock import folder_lock
        from shuffle_sim.experiment._runner import run_experiment
        from shuffle_sim.experiment.spec import load_experiment

        experiment = load_experiment(path)
        if helper is not None and _kernels_ready(experiment):
            # Not while a first run compiles: both cores are compiling then, and the rehearsal would
            # take its time from the compile (the helper still imports matplotlib meanwhile).
            helper.rehearse(experiment)
        out = Path(out) if out else Path("results") / experiment.name
        with _sigterm_unwinds(), folder_lock(out):
            client = _dask_client(dask) if dask is not None else None
            try:
                summary = run_experiment(
                    experiment,
                    out,
                    resume=resume,
                    workers=workers,
                    dask=client,
                    chunk_size=chunk_size,
                    progress=progress,
                    on_grid=helper.draw if helper is not None else None,
                    plots=False,
                )
            finally:
                if client is not None:
                    client.close()
            if not plots:
                paths = []
            elif helper is not None:
                paths = helper.paths()
            else:
                from shuffle_sim.experiment.heatmaps import save_plots

                paths = save_plots(summary.out, grid=summary.grid)
    return experiment, summary, paths
