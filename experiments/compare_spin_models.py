"""Run experiment files under both spin models and compare their outcome grids cell by cell.

The coupled model (Farkas, Bartels, Unger, Wolf, PRL 90, 248302, 2003; docs/design.md, 3) is every
court's default; the decoupled one (spin decays on its own, translation brakes at mu g whatever the
spin) is kept for comparison. This runs each experiment twice, with ``[params] spin_model`` set to
each model, on the same seed (so with the same random draws: every difference is the physics), and
prints, per metric of the file's plots, how many cells change, by how much and where, and draws the
difference map (coupled minus decoupled; none when no cell changes) with the project's heatmap code::

    python experiments/compare_spin_models.py experiments/deck-draw.toml experiments/deck-takeout.toml \\
        --out results/spin-models --figures docs/coupled-friction

Results go to OUT/NAME-coupled and OUT/NAME-decoupled (each with its own experiment.toml as run, the
``[params]`` table included); the difference maps to FIGURES/NAME-METRIC.png. docs/coupled-friction.md
gives the findings.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from pathlib import Path

import numpy as np
from matplotlib.colors import Normalize

from shuffle_sim.court.materials import SPIN_MODELS
from shuffle_sim.experiment import run_experiment
from shuffle_sim.experiment.heatmaps import (
    DPI,
    metric_data,
    plot_file_name,
    plot_metric,
)
from shuffle_sim.experiment.spec import parse_experiment

#: Coarse bands per grid axis in the "where" table (mean change per band).
BANDS = 4


def with_spin_model(text: str, model: str) -> str:
    """The experiment file's text with ``[params] spin_model = model`` (added, or replacing the file's)."""
    params = tomllib.loads(text).get("params", {})
    line = f'spin_model = "{model}"'
    if "spin_model" in params:
        return re.sub(r"(?m)^\s*spin_model\s*=.*$", line, text, count=1)
    if params:
        return re.sub(r"(?m)^\[params\]\s*$", "[params]\n" + line, text, count=1)
    return text.rstrip("\n") + f"\n\n[params]\n{line}\n"


def with_spin_spread(text: str, sd: float) -> str:
    """The experiment file's text with the launch spin drawn per shot, normal with mean 0 and ``sd`` rad/s,
    and ``-spinSD`` added to its name (results of their own)."""
    data = tomllib.loads(text)
    if "spin" in data.get("distributions", {}) or "spin" in data.get("grid", {}):
        raise SystemExit("--spin-spread: the file already sweeps or draws the spin")
    if "distributions" in data:
        raise SystemExit("--spin-spread: the file has a [distributions] table; add the spin there instead")
    name = f"{data['name']}-spin{sd:g}"
    text = re.sub(r"(?m)^name\s*=.*$", f'name = "{name}"', text, count=1)
    return text.rstrip("\n") + f"\n\n[distributions]\nspin = {{ normal = [0.0, {sd!r}] }}\n"


def run_both(path: Path, out: Path, spin_spread: float | None = None) -> dict:
    """The results dataset of the experiment under each spin model, computed into OUT/NAME-MODEL."""
    text = path.read_text()
    if spin_spread is not None:
        text = with_spin_spread(text, spin_spread)
    datasets = {}
    for model in SPIN_MODELS:
        experiment = parse_experiment(with_spin_model(text, model), str(path), path.parent)
        summary = run_experiment(experiment, out / f"{experiment.name}-{model}", progress=False)
        print(f"{experiment.name} ({model}): {summary.n_shots:,} shots in {summary.seconds:.1f} s")
        datasets[model] = summary.grid.to_xarray()
    return datasets


def metric_array(ds, metric: str):
    """The metric's values (``heatmaps.metric_data``) as an ``xarray.DataArray`` over the grid axes."""
    import xarray as xr

    variable = metric_data(ds, metric)
    return xr.DataArray(variable.values, dims=variable.dims, coords={d: ds[d].values for d in variable.dims})


def _band_table(change, dims: list[str]) -> str:
    """Mean change over (up to) BANDS x BANDS blocks of a two-axis grid (rows: the slower axis)."""
    if len(dims) != 2:
        return ""
    x, y = dims[1], dims[0]  # x: the faster axis, as in the plots' default layout (direction across)
    arr = change.transpose(y, x).values
    xs, ys = change[x].values, change[y].values
    rows = np.array_split(np.arange(len(ys)), min(BANDS, len(ys)))
    cols = np.array_split(np.arange(len(xs)), min(BANDS, len(xs)))
    corner = f"{y} \\ {x}"
    head = f"{corner:>22s}" + "".join(f"{f'{xs[c[0]]:.2f}..{xs[c[-1]]:.2f}':>14s}" for c in cols)
    lines = [head]
    for r in rows[::-1]:
        cells = [np.nanmean(arr[np.ix_(r, c)]) for c in cols]
        lines.append(f"{f'{ys[r[0]]:.2f}..{ys[r[-1]]:.2f}':>22s}" + "".join(f"{v:+14.4f}" for v in cells))
    return "\n".join(lines)


def _centroid(data, dim: str) -> float:
    """The mean of grid axis ``dim`` weighted by a non-negative metric (where its mass lies)."""
    weights = data.fillna(0.0)
    return float((weights * data[dim]).sum() / weights.sum())


def compare(datasets: dict, metric: str) -> tuple[object, str]:
    """The change (coupled minus decoupled) of ``metric`` per cell, and a text summary of it."""
    coupled, decoupled = (metric_array(datasets[m], metric) for m in ("coupled", "decoupled"))
    change = coupled - decoupled
    values = change.values
    finite = np.isfinite(values)
    samples = int(datasets["coupled"].attrs["samples_per_cell"])
    changed = int(np.count_nonzero(values[finite]))
    step = 1.0 / samples  # one shot of a cell changing its outcome moves a probability by this much
    dims = list(change.dims)
    lines = [f"{metric}: {values.size} cells, {changed} change"]
    if metric.startswith("p_"):
        big = int(np.count_nonzero(np.abs(values[finite]) > 2.5 * step))
        lines[0] += f", {big} by three or more of the cell's {samples} shots"
    if changed:
        worst = np.unravel_index(np.nanargmax(np.abs(values)), values.shape)
        where = ", ".join(f"{d} {change[d].values[i]:.3f}" for d, i in zip(dims, worst))
        lines.append(
            f"  grid mean {np.nanmean(coupled.values):.4f} (coupled) vs {np.nanmean(decoupled.values):.4f} "
            f"(decoupled); change: mean {np.nanmean(values):+.4f}, mean |change| "
            f"{np.nanmean(np.abs(values)):.4f}, largest {values[worst]:+.4f} at {where}"
        )
        if np.all(coupled.values[np.isfinite(coupled.values)] >= 0):
            lines.append(
                "  centre of mass: "
                + "; ".join(
                    f"{d} {_centroid(decoupled, d):.4f} -> {_centroid(coupled, d):.4f}"
                    for d in dims
                    if np.issubdtype(change[d].dtype, np.number)
                )
            )
        lines.append(_band_table(change, dims))
    return change, "\n".join(line for line in lines if line)


def difference_dataset(datasets: dict, metric: str):
    """A dataset holding the change of ``metric`` as a variable, for ``plot_metric`` to draw."""
    name, _, label = metric.partition(":")
    ds = datasets["coupled"].copy()
    var = f"change_{name}"
    full = ds[name] - datasets["decoupled"][name]
    full.attrs = {
        "long_name": f"{ds[name].attrs.get('long_name', name)}: coupled minus decoupled",
        "units": ds[name].attrs.get("units", "1"),
    }
    ds[var] = full
    ds.attrs["title"] = f"{ds.attrs['title']}: coupled minus decoupled spin model"
    return ds, f"{var}:{label}" if label else var


def _symmetric_colours(fig, change) -> None:
    """Colours of a difference map centred on no change and symmetric (plot_metric scales each sign
    to its own extreme, right for signed quantities, misleading for a change)."""
    limit = float(np.nanmax(np.abs(change.values))) if np.isfinite(change.values).any() else 0.0
    mesh = fig.axes[0].collections[0]
    mesh.set_cmap("RdBu_r")
    mesh.set_norm(Normalize(vmin=-limit or -1e-9, vmax=limit or 1e-9))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python experiments/compare_spin_models.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("experiments", nargs="+", type=Path, help="experiment files (TOML)")
    parser.add_argument("--out", type=Path, default=Path("results/spin-models"), help="results folder root")
    parser.add_argument("--figures", type=Path, default=None, help="folder for the difference maps (PNG)")
    parser.add_argument(
        "--metric",
        action="append",
        default=None,
        help="a metric to compare besides those of the file's plots (repeatable)",
    )
    parser.add_argument(
        "--spin-spread",
        type=float,
        default=None,
        metavar="SD",
        help="also draw each shot's launch spin, normal with mean 0 and SD rad/s (a player's twist)",
    )
    args = parser.parse_args(argv)
    for path in args.experiments:
        datasets = run_both(path, args.out, args.spin_spread)
        specs = json.loads(datasets["coupled"].attrs["plots"])
        axes = {k: specs[0][k] for k in ("x", "y", "select") if specs and k in specs[0]}  # extra metrics drawn alike
        specs += [{"metric": m, **axes} for m in args.metric or []]
        for spec in specs:
            change, text = compare(datasets, spec["metric"])
            print(text)
            if args.figures is not None and np.nanmax(np.abs(change.values), initial=0.0) > 0:
                ds, metric = difference_dataset(datasets, spec["metric"])
                fig = plot_metric(ds, metric, spec.get("x"), spec.get("y"), spec.get("select"))
                _symmetric_colours(fig, change)
                args.figures.mkdir(parents=True, exist_ok=True)
                target = (
                    args.figures / f"{datasets['coupled'].attrs['experiment_name']}-{plot_file_name(spec['metric'])}"
                )
                fig.savefig(target, dpi=DPI)
                print(f"  figure: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
