"""A court and its discs drawn on a matplotlib ``Axes``, to scale (metres, equal aspect).

The court's shapes come from ``shuffle_sim.court.shapes`` (the shot lab draws the same ones): here
each role gets its matplotlib style: gutters, alleys and the ditch beyond the edges, the surface,
zones tinted and labelled with their values, dead areas hatched (for the end being judged), lines
with their real width (lines the rules ignore dashed), cushions, pegs and holes; on a surface that is
not flat, its relief (``surface``).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.shapes import Shape, court_shapes, extent
from shuffle_sim.plot.colours import (
    CORNER_LABEL_COLOUR,
    CUSHION_COLOUR,
    DEAD_HATCH_COLOUR,
    DEAD_LABEL_COLOUR,
    EDGE_LABEL_COLOUR,
    GUTTER_COLOUR,
    HANGER_LABEL_COLOUR,
    LINE_COLOUR,
    PEG_COLOUR,
    ZONE_LABEL_COLOUR,
    surface_colour_of,
    team_colours,
    text_colour,
    zone_colours,
)


def _area_styles(court: Court) -> dict[str, dict]:
    """Patch styles by role (a zone's face colour is its value's tint, added where it is drawn)."""
    return {
        "gutter": dict(facecolor=GUTTER_COLOUR, edgecolor="none", zorder=0),
        "surface": dict(facecolor=surface_colour_of(court), edgecolor="#333333", linewidth=0.8, zorder=0.6),
        "zone": dict(edgecolor="none", zorder=1),
        "dead_zone": dict(
            facecolor="none", edgecolor=DEAD_HATCH_COLOUR, hatch="///", linewidth=0, alpha=0.35, zorder=1.1
        ),
        "line": dict(facecolor=LINE_COLOUR, edgecolor="none", zorder=2),
        "ignored_line": dict(facecolor="none", edgecolor=LINE_COLOUR, linestyle="--", linewidth=0.6, zorder=2),
        "cushion": dict(facecolor=CUSHION_COLOUR, edgecolor="none", zorder=2.5),
        "rail": dict(facecolor=CUSHION_COLOUR, edgecolor="none", zorder=2.5),
        "peg": dict(facecolor=PEG_COLOUR, edgecolor="none", zorder=3),
        "hole": dict(facecolor="black", edgecolor="none", zorder=3),
    }


#: Text styles by role.
_LABEL_STYLES = {
    "edge_label": dict(color=EDGE_LABEL_COLOUR, fontsize=6, zorder=0.5, clip_on=True),
    "hanger_label": dict(color=HANGER_LABEL_COLOUR, fontsize=6, zorder=0.5, clip_on=True),
    "ditch_label": dict(color=EDGE_LABEL_COLOUR, fontsize=7, zorder=0.5),
    "corner_label": dict(color=CORNER_LABEL_COLOUR, fontsize=7, fontweight="bold", zorder=0.5, clip_on=True),
    "zone_label": dict(fontsize=8, fontweight="bold", color=ZONE_LABEL_COLOUR, zorder=3.5, clip_on=True),
    "dead_label": dict(fontsize=6, style="italic", color=DEAD_LABEL_COLOUR, zorder=3.4, clip_on=True),
    "hole_label": dict(color="white", fontsize=7, fontweight="bold", zorder=3.2),
}


def _draw_shape(ax, shape: Shape, style: dict) -> None:
    from matplotlib.patches import Circle, Polygon, Wedge

    if shape.kind == "text":
        ax.text(*shape.centre, shape.text, ha="center", va="center", rotation=shape.rotation, **style)
    elif shape.kind == "polygon":
        ax.add_patch(Polygon(shape.points, closed=True, **style))
    elif shape.kind == "ring":
        ax.add_patch(Wedge(shape.centre, shape.outer, 0, 360, width=shape.outer - shape.inner, **style))
    elif shape.kind == "circle":
        ax.add_patch(Circle(shape.centre, shape.outer, **style))
    else:  # a wall without thickness
        (x0, y0), (x1, y1) = shape.points
        ax.plot([x0, x1], [y0, y1], color=CUSHION_COLOUR, linewidth=3, solid_capstyle="butt", zorder=2.5)


def draw_court(ax, court: Court, end: str | None = None) -> None:
    """Draw ``court`` to scale on ``ax`` (metres, equal aspect; limits set to the whole court).

    ``end`` picks the end whose dead areas are hatched (default: the court's current end); the
    scoring diagrams of every end are drawn. A surface that is not flat shows its relief
    (``surface.draw_surface``: shaded heights with a colour bar, grade arrows, friction contours).
    """
    court = as_court(court)
    styles = _area_styles(court)
    tints = zone_colours(court)
    for shape in court_shapes(court, end):
        if shape.kind == "text":
            style = _LABEL_STYLES[shape.role]
        elif shape.role == "zone":
            style = dict(styles["zone"], facecolor=tints[shape.value])
        else:
            style = styles.get(shape.role, {})
        _draw_shape(ax, shape, style)
    if not court.surface_shape.flat:
        from shuffle_sim.plot.surface import draw_surface

        draw_surface(ax, court)
    ex0, ey0, ex1, ey1 = extent(court)
    pad = 0.5 * court.disc_radius
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
    court = as_court(court)
    colours = team_colours(court, teams)
    r = court.disc_radius
    for k, (x, y, colour) in enumerate(zip(xs, ys, colours, strict=True)):
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        ax.add_patch(Circle((x, y), r, facecolor=colour, edgecolor="black", linewidth=0.8, zorder=5, alpha=0.95))
        if values is not None:
            v = values[k]
            label = str(int(v)) if isinstance(v, (int, np.integer)) else str(v)
            ax.text(
                x,
                y,
                label,
                ha="center",
                va="center",
                fontsize=7,
                fontweight="bold",
                color=text_colour(colour),
                zorder=6,
                clip_on=True,
            )
