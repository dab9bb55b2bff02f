"""One shot among resting discs, run to rest in numba under the court's motion law.

The game engines and the win search's rollouts play shot after shot inside one numba loop; each shot
is the shot disc launched among the board's resting discs and run to rest by the event loop
(``numba_api.run_from_start``) under the law the court takes (``numba_api.court_law``: closed form
on a flat court under Coulomb friction, integrated otherwise) with its arrays (``court_motion``). A
kernel taking the law is compiled once per law it meets, so a flat court's loops hold nothing of the
integrated law.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.numba_api import new_state, run_from_start

#: Starts are never refused for touching a cushion or peg: a plan starts on its stance, clear of them.
NO_OVERLAP_CHECK = math.inf


@jit.inline
def run_board_shot(law, motion, n, bx, by, sx, sy, vx, vy, w, ev, no_seg, max_events):
    """Run a disc launched from (sx, sy) at (vx, vy, w) among the ``n`` discs resting at ``bx``, ``by``
    (the shot disc is disc ``n``). Returns the discs' integer state rows (``STATUS``, ``DEAD``,
    ``TOUCHED``, ...), their rest rows (N + 1, 5: x, y, vx, vy, omega) and the events logged in ``ev``."""
    m = n + 1
    state = new_state(law, np.int64(m))
    start = np.zeros((m, 5))
    final = np.empty((m, 5))
    for i in range(n):
        start[i, 0] = bx[i]
        start[i, 1] = by[i]
    start[n, 0] = sx
    start[n, 1] = sy
    start[n, 2] = vx
    start[n, 3] = vy
    start[n, 4] = w
    _, n_ev, _, _, _ = run_from_start(law, motion, start, NO_OVERLAP_CHECK, state, ev, no_seg, max_events, final)
    return state[1], final, n_ev
