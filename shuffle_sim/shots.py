"""Batch API: many independent shots simulated to rest and judged in one numba call.

``simulate_shots(court, x, y, vx, vy, omega, board=...)`` plays each shot (one disc launched among the
resting discs of ``board``) through the physics kernel and judges every disc where it stops, all in
one parallel numba loop: Python is called once per batch, never per shot. The loop runs over chunks
of shots; each chunk allocates its scratch state once and reuses it for every shot in it. Shots are
independent and written to their own rows, so results are bit-identical whatever the thread count
or chunking.

Judging merges two verdicts: the judge's, from the rest position (``shuffle_sim.judge``), and the
kernel's standing, made while the disc moved (past a kill line, off a killing cushion: dead wherever
it stops, MSA C-20, C-21). A fallen disc is dead and worth 0; a holed disc is worth its hole's value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from shuffle_sim.court import Court
from shuffle_sim.geometry import point_in_closed_polygon
from shuffle_sim.judge import HANGER_NONE, judge_one_prepared, judge_prepare
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_REST
from shuffle_sim.physics.kernel import disc_state, load_disc, obstacle_overlap, run_scene
from shuffle_sim.physics.motion import DEAD, N_FLOAT_ROWS, N_INT_ROWS, STATUS
from shuffle_sim.physics.simulate import check_obstacles, obstacle_at_start
from shuffle_sim.scene import OVERLAP_TOLERANCE, Scene, SceneError

#: Shots per chunk of the parallel loop (one scratch allocation each).
CHUNK = 256

#: Reasons a shot cannot be played (``_shot_problem``).
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


@njit(cache=True)
def _on_surface(x, y, ja):
    if ja.surface_kind == 1:
        c = ja.surface_circle
        return math.hypot(x - c[0], y - c[1]) <= c[2]
    return point_in_closed_polygon(x, y, ja.surface_polygon, 0, ja.surface_polygon.shape[0])


@njit(cache=True)
def _shot_problem(ka, ja, board_x, board_y, x, y):
    """0 if a shot disc can start at (x, y), else why not (off the surface, on a disc, on a cushion or peg)."""
    if not _on_surface(x, y, ja):
        return _OFF_SURFACE
    limit = 2.0 * ka.disc_radius - OVERLAP_TOLERANCE
    for j in range(board_x.shape[0]):
        if math.hypot(x - board_x[j], y - board_y[j]) < limit:
            return _ON_BOARD_DISC
    kind, _ = obstacle_overlap(ka, x, y, OVERLAP_TOLERANCE)
    return _ON_OBSTACLE if kind >= 0 else 0


@njit(cache=True, parallel=True)
def _play_shots(ka, ja, board_x, board_y, xs, ys, vxs, vys, omegas, max_events,
                out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, problem):
    n_shots = xs.shape[0]
    n_board = board_x.shape[0]
    n_discs = n_board + 1
    prepared = judge_prepare(ja)
    # The board as it stands: a disc that ends where it started keeps this judgement.
    board_value = np.empty(n_board, np.int64)
    board_zone = np.empty(n_board, np.int64)
    board_dead = np.empty(n_board, np.bool_)
    board_hanger = np.empty(n_board, np.int8)
    for j in range(n_board):
        v, z, _, d, h, _, _ = judge_one_prepared(board_x[j], board_y[j], ja, prepared)
        board_value[j] = v
        board_zone[j] = z
        board_dead[j] = d
        board_hanger[j] = h
    for c in prange((n_shots + CHUNK - 1) // CHUNK):
        st = np.empty((N_FLOAT_ROWS, n_discs))
        ist = np.empty((N_INT_ROWS, n_discs), np.int64)
        pair_t = np.empty((n_discs, n_discs))
        touched = np.empty(n_discs, np.bool_)
        no_ev_t = np.empty(0)
        no_ev_i = np.empty((0, 5), np.int64)
        no_seg_i = np.empty((0, 2), np.int64)
        no_seg_f = np.empty((0, 5))
        for k in range(c * CHUNK, min(n_shots, (c + 1) * CHUNK)):
            problem[k] = _shot_problem(ka, ja, board_x, board_y, xs[k], ys[k])
            if problem[k] != 0:
                out_ok[k] = False
                continue
            for j in range(n_board):
                load_disc(ka, st, ist, j, board_x[j], board_y[j], 0.0, 0.0, 0.0)
            load_disc(ka, st, ist, n_board, xs[k], ys[k], vxs[k], vys[k], omegas[k])
            _, _, ok, t_end, _ = run_scene(ka, st, ist, pair_t, touched, no_ev_t, no_ev_i, no_ev_t, no_seg_i,
                                           no_seg_f, max_events)
            out_ok[k] = ok
            for i in range(n_discs):
                x, y, _, _, _ = disc_state(ka, st, ist, i, t_end)
                status = ist[STATUS, i]
                out_x[k, i] = x
                out_y[k, i] = y
                out_status[k, i] = status
                out_touched[k, i] = touched[i]
                if status == STATUS_FALLEN:
                    value, zone, dead, hanger = 0, -1, True, HANGER_NONE
                elif i < n_board and status == STATUS_REST and x == board_x[i] and y == board_y[i]:
                    value, zone, dead, hanger = board_value[i], board_zone[i], board_dead[i], board_hanger[i]
                else:
                    value, zone, _, dead, hanger, _, _ = judge_one_prepared(x, y, ja, prepared)
                dead = dead or ist[DEAD, i] != 0
                out_dead[k, i] = dead
                out_value[k, i] = 0 if dead else value
                out_zone[k, i] = zone
                out_hanger[k, i] = hanger


def _column(values, name: str, n: int | None) -> np.ndarray:
    arr = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    if n is not None and arr.size != n:
        raise ValueError(f"{name} must have one entry per shot ({n}), got {arr.size}")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"{name}[{k}] must be finite (got {arr[k]!r})")
    return arr


def simulate_shots(court: Court, x, y, vx, vy, omega, board: Scene | None = None, end: str | None = None,
                   max_events: int = 10_000) -> ShotBatch:
    """Play N shots, each one disc launched at (x, y) with (vx, vy, omega), among ``board``'s discs.

    ``x`` .. ``omega`` are arrays (N,) in SI (m, m/s, rad/s). ``board`` holds resting discs present
    in every shot (their velocities are ignored); its court must be ``court``'s layout. ``end`` picks
    the scoring end (deck: which kill lines and which diagram). Each shot runs to rest or to
    ``max_events`` events (then its ``ok`` is False). Raises ``ValueError`` (``SceneError``) naming
    the field and index for non-finite values, a shot off the surface, on a board disc or on a
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
        board_scene = Scene(court=court, x=board.x, y=board.y, vx=np.zeros(board.n_discs),
                            vy=np.zeros(board.n_discs), omega=np.zeros(board.n_discs), team=list(board.team),
                            source="board")
        board_scene.validate()
        check_obstacles(court, board_scene.x, board_scene.y, "board discs")
        board_x, board_y = board_scene.x, board_scene.y
    d = board_x.size + 1
    out = dict(
        x=np.empty((n, d)),
        y=np.empty((n, d)),
        status=np.empty((n, d), np.int8),
        dead=np.empty((n, d), np.bool_),
        value=np.empty((n, d), np.int64),
        zone=np.empty((n, d), np.int64),
        hanger=np.empty((n, d), np.int8),
        touched=np.empty((n, d), np.bool_),
        ok=np.empty(n, np.bool_),
    )
    problem = np.zeros(n, np.int8)
    _play_shots(court.kernel_arrays(), court.judge_arrays(), board_x, board_y, xs, ys, vxs, vys, omegas,
                int(max_events), out["x"], out["y"], out["status"], out["dead"], out["value"], out["zone"],
                out["hanger"], out["touched"], out["ok"], problem)
    bad = np.flatnonzero(problem)
    if bad.size:
        k = int(bad[0])
        where = f"shot {k} at x[{k}]={xs[k]!r}, y[{k}]={ys[k]!r}"
        if problem[k] == _OFF_SURFACE:
            raise SceneError(f"{where} is off the surface of court {court.name!r}")
        if problem[k] == _ON_BOARD_DISC:
            j = int(np.argmin(np.hypot(board_x - xs[k], board_y - ys[k])))
            raise SceneError(f"{where} overlaps board disc {j} at x={board_x[j]!r}, y={board_y[j]!r}")
        raise SceneError(f"{where} overlaps {obstacle_at_start(court, xs[k], ys[k])} at the start")
    return ShotBatch(**out)
