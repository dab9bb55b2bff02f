"""Groups in the integrated law: two discs' states at their impact, the impact itself, and discs
pushed together formed into one body, grown and dissolved (the rules: ``contacts.pushing``; numba)."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.impulses import disc_disc_impulse
from shuffle_sim.physics.contacts.pushing import PUSH_MERGE_SPEED, closing
from shuffle_sim.physics.contacts.tolerances import CONTACT_GAP
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_MOVING
from shuffle_sim.physics.laws.integrated.bodies import _free_acceleration, body_state, members_of, start_body
from shuffle_sim.physics.laws.integrated.motion import NO_RIDE, RIDE_LINE, RIDE_NONE, onto_ride, ride_normal
from shuffle_sim.physics.laws.integrated.pairs import disc_at
from shuffle_sim.physics.laws.integrated.rides import ride_from
from shuffle_sim.physics.laws.integrated.state import C_N, C_OFFSET, C_Y, I_PHASE, I_RIDE_ROW, PHASE_STEP, ride_of_body
from shuffle_sim.physics.state import LEADER, MOVED, STATUS, TOUCHED
from shuffle_sim.physics.tables.court_table import H_FRICTION, H_INERTIA, H_RADIUS, H_RESTITUTION, H_YIELD


@jit.kernel
def _pair_states(table, orbit_tables, surface, st, ist, a, b, t, now, rho, buf, out, states):
    """The states of discs a and b at their impact near time t, each integrated from its body's step
    start; t is corrected by Newton's method on the integrated distance (its rate from the integrated
    velocities), within both bodies' present steps and not before ``now``, until the distance is
    within 1e-13 m of rho: the dense outputs that found t err by up to about the steps' tolerance.
    Fills ``states`` (2, 5) with each disc's (x, y, vx, vy, w); returns the time."""
    lo = now
    hi = math.inf
    for k in range(2):
        lead = ist[LEADER, a if k == 0 else b]
        if ist[I_PHASE, lead] == PHASE_STEP:
            lo = max(lo, st[C_Y + 5, lead])
            hi = min(hi, st[C_N + 5, lead])
    for _ in range(8):
        for k in range(2):
            i = a if k == 0 else b
            lead = ist[LEADER, i]
            _, members = members_of(st, ist, lead, buf)
            x, y, vx, vy, w = body_state(table, orbit_tables, surface, st, ist, lead, t, members, out)
            states[k, 0] = x + st[C_OFFSET, i]
            states[k, 1] = y + st[C_OFFSET + 1, i]
            states[k, 2] = vx
            states[k, 3] = vy
            states[k, 4] = w
        dx = states[1, 0] - states[0, 0]
        dy = states[1, 1] - states[0, 1]
        g = math.sqrt(dx * dx + dy * dy) - rho
        if abs(g) <= 1e-13:
            break
        rate = (dx * (states[1, 2] - states[0, 2]) + dy * (states[1, 3] - states[0, 3])) / (g + rho)
        if not rate < 0.0:
            break
        better = min(hi, max(lo, t - g / rate))
        if better == t:
            break
        t = better
    return t


@jit.kernel
def _dissolve(table, orbit_tables, surface, st, ist, lead, t, buf, out, pend):
    """Split body ``lead`` into its discs at time t: each disc's (x, y, vx, vy, w) into ``pend``
    (its row 5 set to 1), each its own leader again."""
    _, members = members_of(st, ist, lead, buf)
    x, y, vx, vy, w = body_state(table, orbit_tables, surface, st, ist, lead, t, members, out)
    for i in range(st.shape[1]):
        if ist[LEADER, i] != lead or ist[STATUS, i] >= STATUS_FALLEN:
            continue
        pend[i, 0] = x + st[C_OFFSET, i]
        pend[i, 1] = y + st[C_OFFSET + 1, i]
        pend[i, 2] = vx
        pend[i, 3] = vy
        pend[i, 4] = w
        pend[i, 5] = 1.0
        ist[LEADER, i] = i
        st[C_OFFSET, i] = 0.0
        st[C_OFFSET + 1, i] = 0.0


@jit.kernel
def _grow_group(table, orbit_tables, surface, st, ist, t, contact, buf, out, pend, group):
    """Mark in ``group`` the pending discs ``group`` already holds and, transitively, every sliding
    disc touching one of them without clearly leaving it (as ``closed_form.impacts.merge_pushing_group``): their
    bodies are split (``_dissolve``) and they join."""
    n = st.shape[1]
    grew = np.bool_(True)
    while grew:
        grew = np.bool_(False)
        for k in range(n):
            if group[k] != 0 or ist[STATUS, k] != STATUS_MOVING:
                continue
            if pend[k, 5] != 0.0:
                xk, yk, vxk, vyk = pend[k, 0], pend[k, 1], pend[k, 2], pend[k, 3]
            else:
                xk, yk, vxk, vyk = disc_at(st, ist, k, t)
            if vxk == 0.0 and vyk == 0.0:
                continue
            for m in range(n):
                if group[m] == 0:
                    continue
                dx = xk - pend[m, 0]
                dy = yk - pend[m, 1]
                dist = math.sqrt(dx * dx + dy * dy)
                if (
                    dist - contact <= CONTACT_GAP
                    and (vxk - pend[m, 2]) * dx + (vyk - pend[m, 3]) * dy < PUSH_MERGE_SPEED * dist
                ):
                    if pend[k, 5] == 0.0:
                        _dissolve(table, orbit_tables, surface, st, ist, ist[LEADER, k], t, buf, out, pend)
                    group[k] = 1
                    grew = np.bool_(True)
                    break


@jit.kernel
def _rider_of(st, ist, i):
    """If disc i rides a cushion or peg (its body's ride names it): (True, the ride as the disc's own,
    offset zero, the ridden row); else (False, no ride, -1)."""
    lead = ist[LEADER, i]
    ride = ride_of_body(st, lead)
    ox = st[C_OFFSET, i]
    oy = st[C_OFFSET + 1, i]
    if ride[0] == RIDE_NONE or ist[I_PHASE, lead] != PHASE_STEP or ox != ride[4] or oy != ride[5]:
        return False, NO_RIDE, -1
    rho = ride[3] + (ox * ride[1] + oy * ride[2] if ride[0] == RIDE_LINE else 0.0)
    return True, (ride[0], ride[1], ride[2], rho, 0.0, 0.0), ist[I_RIDE_ROW, lead]


@jit.kernel
def _start_group(table, orbit_tables, surface, st, ist, t, pend, group, buf, out, rider, rider_ride, rider_row):
    """Start the discs marked in ``group`` as one body: the lowest-numbered leads; offsets from it;
    the mean velocity and the mean spin (which conserve momentum and cannot add energy).

    ``rider`` (or -1): a disc of the group that rode a cushion or peg (``rider_ride``, its own, on
    table row ``rider_row``): the group rides it through that disc, its velocity into the body
    removed, unless the group leaves the body faster than ``PUSH_MERGE_SPEED``. A group pressed into a
    cushion by the grade would otherwise meet it again and again, split and merge, without end."""
    n = st.shape[1]
    lead = np.int64(-1)
    count = np.int64(0)
    vx = 0.0
    vy = 0.0
    w = 0.0
    for i in range(n):
        if group[i] == 0:
            continue
        if lead < 0:
            lead = i
        count += 1
        vx += pend[i, 2]
        vy += pend[i, 3]
        w += pend[i, 4]
    for i in range(n):
        if group[i] == 0:
            continue
        ist[LEADER, i] = lead
        st[C_OFFSET, i] = pend[i, 0] - pend[lead, 0]
        st[C_OFFSET + 1, i] = pend[i, 1] - pend[lead, 1]
        ist[MOVED, i] = 1
        pend[i, 5] = 0.0
    x = pend[lead, 0]
    y = pend[lead, 1]
    vx /= count
    vy /= count
    ride = NO_RIDE
    row = np.int64(-1)
    if rider >= 0 and group[rider] != 0:
        candidate = ride_from(rider_ride, st[C_OFFSET, rider], st[C_OFFSET + 1, rider])
        nx, ny, _ = ride_normal(candidate, x, y)
        if vx * nx + vy * ny < PUSH_MERGE_SPEED:
            ride = candidate
            row = rider_row
            x, y, vx, vy = onto_ride(ride, x, y, vx, vy)
    return start_body(table, orbit_tables, surface, st, ist, lead, t, x, y, vx, vy, w / count, ride, row, buf, out)


@jit.kernel
def _start_pending(table, orbit_tables, surface, st, ist, t, pend, rides, buf, out):
    """Start every disc still pending (``pend[i, 5]``) as its own body, with its ride (``rides``)."""
    ok = np.bool_(True)
    for i in range(st.shape[1]):
        if pend[i, 5] == 0.0:
            continue
        pend[i, 5] = 0.0
        ist[MOVED, i] = 1
        if ist[STATUS, i] >= STATUS_FALLEN:
            continue
        ride = (rides[i, 0], rides[i, 1], rides[i, 2], rides[i, 3], rides[i, 4], rides[i, 5])
        row = int(rides[i, 6])
        ok = (
            start_body(
                table,
                orbit_tables,
                surface,
                st,
                ist,
                i,
                t,
                pend[i, 0],
                pend[i, 1],
                pend[i, 2],
                pend[i, 3],
                pend[i, 4],
                ride,
                row,
                buf,
                out,
            )
            and ok
        )
        rides[i, 0] = 0.0
        rides[i, 6] = -1.0
    return ok


@jit.kernel
def _pushing(table, orbit_tables, surface, contact, xa, ya, vxa, vya, wa, xb, yb, vxb, vyb, wb, buf):
    """Whether two touching sliding discs are pushed together: closing slower than PUSH_MERGE_SPEED with
    |d|^2 curving down (``pushing.closing``), as the closed-form law's impacts judge it."""
    if (vxa == 0.0 and vya == 0.0) or (vxb == 0.0 and vyb == 0.0):
        return False
    dx = xb - xa
    dy = yb - ya
    dist = math.sqrt(dx * dx + dy * dy)
    gx = vxb - vxa
    gy = vyb - vya
    if gx * dx + gy * dy >= PUSH_MERGE_SPEED * dist:
        return False
    aax, aay = _free_acceleration(table, orbit_tables, surface, xa, ya, vxa, vya, wa, buf[:0])
    abx, aby = _free_acceleration(table, orbit_tables, surface, xb, yb, vxb, vyb, wb, buf[:0])
    return closing(gx, gy, dx, dy, 0.5 * (abx - aax), 0.5 * (aby - aay))


@jit.kernel
def _disc_disc(table, orbit_tables, surface, st, ist, a, b, t, rho, storm, contact, scratch):
    """Collide discs a and b at time t, their states there in ``states`` (``_pair_states``): both bodies
    split, the impulse applied, and the discs started again, on their own or moving on as one (module
    docstring)."""
    buf, out, pend, rides, group, states = scratch
    t_hit = t
    rider = np.int64(-1)
    rider_ride = NO_RIDE
    rider_row = np.int64(-1)
    for i in (a, b):
        riding, ride, row = _rider_of(st, ist, i)
        if riding and rider < 0:
            rider, rider_ride, rider_row = i, ride, row
    for lead in (ist[LEADER, a], ist[LEADER, b]):
        if ist[LEADER, lead] == lead and pend[lead, 5] == 0.0:
            _dissolve(table, orbit_tables, surface, st, ist, lead, t_hit, buf, out, pend)
    pend[a, 0], pend[a, 1], pend[a, 2], pend[a, 3], pend[a, 4] = (
        states[0, 0],
        states[0, 1],
        states[0, 2],
        states[0, 3],
        states[0, 4],
    )
    pend[b, 0], pend[b, 1], pend[b, 2], pend[b, 3], pend[b, 4] = (
        states[1, 0],
        states[1, 1],
        states[1, 2],
        states[1, 3],
        states[1, 4],
    )
    pend[a, 5] = 1.0
    pend[b, 5] = 1.0
    dx = pend[b, 0] - pend[a, 0]
    dy = pend[b, 1] - pend[a, 1]
    dist = math.sqrt(dx * dx + dy * dy)
    vax, vay, wa, vbx, vby, wb = disc_disc_impulse(
        pend[a, 2],
        pend[a, 3],
        pend[a, 4],
        pend[b, 2],
        pend[b, 3],
        pend[b, 4],
        dx / dist,
        dy / dist,
        table[0, H_RADIUS],
        table[0, H_RESTITUTION],
        table[0, H_FRICTION],
        table[0, H_INERTIA],
        table[0, H_YIELD],
    )
    pend[a, 2], pend[a, 3], pend[a, 4] = vax, vay, wa
    pend[b, 2], pend[b, 3], pend[b, 4] = vbx, vby, wb
    ist[TOUCHED, a] = 1
    ist[TOUCHED, b] = 1
    merge = storm or _pushing(
        table,
        orbit_tables,
        surface,
        contact,
        pend[a, 0],
        pend[a, 1],
        vax,
        vay,
        wa,
        pend[b, 0],
        pend[b, 1],
        vbx,
        vby,
        wb,
        buf,
    )
    ok = np.bool_(True)
    if merge and ((vax != 0.0 or vay != 0.0) and (vbx != 0.0 or vby != 0.0)):
        for i in range(st.shape[1]):
            group[i] = 0
        group[a] = 1
        group[b] = 1
        _grow_group(table, orbit_tables, surface, st, ist, t, contact, buf, out, pend, group)
        ok = _start_group(table, orbit_tables, surface, st, ist, t, pend, group, buf, out, rider, rider_ride, rider_row)
        for i in range(st.shape[1]):
            group[i] = 0
    return _start_pending(table, orbit_tables, surface, st, ist, t, pend, rides, buf, out) and ok
