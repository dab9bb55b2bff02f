"""The rows of one shot of a batch, shared by the flat and the curved batch paths (``shots``,
``physics.faces.shot_kernels``): why a shot cannot be played, the verdict on where a disc ended, and the
rows of a shot that is not played. Inlined into the batch loops (numba)."""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.judging.cell_grid import judge_point, surely_on_surface
from shuffle_sim.judging.procedure import HANGER_NONE, centre_on_surface
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_REST
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE
from shuffle_sim.physics.tables.court_table import H_RADIUS, obstacle_overlap

#: Shots per chunk of the parallel loop (one scratch allocation each).
CHUNK = 256

#: Why a shot cannot be played (``shot_problem``).
OFF_SURFACE = 1
ON_BOARD_DISC = 2
ON_OBSTACLE = 3
NOT_FINITE = 4


@jit.inline
def shot_problem(table, ja, index, board_x, board_y, x, y, vx, vy, omega):
    """Why a shot cannot be played: a value not finite, a start off the surface, on a board disc or
    on a cushion or peg; or 0.

    The judge's grid ``index`` answers "on the surface" for most starts without the exact test.
    """
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(vx) and math.isfinite(vy) and math.isfinite(omega)):
        return NOT_FINITE
    if not (surely_on_surface(x, y, index) or centre_on_surface(ja, x, y)):
        return OFF_SURFACE
    limit = 2.0 * table[0, H_RADIUS] - OVERLAP_TOLERANCE
    for j in range(board_x.shape[0]):
        if (x - board_x[j]) ** 2 + (y - board_y[j]) ** 2 < limit * limit:
            return ON_BOARD_DISC
    if obstacle_overlap(table, x, y, OVERLAP_TOLERANCE)[0] >= 0:
        return ON_OBSTACLE
    return 0


@jit.inline
def judge_rest(ja, prepared, index, x, y, status, kernel_dead):
    """(value, zone, hanger, dead) of a disc that ended at (x, y) with ``status`` and the kernel's
    standing: the judge's verdict merged with the kernel's (module docstring)."""
    value, zone, _, judged_dead, hanger, _, _ = judge_point(x, y, ja, prepared, index)
    if status == STATUS_FALLEN:
        return 0, -1, HANGER_NONE, True
    if kernel_dead or judged_dead:
        return 0, zone, hanger, True
    return value, zone, hanger, False


@jit.inline
def fill_unplayed(k, board_x, board_y, x, y, out_x, out_y, out_status, out_dead, out_touched, out_ok, out_played):
    """The rows of a shot that is not played (its start is off the surface or on a disc, cushion or
    peg): the board's discs at rest where they lie, the shot disc out of play at its start (fallen,
    dead), ``ok`` and ``played`` False. Judging follows as for any shot."""
    n_board = board_x.shape[0]
    for i in range(n_board):
        out_x[k, i] = board_x[i]
        out_y[k, i] = board_y[i]
        out_status[k, i] = STATUS_REST
        out_dead[k, i] = False
        out_touched[k, i] = False
    out_x[k, n_board] = x
    out_y[k, n_board] = y
    out_status[k, n_board] = STATUS_FALLEN
    out_dead[k, n_board] = True
    out_touched[k, n_board] = False
    out_ok[k] = False
    out_played[k] = False
