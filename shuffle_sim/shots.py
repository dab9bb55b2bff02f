"""Batch API: many independent shots simulated to rest and judged in numba, Python never called per shot.

``simulate_shots(court, x, y, vx, vy, omega, board=...)`` plays each shot (one disc launched among the
resting discs of ``board``) through the physics kernel and judges every disc where it stops, in
numba kernels called once per share of the batch (one share a thread): Python is never called per
shot. It returns a ``ShotBatch``: every disc's rest position, standing and judgement, shot by shot.
Shots are independent and each writes its own rows, so results are bit-identical whatever the
thread count or chunking.

Judging merges two verdicts: the judge's, from the rest position, and the kernel's standing, made
while the disc moved (past a kill line, off a killing cushion: dead wherever it stops, MSA C-20,
C-21). A fallen disc is dead and worth 0; a holed disc lies at the hole's centre and is worth the
hole's value.

Results go to new arrays, or into a ``ShotBatch`` passed as ``out`` (a loop of equal batches reuses
one set of arrays and skips the system's zeroing of fresh memory).

How a batch runs: chunks of ``CHUNK`` shots shared among numba's thread count of threads, in one
of two paths, each compiled on first use for the court's motion law
(``physics.faces.shot_kernels``: closed form on a flat court, integrated on a court with a slope, a
crown or maps), with the same results layout and judging.

* On an empty board (the commonest batch: draws, aim and speed sweeps) each shot is a lone disc,
  played by the law's lone-disc event loop (its state in local variables) and judged at once where
  it stops (``judging.cell_grid.judge_point``), so no rest position makes a second trip through
  memory. The chunk loop is compiled without reference counting: it allocates nothing, and counting
  references to the court's arrays for every shot, atomically, would cost more than the shot's
  physics.
* Among board discs, each chunk allocates its state once and reuses it for all its shots, through
  the event loop; then every rest position is judged in one pass, shared among the threads.

Both judge with the judge's grid of cells for the batch (``judging.batch.cached_judge_index``), built
once per court and batch size and reused by later batches.

Performance: ``shuffle-sim bench`` (``single_shot``) measures the empty-board path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from shuffle_sim.court import Court, as_court
from shuffle_sim.judging.batch import cached_judge_index
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.physics import check_max_events, check_obstacles, obstacle_at_start
from shuffle_sim.physics.numba_api import CHUNK as CHUNK  # shots per chunk
from shuffle_sim.physics.numba_api import (
    NOT_FINITE,
    OFF_SURFACE,
    ON_BOARD_DISC,
    court_law,
    court_motion,
    play_shots,
)
from shuffle_sim.physics.numba_api import play_board_chunks as play_board_chunks  # the kernels, for numba code
from shuffle_sim.physics.numba_api import play_board_shots as play_board_shots
from shuffle_sim.physics.numba_api import play_lone_chunks as play_lone_chunks
from shuffle_sim.physics.numba_api import play_lone_shots as play_lone_shots
from shuffle_sim.physics.scene import Scene, SceneError


@dataclass
class ShotBatch:
    """Rest state and judgement of N shots with D discs each (the board's discs, then the shot disc)."""

    x: np.ndarray  # (N, D) final centres (m)
    y: np.ndarray
    status: np.ndarray  # (N, D) int8: physics.events.STATUS_*
    dead: np.ndarray  # (N, D) bool: kernel standing (kill line, backstop) or judged dead
    value: np.ndarray  # (N, D) int64: judged value; 0 for fallen or dead discs, the hole's value if holed
    zone: np.ndarray  # (N, D) int64: judged zone index (court.zone_names), -1 for none
    hanger: np.ndarray  # (N, D) int8: 0 none, 1 end, 2 corner
    touched: np.ndarray  # (N, D) bool: touched by another disc during the shot
    ok: np.ndarray  # (N,) bool: the shot was played and ended before the event bound
    played: np.ndarray  # (N,) bool: False for a shot skipped for its start (``bad_starts="skip"``)

    #: Each field's dtype, and whether it has a column per disc (else one entry per shot).
    LAYOUT: ClassVar[dict[str, tuple[type, bool]]] = {
        "x": (np.float64, True),
        "y": (np.float64, True),
        "status": (np.int8, True),
        "dead": (np.bool_, True),
        "value": (np.int64, True),
        "zone": (np.int64, True),
        "hanger": (np.int8, True),
        "touched": (np.bool_, True),
        "ok": (np.bool_, False),
        "played": (np.bool_, False),
    }

    @classmethod
    def empty(cls, n_shots: int, n_discs: int) -> ShotBatch:
        """Uninitialised arrays for ``n_shots`` shots of ``n_discs`` discs each."""
        return cls(
            **{
                name: np.empty((n_shots, n_discs) if per_disc else n_shots, dtype)
                for name, (dtype, per_disc) in cls.LAYOUT.items()
            }
        )

    def check_fits(self, n_shots: int, n_discs: int) -> None:
        """Raise ``ValueError`` naming the field unless every array has the shape and dtype of
        ``ShotBatch.empty(n_shots, n_discs)`` and can be written in place (C-contiguous, writeable)."""
        for name, (dtype, per_disc) in self.LAYOUT.items():
            arr = getattr(self, name)
            shape = (n_shots, n_discs) if per_disc else (n_shots,)
            if not isinstance(arr, np.ndarray) or arr.shape != shape or arr.dtype != dtype:
                got = f"{arr.dtype} {arr.shape}" if isinstance(arr, np.ndarray) else type(arr).__name__
                raise ValueError(f"out.{name} must be an array of {np.dtype(dtype)} with shape {shape} (got {got})")
            if not (arr.flags.c_contiguous and arr.flags.writeable):
                raise ValueError(f"out.{name} must be C-contiguous and writeable")


def _column(values, name: str, n: int | None) -> np.ndarray:
    """One input column as a contiguous float64 array of ``n`` entries (finiteness is checked by the
    kernel, in its parallel loop, rather than in a serial pass here)."""
    arr = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    if n is not None and arr.size != n:
        raise ValueError(f"{name} must have one entry per shot ({n}), got {arr.size}")
    return arr


def simulate_shots(
    court: Court | str,
    x,
    y,
    vx,
    vy,
    omega,
    board: Scene | None = None,
    end: str | None = None,
    max_events: int = 10_000,
    out: ShotBatch | None = None,
    bad_starts: str = "raise",
) -> ShotBatch:
    """Play N shots, each one disc launched at (x, y) with (vx, vy, omega), among ``board``'s discs.

    ``court`` is a ``Court``, a court name or a file path. ``x`` .. ``omega`` are arrays (N,) in SI
    (m, m/s, rad/s). ``board`` holds resting discs present
    in every shot (its velocities are ignored; its positions are taken on ``court``). ``end`` picks
    the scoring end (deck: which kill line and which diagram). Each shot runs to rest or to
    ``max_events`` events (then its ``ok`` is False). Raises ``ValueError`` naming the field and index
    for non-finite values.

    A shot whose start lies off the surface, on a board disc or on a cushion or peg raises
    ``SceneError`` naming the shot, or with ``bad_starts="skip"`` is not played: its ``played`` and
    ``ok`` are False, the board's discs stay at rest where they lie and the shot disc is out of play
    at its start (fallen, dead, worth 0). Skipping suits sampled starts (execution noise near an
    edge or a disc) that a player could not have taken; the experiment runner counts them as failed.

    ``out``, a ``ShotBatch`` of the same N and D (say from an earlier call, or ``ShotBatch.empty``),
    receives the results instead of new arrays and is returned: a loop that plays batch after batch
    reuses one set of arrays and skips allocating (and the system zeroing) fresh memory each time,
    about a tenth of the time of a single-disc batch. Its contents are overwritten even when a bad
    shot raises.
    """
    court = as_court(court, end)
    if bad_starts not in ("raise", "skip"):
        raise ValueError(f"bad_starts must be 'raise' or 'skip' (got {bad_starts!r})")
    max_events = check_max_events(max_events)
    xs = _column(x, "x", None)
    n = xs.size
    ys, vxs, vys, omegas = (_column(v, name, n) for v, name in ((y, "y"), (vx, "vx"), (vy, "vy"), (omega, "omega")))
    if board is None:
        board_x = np.empty(0)
        board_y = np.empty(0)
    else:
        k = board.n_discs
        resting = Scene(
            court=court,
            x=board.x,
            y=board.y,
            vx=np.zeros(k),
            vy=np.zeros(k),
            omega=np.zeros(k),
            team=list(board.team),
            source="board",
        )
        resting.validate()
        check_obstacles(court, resting.x, resting.y, "board discs")
        board_x, board_y = resting.x, resting.y
    d = board_x.size + 1
    if out is None:
        out = ShotBatch.empty(n, d)
    else:
        out.check_fits(n, d)
    problem = np.empty(n, np.int8)
    ja = judge_arrays(court)
    prepared, index = cached_judge_index(ja, n * d)
    law = court_law(court)
    launches = (xs, ys, vxs, vys, omegas)
    outs = (out.x, out.y, out.status, out.dead, out.value, out.zone, out.hanger, out.touched, out.ok, out.played)
    # Each path compiles on first use, for the law it meets.
    play_shots(
        law, court_motion(court), ja, prepared, index, board_x, board_y, launches, int(max_events), outs, problem
    )
    bad = np.flatnonzero(problem)
    if bad.size and bad_starts == "skip":
        bad = np.flatnonzero(problem == NOT_FINITE)
    if bad.size:
        k = int(bad[0])
        if problem[k] == NOT_FINITE:
            for values, name in ((xs, "x"), (ys, "y"), (vxs, "vx"), (vys, "vy"), (omegas, "omega")):
                if not np.isfinite(values[k]):
                    raise ValueError(f"{name}[{k}] must be finite (got {float(values[k])!r})")
        where = f"shot {k} at x[{k}]={float(xs[k])!r}, y[{k}]={float(ys[k])!r}"
        if problem[k] == OFF_SURFACE:
            raise SceneError(f"{where} is off the surface of court {court.name!r}")
        if problem[k] == ON_BOARD_DISC:
            j = int(np.argmin(np.hypot(board_x - xs[k], board_y - ys[k])))
            raise SceneError(f"{where} overlaps board disc {j} at x={float(board_x[j])!r}, y={float(board_y[j])!r}")
        raise SceneError(f"{where} overlaps {obstacle_at_start(court, xs[k], ys[k])} at the start")
    return out
