"""The figures of docs/court-speed.md, "A graded court": how far a cross grade moves the draw to the 10.

Runs experiments/deck-grade.toml (the deck draw to the far 10 on a 5 s and a 14 s court, the court
falling toward +x by 0 to 1 in 1000) unless its results are already in ``--results``, and prints per
cell: the mean sideways shift of the rest point from the same execution on the true court (the cells
are paired, so each grade replays the true court's executions), its standard error, the estimate
s d / (2 mu) of a disc sliding without spin (docs/court-speed.md), their ratio, and P(10)::

    python experiments/deck_grade_drift.py --results results/deck-grade

With ``--figure FILE`` it also draws the shift against the grade, simulated and estimated.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from shuffle_sim.experiment import run_experiment
from shuffle_sim.experiment.spec import load_experiment
from shuffle_sim.experiment.store import open_results

EXPERIMENT = Path(__file__).with_name("deck-grade.toml")


def drift_table(results: Path) -> pd.DataFrame:
    """Per (court speed, grade): mean shift, its standard error, the estimate, and P(10)."""
    experiment = load_experiment(EXPERIMENT)
    if not (results / "shots.parquet").is_file():
        run_experiment(experiment, results, progress=False)
    shots = pd.read_parquet(results / "shots.parquet")
    shot = experiment.shot
    distance = math.hypot(shot["target_x"] - shot["start_x"], shot["target_y"] - shot["start_y"])
    grid = open_results(results)
    mu = dict(zip(grid["court_speed"].values.tolist(), grid["court_mu"].values.tolist()))
    true = shots[shots.grid_slope_x == 0.0].set_index(["grid_court_speed", "draw"]).x
    shots = shots.join(true.rename("x_true"), on=["grid_court_speed", "draw"])
    shots["shift"] = shots.x - shots.x_true
    table = shots.groupby(["grid_court_speed", "grid_slope_x"]).agg(
        shift=("shift", "mean"), sd=("shift", "std"), n=("shift", "size"), p10=("value", lambda v: (v == 10).mean())
    )
    table["se"] = table.sd / np.sqrt(table.n)
    speeds = table.index.get_level_values(0)
    grades = table.index.get_level_values(1)
    table["mu"] = [mu[float(t)] for t in speeds]
    table["estimate"] = grades * distance / (2.0 * table.mu)
    table["ratio"] = table["shift"] / table.estimate
    return table.drop(columns=["sd"])


def draw(table: pd.DataFrame, path: Path) -> None:
    """The mean shift and P(10) against the grade, both courts: simulated points, the estimate's line."""
    fig = Figure(figsize=(10.0, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    shift_ax, ten_ax = fig.subplots(1, 2)
    for (speed, rows), colour in zip(table.groupby(level=0), ("tab:blue", "tab:red")):
        grade = rows.index.get_level_values(1) * 1000.0
        shift_ax.plot(grade, rows["shift"] * 100, "o", color=colour, label=f"{speed:g} s court: simulated")
        shift_ax.plot(
            grade, rows.estimate * 100, "-", color=colour, alpha=0.6, label=f"{speed:g} s court: s d / (2 mu)"
        )
        ten_ax.plot(grade, rows.p10, "o-", color=colour, label=f"{speed:g} s court")
    shift_ax.set_ylabel("mean sideways shift of the rest point (cm)")
    shift_ax.set_title("Drift of the same executions against the true court", fontsize=10)
    ten_ax.set_ylabel("probability of a 10")
    ten_ax.set_ylim(0, None)
    ten_ax.set_title("Chance of a 10 (average player, aim unchanged)", fontsize=10)
    for ax in (shift_ax, ten_ax):
        ax.set_xlabel("cross grade toward +x (per 1000)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Deck draw to the far 10 (9.18 m slide) on a cross grade", fontsize=11)
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results/deck-grade"))
    parser.add_argument("--figure", type=Path)
    args = parser.parse_args()
    table = drift_table(args.results)
    with pd.option_context("display.float_format", "{:.5g}".format, "display.width", 160, "display.max_columns", 20):
        print(table)
    if args.figure:
        draw(table, args.figure)


if __name__ == "__main__":
    main()
