"""Helpers for validating a court file's judging (lines, edges, hangers) in your own pytest suite.

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
clear of it.

Edges have two thresholds, and the same helpers probe both. ``edge_point`` builds a disc centre
whose circle is exactly ``gap`` metres inside an edge (``of="disc"``: 0 is flush, negative overhangs
by ``-gap``: where hangers begin) or whose centre is (``of="centre"``: 0 is on the edge, negative
beyond it: where the disc falls). ``probe_edge`` judges three discs at either threshold: exactly
there, a hair inside and a hair outside; ``probe_corner`` judges a disc flush with, or a hair over,
each of two edges that meet at a corner (end, side and corner hangers). The ``assert_*`` functions
raise ``AssertionError`` naming the court, the end, the point and the line or edge. Every court
argument may be a ``Court`` or a court name or file path.

"Exactly" is meant literally: for ``gap`` the returned centre is the floating-point point, moved
along one coordinate, whose exact (rational) distance to the band is the largest not above
``r + gap`` (straight lines: the perpendicular distance, for ``along`` in [0, 1]; circles: the radial
distance); for an edge, whose exact distance inside the edge is the smallest not below ``r + gap``
(``of="disc"``) or ``gap`` (``of="centre"``). Judging counts boundaries within
``geometry.TOUCH_TOLERANCE`` (1e-12 m) of each other as in exact contact: a disc within it of a line
touches the line, one within it of an edge is flush (not a hanger), a centre within it of the edge
is on the surface. So a disc placed at an edge minus its radius in floating point, a few 1e-16 m
off, is judged as exactly flush; and a ``hair`` must be well above the tolerance.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from fractions import Fraction

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging import judge, judge_batch
from shuffle_sim.messages import shown

__all__ = [
    "CornerProbe",
    "EdgeProbe",
    "LineProbe",
    "assert_corner_hangers",
    "assert_edge_boundary",
    "assert_judged",
    "assert_line_boundary",
    "assert_value",
    "corner_point",
    "edge_point",
    "judged",
    "probe_corner",
    "probe_edge",
    "probe_line",
    "touching_point",
]

_UNSET = object()
#: ``probe_line`` refuses a hair closer to the judging tolerance than this factor.
_MIN_HAIR_OVER_TOLERANCE = 100.0
#: Bound on the ulp steps that settle an exactly-touching point (a few are ever needed).
_MAX_ULP_STEPS = 10_000


def _court(court: Court | str | os.PathLike, end: str | None) -> Court:
    return as_court(court, end)


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
            wrong.append(f"{field} {shown(got)}, expected {shown(expected)}")
    if wrong:
        raise AssertionError(
            f"{_where(court)}: disc at ({shown(x)}, {shown(y)}) m: " + "; ".join(wrong) + f" [judged: {_describe(rec)}]"
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
        raise ValueError(f"side must be +1 or -1, got {shown(side)}")
    if not (isinstance(along, (int, float)) and 0.0 <= along <= 1.0):
        raise ValueError(f"along must lie in [0, 1] (a fraction of line {line!r} of {_where(court)}), got {shown(along)}")


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
        raise ValueError(f"gap must be a finite number of metres, got {shown(gap)}")
    r = court.disc_radius
    hw = ln.width / 2
    # Exact distance, as a rational, from the line's centre to the disc's centre.
    target = Fraction(ln.width) / 2 + Fraction(r) + Fraction(gap)
    if ln.kind == "segment":
        if target < 0:
            raise ValueError(f"gap {shown(gap)} would put the centre past the middle of line {line!r} of {_where(court)}")
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
                f"a disc of radius {shown(r)} m cannot lie {shown(gap)} m inside circular line {line!r} of {_where(court)}"
            )
        angle = 2.0 * math.pi * along
        point = [cx + rho * math.cos(angle), cy + rho * math.sin(angle)]
        outward = (side * math.cos(angle), side * math.sin(angle))
        fcx, fcy = Fraction(cx), Fraction(cy)
        limit = exact_rho * exact_rho

        def within(p):  # radial distance on this side of the line's centre circle, exactly
            rho2 = (Fraction(p[0]) - fcx) ** 2 + (Fraction(p[1]) - fcy) ** 2
            return rho2 <= limit if side > 0 else rho2 >= limit

    return _settle(point, outward, within, f"line {line!r} of {_where(court)}")


def _settle(point: list[float], outward: tuple[float, float], within, what: str) -> tuple[float, float]:
    """The last float along the coordinate that moves the point ``outward`` fastest, from the rounded
    construction ``point``, that still satisfies the exact test ``within`` (a step further fails it)."""
    k = 0 if abs(outward[0]) >= abs(outward[1]) else 1
    away = math.inf if outward[k] > 0 else -math.inf
    for _ in range(_MAX_ULP_STEPS):
        if within(point):
            break
        point[k] = math.nextafter(point[k], -away)
    else:  # pragma: no cover - the rounded construction is a few ulps off at most
        raise RuntimeError(f"could not settle a point at {what}")
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
            f"{TOUCH_TOLERANCE:g} m), got {shown(hair)}"
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
        where = f"{place}: disc {label} at ({shown(x)}, {shown(y)}) m"
        if (line in rec["touching"]) != touches:
            verb = "touch" if touches else "be clear of"
            raise AssertionError(f"{where}: expected it to {verb} the line [judged: {_describe(rec)}]")
        if value is not None and rec["value"] != value:
            raise AssertionError(f"{where}: value {rec['value']}, expected {value} [judged: {_describe(rec)}]")
    return probe


# ---- points at an edge's thresholds ---------------------------------------------------------------

_OF = ("disc", "centre")


def _edge(court: Court, name: str):
    try:
        return court.edge(name)
    except KeyError:
        names = ", ".join(repr(e.name) for e in court.edges)
        raise ValueError(f"{_where(court)} has no edge {name!r} (edges: {names})") from None


def _inside_at_least(edge, r: Fraction, target: Fraction):
    """The exact test "the point lies at least ``target`` inside ``edge``" (negative: at most
    ``-target`` beyond it), for a straight edge (perpendicular distance to its line) or a circular
    one (radial distance to its circle)."""
    if edge.kind == "segment":
        x0, y0, x1, y1 = (Fraction(v) for v in edge.geom)
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy

        def within(p):  # cross / length >= target, exactly (the surface lies on the left)
            cross = dx * (Fraction(p[1]) - y0) - dy * (Fraction(p[0]) - x0)
            if target >= 0:
                return cross >= 0 and cross * cross >= target * target * length2
            return cross >= 0 or cross * cross <= target * target * length2
        return within
    cx, cy, radius = (Fraction(v) for v in edge.geom[:3])
    limit = radius - target  # the centre's distance from the circle's centre, at most

    def within(p):
        return (Fraction(p[0]) - cx) ** 2 + (Fraction(p[1]) - cy) ** 2 <= limit * limit
    return within


def edge_point(
    court: Court | str | os.PathLike,
    edge: str,
    along: float = 0.5,
    gap: float = 0.0,
    of: str = "disc",
    end: str | None = None,
) -> tuple[float, float]:
    """A disc centre exactly at an edge's threshold: with ``of="disc"`` its circle lies ``gap`` metres
    inside the edge (0: flush with it; negative: overhanging it by ``-gap``), with ``of="centre"``
    the centre itself does (0: on the edge; negative: beyond it, fallen).

    ``along`` places the point along the edge: a fraction of the segment from ``from`` to ``to``, or
    of a full turn counter-clockwise from +x for a circular edge.
    """
    court = _court(court, end)
    e = _edge(court, edge)
    if of not in _OF:
        raise ValueError(f"of must be 'disc' or 'centre', got {shown(of)}")
    if not (isinstance(along, (int, float)) and 0.0 <= along <= 1.0):
        raise ValueError(f"along must lie in [0, 1] (a fraction of edge {edge!r} of {_where(court)}), got {shown(along)}")
    if not math.isfinite(gap):
        raise ValueError(f"gap must be a finite number of metres, got {shown(gap)}")
    r = court.disc_radius
    depth = (r + gap) if of == "disc" else gap
    target = (Fraction(r) if of == "disc" else Fraction(0)) + Fraction(gap)
    if e.kind == "segment":
        x0, y0, x1, y1 = e.geom
        foot = ((1.0 - along) * x0 + along * x1, (1.0 - along) * y0 + along * y1)
        nx, ny = e.inward_normal()
    else:
        cx, cy, radius, _ = e.geom
        if depth > radius:
            raise ValueError(f"a point {shown(depth)} m inside circular edge {edge!r} of {_where(court)} would pass "
                             "its centre")
        angle = 2.0 * math.pi * along
        foot = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
        nx, ny = -math.cos(angle), -math.sin(angle)
    point = [foot[0] + depth * nx, foot[1] + depth * ny]
    # Settle on the float nearest the edge (moving outward) that is still at least the depth inside.
    return _settle(point, (-nx, -ny), _inside_at_least(e, Fraction(r), target), f"edge {edge!r} of {_where(court)}")


def _record(court: Court, point: tuple[float, float]) -> dict:
    """The judged record of a disc centred at ``point``, with ``fallen`` (its centre off the surface)."""
    result = judge_batch(court, [point[0]], [point[1]])
    return dict(result.record(0), fallen=bool(result.fallen[0]))


def _check_hair(hair) -> None:
    if not (isinstance(hair, (int, float)) and hair >= _MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE):
        raise ValueError(
            f"hair must be at least {_MIN_HAIR_OVER_TOLERANCE * TOUCH_TOLERANCE:g} m (the judging tolerance is "
            f"{TOUCH_TOLERANCE:g} m), got {shown(hair)}"
        )


@dataclass(frozen=True)
class EdgeProbe:
    """Three discs at one threshold of an edge (``of``: the disc's circle or its centre): exactly at
    it, a hair inside and a hair outside. Records are ``judge``'s plus ``fallen``."""

    court: str
    end: str
    edge: str
    along: float
    of: str
    hair: float
    exact_point: tuple[float, float]
    inside_point: tuple[float, float]
    outside_point: tuple[float, float]
    exact: dict
    inside: dict
    outside: dict


def probe_edge(
    court: Court | str | os.PathLike,
    edge: str,
    along: float = 0.5,
    hair: float = 1e-9,
    of: str = "disc",
    end: str | None = None,
) -> EdgeProbe:
    """Judge discs exactly at an edge's threshold, ``hair`` metres inside and ``hair`` outside it.

    ``of="disc"``: the hanger threshold (flush; clear of the edge; overhanging it by ``hair``).
    ``of="centre"``: the fall threshold (centre on the edge; on the surface; past the edge).
    """
    court = _court(court, end)
    _check_hair(hair)
    points = {k: edge_point(court, edge, along, g, of) for k, g in (("exact", 0.0), ("inside", hair),
                                                                     ("outside", -hair))}
    records = {k: _record(court, p) for k, p in points.items()}
    return EdgeProbe(court=court.name, end=court.end, edge=edge, along=along, of=of, hair=hair,
                     exact_point=points["exact"], inside_point=points["inside"], outside_point=points["outside"],
                     **records)


_AUTO = object()


def _overhang_hanger(edge) -> str | None:
    """The hanger of a disc overhanging ``edge`` alone: an end edge's end hanger, else none."""
    return "end" if edge.overhang == "end" else None


def assert_edge_boundary(
    court: Court | str | os.PathLike,
    edge: str,
    *,
    along: float = 0.5,
    hair: float = 1e-9,
    over_hanger=_AUTO,
    over_value: int | None = None,
    flush_value: int | None = None,
    end: str | None = None,
) -> tuple[EdgeProbe, EdgeProbe]:
    """Assert both thresholds of an edge, as ``courts/README.md`` says they are judged.

    Hanger threshold: a disc flush with the edge, and one a hair clear of it, do not overhang it (no
    hanger; worth ``flush_value`` if given); one a hair over it does (``over_hanger``: by default
    ``"end"`` for an ``end`` edge and None for a ``side`` or plain edge, a side alone meaning nothing;
    worth ``over_value`` if given). Fall threshold: a disc whose centre is exactly on the edge, or a
    hair inside, is on the surface; one a hair beyond has fallen (dead, worth 0). Returns the two
    probes (hanger threshold, fall threshold).
    """
    court = _court(court, end)
    flush = probe_edge(court, edge, along, hair, "disc")
    fall = probe_edge(court, edge, along, hair, "centre")
    expected = _overhang_hanger(_edge(court, edge)) if over_hanger is _AUTO else over_hanger
    place = f"{_where(court)}, edge {edge!r} at along={shown(along)}"
    cases = (
        ("flush with the edge", flush.exact_point, flush.exact, dict(hanger=None, fallen=False), flush_value),
        (f"{hair:g} m clear of the edge", flush.inside_point, flush.inside, dict(hanger=None, fallen=False), None),
        (f"{hair:g} m over the edge", flush.outside_point, flush.outside, dict(hanger=expected, fallen=False),
         over_value),
        ("centred on the edge", fall.exact_point, fall.exact, dict(fallen=False), None),
        (f"centred {hair:g} m inside the edge", fall.inside_point, fall.inside, dict(fallen=False), None),
        (f"centred {hair:g} m beyond the edge", fall.outside_point, fall.outside, dict(fallen=True, dead=True,
                                                                                     value=0), None),
    )
    for label, (x, y), rec, wanted, value in cases:
        if value is not None:
            wanted = dict(wanted, value=value)
        wrong = [f"{k} {shown(rec[k])}, expected {shown(v)}" for k, v in wanted.items() if rec[k] != v]
        if wrong:
            raise AssertionError(f"{place}: disc {label} at ({shown(x)}, {shown(y)}) m: " + "; ".join(wrong)
                                 + f" [judged: {_describe(rec)}]")
    return flush, fall


def corner_point(
    court: Court | str | os.PathLike,
    first: str,
    second: str,
    gaps: tuple[float, float] = (0.0, 0.0),
    end: str | None = None,
) -> tuple[float, float]:
    """A disc centre at the corner where straight edges ``first`` and ``second`` meet, its circle
    exactly ``gaps[0]`` inside the first and ``gaps[1]`` inside the second (0: flush; negative:
    overhanging), as ``edge_point`` places it at one edge."""
    court = _court(court, end)
    edges = [_edge(court, first), _edge(court, second)]
    if any(e.kind != "segment" for e in edges):
        raise ValueError(f"corner_point: edges {first!r} and {second!r} of {_where(court)} must both be straight")
    r = court.disc_radius
    normals = [e.inward_normal() for e in edges]
    # The lines at depth r + gap inside each edge, n . p = n . from + depth, meet at the centre.
    rhs = [n[0] * e.geom[0] + n[1] * e.geom[1] + r + g for n, e, g in zip(normals, edges, gaps)]
    det = normals[0][0] * normals[1][1] - normals[0][1] * normals[1][0]
    if abs(det) < 1e-9:
        raise ValueError(f"corner_point: edges {first!r} and {second!r} of {_where(court)} are parallel")
    point = [(rhs[0] * normals[1][1] - normals[0][1] * rhs[1]) / det,
             (normals[0][0] * rhs[1] - rhs[0] * normals[1][0]) / det]
    tests = [_inside_at_least(e, Fraction(r), Fraction(r) + Fraction(g)) for e, g in zip(edges, gaps)]
    ks = [0 if abs(n[0]) >= abs(n[1]) else 1 for n in normals]
    if ks[0] == ks[1]:
        raise ValueError(f"corner_point: edges {first!r} and {second!r} of {_where(court)} face the same axis")
    for _ in range(4):  # each edge settles its own coordinate; the other's settling barely moves it
        before = list(point)
        for n, test in zip(normals, tests):
            point = list(_settle(point, (-n[0], -n[1]), test, f"the corner of {first!r} and {second!r}"))
        if point == before:
            break
    return float(point[0]), float(point[1])


@dataclass(frozen=True)
class CornerProbe:
    """Discs at the corner of two edges: flush with both, a hair over one or the other, over both."""

    court: str
    edges: tuple[str, str]
    hair: float
    flush: dict
    over_first: dict
    over_second: dict
    over_both: dict


def probe_corner(court: Court | str | os.PathLike, first: str, second: str, hair: float = 1e-9,
                 end: str | None = None) -> CornerProbe:
    """Judge discs at the corner of ``first`` and ``second``: flush with both, ``hair`` over the first
    only, over the second only, and over both (``corner_point``)."""
    court = _court(court, end)
    _check_hair(hair)
    records = {k: _record(court, corner_point(court, first, second, g)) for k, g in (
        ("flush", (0.0, 0.0)), ("over_first", (-hair, 0.0)), ("over_second", (0.0, -hair)),
        ("over_both", (-hair, -hair)))}
    return CornerProbe(court=court.name, edges=(first, second), hair=hair, **records)


def assert_corner_hangers(court: Court | str | os.PathLike, end_edge: str, side_edge: str, hair: float = 1e-9,
                          end: str | None = None) -> CornerProbe:
    """Assert the hangers at the corner of an ``end`` edge and a ``side`` edge: flush with both, no
    hanger; a hair over the end edge alone, an end hanger; over the side edge alone, none; over both,
    a corner hanger (each worth the court's hanger values)."""
    court = _court(court, end)
    probe = probe_corner(court, end_edge, side_edge, hair)
    expected = {"flush": (None, None), "over_first": ("end", court.hanger_end_value), "over_second": (None, None),
                "over_both": ("corner", court.hanger_corner_value)}
    for case, (hanger, value) in expected.items():
        rec = getattr(probe, case)
        wrong = [] if rec["hanger"] == hanger else [f"hanger {shown(rec['hanger'])}, expected {shown(hanger)}"]
        if value is not None and rec["value"] != value:
            wrong.append(f"value {shown(rec['value'])}, expected {shown(value)}")
        if wrong:
            raise AssertionError(f"{_where(court)}, corner of {end_edge!r} and {side_edge!r}, {case.replace('_', ' ')}: "
                                 + "; ".join(wrong) + f" [judged: {_describe(rec)}]")
    return probe
