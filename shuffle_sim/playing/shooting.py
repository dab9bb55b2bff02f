"""One shot through the kernel, as every game driver plays it.

``shoot`` runs a board plus one launched disc to rest with ``physics.simulate`` and hands back what
the rules layer takes (``rules.rulings.ShotOutcome``: resting positions with fallen discs in the
gutter, alley or ditch beyond the edge they crossed, the disc-disc contacts in time order and the
kernel's dead standing). Game drivers make many tiny numba calls, so they run on one numba thread
(``one_numba_thread``, ``single_threaded``).
"""

from __future__ import annotations

from functools import wraps

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.physics import simulate
from shuffle_sim.physics.scene import Scene
from shuffle_sim.playing.players import Launch
from shuffle_sim.rules.rulings import ShotOutcome, outcome_of


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


def single_threaded(function):
    """Run ``function`` under ``one_numba_thread`` (the game drivers: many tiny numba calls)."""

    @wraps(function)
    def wrapper(*args, **kwargs):
        with one_numba_thread():
            return function(*args, **kwargs)

    return wrapper
