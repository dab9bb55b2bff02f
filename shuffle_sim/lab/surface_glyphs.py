"""The relief of a surface that is not flat, as Bokeh glyphs: the drawing of ``plot.surface``.

The same relief (``court.shapes.surface_relief``) in the same colours as the printed drawing: the
heights above the surface's mean level as a light diverging image (blue low, red high; transparent
off the surface) with a colour bar in millimetres, the grade as arrows pointing the way a disc
drifts, scaled to a key "1 in N" (in the colour bar's title), and a friction map as a second,
purple, image of its multiplier of mu. A flat court shows none of it.

The glyphs are made once with the figure (``ReliefGlyphs``) and ``show`` fills them for a court, so
that a change of the court's grade or crown redraws the relief in place, the page otherwise as it
was. Named models: ``relief`` (the heights image's source), ``relief_legend`` (its colour bar),
``grade_arrows``, ``friction``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from bokeh.models import ColumnDataSource, LinearColorMapper
from bokeh.models.annotations import ColorBar
from bokeh.models.annotations.arrows import Arrow, VeeHead
from matplotlib import colormaps
from matplotlib.colors import to_hex, to_rgb

from shuffle_sim.court import Court
from shuffle_sim.court.shapes import Relief, surface_relief
from shuffle_sim.plot.colours import FRICTION_COLOUR, GRADE_ARROW_COLOUR, RELIEF_ALPHA, RELIEF_COLOURMAP
from shuffle_sim.units import METRE_PER

MM = METRE_PER["mm"]
#: An arrow of the key's grade is this share of the arrows' spacing long (as in ``plot.surface``).
ARROW_SPACING_SHARE = 0.8
FRICTION_ALPHA = 0.35
RELIEF_PALETTE = [to_hex(colormaps[RELIEF_COLOURMAP](k / 255)) for k in range(256)]
FRICTION_PALETTE = [to_hex((1 - f) * np.ones(3) + f * np.array(to_rgb(FRICTION_COLOUR))) for f in np.linspace(0, 1, 64)]
EMPTY_IMAGE: dict[str, list] = dict(image=[], x=[], y=[], dw=[], dh=[])
EMPTY_ARROWS: dict[str, list] = dict(x0=[], y0=[], x1=[], y1=[], gx=[], gy=[])


class ReliefGlyphs:
    """The relief's glyphs on a figure, over the court (the images are light enough to read the lines
    and zones through); ``show(court)`` draws a court's relief in them, or clears them."""

    def __init__(self, fig):
        self.heights, self.height_mapper = _image(fig, "relief", RELIEF_PALETTE, RELIEF_ALPHA)
        self.legend = ColorBar(
            color_mapper=self.height_mapper,
            name="relief_legend",
            visible=False,
            height=8,
            orientation="horizontal",
            title="",
            title_text_font_size="10px",
            major_label_text_font_size="9px",
            padding=4,
        )
        fig.add_layout(self.legend, "below")
        self.friction, self.friction_mapper = _image(fig, "friction", FRICTION_PALETTE, FRICTION_ALPHA)
        self.arrows = ColumnDataSource(name="grade_arrows", data=dict(EMPTY_ARROWS))
        # The arrow's line properties (bokeh's stub names them otherwise).
        body: dict[str, Any] = dict(line_color=GRADE_ARROW_COLOUR, line_width=1.3, line_alpha=0.8)
        fig.add_layout(
            Arrow(
                end=VeeHead(size=6, line_color=GRADE_ARROW_COLOUR, line_width=1.2),
                x_start="x0",
                y_start="y0",
                x_end="x1",
                y_end="y1",
                source=self.arrows,
                **body,
            )
        )

    def show(self, court: Court) -> Relief | None:
        """Draw ``court``'s relief (None, and nothing drawn, for a flat court)."""
        relief = surface_relief(court)
        heights, friction, arrows = dict(EMPTY_IMAGE), dict(EMPTY_IMAGE), dict(EMPTY_ARROWS)
        self.legend.visible = False
        if relief is not None:
            x, y = relief.x, relief.y
            dx, dy = 0.5 * (x[1] - x[0]), 0.5 * (y[1] - y[0])
            frame = dict(x=[x[0] - dx], y=[y[0] - dy], dw=[x[-1] - x[0] + 2 * dx], dh=[y[-1] - y[0] + 2 * dy])
            if relief.height_span > 0.0:
                span = relief.height_span / MM
                self.height_mapper.update(low=-span, high=span)
                heights = dict(image=[relief.height / MM], **frame)
                key = f"; arrows: grade 1 in {relief.key_in:,}" if relief.key_in else ""
                self.legend.update(title="height above the mean (mm)" + key, visible=True)
            if relief.friction is not None:
                low, high = float(np.nanmin(relief.friction)), float(np.nanmax(relief.friction))
                self.friction_mapper.update(low=low, high=max(high, low + 1e-9))
                shown = np.isfinite(relief.height) | (relief.height_span == 0.0)
                friction = dict(image=[np.where(shown, relief.friction, np.nan)], **frame)
            if len(relief.arrows):
                arrows = arrow_rows(relief)
        self.heights.data, self.friction.data, self.arrows.data = heights, friction, arrows
        return relief


def _image(fig, name: str, palette: list[str], alpha: float) -> tuple[ColumnDataSource, LinearColorMapper]:
    """An image glyph, empty, with its named source and its colour mapper (transparent where NaN)."""
    source = ColumnDataSource(name=name, data=dict(EMPTY_IMAGE))
    mapper = LinearColorMapper(palette=palette, low=0.0, high=1.0, nan_color=(0, 0, 0, 0))
    fig.image(image="image", x="x", y="y", dw="dw", dh="dh", source=source, color_mapper=mapper, global_alpha=alpha)
    return source, mapper


def arrow_rows(relief: Relief) -> dict:
    """The grade as arrows from each sample point, a key grade ``ARROW_SPACING_SHARE`` of the spacing long."""
    a = relief.arrows
    xs, ys = np.unique(a[:, 0]), np.unique(a[:, 1])
    gaps = [float(np.min(np.diff(v))) for v in (xs, ys) if len(v) > 1]
    spacing = min(gaps) if gaps else 0.1 * (relief.x[-1] - relief.x[0])
    scale = ARROW_SPACING_SHARE * spacing * relief.key_in
    half_x, half_y = 0.5 * scale * a[:, 2], 0.5 * scale * a[:, 3]
    return dict(
        x0=a[:, 0] - half_x, y0=a[:, 1] - half_y, x1=a[:, 0] + half_x, y1=a[:, 1] + half_y, gx=a[:, 2], gy=a[:, 3]
    )
