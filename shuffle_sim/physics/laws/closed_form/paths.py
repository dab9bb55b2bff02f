"""The closed-form law's trajectory log: a row at every start of a disc's motion, and every disc's
centre at given times read back from it (numba).

The log ``seg`` (S, ``state.SEG_COLUMNS``) holds one motion segment per row: from time t, disc,
status, x, y, vx, vy, omega, and the row of the event log whose event started it (-1 at the start).
One event may start several segments (a disc-disc impact, a group moving as one). A log with no
rows records nothing (the batch API's case); the integers in it are exact.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.laws.closed_form.disc_state import kinematics
from shuffle_sim.physics.laws.closed_form.slide import motion_after, start_reference
from shuffle_sim.physics.state import STATUS, segment_at, write_segment
from shuffle_sim.physics.tables.court_table import H_DECEL, H_RADIUS, H_SPIN_DECEL


@jit.inline
def log_segment(orbit_tables, radius, st, ist, seg, n, i, t, decel, spin_decel, event):
    if n < seg.shape[0]:  # (the loop also checks before calling, so that no log costs nothing)
        x, y, vx, vy, w = kinematics(orbit_tables, radius, st, ist, i, t, decel, spin_decel)
        write_segment(seg, n, t, i, ist[STATUS, i], x, y, vx, vy, w, event)
        return n + 1
    return n


@jit.no_refcount
def sample_paths(table, orbit_tables, seg, n_discs, times, out):
    """Every disc's centre at each of ``times``, in closed form from a trajectory log ``seg``.

    ``out`` is (T, N, 2). A disc is NaN before its first segment and once it has fallen or been
    holed. ``times`` must be sorted. Each segment's motion is started again from its logged state, as
    the kernel started it.
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    for i in range(n_discs):
        k = np.int64(-1)  # the row of the disc's current segment
        nxt = np.int64(0)  # the next row to look at
        for f in range(times.shape[0]):
            t = times[f]
            k, nxt, in_play = segment_at(seg, i, t, k, nxt)
            if not in_play:
                out[f, i, 0] = math.nan
                out[f, i, 1] = math.nan
                continue
            ux, uy, speed, w, _, _, mode, sigma0, reach, theta = start_reference(
                orbit_tables,
                radius,
                seg[k, 0],
                seg[k, 3],
                seg[k, 4],
                seg[k, 5],
                seg[k, 6],
                seg[k, 7],
                decel,
                spin_decel,
            )
            s, _, _ = motion_after(
                orbit_tables, radius, mode, sigma0, reach, theta, speed, w, decel, spin_decel, t - seg[k, 0]
            )
            out[f, i, 0] = seg[k, 3] + ux * s
            out[f, i, 1] = seg[k, 4] + uy * s
