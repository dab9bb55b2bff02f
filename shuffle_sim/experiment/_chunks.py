"""One chunk of an experiment: its shots (intended and executed), played and judged in one batch
call, reduced to integer sums per grid cell.

The shot index space is fixed by the experiment: shot ``i`` is sample ``i % samples`` of grid cell
``i // samples`` (cells in C order over the grid axes). Its intended parameters come from the grid,
the nominal shot and the parameter distributions; its execution errors from the noise model. Every
random draw is a pure function of (seed, shot index) (see ``shuffle_sim.noise``), so a chunk of shots
computes the same numbers wherever and whenever it runs. A paired experiment draws per execution
instead (``pairing``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim._runtime.threads import numba_thread_limit
from shuffle_sim.experiment._cell_sums import reduced_sums
from shuffle_sim.experiment._chunk_kernels import STATUS_FALLEN, STATUS_HOLED, build_shots, reduce_chunk
from shuffle_sim.experiment._court_axes import court_index
from shuffle_sim.experiment._plan import shot_plan, takes_lone_path
from shuffle_sim.experiment.spec import Experiment, possible_values
from shuffle_sim.rules import ricochet
from shuffle_sim.shots import ShotBatch, simulate_shots


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
    outs = tuple(np.empty(n) for _ in range(5))
    plan = shot_plan(experiment)
    if not n:
        cells = np.zeros(0, dtype=np.int64)
    elif experiment.paired:  # each shot's cell and random counter (``pairing``)
        from shuffle_sim.experiment.pairing import build_drawn_shots, shot_cells

        cells, draws, _ = shot_cells(experiment, start, stop)
        build_drawn_shots(cells, draws, plan.grid, plan.variation, with_noise, outs)
    else:
        build_shots(np.uint64(start), plan.samples, plan.grid, plan.variation, with_noise, outs)
        cells = np.arange(start, stop, dtype=np.int64) // experiment.samples
    skill, court = _skill_and_court(experiment, cells)
    speed, direction, spin, start_x, start_y = outs
    return Shots(speed, direction, spin, start_x, start_y, skill, court)


def _skill_and_court(experiment: Experiment, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The skill index and the court index (``_court_axes``) of each grid cell in ``cells``."""
    skill = np.zeros(len(cells), dtype=np.int64)
    for k, axis in enumerate(experiment.axes):
        if axis.name == "skill":
            skill = np.unravel_index(cells, experiment.grid_shape)[k].astype(np.int64)
    return skill, court_index(experiment.axes, experiment.grid_shape, cells)


def intended_shots(experiment: Experiment, start: int, stop: int) -> Shots:
    """The shots the player means to play for shot indices ``start .. stop - 1`` (no execution noise)."""
    return _shots(experiment, start, stop, with_noise=False)


def executed_shots(experiment: Experiment, start: int, stop: int) -> Shots:
    """The shots as played: intended shots plus each shot's execution errors (noise model per skill)."""
    return _shots(experiment, start, stop, with_noise=True)


def _simulate_by_court(experiment: Experiment, shots: Shots, vx: np.ndarray, vy: np.ndarray):
    """``simulate_shots`` of the shots, each on its cell's court (``Experiment.courts``: one batch call per
    court of the court axes, the rows put back in shot order)."""
    courts = experiment.courts()

    def play(court, rows):
        return simulate_shots(
            court,
            shots.start_x[rows],
            shots.start_y[rows],
            vx[rows],
            vy[rows],
            shots.spin[rows],
            board=experiment.board,
            end=experiment.end,
            bad_starts="skip",
        )

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
    sums named in ``CELL_SUMS`` plus ``value_counts`` (cells x values) and ``removed`` (cells x board
    discs); with ``records`` also the per-shot arrays.
    """
    if numba_threads is not None:
        import numba

        numba.set_num_threads(max(1, min(numba_threads, numba_thread_limit())))
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
    values = possible_values(experiment.court)
    board_teams = list(experiment.board.team) if experiment.board is not None else []
    shooter = np.array([t == experiment.team for t in board_teams] + [True])
    if experiment.paired:  # cells interleaved, and the paired differences (``pairing``)
        from shuffle_sim.experiment.pairing import paired_chunk_sums, shot_cells

        cells, draws, ucells = shot_cells(experiment, start, stop)
        out = paired_chunk_sums(experiment, start, stop, batch, values, shooter, cells, ucells)
        return _with_records(experiment, out, start, stop, shots, batch, shooter, draws)
    cell_start = start // samples
    n_local = (stop - 1) // samples - cell_start + 1

    def reduce(*args):
        return reduce_chunk(start, samples, cell_start, *args)

    out = reduced_sums(experiment, start, batch, values, shooter, n_local, reduce)
    out["cell_start"] = np.array(cell_start, dtype=np.int64)
    return _with_records(experiment, out, start, stop, shots, batch, shooter)


def _with_records(
    experiment: Experiment,
    out: dict,
    start: int,
    stop: int,
    shots: Shots,
    batch,
    shooter: np.ndarray,
    draws: np.ndarray | None = None,
) -> dict:
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
