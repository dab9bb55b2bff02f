"""Discs' paths on the court: a picture of the whole shot, and an animation of it in real time."""

from __future__ import annotations

import math
import os

import numpy as np

from shuffle_sim.court import Court, as_court
from shuffle_sim.court.shapes import extent
from shuffle_sim.plot.colours import team_colours
from shuffle_sim.plot.court import draw_court, draw_discs
from shuffle_sim.plot.figures import DEFAULT_DPI, court_figure, finish_axes, judged_labels, zoom_box

#: An animation has at most this many frames (longer shots are sampled more sparsely in time).
MAX_FRAMES = 400


def _check_trajectories(times, positions, teams) -> tuple[np.ndarray, np.ndarray, list[str]]:
    times = np.asarray(times, dtype=float).reshape(-1)
    positions = np.asarray(positions, dtype=float)
    teams = [str(t) for t in teams]
    if positions.ndim != 3 or positions.shape[2] != 2:
        raise ValueError(f"positions must have shape (T, N, 2), got {positions.shape}")
    if positions.shape[0] != times.size:
        raise ValueError(f"positions has {positions.shape[0]} time samples but times has {times.size}")
    if positions.shape[1] != len(teams):
        raise ValueError(f"positions has {positions.shape[1]} discs but teams has {len(teams)}")
    if times.size == 0:
        raise ValueError("times must hold at least one sample")
    if not np.all(np.isfinite(times)) or np.any(np.diff(times) < 0):
        raise ValueError("times must be finite and non-decreasing")
    return times, positions, teams


def _last_finite(track: np.ndarray) -> tuple[int, bool]:
    """Index of the last finite sample of one disc's (T, 2) track, and whether it is the final one."""
    finite = np.flatnonzero(np.all(np.isfinite(track), axis=1))
    if finite.size == 0:
        return -1, False
    return int(finite[-1]), bool(finite[-1] == len(track) - 1)


def _outline():
    from matplotlib import patheffects

    return [patheffects.withStroke(linewidth=2.2, foreground="black", alpha=0.35)]


def plot_trajectories(
    court: Court,
    times,
    positions,
    teams,
    path: str | os.PathLike,
    end: str | None = None,
    zoom=None,
    dpi: int = DEFAULT_DPI,
) -> None:
    """Draw discs' paths on the court and the discs where they came to rest, labelled with their value.

    ``positions`` is (T, N, 2) in metres at ``times`` (T,), NaN once a disc has fallen or dropped
    in a hole: its path ends with a cross where it was last seen.
    """
    times, positions, teams = _check_trajectories(times, positions, teams)
    court = as_court(court)
    judged = court.for_end(end)
    box = extent(court) if zoom is None else zoom_box(court, zoom)
    fig = court_figure(box[2] - box[0], box[3] - box[1])
    ax = fig.add_subplot()
    draw_court(ax, court, end=judged.end)
    colours = team_colours(court, teams)
    resting = []
    for k, colour in enumerate(colours):
        track = positions[:, k, :]
        last, stayed = _last_finite(track)
        if last < 0:
            continue
        ax.plot(
            track[: last + 1, 0],
            track[: last + 1, 1],
            color=colour,
            linewidth=1.2,
            alpha=0.9,
            zorder=4,
            path_effects=_outline(),
        )
        ax.plot(
            track[0, 0],
            track[0, 1],
            marker="o",
            markersize=3,
            color=colour,
            markeredgecolor="black",
            markeredgewidth=0.4,
            zorder=4.5,
        )
        if stayed:
            resting.append(k)
        else:
            ax.plot(
                track[last, 0],
                track[last, 1],
                marker="x",
                markersize=7,
                color=colour,
                markeredgewidth=2,
                zorder=5,
                path_effects=_outline(),
            )
    if resting:
        xs, ys = positions[-1, resting, 0], positions[-1, resting, 1]
        draw_discs(ax, court, xs, ys, [teams[k] for k in resting], judged_labels(judged, xs, ys))
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    finish_axes(ax, court, f"{court.title}: {positions.shape[1]} discs, {times[-1] - times[0]:.2f} s")
    fig.savefig(os.fspath(path), dpi=dpi)


def _interpolator(times: np.ndarray, positions: np.ndarray):
    """(N, 2) positions at time t: linear between samples, NaN if either neighbour is NaN."""

    def at(t: float) -> np.ndarray:
        i = int(np.searchsorted(times, t, side="right")) - 1
        i = min(max(i, 0), len(times) - 1)
        if i == len(times) - 1 or times[i + 1] == times[i]:
            return positions[i]
        w = (t - times[i]) / (times[i + 1] - times[i])
        return (1 - w) * positions[i] + w * positions[i + 1]

    return at


def animate_trajectories(
    court: Court,
    times,
    positions,
    teams,
    path: str | os.PathLike,
    fps: int = 20,
    end: str | None = None,
    zoom=None,
    dpi: int = 72,
) -> None:
    """Write an animated GIF of the discs moving in real time (``fps`` frames per second).

    Positions between samples are interpolated linearly; a disc disappears once its position is NaN
    (fallen or holed). Long shots are sampled more sparsely so that there are at most ``MAX_FRAMES``.
    """
    from matplotlib.animation import FuncAnimation, PillowWriter
    from matplotlib.patches import Circle

    times, positions, teams = _check_trajectories(times, positions, teams)
    if not (isinstance(fps, (int, np.integer)) and fps > 0):
        raise ValueError(f"fps must be a positive integer, got {fps!r}")
    court = as_court(court)
    judged = court.for_end(end)
    duration = float(times[-1] - times[0])
    n_frames = int(min(MAX_FRAMES, max(2, math.ceil(duration * fps) + 1)))
    frame_times = np.linspace(times[0], times[-1], n_frames)
    box = extent(court) if zoom is None else zoom_box(court, zoom)
    fig = court_figure(box[2] - box[0], box[3] - box[1], longest_in=8.0, min_width_in=3.0)
    ax = fig.add_subplot()
    draw_court(ax, court, end=judged.end)
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    colours = team_colours(court, teams)
    r = court.disc_radius
    discs = [
        ax.add_patch(Circle((0.0, 0.0), r, facecolor=c, edgecolor="black", linewidth=0.8, zorder=5)) for c in colours
    ]
    trails = [ax.plot([], [], color=c, linewidth=1.0, alpha=0.8, zorder=4)[0] for c in colours]
    clock = ax.text(
        0.02,
        0.98,
        "",
        transform=ax.transAxes,
        ha="left",
        va="top",
        fontsize=8,
        bbox=dict(facecolor="white", alpha=0.7, edgecolor="none"),
        zorder=7,
    )
    at = _interpolator(times, positions)

    def update(frame: int):
        t = frame_times[frame]
        now = at(t)
        upto = int(np.searchsorted(times, t, side="right"))
        for k, (disc, trail) in enumerate(zip(discs, trails, strict=True)):
            x, y = now[k]
            visible = bool(np.isfinite(x) and np.isfinite(y))
            disc.set_visible(visible)
            if visible:
                disc.set_center((x, y))
            trail.set_data(np.append(positions[:upto, k, 0], x), np.append(positions[:upto, k, 1], y))
        clock.set_text(f"t = {t - times[0]:.2f} s")
        return [*discs, *trails, clock]

    animation = FuncAnimation(fig, update, frames=n_frames, blit=False)
    animation.save(os.fspath(path), writer=PillowWriter(fps=int(fps)), dpi=dpi)
