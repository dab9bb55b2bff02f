"""Judging one disc for a test, and what the line and edge probes share."""

from __future__ import annotations

import math
import os

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging import judge, judge_batch
from shuffle_sim.messages import shown

UNSET = object()


#: ``probe_line`` refuses a hair closer to the judging tolerance than this factor.
MIN_HAIR_OVER_TOLERANCE = 100.0


#: Bound on the ulp steps that settle an exactly-touching point (a few are ever needed).
MAX_ULP_STEPS = 10_000


def where_of(court: Court) -> str:
    ends = f" ({court.end} end)" if len(court.ends) > 1 else ""
    return f"court {court.name!r}{ends}"


def describe(rec: dict) -> str:
    touching = ", ".join(repr(t) for t in rec["touching"]) or "no line"
    status = "dead" if rec["dead"] else "alive"
    hanger = f", {rec['hanger']} hanger" if rec["hanger"] else ""
    return f"value {rec['value']}, zone {rec['zone']!r}, touching {touching}, {status}{hanger}"


def judged(court: Court | str | os.PathLike, x: float, y: float, end: str | None = None) -> dict:
    """The judged record of one disc centre (x, y) in metres: value, zone, touching, dead, hanger."""
    court = as_court(court, end)
    return judge(court, x, y)


def assert_judged(
    court: Court | str | os.PathLike,
    x: float,
    y: float,
    end: str | None = None,
    *,
    value=UNSET,
    zone=UNSET,
    touching=UNSET,
    dead=UNSET,
    hanger=UNSET,
) -> dict:
    """Assert the judgement of a disc centred at (x, y); only the fields given are checked.

    ``touching`` is compared as a set of line names; ``zone`` and ``hanger`` may be None. Returns the
    judged record so a test can check more.
    """
    court = as_court(court, end)
    rec = judge(court, x, y)
    wanted = {"value": value, "zone": zone, "touching": touching, "dead": dead, "hanger": hanger}
    check_record(
        f"{where_of(court)}: disc at ({shown(x)}, {shown(y)}) m",
        rec,
        {k: v for k, v in wanted.items() if v is not UNSET},
    )
    return rec


def check_record(where: str, rec: dict, wanted: dict) -> None:
    """Raise ``AssertionError`` when a field of the judged record ``rec`` is not the one ``wanted``
    gives: the message starts with ``where`` and names every such field, then the whole judgement.
    ``touching`` is compared as a set of line names (one name may stand for a list of one)."""
    wrong = []
    for field, expected in wanted.items():
        got = rec[field]
        if field == "touching":
            if isinstance(expected, str):
                expected = [expected]
            same = set(got) == set(expected)
            expected = sorted(expected)
        else:
            same = got == expected
        if not same:
            wrong.append(f"{field} {shown(got)}, expected {shown(expected)}")
    if wrong:
        raise AssertionError(f"{where}: " + "; ".join(wrong) + f" [judged: {describe(rec)}]")


def assert_value(court: Court | str | os.PathLike, x: float, y: float, expected: int, end: str | None = None) -> dict:
    """Assert that a disc centred at (x, y) metres is judged worth ``expected``; returns its record."""
    return assert_judged(court, x, y, end, value=expected)


def settle(point: list[float], outward: tuple[float, float], within, what: str) -> tuple[float, float]:
    """The last float along the coordinate that moves the point ``outward`` fastest, from the rounded
    construction ``point``, that still satisfies the exact test ``within`` (a step further fails it)."""
    k = 0 if abs(outward[0]) >= abs(outward[1]) else 1
    away = math.inf if outward[k] > 0 else -math.inf
    for _ in range(MAX_ULP_STEPS):
        if within(point):
            break
        point[k] = math.nextafter(point[k], -away)
    else:  # pragma: no cover - the rounded construction is a few ulps off at most
        raise RuntimeError(f"could not settle a point at {what}")
    for _ in range(MAX_ULP_STEPS):
        step = list(point)
        step[k] = math.nextafter(step[k], away)
        if not within(step):
            break
        point = step
    return float(point[0]), float(point[1])


def check_hair(hair) -> None:
    if not (isinstance(hair, (int, float)) and hair >= MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE):
        raise ValueError(
            f"hair must be at least {MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE:g} m (the judging tolerance is "
            f"{TOUCH_TOLERANCE:g} m), got {shown(hair)}"
        )


def judged_record(court: Court, point: tuple[float, float]) -> dict:
    """The judged record of a disc centred at ``point``, with ``fallen`` (its centre off the surface)."""
    result = judge_batch(court, [point[0]], [point[1]])
    return dict(result.record(0), fallen=bool(result.fallen[0]))


def probe_fields(court: Court, points: dict[str, tuple[float, float]], judge_point) -> dict:
    """The fields a probe of ``points`` (name -> disc centre) shares: the court's name and end, each
    point as ``NAME_point`` and its judged record (``judge_point(court, point)``) as ``NAME``."""
    fields: dict[str, object] = {"court": court.name, "end": court.end}
    fields.update({f"{k}_point": p for k, p in points.items()})
    fields.update({k: judge_point(court, p) for k, p in points.items()})
    return fields
