"""What a real surface costs: ``shuffle-sim bench``'s ``surface`` entry.

The benchmark's single-disc draws to the foot 10 (``bench.physics.single_shots``) without spin, on
the deck court as it is (flat: the closed forms) and on the same court with a 1-in-1000 drift across
and along it and a 1/32 in crown (``SLOPE``, ``CROWN``: the curved-motion path, integrated), timed in
turn on all cores and on one thread, the best of ``repeats`` rounds each, through the batch API
(``simulate_shots``, one reused set of result arrays):

* ``kernel_per_s`` and ``kernel_1thread_per_s``: shots per second on the curved court;
* ``flat_spin_free_per_s``: the same shots on the flat court, measured in the same run, and
  ``over_flat``, the curved rate over it (target: at least 0.02);
* ``pymunk_per_s``: pymunk on the same surface, one scene per shot, the grade given as a force on
  each body at its position every step (a ``velocity_func``: pymunk has one gravity vector for the
  whole space), and ``ratio``, the kernel on all cores over it (target: at least 1000).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np
import pymunk

from shuffle_sim._runtime.threads import numba_thread_limit
from shuffle_sim.bench._timing import best_rate, with_threads
from shuffle_sim.court import Court

if TYPE_CHECKING:
    from shuffle_sim.reference import PymunkCourt

#: The surface timed: a grade of 1 in 1000 across (toward +x) and 1 in 2000 along, and a crown.
SLOPE = (0.001, 0.0005)
CROWN = "1/32 in"
#: Pymunk's time step (s), as in the rest of the benchmark (``bench.physics.PYMUNK_DT``).
PYMUNK_DT = 1e-3


def surface_court(court: Court) -> Court:
    """``court`` with the benchmark's slope and crown."""
    return court.with_params(slope=list(SLOPE), crown=CROWN)


def _runner(court: Court, shots: np.ndarray):
    """A call that plays ``shots`` (N, 5) in one ``simulate_shots`` batch into one reused result."""
    from shuffle_sim.shots import ShotBatch, simulate_shots

    columns = [np.ascontiguousarray(shots[:, k]) for k in range(5)]
    out = ShotBatch.empty(len(shots), 1)
    x, y, vx, vy, omega = columns
    return lambda: simulate_shots(court, x, y, vx, vy, omega, out=out)


def grade_acceleration(court: Court):
    """A function (x, y) -> the in-plane gravity (m/s^2) of ``court``'s slope and crown, in plain
    Python for pymunk's per-step callback (the court's shape has no maps here)."""
    shape = court.surface_shape
    if shape.height_map is not None or shape.friction_map is not None:
        raise ValueError("the surface benchmark's pymunk run takes a slope and a crown, not maps")
    g = court.params["gravity"]
    ax0, ay0 = g * shape.slope[0], g * shape.slope[1]
    k = 2.0 * g * shape.crown / shape.crown_width**2
    cx, cy = shape.crown_centre
    kx = k if shape.crown_axis != 1 else 0.0
    ky = k if shape.crown_axis != 0 else 0.0
    return lambda x, y: (ax0 - kx * (x - cx), ay0 - ky * (y - cy))


def pymunk_surface_table(court: Court, shot) -> PymunkCourt:
    """A ``reference.PymunkCourt`` on ``court`` with one disc launched as ``shot`` (x, y, vx, vy,
    omega), the grade of ``court``'s surface given to it as a force at its position every step."""
    from shuffle_sim.reference import PymunkCourt

    accel = grade_acceleration(court)

    def feel_the_grade(body, gravity, damping, dt):
        pymunk.Body.update_velocity(body, accel(*body.position), damping, dt)

    table = PymunkCourt(court, PYMUNK_DT, record_events=False)
    table.add_disc(*shot)
    for body in table.space.bodies:
        body.velocity_func = feel_the_grade
    return table


def pymunk_surface_rate(court: Court, shots: np.ndarray, budget_s: float) -> tuple[float, int]:
    """Shots per second in pymunk on ``court``'s surface, one scene per shot, timing as many as fit in
    ``budget_s`` (at least two)."""
    done = 0
    began = time.perf_counter()
    while done < len(shots) and (done < 2 or time.perf_counter() - began < budget_s):
        pymunk_surface_table(court, shots[done]).run()
        done += 1
    return done / (time.perf_counter() - began), done


def surface_beside_flat(court: Court, shots: np.ndarray, repeats: int, pymunk_budget_s: float) -> dict:
    """The ``surface`` entry (module docstring) for the flat ``court`` and single shots (N, 5), whose
    spin is set to 0."""
    free = np.array(shots, dtype=np.float64)
    free[:, 4] = 0.0
    curved = surface_court(court)
    run_flat = _runner(court, free)
    run_curved = _runner(curved, free)
    _runner(court, free[:16])()  # compile (or load) before the clock starts
    _runner(curved, free[:16])()
    cores = numba_thread_limit()
    flat = with_threads(cores, lambda: best_rate(run_flat, len(free), repeats))
    everyone = with_threads(cores, lambda: best_rate(run_curved, len(free), repeats))
    one = with_threads(1, lambda: best_rate(run_curved, len(free), repeats))
    pymunk_rate, _ = pymunk_surface_rate(curved, free, pymunk_budget_s)
    return {
        "kernel_per_s": everyone,
        "kernel_1thread_per_s": one,
        "flat_spin_free_per_s": flat,
        "over_flat": everyone / flat,
        "pymunk_per_s": pymunk_rate,
        "ratio": everyone / pymunk_rate,
    }
