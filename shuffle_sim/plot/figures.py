"""Whole court pictures written to files: the figure's size, its axes in feet or inches, the zoom.

No function here imports ``pyplot``: figures are made with ``matplotlib.figure.Figure`` on an Agg
canvas and written to files, so nothing depends on (or changes) the interactive backend.
"""

from __future__ import annotations

import math
import os

import numpy as np

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.shapes import diagram_points, extent
from shuffle_sim.court.speed import speed_label
from shuffle_sim.plot.court import draw_court, draw_discs
from shuffle_sim.units import FOOT, INCH

DEFAULT_DPI = 150


def court_figure(width_m: float, height_m: float, longest_in: float = 11.0, min_width_in: float = 3.6):
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


def finish_axes(ax, court: Court, title: str) -> None:
    """Few enough ticks for a narrow drawing, feet or inches on the second axes, a wrapped title.

    The ticks go by the drawing's own size: the room ``court_figure`` leaves for it, narrowed to the
    court's proportions (a long court in a figure made wider for a legend stays narrow)."""
    import textwrap

    from matplotlib.ticker import MaxNLocator

    width_in, height_in = ax.figure.get_size_inches()
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    across = abs(x1 - x0) / max(abs(y1 - y0), 1e-12)
    drawn_width = min(width_in - 1.8, (height_in - 1.4) * across)
    drawn_height = min(height_in - 1.4, (width_in - 1.8) / max(across, 1e-12))
    ax.xaxis.set_major_locator(MaxNLocator(max(2, min(8, int(1.6 * drawn_width)))))
    ax.yaxis.set_major_locator(MaxNLocator(max(2, min(12, int(1.2 * drawn_height)))))
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
    xs, ys = diagram_points(court, zoom)
    if not xs:
        return extent(court)
    bx0, by0, bx1, by1 = min(xs), min(ys), max(xs), max(ys)
    sx0, sy0, sx1, sy1 = court.bounds
    half_w, half_h = 0.5 * (bx1 - bx0), 0.5 * (by1 - by0)
    bx0 = sx0 if bx0 - sx0 < half_w else bx0
    bx1 = sx1 if sx1 - bx1 < half_w else bx1
    by0 = sy0 if by0 - sy0 < half_h else by0
    by1 = sy1 if sy1 - by1 < half_h else by1
    pad = 2 * court.disc_radius
    ex0, ey0, ex1, ey1 = extent(court)
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


def judged_labels(court: Court, xs, ys) -> list:
    """Each disc's label as judged on ``court``: its value, or "dead" or "off" (fallen)."""
    # Imported here: drawing a court alone needs no judge (nor numba).
    from shuffle_sim.judging import judge_batch

    result = judge_batch(court, xs, ys)
    labels: list = []
    for k in range(len(result)):
        if result.fallen[k]:
            labels.append("off")
        elif result.dead[k]:
            labels.append("dead")
        else:
            labels.append(int(result.value[k]))
    return labels


def court_picture(court: Court | str, discs=None, end: str | None = None, zoom=None, title: str | None = None):
    """The figure of ``plot_court`` (court to scale, judged discs, axes in both units), not yet written.

    ``title``: a line above the court's own title (a game's score, say)."""
    court = as_court(court)
    judged = court.for_end(end)
    box = extent(court) if zoom is None else zoom_box(court, zoom)
    fig = court_figure(box[2] - box[0], box[3] - box[1])
    ax = fig.add_subplot()
    draw_court(ax, court, end=judged.end)
    if discs:
        xs, ys, teams = _parse_discs(discs)
        draw_discs(ax, court, xs, ys, teams, judged_labels(judged, xs, ys))
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    where = f", judged at the {judged.end} end" if len(court.ends) > 1 else ""
    zoomed = f" (zoom: {zoom})" if isinstance(zoom, str) else ""
    own = f"{court.title}{where}{zoomed} ({speed_label(court.params['mu'], court.speed)})"
    finish_axes(ax, court, own if title is None else f"{title}: {own}")
    return fig


def plot_court(
    court: Court, path: str | os.PathLike, discs=None, end: str | None = None, zoom=None, dpi: int = DEFAULT_DPI
) -> None:
    """Draw the court to scale into an image file (PNG, SVG, PDF: by ``path``'s suffix).

    ``discs``: (x, y) or (x, y, team) in metres, drawn by team colour and labelled with their judged
    value at ``end`` ("dead", "off" for dead and fallen discs). ``zoom``: an end's name or a box
    (see ``zoom_box``); default the whole court.
    """
    court_picture(court, discs, end, zoom).savefig(os.fspath(path), dpi=dpi)


def plot_courts(court: Court, pictures, dpi: int = DEFAULT_DPI) -> None:
    """Write many pictures of one court, each as ``plot_court`` draws it: ``pictures`` are
    ``(path, discs, end, zoom)``. The court is drawn and laid out once per end and zoom and only the
    discs are drawn per picture (a game's frames: about a third of the time of one ``plot_court``
    each); each file is the same as ``plot_court`` would write."""
    import matplotlib

    court = as_court(court)
    figures: dict = {}
    for path, discs, end, zoom in pictures:
        key = (end, zoom if isinstance(zoom, str) or zoom is None else tuple(zoom))
        if key not in figures:
            figures[key] = court_picture(court, None, end, zoom)
        fig = figures[key]
        ax = fig.axes[0]
        patches, texts = len(ax.patches), len(ax.texts)
        if discs:
            xs, ys, teams = _parse_discs(discs)
            draw_discs(ax, court, xs, ys, teams, judged_labels(court.for_end(end), xs, ys))
        fig.savefig(os.fspath(path), dpi=dpi)
        # The discs' own artists go; the court's stay, and so does the layout found for them. No
        # layout engine from here on (not even matplotlib's "none" placeholder, for which every
        # save draws the figure once more before drawing it into the file).
        for artist in [*ax.patches[patches:], *ax.texts[texts:]]:
            artist.remove()
        with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
            fig.set_layout_engine(None)


def court_image(
    court: Court | str, discs=None, end: str | None = None, zoom=None, title: str | None = None, dpi: int = 60
) -> np.ndarray:
    """The drawing of ``plot_court`` as an RGB array (height, width, 3) of uint8, at ``dpi``."""
    fig = court_picture(court, discs, end, zoom, title)
    fig.set_dpi(dpi)
    canvas = fig.canvas
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()
