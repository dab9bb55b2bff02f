"""``shuffle-sim calibrate`` on tracks: the free slide under either law against an independent
integration, the tracks CSV and its refusals, the fit recovering known laws from noisy synthetic
tracks, ``--friction auto`` choosing the law the data were made with, the warning at residuals far
beyond the stated error (tracks and shots), and ``--out`` writing a court that loads as fitted."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from scipy.integrate import solve_ivp

from shuffle_sim._runtime import compile_notice
from shuffle_sim.calibrate import calibrate, choose_track_law, fit_court, fit_tracks, read_shots, read_tracks
from shuffle_sim.calibrate.forward import slide_distance, slide_speed, stop_times
from shuffle_sim.calibrate.least_squares import chi2_sf
from shuffle_sim.calibrate.shots_csv import CalibrationError
from shuffle_sim.court import load_court
from shuffle_sim.court.friction_law import stop_distance, stop_time

ROOT = Path(__file__).resolve().parents[2]
TABLE = load_court("horse-collar")
G = TABLE.params["gravity"]
TABLE_TEXT = (ROOT / "courts" / "horse-collar.toml").read_text()
SD = 0.002  # the stated (and, unless a test says otherwise, the true) measurement error


def integrated_slide(v0: float, c: float, k: float, t: np.ndarray) -> np.ndarray:
    """Distance slid at times ``t`` under deceleration c + k v, by numerical integration (the oracle)."""

    def motion(_, y):
        return [y[1], -(c + k * y[1]) if y[1] > 0 else 0.0]

    def stopped(_, y):
        return y[1]

    stopped.terminal = True
    sol = solve_ivp(motion, (0.0, 100.0), [0.0, v0], events=stopped, dense_output=True, rtol=1e-12, atol=1e-14)
    end = sol.t[-1]
    return np.where(t < end, sol.sol(np.minimum(t, end))[0], sol.y[0, -1])


@pytest.mark.parametrize("k", [0.0, 1e-6, 0.05, 0.3, -0.04])
def test_the_slide_matches_an_integration_and_the_court_s_stop(k):
    c, v0 = 0.25, 1.7
    t = np.linspace(0.0, 9.0, 40)
    assert np.allclose(slide_distance(t, v0, c, k), integrated_slide(v0, c, k, t), rtol=0, atol=1e-9)
    assert float(stop_times(v0, c, k)) == pytest.approx(stop_time(v0, c, k), rel=1e-13)
    assert float(slide_distance(1e3, v0, c, k)) == pytest.approx(stop_distance(v0, c, k), rel=1e-13)
    half = 0.5 * float(stop_times(v0, c, k))
    assert float(slide_speed(half, v0, c, k)) == pytest.approx(
        (v0 + c / k) * math.exp(-k * half) - c / k if k else v0 - c * half, rel=1e-9
    )


@pytest.mark.parametrize("dof", [1, 2, 7, 40, 901])
def test_chi2_tail_matches_scipy(dof):
    for chi2 in (0.3 * dof, dof, 1.5 * dof + 3, 7.0 * dof):
        assert chi2_sf(chi2, dof) == pytest.approx(stats.chi2.sf(chi2, dof), rel=1e-9, abs=1e-300)


def synthetic_rows(mu, mu_speed, n=5, sd=SD, seed=0, fps=30.0, longest=1.6):
    """Rows (time, track, x, y) of ``n`` noisy free slides on the horse collar table under mu + mu_speed v."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(n):
        v0, direction = rng.uniform(0.7, 1.8), rng.normal(0.0, 0.03)
        x0, y0 = rng.uniform(-0.15, 0.15), rng.uniform(3.0, 4.0)
        clock = rng.uniform(0.0, 100.0)  # any clock: a track starts at its own first time
        t = np.arange(0.0, rng.uniform(0.9, longest), 1.0 / fps)
        s = slide_distance(t, v0, mu * G, mu_speed * G)
        x = x0 + s * math.sin(direction) + rng.normal(0.0, sd, t.size)
        y = y0 + s * math.cos(direction) + rng.normal(0.0, sd, t.size)
        rows += [(clock + ti, f"slide {k}", xi, yi) for ti, xi, yi in zip(t, x, y)]
    return rows


def write_tracks(path: Path, rows, header="time,track,x,y") -> Path:
    """The rows as a tracks CSV whose columns follow ``header`` (a name it lacks is left out)."""
    names = header.split(",")
    lines = [header]
    for t, name, x, y in rows:
        cell = {"time": t, "track": name, "x": x, "y": y}
        lines.append(",".join(str(cell.get(n, "")) if n == "track" else repr(_plain(cell.get(n))) for n in names))
    path.write_text("\n".join(lines) + "\n")
    return path


def _plain(value):
    return float(value) if isinstance(value, (float, np.floating)) else value


def _cli(*args: str):
    return subprocess.run([sys.executable, "-m", "shuffle_sim.cli", "calibrate", *args], capture_output=True, text=True)


def _said(done: subprocess.CompletedProcess) -> str:
    """What a ``calibrate`` run said on stderr, less the compile notice a run on a cold cache gives first
    (which test compiled the kernels before this one depends on the order the tests ran in)."""
    return "".join(line for line in done.stderr.splitlines(keepends=True) if compile_notice.COMPILING not in line)


def test_reading_groups_tracks_and_starts_each_at_its_first_time(tmp_path):
    rows = synthetic_rows(0.03, 0.0, n=3)
    # Interleaved as a tracker writes several discs frame by frame, columns in another order.
    interleaved = sorted(rows, key=lambda r: (r[0] - min(q[0] for q in rows if q[1] == r[1]), r[1]))
    tracks = read_tracks(write_tracks(tmp_path / "t.csv", interleaved, header="x,y,track,time"))
    assert tracks.names == ("slide 0", "slide 1", "slide 2")
    for k in range(len(tracks)):
        mine = tracks.track == k
        assert tracks.time[mine][0] == 0.0 and np.all(np.diff(tracks.time[mine]) > 0)
    assert tracks.points == len(rows)


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda rows: [r for i, r in enumerate(rows) if r[1] != "slide 0" or i < 4],
            r"row 1: track: track 'slide 0' has 4 points, fewer than the 5",
        ),
        (lambda rows: [*rows[:3], rows[1], *rows[4:]], r"row 4: time: track 'slide 0' goes back or stands still"),
        (lambda rows: [(rows[0][0], rows[0][1], float("nan"), rows[0][3]), *rows[1:]], r"row 1: x: must be finite"),
        (lambda rows: [*rows[:2], (rows[2][0], rows[2][1], "abc", rows[2][3]), *rows[3:]], r"row 3: x: not a number"),
    ],
)
def test_a_bad_track_exits_2_naming_the_row_and_the_field(tmp_path, edit, message):
    done = _cli("horse-collar", str(write_tracks(tmp_path / "t.csv", edit(synthetic_rows(0.03, 0.0)))))
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and re.search(message, done.stderr), done.stderr


def test_a_bad_header_or_law_exits_2_in_one_line(tmp_path):
    rows = synthetic_rows(0.03, 0.0, n=3)
    for header, message in (("time,track,x,z", r"unknown column 'z'"), ("time,track,x", r"header: missing column 'y'")):
        done = _cli("horse-collar", str(write_tracks(tmp_path / "t.csv", rows, header=header)))
        assert done.returncode == 2 and re.search(message, done.stderr), done.stderr
    done = _cli("horse-collar", str(write_tracks(tmp_path / "t.csv", rows)), "--friction", "stribeck")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "friction: unknown law 'stribeck' (laws: coulomb, speed, auto)" in done.stderr


def _tracks(tmp_path, mu, mu_speed, sd=SD, seed=0, n=5, longest=1.6):
    rows = synthetic_rows(mu, mu_speed, n=n, sd=sd, seed=seed, longest=longest)
    return read_tracks(write_tracks(tmp_path / f"t{seed}.csv", rows))


@pytest.mark.parametrize("seed", [0, 1])
def test_the_fit_recovers_a_known_law_with_honest_errors(tmp_path, seed):
    coulomb = fit_tracks(_tracks(tmp_path, 0.03, 0.0, seed=seed), G, "coulomb", SD)
    assert abs(coulomb.mu - 0.03) < 4 * coulomb.mu_sd and coulomb.mu_sd < 0.001
    assert coulomb.chi2_dof == pytest.approx(1.0, abs=0.2) and coulomb.mu_speed == 0.0
    speed = fit_tracks(_tracks(tmp_path, 0.015, 0.012, seed=seed), G, "speed", SD)
    assert abs(speed.mu - 0.015) < 4 * speed.mu_sd and abs(speed.mu_speed - 0.012) < 4 * speed.mu_speed_sd
    assert speed.mu_speed_sd < 0.002 and speed.chi2_dof == pytest.approx(1.0, abs=0.2)
    assert all(s.rms < 3 * SD for s in speed.starts)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_auto_chooses_the_law_the_tracks_were_made_with(tmp_path, seed):
    choice, fits = choose_track_law(_tracks(tmp_path, 0.03, 0.0, seed=seed, n=8, longest=2.2), G, SD)
    assert choice.law == "coulomb", choice.reason
    choice, fits = choose_track_law(_tracks(tmp_path, 0.015, 0.012, seed=seed, n=8, longest=2.2), G, SD)
    assert choice.law == "speed", choice.reason
    assert choice.held_out_rms("speed") < choice.held_out_rms("coulomb") and choice.favoured_by("speed") >= 6
    assert choice.aic["speed"] < choice.aic["coulomb"] and fits["speed"].chi2 < fits["coulomb"].chi2


def test_auto_needs_three_tracks(tmp_path):
    with pytest.raises(CalibrationError, match=r"friction auto: 2 tracks, fewer than the 3"):
        choose_track_law(_tracks(tmp_path, 0.03, 0.0, n=2), G, SD)


def test_json_out_and_warning_for_tracks(tmp_path):
    noisy = write_tracks(tmp_path / "t.csv", synthetic_rows(0.015, 0.012, sd=4 * SD))
    out = tmp_path / "table.toml"
    done = _cli("horse-collar", str(noisy), "--json", "--out", str(out), "--friction", "speed")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["law"] == "speed" and "choice" not in data and data["data"] == "tracks"
    assert {"mu", "mu_sd", "mu_speed", "mu_speed_sd", "chi2_dof", "residuals", "speed", "speed_sd"} <= set(data)
    assert data["chi2_dof"] == pytest.approx(16.0, rel=0.25)
    assert [r["track"] for r in data["residuals"]] == [f"slide {k}" for k in range(5)]
    assert len(data["warnings"]) == 1 and "far beyond the stated measurement errors" in data["warnings"][0]
    assert _said(done).startswith("warning: the residuals are far beyond") and len(_said(done).splitlines()) == 1
    court = load_court(out)
    assert court.params["mu"] == float(f"{data['mu']:.6g}") and court.params["mu_speed"] == float(
        f"{data['mu_speed']:.6g}"
    )
    text = out.read_text()
    assert re.search(r"^mu_speed = [0-9.e-]+  # calibrated from .*t\.csv: sd", text, re.M)
    assert "the friction law fitted to the tracks of" in text and court.name == "horse-collar-calibrated"
    clean = write_tracks(tmp_path / "q.csv", synthetic_rows(0.015, 0.012, n=8, longest=2.2))
    quiet = _cli("horse-collar", str(clean), "--json")  # tracks: auto unless told
    assert _said(quiet) == "" and json.loads(quiet.stdout)["warnings"] == []
    choice = json.loads(quiet.stdout)["choice"]
    assert choice["law"] == "speed" and "held out one track at a time" in choice["reason"]
    assert choice["delta_aic"] > 0 and choice["log_ratio"] > 2 * choice["log_ratio_se"]
    assert set(choice["held_out"]) == {"coulomb", "speed"} and choice["items_favouring_speed"] >= 6


def test_a_coulomb_fit_zeroes_a_court_s_speed_law(tmp_path):
    base = tmp_path / "base.toml"
    base.write_text(TABLE_TEXT.replace("mu = 0.05\n", "mu = 0.02\nmu_speed = 0.01  # a law of speed\n"))
    out = tmp_path / "fitted.toml"
    calibrate(
        str(base), str(write_tracks(tmp_path / "t.csv", synthetic_rows(0.03, 0.0))), out=str(out), friction="coulomb"
    )
    fitted = load_court(out)
    assert fitted.params["mu_speed"] == 0.0 and fitted.params["mu"] == pytest.approx(0.03, rel=0.05)


def test_shots_warn_when_their_residuals_are_far_beyond_the_stated_errors(tmp_path):
    shots = ROOT / "experiments" / "deck-speed-shots.csv"
    quiet = _cli("deck", str(shots), "--json")
    assert quiet.returncode == 0 and _said(quiet) == "" and json.loads(quiet.stdout)["warnings"] == []
    data = json.loads(quiet.stdout)
    assert data["law"] == "coulomb" and data["mu_speed"] == 0.0 and data["mu_speed_sd"] is None
    assert data["chi2_dof"] == pytest.approx(1.0, abs=0.6) and len(data["residuals"]) == 12
    loud = _cli("deck", str(shots), "--json", "--position-sd", "0.002", "--time-sd", "0.02")
    assert loud.returncode == 0 and _said(loud).startswith("warning: the residuals are far beyond")
    assert json.loads(loud.stdout)["chi2_dof"] > 10


def test_shots_of_many_lengths_fit_the_speed_law_and_auto_keeps_coulomb_for_the_example(tmp_path):
    rng = np.random.default_rng(3)
    rows = ["start_x,start_y,rest_x,rest_y,aim_x,aim_y,time"]
    mu, mu_speed = 0.012, 0.01
    for _ in range(14):
        v0 = rng.uniform(0.8, 2.2)
        t = float(stop_times(v0, mu * G, mu_speed * G))
        d = float(slide_distance(t, v0, mu * G, mu_speed * G))
        rows.append(f"0,2,{rng.normal(0, 0.005)!r},{2 + d + rng.normal(0, 0.005)!r},0,20,{t + rng.normal(0, 0.02)!r}")
    path = tmp_path / "shots.csv"
    path.write_text("\n".join(rows) + "\n")
    fit = fit_court(read_shots(path, G), G, None, 0.005, 0.02, law="speed")
    assert abs(fit.mu - mu) < 4 * fit.mu_sd and abs(fit.mu_speed - mu_speed) < 4 * fit.mu_speed_sd
    assert (
        json.loads(
            _cli(
                "deck", str(path), "--json", "--friction", "auto", "--position-sd", "0.005", "--time-sd", "0.02"
            ).stdout
        )["law"]
        == "speed"
    )
    example = json.loads(
        _cli("deck", str(ROOT / "experiments" / "deck-speed-shots.csv"), "--json", "--friction", "auto").stdout
    )
    assert example["law"] == "coulomb" and example["choice"]["law"] == "coulomb" and example["slope"] is not None


def test_the_fit_recovers_the_law_from_slides_the_simulator_made(tmp_path):
    """Tracks sampled from ``simulate`` under the speed law (the integrated motion law) with noise:
    the fit recovers the law, and auto chooses it."""
    from shuffle_sim import simulate
    from shuffle_sim.physics import Scene

    mu, mu_speed = 0.015, 0.012
    court = TABLE.with_params(mu=mu, mu_speed=mu_speed)
    rng = np.random.default_rng(5)
    rows = []
    for k in range(6):
        v0, direction, x0, y0 = rng.uniform(0.7, 1.6), rng.normal(0.0, 0.03), rng.uniform(-0.1, 0.1), 3.5
        vx, vy = v0 * math.sin(direction), v0 * math.cos(direction)
        result = simulate(Scene(court, np.array([x0]), np.array([y0]), np.array([vx]), np.array([vy]), np.zeros(1)))
        t = np.arange(0.0, 2.0, 1.0 / 30.0)
        xy = result.trajectories.positions(1, t)[:, 0, :] + rng.normal(0.0, SD, (t.size, 2))
        rows += [(ti, f"sim {k}", x, y) for ti, (x, y) in zip(t, xy)]
    tracks = read_tracks(write_tracks(tmp_path / "sim.csv", rows))
    choice, fits = choose_track_law(tracks, G, SD)
    speed = fits["speed"]
    assert choice.law == "speed", choice.reason
    assert abs(speed.mu - mu) < 4 * speed.mu_sd and abs(speed.mu_speed - mu_speed) < 4 * speed.mu_speed_sd
    assert speed.chi2_dof == pytest.approx(1.0, abs=0.2)
