"""One shot run to rest among the resting discs of a board, in numba, under the court's motion law:
what the deck engine and the win search's rollouts share (``_deck_half_round``,
``search.deck_rollout``, ``search.crokinole_rollout``).

A board here is the first ``n`` entries of arrays (x, y, team code, ...) that the engines keep per
game or per sample; the shot disc becomes entry ``n``. The shot runs in the event loop
(``numba_api.run_from_start``) under the law the court takes (``numba_api.court_law``: closed form
on a flat court under Coulomb friction, integrated otherwise) with its arrays (``motion``,
``numba_api.court_motion``); ``logs`` are the event log and the segment table the kernel writes
(either may have no rows: it then records nothing). A kernel taking the law is compiled once per
law it meets, so a flat court's loops hold nothing of the integrated law.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.numba_api import (
    DEAD,
    DISC_DISC,
    STATUS,
    STATUS_FALLEN,
    TOUCHED,
    new_state,
    run_from_start,
)

#: Starts are never refused for touching a cushion or peg: a plan starts on its stance, clear of them.
NO_OVERLAP_CHECK = math.inf


@jit.inline
def run_among(law, motion, board, n, launch, team, logs, max_events):
    """Run a disc of ``team`` launched (x, y, vx, vy, spin) among the ``n`` resting discs of ``board``
    (x, y, team code) to rest under ``law``, and enter it on the board as disc ``n`` where it
    started. Returns the discs' integer state rows (``STATUS``, ``DEAD``, ``TOUCHED``, ...), their
    rest rows (n + 1, 5: x, y, vx, vy, spin) and the number of events logged."""
    bx, by, team_of = board
    sx, sy, vx, vy, w = launch
    m = n + 1
    state = new_state(law, np.int64(m))
    start = np.zeros((m, 5))
    rest = np.empty((m, 5))
    for i in range(n):
        start[i, 0] = bx[i]
        start[i, 1] = by[i]
    start[n, 0] = sx
    start[n, 1] = sy
    start[n, 2] = vx
    start[n, 3] = vy
    start[n, 4] = w
    _, n_ev, _, _, _ = run_from_start(law, motion, start, NO_OVERLAP_CHECK, state, logs[0], logs[1], max_events, rest)
    bx[n] = sx
    by[n] = sy
    team_of[n] = team
    return state[1], rest, n_ev


@jit.inline
def dead_touched_live(ev, n_ev):
    """MSA C-20a: whether a dead disc touched a live one during the shot (the kernel's contact log)."""
    touched = False
    for e in range(n_ev):
        if ev[e, 1] == DISC_DISC and (ev[e, 4] != 0.0) != (ev[e, 5] != 0.0):
            touched = True
            break
    return touched


@jit.inline
def out_of_play(ist, i):
    """Whether disc ``i`` left play during the shot: fallen, or dead by the kernel (backstop, baseline)."""
    return ist[STATUS, i] == STATUS_FALLEN or ist[DEAD, i] != 0


@jit.inline
def moved(ist, i, n):
    """Whether disc ``i`` may have moved during the shot of disc ``n``: the shot disc or one it touched
    (a disc nothing touched rests where it was placed)."""
    return i == n or ist[TOUCHED, i] != 0
