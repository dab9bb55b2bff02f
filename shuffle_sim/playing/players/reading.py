"""Reading the court: a straight launch corrected for the drift of a court that is not flat.

On a flat court a straight shot's launch is closed form (``launch.straight_launch``): aimed at its
point, with the speed that slides there plus the slide meant beyond it. On a graded, crowned or
mapped court (``court.surface_shape``) the same launch drifts off its line and runs long or short.
A player who reads the court aims so that the disc's path under the real surface does what the
shot means, and ``read_launch`` finds that launch with the physics kernel:

- the *goal* of a straight launch from S through the point P at speed v0 is the state the flat
  closed form gives it at P: at rest for a draw (v0^2 = 2 a |P - S|, a = mu g), else passing P
  at the speed v_P with v_P^2 = v0^2 - 2 a |P - S| (a take-out at its target's centre, an open
  20 over the hole);
- the *miss* of a trial launch is a length: for a draw, its rest point minus P; for a pass, the
  point nearest P on its path, p, minus P, plus (|v|^2 - v_P^2) / (2 a) along its direction there
  (the point where it would stop were the rest of its path straight at the nominal
  deceleration). Moving p along the path changes the two terms by nearly equal and opposite
  amounts (exactly where the path's deceleration is the nominal one), so the miss hardly depends
  on how finely p is found;
- Newton steps on (direction, speed) from the flat launch, the Jacobian by forward differences; a
  step that does not shrink the miss is halved (at most ``HALVINGS`` times). The solve stops within
  ``READ_TOLERANCE`` of the goal, or after ``MAX_ITERATIONS``; the launch with the smallest miss
  found is played (the flat launch if nothing beat it): a player always shoots. The solve runs in
  numba (``read_kernels``), every trial a lone disc through the court's own motion law.

The trial shots run on the court stripped of its edges, cushions, pegs, holes and kill lines (what
the disc would do on the surface alone): a player reads the surface, not the obstacles, as the flat
closed form ignores them too. A player who reads only a fraction f of the drift
(``ShotContext.reads``) plays the flat launch plus f times the correction.

A read launch *reaches* its goal when, played on the real court (its edges in place), it does not
fall before it comes nearest the goal and misses it by no more than ``read_kernels.REACH_MISS``: on
a fast table with a steep cross grade every path to the far zones leaves the table on the way, and
the launch says so (``Launch.reaches`` False), so that the advisor can say that no shot gets there.

The goal's speed and the miss's slide follow the court's friction law (``court.friction_law``:
Coulomb's constant deceleration, or one that grows with speed), as does every trial.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.court.friction_law import decelerations, launch_speed, stop_distance
from shuffle_sim.physics import Scene, simulate
from shuffle_sim.physics.numba_api import closed_form_court, court_law, court_motion
from shuffle_sim.playing.players.context import Launch, ShotContext
from shuffle_sim.playing.players.read_kernels import (
    HALVINGS,
    MAX_ITERATIONS,
    READ_TOLERANCE,
    ROW_COLUMNS,
    read_rows,
)

__all__ = [
    "HALVINGS",
    "MAX_ITERATIONS",
    "READ_TOLERANCE",
    "Reading",
    "needs_reading",
    "read_launch",
    "read_points",
    "solve_reading",
    "surface_court",
]


@dataclass(frozen=True)
class Reading:
    """A read launch: its velocity, its miss (m) under the real surface, the iterations taken, and
    whether it reaches its goal on the real court (module docstring)."""

    vx: float
    vy: float
    miss: float
    iterations: int
    reaches: bool = True


def needs_reading(court: Court) -> bool:
    """Whether a straight launch's closed form misses on ``court``: its surface is not flat, or its
    friction grows or falls with speed: the court has no closed form (``numba_api.closed_form_court``)."""
    return not closed_form_court(court)


def surface_court(court: Court) -> Court:
    """``court`` with its surface only (no edges, cushions, pegs, holes or kill lines), kept on it."""
    return court.memo("reading_surface", lambda c: replace(c, edges=(), cushions=(), pegs=(), holes=(), kill_lines=()))


def read_launch(ctx: ShotContext, launch: Launch, px: float, py: float) -> Launch:
    """``launch``, a straight launch through (px, py) as the flat closed form aims it, read for the
    court's surface (module docstring). Unchanged on a flat court or for a player who reads nothing."""
    if not needs_reading(ctx.court) or ctx.reads <= 0.0 or launch.speed == 0.0:
        return launch
    key = (launch.x, launch.y, launch.vx, launch.vy, launch.omega, float(px), float(py))
    cache = ctx.court.memo("reading_cache", lambda c: {})
    if key not in cache:
        with one_numba_thread():  # one read costs less than waking the pool
            cache[key] = solve_reading(ctx.court, launch, float(px), float(py))
    reading = cache[key]
    f = min(ctx.reads, 1.0)
    vx = reading.vx if f == 1.0 else launch.vx + f * (reading.vx - launch.vx)
    vy = reading.vy if f == 1.0 else launch.vy + f * (reading.vy - launch.vy)
    return Launch(launch.t, launch.x, launch.y, vx, vy, launch.omega, reading.reaches)


def goal_speed(court: Court, launch: Launch, px: float, py: float) -> float:
    """The speed at which the flat launch passes (px, py) under the court's friction law, 0 for a
    launch that stops there (a draw)."""
    c, k = decelerations(court.params)
    left = stop_distance(launch.speed, c, k) - math.hypot(px - launch.x, py - launch.y)
    if left <= 1e-12 * stop_distance(launch.speed, c, k):
        return 0.0
    return launch_speed(left, c, k)


def solve_reading(court: Court, launch: Launch, px: float, py: float) -> Reading:
    """Newton's method on (direction, speed) for the launch whose path meets the flat launch's goal at
    (px, py) on ``court`` (``read_kernels.read_one``)."""
    row = [launch.x, launch.y, launch.vx, launch.vy, launch.omega, px, py, goal_speed(court, launch, px, py)]
    vx, vy, miss, iterations, reaches = read_points(court, np.array([row]), threads=1)[0]
    return Reading(float(vx), float(vy), float(miss), int(iterations), bool(reaches))


def read_points(court: Court, rows: np.ndarray, threads: int | None = None) -> np.ndarray:
    """Read many launches on ``court`` in one numba call: ``rows`` (R, 8) as
    ``read_kernels.ROW_COLUMNS`` says (the goal speed of each from ``goal_speed``); (R, 5) answers:
    vx, vy, miss, iterations, reaches."""
    rows = np.ascontiguousarray(rows, dtype=np.float64).reshape(-1, ROW_COLUMNS)
    c, k = decelerations(court.params)
    bare = surface_court(court)
    columns = _log_columns(court, rows[0, 0], rows[0, 1]) if rows.shape[0] else 0
    return read_rows(court_law(court), court_motion(court), court_motion(bare), rows, c, k, columns, threads)


def _log_columns(court: Court, x: float, y: float) -> int:
    """The width of the trajectory log of ``court``'s motion law: a disc at rest at (x, y) run once."""

    def width(c: Court) -> int:
        zero = np.zeros(1)
        return int(simulate(Scene(c, np.array([x]), np.array([y]), zero, zero, zero)).trajectories.log.shape[1])

    return court.memo("reading_log_columns", width)
