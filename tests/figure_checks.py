"""Checks of drawn figures that tests share: what text a figure cuts off at its edges."""

from __future__ import annotations

from matplotlib.axis import Axis
from matplotlib.text import Text


def clipped_texts(fig, tolerance_px: float = 0.5) -> list[str]:
    """The visible, non-empty texts of ``fig`` (titles, axis labels, tick labels, legend entries,
    annotations) that reach past the figure's edges, each as 'text (left/right/bottom/top)'.
    The figure is drawn first, so that its layout has placed everything."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    undrawn = _undrawn_tick_labels(fig)
    out = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip() or id(text) in undrawn:
            continue
        box = text.get_window_extent(renderer)
        sides = [
            side
            for side, past in (
                ("left", box.x0 < -tolerance_px),
                ("right", box.x1 > width + tolerance_px),
                ("bottom", box.y0 < -tolerance_px),
                ("top", box.y1 > height + tolerance_px),
            )
            if past
        ]
        if sides:
            out.append(f"{text.get_text()!r} ({', '.join(sides)})")
    return out


def _undrawn_tick_labels(fig) -> set[int]:
    """The ids of the tick labels that a drawing leaves out: those of ticks outside the view limits
    (matplotlib keeps them, with positions past the axes, but draws only the ticks in view)."""
    out = set()
    for axis in fig.findobj(Axis):
        drawn = {id(label) for tick in axis._update_ticks() for label in (tick.label1, tick.label2)}
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            out.update(id(label) for label in (tick.label1, tick.label2) if id(label) not in drawn)
    return out


def overlapping_tick_labels(fig) -> list[str]:
    """Pairs of drawn tick labels of one axis of ``fig`` that overlap ('-1.0' and '-0.5'), as text."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    out = []
    for axis in fig.findobj(Axis):
        labels = [
            label
            for tick in axis._update_ticks()
            for label in (tick.label1, tick.label2)
            if label.get_visible() and label.get_text().strip()
        ]
        boxes = [label.get_window_extent(renderer) for label in labels]
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                if boxes[i].overlaps(boxes[j]):
                    out.append(f"{labels[i].get_text()!r} and {labels[j].get_text()!r}")
    return out
