"""Running an experiment: grid cells x noise samples -> fixed chunks -> one numba batch call each.

``run_experiment`` runs the pending chunks (``_chunks.compute_chunk``) in this process (numba
threads), in ``workers`` local processes (one numba thread each), or on a Dask distributed cluster,
writes each finished chunk atomically, and assembles ``grid.nc`` (and ``shots.parquet`` with
per-shot records) at the end (``_assembly``). The results are bit-identical whatever the chunk size,
the worker count or the scheduler.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from shuffle_sim.experiment._assembly import add_chunk, build_grid, empty_sums, write_records
from shuffle_sim.experiment._chunks import chunk_range, compute_chunk
from shuffle_sim.experiment._lock import folder_lock
from shuffle_sim.experiment._plan import shot_plan, takes_lone_path
from shuffle_sim.experiment.spec import Experiment, ExperimentError, load_experiment, possible_values
from shuffle_sim.experiment.store import ResultsDir
from shuffle_sim.messages import shown


@dataclass(frozen=True)
class RunSummary:
    """What a run did: where the results are, how many chunks it computed and reused, how long it took."""

    out: Path
    n_shots: int
    n_chunks: int
    computed: int
    reused: int
    seconds: float
    complete: bool
    grid_path: Path | None
    records_path: Path | None
    failed: int = 0  # shots left out of the outcomes: not played (start) or not finished (event bound)
    retried: tuple[int, ...] = ()  # chunks computed again because their Dask worker was lost
    #: The grid outcomes as written to ``grid_path`` (a ``GridResults``; ``.to_xarray()`` for an xarray
    #: ``Dataset``), for plotting without reading them back.
    grid: object = field(default=None, repr=False, compare=False)
    plots: tuple[Path, ...] = ()  # the plot files drawn (``run_experiment(plots=True)``)

    @property
    def shots_per_second(self) -> float:
        return self.n_shots / self.seconds if self.seconds > 0 else float("inf")


def _run_in_process(experiment: Experiment, pending: list[int], chunk_size: int) -> Iterator[tuple[int, dict]]:
    if takes_lone_path(experiment):
        # Runs of consecutive chunks, up to about a million shots, in one numba call each (the same sums).
        from shuffle_sim.experiment._lone_chunk import BATCH_SHOTS, lone_chunks_sums, lone_plan

        values = possible_values(experiment.court)
        planned = lone_plan(experiment, chunk_size, shot_plan)
        per_call = max(1, BATCH_SHOTS // chunk_size)
        k = 0
        while k < len(pending):
            group = [pending[k]]
            while len(group) < per_call and k + len(group) < len(pending) and pending[k + len(group)] == group[-1] + 1:
                group.append(pending[k + len(group)])
            k += len(group)
            found = lone_chunks_sums(experiment, group, chunk_size, values, shot_plan, planned)
            if found is None:  # chunk by chunk, the general path reporting the bad shot
                found = (compute_chunk(experiment, index, chunk_size) for index in group)
            yield from zip(group, found)
        return
    for index in pending:
        yield index, compute_chunk(experiment, index, chunk_size)


def _run_in_processes(experiment: Experiment, pending: list[int], chunk_size: int, workers: int):
    import multiprocessing

    # spawn, not fork: the parent may already run numba threads, which a forked child would inherit broken.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures: dict[Future, int] = {}
        queue = list(pending)
        try:
            # Keep a few chunks per worker in flight: the order of completion never matters for the result.
            while queue or futures:
                while queue and len(futures) < 2 * workers:
                    index = queue.pop(0)
                    futures[pool.submit(compute_chunk, experiment, index, chunk_size, 1)] = index
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    yield futures.pop(future), future.result()
        finally:
            for future in futures:
                future.cancel()


def _run_on_dask(experiment: Experiment, pending: list[int], chunk_size: int, dask, on_retry=None):
    """Chunks on a Dask cluster. A worker lost mid-run (killed, out of memory) takes its chunks with
    it; the scheduler runs them again elsewhere, and ``on_retry(worker, chunks)`` hears which
    (``dask_watch``). The experiment travels as a task, not as scattered data, so that the scheduler
    can recompute it too if every worker holding it is lost."""
    from dask.distributed import Client, as_completed

    from shuffle_sim.experiment._dask_watch import WorkerLossWatch

    client = dask if isinstance(dask, Client) else Client(dask)
    index_of = {f"shuffle-sim-chunk-{index}-{experiment.fingerprint[:12]}-{chunk_size}": index for index in pending}
    try:
        with WorkerLossWatch(client, index_of, on_retry) as watch:
            shared = client.submit(_same, experiment, key=f"shuffle-sim-experiment-{experiment.fingerprint[:12]}")
            futures = [
                client.submit(compute_chunk, shared, index, chunk_size, 1, key=key) for key, index in index_of.items()
            ]
            completed = as_completed(futures)
            try:
                for future in completed:
                    watch.report()
                    watch.done(future.key)
                    yield index_of[future.key], future.result()
                    future.release()
            finally:
                for future in futures:
                    future.cancel()
    finally:
        if client is not dask:
            client.close()


def _same(experiment: Experiment) -> Experiment:
    return experiment


def run_experiment(
    experiment: Experiment | str | os.PathLike,
    out: str | os.PathLike | None = None,
    *,
    resume: bool = False,
    workers: int = 1,
    dask=None,
    chunk_size: int | None = None,
    progress: bool = True,
    stop_after: int | None = None,
    on_grid=None,
    plots: bool = True,
) -> RunSummary:
    """Run an experiment into the results folder ``out`` (default ``results/NAME``).

    ``workers``: 1 runs chunks in this process with numba's threads; N > 1 runs them in N local
    processes with one numba thread each. ``dask``: the address of a Dask distributed scheduler (or a
    ``distributed.Client``) to send chunks to instead. ``resume`` keeps the finished chunks of an
    interrupted run in ``out`` and computes only the others. ``stop_after`` stops after that many
    chunks have been written (a test hook that simulates an interruption); the summary then says
    ``complete=False`` and nothing is assembled. ``on_grid(folder, grid)`` hears of the assembled
    grid outcomes (a ``grid.GridResults``) before they are written (the command line hands them to
    its plot helper then). ``plots`` draws the experiment file's plots into the folder when the run
    is complete, as ``shuffle-sim run`` does (``heatmaps.save_plots``; the summary lists them);
    ``plots=False`` writes results only.

    The run holds the folder's lock from start to end (``_lock``): a second run into the same
    folder, resumed or not, raises ``FolderLocked`` naming the folder and the run that holds it.
    """
    if not isinstance(experiment, Experiment):
        experiment = load_experiment(experiment)
    folder = out if out is not None else Path("results") / experiment.name
    with folder_lock(folder):
        summary = _run_locked(
            experiment,
            folder,
            resume=resume,
            workers=workers,
            dask=dask,
            chunk_size=chunk_size,
            progress=progress,
            stop_after=stop_after,
            on_grid=on_grid,
        )
        if plots and summary.complete:
            from dataclasses import replace

            from shuffle_sim.experiment.heatmaps import save_plots

            summary = replace(summary, plots=tuple(save_plots(summary.out, grid=summary.grid)))
        return summary


def _chunk_size(experiment: Experiment, results: ResultsDir, chunk_size: int | None, resume: bool) -> int:
    """The run's chunk size: the one asked for, else a resumed run's, else the file's; whole paired
    executions per chunk."""
    if chunk_size is None and resume:
        old = results.read_manifest()
        chunk_size = old.get("chunk_size") if old else None
    chunk_size = chunk_size or experiment.chunk_size
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ExperimentError(f"chunk size must be a positive integer (got {shown(chunk_size)})")
    return experiment.aligned_chunk_size(chunk_size)


def _source(experiment: Experiment, pending: list[int], chunk_size: int, workers: int, dask, on_retry):
    """The computed chunks, (index, sums), as they come: on Dask, in worker processes or here."""
    if dask is not None:
        return _run_on_dask(experiment, pending, chunk_size, dask, on_retry)
    if workers > 1:
        return _run_in_processes(experiment, pending, chunk_size, workers)
    return _run_in_process(experiment, pending, chunk_size)


class _Progress:
    """The run's progress bar and its postfix: chunks done of all, and the chunks retried."""

    def __init__(self, experiment: Experiment, done_shots: int, reused: int, n_chunks: int, show: bool):
        from tqdm import tqdm

        self.name = experiment.name
        self.show = show
        self.reused = reused
        self.n_chunks = n_chunks
        self.computed = 0
        self.retried: list[int] = []
        # The average since the start: chunks come in bursts.
        self.bar = tqdm(
            total=experiment.n_shots,
            initial=done_shots,
            unit="shot",
            unit_scale=True,
            desc=experiment.name,
            disable=not show,
            smoothing=0,
        )

    def update(self, shots: int) -> None:
        self.bar.update(shots)
        self.bar.set_postfix_str(self.postfix())

    def postfix(self) -> str:
        return f"chunks {self.reused + self.computed}/{self.n_chunks}" + (
            f", {len(self.retried)} retried" if self.retried else ""
        )

    def on_retry(self, worker: str, chunks: list[int]) -> None:
        self.retried.extend(chunks)
        if self.show:
            self.bar.write(
                f"{self.name}: lost Dask worker {worker}; computing again chunk"
                f"{'s' if len(chunks) > 1 else ''} {', '.join(map(str, chunks))}",
                file=sys.stderr,
            )
            self.bar.set_postfix_str(self.postfix())


def _compute(
    experiment: Experiment,
    results: ResultsDir,
    source,
    sums: dict,
    progress: _Progress,
    chunk_size: int,
    stop_after: int | None,
) -> bool:
    """Add the chunks of ``source`` into ``sums`` as they come, writing each chunk's file from a thread
    of its own while the next chunks compute (the batch kernels let go of Python's lock); every
    write is checked and finished before this returns. False when ``stop_after`` stopped the run."""
    writer = ThreadPoolExecutor(1, thread_name_prefix="shuffle-sim-chunk-writer")
    writes: list = []

    def finish_writes(all_of_them: bool) -> None:
        while writes and (all_of_them or writes[0].done()):
            writes.pop(0).result()

    try:
        progress.bar.set_postfix_str(progress.postfix())
        for index, arrays in source:
            writes.append(writer.submit(results.write_chunk, index, arrays, experiment.fingerprint, chunk_size))
            finish_writes(False)
            add_chunk(sums, arrays)
            progress.computed += 1
            start, stop = chunk_range(experiment, index, chunk_size)
            progress.update(stop - start)
            if (
                stop_after is not None
                and progress.computed >= stop_after
                and progress.reused + progress.computed < progress.n_chunks
            ):
                source.close()
                finish_writes(True)
                return False
        finish_writes(True)
        return True
    finally:
        progress.bar.close()
        if hasattr(source, "close"):
            source.close()
        writer.shutdown(wait=True)


def _check_workers(workers, dask) -> None:
    """``ExperimentError`` unless ``workers`` is a positive integer, and 1 with a Dask scheduler."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ExperimentError(f"workers must be a positive integer (got {shown(workers)})")
    if dask is not None and workers != 1:
        raise ExperimentError("give either workers or a Dask scheduler, not both")


def _chunks_left(
    experiment: Experiment, results: ResultsDir, chunk_size: int, resume: bool
) -> tuple[set[int], list[int], int]:
    """The chunks a resumed run finds finished, the ones left to compute, and the shots finished."""
    n_chunks = experiment.n_chunks(chunk_size)
    finished = results.finished_chunks(experiment.fingerprint, chunk_size) if resume else set()
    finished &= set(range(n_chunks))
    pending = [k for k in range(n_chunks) if k not in finished]
    done_shots = sum(min(chunk_size, experiment.n_shots - k * chunk_size) for k in finished)
    return finished, pending, done_shots


def _run_locked(
    experiment: Experiment,
    out: str | os.PathLike,
    *,
    resume: bool,
    workers: int,
    dask,
    chunk_size: int | None,
    progress: bool,
    stop_after: int | None,
    on_grid=None,
) -> RunSummary:
    """``run_experiment`` with the results folder's lock held."""
    _check_workers(workers, dask)
    results = ResultsDir(out if out is not None else Path("results") / experiment.name)
    chunk_size = _chunk_size(experiment, results, chunk_size, resume)
    began = time.perf_counter()
    manifest = results.prepare(experiment, chunk_size, resume)
    n_chunks = experiment.n_chunks(chunk_size)
    finished, pending, done_shots = _chunks_left(experiment, results, chunk_size, resume)
    if dask is None and pending:
        # Compile (first run) or load the job's kernels before the clock of the progress display starts;
        # local worker processes then load them from numba's cache.
        from shuffle_sim.experiment._warmup import warm_up

        warm_up(experiment, chunk_size, compute_chunk, progress=progress)
    shown_progress = _Progress(experiment, done_shots, len(finished), n_chunks, progress)
    # The sums of the chunks computed now are added as they come; only the reused ones are read back.
    sums = empty_sums(experiment)
    for k in sorted(finished):
        add_chunk(sums, results.read_chunk(k))
    source = _source(experiment, pending, chunk_size, workers, dask, shown_progress.on_retry)
    if not _compute(experiment, results, source, sums, shown_progress, chunk_size, stop_after):
        return RunSummary(
            results.path,
            experiment.n_shots,
            n_chunks,
            shown_progress.computed,
            len(finished),
            time.perf_counter() - began,
            False,
            None,
            None,
            retried=tuple(shown_progress.retried),
        )
    computed, retried = shown_progress.computed, tuple(shown_progress.retried)
    grid = build_grid(experiment, sums)
    if on_grid is not None:
        on_grid(results.path, grid)
    grid_path = results.write_grid(grid)
    records_path = write_records(experiment, results, n_chunks) if experiment.records else None
    seconds = time.perf_counter() - began
    manifest.update(
        status="complete",
        seconds=round(seconds, 3),
        chunks_computed=computed,
        chunks_reused=len(finished),
        chunks_retried=sorted(retried),
        grid=grid_path.name,
        records=records_path.name if records_path else None,
    )
    results.write_manifest(manifest)
    return RunSummary(
        results.path,
        experiment.n_shots,
        n_chunks,
        computed,
        len(finished),
        seconds,
        True,
        grid_path,
        records_path,
        int(sums["failed"].sum()),
        retried,
        grid,
    )
