"""A disc bouncing off a cushion or a peg: the normal the body gives, its restitution and friction,
and whether it kills (numba)."""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.impulses import fixed_body_impulse
from shuffle_sim.physics.tables.court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    F_KIND,
    F_YIELD,
    H_INERTIA,
    H_RADIUS,
    F,
)


@jit.inline
def fixed_body_bounce(table, row, xi, yi, vx, vy, w, storm):
    """Bounce a disc at (xi, yi) moving at (vx, vy) with spin w off the cushion or peg in table row
    ``row``; returns its new (vx, vy, w) and whether the body kills (MSA C-20).

    ``storm``: more than ``pushing.STORM_IMPACTS`` impacts at this instant already. A disc pinched
    between a cushion or peg and other discs can bounce between them without end at one instant; past
    that many, its impact on the body is perfectly inelastic along the normal (restitution 0), which
    ends the exchange: a stand-in for the sustained contact force, as a group is for discs
    (``pushing``).
    """
    f = table[row, F_KIND]
    g0 = table[row, F]
    g1 = table[row, F + 1]
    if f == CUSHION_SEGMENT:
        # Normal from the nearest point of the cushion's segment to the centre.
        ex = table[row, F + 2] - g0
        ey = table[row, F + 3] - g1
        u = min(max(((xi - g0) * ex + (yi - g1) * ey) / (ex * ex + ey * ey), 0.0), 1.0)
        nx = xi - (g0 + u * ex)
        ny = yi - (g1 + u * ey)
        e, mu_c, kills = table[row, F + 5], table[row, F + 6], table[row, F + 7]
    elif f == CUSHION_CIRCLE:
        nx = g0 - xi
        ny = g1 - yi
        e, mu_c, kills = table[row, F + 3], table[row, F + 4], table[row, F + 5]
    else:  # a peg
        nx = xi - g0
        ny = yi - g1
        e, mu_c, kills = table[row, F + 3], table[row, F + 4], 0.0
    if storm:
        e = 0.0
    norm = math.sqrt(nx * nx + ny * ny)
    vx, vy, w = fixed_body_impulse(
        vx, vy, w, nx / norm, ny / norm, table[0, H_RADIUS], e, mu_c, table[0, H_INERTIA], table[row, F_YIELD]
    )
    return vx, vy, w, kills != 0.0
