"""``shuffle-sim plot``'s options, each checked on the drawn data: the image array or the artists'."""

from __future__ import annotations

import json

import matplotlib.image as mpimg
import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.experiment._assembly import build_grid
from shuffle_sim.experiment._runner import run_experiment
from shuffle_sim.experiment.heatmaps import plot_metric, plot_specs, save_plots
from shuffle_sim.experiment.spec import parse_experiment, possible_values
from shuffle_sim.experiment.store import ResultsDir
from tests.experiment.synthetic import cell_sums

# Three axes, so that one is always left to select, average or compare.
GRID = """
name = "three"
title = "Three axes"
court = "deck"
samples = 40
[shot]
start = ["9 in", "7.25 ft"]
[grid]
speed = {{ from = 1.6, to = 1.9, steps = 4 }}
direction = {{ from = -2.0, to = -1.0, steps = 3 }}
spin = [0.0, 2.0]
[collect]
outcomes = {outcomes}
{plots}
"""
PLOT = """
[[plots]]
metric = "p_value:10"
x = "direction"
y = "speed"
select = { spin = 2.0 }
"""


def _synthetic(outcomes='["expected_value", "p_value", "p_dead"]', plots=PLOT, seed=1):
    """Results with known per-cell sums (no simulation), as ``build_grid`` assembles them."""
    experiment = parse_experiment(GRID.format(outcomes=outcomes, plots=plots), "three.toml")
    rng = np.random.default_rng(seed)
    values = possible_values(experiment.court)
    counts = rng.multinomial(
        experiment.samples, rng.dirichlet(np.ones(len(values)), size=experiment.n_cells)[0], size=experiment.n_cells
    )
    counts[3, :] = 0  # a cell whose every shot failed
    sums = cell_sums(
        experiment,
        counts,
        failed=experiment.samples - counts.sum(axis=1),
        dead=counts[:, list(values).index(0)] // 2,
    )
    return experiment, sums, build_grid(experiment, sums)


def _mesh(fig, k=0):
    return np.asarray(fig.axes[k].collections[0].get_array())


def _grid(sums, name, experiment):
    return sums[name].reshape(experiment.grid_shape + sums[name].shape[1:])


def test_x_and_y_choose_the_axes():
    experiment, sums, ds = _synthetic()
    fig = plot_metric(ds, "expected_value", x="spin", y="speed", select={"direction": -1.5})
    heat = fig.axes[0]
    assert heat.get_xlabel() == "spin (rad/s)" and heat.get_ylabel() == "launch speed (m/s)"
    with np.errstate(invalid="ignore"):
        expected = (_grid(sums, "value_sum", experiment) / _grid(sums, "shots", experiment))[:, 1, :]  # speed x spin
    np.testing.assert_array_equal(_mesh(fig).reshape(4, 2), expected)
    assert "direction = -1.5" in fig._suptitle.get_text()


def test_select_takes_another_axis_at_its_value():
    experiment, sums, ds = _synthetic()
    fig = plot_metric(ds, "p_dead", x="direction", y="speed", select={"spin": "2"})
    with np.errstate(invalid="ignore"):
        expected = (_grid(sums, "dead", experiment) / _grid(sums, "shots", experiment))[:, :, 1]
    np.testing.assert_array_equal(_mesh(fig).reshape(4, 3), expected)
    assert "spin = 2" in fig._suptitle.get_text()


def test_average_pools_the_cells_of_an_axis():
    experiment, sums, ds = _synthetic()
    fig = plot_metric(ds, "p_value:10", x="direction", y="speed", average=["spin"])
    tens = _grid(sums, "value_counts", experiment)[..., -1].sum(axis=2)
    shots = _grid(sums, "shots", experiment).sum(axis=2)
    np.testing.assert_array_equal(_mesh(fig).reshape(4, 3), tens / shots)
    assert "averaged over spin" in fig._suptitle.get_text()


def test_a_combined_outcome_adds_the_counts():
    experiment, sums, ds = _synthetic()
    fig = plot_metric(ds, "p_value:10,8", x="direction", y="speed", select={"spin": 0})
    counts = _grid(sums, "value_counts", experiment)
    values = possible_values(experiment.court).tolist()
    both = counts[..., values.index(10)] + counts[..., values.index(8)]
    with np.errstate(invalid="ignore"):
        expected = (both / _grid(sums, "shots", experiment))[..., 0]
    np.testing.assert_array_equal(_mesh(fig).reshape(4, 3), expected)
    assert fig.axes[2].get_ylabel() == "probability the shot disc is worth 10 or 8"


def test_a_difference_is_drawn_with_its_standard_error_and_unresolved_cells_hatched():
    experiment, sums, ds = _synthetic()
    fig = plot_metric(ds, "p_value:10", x="direction", y="speed", diff=("spin", 2.0, 0.0))
    tens = _grid(sums, "value_counts", experiment)[..., -1].astype(float)
    shots = _grid(sums, "shots", experiment).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = tens / shots
        expected = p[..., 1] - p[..., 0]
        # Independent sides (spin is not paired here): Bernoulli variances over n - 1, added.
        error = np.sqrt(
            p[..., 1] * (1 - p[..., 1]) / (shots[..., 1] - 1) + p[..., 0] * (1 - p[..., 0]) / (shots[..., 0] - 1)
        )
    diff_ax, error_ax = fig.axes[0], fig.axes[1]
    np.testing.assert_array_equal(np.asarray(diff_ax.collections[0].get_array()).reshape(4, 3), expected)
    np.testing.assert_allclose(np.asarray(error_ax.collections[0].get_array()).reshape(4, 3), error, rtol=1e-12)
    hatched = diff_ax.collections[1]
    assert hatched.get_hatch() == "////"
    unresolved = np.abs(expected) <= 2 * error
    assert len(hatched.get_paths()) == int(unresolved.sum())
    assert "minus spin = 0 rad/s (independent random draws)" in fig._suptitle.get_text()
    assert diff_ax.collections[0].norm.vcenter == 0.0


def test_a_difference_over_one_axis_is_a_line_with_a_band():
    experiment, sums, ds = _synthetic()
    fig = plot_metric(ds, "expected_value", x="speed", select={"direction": -1.0}, diff=("spin", 2, 0))
    ax = fig.axes[0]
    line = next(line for line in ax.lines if line.get_label() == "difference")
    with np.errstate(invalid="ignore"):
        mean = _grid(sums, "value_sum", experiment) / _grid(sums, "shots", experiment)
    np.testing.assert_array_equal(line.get_ydata(), mean[:, 2, 1] - mean[:, 2, 0])
    band = ax.collections[0].get_paths()[0].vertices
    assert band[:, 1].max() > np.nanmax(line.get_ydata())  # two standard errors above the line somewhere


def test_the_plot_command_draws_the_run_s_own_plot_by_default(tmp_path, capsys):
    _experiment, _sums, ds = _synthetic()
    ResultsDir(tmp_path).write_grid(ds)
    (run_plot,) = save_plots(tmp_path)  # what the run drew: the file's plot, direction across
    assert run_plot.name == "p_value-10.png"
    mine = mpimg.imread(run_plot)
    run_plot.unlink()
    assert main(["plot", str(tmp_path), "--metric", "p_value:10", "--out", str(tmp_path / "again")]) == 0
    assert np.array_equal(mpimg.imread(tmp_path / "again" / "p_value-10.png"), mine)
    # Another metric takes the file's first plot's axes and selection too.
    (spec,) = plot_specs(ds, ["p_dead"])
    assert (spec["x"], spec["y"], spec["select"]) == ("direction", "speed", {"spin": 2.0})


def test_the_plot_command_s_options_draw_what_plot_metric_draws(tmp_path, capsys):
    _experiment, _sums, ds = _synthetic()
    ResultsDir(tmp_path).write_grid(ds)
    argv = [
        "plot",
        str(tmp_path),
        "--metric",
        "p_value:10,8",
        "--x",
        "speed",
        "--average",
        "direction",
        "--diff",
        "spin=2,0",
        "--out",
        str(tmp_path / "cli"),
    ]
    assert main(argv) == 0
    (path,) = (tmp_path / "cli").iterdir()
    assert path.name == "p_value-10+8-speed-mean-direction-diff-spin-2-0.png"
    fig = plot_metric(ds, "p_value:10,8", x="speed", average=["direction"], diff=("spin", "2", "0"))
    fig.savefig(tmp_path / "here.png", dpi=110)
    assert np.array_equal(mpimg.imread(path), mpimg.imread(tmp_path / "here.png"))
    assert main(["plot", str(tmp_path), "--select", "spin=2", "--out", str(tmp_path / "sel")]) == 0
    assert [p.name for p in (tmp_path / "sel").iterdir()] == ["p_value-10-spin-2.png"]
    capsys.readouterr()
    for bad, message in (
        (["--select", "spin"], "--select: expected AXIS=VALUE, got 'spin'"),
        (["--diff", "spin=2"], "--diff: expected AXIS=A,B"),
        (["--diff", "skill=a,b"], "'skill' is not a grid axis"),
        (["--average", "speed", "--x", "speed"], "axis 'speed' is both plotted and averaged"),
    ):
        assert main(["plot", str(tmp_path), *bad]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1


def test_an_experiment_without_plots_gets_a_map_of_an_outcome_not_a_shot_count():
    _, sums, ds = _synthetic(plots="")
    assert plot_specs(ds) == [{"metric": "expected_value"}]
    experiment, sums, ds = _synthetic(outcomes='["p_dead"]', plots="")
    (spec,) = plot_specs(ds)
    assert spec == {"metric": "p_dead"}
    fig = plot_metric(ds, spec["metric"])
    with np.errstate(invalid="ignore"):
        expected = (_grid(sums, "dead", experiment) / _grid(sums, "shots", experiment))[..., 0]
    np.testing.assert_array_equal(_mesh(fig).reshape(3, 4), expected.T)
    _, _, ds = _synthetic(outcomes='["p_value"]', plots="")
    assert plot_specs(ds) == [{"metric": "p_value:10"}]


def test_file_plots_can_average_and_compare(tmp_path):
    plots = (
        PLOT + '\n[[plots]]\nmetric = "p_dead"\nx = "speed"\naverage = ["direction"]\ndiff = { spin = [2.0, 0.0] }\n'
    )
    _experiment, _, ds = _synthetic(plots=plots)
    assert json.loads(ds.attrs["plots"])[1] == {
        "metric": "p_dead",
        "x": "speed",
        "average": ["direction"],
        "diff": ["spin", 2.0, 0.0],
    }
    ResultsDir(tmp_path).write_grid(ds)
    names = [p.name for p in save_plots(tmp_path)]
    assert names == ["p_value-10.png", "p_dead-diff-spin-2-0.png"]
    for bad, message in (
        ("diff = { spin = [2.0, 1.0] }", r"1.0 is not a value of grid axis spin"),
        ("diff = { spin = [2.0] }", "must be two different values"),
        ('average = ["speed"]', "neither plotted nor selected"),
    ):
        text = (
            PLOT.replace("select = { spin = 2.0 }", bad)
            if "average" in bad
            else '\n[[plots]]\nmetric = "p_dead"\nx = "speed"\naverage = ["direction"]\n' + bad + "\n"
        )
        with pytest.raises(ValueError, match=message):
            parse_experiment(GRID.format(outcomes='["p_dead", "p_value"]', plots=text), "bad.toml")


def test_run_experiment_draws_the_plots_the_command_line_draws(tmp_path):
    text = GRID.format(outcomes='["expected_value", "p_value"]', plots=PLOT).replace("samples = 40", "samples = 3")
    path = tmp_path / "three.toml"
    path.write_text(text)
    summary = run_experiment(path, tmp_path / "python", progress=False)
    assert [p.name for p in summary.plots] == ["p_value-10.png"]
    assert main(["run", str(path), "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    assert np.array_equal(mpimg.imread(summary.plots[0]), mpimg.imread(tmp_path / "cli" / "p_value-10.png"))
    quiet = run_experiment(path, tmp_path / "none", progress=False, plots=False)
    assert quiet.plots == () and not list((tmp_path / "none").glob("*.png"))
