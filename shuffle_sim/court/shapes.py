"""A court as the shapes of its drawing: one walk over the court for every picture of it.

``court_shapes`` turns a court into an ordered list of ``Shape`` records, in metres in the court's
frame: the gutters, alleys or ditch beyond its edges (named, with the hanger values of the edges a
disc may overhang for points), the surface, every end's zones with their value labels, the judged
end's dead areas, every line with its real width (the lines the rules ignore marked so), cushions,
pegs and holes. Each shape says what it is (``role``) and where it is, not how it looks: the
matplotlib drawing (``shuffle_sim.plot``) and the shot lab's Bokeh drawing (``shuffle_sim.lab``)
each give the roles their styles, so both pictures show the same court.

The list is in drawing order, back to front, as the drawings add them.

A surface that is not flat (``[surface]``: a grade, a crown, a height or friction map) also has a
``surface_relief``: its heights on a grid for shading, its grade as sparse arrows with a key
("1 in 1000") and its friction map, which both drawings show the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court.model import Court
from shuffle_sim.units import INCH

#: Gutter, alley and ditch strips are drawn this many disc diameters wide beyond a straight edge.
GUTTER_DISCS = 1.5


@dataclass(frozen=True)
class Shape:
    """One piece of a court's drawing, in metres.

    ``kind`` is ``polygon`` (``points``, closed), ``ring`` (``centre``, ``inner`` to ``outer``),
    ``circle`` (``centre``, radius ``outer``), ``segment`` (``points``: its two ends) or ``text``
    (``text`` at ``centre``, turned by ``rotation`` degrees). ``value`` is a zone's value (its tint)
    or a hole's.
    """

    role: str
    kind: str
    points: tuple[tuple[float, float], ...] = ()
    centre: tuple[float, float] = (0.0, 0.0)
    inner: float = 0.0
    outer: float = 0.0
    text: str = ""
    value: int = 0
    rotation: float = 0.0


def value_label(value: int) -> str:
    """A zone value as players say it: ``10``, or ``10 OFF`` for a negative one."""
    return f"{-value} OFF" if value < 0 else str(value)


def band_polygon(x0: float, y0: float, x1: float, y1: float, half_width: float) -> list[tuple[float, float]]:
    """The four corners of a straight band (a line's width, a cushion's thickness; flat ends)."""
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * half_width, (x1 - x0) / length * half_width
    return [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]


def outward(edge) -> tuple[float, float]:
    """Unit normal of a straight edge pointing off the surface (the surface is on the left)."""
    nx, ny = edge.inward_normal()
    return -nx, -ny


def gutter_width(court: Court) -> float:
    """How far beyond a straight edge the gutter, alley or ditch strip is drawn."""
    return GUTTER_DISCS * 2 * court.disc_radius


def rail_width(cushion) -> float:
    """Drawn width of a circular rail (its thickness, or half an inch for a rail given as a circle)."""
    return max(cushion.thickness, 0.5 * INCH)


def ditch_outer_radius(court: Court, radius: float, cx: float, cy: float) -> float:
    """Outer radius of the ditch beyond a round edge: the rail around it, else a gutter's width out."""
    rails = [
        c.geom[2]
        for c in court.cushions
        if c.kind == "circle" and math.hypot(c.geom[0] - cx, c.geom[1] - cy) < 1e-9 and c.geom[2] > radius
    ]
    return min(rails) if rails else radius + gutter_width(court)


def extent(court: Court) -> tuple[float, float, float, float]:
    """Bounds (xmin, ymin, xmax, ymax) of everything drawn: the surface, gutter strips, cushions, pegs."""
    x0, y0, x1, y1 = court.bounds
    g = gutter_width(court)
    for e in court.edges:
        if e.kind == "segment":
            ex0, ey0, ex1, ey1 = e.geom
            x0, y0 = min(x0, ex0 - g, ex1 - g), min(y0, ey0 - g, ey1 - g)
            x1, y1 = max(x1, ex0 + g, ex1 + g), max(y1, ey0 + g, ey1 + g)
        else:
            cx, cy, r, _ = e.geom
            outer = ditch_outer_radius(court, r, cx, cy)
            x0, y0, x1, y1 = min(x0, cx - outer), min(y0, cy - outer), max(x1, cx + outer), max(y1, cy + outer)
    for c in court.cushions:
        t = c.thickness / 2
        if c.kind == "segment":
            cx0, cy0, cx1, cy1 = c.geom
            x0, y0 = min(x0, cx0 - t, cx1 - t), min(y0, cy0 - t, cy1 - t)
            x1, y1 = max(x1, cx0 + t, cx1 + t), max(y1, cy0 + t, cy1 + t)
        else:
            cx, cy, r, _ = c.geom
            t = rail_width(c)
            x0, y0, x1, y1 = min(x0, cx - r - t), min(y0, cy - r - t), max(x1, cx + r + t), max(y1, cy + r + t)
    return x0, y0, x1, y1


def diagrams(court: Court, end: str | None) -> tuple[Court, list[Court]]:
    """The court at the judged end, and the court at every end (each end's scoring diagram)."""
    judged = court.for_end(end)
    others = [court.for_end(name) for name in court.ends] if len(court.ends) > 1 else [judged]
    return judged, others


def zone_label_points(zone, court: Court, every_end: list[Court]) -> list[tuple[float, float]]:
    """Where to print a zone's label: the middle of each sizeable piece of the zone left free by
    lines, cushions, pegs and holes (and, for a dead area, by the scoring zones of every end).

    Uses Shapely when it is installed (a test dependency); without it, the vertex mean or mid-radius.
    """
    if zone.kind == "annulus":
        cx, cy, inner, outer = zone.annulus
        rho = outer / 2 if inner == 0 else (inner + outer) / 2
        fallback = (cx + rho * math.cos(math.pi / 4), cy + rho * math.sin(math.pi / 4))
    else:
        fallback = (float(zone.polygon[:, 0].mean()), float(zone.polygon[:, 1].mean()))
    try:
        import shapely
        from shapely.geometry import LineString, Point, Polygon
        from shapely.ops import polylabel
    except ImportError:
        return [fallback]

    def shape(z):
        if z.kind == "polygon":
            return Polygon(z.polygon)
        cx, cy, inner, outer = z.annulus
        ring = Point(cx, cy).buffer(outer, quad_segs=64)
        return ring.difference(Point(cx, cy).buffer(inner, quad_segs=64)) if inner > 0 else ring

    r = court.disc_radius
    walls = [
        LineString([c.geom[:2], c.geom[2:]]).buffer(c.thickness / 2 + 0.5 * r, cap_style="flat")
        for c in court.cushions
        if c.kind == "segment"
    ]
    obstacles = list(walls)
    for diagram in every_end:
        for line in diagram.lines:
            if line.kind == "segment":
                band = LineString([line.geom[:2], line.geom[2:]]).buffer(line.width + 0.3 * r, cap_style="flat")
                obstacles.append(band)
            else:
                cx, cy, radius, _ = line.geom
                obstacles.append(Point(cx, cy).buffer(radius, quad_segs=64).exterior.buffer(line.width + 0.3 * r))
        if zone.dead:
            obstacles += [shape(z) for z in diagram.zones if not z.dead]
    obstacles += [Point(g.x, g.y).buffer(g.radius + 0.3 * r) for g in court.pegs]
    obstacles += [Point(h.x, h.y).buffer(h.radius + 0.3 * r) for h in court.holes]
    free = shape(zone).difference(shapely.union_all(obstacles)) if obstacles else shape(zone)
    pieces = sorted(getattr(free, "geoms", [free]), key=lambda g: g.area, reverse=True)
    pieces = [g for g in pieces if isinstance(g, Polygon) and g.area > 0]
    if not pieces:
        return [fallback]
    # One label, unless a cushion splits the zone into parts a player sees apart (ricochet's halves).
    halves = shape(zone).difference(shapely.union_all(walls)) if walls else shape(zone)
    if len(getattr(halves, "geoms", [halves])) > 1:
        keep = [g for g in pieces if g.area >= 0.3 * pieces[0].area][:8]
    else:
        keep = pieces[:1]
    size = math.sqrt(pieces[0].area)
    return [tuple(polylabel(g, tolerance=1e-3 * size).coords[0]) for g in keep]


def _gutter_shapes(court: Court) -> list[Shape]:
    """The strips beyond the edges (straight edges, their corners, a round edge's ditch) and labels."""
    shapes: list[Shape] = []
    gutter = gutter_width(court)
    for e in court.edges:
        hanger = e.overhang == "end" and court.hanger_end_value is not None
        label = f"hanger {court.hanger_end_value}" if hanger else e.name
        if e.kind == "segment":
            ex0, ey0, ex1, ey1 = e.geom
            ox, oy = outward(e)
            shapes.append(
                Shape(
                    "gutter",
                    "polygon",
                    (
                        (ex0, ey0),
                        (ex1, ey1),
                        (ex1 + ox * gutter, ey1 + oy * gutter),
                        (ex0 + ox * gutter, ey0 + oy * gutter),
                    ),
                )
            )
            upright = abs(ex1 - ex0) < abs(ey1 - ey0)
            centre = ((ex0 + ex1) / 2 + ox * gutter / 2, (ey0 + ey1) / 2 + oy * gutter / 2)
            shapes.append(
                Shape(
                    "hanger_label" if hanger else "edge_label",
                    "text",
                    centre=centre,
                    text=label,
                    rotation=90.0 if upright else 0.0,
                )
            )
        else:
            cx, cy, radius, _ = e.geom
            outer = ditch_outer_radius(court, radius, cx, cy)
            shapes.append(Shape("gutter", "ring", centre=(cx, cy), inner=radius, outer=outer))
            a = math.radians(-60)
            mid = (radius + outer) / 2
            shapes.append(
                Shape(
                    "ditch_label",
                    "text",
                    centre=(cx + mid * math.cos(a), cy + mid * math.sin(a)),
                    text=label,
                    rotation=30.0,
                )
            )
    segments = [e for e in court.edges if e.kind == "segment"]
    for e in segments:
        for f in segments:
            if e is not f and tuple(e.geom[2:]) == tuple(f.geom[:2]):
                cx, cy = e.geom[2:]
                (ox, oy), (px, py) = outward(e), outward(f)
                shapes.append(
                    Shape(
                        "gutter",
                        "polygon",
                        (
                            (cx, cy),
                            (cx + ox * gutter, cy + oy * gutter),
                            (cx + (ox + px) * gutter, cy + (oy + py) * gutter),
                            (cx + px * gutter, cy + py * gutter),
                        ),
                    )
                )
    if court.hanger_corner_value is not None:
        # A corner where an end edge meets a side edge: the corner hanger's value.
        for e in court.edges:
            if e.overhang != "end" or e.kind != "segment":
                continue
            for cx, cy in (e.geom[:2], e.geom[2:]):
                for s in court.edges:
                    if (
                        s.overhang == "side"
                        and s.kind == "segment"
                        and ((cx, cy) == tuple(s.geom[:2]) or (cx, cy) == tuple(s.geom[2:]))
                    ):
                        (ox, oy), (sx, sy) = outward(e), outward(s)
                        shapes.append(
                            Shape(
                                "corner_label",
                                "text",
                                centre=(cx + (ox + sx) * gutter / 2, cy + (oy + sy) * gutter / 2),
                                text=str(court.hanger_corner_value),
                            )
                        )
    return shapes


def _area(role: str, zone, value: int = 0) -> Shape:
    """A zone's area as a polygon or a ring."""
    if zone.kind == "polygon":
        return Shape(role, "polygon", tuple(map(tuple, zone.polygon.tolist())), value=value)
    cx, cy, inner, outer = zone.annulus
    return Shape(role, "ring", centre=(cx, cy), inner=inner, outer=outer, value=value)


def _zone_shapes(court: Court, end: str | None) -> list[Shape]:
    """Every end's scoring zones with their value labels, then the judged end's dead areas."""
    shapes: list[Shape] = []
    judged, every_end = diagrams(court, end)
    for diagram in every_end:
        for zone in diagram.zones:
            if zone.dead:
                continue
            shapes.append(_area("zone", zone, zone.value))
            for point in zone_label_points(zone, court, every_end):
                shapes.append(Shape("zone_label", "text", centre=point, text=value_label(zone.value), value=zone.value))
    for zone in judged.zones:
        if zone.dead:
            shapes.append(_area("dead_zone", zone))
            shapes.append(Shape("dead_label", "text", centre=zone_label_points(zone, court, every_end)[0], text="dead"))
    return shapes


def _line_shapes(court: Court, end: str | None) -> list[Shape]:
    """Every end's lines with their width, once each; the lines the rules ignore as ``ignored_line``."""
    shapes: list[Shape] = []
    drawn = set()
    for diagram in diagrams(court, end)[1]:
        for line in diagram.lines:
            key = (line.name, tuple(round(v, 9) for v in line.geom))
            if key in drawn:
                continue
            drawn.add(key)
            role = "line" if line.judged else "ignored_line"
            hw = line.width / 2
            if line.kind == "segment":
                shapes.append(Shape(role, "polygon", tuple(band_polygon(*line.geom, hw))))
            else:
                cx, cy, radius, _ = line.geom
                shapes.append(Shape(role, "ring", centre=(cx, cy), inner=radius - hw, outer=radius + hw))
    return shapes


def _body_shapes(court: Court) -> list[Shape]:
    """Cushions (bands, thin walls, round rails), pegs, and holes with their values."""
    shapes: list[Shape] = []
    for c in court.cushions:
        if c.kind == "segment":
            if c.thickness > 0:
                shapes.append(Shape("cushion", "polygon", tuple(band_polygon(*c.geom, c.thickness / 2))))
            else:
                shapes.append(Shape("thin_cushion", "segment", ((c.geom[0], c.geom[1]), (c.geom[2], c.geom[3]))))
        else:
            cx, cy, radius, _ = c.geom
            shapes.append(Shape("rail", "ring", centre=(cx, cy), inner=radius, outer=radius + rail_width(c)))
    shapes += [Shape("peg", "circle", centre=(p.x, p.y), outer=p.radius) for p in court.pegs]
    for h in court.holes:
        shapes.append(Shape("hole", "circle", centre=(h.x, h.y), outer=h.radius, value=h.value))
        shapes.append(Shape("hole_label", "text", centre=(h.x, h.y), text=str(h.value), value=h.value))
    return shapes


def court_shapes(court: Court, end: str | None = None) -> list[Shape]:
    """The drawing of ``court`` as shapes, back to front; ``end`` is the end whose dead areas show
    (default: the court's current end). Every end's scoring diagram is included."""
    if court.surface_kind == "circle":
        assert court.surface_circle is not None
        cx, cy, radius = court.surface_circle
        surface = Shape("surface", "circle", centre=(cx, cy), outer=radius)
    else:
        assert court.surface_polygon is not None
        surface = Shape("surface", "polygon", tuple(map(tuple, court.surface_polygon.tolist())))
    return [*_gutter_shapes(court), surface, *_zone_shapes(court, end), *_line_shapes(court, end), *_body_shapes(court)]


# --------------------------------------------------------------------------------------------------
# The surface's relief (courts that are not flat)

#: Grid points along the surface's longer side for the shading, and at least this many across.
RELIEF_LONG_SAMPLES = 160
RELIEF_SHORT_SAMPLES = 24
#: Grade arrows along the longer side, and at least this many across.
ARROWS_LONG = 14
ARROWS_SHORT = 5
#: The grade of the arrows' key is "1 in N" for the N of this list nearest above the largest grade.
KEY_GRADES_IN = (20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)


@dataclass(frozen=True)
class Relief:
    """What a drawing shows of a surface that is not flat, in metres in the court's frame.

    ``x`` (nx,), ``y`` (ny,): the shading grid over the surface's bounding box; ``height`` (ny, nx):
    the height above the surface's mean level (m; NaN off the surface) and ``height_span`` its
    largest size (0 on a surface without heights); ``friction`` (ny, nx): the multiplier of mu
    (None without a friction map). ``arrows`` (k, 4): x, y and the grade there (gx, gy), the in-plane
    gravity over g that a disc drifts along (-grad h), at sparse points on the surface where the
    grade is not zero; ``key_in``: N of the key "1 in N" (0 without arrows).
    """

    x: np.ndarray
    y: np.ndarray
    height: np.ndarray
    height_span: float
    friction: np.ndarray | None
    arrows: np.ndarray
    key_in: int


def _sample_counts(width: float, height: float, long: int, short: int) -> tuple[int, int]:
    """Grid counts (nx, ny) with about square cells, ``long`` along the longer side, at least ``short``."""
    if width >= height:
        return long, max(short, round(long * height / width))
    return max(short, round(long * width / height)), long


def surface_relief(court: Court) -> Relief | None:
    """The relief of ``court``'s surface for a drawing (``Relief``), or None for a flat court.

    Heights and grades come from ``SurfaceShape.heights`` (the small-slope model of
    ``surface_shape``): the shading shows h less its mean over the surface, the arrows -grad h.
    """
    shape = court.surface_shape
    if shape.flat:
        return None
    x0, y0, x1, y1 = court.bounds
    nx, ny = _sample_counts(x1 - x0, y1 - y0, RELIEF_LONG_SAMPLES, RELIEF_SHORT_SAMPLES)
    x, y = np.linspace(x0, x1, nx), np.linspace(y0, y1, ny)
    gx, gy = np.meshgrid(x, y)
    inside = court.on_surface_array(gx.ravel(), gy.ravel()).reshape(gx.shape)
    h, _, _ = shape.heights(gx, gy)
    has_heights = shape.slope != (0.0, 0.0) or shape.crown != 0.0 or shape.height_map is not None
    height = np.where(inside, h - (h[inside].mean() if inside.any() else 0.0), np.nan)
    span = float(np.nanmax(np.abs(height))) if has_heights and inside.any() else 0.0
    if not has_heights:
        height = np.full(gx.shape, np.nan)
    friction = shape.friction(gx, gy) if shape.friction_map is not None else None
    arrows = _grade_arrows(court, x0, y0, x1, y1) if has_heights else np.zeros((0, 4))
    largest = float(np.max(np.hypot(arrows[:, 2], arrows[:, 3]))) if len(arrows) else 0.0
    key_in = 0
    if largest > 0.0:
        key_in = next((n for n in KEY_GRADES_IN[::-1] if 1.0 / n >= 0.5 * largest), KEY_GRADES_IN[0])
    return Relief(x, y, height, span, friction, arrows, key_in)


def _grade_arrows(court: Court, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """(k, 4): x, y, gx, gy at the centres of a sparse grid's cells that lie on the surface (a disc's
    radius inside it), where the grade is not zero."""
    nx, ny = _sample_counts(x1 - x0, y1 - y0, ARROWS_LONG, ARROWS_SHORT)
    xs = x0 + (np.arange(nx) + 0.5) * (x1 - x0) / nx
    ys = y0 + (np.arange(ny) + 0.5) * (y1 - y0) / ny
    px, py = (a.ravel() for a in np.meshgrid(xs, ys))
    r = court.disc_radius
    keep = np.ones(px.shape, bool)
    for dx, dy in ((r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r)):
        keep &= court.on_surface_array(px + dx, py + dy)
    px, py = px[keep], py[keep]
    _, hx, hy = court.surface_shape.heights(px, py)
    grade = np.column_stack([px, py, -hx, -hy]).reshape(-1, 4)
    return grade[np.hypot(grade[:, 2], grade[:, 3]) > 0.0]


def diagram_points(court: Court, end: str) -> tuple[list[float], list[float]]:
    """The x and y that bound ``end``'s scoring diagram: the ends of its lines, the boxes of its
    arcs and of its scoring zones (dead zones left out). What a view of that end must show."""
    diagram = court.for_end(end)
    xs: list[float] = []
    ys: list[float] = []
    for line in diagram.lines:
        if line.kind == "segment":
            xs += [line.geom[0], line.geom[2]]
            ys += [line.geom[1], line.geom[3]]
        else:
            cx, cy, radius, _ = line.geom
            xs += [cx - radius, cx + radius]
            ys += [cy - radius, cy + radius]
    for zone in diagram.zones:
        if zone.dead:
            continue
        if zone.kind == "polygon":
            assert zone.polygon is not None
            xs += list(zone.polygon[:, 0])
            ys += list(zone.polygon[:, 1])
        else:
            assert zone.annulus is not None
            cx, cy, _, outer = zone.annulus
            xs += [cx - outer, cx + outer]
            ys += [cy - outer, cy + outer]
    return xs, ys
