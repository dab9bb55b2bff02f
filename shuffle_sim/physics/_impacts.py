"""Applying impacts in the event loop: disc against disc, disc against a cushion or peg.

Discs left touching and pushed together by their friction (both sliding, the contact closing while
the normal speed is below ``PUSH_MERGE_SPEED``) would otherwise bounce ever faster and closer
(inelastic collapse). They move on as one instead, together with the sliding discs that touch them:
all take their common centre-of-mass velocity, which conserves momentum, cannot add energy, and
stops them together, still touching.

A disc pinched between touching discs with little restitution can need thousands of pairwise
impulses at one instant before no contact approaches any more (the impulses converge geometrically,
slowly when the contacts are nearly in line: an event storm that the physics fuzz found at
restitution 0.02). After ``STORM_IMPACTS`` disc-disc impacts at one instant, each further impact
there ends with its two discs and the sliding discs touching them moving on as one, as above: the
storm ends after a few merges, momentum is conserved and no energy is added.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    F_KIND,
    F_YIELD,
    H_DECEL,
    H_FRICTION,
    H_INERTIA,
    H_INNER,
    H_RADIUS,
    H_RESTITUTION,
    H_SPIN_DECEL,
    H_YIELD,
    F,
)
from shuffle_sim.physics._disc_state import kinematics, restart
from shuffle_sim.physics._friction import force
from shuffle_sim.physics._motion import MOVED, OMEGA, STATUS
from shuffle_sim.physics._resolve import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics._toi import CONTACT_GAP
from shuffle_sim.physics.events import STATUS_MOVING

#: Touching discs pushed together by friction with a normal speed below this (m/s) move on as one.
PUSH_MERGE_SPEED = 1e-3
#: Disc-disc impacts at one instant after which a further impact there merges the touching group.
STORM_IMPACTS = 256


@jit.no_refcount
def merge_pushing_group(orbits, radius, st, ist, t, decel, spin_decel, contact):
    """Give every disc marked MOVED, and every sliding disc touching one of them without clearly
    leaving it (transitively), their common velocity: their momentum over their number.

    Averaging conserves momentum and cannot add kinetic energy. The group then slides as one, every
    member on the same line at the same speed, and stops at once, still touching. In the coupled
    model the members also take their mean spin (which cannot add energy either), so that they share
    one ratio v / (r omega) and with it one deceleration: they stay exactly together.
    """
    n = st.shape[1]
    grew = True
    while grew:
        grew = False
        for k in range(n):
            if ist[MOVED, k] != 0 or ist[STATUS, k] != STATUS_MOVING:
                continue
            xk, yk, vxk, vyk, _ = kinematics(orbits, radius, st, ist, k, t, decel, spin_decel)
            for m in range(n):
                if ist[MOVED, m] == 0:
                    continue
                xm, ym, vxm, vym, _ = kinematics(orbits, radius, st, ist, m, t, decel, spin_decel)
                dx = xk - xm
                dy = yk - ym
                dist = math.sqrt(dx * dx + dy * dy)
                if dist - contact <= CONTACT_GAP and (vxk - vxm) * dx + (vyk - vym) * dy < PUSH_MERGE_SPEED * dist:
                    ist[MOVED, k] = 1
                    grew = True
                    break
    count = 0
    sum_x = 0.0
    sum_y = 0.0
    sum_w = 0.0
    for k in range(n):
        if ist[MOVED, k] != 0:
            _, _, vx, vy, w = kinematics(orbits, radius, st, ist, k, t, decel, spin_decel)
            sum_x += vx
            sum_y += vy
            sum_w += w
            count += 1
    coupled = orbits.shape[0] > 0
    for k in range(n):
        if ist[MOVED, k] != 0:
            x, y, _, _, w = kinematics(orbits, radius, st, ist, k, t, decel, spin_decel)
            if coupled:
                w = sum_w / count
            restart(orbits, radius, st, ist, k, t, x, y, sum_x / count, sum_y / count, w, decel, spin_decel)


@jit.inline
def sliding_decel(orbits, radius, eta, decel, speed, w):
    """The deceleration of a disc sliding at ``speed`` with spin ``w``: mu g, or mu g F(eps) coupled."""
    if orbits.shape[0] == 0 or w == 0.0:
        return decel
    return decel * force(speed / (radius * abs(w)), eta)


@jit.no_refcount
def disc_disc_impact(table, orbits, st, ist, a, b, t, storm):
    """Collide discs a and b at time t and mark the discs whose motion changed (MOVED).

    If their friction keeps pushing the two together, they and the sliding discs touching them move
    on as one (``merge_pushing_group``); so do they after the impulse when ``storm`` says that
    ``STORM_IMPACTS`` impacts have already happened at this instant (see ``run_table``).
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    xa, ya, vax, vay, wa = kinematics(orbits, radius, st, ist, a, t, decel, spin_decel)
    xb, yb, vbx, vby, wb = kinematics(orbits, radius, st, ist, b, t, decel, spin_decel)
    dx = xb - xa
    dy = yb - ya
    dist = math.sqrt(dx * dx + dy * dy)
    nx = dx / dist
    ny = dy / dist
    vax, vay, wa, vbx, vby, wb = disc_disc_impulse(
        vax,
        vay,
        wa,
        vbx,
        vby,
        wb,
        nx,
        ny,
        radius,
        table[0, H_RESTITUTION],
        table[0, H_FRICTION],
        table[0, H_INERTIA],
        table[0, H_YIELD],
    )
    restart(orbits, radius, st, ist, a, t, xa, ya, vax, vay, wa, decel, spin_decel)
    restart(orbits, radius, st, ist, b, t, xb, yb, vbx, vby, wb, decel, spin_decel)
    ist[MOVED, a] = 1
    ist[MOVED, b] = 1
    if storm:
        merge_pushing_group(orbits, radius, st, ist, t, decel, spin_decel, 2.0 * radius)
        return
    speed_a = math.sqrt(vax * vax + vay * vay)
    speed_b = math.sqrt(vbx * vbx + vby * vby)
    if decel > 0.0 and ist[STATUS, a] == STATUS_MOVING and ist[STATUS, b] == STATUS_MOVING:
        gx = vbx - vax
        gy = vby - vay
        if gx * nx + gy * ny < PUSH_MERGE_SPEED:
            # Relative acceleration: each disc decelerates along its own direction of travel.
            if orbits.shape[0] == 0:
                ax = 0.5 * decel * (vax / speed_a - vbx / speed_b)
                ay = 0.5 * decel * (vay / speed_a - vby / speed_b)
            else:
                eta = table[0, H_INNER]
                dec_a = sliding_decel(orbits, radius, eta, decel, speed_a, st[OMEGA, a])
                dec_b = sliding_decel(orbits, radius, eta, decel, speed_b, st[OMEGA, b])
                ax = 0.5 * (dec_a * vax / speed_a - dec_b * vbx / speed_b)
                ay = 0.5 * (dec_a * vay / speed_a - dec_b * vby / speed_b)
            # Curvature of |d|^2 at contact: negative means the contact keeps closing.
            if gx * gx + gy * gy + 2.0 * (ax * dx + ay * dy) < 0.0:
                merge_pushing_group(orbits, radius, st, ist, t, decel, spin_decel, 2.0 * radius)


@jit.inline
def fixed_body_bounce(table, row, xi, yi, vx, vy, w):
    """Bounce a disc at (xi, yi) moving at (vx, vy) with spin w off the cushion or peg in table row
    ``row``; returns its new (vx, vy, w) and whether the body kills (MSA C-20)."""
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
    norm = math.sqrt(nx * nx + ny * ny)
    vx, vy, w = fixed_body_impulse(
        vx, vy, w, nx / norm, ny / norm, table[0, H_RADIUS], e, mu_c, table[0, H_INERTIA], table[row, F_YIELD]
    )
    return vx, vy, w, kills != 0.0


@jit.no_refcount
def fixed_body_impact(table, orbits, st, ist, i, row, t):
    """Bounce disc i off the cushion or peg in table row ``row`` at time t; True if it kills."""
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    radius = table[0, H_RADIUS]
    xi, yi, vx, vy, w = kinematics(orbits, radius, st, ist, i, t, decel, spin_decel)
    vx, vy, w, kills = fixed_body_bounce(table, row, xi, yi, vx, vy, w)
    restart(orbits, radius, st, ist, i, t, xi, yi, vx, vy, w, decel, spin_decel)
    return kills
