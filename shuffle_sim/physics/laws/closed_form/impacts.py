"""Impacts in the closed-form law: the impulse applied to the discs' reference states, and discs
pushed together moving on as one with their common velocity (the rules: ``contacts.pushing``)."""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.bounce import fixed_body_bounce
from shuffle_sim.physics.contacts.impulses import disc_disc_impulse
from shuffle_sim.physics.contacts.pushing import PUSH_MERGE_SPEED, closing
from shuffle_sim.physics.contacts.tolerances import CONTACT_GAP
from shuffle_sim.physics.events import STATUS_MOVING
from shuffle_sim.physics.face_friction import force
from shuffle_sim.physics.laws.closed_form.disc_state import kinematics, restart
from shuffle_sim.physics.laws.closed_form.slide import OMEGA
from shuffle_sim.physics.state import MOVED, STATUS
from shuffle_sim.physics.tables import court_table


@jit.no_refcount
def merge_pushing_group(orbit_tables, radius, st, ist, t, decel, spin_decel, contact):
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
            xk, yk, vxk, vyk, _ = kinematics(orbit_tables, radius, st, ist, k, t, decel, spin_decel)
            for m in range(n):
                if ist[MOVED, m] == 0:
                    continue
                xm, ym, vxm, vym, _ = kinematics(orbit_tables, radius, st, ist, m, t, decel, spin_decel)
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
            _, _, vx, vy, w = kinematics(orbit_tables, radius, st, ist, k, t, decel, spin_decel)
            sum_x += vx
            sum_y += vy
            sum_w += w
            count += 1
    coupled = orbit_tables.shape[0] > 0
    for k in range(n):
        if ist[MOVED, k] != 0:
            x, y, _, _, w = kinematics(orbit_tables, radius, st, ist, k, t, decel, spin_decel)
            if coupled:
                w = sum_w / count
            restart(orbit_tables, radius, st, ist, k, t, x, y, sum_x / count, sum_y / count, w, decel, spin_decel)


@jit.inline
def sliding_decel(orbit_tables, radius, eta, decel, speed, w):
    """The deceleration of a disc sliding at ``speed`` with spin ``w``: mu g, or mu g F(eps) coupled."""
    if orbit_tables.shape[0] == 0 or w == 0.0:
        return decel
    return decel * force(speed / (radius * abs(w)), eta)


@jit.no_refcount
def disc_disc_impact(table, orbit_tables, st, ist, a, b, t, storm):
    """Collide discs a and b at time t and mark the discs whose motion changed (MOVED).

    If their friction keeps pushing the two together, they and the sliding discs touching them move
    on as one (``merge_pushing_group``); so do they after the impulse when ``storm`` says that
    ``STORM_IMPACTS`` impacts have already happened at this instant (see ``run_table``).
    """
    decel = table[0, court_table.H_DECEL]
    spin_decel = table[0, court_table.H_SPIN_DECEL]
    radius = table[0, court_table.H_RADIUS]
    xa, ya, vax, vay, wa = kinematics(orbit_tables, radius, st, ist, a, t, decel, spin_decel)
    xb, yb, vbx, vby, wb = kinematics(orbit_tables, radius, st, ist, b, t, decel, spin_decel)
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
        table[0, court_table.H_RESTITUTION],
        table[0, court_table.H_FRICTION],
        table[0, court_table.H_INERTIA],
        table[0, court_table.H_YIELD],
    )
    restart(orbit_tables, radius, st, ist, a, t, xa, ya, vax, vay, wa, decel, spin_decel)
    restart(orbit_tables, radius, st, ist, b, t, xb, yb, vbx, vby, wb, decel, spin_decel)
    ist[MOVED, a] = 1
    ist[MOVED, b] = 1
    if storm:
        merge_pushing_group(orbit_tables, radius, st, ist, t, decel, spin_decel, 2.0 * radius)
        return
    speed_a = math.sqrt(vax * vax + vay * vay)
    speed_b = math.sqrt(vbx * vbx + vby * vby)
    if decel > 0.0 and ist[STATUS, a] == STATUS_MOVING and ist[STATUS, b] == STATUS_MOVING:
        gx = vbx - vax
        gy = vby - vay
        if gx * nx + gy * ny < PUSH_MERGE_SPEED:
            # Relative acceleration: each disc decelerates along its own direction of travel.
            if orbit_tables.shape[0] == 0:
                ax = 0.5 * decel * (vax / speed_a - vbx / speed_b)
                ay = 0.5 * decel * (vay / speed_a - vby / speed_b)
            else:
                eta = table[0, court_table.H_INNER]
                dec_a = sliding_decel(orbit_tables, radius, eta, decel, speed_a, st[OMEGA, a])
                dec_b = sliding_decel(orbit_tables, radius, eta, decel, speed_b, st[OMEGA, b])
                ax = 0.5 * (dec_a * vax / speed_a - dec_b * vbx / speed_b)
                ay = 0.5 * (dec_a * vay / speed_a - dec_b * vby / speed_b)
            if closing(gx, gy, dx, dy, ax, ay):
                merge_pushing_group(orbit_tables, radius, st, ist, t, decel, spin_decel, 2.0 * radius)


@jit.no_refcount
def fixed_body_impact(table, orbit_tables, st, ist, i, row, t, storm):
    """Bounce disc i off the cushion or peg in table row ``row`` at time t (``bounce.fixed_body_bounce``);
    True if it kills."""
    decel = table[0, court_table.H_DECEL]
    spin_decel = table[0, court_table.H_SPIN_DECEL]
    radius = table[0, court_table.H_RADIUS]
    xi, yi, vx, vy, w = kinematics(orbit_tables, radius, st, ist, i, t, decel, spin_decel)
    vx, vy, w, kills = fixed_body_bounce(table, row, xi, yi, vx, vy, w, storm)
    restart(orbit_tables, radius, st, ist, i, t, xi, yi, vx, vy, w, decel, spin_decel)
    return kills
