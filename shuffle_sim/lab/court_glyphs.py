"""The court drawn to scale as Bokeh glyphs: the picture of ``shuffle-sim draw``, in the browser.

The same shapes as the matplotlib drawing (``shuffle_sim.court.shapes``) in the same colours
(``shuffle_sim.plot.colours``): gutters, alleys and the ditch beyond the edges, the surface, every
end's zones tinted and labelled with their values, the judged end's dead areas hatched, lines with
their real width (lines the rules ignore dashed), cushions, pegs and holes with their values.
Everything is in metres in the court's frame, so disc glyphs placed on the same figure sit exactly
where the judge sees them. Shapes of one style are drawn as one glyph each.
"""

from __future__ import annotations

from matplotlib.colors import to_hex

from shuffle_sim.court import Court
from shuffle_sim.court.shapes import Shape, court_shapes, extent
from shuffle_sim.plot.colours import (
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
    zone_colours,
)

#: Labels drawn in the browser, with their colour and size (the ditch's name and the corner
#: hangers' values are left to the printed drawing).
_LABELS = {
    "edge_label": (EDGE_LABEL_COLOUR, "8px"),
    "hanger_label": (HANGER_LABEL_COLOUR, "8px"),
    "zone_label": (ZONE_LABEL_COLOUR, "12px"),
    "dead_label": (DEAD_LABEL_COLOUR, "9px"),
    "hole_label": ("white", "10px"),
}


def court_extent(court: Court) -> tuple[float, float, float, float]:
    """xmin, ymin, xmax, ymax of everything drawn, with half a disc radius to spare."""
    x0, y0, x1, y1 = extent(court)
    pad = 0.5 * court.disc_radius
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def _styles(court: Court) -> dict[str, dict]:
    """Glyph styles by role (a zone's fill is its value's tint, added where it is drawn)."""
    return {
        "gutter": dict(fill_color=GUTTER_COLOUR, line_color=None),
        "surface": dict(fill_color=surface_colour_of(court), line_color="#333333"),
        "zone": dict(line_color=None),
        "dead_zone": dict(
            fill_alpha=0.0,
            line_color=None,
            hatch_pattern="/",
            hatch_color=DEAD_HATCH_COLOUR,
            hatch_alpha=0.5,
            hatch_scale=8,
        ),
        "line": dict(fill_color=LINE_COLOUR, line_color=None),
        "ignored_line": dict(fill_alpha=0.0, line_color=LINE_COLOUR, line_dash="dashed", line_width=0.8),
        "cushion": dict(fill_color=CUSHION_COLOUR, line_color=None),
        "rail": dict(fill_color=CUSHION_COLOUR, line_color=None),
        "peg": dict(fill_color=PEG_COLOUR, line_color=None),
        "hole": dict(fill_color="black", line_color=None),
    }


def _draw_group(fig, shapes: list[Shape], style: dict) -> None:
    """One glyph for shapes of one kind and style."""
    kind = shapes[0].kind
    if kind == "polygon":
        fig.patches(
            [[float(p[0]) for p in s.points] for s in shapes],
            [[float(p[1]) for p in s.points] for s in shapes],
            **style,
        )
    elif kind == "ring":
        fig.annulus(
            x=[s.centre[0] for s in shapes],
            y=[s.centre[1] for s in shapes],
            inner_radius=[s.inner for s in shapes],
            outer_radius=[s.outer for s in shapes],
            **style,
        )
    elif kind == "circle":
        fig.ellipse(
            x=[s.centre[0] for s in shapes],
            y=[s.centre[1] for s in shapes],
            width=[2 * s.outer for s in shapes],
            height=[2 * s.outer for s in shapes],
            **style,
        )
    else:  # walls without thickness
        fig.multi_line(
            [[s.points[0][0], s.points[1][0]] for s in shapes],
            [[s.points[0][1], s.points[1][1]] for s in shapes],
            line_color=CUSHION_COLOUR,
            line_width=3,
        )


def draw_court(fig, court: Court, with_labels: bool = True) -> list[tuple[float, float, str, str, str]]:
    """Add the court's glyphs to a Bokeh figure (data units are metres); ``court`` is at the end
    being judged, whose dead areas are hatched. Returns the court's labels (x, y, text, colour,
    size), drawn here unless ``with_labels`` is False (then ``draw_labels`` draws them later, above
    what is drawn in between, such as a density map)."""
    styles = _styles(court)
    tints = {v: to_hex(c) for v, c in zone_colours(court).items()}
    shapes = court_shapes(court, court.end)
    # Consecutive shapes of one role and kind share a glyph; every zone has a glyph of its own.
    groups: list[tuple[list[Shape], dict]] = []
    for shape in shapes:
        if shape.kind == "text":
            continue
        own = shape.role in ("zone", "dead_zone")
        last = groups[-1][0][-1] if groups else None
        if not own and last is not None and (last.role, last.kind) == (shape.role, shape.kind):
            groups[-1][0].append(shape)
            continue
        style = dict(styles.get(shape.role, {}))
        if shape.role == "zone":
            style["fill_color"] = tints[shape.value]
        groups.append(([shape], style))
    for members, style in groups:
        _draw_group(fig, members, style)
    texts = [
        (s.centre[0], s.centre[1], s.text, *_LABELS[s.role]) for s in shapes if s.kind == "text" and s.role in _LABELS
    ]
    if with_labels:
        draw_labels(fig, texts)
    return texts


def draw_labels(fig, texts: list[tuple[float, float, str, str, str]]) -> None:
    """The court's labels (zone values, dead areas, gutters, holes) as one text glyph."""
    if texts:
        fig.text(
            x=[t[0] for t in texts],
            y=[t[1] for t in texts],
            text=[t[2] for t in texts],
            text_color=[t[3] for t in texts],
            text_font_size=[t[4] for t in texts],
            text_align="center",
            text_baseline="middle",
            text_font_style="bold",
        )
