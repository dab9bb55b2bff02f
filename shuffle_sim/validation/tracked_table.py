"""The tracked table beside the simulator: both friction laws fitted to the clip's free slides, each
slide predicted when held out, and the fitted slides run again through ``shuffle_sim.simulate``.

``table_results`` computes the figures the validation page shows (plain numbers, for the results
file); ``draw_tracks`` and ``draw_decelerations`` draw its two pictures: the measured slides beside
the simulated ones, and the local deceleration against speed with both laws.

The local decelerations are the windows' own: each slide cut into windows of ``WINDOW`` frames, a
parabola s = s0 + v t - a t^2 / 2 fitted to the distance along the slide's chord in each, a / g the
window's effective mu at its mean speed v. They use no law; they show what the laws are fitted to.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from shuffle_sim.calibrate import choose_track_law, read_tracks
from shuffle_sim.calibrate.fit import law_speed
from shuffle_sim.calibrate.forward import slide_distance
from shuffle_sim.calibrate.track_fit import TRACK_SD, TrackFit
from shuffle_sim.court import Court, load_court
from shuffle_sim.validation.tracked_clip import FreeSlide

#: Frames in a window of the local decelerations.
WINDOW = 20
LAWS = ("coulomb", "speed")


def _simulated(court: Court, fit: TrackFit, times: list[np.ndarray]) -> list[np.ndarray]:
    """Each fitted slide run through the simulator on ``court`` under the fitted law: its centres
    (n, 2) at its own times."""
    from shuffle_sim import simulate
    from shuffle_sim.physics import Scene

    fitted = court.with_params(mu=fit.mu, mu_speed=fit.mu_speed)
    out = []
    for start, t in zip(fit.starts, times):
        vx, vy = start.v0 * math.sin(start.direction), start.v0 * math.cos(start.direction)
        scene = Scene(fitted, np.array([start.x0]), np.array([start.y0]), np.array([vx]), np.array([vy]), np.zeros(1))
        result = simulate(scene)
        out.append(result.trajectories.positions(1, t)[:, 0, :])
    return out


def _closed_form(fit: TrackFit, gravity: float, times: list[np.ndarray]) -> list[np.ndarray]:
    out = []
    for start, t in zip(fit.starts, times):
        s = slide_distance(t, start.v0, fit.mu * gravity, fit.mu_speed * gravity)
        ux, uy = math.sin(start.direction), math.cos(start.direction)
        out.append(np.column_stack([start.x0 + s * ux, start.y0 + s * uy]))
    return out


def local_decelerations(slides: list[FreeSlide], gravity: float) -> tuple[np.ndarray, np.ndarray]:
    """(speed m/s, effective mu) of every whole window of ``WINDOW`` frames along the slides."""
    speeds, mus = [], []
    for slide in slides:
        direction = math.atan2(slide.x[-1] - slide.x[0], slide.y[-1] - slide.y[0])
        along = (slide.x - slide.x[0]) * math.sin(direction) + (slide.y - slide.y[0]) * math.cos(direction)
        for start in range(0, slide.frames.size - WINDOW + 1, WINDOW):
            t = slide.time[start : start + WINDOW]
            t = t - t.mean()
            _, v, half_a = np.linalg.lstsq(
                np.column_stack([np.ones_like(t), t, -t * t]), along[start : start + WINDOW], rcond=None
            )[0]
            speeds.append(v)
            mus.append(2.0 * half_a / gravity)
    return np.array(speeds), np.array(mus)


def table_results(tracks_path: str | Path, slides: list[FreeSlide], court_name: str = "horse-collar") -> dict:
    """The page's figures for the tracked table: both laws fitted to the tracks CSV at ``tracks_path``
    (the clip's ``slides`` written by ``tracked_clip.write_tracks``), the choice of ``--friction auto``,
    the held-out errors per slide, and how far the simulator's slides lie from the fitted ones."""
    court = load_court(court_name)
    gravity = court.params["gravity"]
    tracks = read_tracks(tracks_path)
    choice, fits = choose_track_law(tracks, gravity, TRACK_SD)
    times = [tracks.time[tracks.track == k] for k in range(len(tracks))]
    length = court.speed_course.length if court.speed_course is not None else math.nan
    laws = {}
    for law in LAWS:
        fit = fits[law]
        simulated = _simulated(court, fit, times)
        closed = _closed_form(fit, gravity, times)
        gap = max(float(np.max(np.hypot(*(a - b).T))) for a, b in zip(simulated, closed))
        speed, speed_sd = law_speed(fit.mu, fit.mu_speed, np.array(fit.covariance), length, gravity)
        laws[law] = {
            "mu": fit.mu,
            "mu_sd": fit.mu_sd,
            "mu_speed": fit.mu_speed,
            "mu_speed_sd": fit.mu_speed_sd,
            "chi2_dof": fit.chi2_dof,
            "rms": fit.rms,
            "held_out_rms": choice.held_out_rms(law),
            "held_out_per_track": dict(zip(choice.items, choice.item_rms(law))),
            "fit_per_track": {s.name: s.rms for s in fit.starts},
            "speed": speed,
            "speed_sd": speed_sd,
            "simulator_gap": gap,
        }
    log_ratio, log_ratio_se = choice.improvement()
    return {
        "tracks": len(tracks),
        "points": tracks.points,
        "position_sd": TRACK_SD,
        "slides": [
            {
                "track": s.name,
                "frames": [int(s.frames[0]), int(s.frames[-1])],
                "points": int(s.frames.size),
                "ends_in": s.ends_in,
            }
            for s in slides
        ],
        "laws": laws,
        "choice": {
            "law": choice.law,
            "reason": choice.reason,
            "log_ratio": log_ratio,
            "log_ratio_se": log_ratio_se,
            "favouring_speed": choice.favoured_by("speed"),
            "delta_aic": choice.aic["coulomb"] - choice.aic["speed"],
            "delta_bic": choice.bic["coulomb"] - choice.bic["speed"],
        },
        "_fits": fits,  # for the figures; not written to the results file
        "_times": times,
    }


def draw_tracks(results: dict, slides: list[FreeSlide], court_name: str, path: Path) -> Path:
    """The measured slides (points) and the simulator's slides under both fitted laws (lines), each
    slide's distance from its start against time, and the residuals of both laws."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    court = load_court(court_name)
    fits, times = results["_fits"], results["_times"]
    simulated = {law: _simulated(court, fits[law], times) for law in LAWS}
    colours = {"coulomb": "tab:blue", "speed": "tab:red"}
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True, height_ratios=[3, 2])
    for k, slide in enumerate(slides):
        x0, y0 = slide.x[0], slide.y[0]
        measured = np.hypot(slide.x - x0, slide.y - y0)
        top.plot(times[k], measured, "o", ms=2.5, color="0.3", label="measured (clip)" if k == 0 else None)
        for law in LAWS:
            xy = simulated[law][k]
            model = np.hypot(xy[:, 0] - x0, xy[:, 1] - y0)
            top.plot(times[k], model, "-", lw=1, color=colours[law], label=f"simulated, {law} law" if k == 0 else None)
            off = np.hypot(xy[:, 0] - slide.x, xy[:, 1] - slide.y) * 1000
            bottom.plot(times[k], off, "-", lw=1, color=colours[law], label=f"{law} law" if k == 0 else None)
    top.set_ylabel("distance from the first calibrated point (m)")
    top.set_title("Tracked table: the clip's free slides and the simulator's, both laws fitted")
    top.legend(loc="upper left")
    bottom.set_xlabel("time since the slide's first calibrated frame (s)")
    bottom.set_ylabel("measured to simulated (mm)")
    bottom.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def draw_decelerations(results: dict, slides: list[FreeSlide], gravity: float, path: Path) -> Path:
    """The windows' effective mu against speed, with both fitted laws."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    speeds, mus = local_decelerations(slides, gravity)
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(speeds, mus, "o", color="0.3", label=f"windows of {WINDOW} frames (no law)")
    v = np.linspace(0.0, max(float(speeds.max()), 1.5) * 1.05, 50)
    for law, colour in (("coulomb", "tab:blue"), ("speed", "tab:red")):
        fit = results["laws"][law]
        label = (
            f"Coulomb: mu = {fit['mu']:.4f}"
            if law == "coulomb"
            else f"speed law: mu = {fit['mu']:.4f} + {fit['mu_speed']:.4f} v"
        )
        ax.plot(v, fit["mu"] + fit["mu_speed"] * v, "-", color=colour, label=label)
    ax.set_xlabel("speed (m/s)")
    ax.set_ylabel("effective mu (deceleration / g)")
    ax.set_title("Tracked table: deceleration against speed")
    ax.set_xlim(0.0, None)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
