"""The pictures and figures of docs/court-speed.md: what a court's speed changes.

Runs experiments/deck-draw-court-speed.toml (the same deck draw plan on a 5 s and a 14 s court, by an
average and an expert player) unless its results are already in ``--results``, and draws into
``--figures``:

* ``p10-maps.png``: the chance of a 10 over the aim points, 2 x 2 (player x court speed), on the foot
  end of the court;
* ``p10-centre-line.png``: the same along the court's centre line, the four together;
* ``speed-error.png``: each player's launch-speed error against launch speed (the floor), with the
  launches of a draw to the 10 on both courts marked;
* ``impacts.png``: the crokinole discs' restitution against impact speed (the law, and as the kernel
  plays it: from the shooter's slide after a head-on hit) and the shooter's follow-through;
* ``drift.png``: how far a grade of 1 in 1000 across the court pulls a kitchen-to-kitchen shot
  sideways, against the court's speed (the closed form of ``shuffle_sim.calibrate.forward``).

It prints the figures the page quotes::

    python experiments/court_speed_pictures.py --figures docs/court-speed
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from shuffle_sim.calibrate.forward import rest_and_time
from shuffle_sim.court import load_court
from shuffle_sim.experiment import run_experiment
from shuffle_sim.experiment.spec import load_experiment
from shuffle_sim.experiment.store import open_results
from shuffle_sim.noise import skill_preset
from shuffle_sim.physics import DISC_DISC, restitution_at, simulate
from shuffle_sim.physics.scene import Scene
from shuffle_sim.plot import draw_court
from shuffle_sim.units import FOOT

HERE = Path(__file__).resolve().parent
EXPERIMENT = HERE / "deck-draw-court-speed.toml"
DPI = 120


def results(folder: Path):
    """The experiment's results: read from ``folder`` if complete there, else run into it."""
    if (folder / "grid.nc").is_file():
        return open_results(folder)
    return run_experiment(load_experiment(EXPERIMENT), folder, progress=False).grid.to_xarray()


def p10_maps(ds, path: Path) -> dict:
    deck = load_court("deck")
    fig = Figure(figsize=(9.5, 9.0))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2, sharex=True, sharey=True)
    p10 = ds["p_value"].sel(value=10)
    x, y = ds["target_x"].values, ds["target_y"].values
    dx, dy = x[1] - x[0], y[1] - y[0]
    best = {}
    for i, skill in enumerate(ds["skill"].values):
        for j, seconds in enumerate(ds["court_speed"].values):
            ax = axes[i, j]
            grid = p10.sel(skill=skill, court_speed=seconds).transpose("target_y", "target_x").values
            draw_court(ax, deck)
            mesh = ax.pcolormesh(
                np.append(x - dx / 2, x[-1] + dx / 2),
                np.append(y - dy / 2, y[-1] + dy / 2),
                grid,
                cmap="viridis",
                vmin=0.0,
                vmax=0.8,
                alpha=0.85,
                zorder=4,
                shading="flat",
            )
            k = np.unravel_index(np.nanargmax(grid), grid.shape)
            best[(str(skill), float(seconds))] = (float(grid[k]), float(x[k[1]]), float(y[k[0]]))
            ax.plot([x[k[1]]], [y[k[0]]], marker="+", color="white", markersize=10, zorder=6)
            ax.set_title(f"{skill} player, {seconds:g} s court: best P(10) {grid[k]:.2f}", fontsize=10)
            ax.set_xlim(-1.0, 1.0)
            ax.set_ylim(33.5 * FOOT, 41.5 * FOOT)
            ax.set_aspect("equal")
            ax.set_xlabel("aim point x (m)" if i == 1 else "")
            ax.set_ylabel("aim point y (m)" if j == 0 else "")
    bar = fig.colorbar(mesh, ax=axes, shrink=0.6)
    bar.set_label("probability of a 10")
    fig.suptitle(
        "The same draw plan on a slow (5 s) and a fast (14 s) deck court: chance of a 10 by aim point\n"
        "(launch speed: the one that stops at the aim point on that court; 100 noisy shots per point)",
        fontsize=11,
    )
    fig.savefig(path, dpi=DPI)
    return best


def p10_centre_line(ds, path: Path) -> None:
    fig = Figure(figsize=(8, 4.5))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    p10 = ds["p_value"].sel(value=10).sel(target_x=0.0, method="nearest")
    y = ds["target_y"].values / FOOT
    styles = {"average": "-", "expert": "--"}
    colours = {5.0: "tab:red", 14.0: "tab:blue"}
    for skill in ds["skill"].values:
        for seconds in ds["court_speed"].values:
            ax.plot(
                y,
                p10.sel(skill=skill, court_speed=seconds).values,
                styles[str(skill)],
                color=colours[float(seconds)],
                label=f"{skill}, {seconds:g} s court",
            )
    for edge in (35, 38):
        ax.axvline(edge, color="grey", linewidth=0.8)
    ax.text(36.5, ax.get_ylim()[1] * 0.97, "10 zone", ha="center", va="top", fontsize=9, color="grey")
    ax.set_xlabel("aim point along the centre line (ft from the head end)")
    ax.set_ylabel("probability of a 10")
    ax.set_title("Chance of a 10 aiming down the centre line, by player and court speed", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)


def draw_speed(seconds: float, distance: float) -> float:
    """Launch speed (m/s) that slides ``distance`` on the deck of that speed: sqrt(2 mu g d)."""
    court = load_court("deck").with_params(speed=f"{seconds!r} s")
    return math.sqrt(2 * court.params["mu"] * court.params["gravity"] * distance)


def speed_error(path: Path) -> dict:
    fig = Figure(figsize=(8, 4.5))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    v = np.linspace(0.3, 5.0, 200)
    distance = 37.35 * FOOT - 7.25 * FOOT  # the start to the middle of the 10
    launches = {s: draw_speed(s, distance) for s in (5.0, 14.0)}
    figures = {}
    for name, colour in (("average", "tab:orange"), ("expert", "tab:green")):
        model = skill_preset("deck", name)
        ax.plot(
            v,
            100 * np.hypot(model.speed * v, model.speed_floor) / v,
            color=colour,
            label=f"{name}: {100 * model.speed:g} % and {model.speed_floor:g} m/s",
        )
        ax.axhline(100 * model.speed, color=colour, linewidth=0.7, linestyle=":")
        for seconds, speed in launches.items():
            figures[(name, seconds)] = model.speed_sd(speed) / speed
    for seconds, speed in launches.items():
        ax.axvline(speed, color="grey", linewidth=0.8)
        ax.text(speed, 9.5, f" draw to the 10,\n {seconds:g} s court", fontsize=8, va="top")
    ax.set_ylim(0, 10)
    ax.set_xlabel("launch speed (m/s)")
    ax.set_ylabel("speed error, sd (% of the speed)")
    ax.set_title("A deck player's speed error: proportional part (dotted) and its floor", fontsize=11)
    ax.legend(fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    figures["launch"] = launches
    return figures


def head_on(court, impact: float):
    """(effective restitution, the shooter's slide after the hit) of a head-on hit of a resting disc."""
    r = court.disc_radius
    a = court.params["mu"] * court.params["gravity"]
    gap, target_y = 0.08, -0.2
    start_y = target_y - 2 * r - gap
    v0 = math.sqrt(impact**2 + 2 * a * gap)
    result = simulate(
        Scene(
            court=court,
            x=np.zeros(2),
            y=np.array([start_y, target_y]),
            vx=np.zeros(2),
            vy=np.array([v0, 0.0]),
            omega=np.zeros(2),
        )
    )
    t = result.events.t[list(result.events.kind).index(DISC_DISC)]
    slide = result.y[0] - (start_y + v0 * t - 0.5 * a * t * t)
    return 1.0 - 2.0 * math.sqrt(2 * a * max(slide, 0.0)) / impact, slide


def impacts(path: Path) -> dict:
    court = load_court("crokinole")
    e0, v_y = court.params["disc_restitution"], court.params["disc_yield_speed"]
    fig = Figure(figsize=(10, 4.2))
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    v = np.linspace(0.05, 3.0, 300)
    left.plot(v, [restitution_at(e0, v_y, s) for s in v], color="tab:blue", label="the law: 0.85, (0.7 / v)^(1/4)")
    speeds = [0.3, 0.6, 0.9, 1.2, 1.5, 2.0, 2.5]
    measured = [head_on(court, s) for s in speeds]
    left.plot(speeds, [m[0] for m in measured], "o", color="tab:blue", label="from the shooter's slide (kernel)")
    left.axhline(0.85, color="grey", linestyle=":", linewidth=0.8, label="a constant 0.85")
    left.set_xlabel("normal impact speed (m/s)")
    left.set_ylabel("restitution")
    left.set_ylim(0.5, 0.9)
    left.set_title("Crokinole discs: restitution against impact speed", fontsize=10)
    left.legend(fontsize=8)
    left.grid(alpha=0.3)
    constant = court.with_params(disc_yield_speed=math.inf)
    right.plot(speeds, [1000 * m[1] for m in measured], "o-", color="tab:blue", label="the board's law")
    right.plot(speeds, [1000 * head_on(constant, s)[1] for s in speeds], "s--", color="grey", label="a constant 0.85")
    right.set_xlabel("impact speed, head-on (m/s)")
    right.set_ylabel("shooter's follow-through (mm)")
    right.set_title("Hit slowly the shooter stops dead; hard, it follows through", fontsize=10)
    right.legend(fontsize=8)
    right.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    return {s: m for s, m in zip(speeds, measured)}


def drift(path: Path) -> dict:
    deck = load_court("deck")
    g = deck.params["gravity"]
    d = deck.speed_course.length
    seconds = np.linspace(4.0, 20.0, 81)
    sideways = []
    for t in seconds:
        mu = 2 * d / (g * t * t)
        rx, _, _ = rest_and_time(0.0, 7.25 * FOOT, 0.0, math.sqrt(2 * mu * g * d), mu, 0.001, 0.0, g)
        sideways.append(float(rx))
    fig = Figure(figsize=(8, 4.2))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.plot(seconds, 100 * np.array(sideways), color="tab:purple")
    marks = {}
    for t in (5.0, 14.0):
        k = int(np.argmin(np.abs(seconds - t)))
        marks[t] = sideways[k]
        ax.plot([t], [100 * sideways[k]], "o", color="tab:purple")
        ax.annotate(
            f"{t:g} s: {100 * sideways[k]:.1f} cm",
            (t, 100 * sideways[k]),
            textcoords="offset points",
            xytext=(6, -12),
            fontsize=9,
        )
    ax.set_xlabel("court speed (s, kitchen to kitchen)")
    ax.set_ylabel("sideways drift at rest (cm)")
    ax.set_title("A grade of 1 in 1000 across the court: drift of a kitchen-to-kitchen shot", fontsize=11)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    return marks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results/deck-draw-court-speed", help="the experiment's results folder")
    parser.add_argument("--figures", default="docs/court-speed", help="where the pictures go")
    args = parser.parse_args(argv)
    figures = Path(args.figures)
    figures.mkdir(parents=True, exist_ok=True)
    ds = results(Path(args.results))
    best = p10_maps(ds, figures / "p10-maps.png")
    p10_centre_line(ds, figures / "p10-centre-line.png")
    for (skill, seconds), (p, x, y) in sorted(best.items()):
        mean = float(ds["p_value"].sel(value=10, skill=skill, court_speed=seconds).mean())
        print(
            f"{skill:8s} {seconds:4g} s: best P(10) {p:.3f} aiming at x = {x:+.3f} m, y = {y / FOOT:.2f} ft; "
            f"mean over the aim points {mean:.4f}"
        )
    errors = speed_error(figures / "speed-error.png")
    for seconds, speed in errors.pop("launch").items():
        print(f"draw to the middle of the 10 on the {seconds:g} s court: launch {speed:.3f} m/s")
    for (name, seconds), relative in sorted(errors.items()):
        print(f"  {name:8s} {seconds:4g} s: speed error {100 * relative:.2f} % of the launch")
    for speed, (e, slide) in impacts(figures / "impacts.png").items():
        print(
            f"crokinole head-on at {speed:.1f} m/s: restitution {e:.4f}, shooter follows through {1000 * slide:.1f} mm"
        )
    for seconds, metres in drift(figures / "drift.png").items():
        print(f"1 in 1000 across, kitchen to kitchen on a {seconds:g} s court: drift {100 * metres:.1f} cm")
    print(f"pictures in {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
