"""Helpers for validating a court file's line judging in your own pytest suite.

A court file is data; these functions let you state what it must judge and get a clear failure when
it does not::

    from shuffle_sim.testing import assert_value, assert_line_boundary, probe_line, touching_point

    def test_my_court():
        assert_value("my-court.toml", 0.0, 14.0, 10)              # a disc in the 10 zone is a 10
        assert_line_boundary("my-court.toml", "8 ft line",          # touching the line scores 0,
                             touching_value=0, clear_value=8, side=-1)  # a hair clear of it, 8

``touching_point`` builds a disc centre whose circle is exactly ``gap`` metres from a line's band
(a line has width; ``gap`` 0 is tangency, negative overlaps the band), for straight and circular
lines. ``probe_line`` judges three discs there: exactly touching, a hair into the band and a hair
clear of it. The ``assert_*`` functions raise ``AssertionError`` naming the court, the end, the
point and the line. Every court argument may be a ``Court`` or a court name or file path.

"Exactly" is meant literally: for ``gap`` the returned centre is the floating-point point, moved
along one coordinate, whose exact (rational) distance to the band is the largest not above
``r + gap`` (straight lines: the perpendicular distance, for ``along`` in [0, 1]; circles: the radial
distance). The judging kernel counts a disc within ``geometry.TOUCH_TOLERANCE`` (1e-12 m) as
touching, so a ``hair`` must be well above that.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from fractions import Fraction

from shuffle_sim.court import Court, load_court
from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging import judge

__all__ = [
    "LineProbe",
    "assert_judged",
    "assert_line_boundary",
    "assert_value",
    "judged",
    "probe_line",
    "touching_point",
]

_UNSET = object()
#: ``probe_line`` refuses a hair closer to the judging tolerance than this factor.
_MIN_HAIR_OVER_TOLERANCE = 100.0
#: Bound on the ulp steps that settle an exactly-touching point (a few are ever needed).
_MAX_ULP_STEPS = 10_000


def _court(court: Court | str | os.PathLike, end: str | None) -> Court:
    if not isinstance(court, Court):
        court = load_court(court)
    return court.for_end(end)


def _where(court: Court) -> str:
    ends = f" ({court.end} end)" if len(court.ends) > 1 else ""
    return f"court {court.name!r}{ends}"


def _describe(rec: dict) -> str:
    touching = ", ".join(repr(t) for t in rec["touching"]) or "no line"
    status = "dead" if rec["dead"] else "alive"
    hanger = f", {rec['hanger']} hanger" if rec["hanger"] else ""
    return f"value {rec['value']}, zone {rec['zone']!r}, touching {touching}, {status}{hanger}"


def judged(court: Court | str | os.PathLike, x: float, y: float, end: str | None = None) -> dict:
    """The judged record of one disc centre (x, y) in metres: value, zone, touching, dead, hanger."""
    court = _court(court, end)
    return judge(court, x, y)


def assert_judged(
    court: Court | str | os.PathLike,
    x: float,
    y: float,
    end: str | None = None,
    *,
    value=_UNSET,
    zone=_UNSET,
    touching=_UNSET,
    dead=_UNSET,
    hanger=_UNSET,
) -> dict:
    """Assert the judgement of a disc centred at (x, y); only the fields given are checked.

    ``touching`` is compared as a set of line names; ``zone`` and ``hanger`` may be None. Returns the
    judged record so a test can check more.
    """
    court = _court(court, end)
    rec = judge(court, x, y)
    wanted = {"value": value, "zone": zone, "touching": touching, "dead": dead, "hanger": hanger}
    wrong = []
    for field, expected in wanted.items():
        if expected is _UNSET:
            continue
        got = rec[field]
        if field == "touching":
            if isinstance(expected, str):
                expected = [expected]
            same = set(got) == set(expected)
            expected = sorted(expected)
        else:
            same = got == expected
        if not same:
            wrong.append(f"{field} {got!r}, expected {expected!r}")
    if wrong:
        raise AssertionError(
            f"{_where(court)}: disc at ({x!r}, {y!r}) m: " + "; ".join(wrong) + f" [judged: {_describe(rec)}]"
        )
    return rec


def assert_value(court: Court | str | os.PathLike, x: float, y: float, expected: int, end: str | None = None) -> dict:
    """Assert that a disc centred at (x, y) metres is judged worth ``expected``; returns its record."""
    return assert_judged(court, x, y, end, value=expected)


# ---- points at a line's boundary ------------------------------------------------------------------

def _line(court: Court, name: str):
    try:
        return court.line(name)
    except KeyError:
        names = ", ".join(repr(ln.name) for ln in court.lines)
        raise ValueError(f"{_where(court)} has no line {name!r} (lines: {names})") from None


def _check_probe_args(court: Court, line: str, along: float, side: int) -> None:
    if side not in (1, -1):
        raise ValueError(f"side must be +1 or -1, got {side!r}")
    if not (isinstance(along, (int, float)) and 0.0 <= along <= 1.0):
        raise ValueError(f"along must lie in [0, 1] (a fraction of line {line!r} of {_where(court)}), got {along!r}")


def touching_point(
    court: Court | str | os.PathLike,
    line: str,
    along: float = 0.5,
    side: int = +1,
    gap: float = 0.0,
    end: str | None = None,
) -> tuple[float, float]:
    """A disc centre whose circle is exactly ``gap`` metres from the band of ``line`` (0: tangent).

    Straight line: the point ``along`` the centre segment (0 at ``from``, 1 at ``to``), moved
    across it to the left of ``from -> to`` (``side=+1``) or to the right (``side=-1``). Circular
    line: the point at angle ``along`` of a full turn counter-clockwise from +x, outside the circle
    (``side=+1``) or inside it (``side=-1``). A negative ``gap`` overlaps the band by ``-gap``.
    """
    court = _court(court, end)
    _check_probe_args(court, line, along, side)
    ln = _line(court, line)
    if not math.isfinite(gap):
        raise ValueError(f"gap must be a finite number of metres, got {gap!r}")
    r = court.disc_radius
    hw = ln.width / 2
    # Exact distance, as a rational, from the line's centre to the disc's centre.
    target = Fraction(ln.width) / 2 + Fraction(r) + Fraction(gap)
    if ln.kind == "segment":
        if target < 0:
            raise ValueError(f"gap {gap!r} would put the centre past the middle of line {line!r} of {_where(court)}")
        x0, y0, x1, y1 = ln.geom
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        offset = side * (hw + r + gap)
        # (1 - t) a + t b is exact at both ends, so along=0 and 1 land on the line's end points.
        foot = ((1.0 - along) * x0 + along * x1, (1.0 - along) * y0 + along * y1)
        point = [foot[0] + offset * nx, foot[1] + offset * ny]
        outward = (side * nx, side * ny)
        fx0, fy0, fdx, fdy = Fraction(x0), Fraction(y0), Fraction(x1) - Fraction(x0), Fraction(y1) - Fraction(y0)
        limit = target * target * (fdx * fdx + fdy * fdy)

        def within(p):  # perpendicular distance to the centre line <= target, exactly
            cross = fdx * (Fraction(p[1]) - fy0) - fdy * (Fraction(p[0]) - fx0)
            return cross * cross <= limit
    else:
        cx, cy, radius, _ = ln.geom
        rho = radius + side * (hw + r + gap)
        exact_rho = Fraction(radius) + side * target
        if exact_rho < 0:
            raise ValueError(
                f"a disc of radius {r!r} m cannot lie {gap!r} m inside circular line {line!r} of {_where(court)}"
            )
        angle = 2.0 * math.pi * along
        point = [cx + rho * math.cos(angle), cy + rho * math.sin(angle)]
        outward = (side * math.cos(angle), side * math.sin(angle))
        fcx, fcy = Fraction(cx), Fraction(cy)
        limit = exact_rho * exact_rho

        def within(p):  # radial distance on this side of the line's centre circle, exactly
            rho2 = (Fraction(p[0]) - fcx) ** 2 + (Fraction(p[1]) - fcy) ** 2
            return rho2 <= limit if side > 0 else rho2 >= limit

    # Settle the rounded construction on the last float (along the coordinate that moves the disc
    # away from the line fastest) that is still within the exact distance.
    k = 0 if abs(outward[0]) >= abs(outward[1]) else 1
    away = math.inf if outward[k] > 0 else -math.inf
    for _ in range(_MAX_ULP_STEPS):
        if within(point):
            break
        point[k] = math.nextafter(point[k], -away)
    else:  # pragma: no cover - the rounded construction is a few ulps off at most
        raise RuntimeError(f"could not settle a touching point on line {line!r} of {_where(court)}")
    for _ in range(_MAX_ULP_STEPS):
        step = list(point)
        step[k] = math.nextafter(step[k], away)
        if not within(step):
            break
        point = step
    return float(point[0]), float(point[1])


@dataclass(frozen=True)
class LineProbe:
    """Three discs at one place on a line: exactly touching, a hair into the band, a hair clear."""

    court: str
    end: str
    line: str
    along: float
    side: int
    hair: float
    touching_point: tuple[float, float]
    inside_point: tuple[float, float]
    clear_point: tuple[float, float]
    touching: dict  # judged record of the disc exactly touching
    inside: dict  # a hair into the band
    clear: dict  # a hair clear of the band


def probe_line(
    court: Court | str | os.PathLike,
    line: str,
    along: float = 0.5,
    side: int = +1,
    hair: float = 1e-9,
    end: str | None = None,
) -> LineProbe:
    """Judge discs exactly touching ``line``, ``hair`` metres into its band and ``hair`` clear of it.

    ``along`` and ``side`` as in ``touching_point``. ``hair`` must be well above the judging
    tolerance (1e-12 m): at least 1e-10 m.
    """
    court = _court(court, end)
    if not (isinstance(hair, (int, float)) and hair >= _MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE):
        raise ValueError(
            f"hair must be at least {_MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE:g} m (the judging tolerance is "
            f"{TOUCH_TOLERANCE:g} m), got {hair!r}"
        )
    points = {
        "touching": touching_point(court, line, along, side, 0.0),
        "inside": touching_point(court, line, along, side, -hair),
        "clear": touching_point(court, line, along, side, hair),
    }
    records = {k: judge(court, *p) for k, p in points.items()}
    return LineProbe(
        court=court.name, end=court.end, line=line, along=along, side=side, hair=hair,
        touching_point=points["touching"], inside_point=points["inside"], clear_point=points["clear"],
        **records,
    )


def assert_line_boundary(
    court: Court | str | os.PathLike,
    line: str,
    *,
    touching_value: int | None = None,
    clear_value: int | None = None,
    along: float = 0.5,
    side: int = +1,
    hair: float = 1e-9,
    end: str | None = None,
) -> LineProbe:
    """Assert that ``line`` is judged touched exactly at its band and not a hair clear of it.

    The disc exactly touching and the one a hair into the band must list ``line`` among the lines
    they touch (and be worth ``touching_value`` if given); the one a hair clear must not (and be
    worth ``clear_value`` if given). Returns the probe.
    """
    court = _court(court, end)
    probe = probe_line(court, line, along, side, hair)
    place = f"{_where(court)}, line {line!r} at along={along!r}, side={side:+d}"
    cases = (
        ("exactly touching", probe.touching_point, probe.touching, True, touching_value),
        (f"{hair:g} m into the band", probe.inside_point, probe.inside, True, touching_value),
        (f"{hair:g} m clear of the band", probe.clear_point, probe.clear, False, clear_value),
    )
    for label, (x, y), rec, touches, value in cases:
        where = f"{place}: disc {label} at ({x!r}, {y!r}) m"
        if (line in rec["touching"]) != touches:
            verb = "touch" if touches else "be clear of"
            raise AssertionError(f"{where}: expected it to {verb} the line [judged: {_describe(rec)}]")
        if value is not None and rec["value"] != value:
            raise AssertionError(f"{where}: value {rec['value']}, expected {value} [judged: {_describe(rec)}]")
    return probe
