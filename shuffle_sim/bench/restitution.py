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
"""

from __future__ import annotations

from shuffle_sim._runtime.threads import numba_thread_limit
from shuffle_sim.bench._timing import best_rate, with_threads
from shuffle_sim.court import Court

#: The yield speed (m/s) of the law timed here.
YIELD_SPEED = 0.2


def _in_turn(first: Court, second: Court, rounds, run_rounds, repeats: int) -> tuple[float, float]:
    """Half-rounds per second on ``first`` and on ``second``, measured in turn, the best of each."""
    run_rounds(second, rounds[:2])  # the same compiled code; the tables differ in numbers only
    cores = numba_thread_limit()
    a = b = 0.0
    for _ in range(repeats):
        a = max(a, with_threads(cores, lambda: best_rate(lambda: run_rounds(first, rounds), len(rounds), 1)))
        b = max(b, with_threads(cores, lambda: best_rate(lambda: run_rounds(second, rounds), len(rounds), 1)))
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
