"""The court drawn to scale as Bokeh glyphs: the picture of ``shuffle-sim draw``, in the browser.

The same geometry and colours as the matplotlib drawing (``shuffle_sim.plot``): gutters, alleys and
the ditch beyond the edges, the surface, every end's zones tinted and labelled with their values,
the judged end's dead areas hatched, lines with their real width (lines the rules ignore dashed),
cushions, pegs and holes with their values. Everything is in metres in the court's frame, so disc
glyphs placed on the same figure sit exactly where the judge sees them.
"""

from __future__ import annotations

from matplotlib.colors import to_hex

from shuffle_sim.court import Court
from shuffle_sim.plot import (
    CUSHION_COLOUR,
    DEAD_HATCH_COLOUR,
    GUTTER_COLOUR,
    LINE_COLOUR,
    PEG_COLOUR,
    _band_polygon,
    _diagrams,
    _ditch_outer_radius,
    _extent,
    _gutter_width,
    _outward,
    _rail_width,
    _value_label,
    _zone_colours,
    _zone_label_points,
    surface_colour_of,
)


def court_extent(court: Court) -> tuple[float, float, float, float]:
    """xmin, ymin, xmax, ymax of everything drawn, with half a disc radius to spare."""
    x0, y0, x1, y1 = _extent(court)
    pad = 0.5 * court.disc_radius
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def _patches(fig, polygons: list, **style) -> None:
    if polygons:
        fig.patches([[float(p[0]) for p in poly] for poly in polygons],
                    [[float(p[1]) for p in poly] for poly in polygons], **style)


def _annuli(fig, rings: list, **style) -> None:
    """Rings (cx, cy, inner, outer) in metres."""
    if rings:
        fig.annulus(x=[r[0] for r in rings], y=[r[1] for r in rings], inner_radius=[r[2] for r in rings],
                    outer_radius=[r[3] for r in rings], **style)


def draw_court(fig, court: Court) -> None:
    """Add the court's glyphs to a Bokeh figure (data units are metres); ``court`` is at the end
    being judged, whose dead areas are hatched."""
    judged, diagrams = _diagrams(court, court.end)
    gutter = _gutter_width(court)
    texts: list[tuple[float, float, str, str, str]] = []  # x, y, text, colour, size

    # Gutters, alleys and ditches beyond the edges.
    strips = []
    rings = []
    for e in court.edges:
        label = f"hanger {court.hanger_end_value}" if e.overhang == "end" and court.hanger_end_value is not None \
            else e.name
        if e.kind == "segment":
            ex0, ey0, ex1, ey1 = e.geom
            ox, oy = _outward(e)
            strips.append([(ex0, ey0), (ex1, ey1), (ex1 + ox * gutter, ey1 + oy * gutter),
                           (ex0 + ox * gutter, ey0 + oy * gutter)])
            texts.append(((ex0 + ex1) / 2 + ox * gutter / 2, (ey0 + ey1) / 2 + oy * gutter / 2, label,
                          "#ffe082" if label != e.name else "white", "8px"))
        else:
            cx, cy, radius, _ = e.geom
            rings.append((cx, cy, radius, _ditch_outer_radius(court, radius, cx, cy)))
    segments = [e for e in court.edges if e.kind == "segment"]
    for e in segments:
        for f in segments:
            if e is not f and tuple(e.geom[2:]) == tuple(f.geom[:2]):
                cx, cy = e.geom[2:]
                (ox, oy), (px, py) = _outward(e), _outward(f)
                strips.append([(cx, cy), (cx + ox * gutter, cy + oy * gutter),
                               (cx + (ox + px) * gutter, cy + (oy + py) * gutter), (cx + px * gutter, cy + py * gutter)])
    _patches(fig, strips, fill_color=GUTTER_COLOUR, line_color=None)
    _annuli(fig, rings, fill_color=GUTTER_COLOUR, line_color=None)

    # The surface.
    surface = surface_colour_of(court)
    if court.surface_kind == "circle":
        cx, cy, radius = court.surface_circle
        fig.ellipse(x=[cx], y=[cy], width=[2 * radius], height=[2 * radius], fill_color=surface, line_color="#333333")
    else:
        _patches(fig, [court.surface_polygon.tolist()], fill_color=surface, line_color="#333333")

    # Zones of every end, tinted; dead areas of the judged end hatched.
    tints = {v: to_hex(c) for v, c in _zone_colours(court).items()}
    for diagram in diagrams:
        for zone in diagram.zones:
            if zone.dead:
                continue
            style = dict(fill_color=tints[zone.value], line_color=None)
            if zone.kind == "polygon":
                _patches(fig, [zone.polygon.tolist()], **style)
            else:
                _annuli(fig, [zone.annulus], **style)
            for lx, ly in _zone_label_points(zone, court, diagrams):
                texts.append((lx, ly, _value_label(zone.value), "#102a43", "12px"))
    for zone in judged.zones:
        if not zone.dead:
            continue
        style = dict(fill_alpha=0.0, line_color=None, hatch_pattern="/", hatch_color=DEAD_HATCH_COLOUR,
                     hatch_alpha=0.5, hatch_scale=8)
        if zone.kind == "polygon":
            _patches(fig, [zone.polygon.tolist()], **style)
        else:
            _annuli(fig, [zone.annulus], **style)
        lx, ly = _zone_label_points(zone, court, diagrams)[0]
        texts.append((lx, ly, "dead", "#444444", "9px"))

    # Lines with their width; lines the rules ignore dashed.
    solid, dashed, solid_rings, dashed_rings = [], [], [], []
    drawn = set()
    for diagram in diagrams:
        for line in diagram.lines:
            key = (line.name, tuple(round(v, 9) for v in line.geom))
            if key in drawn:
                continue
            drawn.add(key)
            hw = line.width / 2
            if line.kind == "segment":
                (solid if line.judged else dashed).append(_band_polygon(*line.geom, hw))
            else:
                cx, cy, radius, _ = line.geom
                (solid_rings if line.judged else dashed_rings).append((cx, cy, radius - hw, radius + hw))
    _patches(fig, solid, fill_color=LINE_COLOUR, line_color=None)
    _patches(fig, dashed, fill_alpha=0.0, line_color=LINE_COLOUR, line_dash="dashed", line_width=0.8)
    _annuli(fig, solid_rings, fill_color=LINE_COLOUR, line_color=None)
    _annuli(fig, dashed_rings, fill_alpha=0.0, line_color=LINE_COLOUR, line_dash="dashed", line_width=0.8)

    # Cushions, pegs and holes.
    bands, thin, rails = [], [], []
    for c in court.cushions:
        if c.kind == "segment":
            if c.thickness > 0:
                bands.append(_band_polygon(*c.geom, c.thickness / 2))
            else:
                thin.append(c.geom)
        else:
            cx, cy, radius, _ = c.geom
            rails.append((cx, cy, radius, radius + _rail_width(c)))
    _patches(fig, bands, fill_color=CUSHION_COLOUR, line_color=None)
    if thin:
        fig.multi_line([[g[0], g[2]] for g in thin], [[g[1], g[3]] for g in thin], line_color=CUSHION_COLOUR,
                       line_width=3)
    _annuli(fig, rails, fill_color=CUSHION_COLOUR, line_color=None)
    if court.pegs:
        fig.ellipse(x=[p.x for p in court.pegs], y=[p.y for p in court.pegs],
                    width=[2 * p.radius for p in court.pegs], height=[2 * p.radius for p in court.pegs],
                    fill_color=PEG_COLOUR, line_color=None)
    if court.holes:
        fig.ellipse(x=[h.x for h in court.holes], y=[h.y for h in court.holes],
                    width=[2 * h.radius for h in court.holes], height=[2 * h.radius for h in court.holes],
                    fill_color="black", line_color=None)
        texts += [(h.x, h.y, str(h.value), "white", "10px") for h in court.holes]

    if texts:
        fig.text(x=[t[0] for t in texts], y=[t[1] for t in texts], text=[t[2] for t in texts],
                 text_color=[t[3] for t in texts], text_font_size=[t[4] for t in texts], text_align="center",
                 text_baseline="middle", text_font_style="bold")

