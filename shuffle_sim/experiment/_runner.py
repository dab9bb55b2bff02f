"""Batch shot experiments: grid cells x noise samples -> fixed chunks -> one numba batch call each.

The shot index space is fixed by the experiment: shot ``i`` is sample ``i % samples`` of grid cell
``i // samples`` (cells in C order over the grid axes). Its intended parameters come from the grid,
the nominal shot and the parameter distributions; its execution errors from the noise model. Every
random draw is a pure function of (seed, shot index) (see ``shuffle_sim.noise``), so a chunk of shots
computes the same numbers wherever and whenever it runs. Chunks reduce their shots to integer sums per
grid cell (shots, value sum, value counts, dead, hangers, ...); integer sums add up exactly in any
order, so the assembled results are bit-identical whatever the chunk size, the worker count or the
scheduler.

``run_experiment`` runs the pending chunks in this process (numba threads), in ``workers`` local
processes (one numba thread each), or on a Dask distributed cluster, writes each finished chunk
atomically, and assembles ``grid.nc`` (and ``shots.parquet`` with per-shot records) at the end.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from concurrent.futures import (
    FIRST_COMPLETED,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np

from shuffle_sim._version import __version__
from shuffle_sim.experiment._grid_file import GridResults, GridVariable
from shuffle_sim.experiment._chunk_kernels import (
    STATUS_FALLEN,
    STATUS_HOLED,
    build_shots,
    reduce_chunk,
)
from shuffle_sim.experiment._lock import folder_lock
from shuffle_sim.experiment._plan import shot_plan, takes_lone_path
from shuffle_sim.experiment.spec import (
    LONG_NAMES,
    OUTCOMES,
    Experiment,
    ExperimentError,
    load_experiment,
    possible_values,
)
from shuffle_sim.experiment.store import RNG_DESCRIPTION, ResultsDir
from shuffle_sim.rules import ricochet
from shuffle_sim.messages import shown
from shuffle_sim.shots import ShotBatch, simulate_shots

#: Per-cell integer sums a chunk returns; assembled by adding (exact in any order).
_CELL_SUMS = ("shots", "failed", "value_sum", "dead", "hanger", "corner_hanger", "holed", "score_sum",
              "opponent_sum")


@dataclass(frozen=True)
class Shots:
    """Shot parameters for a range of shot indices (SI; direction in radians from +y toward +x)."""

    speed: np.ndarray
    direction: np.ndarray
    spin: np.ndarray
    start_x: np.ndarray
    start_y: np.ndarray
    skill: np.ndarray  # int64 index into Experiment.skill_models()
    court: np.ndarray  # int64 index into Experiment.courts()

    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        return self.speed * np.sin(self.direction), self.speed * np.cos(self.direction)


def chunk_range(experiment: Experiment, index: int, chunk_size: int) -> tuple[int, int]:
    """First and one-past-last shot index of chunk ``index`` in the layout of ``chunk_size`` shots."""
    start = index * chunk_size
    if index < 0 or start >= experiment.n_shots:
        raise ValueError(f"chunk {index} is outside the experiment's {experiment.n_chunks(chunk_size)} chunks")
    return start, min(start + chunk_size, experiment.n_shots)


def _shots(experiment: Experiment, start: int, stop: int, with_noise: bool) -> Shots:
    n = stop - start
    out = [np.empty(n) for _ in range(5)]
    plan = shot_plan(experiment)
    skill = np.zeros(n, dtype=np.int64)
    court = np.zeros(n, dtype=np.int64)
    if n and experiment.paired:
        from shuffle_sim.experiment.pairing import shot_cells

        return _drawn_shots(experiment, plan, *shot_cells(experiment, start, stop)[:2], out, with_noise)
    if n:
        build_shots(np.uint64(start), plan["samples"], plan["grid_shape"], plan["axis_param"], plan["axis_values"],
                    plan["nominal"], plan["dist_param"], plan["dist_kind"], plan["dist_a"], plan["dist_b"],
                    plan["skill_sd"], plan["uses_target"], plan["speed_given"], plan["overshoot"],
                    plan["stop_speed_per_root_metre"], plan["k0"], plan["k1"], with_noise, *out)
        for k, axis in enumerate(experiment.axes):
            if axis.name in ("skill", "court_speed"):
                cell = np.arange(start, stop, dtype=np.int64) // experiment.samples
                index = np.unravel_index(cell, experiment.grid_shape)[k].astype(np.int64)
                if axis.name == "skill":
                    skill = index
                else:
                    court = index
    return Shots(*out, skill, court)


def _drawn_shots(experiment: Experiment, plan: dict, cells: np.ndarray, draws: np.ndarray, out: list,
                 with_noise: bool) -> Shots:
    """``_shots`` of a paired experiment: each shot's cell and random counter given (``pairing``)."""
    from shuffle_sim.experiment.pairing import build_drawn_shots

    build_drawn_shots(cells, draws, plan["grid_shape"], plan["axis_param"], plan["axis_values"], plan["nominal"],
                      plan["dist_param"], plan["dist_kind"], plan["dist_a"], plan["dist_b"], plan["skill_sd"],
                      plan["uses_target"], plan["speed_given"], plan["overshoot"], plan["stop_speed_per_root_metre"],
                      plan["k0"], plan["k1"], with_noise, *out)
    skill = np.zeros(len(cells), dtype=np.int64)
    court = np.zeros(len(cells), dtype=np.int64)
    for k, axis in enumerate(experiment.axes):
        if axis.name == "skill":
            skill = np.unravel_index(cells, experiment.grid_shape)[k].astype(np.int64)
        elif axis.name == "court_speed":
            court = np.unravel_index(cells, experiment.grid_shape)[k].astype(np.int64)
    return Shots(*out, skill, court)


def intended_shots(experiment: Experiment, start: int, stop: int) -> Shots:
    """The shots the player means to play for shot indices ``start .. stop - 1`` (no execution noise)."""
    return _shots(experiment, start, stop, with_noise=False)


def executed_shots(experiment: Experiment, start: int, stop: int) -> Shots:
    """The shots as played: intended shots plus each shot's execution errors (noise model per skill)."""
    return _shots(experiment, start, stop, with_noise=True)


def _simulate_by_court(experiment: Experiment, shots: Shots, vx: np.ndarray, vy: np.ndarray):
    """``simulate_shots`` of the shots, each on its cell's court (``Experiment.courts``: one batch call per
    court of a court-speed axis, the rows put back in shot order)."""
    courts = experiment.courts()

    def play(court, rows):
        return simulate_shots(court, shots.start_x[rows], shots.start_y[rows], vx[rows], vy[rows], shots.spin[rows],
                              board=experiment.board, end=experiment.end, bad_starts="skip")

    if len(courts) == 1:
        return play(courts[0], slice(None))
    whole = None
    for c, court in enumerate(courts):
        rows = np.flatnonzero(shots.court == c)
        if rows.size:
            part = play(court, rows)
            if whole is None:
                whole = ShotBatch.empty(len(shots.court), part.x.shape[1])
            for name in ShotBatch.LAYOUT:
                getattr(whole, name)[rows] = getattr(part, name)
    return whole


def compute_chunk(experiment: Experiment, index: int, chunk_size: int, numba_threads: int | None = None) -> dict:
    """Simulate and judge one chunk in one numba batch call; return its per-cell integer sums.

    ``numba_threads`` caps the numba threads of this call (1 in worker processes and Dask workers, so
    that N workers use N cores). The result holds ``cell_start`` and, per grid cell from there, the
    sums named in ``_CELL_SUMS`` plus ``value_counts`` (cells x values) and ``removed`` (cells x board
    discs); with ``records`` also the per-shot arrays.
    """
    if numba_threads is not None:
        import numba

        numba.set_num_threads(max(1, min(numba_threads, numba.config.NUMBA_NUM_THREADS)))
    start, stop = chunk_range(experiment, index, chunk_size)
    if takes_lone_path(experiment):
        from shuffle_sim.experiment._lone_chunk import lone_chunk_sums

        # The same sums from one numba call that builds, plays, judges and adds up the shots.
        out = lone_chunk_sums(experiment, start, stop, chunk_size, possible_values(experiment.court), shot_plan)
        if out is not None:
            return out
    shots = executed_shots(experiment, start, stop)
    vx, vy = shots.velocities()
    # A sampled start off the surface or on a disc is a shot no player could take: not played, and
    # counted with the failed shots of its cell.
    batch = _simulate_by_court(experiment, shots, vx, vy)
    if experiment.court.game == ricochet.GAME:  # a round scores on the half opposite the start (ricochet rules)
        ricochet.score_only_far_half(shots.start_x, batch.x, batch.value, batch.dead, batch.hanger)

    samples = experiment.samples
    cell_start = start // samples
    n_local = (stop - 1) // samples - cell_start + 1
    values = possible_values(experiment.court)
    n_board = len(experiment.board_names)
    board_teams = list(experiment.board.team) if experiment.board is not None else []
    shooter = np.array([t == experiment.team for t in board_teams] + [True])
    if experiment.paired:  # cells interleaved, and the paired differences (``pairing``)
        from shuffle_sim.experiment._chunk_kernels import reduce_rows
        from shuffle_sim.experiment.pairing import paired_chunk_sums, shot_cells

        cells, draws, ucells = shot_cells(experiment, start, stop)
        out = paired_chunk_sums(experiment, start, stop, batch, values, shooter, cells, ucells, reduce_rows)
        return _with_records(experiment, out, start, stop, shots, batch, shooter, draws)
    out = {k: np.zeros(n_local, dtype=np.int64) for k in _CELL_SUMS}
    out["value_counts"] = np.zeros((n_local, len(values)), dtype=np.int64)
    out["removed"] = np.zeros((n_local, n_board), dtype=np.int64)
    bad = reduce_chunk(start, samples, cell_start, batch.value, batch.status, batch.dead, batch.hanger, batch.ok,
                       values, shooter, out["shots"], out["failed"], out["value_sum"], out["value_counts"],
                       out["dead"], out["hanger"], out["corner_hanger"], out["holed"], out["score_sum"],
                       out["opponent_sum"], out["removed"])
    if bad >= 0:
        raise RuntimeError(f"shot {start + bad} was judged {int(batch.value[bad, -1])}, not a value of court "
                           f"{experiment.court.name!r} ({values.tolist()})")
    out["cell_start"] = np.array(cell_start, dtype=np.int64)
    if experiment.board is None:
        for k in ("score_sum", "opponent_sum", "removed"):
            del out[k]
    return _with_records(experiment, out, start, stop, shots, batch, shooter)


def _with_records(experiment: Experiment, out: dict, start: int, stop: int, shots: Shots, batch,
                  shooter: np.ndarray, draws: np.ndarray | None = None) -> dict:
    """``out`` with the chunk's per-shot records added when the experiment keeps them (``draws``: the
    random counters of a paired experiment's shots)."""
    if experiment.records:
        shot_status = batch.status[:, -1]
        if draws is not None:
            out["record_draw"] = draws
        out.update(
            record_shot=np.arange(start, stop, dtype=np.int64),
            record_speed=shots.speed,
            record_direction=np.degrees(shots.direction),
            record_spin=shots.spin,
            record_start_x=shots.start_x,
            record_start_y=shots.start_y,
            record_x=np.asarray(batch.x[:, -1], dtype=np.float64),
            record_y=np.asarray(batch.y[:, -1], dtype=np.float64),
            record_value=batch.value[:, -1].astype(np.int64),
            record_dead=np.asarray(batch.dead[:, -1], bool) | (shot_status == STATUS_FALLEN),
            record_hanger=np.asarray(batch.hanger[:, -1], dtype=np.int8),
            record_holed=shot_status == STATUS_HOLED,
            record_ok=np.asarray(batch.ok, dtype=bool),
            record_played=np.asarray(batch.played, dtype=bool),
        )
        if experiment.board is not None:
            value = batch.value.astype(np.int64)
            out.update(record_score=value[:, shooter].sum(axis=1), record_opponent_score=value[:, ~shooter].sum(axis=1))
    return out


# --------------------------------------------------------------------------------------------------
# Assembly


def _empty_sums(experiment: Experiment) -> dict[str, np.ndarray]:
    cells = experiment.n_cells
    n_values = len(possible_values(experiment.court))
    n_board = len(experiment.board_names)
    sums = {k: np.zeros(cells, dtype=np.int64) for k in _CELL_SUMS}
    sums["value_counts"] = np.zeros((cells, n_values), dtype=np.int64)
    sums["removed"] = np.zeros((cells, n_board), dtype=np.int64)
    if experiment.paired:
        from shuffle_sim.experiment.pairing import empty_pair_sums

        sums.update(empty_pair_sums(experiment, n_values))
    return sums


def _add_chunk(sums: dict[str, np.ndarray], data: dict[str, np.ndarray]) -> None:
    """Add one chunk's per-cell sums into the experiment's (integer sums: exact in any order)."""
    if "cells" in data:  # a paired experiment's chunk: its cells, and its draws' unpaired cells
        for name in list(_CELL_SUMS) + ["value_counts", "removed"]:
            if name in data:
                sums[name][data["cells"]] += data[name]
        for name in ("pair_shots", "pair_diff_sum", "pair_diff_sumsq", "pair_value_counts"):
            sums[name][data["pair_cells"]] += data[name]
        return
    c0 = int(data["cell_start"])
    for name in list(_CELL_SUMS) + ["value_counts", "removed"]:
        if name in data:
            part = data[name]
            sums[name][c0:c0 + len(part)] += part


def build_dataset(experiment: Experiment, sums: dict[str, np.ndarray]):
    """The grid outcomes as an ``xarray.Dataset`` (dims: the grid axes; plus value, board_disc)."""
    return build_grid(experiment, sums).to_xarray()


def build_grid(experiment: Experiment, sums: dict[str, np.ndarray]) -> GridResults:
    """The grid outcomes (dims: the grid axes; plus value, board_disc), as ``grid.nc`` holds them."""
    dims = [a.name for a in experiment.axes]
    shape = experiment.grid_shape
    coords = {}
    for axis in experiment.axes:
        values = axis.values.astype(str) if axis.name == "skill" else axis.values
        attrs = {"long_name": LONG_NAMES[axis.name]}
        if axis.unit:
            attrs["units"] = axis.unit
        coords[axis.name] = GridVariable((axis.name,), np.asarray(values), attrs)
    for axis in experiment.axes:
        if axis.name == "court_speed":
            coords["court_mu"] = GridVariable(("court_speed",), np.array([c.params["mu"] for c in experiment.courts()]),
                                              {"long_name": "sliding friction mu of the court speed", "units": "1"})
    values = possible_values(experiment.court)
    coords["value"] = GridVariable(("value",), values, {"long_name": "judged value of the shot disc", "units": "points"})
    if experiment.board_names:
        coords["board_disc"] = GridVariable(("board_disc",), np.array(experiment.board_names, dtype=str),
                                           {"long_name": "resting disc of the board"})
        coords["board_team"] = GridVariable(("board_disc",), np.array(experiment.board.team, dtype=str),
                                           {"long_name": "team of the resting disc"})
        coords["board_x"] = GridVariable(("board_disc",), np.asarray(experiment.board.x, dtype=np.float64), {"long_name": "board disc x", "units": "m"})
        coords["board_y"] = GridVariable(("board_disc",), np.asarray(experiment.board.y, dtype=np.float64), {"long_name": "board disc y", "units": "m"})

    shots = sums["shots"].reshape(shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        def mean(name):
            return sums[name].reshape(shape) / shots

        def per(name, extra):
            return sums[name].reshape(shape + (extra,)) / shots[..., None]

        variables = {
            "shots": (dims, shots, {"long_name": "shots judged", "units": "1"}),
            "failed": (dims, sums["failed"].reshape(shape),
                       {"long_name": "shots not played (sampled start off the surface or on a disc) or not "
                                     "finished within the event bound (excluded)", "units": "1"}),
        }
        makers = {
            "expected_value": lambda: mean("value_sum"),
            "p_value": lambda: per("value_counts", len(values)),
            "p_dead": lambda: mean("dead"),
            "p_hanger": lambda: mean("hanger"),
            "p_corner_hanger": lambda: mean("corner_hanger"),
            "p_holed": lambda: mean("holed"),
            "expected_score": lambda: mean("score_sum"),
            "expected_opponent_score": lambda: mean("opponent_sum"),
            "expected_margin": lambda: (sums["score_sum"] - sums["opponent_sum"]).reshape(shape) / shots,
            "p_removed": lambda: per("removed", len(experiment.board_names)),
        }
        for name in experiment.outcomes:
            extra = ["value"] if name == "p_value" else ["board_disc"] if name == "p_removed" else []
            unit = "points" if name.startswith("expected") else "1"
            variables[name] = (dims + extra, makers[name](), {"long_name": OUTCOMES[name][1], "units": unit})
    noise = experiment.skill_models()
    attrs = {
        "title": experiment.title,
        "experiment_name": experiment.name,
        "experiment": experiment.text,
        "court_name": experiment.court.name,
        "court_file": experiment.court_text,
        "court_end": experiment.court.end,
        "game": experiment.court.game,
        "shooter_team": experiment.team,
        "shot_start_x": experiment.shot["start_x"],
        "shot_start_y": experiment.shot["start_y"],
        "shot_target": "none" if experiment.shot["target_x"] is None
        else f"{experiment.shot['target_x']!r} {experiment.shot['target_y']!r}",
        "disc_radius": experiment.court.disc_radius,
        "mu": experiment.court.params["mu"],
        "gravity": experiment.court.params["gravity"],
        "package": "shuffle_sim",
        "package_version": __version__,
        "seed": str(experiment.seed),
        "rng": RNG_DESCRIPTION,
        "samples_per_cell": experiment.samples,
        "n_shots": experiment.n_shots,
        "noise": "; ".join(
            f"{m.name}: speed sd {m.speed:g} (relative)"
            + (f" and {m.speed_floor:g} m/s (absolute)" if m.speed_floor else "")
            + f", direction sd {math.degrees(m.direction):g} deg, spin sd {m.spin:g} rad/s, start sd {m.start:g} m"
            for m in noise),
        "fingerprint": experiment.fingerprint,
        "plots": json.dumps([{k: v for k, v in vars(p).items() if v not in (None, {})} for p in experiment.plots]),
    }
    data_vars = {k: GridVariable(tuple(d), np.asarray(v), a) for k, (d, v, a) in variables.items()}
    if experiment.paired:
        from shuffle_sim.experiment.pairing import paired_variables

        paired_variables(experiment, sums, values, coords, data_vars, attrs)
    return GridResults(coords, data_vars, attrs)


def _write_records(experiment: Experiment, results: ResultsDir, n_chunks: int) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = results.path / f".{results.records_path.name}.tmp"
    writer = None
    try:
        for k in range(n_chunks):
            data = results.read_chunk(k)
            columns = {name[len("record_"):]: data[name] for name in sorted(data) if name.startswith("record_")}
            cell = columns["shot"] // experiment.samples
            if experiment.paired:
                from shuffle_sim.experiment.pairing import shot_cells

                cell = shot_cells(experiment, int(columns["shot"][0]), int(columns["shot"][-1]) + 1)[0]
            table = {"shot": columns.pop("shot"), "cell": cell}
            if experiment.axes:
                for axis, idx in zip(experiment.axes, np.unravel_index(cell, experiment.grid_shape)):
                    table[f"grid_{axis.name}"] = axis.values.astype(str)[idx] if axis.name == "skill" else axis.values[idx]
            table.update(columns)
            batch = pa.table(table)
            if writer is None:
                metadata = {b"experiment": experiment.text.encode(), b"package_version": __version__.encode(),
                            b"seed": str(experiment.seed).encode(), b"rng": RNG_DESCRIPTION.encode()}
                writer = pq.ParquetWriter(tmp, batch.schema.with_metadata(metadata))
            writer.write_table(batch)
        if writer is not None:
            writer.close()
            writer = None
            os.replace(tmp, results.records_path)
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
    return results.records_path


# --------------------------------------------------------------------------------------------------
# Running


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
    #: The grid outcomes as written to ``grid_path`` (a ``grid.GridResults``; ``.to_xarray()`` for a
    #: ``Dataset``), for plotting without reading them back.
    dataset: object = field(default=None, repr=False, compare=False)
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
        futures = {}
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
            futures = [client.submit(compute_chunk, shared, index, chunk_size, 1, key=key)
                       for key, index in index_of.items()]
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
        summary = _run_locked(experiment, folder, resume=resume, workers=workers, dask=dask, chunk_size=chunk_size,
                              progress=progress, stop_after=stop_after, on_grid=on_grid)
        if plots and summary.complete:
            from dataclasses import replace

            from shuffle_sim.experiment.heatmaps import save_plots

            summary = replace(summary, plots=tuple(save_plots(summary.out, dataset=summary.dataset)))
        return summary


def _run_locked(experiment: Experiment, out: str | os.PathLike, *, resume: bool, workers: int, dask,
                chunk_size: int | None, progress: bool, stop_after: int | None, on_grid=None) -> RunSummary:
    """``run_experiment`` with the results folder's lock held."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ExperimentError(f"workers must be a positive integer (got {shown(workers)})")
    if dask is not None and workers != 1:
        raise ExperimentError("give either workers or a Dask scheduler, not both")
    results = ResultsDir(out if out is not None else Path("results") / experiment.name)
    if chunk_size is None and resume:
        old = results.read_manifest()
        chunk_size = old.get("chunk_size") if old else None
    chunk_size = chunk_size or experiment.chunk_size
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ExperimentError(f"chunk size must be a positive integer (got {shown(chunk_size)})")
    chunk_size = experiment.aligned_chunk_size(chunk_size)

    began = time.perf_counter()
    manifest = results.prepare(experiment, chunk_size, resume)
    n_chunks = experiment.n_chunks(chunk_size)
    finished = results.finished_chunks(experiment.fingerprint, chunk_size) if resume else set()
    finished &= set(range(n_chunks))
    pending = [k for k in range(n_chunks) if k not in finished]
    done_shots = sum(min(chunk_size, experiment.n_shots - k * chunk_size) for k in finished)

    if dask is None and pending:
        # Compile (first run) or load the job's kernels before the clock of the progress display starts;
        # local worker processes then load them from numba's cache.
        from shuffle_sim.experiment._warmup import warm_up

        warm_up(experiment, chunk_size, compute_chunk, progress=progress)

    from tqdm import tqdm

    bar = tqdm(total=experiment.n_shots, initial=done_shots, unit="shot", unit_scale=True, desc=experiment.name,
               disable=not progress, smoothing=0)  # the average since the start: chunks come in bursts
    computed = 0
    retried: list[int] = []

    def postfix() -> str:
        return f"chunks {len(finished) + computed}/{n_chunks}" + (f", {len(retried)} retried" if retried else "")

    def on_retry(worker: str, chunks: list[int]) -> None:
        retried.extend(chunks)
        if progress:
            bar.write(f"{experiment.name}: lost Dask worker {worker}; computing again chunk"
                      f"{'s' if len(chunks) > 1 else ''} {', '.join(map(str, chunks))}", file=sys.stderr)
            bar.set_postfix_str(postfix())

    # The sums of the chunks computed now are added as they come; only the reused ones are read back.
    sums = _empty_sums(experiment)
    for k in sorted(finished):
        _add_chunk(sums, results.read_chunk(k))
    if dask is not None:
        source = _run_on_dask(experiment, pending, chunk_size, dask, on_retry)
    elif workers > 1:
        source = _run_in_processes(experiment, pending, chunk_size, workers)
    else:
        source = _run_in_process(experiment, pending, chunk_size)
    # Chunk files are written by a thread of their own while the next chunks compute (the batch
    # kernels let go of Python's lock); each write is checked, and all are finished before the run
    # assembles its results or stops.
    writer = ThreadPoolExecutor(1, thread_name_prefix="shuffle-sim-chunk-writer")
    writes: list = []

    def finish_writes(all_of_them: bool) -> None:
        while writes and (all_of_them or writes[0].done()):
            writes.pop(0).result()

    try:
        bar.set_postfix_str(postfix())
        for index, arrays in source:
            writes.append(writer.submit(results.write_chunk, index, arrays, experiment.fingerprint, chunk_size))
            finish_writes(False)
            _add_chunk(sums, arrays)
            computed += 1
            start, stop = chunk_range(experiment, index, chunk_size)
            bar.update(stop - start)
            bar.set_postfix_str(postfix())
            if stop_after is not None and computed >= stop_after and len(finished) + computed < n_chunks:
                source.close()
                finish_writes(True)
                bar.close()
                return RunSummary(results.path, experiment.n_shots, n_chunks, computed, len(finished),
                                  time.perf_counter() - began, False, None, None, retried=tuple(retried))
        finish_writes(True)
    finally:
        bar.close()
        if hasattr(source, "close"):
            source.close()
        writer.shutdown(wait=True)

    dataset = build_grid(experiment, sums)
    if on_grid is not None:
        on_grid(results.path, dataset)
    grid_path = results.write_dataset(dataset)
    records_path = _write_records(experiment, results, n_chunks) if experiment.records else None
    seconds = time.perf_counter() - began
    manifest.update(status="complete", seconds=round(seconds, 3), chunks_computed=computed,
                    chunks_reused=len(finished), chunks_retried=sorted(retried), grid=grid_path.name,
                    records=records_path.name if records_path else None)
    results.write_manifest(manifest)
    return RunSummary(results.path, experiment.n_shots, n_chunks, computed, len(finished), seconds, True,
                      grid_path, records_path, int(sums["failed"].sum()), tuple(retried), dataset)
