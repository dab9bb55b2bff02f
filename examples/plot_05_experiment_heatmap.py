"""
A small experiment and its heatmap
==================================

An experiment file (:doc:`/formats/experiments`) sweeps the intended shot over a grid and plays
every grid cell many times under a player's execution errors. This one is a small version of the
ready deck draw (``experiments/deck-draw.toml``): 30 launch speeds x 24 directions, 80 noisy shots
a cell, 57,600 shots from the head's 10-off area at the far scoring diagram. The run writes
``grid.nc`` and its plots into a results folder (:doc:`/formats/results`), as ``shuffle-sim run``
does.
"""

import tempfile
from pathlib import Path

from shuffle_sim.experiment import run_experiment
from shuffle_sim.experiment.heatmaps import plot_metric
from shuffle_sim.experiment.spec import parse_experiment

EXPERIMENT = """
name = "small-deck-draw"
title = "Deck draw, average player"
court = "deck"
seed = 7
samples = 80

[shot]
start = ["9 in", "7 ft 3 in"]
team = "yellow"

[grid]
speed = { from = 1.5, to = 1.95, steps = 30 }
direction = { from = -2.4, to = -0.6, steps = 24 }

[noise]
preset = "average"

[collect]
outcomes = ["expected_value", "p_value", "p_dead"]
"""

experiment = parse_experiment(EXPERIMENT)
with tempfile.TemporaryDirectory() as folder:
    run = run_experiment(experiment, Path(folder) / "small-deck-draw", progress=False)
    print(f"{run.n_shots:,} shots in {run.seconds:.2f} s, results in {run.grid_path.name}")
    results = run.grid

# %%
# The expected value of the shot disc over the grid, with the court alongside (the heatmaps that
# ``shuffle-sim run`` and ``shuffle-sim plot`` draw). The best speeds form a band a few hundredths
# of a metre per second wide; direction errors blur it sideways.
plot_metric(results, "expected_value", x="direction", y="speed").savefig("expected-value.png", dpi=90)

# %%
# The chance of a 10 (``p_value:10``), and the best cell.
plot_metric(results, "p_value:10", x="direction", y="speed").savefig("chance-of-a-10.png", dpi=90)
p10 = results["p_value"].values[:, :, list(results["value"].values).index(10)]
i, j = divmod(int(p10.argmax()), p10.shape[1])
print(
    f"best cell: speed {results['speed'].values[i]:.3f} m/s, direction {results['direction'].values[j]:.2f} deg, "
    f"chance of a 10 {p10[i, j]:.2f}"
)
