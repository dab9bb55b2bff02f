"""Outcome maps of batch experiments (matplotlib), drawn from saved results with the court alongside.

A map shows one metric of ``grid.nc`` over one or two grid axes: a heat map for two axes (a bar or
line chart for one), units on the axes, a colour bar named after the quantity, and the experiment's
title and shot count in the title. The court (``shuffle_sim.plot.draw_court``) is drawn beside it
with the shot's start, the swept directions or aim points, and the board's resting discs; a map over
aim points on the court (``target_x`` x ``target_y``) is drawn on the court itself.

Figures are ``matplotlib.figure.Figure`` objects on an Agg canvas (no ``pyplot``: nothing here
depends on or changes the interactive backend); notebooks display them as they are.

Metrics are the data variables of the results: ``expected_value``, ``p_dead``, ... and, for those
with an extra dimension, ``p_value:10`` (probability that the shot disc is worth 10) or
``p_removed:NAME`` (probability that the board disc NAME is removed).
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from shuffle_sim.court import Court, parse_court
from shuffle_sim.experiment._axis_display import axis_coordinates, axis_label, describe, label_ticks
from shuffle_sim.experiment._grid_file import GridResults, GridVariable
from shuffle_sim.experiment._panels import cell_edges, draw_board_and_shot, draw_court_panel
from shuffle_sim.experiment.store import ResultsDir, open_results
from shuffle_sim.experiment.views import build_view, describe_value, metric_long_name, metric_sums, parse_metric
from shuffle_sim.plot import draw_court

DPI = 110


def grid_results(ds) -> GridResults:
    """``ds`` as a ``GridResults`` (the plots read plain arrays; an ``xarray.Dataset`` is converted)."""
    return ds if isinstance(ds, GridResults) else GridResults.from_xarray(ds)


def metric_data(ds, metric: str) -> GridVariable:
    """The variable of a metric name (``p_value:10`` and ``p_removed:NAME`` select a label; a combined
    ``p_value:20,15`` adds the counts), of results as a ``GridResults`` or an ``xarray.Dataset``."""
    ds = grid_results(ds)
    name, dim, keys = parse_metric(ds, metric)
    data = ds[name]
    if dim is None:
        return data
    labels = ds[dim].values.tolist()
    if len(keys) == 1:
        return data.take(dim, labels.index(keys[0]))
    sums = metric_sums(ds, metric)
    with np.errstate(invalid="ignore", divide="ignore"):
        return GridVariable(sums.dims, sums.total / sums.shots, dict(data.attrs))


def metric_label(ds, metric: str) -> str:
    """The quantity's name and unit for a colour bar, e.g. 'probability of value 10'."""
    return metric_long_name(grid_results(ds), metric)


def results_court(ds) -> Court:
    """The court the results were computed on, rebuilt from the court file stored with them."""
    court = parse_court(tomllib.loads(ds.attrs["court_file"]), f"{ds.attrs.get('court_name', 'court')} (stored)")
    return court.for_end(ds.attrs.get("court_end"))


def _title(ds, metric: str, fixed: dict, averaged=()) -> str:
    shots = int(ds.attrs.get("n_shots", int(ds["shots"].values.sum())))
    samples = ds.attrs.get("samples_per_cell")
    per = f", {samples} per cell" if samples else ""
    where = "".join(f", {k} = {describe(ds, k, v)}" for k, v in fixed.items())
    where += f", averaged over {', '.join(averaged)}" if averaged else ""
    return f"{ds.attrs.get('title', '')}\n{metric}: {shots:,} shots{per}{where}"


def _colour_norm(values: np.ndarray, metric: str):
    finite = values[np.isfinite(values)]
    lo = float(finite.min()) if finite.size else 0.0
    hi = float(finite.max()) if finite.size else 1.0
    if metric.startswith("p_"):
        return "viridis", None, 0.0, max(hi, 1e-9)
    if lo < 0 < hi:
        return "RdBu_r", TwoSlopeNorm(vmin=lo, vcenter=0.0, vmax=hi), None, None
    return "viridis", None, lo, hi if hi > lo else lo + 1e-9


#: The map beside the court: where its panels go in an 11 x 6.2 in figure, as fractions of it. Fixed
#: rectangles instead of matplotlib's constrained layout, which took half the drawing time; they are
#: the ones that layout chose for these figures: the map's and the court's widths in the ratio 3.2 to
#: the court's share, the colour bar beside the map at 0.9 of its height, room for the labels.
PANEL_LEFT = 0.0507  # room for the map's y label and numeric tick labels
PANEL_BOTTOM = {True: 0.0769, False: 0.0776}  # with and without a colour bar
PANEL_HEIGHT = {True: 0.8121, False: 0.8425}
PANEL_INNER = {True: 0.8174, False: 0.8839}  # map + court widths, with and without a colour bar
BAR_GAP, BAR_WIDTH = 0.0348, 0.0206
COURT_GAP = {True: 0.1282, False: 0.0554}  # map's right edge to the court's slot


def _panel_axes(fig, court_share: float, with_bar: bool):
    """The map's axes, the court's (its slot; the court keeps its aspect, centred) and the colour
    bar's (None without one)."""
    inner = PANEL_INNER[with_bar]
    map_width = inner * 3.2 / (3.2 + court_share)
    bottom, height = PANEL_BOTTOM[with_bar], PANEL_HEIGHT[with_bar]
    ax = fig.add_axes((PANEL_LEFT, bottom, map_width, height))
    right = PANEL_LEFT + map_width
    court_ax = fig.add_axes((right + COURT_GAP[with_bar], bottom, inner - map_width, height))
    bar = fig.add_axes((right + BAR_GAP, bottom + 0.05 * height, BAR_WIDTH, 0.9 * height)) if with_bar else None
    return ax, court_ax, bar


def _clear_of_the_left_edge(fig, ax, pad_px: float = 6.0) -> None:
    """Move the map's left edge (keeping its right edge) so that its y label and tick labels, however
    long (names of skills, '-0.25', a long axis name), end ``pad_px`` inside the figure."""
    renderer = fig.canvas.get_renderer()
    shift = (pad_px - ax.get_tightbbox(renderer).x0) / renderer.width
    x0, y0, w, h = ax.get_position().bounds
    ax.set_position((x0 + shift, y0, w - shift, h))


def _clear_of_the_bar(fig, ax, bar, court_ax, pad_px: float = 10.0) -> None:
    """Narrow or widen the map (and move its colour bar with it) so that ``pad_px`` separates the bar's
    labels from the court's tick labels, as the constrained layout would: a court drawn wider than the
    deck's, or longer tick labels on the bar, need more room; shorter ones leave the map more."""
    renderer = fig.canvas.get_renderer()
    court_ax.apply_aspect()
    overlap = bar.get_tightbbox(renderer).x1 + pad_px - court_ax.yaxis.get_tightbbox(renderer).x0
    if overlap != 0:
        shift = overlap / renderer.width
        x0, y0, w, h = ax.get_position().bounds
        ax.set_position((x0, y0, w - shift, h))
        x0, y0, w, h = bar.get_position().bounds
        bar.set_position((x0 - shift, y0, w, h))


def default_axes(ds, x: str | None = None, y: str | None = None, taken=()) -> tuple[str | None, str | None]:
    """The plotted axes of a plot that names ``x`` and ``y`` or not: the first two grid axes by
    default, one axis (no ``y``) when ``x`` names another than the first. Axes ``taken`` (selected,
    averaged or compared) are left out of the defaults, and so are axes of one value while others
    have more (such an axis is taken at its value)."""
    grid_dims = [d for d in ds["shots"].dims if d not in taken]
    grid_dims = [d for d in grid_dims if len(ds[d].values) > 1] or grid_dims
    if not grid_dims:
        return x, y
    x = x or grid_dims[0]
    if y is None and x == grid_dims[0] and len(grid_dims) > 1:
        y = grid_dims[1]
    return x, y


def plot_metric(
    ds,
    metric: str,
    x: str | None = None,
    y: str | None = None,
    select: dict | None = None,
    court: Court | None = None,
    average=(),
    diff=None,
):
    """A figure of ``metric`` over grid axes ``x`` (and ``y``), with the court alongside.

    Axes default to the first two grid axes (``default_axes``). Every other grid axis is taken at its
    value in ``select`` (nearest grid value), pooled if named in ``average``, or else taken at its
    first value; the title names each. ``diff = (AXIS, A, B)`` draws the metric at ``AXIS = A`` minus
    at ``AXIS = B`` with its standard error instead (``difference_maps``; ``views``: how).
    """
    ds = grid_results(ds)
    x, y = default_axes(ds, x, y, taken=[*(select or {}), *(average or ()), *([diff[0]] if diff else [])])
    view = build_view(ds, metric, x, y, select, average, diff)
    if diff is not None:
        from shuffle_sim.experiment.difference_maps import plot_difference

        return plot_difference(ds, view, court or results_court(ds))
    assert x is not None, "build_view raises when every grid axis is taken"
    fixed = dict(view.fixed)
    court = court or results_court(ds)
    label = metric_label(ds, metric)
    on_court = y is not None and {x, y} in ({"target_x", "target_y"}, {"start_x", "start_y"})

    xmin, ymin, xmax, ymax = court.bounds
    tall = (ymax - ymin) / max(xmax - xmin, 1e-9)
    colour_bar = None
    if on_court:
        fig = Figure(figsize=(7.5, 7.0))
        ax = court_ax = fig.subplots()
    else:
        fig = Figure(figsize=(11, 6.2))
        ax, court_ax, colour_bar = _panel_axes(fig, min(1.6, max(0.55, 3.0 / tall)), y is not None)
    FigureCanvasAgg(fig)

    values = np.asarray(view.values, dtype=np.float64)
    if y is not None:
        _draw_map(fig, ax, colour_bar, ds, values, metric, label, x, y, court, on_court)
    else:
        _draw_line(ax, ds, values, metric, label, x)
    if not on_court:
        draw_court_panel(court_ax, court, tall)
    draw_board_and_shot(court_ax, ds, court, [d for d in (x, y) if d])
    if not on_court:
        _clear_of_the_left_edge(fig, ax)
    if colour_bar is not None:
        _clear_of_the_bar(fig, ax, colour_bar, court_ax)
    fig.suptitle(_title(ds, metric, fixed, view.averaged), fontsize=11, y=0.993 if not on_court else 0.98)
    return fig


def _draw_map(
    fig, ax, colour_bar, ds, values, metric: str, label: str, x: str, y: str, court: Court, on_court: bool
) -> None:
    """The metric as a colour map over ``x`` and ``y`` with its colour bar; over the court itself, to
    scale and cut to the grid's reach, when the two axes are the court's coordinates."""
    xmin, ymin, xmax, ymax = court.bounds
    arr = values.T
    xs, xticks = axis_coordinates(ds, x, court_frame=on_court)
    ys, yticks = axis_coordinates(ds, y, court_frame=on_court)
    cmap, norm, vmin, vmax = _colour_norm(values, metric)
    if on_court:
        draw_court(ax, court)
    mesh = ax.pcolormesh(
        cell_edges(xs),
        cell_edges(ys),
        arr,
        cmap=cmap,
        norm=norm,
        vmin=vmin,
        vmax=vmax,
        shading="flat",
        alpha=0.85 if on_court else 1.0,
        zorder=4 if on_court else 1,
    )
    bar = fig.colorbar(mesh, cax=colour_bar) if colour_bar is not None else fig.colorbar(mesh, ax=ax, shrink=0.9)
    bar.set_label(label)
    label_ticks(ax.xaxis, ds, x, xs, xticks, on_court)
    label_ticks(ax.yaxis, ds, y, ys, yticks, on_court)
    ax.set_xlabel(axis_label(ds, x, court_frame=on_court))
    ax.set_ylabel(axis_label(ds, y, court_frame=on_court))
    if on_court:
        pad_x = 0.25 * (xs.max() - xs.min() + 1e-3)
        pad_y = 0.25 * (ys.max() - ys.min() + 1e-3)
        ax.set_xlim(max(xmin, xs.min() - pad_x), min(xmax, xs.max() + pad_x))
        ax.set_ylim(max(ymin, ys.min() - pad_y), min(ymax, ys.max() + pad_y))
        ax.set_aspect("equal")


def _draw_line(ax, ds, values, metric: str, label: str, x: str) -> None:
    """The metric over one axis: bars with their values for named values, else a line."""
    xs, xticks = axis_coordinates(ds, x)
    if xticks:
        ax.bar(xs, values, color="tab:blue")
        for xi, v in zip(xs, values):
            ax.annotate(f"{v:.3g}", (xi, v), ha="center", va="bottom", fontsize=9)
    else:
        ax.plot(xs, values, marker="o", markersize=3, color="tab:blue")
    label_ticks(ax.xaxis, ds, x, xs, xticks)
    ax.set_xlabel(axis_label(ds, x))
    ax.set_ylabel(label)
    if metric.startswith("p_"):
        ax.set_ylim(0, max(1e-9, float(np.nanmax(values)) * 1.15))
    ax.grid(alpha=0.3)


def _name_part(value) -> str:
    return str(describe_value(value) if isinstance(value, float) else value).replace("/", "-").replace(" ", "_")


def plot_file_name(
    metric: str,
    x: str | None = None,
    y: str | None = None,
    with_axes: bool = False,
    select: dict | None = None,
    average=(),
    diff=None,
) -> str:
    """The default PNG name of a plot: the metric ('p_value:10' -> 'p_value-10.png'), with its axes when
    ``with_axes``, and the selected values, averaged axes and compared values when given
    ('p_hanger-skill-expert.png', 'p_holed-diff-spin-20-0.png')."""
    base = metric.replace(":", "-").replace("/", "-").replace(" ", "_").replace(",", "+")
    if with_axes:
        base += "".join(f"-{a}" for a in (x, y) if a)
    base += "".join(f"-{k}-{_name_part(v)}" for k, v in (select or {}).items())
    if average:
        base += "-mean-" + "-".join(average)
    if diff:
        base += f"-diff-{diff[0]}-{_name_part(diff[1])}-{_name_part(diff[2])}"
    return f"{base}.png"


def default_metric(ds) -> str:
    """The metric of the plot drawn when an experiment names none: its expected value, or else its first
    outcome (a probability of its highest value, of its first board disc's removal)."""
    names = [v for v in ds.data_vars if v not in ("shots", "failed") and not v.startswith("pair_")]
    if "expected_value" in names:
        return "expected_value"
    if not names:
        return "shots"
    first = names[0]
    if first == "p_value":
        return f"p_value:{max(ds['value'].values.tolist())}"
    if first == "p_removed":
        return f"p_removed:{ds['board_disc'].values.tolist()[0]}"
    return first


#: The keys of a plot's description (``plot_specs``), as an experiment file's ``[[plots]]`` has them.
PLOT_KEYS = ("metric", "x", "y", "select", "average", "diff", "file")


def plot_specs(
    ds,
    metrics: list[str] | None = None,
    x: str | None = None,
    y: str | None = None,
    select: dict | None = None,
    average=None,
    diff=None,
) -> list[dict]:
    """The plots of grid results ``ds``: the experiment file's list (or its default plot when it has
    none), as ``shuffle-sim run`` draws them; or one per metric of ``metrics``, each drawn as the
    file's plot of that metric (or else its first plot) is drawn. ``x``, ``y``, ``select``,
    ``average`` and ``diff`` then change every plot (a changed plot gets a file name that says how).
    """
    own = json.loads(ds.attrs.get("plots", "[]")) or [{"metric": default_metric(ds)}]
    if metrics:
        chosen = []
        for metric in metrics:
            like = next((p for p in own if p["metric"] == metric), own[0])
            spec = {k: v for k, v in like.items() if k not in ("metric", "file")}
            if like["metric"] == metric and "file" in like:
                spec["file"] = like["file"]
            chosen.append(dict(spec, metric=metric))
    else:
        chosen = [dict(p) for p in own]
    changed = x is not None or y is not None or select or average or diff
    if not changed:
        return chosen
    out = []
    for spec in chosen:
        spec = dict(spec)
        spec.pop("file", None)
        if x is not None or y is not None:
            taken = [*(select or {}), *(average or ()), *([diff[0]] if diff else [])]
            spec["x"], spec["y"] = default_axes(ds, x, y, taken) if x is not None else (spec.get("x"), y)
        taken = [*(select or {}), *(average or ()), *([diff[0]] if diff else [])]
        if x is None and y is None and (spec.get("x") in taken or spec.get("y") in taken):
            # An axis the file plots is now selected, averaged or compared: the rest keep their places.
            kept = [a for a in (spec.get("x"), spec.get("y")) if a and a not in taken]
            kept_x, kept_y = ([*kept, None, None])[:2]
            spec["x"], spec["y"] = default_axes(ds, kept_x, kept_y, taken)
        plotted = {spec.get("x"), spec.get("y")}
        kept_select = {k: v for k, v in spec.get("select", {}).items() if k not in plotted}
        kept_select.update(select or {})
        kept_average = [a for a in spec.get("average", []) if a not in plotted and a not in kept_select]
        kept_average += [a for a in (average or []) if a not in kept_average]
        kept_select = {k: v for k, v in kept_select.items() if k not in kept_average}
        if diff:
            spec["diff"] = list(diff)
        compared = spec.get("diff", [None])[0]
        kept_select.pop(compared, None)
        kept_average = [a for a in kept_average if a != compared]
        spec["select"], spec["average"] = kept_select, kept_average
        spec["file"] = plot_file_name(
            spec["metric"], spec.get("x"), spec.get("y"), x is not None or y is not None, select, average, diff
        )
        out.append({k: v for k, v in spec.items() if v not in (None, {}, [])})
    return out


def draw_plot(ds, spec: dict, court: Court, specs: list[dict]):
    """The figure of one plot of ``specs`` (``plot_specs``) and its file name."""
    names = [s["metric"] for s in specs]
    diff = tuple(spec["diff"]) if spec.get("diff") else None
    fig = plot_metric(
        ds,
        spec["metric"],
        spec.get("x"),
        spec.get("y"),
        spec.get("select"),
        court=court,
        average=spec.get("average", ()),
        diff=diff,
    )
    name = spec.get("file") or plot_file_name(
        spec["metric"], spec.get("x"), spec.get("y"), with_axes=names.count(spec["metric"]) > 1, diff=diff
    )
    return fig, name


def save_plots(
    results: str | os.PathLike,
    metrics: list[str] | None = None,
    out_dir: str | os.PathLike | None = None,
    grid=None,
    x: str | None = None,
    y: str | None = None,
    select: dict | None = None,
    average=None,
    diff=None,
) -> list[Path]:
    """Draw plots of a results folder into PNG files; returns their paths.

    Without ``metrics``: the plots the experiment file lists (or its default plot, ``default_metric``
    over the first two axes, when it lists none), as ``shuffle-sim run`` draws them. With ``metrics``:
    each one as the file draws it, or else as its first plot. ``x``, ``y``, ``select``, ``average``
    and ``diff`` change every plot (``plot_specs``).
    """
    ds = grid_results(grid if grid is not None else open_results(results))
    out = Path(out_dir) if out_dir is not None else ResultsDir(results).path
    specs = plot_specs(ds, metrics, x, y, select, average, diff)
    out.mkdir(parents=True, exist_ok=True)
    court = results_court(ds)
    paths = []
    for spec in specs:
        fig, name = draw_plot(ds, spec, court, specs)
        path = out / name
        fig.savefig(path, dpi=DPI)
        paths.append(path)
    return paths
