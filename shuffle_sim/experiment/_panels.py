"""The parts that the outcome maps (``heatmaps``) and the difference maps (``difference_maps``) draw
alike: the court panel beside a map, the shot and the board on it, and the cell edges of a map."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.ticker import MaxNLocator

from shuffle_sim.court import Court
from shuffle_sim.court.friction_law import stop_distance
from shuffle_sim.plot import draw_court, draw_discs


def cell_edges(centres: np.ndarray) -> np.ndarray:
    """Cell edges around sorted cell centres (half-way between neighbours)."""
    c = np.asarray(centres, dtype=np.float64)
    if c.size == 1:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = (c[1:] + c[:-1]) / 2
    return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])


def draw_board_and_shot(ax, ds, court: Court, axes: list[str]) -> None:
    """The board's resting discs, the shot's start and, unless the plot sweeps the aim point, its aim
    point, or the fan of swept directions out to where the fastest swept shot would stop."""
    if "board_x" in ds.coords:
        draw_discs(ax, court, ds["board_x"].values, ds["board_y"].values, [str(t) for t in ds["board_team"].values])
    sx, sy = float(ds.attrs["shot_start_x"]), float(ds.attrs["shot_start_y"])
    ax.plot([sx], [sy], marker="o", color="tab:red", markersize=4, zorder=6)
    target = ds.attrs.get("shot_target", "none")
    if target != "none" and not {"target_x", "target_y"} <= set(axes):
        tx, ty = (float(v) for v in target.split())
        ax.plot([sx, tx], [sy, ty], color="tab:red", linewidth=0.8, linestyle="--", zorder=6)
        ax.plot([tx], [ty], marker="x", color="tab:red", markersize=6, zorder=6)
    elif "direction" in axes:
        # The swept directions, out to where the fastest swept shot would stop on a bare surface.
        speeds = ds["speed"].values if "speed" in ds.coords else np.array([1.0])
        g = float(ds.attrs["gravity"])
        mu, mu_speed = float(ds.attrs["mu"]), float(ds.attrs.get("mu_speed", 0.0))
        reach = stop_distance(float(np.max(speeds)), mu * g, mu_speed * g)
        xmin, ymin, xmax, ymax = court.bounds
        reach = min(reach, 2 * math.hypot(xmax - xmin, ymax - ymin))
        for deg in (float(ds["direction"].values.min()), float(ds["direction"].values.max())):
            a = math.radians(deg)
            ax.plot(
                [sx, sx + reach * math.sin(a)], [sy, sy + reach * math.cos(a)], color="tab:red", linewidth=0.7, zorder=6
            )


def draw_court_panel(court_ax, court: Court, tall: float) -> None:
    """The court beside the plot, named (its end on a line of its own, to fit over a narrow court),
    with its few ticks."""
    draw_court(court_ax, court)
    court_ax.set_title(f"{court.name}\n({court.end} end)" if len(court.ends) > 1 else court.name, fontsize=9)
    court_ax.set_xlabel("x (m)", fontsize=8)
    court_ax.set_ylabel("y (m)", fontsize=8)
    court_ax.xaxis.set_major_locator(MaxNLocator(2 if tall > 8 else 3 if tall > 3 else 5))
    court_ax.tick_params(labelsize=7)
