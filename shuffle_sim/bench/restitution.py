"""What a restitution law costs: ``shuffle-sim bench``'s ``restitution_law`` entry.

The same 8-disc half-rounds (``bench.kernel.half_round_shots``: draws and take-outs that hit each
other and the backstop), timed in turn on all cores, the best of ``repeats`` rounds each, two ways:

* ``law_over_constant``: the court as it is beside the same court with a restitution that falls above
  a yield speed (``physics.restitution``; 0.2 m/s for disc against disc and against the cushions: the
  half-rounds' take-outs hit at about 0.5 to 0.7 m/s, so nearly every impact takes the law's falling
  branch). The hits then lose more energy, so the half-rounds themselves differ (more contacts among
  the slower discs): this is the cost of playing such a court, physics and evaluation together.
* ``evaluation_over_constant``: the cost of evaluating the law alone, on identical paths: both courts
  with a restitution of 0, one of them with the law (0 times anything is 0), so that every impact
  evaluates the law and every result is the same, bit for bit. Without restitution the struck discs
  stay together and each half-round takes many more impacts (about fifty times slower), so the
  impulses' share of the time, and the test of the law's cost, is the larger.

The deck court's own file has a constant restitution (no figures for its discs' law were found); the
crokinole board is the court that has a law as shipped (disc against disc: 0.85 up to 0.7 m/s, then
falling; docs/court-speed.md, "Impacts"). ``board_beside_constant`` times it beside the same board
with a constant 0.85: random shots from the shooting line into one to three discs between the pegs
and the 5 circle, launched at 0.8 to 2 m/s so that most hits pass the yield speed, through the scene
batch (``physics.scene_batch``). Its ``law_over_constant`` is the cost of playing a court with e(v)
as users get it; ``events_law`` and ``events_constant`` count the events of the two runs.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime.threads import numba_thread_limit
from shuffle_sim.bench._timing import best_rate, with_threads
from shuffle_sim.court import Court, load_court
from shuffle_sim.physics.faces.scene_batch import Scenes, simulate_scenes

#: The yield speed (m/s) of the law timed here.
YIELD_SPEED = 0.2


def _in_turn(first: Court, second: Court, rounds, run_rounds, repeats: int, count: int = 0) -> tuple[float, float]:
    """Items per second on ``first`` and on ``second``, measured in turn, the best of each
    (``count`` items per run: the half-rounds' number unless given)."""
    count = count or len(rounds)
    run_rounds(second, rounds if rounds is None else rounds[:2])  # the same compiled code either way
    cores = numba_thread_limit()
    a = b = 0.0
    for _ in range(repeats):
        a = max(a, with_threads(cores, lambda: best_rate(lambda: run_rounds(first, rounds), count, 1)))
        b = max(b, with_threads(cores, lambda: best_rate(lambda: run_rounds(second, rounds), count, 1)))
    return a, b


def law_beside_constant(court: Court, rounds, run_rounds, repeats: int) -> dict:
    """Half-rounds per second with a constant restitution and with a law, measured in turn (module
    docstring). ``run_rounds(court, rounds)`` plays the half-rounds (``bench.kernel.kernel_half_rounds``)."""
    constant = court.with_params(disc_yield_speed=float("inf"), cushion_yield_speed=float("inf"))
    lawful = court.with_params(disc_yield_speed=YIELD_SPEED, cushion_yield_speed=YIELD_SPEED)
    plain, law = _in_turn(constant, lawful, rounds, run_rounds, repeats)
    still = constant.with_params(disc_restitution=0.0, cushion_restitution=0.0)
    still_law = still.with_params(disc_yield_speed=YIELD_SPEED, cushion_yield_speed=YIELD_SPEED)
    still_plain, evaluated = _in_turn(still, still_law, rounds, run_rounds, repeats)
    return {
        "kernel_per_s_constant": plain,
        "kernel_per_s_law": law,
        "law_over_constant": law / plain,
        "kernel_per_s_constant_e0": still_plain,
        "kernel_per_s_law_e0": evaluated,
        "evaluation_over_constant": evaluated / still_plain,
        "yield_speed": YIELD_SPEED,
    }


#: Where the board's shots start (m from the centre: the shooting line) and where their targets rest
#: (between the ring of pegs and the 5 circle, clear of the pegs).
_SHOOTING_RADIUS = 0.28
_TARGET_RADII = (0.13, 0.2)
#: Launch speeds (m/s): the shots reach their targets at about the yield speed and above.
_LAUNCH_SPEEDS = (0.8, 2.0)


def board_shots(count: int, seed: int = 0, most_discs: int = 4) -> tuple[np.ndarray, ...]:
    """``count`` crokinole scenes: a shot from the shooting line at the first of one to three resting
    discs, turned by a small aiming error. Returns ``(x, y, vx, vy, omega, n_discs)``, padded to
    ``most_discs`` columns with NaN positions."""
    rng = np.random.default_rng(seed)
    x = np.full((count, most_discs), np.nan)
    y = np.full((count, most_discs), np.nan)
    vx, vy, omega = (np.zeros((count, most_discs)) for _ in range(3))
    n_discs = np.zeros(count, dtype=np.int64)
    for k in range(count):
        n = int(rng.integers(2, most_discs + 1))
        start = rng.uniform(0.0, 2.0 * math.pi)
        xs, ys = [_SHOOTING_RADIUS * math.cos(start)], [_SHOOTING_RADIUS * math.sin(start)]
        while len(xs) < n:
            radius, angle = rng.uniform(*_TARGET_RADII), rng.uniform(0.0, 2.0 * math.pi)
            px, py = radius * math.cos(angle), radius * math.sin(angle)
            if all(math.hypot(px - a, py - b) > 0.04 for a, b in zip(xs, ys)):
                xs.append(px)
                ys.append(py)
        dx, dy = xs[1] - xs[0], ys[1] - ys[0]
        length = math.hypot(dx, dy)
        turn, speed = rng.normal(0.0, 0.03), rng.uniform(*_LAUNCH_SPEEDS)
        c, s = math.cos(turn), math.sin(turn)
        x[k, :n], y[k, :n] = xs, ys
        vx[k, 0] = speed * (c * dx - s * dy) / length
        vy[k, 0] = speed * (s * dx + c * dy) / length
        n_discs[k] = n
    return x, y, vx, vy, omega, n_discs


def board_beside_constant(count: int, repeats: int) -> dict:
    """Scenes per second on the crokinole board with its restitution law and with a constant
    restitution, measured in turn on all cores (module docstring)."""
    lawful = load_court("crokinole")
    constant = lawful.with_params(disc_yield_speed=math.inf)
    shots = board_shots(count)
    batches = {}

    def run(court: Court):
        batches[court is lawful] = simulate_scenes(Scenes(court, *shots))

    plain, law = _in_turn(constant, lawful, None, lambda court, _rounds: run(court), repeats, count)
    return {
        "court": lawful.name,
        "scenes_per_s_constant": plain,
        "scenes_per_s_law": law,
        "law_over_constant": law / plain,
        "events_constant": int(batches[False].events.sum()),
        "events_law": int(batches[True].events.sum()),
        "yield_speed": float(lawful.params["disc_yield_speed"]),
    }
