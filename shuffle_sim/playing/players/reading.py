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
- Newton steps on (direction, speed) from the flat launch, the Jacobian by forward differences:
  the two difference trials of an iteration go through the kernel in one ``simulate_shots`` call; a pass
  runs each trial through ``simulate`` and samples its path (``physics.Trajectories.positions``). A step
  that does not shrink the miss is halved (at most ``HALVINGS`` times). The solve stops within
  ``READ_TOLERANCE`` of the goal, or after ``MAX_ITERATIONS``; the launch with the smallest miss
  found is played (the flat launch if nothing beat it): a player always shoots.

The trial shots run on the court stripped of its edges, cushions, pegs, holes and kill lines (what
the disc would do on the surface alone): a player reads the surface, not the obstacles, as the flat
closed form ignores them too. A player who reads only a fraction f of the drift
(``ShotContext.reads``) plays the flat launch plus f times the correction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.physics import Scene, simulate
from shuffle_sim.playing.players.context import Launch, ShotContext
from shuffle_sim.shots import simulate_shots

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


@dataclass(frozen=True)
class Reading:
    """A read launch: its velocity, its miss (m) under the real surface, and the iterations taken."""

    vx: float
    vy: float
    miss: float
    iterations: int


def surface_court(court: Court) -> Court:
    """``court`` with its surface only (no edges, cushions, pegs, holes or kill lines), kept on it."""
    return court.memo("reading_surface", lambda c: replace(c, edges=(), cushions=(), pegs=(), holes=(), kill_lines=()))


def read_launch(ctx: ShotContext, launch: Launch, px: float, py: float) -> Launch:
    """``launch``, a straight launch through (px, py) as the flat closed form aims it, read for the
    court's surface (module docstring). Unchanged on a flat court or for a player who reads nothing."""
    if ctx.court.surface_shape.flat or ctx.reads <= 0.0 or launch.speed == 0.0:
        return launch
    court = surface_court(ctx.court)
    key = (launch.x, launch.y, launch.vx, launch.vy, launch.omega, float(px), float(py))
    cache = court.memo("reading_cache", lambda c: {})
    if key not in cache:
        with one_numba_thread():  # a batch of three shots costs less than waking the pool
            cache[key] = solve_reading(court, launch, float(px), float(py))
    reading = cache[key]
    f = min(ctx.reads, 1.0)
    vx = reading.vx if f == 1.0 else launch.vx + f * (reading.vx - launch.vx)
    vy = reading.vy if f == 1.0 else launch.vy + f * (reading.vy - launch.vy)
    return Launch(launch.t, launch.x, launch.y, vx, vy, launch.omega)


def solve_reading(court: Court, launch: Launch, px: float, py: float) -> Reading:
    """Newton's method on (direction, speed) for the launch whose path meets the flat launch's goal at
    (px, py) on ``court`` (a surface court: ``surface_court``)."""
    decel = court.params["mu"] * court.params["gravity"]
    left = launch.speed**2 - 2.0 * decel * math.hypot(px - launch.x, py - launch.y)
    goal_speed = math.sqrt(left) if left > 1e-12 * launch.speed**2 else 0.0
    misses = _draw_misses if goal_speed == 0.0 else _pass_misses

    def miss(trials: np.ndarray) -> np.ndarray:
        return misses(court, launch, trials, px, py, goal_speed, decel)

    angle, speed = math.atan2(launch.vy, launch.vx), launch.speed
    residual = miss(np.array([[angle, speed]]))[0]
    best = (float(np.hypot(*residual)), angle, speed)
    iterations = 0
    while iterations < MAX_ITERATIONS and best[0] > READ_TOLERANCE:
        iterations += 1
        h_angle, h_speed = STEP_ANGLE, STEP_SPEED * speed
        near = miss(np.array([[angle + h_angle, speed], [angle, speed + h_speed]]))
        jacobian = np.column_stack([(near[0] - residual) / h_angle, (near[1] - residual) / h_speed])
        try:
            step = np.linalg.solve(jacobian, -residual)
        except np.linalg.LinAlgError:
            break
        for _ in range(HALVINGS):
            trial_angle, trial_speed = angle + step[0], max(speed + step[1], 1e-6)
            trial = miss(np.array([[trial_angle, trial_speed]]))[0]
            if float(np.hypot(*trial)) < best[0]:
                angle, speed, residual = trial_angle, trial_speed, trial
                best = (float(np.hypot(*trial)), angle, speed)
                break
            step = step / 2.0
        else:
            break
    size, angle, speed = best
    return Reading(speed * math.cos(angle), speed * math.sin(angle), size, iterations)


def _draw_misses(
    court: Court, launch: Launch, trials: np.ndarray, px: float, py: float, goal_speed: float, decel: float
) -> np.ndarray:
    """Rest point minus the goal for each trial (angle, speed): all trials in one batch call."""
    n = trials.shape[0]
    batch = simulate_shots(
        court,
        np.full(n, launch.x),
        np.full(n, launch.y),
        trials[:, 1] * np.cos(trials[:, 0]),
        trials[:, 1] * np.sin(trials[:, 0]),
        np.full(n, launch.omega),
    )
    return np.column_stack([batch.x[:, 0] - px, batch.y[:, 0] - py])


def _pass_misses(
    court: Court, launch: Launch, trials: np.ndarray, px: float, py: float, goal_speed: float, decel: float
) -> np.ndarray:
    """For each trial (angle, speed): the point nearest the goal on its path, moved on by the slide its
    speed there exceeds the goal's by (module docstring), minus the goal."""
    out = np.empty((trials.shape[0], 2))
    for k, (angle, speed) in enumerate(trials):
        scene = Scene(
            court=court,
            x=np.array([launch.x]),
            y=np.array([launch.y]),
            vx=np.array([speed * math.cos(angle)]),
            vy=np.array([speed * math.sin(angle)]),
            omega=np.array([launch.omega]),
            source="reading",
        )
        result = simulate(scene)
        tr = result.trajectories
        times = np.linspace(0.0, result.t_end, PATH_SAMPLES)
        path = tr.positions(1, times)
        nearest = int(np.nanargmin(np.hypot(path[:, 0, 0] - px, path[:, 0, 1] - py)))
        dt = 0.25 * result.t_end / (PATH_SAMPLES - 1)
        t = times[nearest]
        around = np.array([max(t - dt, 0.0), t, min(t + dt, result.t_end)])
        local = tr.positions(1, around)
        span = around[2] - around[0]
        vx, vy = (local[2, 0] - local[0, 0]) / span if span > 0.0 else (0.0, 0.0)
        v = math.hypot(vx, vy)
        ux, uy = (vx / v, vy / v) if v > 0.0 else (math.cos(angle), math.sin(angle))
        slide = (v * v - goal_speed * goal_speed) / (2.0 * decel)
        out[k, 0] = local[1, 0, 0] + slide * ux - px
        out[k, 1] = local[1, 0, 1] + slide * uy - py
    return out
