"""``shuffle-sim calibrate``: the forward model against independent oracles, the fit recovering known
courts from noisy shots, what it says it cannot fit, and bad rows naming the row and the field.

The grade test's shots come from an independent integration of the equations of motion (scipy's
DOP853), not from the closed form the fit uses; the mu test's from the simulator itself. (When the
kernel moves discs on graded courts, the grade test's shots are to come from it.)"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from shuffle_sim.calibrate import CalibrationError, MeasuredShots, fit_court, read_shots, rest_and_time
from shuffle_sim.court import load_court
from shuffle_sim.physics import STATUS_REST
from shuffle_sim.shots import simulate_shots
from shuffle_sim.units import FOOT

ROOT = Path(__file__).resolve().parents[2]
DECK = load_court("deck")
G = DECK.params["gravity"]
COURSE = DECK.speed_course.length
FAST = DECK.with_params(speed="14 s")
MU = FAST.params["mu"]


def integrated(start_x, start_y, direction, v0, mu, slope_x, slope_y):
    """Rest and time of a disc without spin on a uniform grade by numerical integration (the oracle)."""

    def motion(t, y):
        speed = math.hypot(y[2], y[3])
        return [y[2], y[3], G * slope_x - mu * G * y[2] / speed, G * slope_y - mu * G * y[3] / speed]

    def stopped(t, y):
        return math.hypot(y[2], y[3]) - 1e-10

    stopped.terminal = True
    sol = solve_ivp(
        motion,
        (0.0, 1e4),
        [start_x, start_y, v0 * math.sin(direction), v0 * math.cos(direction)],
        method="DOP853",
        rtol=1e-12,
        atol=1e-14,
        events=stopped,
    )
    return sol.y[0, -1], sol.y[1, -1], sol.t[-1]


@pytest.mark.parametrize("seed", range(6))
def test_the_closed_form_matches_an_integration_of_the_motion(seed):
    rng = np.random.default_rng(seed)
    mu = rng.uniform(0.005, 0.15)
    slope = rng.uniform(-1, 1, 2) * mu * rng.uniform(0.0, 0.7)  # any grade the friction holds
    for direction in (rng.uniform(-math.pi, math.pi), 0.0, math.pi, math.atan2(slope[0], slope[1])):
        v0 = rng.uniform(0.3, 5.0)
        want = integrated(0.1, 2.0, direction, v0, mu, *slope)
        got = rest_and_time(0.1, 2.0, direction, v0, mu, *slope, G)
        assert float(got[0]) == pytest.approx(want[0], abs=1e-9)
        assert float(got[1]) == pytest.approx(want[1], abs=1e-9)
        assert float(got[2]) == pytest.approx(want[2], rel=1e-7)


def test_on_a_flat_court_the_closed_form_is_the_kernel():
    rng = np.random.default_rng(1)
    x, y = rng.uniform(-0.5, 0.5, 50), np.full(50, 7.25 * FOOT)
    direction, v0 = rng.normal(0, 0.02, 50), rng.uniform(1.0, 1.7, 50)
    batch = simulate_shots(FAST, x, y, v0 * np.sin(direction), v0 * np.cos(direction), np.zeros(50))
    rx, ry, _ = rest_and_time(x, y, direction, v0, MU, 0.0, 0.0, G)
    assert np.allclose(batch.x[:, 0], rx, rtol=0, atol=1e-12) and np.allclose(batch.y[:, 0], ry, rtol=0, atol=1e-12)
    assert (batch.status[:, 0] == STATUS_REST).all()


def _speed_shots(make, n=12, both_ends=True, aimed=True, timed=True, seed=0, position_sd=0.01, time_sd=0.1):
    """``n`` measured speed shots on the deck: ``make(start_x, start_y, direction, v0)`` -> rest and time."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(n):
        from_head = k % 2 == 0 or not both_ends
        sx = rng.uniform(-0.6, 0.6)
        sy = 7.25 * FOOT if from_head else 44.75 * FOOT
        direction = (0.0 if from_head else math.pi) + rng.normal(0.0, 0.01)
        v0 = math.sqrt(2 * MU * G * 37.5 * FOOT) * rng.normal(1.0, 0.03)
        rx, ry, t = make(sx, sy, direction, v0)
        rows.append(
            (
                sx,
                sy,
                rx + rng.normal(0, position_sd),
                ry + rng.normal(0, position_sd),
                sx + 10 * math.sin(direction),
                sy + 10 * math.cos(direction),
                t + rng.normal(0, time_sd),
            )
        )
    a = np.array(rows)
    blank = np.full(n, np.nan)
    return MeasuredShots(
        "<shots>",
        a[:, 0],
        a[:, 1],
        a[:, 2],
        a[:, 3],
        a[:, 4] if aimed else blank,
        a[:, 5] if aimed else blank,
        a[:, 6] if timed else blank,
        np.arange(1, n + 1),
    )


def _simulated(sx, sy, direction, v0):
    """The flat kernel's rest and end time of one shot on the 14 s deck."""
    batch = simulate_shots(
        FAST,
        np.array([sx]),
        np.array([sy]),
        np.array([v0 * math.sin(direction)]),
        np.array([v0 * math.cos(direction)]),
        np.zeros(1),
    )
    return float(batch.x[0, 0]), float(batch.y[0, 0]), v0 / (MU * G)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mu_is_recovered_from_twelve_noisy_shots_of_the_simulator(seed):
    fit = fit_court(_speed_shots(_simulated, seed=seed), G, COURSE)
    assert fit.mu == pytest.approx(MU, rel=0.02)
    assert fit.speed == pytest.approx(14.0, rel=0.01)
    assert abs(fit.mu - MU) < 4 * fit.mu_sd  # the standard error is honest
    assert fit.speed_sd == pytest.approx(fit.speed * fit.mu_sd / (2 * fit.mu), rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_one_in_a_thousand_grade_is_recovered_from_twelve_noisy_shots(seed):
    def graded(sx, sy, direction, v0):
        return integrated(sx, sy, direction, v0, MU, 0.0, 0.001)

    fit = fit_court(_speed_shots(graded, seed=seed), G, COURSE)
    assert fit.mu == pytest.approx(MU, rel=0.02)
    assert fit.slope[1] == pytest.approx(0.001, rel=0.2)
    assert abs(fit.slope[0]) < 4 * fit.slope_sd[0] and abs(fit.slope[1] - 0.001) < 4 * fit.slope_sd[1]
    assert fit.along_fitted and fit.across_fitted and not fit.notes


def test_shots_one_way_cannot_tell_a_grade_from_friction_and_the_fit_says_so():
    def graded(sx, sy, direction, v0):
        return integrated(sx, sy, direction, v0, MU, 0.0, 0.001)

    fit = fit_court(_speed_shots(graded, both_ends=False), G, COURSE)
    assert not fit.along_fitted and "both ends" in fit.notes[0]
    assert fit.slope_sd[1] is None  # the grade along is held at 0 ...
    assert fit.mu == pytest.approx(MU - 0.001, rel=0.02)  # ... and mu takes it in: mu - s downhill


def test_without_aim_points_no_grade_across_is_fitted_and_the_fit_says_so():
    fit = fit_court(_speed_shots(_simulated, aimed=False), G, COURSE)
    assert fit.along_fitted and not fit.across_fitted
    assert any("aim point" in note for note in fit.notes)
    assert fit.slope_sd[0] is None


def test_without_times_there_is_no_mu():
    with pytest.raises(CalibrationError, match=r"time: no shot has a time"):
        fit_court(_speed_shots(_simulated, timed=False), G, COURSE)


def _write(path: Path, header: str, *rows: str) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def _cli(*args: str):
    return subprocess.run([sys.executable, "-m", "shuffle_sim.cli", "calibrate", *args], capture_output=True, text=True)


GOOD = "0.1,2.21,0.2,13.6,0.1,13.9,14.1"
HEADER = "start_x,start_y,rest_x,rest_y,aim_x,aim_y,time"


@pytest.mark.parametrize(
    "rows, message",
    [
        ((GOOD, "0.1,2.21,0.2,abc,0.1,13.9,14.1"), r"row 2: rest_y: not a number \(got 'abc'\)"),
        ((GOOD, "0.1,13.6,0.2,14.1,0.1,1.9,13.0"), r"row 2: rest_y: the rest lies before the start along the aim"),
        ((GOOD, "0.1,2.21,0.2,13.6,0.1,13.9,0.4"), r"row 2: time: 0.4 s is too short for the 11.39 m slid"),
        ((GOOD, "0.1,2.21,0.2,13.6,0.1,13.9,-3"), r"row 2: time: must be positive"),
        ((GOOD, "0.1,2.21,0.1,2.21,0.1,13.9,3"), r"row 2: rest_x, rest_y: the rest is the start"),
        ((GOOD, "0.1,2.21,0.2,13.6,,13.9,14.1"), r"row 2: aim_x: blank while the other aim coordinate is given"),
        ((GOOD, "0.1,,0.2,13.6,0.1,13.9,14.1"), r"row 2: start_y: missing"),
        ((GOOD, "0.1,2.21,0.2,13.6,0.1,13.9"), r"row 2: 6 fields, the header has 7"),
        ((GOOD, "0.1,2.21,0.2,13.6,0.1,13.9,nan"), r"row 2: time: must be finite"),
    ],
)
def test_a_bad_row_exits_2_naming_the_row_and_the_field(tmp_path, rows, message):
    done = _cli("deck", str(_write(tmp_path / "shots.csv", HEADER, *rows)))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert __import__("re").search(message, done.stderr), done.stderr


@pytest.mark.parametrize(
    "header, message",
    [
        ("start_x,start_y,rest_x,time", r"header: missing column 'rest_y'"),
        ("start_x,start_y,rest_x,rest_y,spin", r"header: unknown column 'spin'"),
        ("start_x,start_y,rest_x,rest_y,aim_x", r"header: give both aim_x and aim_y"),
    ],
)
def test_a_bad_header_exits_2_naming_the_column(tmp_path, header, message):
    done = _cli("deck", str(_write(tmp_path / "shots.csv", header, "0.1,2.2,0.2,13.6")))
    assert done.returncode == 2 and __import__("re").search(message, done.stderr), done.stderr


def test_the_example_shots_give_the_court_they_were_taken_on(tmp_path):
    out = tmp_path / "deck-calibrated.toml"
    done = _cli("deck", str(ROOT / "experiments" / "deck-speed-shots.csv"), "--json", "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {"mu", "mu_sd", "speed", "speed_sd", "slope", "slope_sd"} <= set(data)
    assert data["mu"] == pytest.approx(MU, rel=0.02) and data["speed"] == pytest.approx(14.0, rel=0.01)
    assert data["slope"][1] == pytest.approx(0.001, rel=0.2)
    fitted = load_court(out)
    assert fitted.params["mu"] == pytest.approx(data["mu"], rel=1e-5)
    assert fitted.name == "deck-calibrated" and [z.name for z in fitted.zones] == [z.name for z in DECK.zones]
    assert fitted.surface_shape.slope == pytest.approx(tuple(data["slope"]), rel=1e-5)  # the court runs as fitted
    text = _cli("deck", str(ROOT / "experiments" / "deck-speed-shots.csv"))
    assert text.returncode == 0 and "speed  = 14.0 s" in text.stdout and "slope" in text.stdout


def test_the_example_file_is_the_one_its_script_writes(tmp_path):
    out = tmp_path / "shots.csv"
    subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "speed_shots_example.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_text() == (ROOT / "experiments" / "deck-speed-shots.csv").read_text()


def test_read_shots_takes_blank_optional_cells_and_no_optional_columns(tmp_path):
    shots = read_shots(_write(tmp_path / "a.csv", HEADER, GOOD, "0.1,2.21,0.2,13.6,,,"), G)
    assert shots.timed.tolist() == [True, False] and shots.aimed.tolist() == [True, False]
    plain = read_shots(_write(tmp_path / "b.csv", "start_x,start_y,rest_x,rest_y", "0.1,2.21,0.2,13.6"), G)
    assert not plain.timed.any() and not plain.aimed.any()
    with open(tmp_path / "a.csv") as fh:
        assert next(csv.reader(fh)) == HEADER.split(",")
