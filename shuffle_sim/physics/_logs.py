"""The kernel's logs: the event log and the trajectory log, and positions sampled from the latter.

Arrays (see ``_motion`` for the state rows):
  ev (E, EV_COLUMNS) float64: the event log, one event per row: time, kind, a, b, a_dead, b_dead
  (standing just before the event);
  seg (S, SEG_COLUMNS) float64: the trajectory log, one motion segment per row: from time t, disc,
  status, x, y, vx, vy, omega, and the row of the event log whose event started it (-1 at the
  start). One event may start several segments (a disc-disc impact, a group moving as one).
A log with no rows records nothing (the batch API's case); the integers in the logs are exact.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import H_DECEL, H_RADIUS, H_SPIN_DECEL
from shuffle_sim.physics._disc_state import kinematics
from shuffle_sim.physics._motion import STATUS, motion_after, start_reference
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_HOLED

#: Columns of the event log and of the trajectory log.
EV_COLUMNS = 6
SEG_COLUMNS = 9


@jit.inline
def log_event(ev, n, t, kind, a, b, a_dead, b_dead):
    if n < ev.shape[0]:
        ev[n, 0] = t
        ev[n, 1] = kind
        ev[n, 2] = a
        ev[n, 3] = b
        ev[n, 4] = a_dead
        ev[n, 5] = b_dead
        return n + 1
    return n


@jit.inline
def log_segment(orbits, radius, st, ist, seg, n, i, t, decel, spin_decel, event):
    if n < seg.shape[0]:  # (the loop also checks before calling, so that no log costs nothing)
        x, y, vx, vy, w = kinematics(orbits, radius, st, ist, i, t, decel, spin_decel)
        seg[n, 0] = t
        seg[n, 1] = i
        seg[n, 2] = ist[STATUS, i]
        seg[n, 3] = x
        seg[n, 4] = y
        seg[n, 5] = vx
        seg[n, 6] = vy
        seg[n, 7] = w
        seg[n, 8] = event
        return n + 1
    return n


@jit.no_refcount
def sample_trajectories(table, orbits, seg, n_discs, times, out):
    """Every disc's centre at each of ``times``, in closed form from a trajectory log ``seg``.

    ``out`` is (T, N, 2). A disc is NaN before its first segment and once it has fallen or been
    holed. ``times`` must be sorted. Each segment's motion is started again from its logged state, as
    the kernel started it.
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    for i in range(n_discs):
        k = -1  # the row of the disc's current segment
        nxt = 0  # the next row to look at
        for f in range(times.shape[0]):
            t = times[f]
            while nxt < seg.shape[0] and seg[nxt, 0] <= t:
                if seg[nxt, 1] == i:
                    k = nxt
                nxt += 1
            if k < 0 or seg[k, 2] == STATUS_FALLEN or seg[k, 2] == STATUS_HOLED:
                out[f, i, 0] = math.nan
                out[f, i, 1] = math.nan
                continue
            ux, uy, speed, w, _, _, mode, sigma0, reach, theta = start_reference(
                orbits, radius, seg[k, 0], seg[k, 3], seg[k, 4], seg[k, 5], seg[k, 6], seg[k, 7], decel, spin_decel
            )
            s, _, _ = motion_after(
                orbits, radius, mode, sigma0, reach, theta, speed, w, decel, spin_decel, t - seg[k, 0]
            )
            out[f, i, 0] = seg[k, 3] + ux * s
            out[f, i, 1] = seg[k, 4] + uy * s
