"""Points at an edge's thresholds: flush, overhanging (hangers) and off (fallen); corners."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from fractions import Fraction

from shuffle_sim.court import Court, as_court
from shuffle_sim.messages import shown
from shuffle_sim.testing._common import check_hair, describe, judged_record, settle, where_of

_OF = ("disc", "centre")


def _edge(court: Court, name: str):
    try:
        return court.edge(name)
    except KeyError:
        names = ", ".join(repr(e.name) for e in court.edges)
        raise ValueError(f"{where_of(court)} has no edge {name!r} (edges: {names})") from None


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

    def within_circle(p):
        return (Fraction(p[0]) - cx) ** 2 + (Fraction(p[1]) - cy) ** 2 <= limit * limit

    return within_circle


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
    court = as_court(court, end)
    e = _edge(court, edge)
    if of not in _OF:
        raise ValueError(f"of must be 'disc' or 'centre', got {shown(of)}")
    if not (isinstance(along, (int, float)) and 0.0 <= along <= 1.0):
        raise ValueError(
            f"along must lie in [0, 1] (a fraction of edge {edge!r} of {where_of(court)}), got {shown(along)}"
        )
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
            raise ValueError(
                f"a point {shown(depth)} m inside circular edge {edge!r} of {where_of(court)} would pass its centre"
            )
        angle = 2.0 * math.pi * along
        foot = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
        nx, ny = -math.cos(angle), -math.sin(angle)
    point = [foot[0] + depth * nx, foot[1] + depth * ny]
    # Settle on the float nearest the edge (moving outward) that is still at least the depth inside.
    return settle(point, (-nx, -ny), _inside_at_least(e, Fraction(r), target), f"edge {edge!r} of {where_of(court)}")


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
    court = as_court(court, end)
    check_hair(hair)
    points = {
        k: edge_point(court, edge, along, g, of) for k, g in (("exact", 0.0), ("inside", hair), ("outside", -hair))
    }
    records = {k: judged_record(court, p) for k, p in points.items()}
    return EdgeProbe(
        court=court.name,
        end=court.end,
        edge=edge,
        along=along,
        of=of,
        hair=hair,
        exact_point=points["exact"],
        inside_point=points["inside"],
        outside_point=points["outside"],
        **records,
    )


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
    court = as_court(court, end)
    flush = probe_edge(court, edge, along, hair, "disc")
    fall = probe_edge(court, edge, along, hair, "centre")
    expected = _overhang_hanger(_edge(court, edge)) if over_hanger is _AUTO else over_hanger
    place = f"{where_of(court)}, edge {edge!r} at along={shown(along)}"
    cases = (
        ("flush with the edge", flush.exact_point, flush.exact, dict(hanger=None, fallen=False), flush_value),
        (f"{hair:g} m clear of the edge", flush.inside_point, flush.inside, dict(hanger=None, fallen=False), None),
        (
            f"{hair:g} m over the edge",
            flush.outside_point,
            flush.outside,
            dict(hanger=expected, fallen=False),
            over_value,
        ),
        ("centred on the edge", fall.exact_point, fall.exact, dict(fallen=False), None),
        (f"centred {hair:g} m inside the edge", fall.inside_point, fall.inside, dict(fallen=False), None),
        (
            f"centred {hair:g} m beyond the edge",
            fall.outside_point,
            fall.outside,
            dict(fallen=True, dead=True, value=0),
            None,
        ),
    )
    for label, (x, y), rec, wanted, value in cases:
        if value is not None:
            wanted = dict(wanted, value=value)
        wrong = [f"{k} {shown(rec[k])}, expected {shown(v)}" for k, v in wanted.items() if rec[k] != v]
        if wrong:
            raise AssertionError(
                f"{place}: disc {label} at ({shown(x)}, {shown(y)}) m: "
                + "; ".join(wrong)
                + f" [judged: {describe(rec)}]"
            )
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
    court = as_court(court, end)
    edges = [_edge(court, first), _edge(court, second)]
    if any(e.kind != "segment" for e in edges):
        raise ValueError(f"corner_point: edges {first!r} and {second!r} of {where_of(court)} must both be straight")
    r = court.disc_radius
    normals = [e.inward_normal() for e in edges]
    # The lines at depth r + gap inside each edge, n . p = n . from + depth, meet at the centre.
    rhs = [n[0] * e.geom[0] + n[1] * e.geom[1] + r + g for n, e, g in zip(normals, edges, gaps)]
    det = normals[0][0] * normals[1][1] - normals[0][1] * normals[1][0]
    if abs(det) < 1e-9:
        raise ValueError(f"corner_point: edges {first!r} and {second!r} of {where_of(court)} are parallel")
    point = [
        (rhs[0] * normals[1][1] - normals[0][1] * rhs[1]) / det,
        (normals[0][0] * rhs[1] - rhs[0] * normals[1][0]) / det,
    ]
    tests = [_inside_at_least(e, Fraction(r), Fraction(r) + Fraction(g)) for e, g in zip(edges, gaps)]
    ks = [0 if abs(n[0]) >= abs(n[1]) else 1 for n in normals]
    if ks[0] == ks[1]:
        raise ValueError(f"corner_point: edges {first!r} and {second!r} of {where_of(court)} face the same axis")
    for _ in range(4):  # each edge settles its own coordinate; the other's settling barely moves it
        before = list(point)
        for n, test in zip(normals, tests):
            point = list(settle(point, (-n[0], -n[1]), test, f"the corner of {first!r} and {second!r}"))
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


def probe_corner(
    court: Court | str | os.PathLike, first: str, second: str, hair: float = 1e-9, end: str | None = None
) -> CornerProbe:
    """Judge discs at the corner of ``first`` and ``second``: flush with both, ``hair`` over the first
    only, over the second only, and over both (``corner_point``)."""
    court = as_court(court, end)
    check_hair(hair)
    records = {
        k: judged_record(court, corner_point(court, first, second, g))
        for k, g in (
            ("flush", (0.0, 0.0)),
            ("over_first", (-hair, 0.0)),
            ("over_second", (0.0, -hair)),
            ("over_both", (-hair, -hair)),
        )
    }
    return CornerProbe(court=court.name, edges=(first, second), hair=hair, **records)


def assert_corner_hangers(
    court: Court | str | os.PathLike, end_edge: str, side_edge: str, hair: float = 1e-9, end: str | None = None
) -> CornerProbe:
    """Assert the hangers at the corner of an ``end`` edge and a ``side`` edge: flush with both, no
    hanger; a hair over the end edge alone, an end hanger; over the side edge alone, none; over both,
    a corner hanger (each worth the court's hanger values)."""
    court = as_court(court, end)
    probe = probe_corner(court, end_edge, side_edge, hair)
    expected = {
        "flush": (None, None),
        "over_first": ("end", court.hanger_end_value),
        "over_second": (None, None),
        "over_both": ("corner", court.hanger_corner_value),
    }
    for case, (hanger, value) in expected.items():
        rec = getattr(probe, case)
        wrong = [] if rec["hanger"] == hanger else [f"hanger {shown(rec['hanger'])}, expected {shown(hanger)}"]
        if value is not None and rec["value"] != value:
            wrong.append(f"value {shown(rec['value'])}, expected {shown(value)}")
        if wrong:
            raise AssertionError(
                f"{where_of(court)}, corner of {end_edge!r} and {side_edge!r}, {case.replace('_', ' ')}: "
                + "; ".join(wrong)
                + f" [judged: {describe(rec)}]"
            )
    return probe
