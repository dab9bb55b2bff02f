"""Drawings with matplotlib: courts to scale, discs, trajectories and animations.

Everything is drawn in the court's own frame, in metres, with equal aspect: the surface, the
gutters, alleys or ditch beyond its edges, every line with its real width (lines the rules ignore,
such as the deck's separation triangle, dashed), the zones tinted and labelled with their values,
dead areas hatched (for the end being judged), hanger values beside the edges that give them,
cushions, pegs and holes. Courts with two scoring ends (deck) show the diagram at both ends.

No function here imports ``pyplot``: figures are made with ``matplotlib.figure.Figure`` on an Agg
canvas and written to files, so nothing depends on (or changes) the interactive backend.
``draw_court`` and ``draw_discs`` draw on an ``Axes`` the caller owns.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.games import games
from shuffle_sim.units import FOOT, INCH

#: Disc colours by team name (case-insensitive).
TEAM_COLOURS = {
    "yellow": "#f2c200",
    "black": "#262626",
    "red": "#c62828",
    "blue": "#1565c0",
    "light": "#f3dfb3",
    "dark": "#4e342e",
    "white": "#f5f5f5",
    "green": "#2e7d32",
}
#: Colours after the game's two (a third team, or a court of game "custom").
FALLBACK_COLOURS = ("#00897b", "#8e24aa", "#f4511e", "#3949ab", "#7cb342", "#6d4c41", "#d81b60", "#546e7a")

SURFACE_COLOUR = "#e0e0e0"  # a court of game "custom"
GUTTER_COLOUR = "#5f5f5f"
LINE_COLOUR = "#1b1b1b"
CUSHION_COLOUR = "#6d4c2f"
PEG_COLOUR = "#212121"
DEAD_HATCH_COLOUR = "#7a7a7a"
#: Gutter, alley and ditch strips are drawn this many disc diameters wide beyond a straight edge.
GUTTER_DISCS = 1.5
DEFAULT_DPI = 150
#: An animation has at most this many frames (longer shots are sampled more sparsely in time).
MAX_FRAMES = 400


# ---- colours --------------------------------------------------------------------------------------

def surface_colour_of(court: Court) -> str:
    """The playing surface's colour: the game's (the registry's ``surface_colour``), else a neutral grey."""
    entry = games().get(court.game)
    return entry.surface_colour if entry is not None else SURFACE_COLOUR


def team_colours(court: Court, teams: Sequence[str]) -> list[str]:
    """One colour per disc: a named colour team keeps its colour, other teams get the game's pair in
    order of first appearance, then ``FALLBACK_COLOURS``."""
    named = {t for t in teams if str(t).lower() in TEAM_COLOURS}
    sides = games()[court.game].sides if court.game in games() else ()
    free = [c for c in sides if c not in {str(t).lower() for t in named}]
    palette = [TEAM_COLOURS[c] for c in free] + list(FALLBACK_COLOURS)
    assigned: dict[str, str] = {}
    out = []
    for team in teams:
        key = str(team)
        if key.lower() in TEAM_COLOURS:
            out.append(TEAM_COLOURS[key.lower()])
            continue
        if key not in assigned:
            assigned[key] = palette[len(assigned) % len(palette)]
        out.append(assigned[key])
    return out


def _text_colour(face: str) -> str:
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(face)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def _zone_colours(court: Court) -> dict[int, object]:
    """A light tint per zone value: blues to greens by rank for positive values, pink for negative
    ones (10-off), grey for 0; distinct for every value the court has."""
    from matplotlib import colormaps

    positive = sorted({z.value for z in court.zones if z.value > 0})
    tints = {v: colormaps["YlGnBu"](0.62 - 0.42 * k / max(len(positive) - 1, 1)) for k, v in enumerate(positive[::-1])}
    tints.update({v: "#f4b6b6" for v in {z.value for z in court.zones if z.value < 0}})
    tints[0] = "#ececec"
    return tints


def _value_label(value: int) -> str:
    return f"{-value} OFF" if value < 0 else str(value)


# ---- geometry helpers for drawing -----------------------------------------------------------------

def _band_polygon(x0, y0, x1, y1, half_width):
    """The four corners of a straight line's band (flat ends)."""
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * half_width, (x1 - x0) / length * half_width
    return [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]


def _outward(edge) -> tuple[float, float]:
    """Unit normal of a straight edge pointing off the surface (the surface is on the left)."""
    nx, ny = edge.inward_normal()
    return -nx, -ny


def _gutter_width(court: Court) -> float:
    return GUTTER_DISCS * 2 * court.disc_radius


def _ditch_outer_radius(court: Court, radius: float, cx: float, cy: float) -> float:
    rails = [c.geom[2] for c in court.cushions
             if c.kind == "circle" and math.hypot(c.geom[0] - cx, c.geom[1] - cy) < 1e-9 and c.geom[2] > radius]
    return min(rails) if rails else radius + _gutter_width(court)


def _extent(court: Court) -> tuple[float, float, float, float]:
    """Bounds of everything drawn: the surface, gutter strips, cushions and pegs."""
    x0, y0, x1, y1 = court.bounds
    g = _gutter_width(court)
    for e in court.edges:
        if e.kind == "segment":
            ex0, ey0, ex1, ey1 = e.geom
            x0, y0 = min(x0, ex0 - g, ex1 - g), min(y0, ey0 - g, ey1 - g)
            x1, y1 = max(x1, ex0 + g, ex1 + g), max(y1, ey0 + g, ey1 + g)
        else:
            cx, cy, r, _ = e.geom
            outer = _ditch_outer_radius(court, r, cx, cy)
            x0, y0, x1, y1 = min(x0, cx - outer), min(y0, cy - outer), max(x1, cx + outer), max(y1, cy + outer)
    for c in court.cushions:
        t = c.thickness / 2
        if c.kind == "segment":
            cx0, cy0, cx1, cy1 = c.geom
            x0, y0 = min(x0, cx0 - t, cx1 - t), min(y0, cy0 - t, cy1 - t)
            x1, y1 = max(x1, cx0 + t, cx1 + t), max(y1, cy0 + t, cy1 + t)
        else:
            cx, cy, r, _ = c.geom
            t = _rail_width(c)
            x0, y0, x1, y1 = min(x0, cx - r - t), min(y0, cy - r - t), max(x1, cx + r + t), max(y1, cy + r + t)
    return x0, y0, x1, y1


def _rail_width(cushion) -> float:
    """Drawn width of a circular rail (its thickness, or half an inch for a rail given as a circle)."""
    return max(cushion.thickness, 0.5 * INCH)


def _zone_label_points(zone, court: Court, diagrams: list[Court]) -> list[tuple[float, float]]:
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
    walls = [LineString([c.geom[:2], c.geom[2:]]).buffer(c.thickness / 2 + 0.5 * r, cap_style="flat")
             for c in court.cushions if c.kind == "segment"]
    obstacles = list(walls)
    for diagram in diagrams:
        for line in diagram.lines:
            if line.kind == "segment":
                obstacles.append(LineString([line.geom[:2], line.geom[2:]]).buffer(line.width + 0.3 * r, cap_style="flat"))
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


def _diagrams(court: Court, end: str | None) -> tuple[Court, list[Court]]:
    """The court at the judged end, and the court at every end (each end's diagram)."""
    judged = court.for_end(end)
    others = [court.for_end(name) for name in court.ends] if len(court.ends) > 1 else [judged]
    return judged, others


# ---- drawing on an Axes ---------------------------------------------------------------------------

def draw_court(ax, court: Court, end: str | None = None) -> None:
    """Draw ``court`` to scale on ``ax`` (metres, equal aspect; limits set to the whole court).

    ``end`` picks the end whose dead areas are hatched (default: the court's current end); the
    scoring diagrams of every end are drawn.
    """
    from matplotlib.patches import Circle, Polygon, Wedge

    judged, diagrams = _diagrams(court, end)
    r = court.disc_radius
    gutter = _gutter_width(court)
    surface_colour = surface_colour_of(court)

    # Gutters, alleys and the ditch: strips beyond each edge where a disc falls, named, with the
    # hanger value of an edge a disc may overhang for points.
    for e in court.edges:
        label = e.name
        if e.overhang == "end" and court.hanger_end_value is not None:
            label = f"hanger {court.hanger_end_value}"
        if e.kind == "segment":
            ex0, ey0, ex1, ey1 = e.geom
            ox, oy = _outward(e)
            ax.add_patch(Polygon([(ex0, ey0), (ex1, ey1), (ex1 + ox * gutter, ey1 + oy * gutter),
                                  (ex0 + ox * gutter, ey0 + oy * gutter)],
                                 closed=True, facecolor=GUTTER_COLOUR, edgecolor="none", zorder=0))
            upright = abs(ex1 - ex0) < abs(ey1 - ey0)
            ax.text((ex0 + ex1) / 2 + ox * gutter / 2, (ey0 + ey1) / 2 + oy * gutter / 2, label,
                    color="#ffe082" if label != e.name else "white", fontsize=6, ha="center", va="center",
                    rotation=90 if upright else 0, zorder=0.5, clip_on=True)
        else:
            cx, cy, radius, _ = e.geom
            outer = _ditch_outer_radius(court, radius, cx, cy)
            ax.add_patch(Wedge((cx, cy), outer, 0, 360, width=outer - radius, facecolor=GUTTER_COLOUR,
                               edgecolor="none", zorder=0))
            a = math.radians(-60)
            ax.text(cx + (radius + outer) / 2 * math.cos(a), cy + (radius + outer) / 2 * math.sin(a), label,
                    color="white", fontsize=7, ha="center", va="center", rotation=30, zorder=0.5)
    # Where two straight edges meet, the corner of their strips.
    segments = [e for e in court.edges if e.kind == "segment"]
    for e in segments:
        for f in segments:
            if e is not f and tuple(e.geom[2:]) == tuple(f.geom[:2]):
                cx, cy = e.geom[2:]
                (ox, oy), (px, py) = _outward(e), _outward(f)
                ax.add_patch(Polygon([(cx, cy), (cx + ox * gutter, cy + oy * gutter),
                                      (cx + (ox + px) * gutter, cy + (oy + py) * gutter),
                                      (cx + px * gutter, cy + py * gutter)],
                                     closed=True, facecolor=GUTTER_COLOUR, edgecolor="none", zorder=0))
    # A corner where an end edge meets a side edge: the corner hanger's value.
    if court.hanger_corner_value is not None:
        for e in court.edges:
            if e.overhang != "end" or e.kind != "segment":
                continue
            for cx, cy in (e.geom[:2], e.geom[2:]):
                for s in court.edges:
                    if s.overhang == "side" and s.kind == "segment" and (
                            (cx, cy) == tuple(s.geom[:2]) or (cx, cy) == tuple(s.geom[2:])):
                        (ox, oy), (sx, sy) = _outward(e), _outward(s)
                        ax.text(cx + (ox + sx) * gutter / 2, cy + (oy + sy) * gutter / 2,
                                str(court.hanger_corner_value), color="#ffab91", fontsize=7, fontweight="bold",
                                ha="center", va="center", zorder=0.5, clip_on=True)

    # The playing surface.
    if court.surface_kind == "circle":
        cx, cy, radius = court.surface_circle
        ax.add_patch(Circle((cx, cy), radius, facecolor=surface_colour, edgecolor="#333333", linewidth=0.8, zorder=0.6))
    else:
        ax.add_patch(Polygon(court.surface_polygon, closed=True, facecolor=surface_colour, edgecolor="#333333",
                             linewidth=0.8, zorder=0.6))

    # Zones: tints with their values for every end's diagram; dead areas of the judged end hatched.
    tints = _zone_colours(court)
    for diagram in diagrams:
        for zone in diagram.zones:
            if zone.dead:
                continue
            colour = tints[zone.value]
            if zone.kind == "polygon":
                ax.add_patch(Polygon(zone.polygon, closed=True, facecolor=colour, edgecolor="none", zorder=1))
            else:
                cx, cy, inner, outer = zone.annulus
                ax.add_patch(Wedge((cx, cy), outer, 0, 360, width=outer - inner, facecolor=colour, edgecolor="none",
                                   zorder=1))
            for lx, ly in _zone_label_points(zone, court, diagrams):
                ax.text(lx, ly, _value_label(zone.value), ha="center", va="center", fontsize=8, fontweight="bold",
                        color="#102a43", zorder=3.5, clip_on=True)
    for zone in judged.zones:
        if not zone.dead:
            continue
        style = dict(facecolor="none", edgecolor=DEAD_HATCH_COLOUR, hatch="///", linewidth=0, alpha=0.35, zorder=1.1)
        if zone.kind == "polygon":
            ax.add_patch(Polygon(zone.polygon, closed=True, **style))
        else:
            cx, cy, inner, outer = zone.annulus
            ax.add_patch(Wedge((cx, cy), outer, 0, 360, width=outer - inner, **style))
        lx, ly = _zone_label_points(zone, court, diagrams)[0]
        ax.text(lx, ly, "dead", ha="center", va="center", fontsize=6, style="italic", color="#444444", zorder=3.4,
                clip_on=True)

    # Lines with their width; lines the rules ignore dashed.
    drawn = set()
    for diagram in diagrams:
        for line in diagram.lines:
            key = (line.name, tuple(round(v, 9) for v in line.geom))
            if key in drawn:
                continue
            drawn.add(key)
            hw = line.width / 2
            style = dict(facecolor=LINE_COLOUR, edgecolor="none", zorder=2) if line.judged else \
                dict(facecolor="none", edgecolor=LINE_COLOUR, linestyle="--", linewidth=0.6, zorder=2)
            if line.kind == "segment":
                ax.add_patch(Polygon(_band_polygon(*line.geom, hw), closed=True, **style))
            else:
                cx, cy, radius, _ = line.geom
                ax.add_patch(Wedge((cx, cy), radius + hw, 0, 360, width=2 * hw, **style))

    # Cushions, pegs and holes.
    for c in court.cushions:
        if c.kind == "segment":
            if c.thickness > 0:
                ax.add_patch(Polygon(_band_polygon(*c.geom, c.thickness / 2), closed=True, facecolor=CUSHION_COLOUR,
                                     edgecolor="none", zorder=2.5))
            else:
                ax.plot([c.geom[0], c.geom[2]], [c.geom[1], c.geom[3]], color=CUSHION_COLOUR, linewidth=3,
                        solid_capstyle="butt", zorder=2.5)
        else:
            cx, cy, radius, _ = c.geom
            width = _rail_width(c)
            ax.add_patch(Wedge((cx, cy), radius + width, 0, 360, width=width, facecolor=CUSHION_COLOUR,
                               edgecolor="none", zorder=2.5))
    for peg in court.pegs:
        ax.add_patch(Circle((peg.x, peg.y), peg.radius, facecolor=PEG_COLOUR, edgecolor="none", zorder=3))
    for hole in court.holes:
        ax.add_patch(Circle((hole.x, hole.y), hole.radius, facecolor="black", edgecolor="none", zorder=3))
        ax.text(hole.x, hole.y, str(hole.value), ha="center", va="center", color="white", fontsize=7,
                fontweight="bold", zorder=3.2)

    ex0, ey0, ex1, ey1 = _extent(court)
    pad = 0.5 * r
    ax.set_xlim(ex0 - pad, ex1 + pad)
    ax.set_ylim(ey0 - pad, ey1 + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def draw_discs(ax, court: Court, xs, ys, teams, values=None) -> None:
    """Draw discs centred at (xs, ys) metres, coloured by team, labelled with ``values`` if given.

    ``values`` may be numbers or text (one per disc).
    """
    from matplotlib.patches import Circle

    xs = np.asarray(xs, dtype=float).reshape(-1)
    ys = np.asarray(ys, dtype=float).reshape(-1)
    teams = list(teams)
    if not (len(xs) == len(ys) == len(teams)):
        raise ValueError(f"xs, ys and teams must have the same length (got {len(xs)}, {len(ys)}, {len(teams)})")
    if values is not None and len(values) != len(xs):
        raise ValueError(f"values must have one entry per disc (got {len(values)} for {len(xs)} discs)")
    colours = team_colours(court, teams)
    r = court.disc_radius
    for k, (x, y, colour) in enumerate(zip(xs, ys, colours)):
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        ax.add_patch(Circle((x, y), r, facecolor=colour, edgecolor="black", linewidth=0.8, zorder=5, alpha=0.95))
        if values is not None:
            v = values[k]
            label = str(int(v)) if isinstance(v, (int, np.integer)) else str(v)
            ax.text(x, y, label, ha="center", va="center", fontsize=7, fontweight="bold",
                    color=_text_colour(colour), zorder=6, clip_on=True)


# ---- whole figures --------------------------------------------------------------------------------

def _figure(width_m: float, height_m: float, longest_in: float = 11.0, min_width_in: float = 3.6):
    """A figure sized for a drawing ``width_m`` x ``height_m`` (plus room for the axes)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if max(width_m, height_m) < 2 * min(width_m, height_m):
        longest_in = min(longest_in, 7.5)  # a squarish drawing needs less room to be legible
    scale = longest_in / max(width_m, height_m)
    width_in = max(min_width_in, width_m * scale + 1.8)
    height_in = max(3.0, height_m * scale + 1.4)
    fig = Figure(figsize=(width_in, height_in), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _finish_axes(ax, court: Court, title: str) -> None:
    """Few enough ticks for a narrow drawing, feet or inches on the second axes, a wrapped title."""
    import textwrap

    from matplotlib.ticker import MaxNLocator

    width_in, height_in = ax.figure.get_size_inches()
    ax.xaxis.set_major_locator(MaxNLocator(max(2, min(8, int(1.6 * (width_in - 1.8))))))
    ax.yaxis.set_major_locator(MaxNLocator(max(2, min(12, int(1.2 * (height_in - 1.4))))))
    _secondary_axes(ax, court)
    ax.set_title("\n".join(textwrap.wrap(title, max(24, int(width_in * 11)))), fontsize=9)


def _secondary_axes(ax, court: Court) -> None:
    """Feet (long courts) or inches (tables and boards) on the top and right axes."""
    x0, y0, x1, y1 = court.bounds
    unit, name = (FOOT, "ft") if max(x1 - x0, y1 - y0) > 2.0 else (INCH, "in")
    top = ax.secondary_xaxis("top", functions=(lambda m: m / unit, lambda u: u * unit))
    top.set_xlabel(f"x ({name})")
    right = ax.secondary_yaxis("right", functions=(lambda m: m / unit, lambda u: u * unit))
    right.set_ylabel(f"y ({name})")


def zoom_box(court: Court, zoom) -> tuple[float, float, float, float]:
    """The region (xmin, ymin, xmax, ymax) in metres that ``zoom`` names.

    ``zoom`` is an end's name (``foot``, ``head``; ``default`` for a court with one end): that end's
    scoring diagram, from its lines and scoring zones, stretched to the surface's edge when the edge
    is near (the deck's foot view runs from the far dead line to the backstop); or four numbers.
    """
    if not isinstance(zoom, str):
        box = tuple(float(v) for v in zoom)
        if len(box) != 4 or not (box[0] < box[2] and box[1] < box[3]):
            raise ValueError(f"zoom must be an end's name or (xmin, ymin, xmax, ymax) with min < max, got {zoom!r}")
        return box
    if zoom not in court.ends:
        raise ValueError(f"zoom: court {court.name!r} has no end {zoom!r} (ends: {', '.join(court.ends)})")
    diagram = court.for_end(zoom)
    xs, ys = [], []
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
            xs += list(zone.polygon[:, 0])
            ys += list(zone.polygon[:, 1])
        else:
            cx, cy, _, outer = zone.annulus
            xs += [cx - outer, cx + outer]
            ys += [cy - outer, cy + outer]
    if not xs:
        return _extent(court)
    bx0, by0, bx1, by1 = min(xs), min(ys), max(xs), max(ys)
    sx0, sy0, sx1, sy1 = court.bounds
    half_w, half_h = 0.5 * (bx1 - bx0), 0.5 * (by1 - by0)
    bx0 = sx0 if bx0 - sx0 < half_w else bx0
    bx1 = sx1 if sx1 - bx1 < half_w else bx1
    by0 = sy0 if by0 - sy0 < half_h else by0
    by1 = sy1 if sy1 - by1 < half_h else by1
    pad = 2 * court.disc_radius
    ex0, ey0, ex1, ey1 = _extent(court)
    return max(ex0, bx0 - pad), max(ey0, by0 - pad), min(ex1, bx1 + pad), min(ey1, by1 + pad)


def _parse_discs(discs) -> tuple[np.ndarray, np.ndarray, list[str]]:
    xs, ys, teams = [], [], []
    for k, disc in enumerate(discs):
        if len(disc) not in (2, 3):
            raise ValueError(f"discs[{k}] must be (x, y) or (x, y, team), got {disc!r}")
        x, y = float(disc[0]), float(disc[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"discs[{k}] must have finite coordinates in metres, got {disc!r}")
        xs.append(x)
        ys.append(y)
        teams.append(str(disc[2]) if len(disc) == 3 else "A")
    return np.array(xs), np.array(ys), teams


def _judged_labels(court: Court, xs, ys) -> list:
    # Imported here: drawing a court alone needs no judge (nor numba).
    from shuffle_sim.judge import judge_batch

    result = judge_batch(court, xs, ys)
    labels = []
    for k in range(len(result)):
        if result.fallen[k]:
            labels.append("off")
        elif result.dead[k]:
            labels.append("dead")
        else:
            labels.append(int(result.value[k]))
    return labels


def plot_court(court: Court, path: str | os.PathLike, discs=None, end: str | None = None, zoom=None,
               dpi: int = DEFAULT_DPI) -> None:
    """Draw the court to scale into an image file (PNG, SVG, PDF: by ``path``'s suffix).

    ``discs``: (x, y) or (x, y, team) in metres, drawn by team colour and labelled with their judged
    value at ``end`` ("dead", "off" for dead and fallen discs). ``zoom``: an end's name or a box
    (see ``zoom_box``); default the whole court.
    """
    judged = court.for_end(end)
    box = _extent(court) if zoom is None else zoom_box(court, zoom)
    fig = _figure(box[2] - box[0], box[3] - box[1])
    ax = fig.add_subplot()
    draw_court(ax, court, end=judged.end)
    if discs:
        xs, ys, teams = _parse_discs(discs)
        draw_discs(ax, court, xs, ys, teams, _judged_labels(judged, xs, ys))
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    where = f", judged at the {judged.end} end" if len(court.ends) > 1 else ""
    zoomed = f" (zoom: {zoom})" if isinstance(zoom, str) else ""
    _finish_axes(ax, court, f"{court.title}{where}{zoomed}")
    fig.savefig(os.fspath(path), dpi=dpi)


def _check_trajectories(times, positions, teams) -> tuple[np.ndarray, np.ndarray, list[str]]:
    times = np.asarray(times, dtype=float).reshape(-1)
    positions = np.asarray(positions, dtype=float)
    teams = [str(t) for t in teams]
    if positions.ndim != 3 or positions.shape[2] != 2:
        raise ValueError(f"positions must have shape (T, N, 2), got {positions.shape}")
    if positions.shape[0] != times.size:
        raise ValueError(f"positions has {positions.shape[0]} time samples but times has {times.size}")
    if positions.shape[1] != len(teams):
        raise ValueError(f"positions has {positions.shape[1]} discs but teams has {len(teams)}")
    if times.size == 0:
        raise ValueError("times must hold at least one sample")
    if not np.all(np.isfinite(times)) or np.any(np.diff(times) < 0):
        raise ValueError("times must be finite and non-decreasing")
    return times, positions, teams


def _last_finite(track: np.ndarray) -> tuple[int, bool]:
    """Index of the last finite sample of one disc's (T, 2) track, and whether it is the final one."""
    finite = np.flatnonzero(np.all(np.isfinite(track), axis=1))
    if finite.size == 0:
        return -1, False
    return int(finite[-1]), bool(finite[-1] == len(track) - 1)


def plot_trajectories(court: Court, times, positions, teams, path: str | os.PathLike, end: str | None = None,
                      zoom=None, dpi: int = DEFAULT_DPI) -> None:
    """Draw discs' paths on the court and the discs where they came to rest, labelled with their value.

    ``positions`` is (T, N, 2) in metres at ``times`` (T,), NaN once a disc has fallen or dropped
    in a hole: its path ends with a cross where it was last seen.
    """
    times, positions, teams = _check_trajectories(times, positions, teams)
    judged = court.for_end(end)
    box = _extent(court) if zoom is None else zoom_box(court, zoom)
    fig = _figure(box[2] - box[0], box[3] - box[1])
    ax = fig.add_subplot()
    draw_court(ax, court, end=judged.end)
    colours = team_colours(court, teams)
    resting = []
    for k, colour in enumerate(colours):
        track = positions[:, k, :]
        last, stayed = _last_finite(track)
        if last < 0:
            continue
        ax.plot(track[: last + 1, 0], track[: last + 1, 1], color=colour, linewidth=1.2, alpha=0.9, zorder=4,
                path_effects=_outline())
        ax.plot(track[0, 0], track[0, 1], marker="o", markersize=3, color=colour, markeredgecolor="black",
                markeredgewidth=0.4, zorder=4.5)
        if stayed:
            resting.append(k)
        else:
            ax.plot(track[last, 0], track[last, 1], marker="x", markersize=7, color=colour, markeredgewidth=2,
                    zorder=5, path_effects=_outline())
    if resting:
        xs, ys = positions[-1, resting, 0], positions[-1, resting, 1]
        draw_discs(ax, court, xs, ys, [teams[k] for k in resting], _judged_labels(judged, xs, ys))
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    _finish_axes(ax, court, f"{court.title}: {positions.shape[1]} discs, {times[-1] - times[0]:.2f} s")
    fig.savefig(os.fspath(path), dpi=dpi)


def _outline():
    from matplotlib import patheffects

    return [patheffects.withStroke(linewidth=2.2, foreground="black", alpha=0.35)]


def animate_trajectories(court: Court, times, positions, teams, path: str | os.PathLike, fps: int = 20,
                         end: str | None = None, zoom=None, dpi: int = 72) -> None:
    """Write an animated GIF of the discs moving in real time (``fps`` frames per second).

    Positions between samples are interpolated linearly; a disc disappears once its position is NaN
    (fallen or holed). Long shots are sampled more sparsely so that there are at most ``MAX_FRAMES``.
    """
    from matplotlib.animation import FuncAnimation, PillowWriter
    from matplotlib.patches import Circle

    times, positions, teams = _check_trajectories(times, positions, teams)
    if not (isinstance(fps, (int, np.integer)) and fps > 0):
        raise ValueError(f"fps must be a positive integer, got {fps!r}")
    judged = court.for_end(end)
    duration = float(times[-1] - times[0])
    n_frames = int(min(MAX_FRAMES, max(2, math.ceil(duration * fps) + 1)))
    frame_times = np.linspace(times[0], times[-1], n_frames)
    box = _extent(court) if zoom is None else zoom_box(court, zoom)
    fig = _figure(box[2] - box[0], box[3] - box[1], longest_in=8.0, min_width_in=3.0)
    ax = fig.add_subplot()
    draw_court(ax, court, end=judged.end)
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    colours = team_colours(court, teams)
    n = len(teams)
    r = court.disc_radius
    discs = [ax.add_patch(Circle((0.0, 0.0), r, facecolor=c, edgecolor="black", linewidth=0.8, zorder=5))
             for c in colours]
    trails = [ax.plot([], [], color=c, linewidth=1.0, alpha=0.8, zorder=4)[0] for c in colours]
    clock = ax.text(0.02, 0.98, "", transform=ax.transAxes, ha="left", va="top", fontsize=8,
                    bbox=dict(facecolor="white", alpha=0.7, edgecolor="none"), zorder=7)

    def at(t: float) -> np.ndarray:
        """(N, 2) positions at time t: linear between samples, NaN if either neighbour is NaN."""
        i = int(np.searchsorted(times, t, side="right")) - 1
        i = min(max(i, 0), len(times) - 1)
        if i == len(times) - 1 or times[i + 1] == times[i]:
            return positions[i]
        w = (t - times[i]) / (times[i + 1] - times[i])
        return (1 - w) * positions[i] + w * positions[i + 1]

    def update(frame: int):
        t = frame_times[frame]
        now = at(t)
        upto = int(np.searchsorted(times, t, side="right"))
        for k in range(n):
            x, y = now[k]
            visible = bool(np.isfinite(x) and np.isfinite(y))
            discs[k].set_visible(visible)
            if visible:
                discs[k].set_center((x, y))
            trails[k].set_data(np.append(positions[:upto, k, 0], x), np.append(positions[:upto, k, 1], y))
        clock.set_text(f"t = {t - times[0]:.2f} s")
        return [*discs, *trails, clock]

    animation = FuncAnimation(fig, update, frames=n_frames, blit=False)
    animation.save(os.fspath(path), writer=PillowWriter(fps=int(fps)), dpi=dpi)
