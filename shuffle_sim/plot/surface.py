"""The relief of a surface that is not flat, drawn over the court: heights, grade and friction.

From ``court.shapes.surface_relief`` (the shot lab draws the same relief): the heights as a light
diverging shading clipped to the surface, above the zones' tints and under the lines, with a colour
bar in millimetres (blue is low, where discs drift to; red is high); the grade as a sparse field of
arrows pointing the way a disc drifts, scaled to a key "1 in N"; a friction map as labelled contours
of its multiplier of mu. A flat court gets nothing here, so its drawing is what it always was.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.court.shapes import Relief, court_shapes, surface_relief
from shuffle_sim.plot.colours import FRICTION_COLOUR, GRADE_ARROW_COLOUR, RELIEF_ALPHA, RELIEF_COLOURMAP
from shuffle_sim.units import METRE_PER

MM = METRE_PER["mm"]
#: Z-orders: above the zones' tints (1) and dead hatching (1.1), under the lines (2).
SHADING_Z = 1.5
FRICTION_Z = 1.6
ARROW_Z = 3.6
#: An arrow of the key's grade is this share of the arrows' spacing long.
ARROW_SPACING_SHARE = 0.8


def draw_surface(ax, court: Court) -> None:
    """Draw ``court``'s relief (module docstring) on ``ax``; nothing for a flat court."""
    relief = surface_relief(court)
    if relief is None:
        return
    clip = _surface_patch(ax, court)
    if relief.height_span > 0.0:
        _draw_heights(ax, relief, clip)
    if relief.friction is not None:
        _draw_friction(ax, relief, clip)
    if len(relief.arrows):
        _draw_arrows(ax, relief)


def _surface_patch(ax, court: Court):
    """An invisible patch of the surface's outline, for clipping the shading to it."""
    from matplotlib.patches import Circle, Polygon

    shape = next(s for s in court_shapes(court) if s.role == "surface")
    patch: Circle | Polygon
    if shape.kind == "circle":
        patch = Circle(shape.centre, shape.outer, transform=ax.transData)
    else:
        patch = Polygon(shape.points, closed=True, transform=ax.transData)
    patch.set_visible(False)
    return patch


def _draw_heights(ax, relief: Relief, clip) -> None:
    """The heights (mm above the surface's mean level), shaded, with a small colour bar."""
    span_mm = relief.height_span / MM
    x, y = relief.x, relief.y
    dx, dy = 0.5 * (x[1] - x[0]), 0.5 * (y[1] - y[0])
    image = ax.imshow(
        np.nan_to_num(relief.height / MM),  # off the surface the clip hides it; NaN would blur the edge
        extent=(x[0] - dx, x[-1] + dx, y[0] - dy, y[-1] + dy),
        origin="lower",
        cmap=RELIEF_COLOURMAP,
        vmin=-span_mm,
        vmax=span_mm,
        alpha=RELIEF_ALPHA,
        interpolation="bilinear",
        zorder=SHADING_Z,
        aspect="auto",
    )
    image.set_clip_path(clip)
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.5, pad=0.02, fraction=0.06)
    bar.set_label("height above the mean (mm)", fontsize=7)
    bar.ax.tick_params(labelsize=6)
    bar.solids.set_alpha(1.0)


def _draw_friction(ax, relief: Relief, clip) -> None:
    """The friction map's multiplier of mu as labelled contours."""
    friction = relief.friction
    assert friction is not None
    low, high = float(np.nanmin(friction)), float(np.nanmax(friction))
    if high - low < 1e-6:
        return
    contours = ax.contour(
        relief.x, relief.y, friction, levels=6, colors=FRICTION_COLOUR, linewidths=0.7, zorder=FRICTION_Z
    )
    contours.set_clip_path(clip)
    ax.clabel(contours, fmt=lambda v: f"mu x{v:.3g}", fontsize=6)


def _draw_arrows(ax, relief: Relief) -> None:
    """The grade as arrows pointing the way a disc drifts, with a key "1 in N"."""
    arrows = relief.arrows
    xs, ys = np.unique(arrows[:, 0]), np.unique(arrows[:, 1])
    spacing = min(
        np.min(np.diff(xs)) if len(xs) > 1 else np.inf,
        np.min(np.diff(ys)) if len(ys) > 1 else np.inf,
    )
    if not np.isfinite(spacing):
        spacing = 0.1 * (relief.x[-1] - relief.x[0])
    key = 1.0 / relief.key_in
    quiver = ax.quiver(
        arrows[:, 0],
        arrows[:, 1],
        arrows[:, 2],
        arrows[:, 3],
        angles="xy",
        scale_units="xy",
        scale=key / (ARROW_SPACING_SHARE * spacing),
        color=GRADE_ARROW_COLOUR,
        units="dots",
        width=2.0,
        headwidth=3.5,
        headlength=4.0,
        headaxislength=3.5,
        zorder=ARROW_Z,
        pivot="middle",
    )
    key_arrow = ax.quiverkey(
        quiver,
        0.05,
        0.975,
        key,
        f"grade 1 in {relief.key_in:,}",
        labelpos="E",
        coordinates="axes",
        fontproperties={"size": 7},
        zorder=ARROW_Z + 0.1,
    )
    key_arrow.text.set_bbox(dict(facecolor="white", alpha=0.8, edgecolor="none", pad=1.5))
