"""The surface's shape as experiment axes (``grid.slope_x``, ``grid.slope_y``, ``grid.crown``): each cell
on its own court, a true-court cell bit for bit the flat experiment's, the drift where the grade
points and as far as a sliding disc's closed form says, whatever the chunking; and the errors of an
axis given wrongly."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.integrate import solve_ivp

from shuffle_sim.calibrate.forward import rest_and_time
from shuffle_sim.experiment import run_experiment
from shuffle_sim.experiment._chunks import compute_chunk
from shuffle_sim.experiment.spec import ExperimentError, parse_experiment

BASE = """
name = "grades"
court = "deck"
end = "foot"
seed = 11
samples = SAMPLES
PAIRED
[shot]
start = ["START_X", "7.25 ft"]
target = ["0 ft", "37.35 ft"]
team = "yellow"
[grid]
AXIS
NOISE
[collect]
outcomes = ["expected_value", "p_value", "p_dead"]
records = RECORDS
"""


def experiment(
    axis="slope_x = [0, 0.001]",
    samples=1,
    noise='[noise]\npreset = "exact"',
    paired="",
    records="false",
    start_x="9 in",
    extra="",
):
    text = (
        BASE.replace("SAMPLES", str(samples))
        .replace("PAIRED", paired)
        .replace("AXIS", axis)
        .replace("NOISE", noise)
        .replace("RECORDS", records)
        .replace("START_X", start_x)
    ) + extra
    return parse_experiment(text, "grades.toml")


def test_the_axes_read_grades_as_numbers_and_crowns_as_lengths():
    exp = experiment(
        axis="slope_x = [0, 0.001]\nslope_y = { from = -0.0005, to = 0.0005, steps = 3 }\n"
        'crown = ["-1/16 in", "0 in", "1/32 in"]'
    )
    assert exp.grid_shape == (2, 3, 3)
    courts = exp.courts()
    assert len(courts) == 18
    # Court index: C order over the court axes, as the grid's cells run.
    last = courts[-1].surface_shape
    assert last.slope == (0.001, 0.0005)
    assert last.crown == pytest.approx(0.0254 / 32, rel=1e-12)
    assert courts[0].surface_shape.slope == (0.0, -0.0005)
    assert courts[0].surface_shape.crown == pytest.approx(-0.0254 / 16, rel=1e-12)
    assert courts[4].surface_shape.flat  # slope (0, 0), crown 0: the true court


def test_a_swept_component_keeps_the_courts_other_one():
    exp = experiment(extra="[params]\nslope = [0.0, 0.0004]\n")
    assert [c.surface_shape.slope for c in exp.courts()] == [(0.0, 0.0004), (0.001, 0.0004)]


def test_grade_and_court_speed_axes_together_set_both():
    exp = experiment(axis='court_speed = ["5 s", "14 s"]\nslope_x = [0, 0.001]')
    mus = [c.params["mu"] for c in exp.courts()]
    assert mus[0] == mus[1] > mus[2] == mus[3]
    assert [c.surface_shape.slope[0] for c in exp.courts()] == [0.0, 0.001, 0.0, 0.001]


@pytest.mark.parametrize(
    "axis, extra, message",
    [
        ('slope_x = ["1/1000"]', "", r"grid\.slope_x\[0\]: must be a finite number \(got '1/1000'\)"),
        ("slope_y = [0, nan]", "", r"grid\.slope_y\[1\]: must be a finite number"),
        ('crown = ["1/16 parsec"]', "", r"grid\.crown\[0\]: .*unit"),
        ("slope_x = [0, 0, 0.001]", "", r"grid\.slope_x: values must not repeat"),
        (
            'court_speed = ["5 s", "14 s"]\nslope_x = [0, 0.02]',
            "",
            r"grid\.slope_x\[1\]: the cell court_speed = 14 s, slope_x = 0\.02: the surface is steeper than its "
            r"friction: .* a disc would never come to rest \(got 0\.02\)",
        ),
        (
            'crown = ["1 in"]',
            "",
            r"grid\.crown\[0\]: the cell crown = 1 in: the surface is steeper than its friction",
        ),
        ('crown = ["1/16 in"]', '[params]\ncrown = "1/32 in"\n', r"params\.crown: the grid's crown axis sets"),
        ("slope_x = [0]", "[distributions]\nslope_y = { uniform = [0, 0.001] }\n", r"distributions\.slope_y: unknown"),
    ],
)
def test_a_bad_axis_names_the_key_and_the_value(axis, extra, message):
    with pytest.raises(ExperimentError, match=message):
        experiment(axis=axis, extra=extra)


def test_the_command_line_exits_2_with_one_line_naming_the_field(tmp_path):
    path = tmp_path / "steep.toml"
    path.write_text(
        BASE.replace("SAMPLES", "1")
        .replace("PAIRED", "")
        .replace("AXIS", "slope_x = [0.5]")
        .replace("NOISE", "")
        .replace("RECORDS", "false")
        .replace("START_X", "9 in")
    )
    done = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "run", str(path), "--out", str(tmp_path / "r")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "grid.slope_x[0]" in lines[0] and "steeper than its friction" in lines[0]


def _records(exp, path):
    return pd.read_parquet(run_experiment(exp, path, progress=False, plots=False).records_path)


def test_a_true_court_cell_is_the_flat_experiments_bit_for_bit(tmp_path):
    noise = '[noise]\npreset = "average"'
    graded = experiment(axis="slope_x = [0, 0.001]", samples=200, noise=noise, records="true")
    flat = experiment(axis="", samples=200, noise=noise, records="true")
    assert graded.courts()[0].surface_shape.flat and not graded.courts()[1].surface_shape.flat
    got = compute_chunk(graded, 0, graded.n_shots)
    want = compute_chunk(flat, 0, flat.n_shots)
    for name in ("shots", "value_sum", "value_counts", "dead", "hanger"):
        assert np.array_equal(got[name][:1], want[name])
    for name in ("record_x", "record_y", "record_value", "record_speed", "record_direction"):
        assert np.array_equal(got[name][:200], want[name]), name
    # The same executions on the graded court rest elsewhere.
    assert not np.array_equal(got["record_x"][200:], want["record_x"])


def test_the_grade_drifts_every_execution_toward_where_it_falls(tmp_path):
    exp = experiment(
        axis="slope_x = [-0.0005, 0, 0.0005]",
        samples=150,
        noise='[noise]\npreset = "average"',
        paired='paired = ["slope_x"]',
        records="true",
    )
    shots = _records(exp, tmp_path / "r")
    x = shots.pivot(index="draw", columns="grid_slope_x", values="x")
    y = shots.pivot(index="draw", columns="grid_slope_x", values="y")
    on = np.abs(x[0.0]) < 0.8  # clear of the side cushions' gutters, which stop a disc sideways
    assert (x[0.0005] - x[0.0])[on].min() > 0.0
    assert (x[-0.0005] - x[0.0])[on].max() < 0.0
    # A cross grade leaves the length nearly alone: a few mm against centimetres of drift.
    assert np.abs((y[0.0005] - y[0.0])[on]).max() < 0.2 * (x[0.0005] - x[0.0])[on].min() + 0.01


def test_a_surface_axis_experiment_is_the_same_whatever_the_chunks_and_threads(tmp_path):
    exp = experiment(
        axis='court_speed = ["5 s", "14 s"]\ncrown = ["0 in", "1/16 in"]\nslope_x = [0, 0.0005]',
        samples=40,
        noise='[noise]\npreset = "expert"',
        records="true",
    )
    one = run_experiment(exp, tmp_path / "one", progress=False, plots=False)
    many = run_experiment(exp, tmp_path / "many", chunk_size=37, progress=False, plots=False)
    workers = run_experiment(exp, tmp_path / "w", workers=2, chunk_size=61, progress=False, plots=False)
    grid = one.grid.to_xarray()
    assert grid.identical(many.grid.to_xarray()) and grid.identical(workers.grid.to_xarray())
    records = pd.read_parquet(one.records_path)
    assert records.equals(pd.read_parquet(many.records_path))
    assert records.equals(pd.read_parquet(workers.records_path))
    assert grid["crown"].attrs["units"] == "m" and grid["slope_x"].attrs["units"] == "1"


def _sliding_rest_x(mu: float, grade: float, distance: float, gravity: float) -> float:
    """The sideways rest of a disc without spin launched along +y to slide ``distance`` on a true
    court, on a cross grade: Coulomb friction opposing the velocity, integrated tightly (scipy DOP853)."""
    v0 = math.sqrt(2.0 * mu * gravity * distance)

    def rate(_, s):
        speed = math.hypot(s[2], s[3])
        return [s[2], s[3], gravity * grade - mu * gravity * s[2] / speed, -mu * gravity * s[3] / speed]

    def stop(_, s):
        return math.hypot(s[2], s[3]) - 1e-9

    stop.terminal = True
    out = solve_ivp(rate, (0.0, 1e3), [0.0, 0.0, 0.0, v0], method="DOP853", rtol=1e-12, atol=1e-14, events=stop)
    return float(out.y[0, -1])


@pytest.mark.parametrize("seconds", ["5 s", "14 s"])
def test_the_drift_matches_the_sliding_disc_and_its_closed_form(seconds):
    """A disc sliding a distance d without spin, decelerated by mu g along its path, drifts on a cross
    grade s by s d / (2 mu) to first order in s / mu (docs/court-speed.md): the lateral velocity w
    obeys dw/dt = g s - w / (T - t) while the disc slows uniformly, so w = g s (T - t) ln(T / (T - t))
    and the shift is g s T^2 / 4 with T^2 = 2 d / (mu g). The hodograph solution (exact for a uniform
    grade, ``calibrate.forward.rest_and_time``) divides this by 1 - (s / mu)^2: the first-order
    estimate is short by (s / mu)^2 relatively (0.7 % at 1 in 1000 on a 14 s court), so the simulated
    shift must agree with it within 2 (s / mu)^2, and within 1e-7 m (the kernel's stated accuracy)
    with the exact solution and with a tight integration of the same motion."""
    exp = experiment(axis=f'court_speed = ["{seconds}"]\nslope_x = [0, 0.001, -0.0005]', start_x="0 in", records="true")
    out = compute_chunk(exp, 0, exp.n_shots)
    x_true, y_true = out["record_x"][0], out["record_y"][0]
    court = exp.courts()[0]
    mu, gravity = court.params["mu"], court.params["gravity"]
    distance = 0.3048 * (37.35 - 7.25)
    assert x_true == 0.0 and y_true == pytest.approx(0.3048 * 37.35, abs=1e-9)
    for k, grade in ((1, 0.001), (2, -0.0005)):
        shift = out["record_x"][k] - x_true
        first_order = grade * distance / (2.0 * mu)
        assert shift == pytest.approx(first_order, rel=2.0 * (grade / mu) ** 2)
        assert abs(shift - first_order) > 0.5 * (grade / mu) ** 2 * abs(first_order)  # the second order shows
        v0 = math.sqrt(2.0 * mu * gravity * distance)
        exact_x, _, _ = rest_and_time(0.0, 0.0, 0.0, v0, mu, grade, 0.0, gravity)
        assert shift == pytest.approx(float(exact_x), abs=1e-7)
        assert shift == pytest.approx(first_order / (1.0 - (grade / mu) ** 2), abs=1e-7)
        assert shift == pytest.approx(_sliding_rest_x(mu, grade, distance, gravity), abs=1e-7)


def test_plots_show_grades_per_1000_and_crowns_in_inches(tmp_path):
    from shuffle_sim.experiment._axis_display import axis_coordinates, axis_label

    exp = experiment(axis='crown = ["0 in", "1/16 in"]\nslope_x = [0, 0.0005]', samples=2)
    grid = run_experiment(exp, tmp_path / "r", progress=False, plots=False).grid.to_xarray()
    assert grid["crown"].values[1] == pytest.approx(0.0254 / 16, rel=1e-12)  # SI in the results
    assert axis_label(grid, "crown").endswith("(in)")
    assert axis_coordinates(grid, "crown")[0][1] == pytest.approx(1 / 16, rel=1e-12)
    assert axis_label(grid, "slope_x").endswith("(per 1000)")
    assert axis_coordinates(grid, "slope_x")[0].tolist() == pytest.approx([0.0, 0.5], rel=1e-12)


def test_a_plot_selects_a_crown_by_its_length():
    exp = experiment(
        axis='crown = ["0 in", "1/16 in"]\nslope_x = [0, 0.0005]',
        extra='[[plots]]\nmetric = "p_value:10"\nx = "slope_x"\nselect = { crown = "1/16 in" }\n',
    )
    assert exp.plots[0].select == {"crown": pytest.approx(0.0254 / 16, rel=1e-12)}
