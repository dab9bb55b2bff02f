"""Court speed in players' units: the seconds a disc slides over a court's speed course.

Players rate a court by time, not by a friction coefficient. Deck courts are rated by the time a
disc takes from one kitchen (10-off area) to the other: about 4-5 s on a slow court, 12-20 s on a
fast one (polyglide.com, "East vs West" court finishes; the MSA rules give each player two speed
shots before practice to check it). A court file says what its rating means in ``[speed_course]``:
a disc shot without spin on the flat court from ``from`` that comes to rest at ``to``. Under
Coulomb friction that disc slides the course's length d in t = 2 d / v0 seconds with
v0^2 = 2 mu g d, so the rating and the friction follow from each other exactly::

    mu = 2 d / (g t^2),        t = sqrt(2 d / (mu g)).

Under a speed-dependent law mu + mu_speed v (``friction_law``) the time is the law's stop time of
the launch that slides d, and mu follows from it and mu_speed by bisection.

A faster court is a longer time. ``speed = "14 s"`` in a court file's ``[materials]``, or in a scene's,
board's or experiment's ``params``, sets mu this way; ``mu`` stays available, and giving both is an
error naming both. What each court's course is, and why: ``courts/README.md``, "Court speed".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shuffle_sim import units
from shuffle_sim.court.errors import CourtError
from shuffle_sim.court.friction_law import launch_speed, stop_time


@dataclass(frozen=True)
class SpeedCourse:
    """The shot a court's speed is the sliding time of: from ``start`` to rest at ``rest`` (m)."""

    start: tuple[float, float]
    rest: tuple[float, float]
    description: str = ""

    @property
    def length(self) -> float:
        """The course's length d (m)."""
        return math.hypot(self.rest[0] - self.start[0], self.rest[1] - self.start[1])


def mu_for_speed(seconds: float, length: float, gravity: float, mu_speed: float = 0.0) -> float:
    """The friction mu at which a disc slides ``length`` metres to rest in ``seconds``: 2 d / (g t^2)
    under Coulomb; under mu + ``mu_speed`` v (``friction_law``) found by bisection in log mu, the
    time falling as mu grows."""
    coulomb = 2.0 * length / (gravity * seconds * seconds)
    if mu_speed == 0.0:
        return coulomb
    lo, hi = coulomb * 1e-6, coulomb * 1e6
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if speed_for_mu(mid, length, gravity, mu_speed) > seconds:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return hi


def speed_for_mu(mu: float, length: float, gravity: float, mu_speed: float = 0.0) -> float:
    """The court speed in seconds: the time a disc without spin takes to slide ``length`` metres to
    rest, sqrt(2 d / (mu g)) under Coulomb (infinite without friction), ``friction_law.stop_time``
    of the launch that slides d under mu + ``mu_speed`` v."""
    if mu <= 0:
        return math.inf
    if mu_speed == 0.0:
        return math.sqrt(2.0 * length / (mu * gravity))
    c, k = mu * gravity, mu_speed * gravity
    return stop_time(launch_speed(length, c, k), c, k)


def parse_speed(value: Any, where: str, key: str) -> float:
    """A court speed ("14 s") in seconds: a time with its unit, positive and finite; ``CourtError``
    naming ``where`` and ``key`` otherwise (a bare number could be read as a launch speed in m/s)."""
    if not isinstance(value, str):
        raise CourtError(f'{where}: {key}: a court speed is a time with its unit, such as "14 s" (got {value!r})')
    try:
        seconds = units.duration(value)
    except units.UnitError as exc:
        raise CourtError(f"{where}: {key}: {exc}") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise CourtError(f"{where}: {key}: a court speed must be a positive time (got {value!r})")
    return seconds


def read_speed_course(reader, data: dict) -> SpeedCourse | None:
    """``[speed_course]``: ``from`` and ``to`` (points) and a ``description`` of what the rating means;
    None when the file has none (its speed cannot then be given, only mu)."""
    if "speed_course" not in data:
        return None
    table = reader.table(data["speed_course"], "speed_course")
    reader.keys(table, "speed_course", {"from", "to", "description"}, {"from", "to"})
    start = reader.point(table["from"], "speed_course.from")
    rest = reader.point(table["to"], "speed_course.to")
    if start == rest:
        reader.fail("speed_course.to", "the course needs two distinct ends", table["to"])
    description = reader.string(table.get("description", "the speed course"), "speed_course.description")
    return SpeedCourse(start, rest, description)


def mu_from_speed_or_mu(
    given: dict, course: SpeedCourse | None, gravity: float, where: str, prefix: str, mu_speed: float = 0.0
) -> float | None:
    """The mu that ``given`` (a materials or params table) sets: its ``mu``, or its ``speed`` over the
    course under the friction law's ``mu_speed``; None when it gives neither. ``CourtError`` naming
    both when both are given, and naming the speed when the court has no speed course."""
    has_mu = given.get("mu") is not None
    has_speed = given.get("speed") is not None
    if has_mu and has_speed:
        raise CourtError(
            f"{where}: {prefix}.mu and {prefix}.speed: give one of them, not both (got mu = "
            f"{given['mu']!r} and speed = {given['speed']!r})"
        )
    if not has_speed:
        return None
    seconds = parse_speed(given["speed"], where, f"{prefix}.speed")
    if course is None:
        raise CourtError(
            f"{where}: {prefix}.speed: this court has no [speed_course], so a speed in seconds means "
            f"nothing on it; give mu (got {given['speed']!r})"
        )
    return mu_for_speed(seconds, course.length, gravity, mu_speed)


def format_speed(seconds: float | None) -> str:
    """A court speed for display: "12.1 s", or "-" for a court without a speed course."""
    if seconds is None:
        return "-"
    return "inf s" if math.isinf(seconds) else f"{seconds:.1f} s"


def speed_label(mu: float, seconds: float | None) -> str:
    """The court's friction and speed side by side, for listings and drawings: "mu 0.016, 12.1 s"."""
    return f"mu {mu:.4g}" + ("" if seconds is None else f", {format_speed(seconds)}")
