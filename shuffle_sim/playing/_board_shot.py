"""One shot run to rest among the resting discs of a board, in numba: what the deck engine and the
win search's rollouts share (``_deck_half_round``, ``search.deck_rollout``, ``search.crokinole_rollout``).

A board here is the first ``n`` entries of arrays (x, y, team code, ...) that the engines keep per
game or per sample; the shot disc becomes entry ``n``. ``motion`` is the flat court as the
closed-form law's kernels take it (packed table, orbit tables), ``logs`` the event log and the
segment table the kernel writes (either may have no rows: it then records nothing).
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.numba_api import (
    DEAD,
    DISC_DISC,
    N_FLOAT_ROWS,
    N_INT_ROWS,
    STATUS,
    STATUS_FALLEN,
    TOUCHED,
    place_disc,
    run_table,
)


@jit.inline
def run_among(motion, board, n, launch, team, logs, max_events):
    """Run a disc of ``team`` launched (x, y, vx, vy, spin) among the ``n`` resting discs of ``board``
    (x, y, team code) to rest, and enter it on the board as disc ``n`` where it started. Returns the
    kernel's state (float rows, int rows), the number of events logged and the time everything came
    to rest."""
    table, orbit_tables = motion
    bx, by, team_of = board
    sx, sy, vx, vy, w = launch
    m = n + 1
    st = np.empty((N_FLOAT_ROWS, m))
    ist = np.empty((N_INT_ROWS, m), np.int64)
    pair_t = np.full((m, m), np.inf)
    for i in range(n):
        place_disc(table, orbit_tables, st, ist, i, bx[i], by[i], 0.0, 0.0, 0.0)
    place_disc(table, orbit_tables, st, ist, n, sx, sy, vx, vy, w)
    n_ev, _, _, t_end, _ = run_table(table, orbit_tables, st, ist, pair_t, logs[0], logs[1], max_events)
    bx[n] = sx
    by[n] = sy
    team_of[n] = team
    return st, ist, n_ev, t_end


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
