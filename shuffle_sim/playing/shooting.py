"""One shot through the kernel, as every game driver plays it.

``shoot`` runs a board plus one launched disc to rest with ``physics.simulate`` and hands back what
the rules layer takes: resting positions (a fallen disc is put in the gutter, alley or ditch beyond
the edge it crossed, so that judging sees it off the surface, as ``shuffle_sim.judging`` expects of a
fallen disc), the disc-disc contacts in time order (``rules.common.Contact``) and the kernel's
dead standing. Game drivers make many tiny numba calls, so they run on one numba thread
(``one_numba_thread``, ``single_threaded``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import wraps
from typing import Protocol

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.physics import DISC_DISC, STATUS_FALLEN, SimResult, simulate
from shuffle_sim.physics.scene import Scene
from shuffle_sim.playing.players import Launch
from shuffle_sim.rules.common import Contact

#: A fallen disc is drawn and judged this many disc radii beyond the edge it crossed.
GUTTER_OFFSET = 1.0


class RestStatus(Protocol):
    """What the rules read of a shot's result: each disc's status at rest (a ``SimResult`` has it)."""

    @property
    def status(self) -> np.ndarray: ...


@dataclass
class ShotOutcome:
    """One shot run to rest: positions (fallen discs moved into the gutter), contacts, standing."""

    result: RestStatus
    x: np.ndarray
    y: np.ndarray
    fallen: np.ndarray
    dead: np.ndarray  # the kernel's dead standing (kill line, killing cushion)
    contacts: list[Contact]


def into_gutter(court: Court, x: float, y: float) -> tuple[float, float]:
    """Where a disc that fell at (x, y), on an edge, lies: ``GUTTER_OFFSET`` radii out past that edge."""
    best = (math.inf, 0.0, 0.0)
    for edge in court.edges:
        if edge.kind == "segment":
            x0, y0, x1, y1 = edge.geom
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy)
            u = min(max(((x - x0) * dx + (y - y0) * dy) / (length * length), 0.0), 1.0)
            d = math.hypot(x - (x0 + u * dx), y - (y0 + u * dy))
        else:
            cx, cy, radius, _ = edge.geom
            d = abs(math.hypot(x - cx, y - cy) - radius)
        nx, ny = edge.inward_normal(x, y)
        out = (-nx, -ny)
        if d < best[0]:
            best = (d, *out)
    _, ox, oy = best
    step = GUTTER_OFFSET * court.disc_radius
    gx, gy = x + step * ox, y + step * oy
    while court.on_surface(gx, gy):  # a corner: keep going until off the surface
        gx, gy = gx + step * ox, gy + step * oy
    return gx, gy


def shoot(court: Court, board_x, board_y, launch: Launch, team: list[str] | None = None) -> ShotOutcome:
    """Run the resting board plus the launched disc (last) to rest on ``court``."""
    bx = np.asarray(board_x, dtype=np.float64).reshape(-1)
    by = np.asarray(board_y, dtype=np.float64).reshape(-1)
    n = bx.size
    scene = Scene(
        court=court,
        x=np.append(bx, launch.x),
        y=np.append(by, launch.y),
        vx=np.append(np.zeros(n), launch.vx),
        vy=np.append(np.zeros(n), launch.vy),
        omega=np.append(np.zeros(n), launch.omega),
        team=list(team) if team else [],
        source="shot",
    )
    return outcome_of(court, simulate(scene))


def outcome_of(court: Court, result: SimResult) -> ShotOutcome:
    """What the rules layer takes from a shot run to rest (see the module docstring)."""
    x, y = result.x.copy(), result.y.copy()
    fallen = result.status == STATUS_FALLEN
    for i in np.flatnonzero(fallen):
        x[i], y[i] = into_gutter(court, float(x[i]), float(y[i]))
    ev = result.events
    contacts = [
        Contact(int(ev.a[k]), int(ev.b[k]), bool(ev.a_dead[k]), bool(ev.b_dead[k]))
        for k in range(len(ev))
        if ev.kind[k] == DISC_DISC
    ]
    return ShotOutcome(result, x, y, fallen, result.dead.copy(), contacts)


def single_threaded(function):
    """Run ``function`` under ``one_numba_thread`` (the game drivers: many tiny numba calls)."""

    @wraps(function)
    def wrapper(*args, **kwargs):
        with one_numba_thread():
            return function(*args, **kwargs)

    return wrapper
