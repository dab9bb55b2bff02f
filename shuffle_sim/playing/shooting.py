"""One shot through the kernel, as every game driver plays it.

``run_shot`` runs a board plus one launched disc to rest and hands back what the rules layer takes
(``rules.rulings.ShotOutcome``: resting positions with fallen discs in the gutter, alley or ditch
beyond the edge they crossed, the disc-disc contacts in time order and the kernel's dead standing).
``shoot`` does the same through ``physics.simulate``, its ``SimResult`` (events, paths) kept as the
outcome's ``result``: the same rest state, for pictures and for tests that look inside the shot.

A game plays thousands of shots of a few discs each, so ``run_shot`` goes straight to ``simulate``'s
kernel (``numba_api.run_from_start``, under the court's motion law: the same compiled call on the
same numbers, so the same rest state bit for bit) with the event log's buffer kept from shot to shot
and no trajectory log (the rules read none): ``simulate``'s checks of the whole scene and its result
object cost more than the shot. The board's discs came to rest in earlier shots, so only the shot
disc's start is checked; a start ``simulate`` would refuse (not finite, off the surface, on a disc,
cushion or peg) goes to ``simulate``, which says why. Game drivers make many tiny numba calls, so
they run on one numba thread (``one_numba_thread``, ``single_threaded``).
"""

from __future__ import annotations

import math
import threading
from functools import wraps

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.physics import STATUS_FALLEN, simulate
from shuffle_sim.physics.numba_api import (
    DEAD,
    DISC_DISC,
    EV_COLUMNS,
    SEG_COLUMNS,
    STATUS,
    court_law,
    court_motion,
    new_state,
    run_from_start,
)
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE, Scene
from shuffle_sim.playing.players import Launch
from shuffle_sim.rules.common import Contact
from shuffle_sim.rules.rulings import RestState, ShotOutcome, into_gutter, outcome_of

#: The event bound of a game's shot (``physics.simulate``'s default).
MAX_EVENTS = 10_000
#: No trajectory log: the rules read the contacts, never the paths.
_NO_PATHS = np.empty((0, SEG_COLUMNS))
_buffers = threading.local()


def _event_log() -> np.ndarray:
    """This thread's event-log buffer (each processed event logs at most two rows, as ``simulate``)."""
    log = getattr(_buffers, "log", None)
    if log is None:
        log = _buffers.log = np.empty((2 * MAX_EVENTS, EV_COLUMNS))
    return log


def _starts(board_x, board_y, launch: Launch) -> np.ndarray:
    """(N, 5) x, y, vx, vy, omega: the resting board, then the launched disc."""
    bx = np.asarray(board_x, dtype=np.float64).reshape(-1)
    by = np.asarray(board_y, dtype=np.float64).reshape(-1)
    start = np.zeros((bx.size + 1, 5))
    start[:-1, 0] = bx
    start[:-1, 1] = by
    start[-1] = launch.x, launch.y, launch.vx, launch.vy, launch.omega
    return start


def shoot(court: Court, board_x, board_y, launch: Launch, team: list[str] | None = None) -> ShotOutcome:
    """Run the resting board plus the launched disc (last) to rest on ``court`` with ``physics.simulate``
    (its ``SimResult`` is the outcome's ``result``; ``team`` labels the scene's discs)."""
    start = _starts(board_x, board_y, launch)
    scene = Scene(
        court=court,
        x=start[:, 0].copy(),
        y=start[:, 1].copy(),
        vx=start[:, 2].copy(),
        vy=start[:, 3].copy(),
        omega=start[:, 4].copy(),
        team=list(team) if team else [],
        source="shot",
    )
    return outcome_of(court, simulate(scene, MAX_EVENTS))


def run_shot(court: Court, board_x, board_y, launch: Launch) -> ShotOutcome:
    """Run the resting board plus the launched disc (last) to rest on ``court``: a game's shot (module
    docstring); the same rest state, contacts and standing as ``shoot``."""
    start = _starts(board_x, board_y, launch)
    n = start.shape[0]
    if _start_is_clear(court, start):
        law = court_law(court)
        state = new_state(law, n)
        final = np.empty((n, 5))
        log = _event_log()
        bad, n_ev, _, _, _ = run_from_start(
            law, court_motion(court), start, OVERLAP_TOLERANCE, state, log, _NO_PATHS, MAX_EVENTS, final
        )
        if bad < 0:
            return _outcome(court, final, state[1], log[:n_ev], launch.x)
    return shoot(court, start[:-1, 0], start[:-1, 1], launch)


def _start_is_clear(court: Court, start: np.ndarray) -> bool:
    """Whether the shot disc (the last row) starts finite, on the surface and clear of the board's discs."""
    x, y, vx, vy, omega = (float(v) for v in start[-1])
    if not all(math.isfinite(v) for v in (x, y, vx, vy, omega)) or not court.on_surface(x, y):
        return False
    limit = 2.0 * court.disc_radius - OVERLAP_TOLERANCE
    gaps = (start[:-1, 0] - x) ** 2 + (start[:-1, 1] - y) ** 2
    return not bool((gaps < limit * limit).any())


def _outcome(court: Court, final: np.ndarray, ist: np.ndarray, events: np.ndarray, start_x: float) -> ShotOutcome:
    """The rules' view of a shot run by the kernel (``rules.rulings.outcome_of`` for its arrays)."""
    status = ist[STATUS].astype(np.int8)
    x, y = final[:, 0].copy(), final[:, 1].copy()
    fallen = status == STATUS_FALLEN
    if fallen.any():
        for i in np.flatnonzero(fallen):
            x[i], y[i] = into_gutter(court, float(x[i]), float(y[i]))
    contacts = [
        Contact(int(row[2]), int(row[3]), bool(row[4] != 0), bool(row[5] != 0))
        for row in events[events[:, 1] == DISC_DISC]
    ]
    return ShotOutcome(RestState(status), x, y, fallen, ist[DEAD].astype(np.bool_), contacts, float(start_x))


def single_threaded(function):
    """Run ``function`` under ``one_numba_thread`` (the game drivers: many tiny numba calls)."""

    @wraps(function)
    def wrapper(*args, **kwargs):
        with one_numba_thread():
            return function(*args, **kwargs)

    return wrapper
