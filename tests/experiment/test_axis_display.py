"""Plots show a grid axis in the unit the experiment file wrote it in, named and labelled, and read the
values a user names on an axis with the units the experiment file is read with."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.experiment._assembly import build_grid
from shuffle_sim.experiment._axis_display import axis_label, describe, read_value
from shuffle_sim.experiment.heatmaps import plot_metric, plot_specs
from shuffle_sim.experiment.spec import ExperimentError, parse_experiment, possible_values
from shuffle_sim.experiment.store import ResultsDir
from shuffle_sim.units import FOOT, INCH
from tests.experiment.synthetic import cell_sums
from tests.figure_checks import clipped_texts

CROWNED = """
name = "crowned"
title = "Draws on crowned courts"
court = "deck"
end = "foot"
samples = 20
[shot]
start = ["9 in", "7.25 ft"]
target = ["0 ft", "37.35 ft"]
[grid]
court_speed = ["5 s", "14 s"]
crown = ["0 in", "1/32 in", "1/16 in"]
slope_x = [0, 0.0005]
[collect]
outcomes = ["expected_value", "p_value", "p_dead"]
PLOTS
"""
PLOT = """
[[plots]]
metric = "p_value:10"
x = "slope_x"
y = "crown"
select = { court_speed = "14 s" }
"""


def _results(text: str, plots: str = PLOT, seed: int = 3):
    """Results with known per-cell counts (no simulation), as the runner assembles them."""
    experiment = parse_experiment(text.replace("PLOTS", plots), "crowned.toml")
    rng = np.random.default_rng(seed)
    values = possible_values(experiment.court)
    counts = rng.multinomial(experiment.samples, np.full(len(values), 1 / len(values)), size=experiment.n_cells)
    sums = cell_sums(experiment, counts)
    return experiment, build_grid(experiment, sums)


def _tick_labels(axis) -> list[str]:
    return [t.get_text() for t in axis.get_ticklabels()]


def test_a_crown_written_in_inches_is_shown_in_inches_everywhere():
    _, ds = _results(CROWNED)
    assert ds["crown"].values[1] == pytest.approx(INCH / 32, rel=1e-12)  # SI in the results
    assert ds["crown"].attrs["display_units"] == "in"
    fig = plot_metric(ds, "p_value:10", x="slope_x", y="crown", select={"court_speed": "14 s"})
    heat = fig.axes[0]
    assert heat.get_ylabel() == "crown (middle below the long sides) (in)"
    assert _tick_labels(heat.yaxis) == ["0", "1/32", "1/16"]
    assert heat.get_xlabel() == "grade toward +x (gx) (per 1000)"
    title = fig.get_suptitle()
    assert "court_speed = 14 s" in title
    fig = plot_metric(ds, "p_value:10", x="slope_x", select={"court_speed": "5 s", "crown": "1/32 in"})
    assert "crown = 1/32 in" in fig.get_suptitle() and "court_speed = 5 s" in fig.get_suptitle()
    assert "0.00079" not in fig.get_suptitle()


@pytest.mark.parametrize("y", ["crown", "slope_x", "court_speed"])
def test_no_label_or_title_of_a_map_is_cut_off(y):
    _, ds = _results(CROWNED)
    x = "slope_x" if y != "slope_x" else "crown"
    for fig in (
        plot_metric(ds, "p_value:10", x=x, y=y),
        plot_metric(ds, "p_value:10", x=x),
        plot_metric(ds, "p_value:10", x=x, diff=(y, ds[y].values[-1], ds[y].values[0])),
    ):
        assert clipped_texts(fig) == []


def test_the_difference_of_two_crowns_is_titled_in_inches():
    _, ds = _results(CROWNED)
    fig = plot_metric(ds, "expected_value", x="slope_x", diff=("crown", "1/16 in", "0 in"))
    assert "crown = 1/16 in minus crown = 0 in" in fig.get_suptitle()


def test_a_length_axis_is_shown_in_the_unit_written_or_in_metres():
    text = CROWNED.replace('crown = ["0 in", "1/32 in", "1/16 in"]', 'start_x = ["6 in", "1 ft"]')
    plots = '[[plots]]\nmetric = "p_dead"\nx = "start_x"\nselect = { court_speed = "5 s", slope_x = 0 }\n'
    _, ds = _results(text.replace('["6 in", "1 ft"]', '["0.5 ft", "1 ft"]'), plots)
    assert axis_label(ds, "start_x") == "start x (ft)"
    assert describe(ds, "start_x", 0.5 * FOOT) == "0.5 ft"
    _, ds = _results(text.replace('["6 in", "1 ft"]', "[0.1, 0.2]"), plots)
    assert axis_label(ds, "start_x") == "start x (m)"
    _, ds = _results(text, plots)  # two units: SI
    assert axis_label(ds, "start_x") == "start x (m)"


def test_values_are_read_with_their_units_or_as_si_numbers():
    _, ds = _results(CROWNED)
    assert read_value(ds, "crown", "1/32 in") == pytest.approx(INCH / 32)
    assert read_value(ds, "crown", "0.0015875") == pytest.approx(0.0015875)
    assert read_value(ds, "court_speed", "14 s") == 14.0
    assert read_value(ds, "court_speed", "14") == 14.0
    with pytest.raises(ExperimentError, match=r"crown '1/32 parsec': unknown unit .* \(choose from 0 in, 1/32 in"):
        read_value(ds, "crown", "1/32 parsec")
    with pytest.raises(ExperimentError, match=r"slope_x 'steep': not a number \(choose from 0, 0.0005\)"):
        read_value(ds, "slope_x", "steep")


def test_the_plot_command_selects_and_compares_crowns_by_their_length(tmp_path, capsys):
    _, ds = _results(CROWNED)
    ResultsDir(tmp_path).write_grid(ds)
    out = tmp_path / "plots"
    argv = ["plot", str(tmp_path), "--metric", "p_dead", "--x", "slope_x", "--out", str(out)]
    assert main([*argv, "--select", "crown=1/32 in", "--select", "court_speed=14 s"]) == 0
    assert main([*argv, "--diff", "crown=1/16 in,0 in", "--select", "court_speed=5 s"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "p_dead-slope_x-court_speed-5_s-diff-crown-1-16_in-0_in.png",
        "p_dead-slope_x-crown-1-32_in-court_speed-14_s.png",
    ]
    capsys.readouterr()
    assert main([*argv, "--select", "crown=1/32 furlong"]) == 2
    err = capsys.readouterr().err.strip()
    assert "crown '1/32 furlong'" in err and "choose from 0 in, 1/32 in, 1/16 in" in err
    assert len(err.splitlines()) == 1


def test_an_axis_of_one_value_needs_no_select():
    text = CROWNED.replace('court_speed = ["5 s", "14 s"]', 'court_speed = ["14 s"]')
    plots = '[[plots]]\nmetric = "p_value:10"\nx = "slope_x"\ny = "crown"\n'
    experiment, ds = _results(text, plots)
    assert experiment.plots[0].select == {}
    fig = plot_metric(ds, "p_value:10", x="slope_x", y="crown")
    assert "court_speed = 14 s" in fig.get_suptitle()
    # An axis of several values still needs one.
    with pytest.raises(ExperimentError, match=r"choose a value for every axis not plotted, or average it \(crown\)"):
        parse_experiment(text.replace("PLOTS", plots.replace('y = "crown"\n', "")), "crowned.toml")


def test_default_plots_go_over_the_axes_with_more_than_one_value():
    text = CROWNED.replace('court_speed = ["5 s", "14 s"]', 'court_speed = ["14 s"]')
    experiment, ds = _results(text, plots="")
    assert plot_specs(ds) == [{"metric": "expected_value"}]
    fig = plot_metric(ds, "expected_value")
    assert fig.axes[0].get_xlabel().startswith("crown") and fig.axes[0].get_ylabel().startswith("grade")
    plots = '[[plots]]\nmetric = "p_dead"\n'
    experiment, _ = _results(text, plots)
    assert (experiment.plots[0].x, experiment.plots[0].y) == ("crown", "slope_x")
