"""Reading the court in numba: the launch whose path under the real surface does what a straight
launch means, solved with the physics kernel (``reading`` says what is solved and why).

One read is a row: a straight launch from (x, y) at (vx, vy) with spin omega, aimed through the goal
point (px, py), where it should be at rest (``goal_speed`` 0: a draw) or pass at ``goal_speed`` (a
take-out, an open 20). ``read_rows`` reads many rows in shares on numba's threads
(``threads.run_shares``), each share with its own scratch; every row writes only its own output,
so the reads do not depend on the thread count.

Each trial launch runs alone through the event loop (``numba_api.run_from_start``) under the court's
motion law, on the court stripped of its obstacles (``reading.surface_court``): a draw's miss is its
rest point minus the goal; a pass's miss is the point nearest the goal on its sampled path, moved
on by the slide its speed there exceeds the goal's by, minus the goal. Newton steps on (direction,
speed) from the straight launch, the Jacobian by forward differences, a step that does not shrink
the miss halved, the launch with the smallest miss kept.

Whether the read launch *reaches* its goal on the real court (edges and cushions in place): it must
not fall before the moment its path comes nearest the goal, and its miss must be within
``REACH_MISS``. On a table whose grade beats its friction's hold over the slide (a fast table with a
steep cross grade) every path to the far zones leaves the table first: no draw reaches them.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.numba_api import (
    EV_COLUMNS,
    STATUS,
    STATUS_FALLEN,
    new_state,
    run_from_start,
    sample_paths,
)

#: A read launch's miss (m) at which the solve stops.
READ_TOLERANCE = 1e-4
#: Newton iterations at most, and halvings of a step that does not shrink the miss.
MAX_ITERATIONS = 12
HALVINGS = 8
#: Forward-difference steps of the Jacobian: direction (rad) and relative speed.
STEP_ANGLE = 1e-6
STEP_SPEED = 1e-6
#: Samples of a pass's path searched for the point nearest its goal.
PATH_SAMPLES = 513
#: A read launch that still misses by more than this (m) does not reach its goal.
REACH_MISS = 0.01
#: Event bound of a lone trial (a lone disc on a bare surface logs a handful) and rows of its logs.
MAX_EVENTS = 64
LOG_ROWS = 2 * MAX_EVENTS + 16
#: A start is never refused for touching an obstacle (the reads run lone discs from a stance).
NO_OVERLAP_CHECK = math.inf

#: Columns of a read's row: start x, y, launch vx, vy, spin, goal x, y, goal speed.
ROW_COLUMNS = 8
#: Columns of a read's answer: vx, vy, miss (m), iterations, reaches (1.0 or 0.0).
OUT_COLUMNS = 5


@jit.kernel
def read_scratch(law, seg_columns):
    """A share's scratch for its trials: a lone disc's state, its start and end rows, the event log,
    the trajectory log (``seg_columns`` wide, the law's) and an empty one, and the path's sample
    times and points."""
    return (
        new_state(law, np.int64(1)),
        np.empty((1, 5)),
        np.empty((1, 5)),
        np.empty((LOG_ROWS, EV_COLUMNS)),
        np.empty((LOG_ROWS, seg_columns)),
        np.empty((0, seg_columns)),
        np.empty(PATH_SAMPLES),
        np.empty((PATH_SAMPLES, 1, 2)),
    )


@jit.inline
def _lone(law, motion, x, y, vx, vy, w, scratch, logged):
    """Run one disc alone to rest from (x, y) at (vx, vy, w); returns (n_seg, t_end, fallen) and leaves
    its rest point in the scratch's end row. ``logged``: keep the trajectory log (a pass's path)."""
    state, start, final, ev, seg = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    start[0, 0] = x
    start[0, 1] = y
    start[0, 2] = vx
    start[0, 3] = vy
    start[0, 4] = w
    log = seg if logged else scratch[5]
    _, _, n_seg, _, t_end = run_from_start(
        law, motion, start, NO_OVERLAP_CHECK, state, ev, log, np.int64(MAX_EVENTS), final
    )
    return n_seg, t_end, state[1][STATUS, 0] == STATUS_FALLEN


@jit.inline
def _miss(law, motion, x, y, w, angle, speed, px, py, goal_speed, c, k, scratch):
    """(miss x, miss y, time of the point nearest the goal) of the trial launch (angle, speed): for a
    draw its rest point minus the goal, for a pass the nearest point moved on by the slide its speed
    there exceeds the goal's by, minus the goal (module docstring)."""
    vx = speed * math.cos(angle)
    vy = speed * math.sin(angle)
    if goal_speed == 0.0:
        _, t_end, _ = _lone(law, motion, x, y, vx, vy, w, scratch, False)
        final = scratch[2]
        return final[0, 0] - px, final[0, 1] - py, t_end
    n_seg, t_end, _ = _lone(law, motion, x, y, vx, vy, w, scratch, True)
    times, path = scratch[6], scratch[7]
    log = scratch[4][:n_seg].copy()
    for s in range(PATH_SAMPLES):
        times[s] = t_end * s / (PATH_SAMPLES - 1)
    sample_paths(law, motion, log, np.int64(1), times, path)
    nearest = -1
    gap = math.inf
    for s in range(PATH_SAMPLES):
        d = math.hypot(path[s, 0, 0] - px, path[s, 0, 1] - py)
        if d < gap:  # NaN (before the first segment) never is
            gap = d
            nearest = s
    if nearest < 0:
        return math.inf, math.inf, t_end
    t = times[nearest]
    dt = 0.25 * t_end / (PATH_SAMPLES - 1)
    around = np.array([max(t - dt, 0.0), t, min(t + dt, t_end)])
    local = np.empty((3, 1, 2))
    sample_paths(law, motion, log, np.int64(1), around, local)
    span = around[2] - around[0]
    ux = math.cos(angle)
    uy = math.sin(angle)
    v = 0.0
    if span > 0.0:
        dx = (local[2, 0, 0] - local[0, 0, 0]) / span
        dy = (local[2, 0, 1] - local[0, 0, 1]) / span
        v = math.hypot(dx, dy)
        if v > 0.0:
            ux = dx / v
            uy = dy / v
    # the slide from speed v down to the goal's at the mean deceleration between them (c + k v)
    slide = (v * v - goal_speed * goal_speed) / (2.0 * (c + 0.5 * k * (v + goal_speed)))
    return local[1, 0, 0] + slide * ux - px, local[1, 0, 1] + slide * uy - py, t


@jit.kernel
def read_one(law, motion, surface_motion, row, c, k, scratch):
    """Read one row (module docstring): Newton's method on (direction, speed) on the bare surface,
    then the read launch run on the real court. Returns (vx, vy, miss, iterations, reaches)."""
    x, y, vx0, vy0, w, px, py, goal_speed = row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
    angle = math.atan2(vy0, vx0)
    speed = math.hypot(vx0, vy0)
    rx, ry, t_near = _miss(law, surface_motion, x, y, w, angle, speed, px, py, goal_speed, c, k, scratch)
    best = math.hypot(rx, ry)
    best_angle = angle
    best_speed = speed
    best_t = t_near
    iterations = 0
    while iterations < MAX_ITERATIONS and best > READ_TOLERANCE:
        iterations += 1
        h_angle = STEP_ANGLE
        h_speed = STEP_SPEED * speed
        ax, ay, _ = _miss(law, surface_motion, x, y, w, angle + h_angle, speed, px, py, goal_speed, c, k, scratch)
        sx, sy, _ = _miss(law, surface_motion, x, y, w, angle, speed + h_speed, px, py, goal_speed, c, k, scratch)
        j00 = (ax - rx) / h_angle
        j10 = (ay - ry) / h_angle
        j01 = (sx - rx) / h_speed
        j11 = (sy - ry) / h_speed
        det = j00 * j11 - j01 * j10
        if det == 0.0 or not math.isfinite(det):
            break
        step_angle = -(j11 * rx - j01 * ry) / det
        step_speed = -(-j10 * rx + j00 * ry) / det
        improved = False
        for _ in range(HALVINGS):
            trial_angle = angle + step_angle
            trial_speed = max(speed + step_speed, 1e-6)
            tx, ty, tt = _miss(
                law, surface_motion, x, y, w, trial_angle, trial_speed, px, py, goal_speed, c, k, scratch
            )
            size = math.hypot(tx, ty)
            if size < best:
                angle, speed, rx, ry = trial_angle, trial_speed, tx, ty
                best, best_angle, best_speed, best_t = size, angle, speed, tt
                improved = True
                break
            step_angle *= 0.5
            step_speed *= 0.5
        if not improved:
            break
    vx = best_speed * math.cos(best_angle)
    vy = best_speed * math.sin(best_angle)
    _, t_end, fallen = _lone(law, motion, x, y, vx, vy, w, scratch, False)
    reaches = best <= REACH_MISS and not (fallen and t_end < best_t)
    return vx, vy, best, iterations, reaches


@jit.shares
def _read_share(lo, hi, law, motion, surface_motion, rows, c, k, seg_columns, out):
    scratch = read_scratch(law, seg_columns)
    for r in range(lo, hi):
        vx, vy, miss, iterations, reaches = read_one(law, motion, surface_motion, rows[r], c, k, scratch)
        out[r, 0] = vx
        out[r, 1] = vy
        out[r, 2] = miss
        out[r, 3] = iterations
        out[r, 4] = 1.0 if reaches else 0.0


def read_rows(law, motion, surface_motion, rows: np.ndarray, c: float, k: float, seg_columns: int, threads=None):
    """Read every row of ``rows`` (R, ``ROW_COLUMNS``) on the court whose law and motion are given
    (``surface_motion``: the same court bare); (R, ``OUT_COLUMNS``) answers. ``c`` and ``k``: the
    sliding deceleration at rest and its growth with speed (``court.friction_law.decelerations``)."""
    from shuffle_sim._runtime.threads import run_shares

    rows = np.ascontiguousarray(rows, dtype=np.float64).reshape(-1, ROW_COLUMNS)
    out = np.empty((rows.shape[0], OUT_COLUMNS))
    if rows.shape[0]:
        run_shares(
            _read_share,
            rows.shape[0],
            law,
            motion,
            surface_motion,
            rows,
            float(c),
            float(k),
            np.int64(seg_columns),
            out,
            threads=threads,
        )
    return out
