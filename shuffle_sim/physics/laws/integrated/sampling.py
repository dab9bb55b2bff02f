"""Positions along curved paths at any instants, from the curved kernel's trajectory log (numba).

A row of the log (``_curved_bodies.BODY_SEG_COLUMNS``) holds a disc's state where its body's motion
started, its body (leader), its offset from the leader and the body's ride. The body's motion is
integrated again from there with the kernel's own code (its first step, its step-size control, the
same closed-form end), so the steps, and the dense output read at each instant, are the kernel's.
A group's members are the rows of the same instant with the same leader.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import STATUS_MOVING
from shuffle_sim.physics.laws.integrated.dense import OUT_ROWS
from shuffle_sim.physics.laws.integrated.motion import RIDE_NONE, derivatives, onto_ride
from shuffle_sim.physics.laws.integrated.state import (
    C_F,
    C_FINISH,
    C_H_NEXT,
    C_K,
    C_N,
    C_RIDE,
    C_SIGN,
    C_Y,
    I_DENSE,
    N_INT_ROWS,
    N_ROWS,
    PHASE_FINISH,
    PHASE_STEP,
    body_dense,
    constants,
    dense_row,
    finish_stretch,
    first_step_size,
    ride_of_body,
    take_step,
    theta_at,
)
from shuffle_sim.physics.state import LEADER, STATUS, segment_at

#: Steps integrated again per segment at most (the kernel's bound on a motion).
MAX_STEPS = 20_000


@jit.kernel
def sample_paths(table, orbit_tables, surface, seg, n_discs, times, out):
    """Every disc's centre at each of ``times`` (sorted), (T, N, 2), NaN before its first row and once
    it has fallen or been holed."""
    # One body's motion at a time, in a state of one column (the body) plus its members' offsets.
    st = np.zeros((N_ROWS, 1))
    ist = np.zeros((N_INT_ROWS, 1), np.int64)
    buf = np.zeros((max(n_discs, 1), 2))
    dense_out = np.zeros((OUT_ROWS, 6))
    for i in range(n_discs):
        k = np.int64(-1)
        nxt = np.int64(0)
        loaded = -1  # the row whose motion ``st`` holds
        phase = np.int64(0)
        for f in range(times.shape[0]):
            t = times[f]
            k, nxt, in_play = segment_at(seg, i, t, k, nxt)
            if not in_play:
                out[f, i, 0] = math.nan
                out[f, i, 1] = math.nan
                continue
            if seg[k, 2] != STATUS_MOVING or (seg[k, 5] == 0.0 and seg[k, 6] == 0.0 and seg[k, 7] == 0.0):
                out[f, i, 0] = seg[k, 3]
                out[f, i, 1] = seg[k, 4]
                continue
            ox = seg[k, 10]
            oy = seg[k, 11]
            if loaded != k:
                count = _load(table, orbit_tables, surface, seg, k, st, ist, buf)
                members = buf[:count] if count > 1 else buf[:0]
                loaded = k
                phase = _stretch(table, orbit_tables, surface, st, ist, members, dense_out)
            members = buf[:count] if count > 1 else buf[:0]
            steps = np.int64(0)
            while phase == PHASE_STEP and st[C_N + 5, 0] < t and steps < MAX_STEPS:
                _accept(table, orbit_tables, surface, st, members)
                phase = _stretch(table, orbit_tables, surface, st, ist, members, dense_out)
                steps += 1
            if phase == PHASE_STEP:
                theta = theta_at(st, np.int64(0), t)
                out[f, i, 0] = dense_row(st, np.int64(0), np.int64(0), theta) + ox
                out[f, i, 1] = dense_row(st, np.int64(0), np.int64(1), theta) + oy
            else:
                t0 = st[C_Y + 5, 0]
                t1 = st[C_FINISH, 0]
                s = 1.0 if t1 <= t0 else min(1.0, max(0.0, (t - t0) / (t1 - t0)))
                out[f, i, 0] = st[C_Y, 0] + s * (st[C_FINISH + 1, 0] - st[C_Y, 0]) + ox
                out[f, i, 1] = st[C_Y + 1, 0] + s * (st[C_FINISH + 2, 0] - st[C_Y + 1, 0]) + oy


@jit.kernel
def _load(table, orbit_tables, surface, seg, k, st, ist, buf):
    """Set the body of log row k going as the kernel started it; returns its number of discs."""
    lead = seg[k, 9]
    t = seg[k, 0]
    x = seg[k, 3] - seg[k, 10]
    y = seg[k, 4] - seg[k, 11]
    count = np.int64(0)
    # The group's members: the rows of this instant with this leader.
    first = k
    while first > 0 and seg[first - 1, 0] == t:
        first -= 1
    r = first
    while r < seg.shape[0] and seg[r, 0] == t:
        if seg[r, 9] == lead and seg[r, 2] == STATUS_MOVING:
            buf[count, 0] = seg[r, 10]
            buf[count, 1] = seg[r, 11]
            count += 1
        r += 1
    members = buf[:count] if count > 1 else buf[:0]
    w = seg[k, 7]
    st[C_SIGN, 0] = 0.0 if w == 0.0 else math.copysign(1.0, w)
    for m in range(6):
        st[C_RIDE + m, 0] = seg[k, 12 + m]
    c = constants(table, orbit_tables, surface, st[C_SIGN, 0])
    ride = ride_of_body(st, np.int64(0))
    st[C_Y, 0] = x
    st[C_Y + 1, 0] = y
    st[C_Y + 2, 0] = seg[k, 5]
    st[C_Y + 3, 0] = seg[k, 6]
    st[C_Y + 4, 0] = w
    st[C_Y + 5, 0] = t
    d = derivatives(surface, c, members, ride, x, y, seg[k, 5], seg[k, 6], w)
    for m in range(6):
        st[C_F + m, 0] = d[m]
    st[C_H_NEXT, 0] = first_step_size(surface, c[0], x, y)
    ist[LEADER, 0] = 0
    ist[STATUS, 0] = STATUS_MOVING
    return count


@jit.kernel
def _stretch(table, orbit_tables, surface, st, ist, members, dense_out):
    """The body's next stretch from its step start, as ``_curved_bodies._next_stretch`` takes it: the
    closed-form end (returns PHASE_FINISH) or the next step, with its dense output (PHASE_STEP)."""
    c = constants(table, orbit_tables, surface, st[C_SIGN, 0])
    ride = ride_of_body(st, np.int64(0))
    ok, tau, dx, dy = finish_stretch(
        surface, c, members, ride, st[C_Y, 0], st[C_Y + 1, 0], st[C_Y + 2, 0], st[C_Y + 3, 0], st[C_Y + 4, 0]
    )
    if ok:
        st[C_FINISH, 0] = st[C_Y + 5, 0] + tau
        st[C_FINISH + 1, 0] = st[C_Y, 0] + dx
        st[C_FINISH + 2, 0] = st[C_Y + 1, 0] + dy
        return PHASE_FINISH
    take_step(surface, c, members, ride, st, np.int64(0))
    ist[I_DENSE, 0] = 0
    body_dense(surface, c, members, ride, st, ist, np.int64(0), dense_out)
    return PHASE_STEP


@jit.kernel
def _accept(table, orbit_tables, surface, st, members):
    """The body's step accepted, as ``_curved_bodies._advance`` accepts it (a rider put back on its path)."""
    for r in range(6):
        st[C_Y + r, 0] = st[C_N + r, 0]
        st[C_F + r, 0] = st[C_K + r, 0]
    ride = ride_of_body(st, np.int64(0))
    if ride[0] != RIDE_NONE:
        x, y, vx, vy = onto_ride(ride, st[C_Y, 0], st[C_Y + 1, 0], st[C_Y + 2, 0], st[C_Y + 3, 0])
        st[C_Y, 0] = x
        st[C_Y + 1, 0] = y
        st[C_Y + 2, 0] = vx
        st[C_Y + 3, 0] = vy
        c = constants(table, orbit_tables, surface, st[C_SIGN, 0])
        d = derivatives(surface, c, members, ride, x, y, vx, vy, st[C_Y + 4, 0])
        for r in range(6):
            st[C_F + r, 0] = d[r]
