"""Outcome maps: the drawn data is the results' data, the right way round, named and with units."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim.experiment._assembly import build_dataset
from shuffle_sim.experiment.heatmaps import metric_data, plot_metric, save_plots
from shuffle_sim.experiment.spec import ExperimentError, parse_experiment, possible_values
from shuffle_sim.experiment.store import ResultsDir
from tests.experiment.synthetic import cell_sums

DECK = """
name = "map"
title = "Synthetic map"
court = "deck"
samples = 10
[shot]
start = ["9 in", "7.25 ft"]
[grid]
speed = { from = 1.6, to = 1.9, steps = 4 }
direction = { from = -2.0, to = -1.0, steps = 3 }
[collect]
outcomes = ["expected_value", "p_value", "p_dead"]
[[plots]]
metric = "p_value:10"
x = "direction"
y = "speed"
"""


def _synthetic(text: str, seed: int = 0):
    """A results dataset with known per-cell sums (no simulation): every cell's counts add up to its shots."""
    exp = parse_experiment(text, "synthetic.toml")
    rng = np.random.default_rng(seed)
    values = possible_values(exp.court)
    counts = rng.multinomial(exp.samples, np.full(len(values), 1 / len(values)), size=exp.n_cells)
    sums = cell_sums(exp, counts, holed=rng.integers(0, exp.samples + 1, exp.n_cells))
    return exp, build_dataset(exp, sums)


def test_heat_map_shows_the_data_with_names_and_units():
    _exp, ds = _synthetic(DECK)
    fig = plot_metric(ds, "p_value:10", x="direction", y="speed")
    heat, court_ax, bar = fig.axes[0], fig.axes[1], fig.axes[2]
    assert heat.get_xlabel() == "direction (from +y toward +x) (deg)"
    assert heat.get_ylabel() == "launch speed (m/s)"
    assert bar.get_ylabel() == "probability the shot disc is worth 10"
    title = fig._suptitle.get_text()
    assert "Synthetic map" in title and "120 shots" in title and "10 per cell" in title
    mesh = heat.collections[0]
    expected = ds["p_value"].sel(value=10).transpose("speed", "direction").values
    np.testing.assert_allclose(np.asarray(mesh.get_array()).reshape(expected.shape), expected)
    # Cells are centred on the grid values.
    x0, x1 = heat.get_xlim()
    assert x0 == pytest.approx(-2.25) and x1 == pytest.approx(-0.75)
    assert court_ax.lines  # the shot's start and directions on the court


def test_expected_value_with_negative_values_is_centred_on_zero():
    _exp, ds = _synthetic(DECK)
    ds["expected_value"][0, 0] = -5.0
    fig = plot_metric(ds, "expected_value")
    mesh = fig.axes[0].collections[0]
    assert mesh.norm.vcenter == 0.0
    assert fig.axes[2].get_ylabel() == "expected value of the shot disc (points)"


def test_skill_axis_draws_bars_of_the_values():
    text = """
name = "c"
title = "Open 20"
court = "crokinole"
samples = 50
[shot]
start = ["0 in", "-12 in"]
target = ["0 in", "0 in"]
[grid]
skill = ["exact", "novice", "top competitive"]
[collect]
outcomes = ["p_holed"]
"""
    _exp, ds = _synthetic(text)
    fig = plot_metric(ds, "p_holed", x="skill")
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    np.testing.assert_allclose(heights, ds["p_holed"].values)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["exact", "novice", "top competitive"]
    assert ax.get_ylabel() == "probability the shot disc is holed"


def test_aim_point_map_is_drawn_on_the_court():
    text = """
name = "aim"
title = "Aim points"
court = "crokinole"
samples = 5
[shot]
start = ["0 in", "-12 in"]
target = ["0 in", "0 in"]
[grid]
target_x = { from = "-2 in", to = "2 in", steps = 5 }
target_y = { from = "-2 in", to = "2 in", steps = 4 }
[collect]
outcomes = ["p_holed"]
"""
    _exp, ds = _synthetic(text)
    fig = plot_metric(ds, "p_holed", x="target_x", y="target_y")
    assert len(fig.axes) == 2  # the court with the map on it, and the colour bar
    ax = fig.axes[0]
    assert ax.get_xlabel() == "aim point x (m)" and ax.get_aspect() == 1.0
    expected = ds["p_holed"].transpose("target_y", "target_x").values
    meshes = [
        c
        for c in ax.collections
        if hasattr(c, "get_array") and c.get_array() is not None and np.asarray(c.get_array()).size == expected.size
    ]
    np.testing.assert_allclose(np.asarray(meshes[-1].get_array()).reshape(expected.shape), expected)


def test_metric_errors_are_clear():
    _exp, ds = _synthetic(DECK)
    with pytest.raises(ExperimentError, match="no metric 'p_win'"):
        metric_data(ds, "p_win")
    with pytest.raises(ExperimentError, match="needs a label: one of p_value:-10, p_value:0"):
        metric_data(ds, "p_value")
    with pytest.raises(ExperimentError, match="no value '11'"):
        metric_data(ds, "p_value:11")
    with pytest.raises(ExperimentError, match="takes no ':' label"):
        metric_data(ds, "p_dead:3")
    with pytest.raises(ExperimentError, match="'spin' is not a grid axis"):
        plot_metric(ds, "p_dead", x="spin")


def test_save_plots_writes_the_experiments_plots(tmp_path):
    _exp, ds = _synthetic(DECK)
    ResultsDir(tmp_path).write_grid(ds)
    paths = save_plots(tmp_path)
    assert [p.name for p in paths] == ["p_value-10.png"]
    assert paths[0].stat().st_size > 20_000
    paths = save_plots(tmp_path, metrics=["p_dead", "expected_value"], out_dir=tmp_path / "more")
    assert sorted(p.name for p in paths) == ["expected_value.png", "p_dead.png"]


def _same_pixels(a, b) -> bool:
    import matplotlib.image as mpimg

    return np.array_equal(mpimg.imread(a), mpimg.imread(b))


def test_plot_helper_draws_what_save_plots_draws_here(tmp_path):
    from shuffle_sim.experiment._grid_file import GridResults
    from shuffle_sim.experiment._plot_helper import PlotHelper

    _, ds = _synthetic(DECK)
    grid = GridResults.from_xarray(ds)
    here = save_plots(tmp_path / "here", grid=grid, out_dir=tmp_path / "here")
    with PlotHelper() as helper:
        assert helper.process is not None
        helper.draw(tmp_path / "there", grid)
        there = helper.paths()
    assert [p.name for p in there] == [p.name for p in here] == ["p_value-10.png"]
    assert all(p.parent == tmp_path / "there" for p in there)
    assert all(_same_pixels(a, b) for a, b in zip(here, there))


def test_plot_helper_reports_a_plot_that_cannot_be_drawn_and_draws_here_without_a_process(tmp_path):
    import json

    from shuffle_sim.experiment._grid_file import GridResults
    from shuffle_sim.experiment._plot_helper import PlotHelper

    _, ds = _synthetic(DECK)
    grid = GridResults.from_xarray(ds)
    grid.attrs["plots"] = json.dumps([{"metric": "p_win"}])
    with PlotHelper() as helper:
        helper.draw(tmp_path, grid)
        with pytest.raises(ExperimentError, match="no metric 'p_win'"):
            helper.paths()
    grid.attrs["plots"] = json.dumps([{"metric": "p_dead"}])
    with PlotHelper() as helper:
        helper.close()  # no helper process: the plots are drawn in this one
        helper.draw(tmp_path, grid)
        assert [p.name for p in helper.paths()] == ["p_dead.png"]
    assert (tmp_path / "p_dead.png").stat().st_size > 20_000


@pytest.mark.parametrize(
    "cores, load, running, spare",
    [
        (2, 0.4, 0, True),  # idle
        (2, 1.0, 0, True),  # the average still counts the commands that ran before; none runs now
        (2, 1.0, 1, False),  # another job holds one of the two cores
        (2, 1.6, 2, False),
        (2, 0.2, 3, True),  # short tasks caught in passing by the count; the average says idle
        (2, 0.4, float("inf"), True),  # no count (not Linux): the average alone
        (2, 1.0, float("inf"), False),
        (1, 0.0, 0, False),
        (4, 2.9, 2, True),
        (4, 3.2, 3, False),
    ],
)
def test_the_plot_helper_is_used_only_with_a_core_to_spare(monkeypatch, cores, load, running, spare):
    from shuffle_sim._runtime import helper_process

    monkeypatch.setattr(helper_process.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(helper_process.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(helper_process, "other_tasks_running", lambda: running)
    assert helper_process.core_to_spare() is spare


def test_the_count_of_other_running_tasks_reads_the_kernel_s_figure(monkeypatch, tmp_path):
    from shuffle_sim._runtime import helper_process

    fake = tmp_path / "loadavg"
    fake.write_text("0.97 0.96 0.96 3/78 16197\n")
    real_open = open
    monkeypatch.setattr(
        "builtins.open", lambda path, *a, **k: real_open(fake if path == "/proc/loadavg" else path, *a, **k)
    )
    assert helper_process.other_tasks_running() == 2  # three running, this process one of them
    fake.write_text("garbled\n")
    assert helper_process.other_tasks_running() == float("inf")


def test_the_helper_s_rehearsal_stops_for_the_results_and_draws_every_plot_without_them(monkeypatch):
    import queue

    from shuffle_sim.experiment import heatmaps
    from shuffle_sim.experiment._grid_file import GridResults
    from shuffle_sim.experiment._plot_helper import _rehearse

    _, ds = _synthetic(DECK + '\n[[plots]]\nmetric = "expected_value"\nx = "direction"\ny = "speed"\n')
    grid = GridResults.from_xarray(ds)
    drawn = []
    real = heatmaps.draw_plot
    monkeypatch.setattr(heatmaps, "draw_plot", lambda ds, spec, *a: drawn.append(spec["metric"]) or real(ds, spec, *a))
    messages = queue.Queue()
    assert _rehearse(grid, messages) is None  # nothing came: both plots rehearsed
    assert drawn == ["p_value:10", "expected_value"]
    drawn.clear()
    results = ("draw", "folder", grid)
    messages.put(results)
    assert _rehearse(grid, messages) is results  # the results came first: no rehearsal
    assert drawn == []
