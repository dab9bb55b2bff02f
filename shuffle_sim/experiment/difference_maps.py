"""Difference plots of experiment results: a metric at one value of an axis minus at another, with its
standard error (``shuffle-sim plot --diff AXIS=A,B``; ``views.build_view`` computes both).

Over two grid axes the figure has three panels: the difference (a diverging map centred on zero, red
where A gives more), its standard error, and the court. Cells whose difference lies within two
standard errors of zero are hatched on the difference map: what is left unhatched is a difference the
shots resolve. Over one axis the difference is a line (bars for a categorical axis) with a band (error
bars) of two standard errors either side, and a line at zero. The title says whether the two values
were compared on the same random draws (a paired axis) or on independent ones.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from shuffle_sim.court import Court
from shuffle_sim.experiment._axis_display import axis_coordinates, axis_label, describe, label_ticks
from shuffle_sim.experiment._panels import cell_edges, draw_board_and_shot, draw_court_panel
from shuffle_sim.experiment.views import View, metric_long_name

#: A difference within this many standard errors of zero is hatched (about 95 % for a normal error).
SIGNIFICANT = 2.0
HATCH = "////"


def _title(ds, view: View) -> str:
    assert view.diff is not None, "a difference view names its compared axis"
    axis, a, b = view.diff
    paired = axis in ds.attrs.get("paired_axes", "").split(",")
    how = "paired: the same random draws" if paired else "independent random draws"
    shots = int(ds.attrs.get("n_shots", int(ds["shots"].values.sum())))
    samples = ds.attrs.get("samples_per_cell")
    per = f", {samples} per cell" if samples else ""
    where = "".join(f", {k} = {describe(ds, k, v)}" for k, v in view.fixed.items())
    where += f", averaged over {', '.join(view.averaged)}" if view.averaged else ""
    note = f"\n{view.stderr_note}" if view.stderr_note else ""
    return (
        f"{ds.attrs.get('title', '')}\n{view.metric}: {axis} = {describe(ds, axis, a)} minus {axis} = "
        f"{describe(ds, axis, b)} ({how}); {shots:,} shots{per}{where}{note}"
    )


def plot_difference(ds, view: View, court: Court):
    """The figure of a difference ``view`` (module docstring) of results ``ds`` on ``court``."""
    label = f"difference in {metric_long_name(ds, view.metric)}"
    xmin, ymin, xmax, ymax = court.bounds
    tall = (ymax - ymin) / max(xmax - xmin, 1e-9)
    court_share = min(1.6, max(0.55, 3.0 / tall))
    two_d = len(view.dims) == 2
    fig = Figure(figsize=(15, 6.2) if two_d else (11, 6.2), layout="constrained")
    FigureCanvasAgg(fig)
    ratios = [3.2, 3.2, court_share] if two_d else [3.2, court_share]
    axes = fig.subplots(1, len(ratios), width_ratios=ratios)
    court_ax = axes[-1]
    values = np.asarray(view.values, dtype=np.float64)
    stderr = None if view.stderr is None else np.asarray(view.stderr, dtype=np.float64)
    if two_d:
        _draw_difference_maps(fig, axes[0], axes[1], ds, view, values, stderr, label)
    else:
        _draw_difference_line(axes[0], ds, view.dims[0], values, stderr, label)
    draw_court_panel(court_ax, court, tall)
    draw_board_and_shot(court_ax, ds, court, list(view.dims))
    fig.suptitle(_title(ds, view), fontsize=11)
    return fig


def _draw_difference_maps(fig, diff_ax, error_ax, ds, view: View, values, stderr, label: str) -> None:
    """Over two axes: the difference as a diverging map centred on zero, hatched where it lies within
    ``SIGNIFICANT`` standard errors of zero, and beside it the standard error (or why there is none)."""
    assert view.diff is not None, "a difference view names its compared axis"
    axis, a, b = view.diff
    x, y = view.dims[0], view.dims[1]
    xs, xticks = axis_coordinates(ds, x)
    ys, yticks = axis_coordinates(ds, y)
    finite = np.abs(values[np.isfinite(values)])
    reach = float(finite.max()) if finite.size and finite.max() > 0 else 1e-9
    mesh = diff_ax.pcolormesh(
        cell_edges(xs),
        cell_edges(ys),
        values.T,
        cmap="RdBu_r",
        norm=TwoSlopeNorm(vmin=-reach, vcenter=0.0, vmax=reach),
        shading="flat",
    )
    fig.colorbar(mesh, ax=diff_ax, shrink=0.9).set_label(label)
    diff_ax.set_title(f"{axis} = {describe(ds, axis, a)} minus {axis} = {describe(ds, axis, b)}", fontsize=10)
    if stderr is not None:
        unresolved = np.ma.masked_where(~(np.abs(values) <= SIGNIFICANT * stderr), np.ones_like(values))
        hatched = diff_ax.pcolor(
            cell_edges(xs), cell_edges(ys), unresolved.T, facecolor="none", edgecolor="0.35", linewidth=0.0, hatch=HATCH
        )
        hatched.set_label(f"within {SIGNIFICANT:g} standard errors of 0")
        edges = (cell_edges(xs), cell_edges(ys))
        error_mesh = error_ax.pcolormesh(*edges, stderr.T, cmap="viridis", shading="flat", vmin=0.0)
        fig.colorbar(error_mesh, ax=error_ax, shrink=0.9).set_label("standard error of the difference")
        error_ax.set_title(f"standard error (hatched at left: |difference| <= {SIGNIFICANT:g} x this)", fontsize=10)
    else:
        error_ax.text(
            0.5,
            0.5,
            "no standard error\n" + view.stderr_note,
            ha="center",
            va="center",
            transform=error_ax.transAxes,
            wrap=True,
        )
    for ax in (diff_ax, error_ax):
        label_ticks(ax.xaxis, ds, x, xs, xticks)
        label_ticks(ax.yaxis, ds, y, ys, yticks)
        ax.set_xlabel(axis_label(ds, x))
        ax.set_ylabel(axis_label(ds, y))


def _draw_difference_line(ax, ds, x: str, values, stderr, label: str) -> None:
    """Over one axis: the difference as bars with error bars (named values) or a line in a band, each
    ``SIGNIFICANT`` standard errors either side, and a line at zero."""
    xs, xticks = axis_coordinates(ds, x)
    ax.axhline(0.0, color="0.3", linewidth=0.8)
    if xticks:
        errors = None if stderr is None else SIGNIFICANT * stderr
        ax.bar(xs, values, color=np.where(values >= 0, "tab:red", "tab:blue"), yerr=errors, capsize=4, ecolor="0.2")
    else:
        ax.plot(xs, values, marker="o", markersize=3, color="tab:red", label="difference")
        if stderr is not None:
            ax.fill_between(
                xs,
                values - SIGNIFICANT * stderr,
                values + SIGNIFICANT * stderr,
                color="tab:red",
                alpha=0.25,
                linewidth=0.0,
                label=f"{SIGNIFICANT:g} standard errors either side",
            )
        ax.legend(fontsize=8)
    label_ticks(ax.xaxis, ds, x, xs, xticks)
    ax.set_xlabel(axis_label(ds, x))
    ax.set_ylabel(label)
    ax.grid(alpha=0.3)
