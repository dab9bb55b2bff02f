"""Points at a line's boundary: a disc exactly touching a line's band, a hair into it, a hair clear."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from fractions import Fraction

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging import judge
from shuffle_sim.messages import shown
from shuffle_sim.testing._common import MIN_HAIR_OVER_TOLERANCE, describe, settle, where_of


def _line(court: Court, name: str):
    try:
        return court.line(name)
    except KeyError:
        names = ", ".join(repr(ln.name) for ln in court.lines)
        raise ValueError(f"{where_of(court)} has no line {name!r} (lines: {names})") from None


def _check_probe_args(court: Court, line: str, along: float, side: int) -> None:
    if side not in (1, -1):
        raise ValueError(f"side must be +1 or -1, got {shown(side)}")
    if not (isinstance(along, (int, float)) and 0.0 <= along <= 1.0):
        raise ValueError(
            f"along must lie in [0, 1] (a fraction of line {line!r} of {where_of(court)}), got {shown(along)}"
        )


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
    court = as_court(court, end)
    _check_probe_args(court, line, along, side)
    ln = _line(court, line)
    if not math.isfinite(gap):
        raise ValueError(f"gap must be a finite number of metres, got {shown(gap)}")
    r = court.disc_radius
    hw = ln.width / 2
    # Exact distance, as a rational, from the line's centre to the disc's centre.
    target = Fraction(ln.width) / 2 + Fraction(r) + Fraction(gap)
    if ln.kind == "segment":
        if target < 0:
            raise ValueError(
                f"gap {shown(gap)} would put the centre past the middle of line {line!r} of {where_of(court)}"
            )
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
                f"a disc of radius {shown(r)} m cannot lie {shown(gap)} m inside circular line {line!r} "
                f"of {where_of(court)}"
            )
        angle = 2.0 * math.pi * along
        point = [cx + rho * math.cos(angle), cy + rho * math.sin(angle)]
        outward = (side * math.cos(angle), side * math.sin(angle))
        fcx, fcy = Fraction(cx), Fraction(cy)
        limit = exact_rho * exact_rho

        def within(p):  # radial distance on this side of the line's centre circle, exactly
            rho2 = (Fraction(p[0]) - fcx) ** 2 + (Fraction(p[1]) - fcy) ** 2
            return rho2 <= limit if side > 0 else rho2 >= limit

    return settle(point, outward, within, f"line {line!r} of {where_of(court)}")


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
    court = as_court(court, end)
    if not (isinstance(hair, (int, float)) and hair >= MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE):
        raise ValueError(
            f"hair must be at least {MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE:g} m (the judging tolerance is "
            f"{TOUCH_TOLERANCE:g} m), got {shown(hair)}"
        )
    points = {
        "touching": touching_point(court, line, along, side, 0.0),
        "inside": touching_point(court, line, along, side, -hair),
        "clear": touching_point(court, line, along, side, hair),
    }
    records = {k: judge(court, *p) for k, p in points.items()}
    return LineProbe(
        court=court.name,
        end=court.end,
        line=line,
        along=along,
        side=side,
        hair=hair,
        touching_point=points["touching"],
        inside_point=points["inside"],
        clear_point=points["clear"],
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
    court = as_court(court, end)
    probe = probe_line(court, line, along, side, hair)
    place = f"{where_of(court)}, line {line!r} at along={along!r}, side={side:+d}"
    cases = (
        ("exactly touching", probe.touching_point, probe.touching, True, touching_value),
        (f"{hair:g} m into the band", probe.inside_point, probe.inside, True, touching_value),
        (f"{hair:g} m clear of the band", probe.clear_point, probe.clear, False, clear_value),
    )
    for label, (x, y), rec, touches, value in cases:
        where = f"{place}: disc {label} at ({shown(x)}, {shown(y)}) m"
        if (line in rec["touching"]) != touches:
            verb = "touch" if touches else "be clear of"
            raise AssertionError(f"{where}: expected it to {verb} the line [judged: {describe(rec)}]")
        if value is not None and rec["value"] != value:
            raise AssertionError(f"{where}: value {rec['value']}, expected {value} [judged: {describe(rec)}]")
    return probe
