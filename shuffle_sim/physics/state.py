"""The discs' state as the event loop reads it, whatever the motion law, and the event log (numba).

The state is a structure of arrays with one column per disc: ``st[ROW, i]`` (float64) and
``ist[ROW, i]`` (int64). The rows below come first in both laws, so that one event loop
(``loop``) finds every disc's pending events, standing and body in the same places; each
motion law keeps its own rows after them (``laws.closed_form.slide``, ``laws.integrated.state``).

A *body* is what moves as one: a disc, or discs pushed together that move on as a group. Its
lowest-numbered disc, the leader (``LEADER``), holds the body's own next event (``T_NEXT``,
``NEXT_KIND``, ``NEXT_B`` and the disc it happens to, ``NEXT_DISC``); in the closed-form law every
disc is its own body. Kill-line crossings and spin stops are each disc's own.

The event log has a row per event: time, kind, a, b, a_dead, b_dead (``a`` and ``b``'s standing just
before the event); a log with no rows records nothing.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import DISC_DISC, KILLED, SPIN_STOP, STATUS_FALLEN, STATUS_HOLED

# Float rows shared by every law.
T_NEXT = 0  # time of the body's next own event (stop, cushion, peg, fall, hole, ...), inf if none
T_KILL = 1  # time the disc becomes dead by a kill line, inf if never
T_SPIN = 2  # time the disc's spin stops on its own, inf if it does not
COMMON_FLOAT_ROWS = 3

# Integer rows shared by every law.
STATUS = 0  # events.STATUS_*
DEAD = 1  # 1 once dead (kill line, killing cushion)
TOUCHED = 2  # 1 once another disc has touched it
MOVED = 3  # scratch: 1 while the disc's motion has changed and its events are not yet predicted again
LEADER = 4  # the disc that holds the motion of this disc's body (itself when alone)
NEXT_KIND = 5  # kind of the body's event at T_NEXT
NEXT_B = 6  # its b: the court table row of the cushion, peg, hole or edge, or -1
NEXT_DISC = 7  # the disc of the body the event at T_NEXT happens to
KILL_B = 8  # the table row of the kill line at T_KILL
COMMON_INT_ROWS = 9

#: Below this speed (m/s) or spin (rad/s) a disc is at rest: impulses leave rounding residues of
#: about 1e-17 that would otherwise each cost a stop event.
REST_SPEED = 1e-12

#: Columns of the event log.
EV_COLUMNS = 6


@jit.inline
def log_event(ev, n, t, kind, a, b, a_dead, b_dead):
    """Write one event into row ``n`` of the log ``ev`` if it has room; the next free row."""
    if n < ev.shape[0]:
        _write_row(ev, n, (t, float(kind), float(a), float(b), float(a_dead), float(b_dead)))
        return n + 1
    return n


@jit.inline
def write_segment(seg, n, t, i, status, x, y, vx, vy, w, event):
    """The nine columns every law's trajectory log starts with: from time t, disc i with its status
    slides from (x, y) at (vx, vy) spinning at w; ``event`` is the row of the event log that started
    it (-1 at the start)."""
    _write_row(seg, n, (t, float(i), float(status), x, y, vx, vy, w, float(event)))


@jit.inline
def _write_row(log, n, values):
    """The first columns of row ``n`` of a log, from a tuple of floats."""
    for c in range(len(values)):
        log[n, c] = values[c]


#: Columns every trajectory log starts with (``write_segment``).
SEG_COLUMNS = 9


@jit.inline
def earliest_event(st, ist, pair_t):
    """(t, kind, a, b) of the earliest pending event: a body's own event, a disc's kill-line crossing
    or spin stop, or a pair's impact; kind -1 when nothing is pending. Ties go to the disc with the
    lowest index, then to a body's own events over kill lines over spin stops over impacts."""
    n = st.shape[1]
    t = math.inf
    kind = np.int64(-1)
    a = np.int64(-1)
    b = np.int64(-1)
    for i in range(n):
        if ist[STATUS, i] >= STATUS_FALLEN:
            continue
        if ist[LEADER, i] == i and st[T_NEXT, i] < t:
            t, kind, a, b = st[T_NEXT, i], ist[NEXT_KIND, i], ist[NEXT_DISC, i], ist[NEXT_B, i]
        if st[T_KILL, i] < t:
            t, kind, a, b = st[T_KILL, i], KILLED, i, ist[KILL_B, i]
        if st[T_SPIN, i] < t:
            t, kind, a, b = st[T_SPIN, i], SPIN_STOP, i, -1
    for i in range(n):
        for j in range(i + 1, n):
            if pair_t[i, j] < t:
                t, kind, a, b = pair_t[i, j], DISC_DISC, i, j
    return t, kind, a, b


@jit.inline
def segment_at(seg, i, t, k, nxt):
    """Disc i's segment of the trajectory log ``seg`` at time t (times looked up in increasing order):
    (its row, or -1 before the disc's first; the next row to look at; whether the disc is in play
    there). ``k`` and ``nxt`` are the previous lookup's row and next row (-1 and 0 at first)."""
    while nxt < seg.shape[0] and seg[nxt, 0] <= t:
        if seg[nxt, 1] == i:
            k = nxt
        nxt += 1
    in_play = k >= 0 and seg[k, 2] != STATUS_FALLEN and seg[k, 2] != STATUS_HOLED
    return k, nxt, in_play
