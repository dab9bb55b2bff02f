"""Read tables: a compiled plan's launches read for a court that is not flat, looked up in numba.

The fixed plans that play inside numba loops (the deck engine, the win search's rollouts) aim
straight launches by the flat closed form (``launch.straight_launch``). On a graded, crowned or
mapped court, or under a friction that changes with speed, a player reads the court
(``reading``); reading every planned shot of every rollout would cost several lone runs a shot, so
the plans read once per court and look the reading up:

- at ``T_NODES`` stance parameters t_j = j / (T_NODES - 1) of each stance (a deck shooter's half of
  the 10-off area, a crokinole seat's arc),
- for each *fixed goal* (deck: the five spots of the draw plan; crokinole: the 20 hole) and each
  node of a *grid of goals* (take-out targets over the scoring area),

the straight launch the plan would play is read (``reading.read_points``) and the reading kept as a
correction: the turn of its direction (rad) and the log of its speed ratio. A planned launch gets
the correction interpolated linearly in t and, on the grid, bilinearly in the target's position
(clamped to the grid). The tables' interpolation is the plans' one approximation on such courts:
docs/players/strategies.md states how much it moves a rollout's win estimate against plans read
exactly, shot by shot.

A table is a tuple of arrays (numba takes it as one argument): fixed (S, T, F, 2), grid
(S, T, NX, NY, 2) and the grid's geometry (x0, dx, y0, dy). A court read by the closed form
(flat, Coulomb) gets ``no_reads()``: empty arrays of the same types, so one compiled loop serves
both and a flat court's launches stay exactly the straight ones.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.court import Court
from shuffle_sim.playing.players.reading import read_points

#: Stance parameters a table reads at, evenly spaced over [0, 1] (ends included).
T_NODES = 3


def t_nodes(density: int = 1) -> np.ndarray:
    """The stance parameters a table reads at: ``T_NODES``, or ``density`` times as finely spaced."""
    return np.linspace(0.0, 1.0, (T_NODES - 1) * density + 1)


@jit.inline
def no_reads():
    """The table of a court read by the closed form: no corrections (from Python or numba)."""
    return np.zeros((0, 0, 0, 2)), np.zeros((0, 0, 0, 0, 2)), np.zeros(4)


def read_table(
    court: Court, fixed_rows: np.ndarray, grid_rows: np.ndarray, geometry
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The table of ``court`` from the straight launches to read: ``fixed_rows`` (S, T, F, 8) and
    ``grid_rows`` (S, T, NX, NY, 8), each row as ``read_kernels.ROW_COLUMNS`` (start, launch, goal,
    goal speed); ``geometry`` the grid's (x0, dx, y0, dy). All rows are read in one call."""
    rows = np.concatenate([fixed_rows.reshape(-1, 8), grid_rows.reshape(-1, 8)])
    answers = read_points(court, rows)
    turn = np.arctan2(answers[:, 1], answers[:, 0]) - np.arctan2(rows[:, 3], rows[:, 2])
    turn = np.remainder(turn + math.pi, 2.0 * math.pi) - math.pi
    gain = np.log(np.hypot(answers[:, 0], answers[:, 1]) / np.hypot(rows[:, 2], rows[:, 3]))
    corrections = np.column_stack([turn, gain])
    split = fixed_rows[..., 0].size
    fixed = np.ascontiguousarray(corrections[:split].reshape(*fixed_rows.shape[:-1], 2))
    grid = np.ascontiguousarray(corrections[split:].reshape(*grid_rows.shape[:-1], 2))
    return fixed, grid, np.asarray(geometry, dtype=np.float64)


@jit.inline
def _node(u, n):
    """The cell (lower node, fraction) of ``u`` on nodes 0 .. n - 1, clamped to them."""
    if n == 1:
        return 0, 0.0
    u = min(max(u, 0.0), float(n - 1))
    j = min(int(u), n - 2)
    return j, u - j


@jit.inline
def _grid_at(grid, s, j, x, y, geometry):
    """The grid's correction (turn, gain) at stance node ``j`` and target (x, y), bilinear."""
    nx = grid.shape[2]
    ny = grid.shape[3]
    i, fx = _node((x - geometry[0]) / geometry[1], nx)
    k, fy = _node((y - geometry[2]) / geometry[3], ny)
    out0 = 0.0
    out1 = 0.0
    for c in range(2):
        a = grid[s, j, i, k, c] * (1.0 - fy) + grid[s, j, i, min(k + 1, ny - 1), c] * fy
        b = (
            grid[s, j, min(i + 1, nx - 1), k, c] * (1.0 - fy)
            + grid[s, j, min(i + 1, nx - 1), min(k + 1, ny - 1), c] * fy
        )
        if c == 0:
            out0 = a * (1.0 - fx) + b * fx
        else:
            out1 = a * (1.0 - fx) + b * fx
    return out0, out1


@jit.inline
def read_correction(reads, s, t, slot, x, y, vx, vy):
    """The planned launch (vx, vy) of stance ``s`` from parameter ``t`` read for the court: the table's
    correction for fixed goal ``slot``, or (``slot`` -1) for the grid's target (x, y). Unchanged for
    ``no_reads``."""
    fixed, grid, geometry = reads
    if fixed.shape[1] == 0 and grid.shape[1] == 0:
        return vx, vy
    n_t = fixed.shape[1] if slot >= 0 else grid.shape[1]
    j, f = _node(t * (n_t - 1), n_t)
    j1 = min(j + 1, n_t - 1)
    if slot >= 0:
        turn = fixed[s, j, slot, 0] * (1.0 - f) + fixed[s, j1, slot, 0] * f
        gain = fixed[s, j, slot, 1] * (1.0 - f) + fixed[s, j1, slot, 1] * f
    else:
        turn0, gain0 = _grid_at(grid, s, j, x, y, geometry)
        turn1, gain1 = _grid_at(grid, s, j1, x, y, geometry)
        turn = turn0 * (1.0 - f) + turn1 * f
        gain = gain0 * (1.0 - f) + gain1 * f
    c = math.cos(turn)
    sn = math.sin(turn)
    g = math.exp(gain)
    return g * (c * vx - sn * vy), g * (sn * vx + c * vy)
