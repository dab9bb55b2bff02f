"""Rides on a curved court: a disc pressed against a cushion or a peg by the grade rides it (its
centre keeps its distance, the body's normal force takes the normal part of the acceleration) until
it lifts off or runs off a segment's end; whether an impact leaves a disc riding, a ride's shapes
for the event search, and whether a disc still moves (``motion``, numba)."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.pushing import PUSH_MERGE_SPEED
from shuffle_sim.physics.laws.integrated.motion import (
    NO_RIDE,
    RIDE_INSIDE,
    RIDE_LINE,
    RIDE_OUTSIDE,
    dense_component,
    derivatives,
    ride_force,
    ride_normal,
)
from shuffle_sim.physics.laws.integrated.shapes import NO_SHAPE, S_HALFPLANE
from shuffle_sim.physics.state import REST_SPEED
from shuffle_sim.physics.tables.court_table import CUSHION_CIRCLE, CUSHION_SEGMENT, F_KIND, H_RADIUS, F
from shuffle_sim.physics.tables.surface import surface_at

#: Not an event of the log: the end of a ride (the disc leaves the cushion or peg it rode).
RIDE_END = -2
#: Samples per step of a ridden body's push, where the ride may end (a push that falls to zero and
#: rises again between two samples is not seen: the disc would leave the body for that long).
RIDE_SAMPLES = 16


@jit.kernel
def settles(surface, coupled, x, y, vx, vy, w):
    """(vx, vy, w, moving): velocity and spin with rounding residues set to zero, and whether the disc
    moves: it slides, or it spins in the coupled model on a spot with a grade."""
    if vx * vx + vy * vy <= REST_SPEED * REST_SPEED:
        vx = 0.0
        vy = 0.0
    if abs(w) <= REST_SPEED:
        w = 0.0
    if vx != 0.0 or vy != 0.0:
        return vx, vy, w, True
    if coupled and w != 0.0:
        ax, ay, _ = surface_at(surface, x, y)
        return vx, vy, w, ax != 0.0 or ay != 0.0
    return vx, vy, w, False


@jit.no_refcount
def ride_of(table, row, x, y):
    """The ride (``motion``) on the cushion or peg of table row ``row`` by a disc centred at (x, y)."""
    f = table[row, F_KIND]
    r = table[0, H_RADIUS]
    if f == CUSHION_SEGMENT:
        x0 = table[row, F]
        y0 = table[row, F + 1]
        ux = table[row, F + 8]
        uy = table[row, F + 9]
        s = min(max((x - x0) * ux + (y - y0) * uy, 0.0), table[row, F + 10])
        dx = x - x0 - s * ux
        dy = y - y0 - s * uy
        d = math.sqrt(dx * dx + dy * dy)
        if s <= 0.0 or s >= table[row, F + 10]:
            # Off the flat side: the end cap, a circle of the capsule's radius.
            return (float(RIDE_OUTSIDE), x0 + s * ux, y0 + s * uy, r + table[row, F + 4], 0.0, 0.0)
        # The line the rider's centre keeps to: p . n = (x0, y0) . n + rho.
        nx = dx / d
        ny = dy / d
        return (float(RIDE_LINE), nx, ny, x0 * nx + y0 * ny + r + table[row, F + 4], 0.0, 0.0)
    if f == CUSHION_CIRCLE:
        return (float(RIDE_INSIDE), table[row, F], table[row, F + 1], table[row, F + 2] - r, 0.0, 0.0)
    return (float(RIDE_OUTSIDE), table[row, F], table[row, F + 1], r + table[row, F + 2], 0.0, 0.0)


@jit.no_refcount
def pushed_ride(surface, c, members, table, row, x, y, vx, vy, w):
    """After an impact on the cushion or peg of row ``row``: (vx, vy, ride). The disc rides the body
    (its normal velocity removed) if it leaves slower than ``PUSH_MERGE_SPEED`` and the body would
    have to push to keep it at contact; else it is free (``NO_RIDE``)."""
    ride = ride_of(table, row, x, y)
    nx, ny, _ = ride_normal(ride, x, y)
    normal = vx * nx + vy * ny
    if normal >= PUSH_MERGE_SPEED:
        return vx, vy, NO_RIDE
    tx = vx - normal * nx
    ty = vy - normal * ny
    if tx * tx + ty * ty <= REST_SPEED * REST_SPEED:
        tx = 0.0
        ty = 0.0
    if tx == 0.0 and ty == 0.0 and (c[5] == 0.0 or w == 0.0):
        # It would rest against the body: only its normal velocity is left, which the body takes.
        ax, ay, _ = surface_at(surface, x, y)
        if ax * nx + ay * ny < 0.0:
            return 0.0, 0.0, ride
        return vx, vy, NO_RIDE
    if ride_force(surface, c, members, ride, x, y, tx, ty, w) > 0.0:
        return tx, ty, ride
    return vx, vy, NO_RIDE


@jit.kernel
def ride_shapes(table, row, ride):
    """The half planes whose gaps close where a ride on a straight cushion (row ``row``) must end: on
    its flat side, the rider's distances from the two ends along it; on an end cap, its distance
    past that end (beyond it the flat side takes over). None for a peg or a round cushion."""
    if table[row, F_KIND] != CUSHION_SEGMENT:
        return NO_SHAPE, NO_SHAPE
    x0 = table[row, F]
    y0 = table[row, F + 1]
    ux = table[row, F + 8]
    uy = table[row, F + 9]
    length = table[row, F + 10]
    x1 = x0 + length * ux
    y1 = y0 + length * uy
    start = (float(S_HALFPLANE), x0, y0, ux, uy, 0.0, 0.0, -1.0)
    end = (float(S_HALFPLANE), x1, y1, -ux, -uy, 0.0, 0.0, -1.0)
    if ride[0] == RIDE_LINE:
        return start, end
    if (ride[1] - x0) ** 2 + (ride[2] - y0) ** 2 <= (ride[1] - x1) ** 2 + (ride[2] - y1) ** 2:
        return (float(S_HALFPLANE), x0, y0, -ux, -uy, 0.0, 0.0, -1.0), NO_SHAPE
    return (float(S_HALFPLANE), x1, y1, ux, uy, 0.0, 0.0, -1.0), NO_SHAPE


@jit.no_refcount
def ride_release(surface, c, members, ride, out, y0, y1, y2, y3, y4, lo, hi):
    """The first theta in (lo, hi] of a step (dense output ``out``) at which the ridden body's push is
    no longer positive, from ``RIDE_SAMPLES`` samples and a polish of the first sign change; inf if none."""
    prev = lo
    for k in range(1, RIDE_SAMPLES + 1):
        theta = lo + (hi - lo) * k / RIDE_SAMPLES
        if _push(surface, c, members, ride, out, y0, y1, y2, y3, y4, theta) <= 0.0:
            a = prev
            b = theta
            for _ in range(200):
                if b - a <= 2.0e-16 * max(1.0, b):
                    break
                m = 0.5 * (a + b)
                if _push(surface, c, members, ride, out, y0, y1, y2, y3, y4, m) > 0.0:
                    a = m
                else:
                    b = m
            return b
        prev = theta
    return math.inf


@jit.kernel
def _push(surface, c, members, ride, out, y0, y1, y2, y3, y4, theta):
    x = dense_component(out, np.int64(0), y0, theta)
    y = dense_component(out, np.int64(1), y1, theta)
    vx = dense_component(out, np.int64(2), y2, theta)
    vy = dense_component(out, np.int64(3), y3, theta)
    w = dense_component(out, np.int64(4), y4, theta)
    if vx == 0.0 and vy == 0.0 and (c[5] == 0.0 or w == 0.0):
        return 1.0
    return ride_force(surface, c, members, ride, x, y, vx, vy, w)


@jit.no_refcount
def straight_stop(surface, c, members, ride, x, y, vx, vy, w):
    """(time left, dx, dy) of a motion whose speed scale q is below ``Q_END``: a straight stop at the
    present rate of q's fall (the distance left is below 1e-15 m)."""
    _, _, d2, d3, d4, q = derivatives(surface, c, members, ride, x, y, vx, vy, w)
    if q == 0.0:
        return 0.0, 0.0, 0.0
    # dq/dt = (v . dv/dt + u du/dt) / q with u = r |w|; in sigma each derivative carries a factor q.
    u = c[2] * abs(w) if c[5] != 0.0 else 0.0
    du = c[2] * math.copysign(1.0, w) * d4 if c[5] != 0.0 else 0.0
    rate = -(vx * d2 + vy * d3 + u * du) / (q * q)
    if rate <= 0.0:
        return 0.0, 0.0, 0.0
    tau = q / rate
    return tau, 0.5 * vx * tau, 0.5 * vy * tau


@jit.kernel
def ride_from(ride, ox, oy):
    """A disc's own ride (offset zero) as the ride of a body whose reference disc is at (-ox, -oy) from it."""
    rho = ride[3] - (ox * ride[1] + oy * ride[2] if ride[0] == RIDE_LINE else 0.0)
    return (ride[0], ride[1], ride[2], rho, ox, oy)
