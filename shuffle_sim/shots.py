"""Batch API: many independent shots simulated to rest and judged in one numba call.

``simulate_shots(court, x, y, vx, vy, omega, board=...)`` plays each shot (one disc launched among the
resting discs of ``board``) through the physics kernel and judges every disc where it stops, in one
numba call: Python is called once per batch, never per shot. The shots run in a parallel loop over
chunks; each chunk allocates its scratch state once and reuses it for all its shots, and the
kernel's event loop is inlined into that loop. Then every rest position is judged in one parallel
pass (``shuffle_sim.judge.judge_many``). Shots are independent and each writes its own rows, so
results are bit-identical whatever the thread count or chunking.

Judging merges two verdicts: the judge's, from the rest position, and the kernel's standing, made
while the disc moved (past a kill line, off a killing cushion: dead wherever it stops, MSA C-20,
C-21). A fallen disc is dead and worth 0; a holed disc lies at the hole's centre and is worth the
hole's value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from shuffle_sim.court import Court
from shuffle_sim.geometry import point_in_closed_polygon
from shuffle_sim.judge import HANGER_NONE, judge_index, judge_point, judge_prepare
from shuffle_sim.physics.events import STATUS_FALLEN
from shuffle_sim.physics.lone import run_lone
from shuffle_sim.physics.kernel import (
    EV_COLUMNS,
    SEG_COLUMNS,
    place_disc,
    run_table,
    state_at,
)
from shuffle_sim.physics.motion import DEAD, N_FLOAT_ROWS, N_INT_ROWS, STATUS, TOUCHED
from shuffle_sim.physics.simulate import check_obstacles, obstacle_at_start
from shuffle_sim.physics.table import H_RADIUS, obstacle_overlap, pack_court
from shuffle_sim.scene import OVERLAP_TOLERANCE, Scene, SceneError

#: Shots per chunk of the parallel loop (one scratch allocation each).
CHUNK = 256

#: Why a shot cannot be played (``_check_shots``).
_OFF_SURFACE = 1
_ON_BOARD_DISC = 2
_ON_OBSTACLE = 3


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
    ok: np.ndarray  # (N,) bool: False if the shot hit the event bound


@njit(cache=True, error_model="numpy", inline="always")
def _shot_problem(table, ja, board_x, board_y, x, y):
    """Why a shot cannot start at (x, y): off the surface, on a board disc, on a cushion or peg; or 0."""
    if ja.surface_kind == 1:
        c = ja.surface_circle
        on_surface = (x - c[0]) ** 2 + (y - c[1]) ** 2 <= c[2] * c[2]
    else:
        on_surface = point_in_closed_polygon(x, y, ja.surface_polygon, 0, ja.surface_polygon.shape[0])
    if not on_surface:
        return _OFF_SURFACE
    limit = 2.0 * table[0, H_RADIUS] - OVERLAP_TOLERANCE
    for j in range(board_x.shape[0]):
        if (x - board_x[j]) ** 2 + (y - board_y[j]) ** 2 < limit * limit:
            return _ON_BOARD_DISC
    if obstacle_overlap(table, x, y, OVERLAP_TOLERANCE)[0] >= 0:
        return _ON_OBSTACLE
    return 0


@njit(cache=True, error_model="numpy", inline="always")
def _judge_rest(ja, prepared, index, x, y, status, kernel_dead):
    """(value, zone, hanger, dead) of a disc that ended at (x, y) with ``status`` and the kernel's
    standing: the judge's verdict merged with the kernel's (module docstring)."""
    value, zone, _, judged_dead, hanger, _, _ = judge_point(x, y, ja, prepared, index)
    if status == STATUS_FALLEN:
        return 0, -1, HANGER_NONE, True
    if kernel_dead or judged_dead:
        return 0, zone, hanger, True
    return value, zone, hanger, False


@njit(cache=True, error_model="numpy", inline="always")
def _play_chunk(table, ja, prepared, index, board_x, board_y, xs, ys, vxs, vys, omegas, max_events, start, stop,
                out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, problem):
    """Play and judge shots ``start`` to ``stop``: a lone disc in scalars (``lone``), shots among board
    discs through the kernel's loop with one set of scratch arrays for the chunk."""
    n_board = board_x.shape[0]
    n_discs = n_board + 1
    st = np.empty((N_FLOAT_ROWS, n_discs if n_board > 0 else 0))
    ist = np.empty((N_INT_ROWS, n_discs if n_board > 0 else 0), np.int64)
    pair_t = np.empty((n_discs, n_discs) if n_board > 0 else (0, 0))
    no_log = np.empty((0, max(EV_COLUMNS, SEG_COLUMNS)))
    for k in range(start, stop):
        why = _shot_problem(table, ja, board_x, board_y, xs[k], ys[k])
        problem[k] = why
        if why != 0:  # placeholders, never returned: simulate_shots raises
            out_ok[k] = False
            for i in range(n_discs):
                out_x[k, i] = xs[k]
                out_y[k, i] = ys[k]
                out_status[k, i] = STATUS_FALLEN
                out_dead[k, i] = True
                out_value[k, i] = 0
                out_zone[k, i] = -1
                out_hanger[k, i] = HANGER_NONE
                out_touched[k, i] = False
            continue
        if n_board == 0:
            x, y, _, _, _, status, dead, ok, _, _ = run_lone(table, xs[k], ys[k], vxs[k], vys[k], omegas[k],
                                                             max_events)
            out_ok[k] = ok
            value, zone, hanger, dead = _judge_rest(ja, prepared, index, x, y, status, dead)
            out_x[k, 0] = x
            out_y[k, 0] = y
            out_status[k, 0] = status
            out_dead[k, 0] = dead
            out_value[k, 0] = value
            out_zone[k, 0] = zone
            out_hanger[k, 0] = hanger
            out_touched[k, 0] = False
            continue
        for j in range(n_board):
            place_disc(table, st, ist, j, board_x[j], board_y[j], 0.0, 0.0, 0.0)
        place_disc(table, st, ist, n_board, xs[k], ys[k], vxs[k], vys[k], omegas[k])
        _, _, ok, t_end, _ = run_table(table, st, ist, pair_t, no_log, no_log, max_events)
        out_ok[k] = ok
        for i in range(n_discs):
            x, y, _, _, _ = state_at(table, st, ist, i, t_end)
            status = ist[STATUS, i]
            value, zone, hanger, dead = _judge_rest(ja, prepared, index, x, y, status, ist[DEAD, i] != 0)
            out_x[k, i] = x
            out_y[k, i] = y
            out_status[k, i] = status
            out_dead[k, i] = dead
            out_value[k, i] = value
            out_zone[k, i] = zone
            out_hanger[k, i] = hanger
            out_touched[k, i] = ist[TOUCHED, i] != 0


@njit(cache=True, error_model="numpy", parallel=True)
def _play_shots(ka, ja, board_x, board_y, xs, ys, vxs, vys, omegas, max_events,
                out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, problem):
    n_shots = xs.shape[0]
    table = pack_court(ka)
    prepared = judge_prepare(ja)
    index = judge_index(ja, prepared, n_shots * (board_x.shape[0] + 1))
    for c in prange((n_shots + CHUNK - 1) // CHUNK):
        _play_chunk(table, ja, prepared, index, board_x, board_y, xs, ys, vxs, vys, omegas, max_events, c * CHUNK,
                    min(n_shots, (c + 1) * CHUNK), out_x, out_y, out_status, out_dead, out_value, out_zone,
                    out_hanger, out_touched, out_ok, problem)


def _column(values, name: str, n: int | None) -> np.ndarray:
    arr = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    if n is not None and arr.size != n:
        raise ValueError(f"{name} must have one entry per shot ({n}), got {arr.size}")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"{name}[{k}] must be finite (got {float(arr[k])!r})")
    return arr


def simulate_shots(court: Court, x, y, vx, vy, omega, board: Scene | None = None, end: str | None = None,
                   max_events: int = 10_000) -> ShotBatch:
    """Play N shots, each one disc launched at (x, y) with (vx, vy, omega), among ``board``'s discs.

    ``x`` .. ``omega`` are arrays (N,) in SI (m, m/s, rad/s). ``board`` holds resting discs present
    in every shot (its velocities are ignored; its positions are taken on ``court``). ``end`` picks
    the scoring end (deck: which kill line and which diagram). Each shot runs to rest or to
    ``max_events`` events (then its ``ok`` is False). Raises ``ValueError`` naming the field and index
    for non-finite values, and ``SceneError`` for a shot off the surface, on a board disc or on a
    cushion or peg.
    """
    court = court.for_end(end)
    if isinstance(max_events, bool) or not isinstance(max_events, (int, np.integer)) or max_events < 1:
        raise ValueError(f"max_events must be a positive integer (got {max_events!r})")
    xs = _column(x, "x", None)
    n = xs.size
    ys, vxs, vys, omegas = (_column(v, name, n) for v, name in ((y, "y"), (vx, "vx"), (vy, "vy"), (omega, "omega")))
    if board is None:
        board_x = np.empty(0)
        board_y = np.empty(0)
    else:
        k = board.n_discs
        resting = Scene(court=court, x=board.x, y=board.y, vx=np.zeros(k), vy=np.zeros(k), omega=np.zeros(k),
                        team=list(board.team), source="board")
        resting.validate()
        check_obstacles(court, resting.x, resting.y, "board discs")
        board_x, board_y = resting.x, resting.y
    d = board_x.size + 1
    out = {
        "x": np.empty((n, d)),
        "y": np.empty((n, d)),
        "status": np.empty((n, d), np.int8),
        "dead": np.empty((n, d), np.bool_),
        "value": np.empty((n, d), np.int64),
        "zone": np.empty((n, d), np.int64),
        "hanger": np.empty((n, d), np.int8),
        "touched": np.empty((n, d), np.bool_),
        "ok": np.empty(n, np.bool_),
    }
    problem = np.zeros(n, np.int8)
    _play_shots(court.kernel_arrays(), court.judge_arrays(), board_x, board_y, xs, ys, vxs, vys, omegas,
                int(max_events), out["x"], out["y"], out["status"], out["dead"], out["value"], out["zone"],
                out["hanger"], out["touched"], out["ok"], problem)
    bad = np.flatnonzero(problem)
    if bad.size:
        k = int(bad[0])
        where = f"shot {k} at x[{k}]={float(xs[k])!r}, y[{k}]={float(ys[k])!r}"
        if problem[k] == _OFF_SURFACE:
            raise SceneError(f"{where} is off the surface of court {court.name!r}")
        if problem[k] == _ON_BOARD_DISC:
            j = int(np.argmin(np.hypot(board_x - xs[k], board_y - ys[k])))
            raise SceneError(f"{where} overlaps board disc {j} at x={float(board_x[j])!r}, y={float(board_y[j])!r}")
        raise SceneError(f"{where} overlaps {obstacle_at_start(court, xs[k], ys[k])} at the start")
    return ShotBatch(**out)
