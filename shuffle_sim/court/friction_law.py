"""A court's friction law, and the free slide of a disc without spin on the flat court under it.

Two laws (``materials``' ``mu`` and ``mu_speed``):

* **Coulomb** (``mu_speed = 0``, the default): a constant coefficient, the sliding deceleration
  c = mu g whatever the speed.
* **Speed-dependent**: mu(v) = mu + mu_speed v, v the sliding speed (``mu_speed`` in s/m, either
  sign). A rising law is what video tracking of a table shows (the deceleration of tracked pucks
  grows with their speed); curling's ice simulators fit a law of speed too, and a disc riding a
  powder layer can go the other way. The physics applies it at each point of the disc's face from
  that point's own sliding speed (``physics.face_friction``).

Without spin on a flat court a disc launched at v0 decelerates at c + k v (c = g mu, k = g mu_speed)
and stops, in closed form, after

    s = v0 / k - (c / k^2) ln(1 + k v0 / c),        t = ln(1 + k v0 / c) / k,

which tend to Coulomb's v0^2 / (2 c) and v0 / c as k goes to 0. ``stop_distance``, ``stop_time`` and
their inverse ``launch_speed`` are these formulas, written to keep their precision at small k v0 / c;
every helper that aims a free slide (players, the lab, the environments, experiments' speed ranges)
asks them rather than Coulomb's square root. Under Coulomb they return the expressions the rest of
the package always used, bit for bit.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.court.errors import CourtError
from shuffle_sim.messages import shown

#: Below this |k v0 / c| the speed law's stop distance is summed as a series (the closed form would
#: cancel); the series' first omitted term, x^5 / 7, is then below 3e-16 of the sum.
SERIES_BELOW = 1e-3
#: Newton iterations of ``launch_speed`` (it converges in a handful: the distance is convex in v0).
NEWTON_STEPS = 60


def friction_law(params: dict) -> str:
    """The law of a court's ``params``: ``"coulomb"`` (a constant mu) or ``"speed"`` (mu + mu_speed v)."""
    return "coulomb" if params.get("mu_speed", 0.0) == 0.0 else "speed"


def decelerations(params: dict) -> tuple[float, float]:
    """(c, k): the sliding deceleration at rest, g mu (m/s^2), and its growth with speed, g mu_speed (1/s)."""
    g = params["gravity"]
    return params["mu"] * g, params.get("mu_speed", 0.0) * g


@jit.inline
def slide_to_rest(v0, c, k):
    """(time, distance) of a free slide without spin from ``v0`` to rest under the deceleration c + k v
    (s, m): Coulomb's v0 / c and v0^2 / (2 c) at ``k = 0``, else ln(1 + x) / k and
    (c / k^2) (x - ln(1 + x)) with x = k v0 / c, summed as a series where x is small (the closed form
    would cancel); infinite where the law reaches zero first (x <= -1). The same form gives a
    decoupled spin's stop under d|omega|/dt = -(a + b |omega|).
    """
    if k == 0.0:
        return v0 / c, v0 * v0 / (2.0 * c)
    x = k * v0 / c
    if x <= -1.0:
        return math.inf, math.inf
    if abs(x) < SERIES_BELOW:
        ratio = 0.5 - x / 3.0 + x * x / 4.0 - x * x * x / 5.0 + x * x * x * x / 6.0
    else:
        ratio = (x - math.log1p(x)) / (x * x)
    return math.log1p(x) / k, v0 * v0 / c * ratio


def stop_distance(v0: float, c: float, k: float = 0.0) -> float:
    """How far (m) a disc launched at ``v0`` slides to rest under deceleration c + k v (``k = 0``:
    Coulomb, v0^2 / (2 c))."""
    return slide_to_rest.py_func(v0, c, k)[1]


def stop_time(v0: float, c: float, k: float = 0.0) -> float:
    """How long (s) a disc launched at ``v0`` slides to rest under deceleration c + k v."""
    return slide_to_rest.py_func(v0, c, k)[0]


@jit.inline
def law_launch_speed(distance, c, k):
    """The launch speed (m/s) that slides a disc ``distance`` metres (> 0) to rest under deceleration
    c + k v: Coulomb's sqrt(2 c d), or the speed law's ``slide_to_rest`` inverted by Newton's method
    (inlined where a kernel aims, as the experiments' shots at a target do)."""
    coulomb = math.sqrt(2.0 * c * distance)
    if k == 0.0:
        return coulomb
    v = coulomb
    if k < 0.0:
        v = min(v, 0.5 * c / -k)
    for _ in range(NEWTON_STEPS):
        # ds/dv0 = v0 / (c + k v0).
        step = (slide_to_rest(v, c, k)[1] - distance) * (c + k * v) / v
        v_next = v - step
        if k < 0.0:
            v_next = min(v_next, 0.5 * (v + c / -k))
        if v_next <= 0.0:
            v_next = 0.5 * v
        if abs(v_next - v) <= 1e-15 * v:
            return v_next
        v = v_next
    return v


def launch_speed(distance: float, c: float, k: float = 0.0) -> float:
    """The launch speed (m/s) that slides a disc ``distance`` metres to rest under deceleration
    c + k v: Coulomb's sqrt(2 c d), or the speed law's inverted by Newton's method
    (``law_launch_speed``, compiled on first use under a speed law)."""
    if k == 0.0 or distance <= 0.0:
        return math.sqrt(2.0 * c * distance)
    return float(law_launch_speed(float(distance), float(c), float(k)))


def diagonal(bounds: tuple[float, float, float, float]) -> float:
    """The diagonal (m) of a surface's bounding box (xmin, ymin, xmax, ymax): the longest slide on it."""
    return math.hypot(bounds[2] - bounds[0], bounds[3] - bounds[1])


def top_speed(params: dict, diagonal: float) -> float:
    """The fastest slide a court holds (m/s): the Coulomb launch that slides its whole ``diagonal``."""
    return math.sqrt(2.0 * params["mu"] * params["gravity"] * diagonal)


def check_friction_law(params: dict, diagonal: float, where: str, prefix: str) -> None:
    """Refuse a speed law mu + mu_speed v that reaches zero at a sliding speed the court holds
    (``top_speed``): below zero it would push a disc on instead of braking it."""
    mu, mu_speed = params["mu"], params.get("mu_speed", 0.0)
    fastest = top_speed(params, diagonal)
    if mu_speed >= 0.0 or mu + mu_speed * fastest > 0.0:
        return
    raise CourtError(
        f"{where}: {prefix}.mu_speed: mu + mu_speed v must stay positive up to this court's top speed "
        f"{fastest:.3g} m/s, but with mu {shown(mu)} it reaches zero at {mu / -mu_speed:.3g} m/s "
        f"(mu_speed must be above {-mu / fastest:.6g} s/m; got {shown(mu_speed)})"
    )


def zero_friction_speed(params: dict) -> float:
    """The sliding speed (m/s) at which the law's friction reaches zero: infinite unless it falls."""
    mu_speed = params.get("mu_speed", 0.0)
    return params["mu"] / -mu_speed if mu_speed < 0.0 else math.inf


def fastest_face_speed(params: dict, radius: float, speed, spin):
    """How fast the fastest point of a disc's face slides (m/s): its speed plus its rim's, |v| + r |omega|
    (arrays or numbers alike)."""
    return abs(speed) + radius * abs(spin)


def launch_refusal(params: dict, radius: float, speed: float, spin: float) -> str | None:
    """Why a disc launched at ``speed`` with ``spin`` cannot be played under a friction law that falls
    with speed (the law's friction would be zero or less somewhere on its face); None if it can."""
    limit = zero_friction_speed(params)
    fastest = fastest_face_speed(params, radius, speed, spin)
    if fastest < limit:
        return None
    return (
        f"slides at up to {fastest:.6g} m/s over its face (|v| + r |omega|), where the friction law "
        f"mu + mu_speed v ({shown(params['mu'])} {shown(params['mu_speed'])}) has fallen to zero "
        f"(at {limit:.6g} m/s)"
    )
