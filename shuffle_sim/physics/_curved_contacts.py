"""Contacts in the curved event loop (``curved_kernel``): the states of two discs at their impact,
impacts with discs, cushions and pegs, discs leaving play, and groups of discs pushed together
formed, grown and dissolved (numba)."""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics._court_table import (
    CUSHION_CIRCLE,
    CUSHION_SEGMENT,
    F_KIND,
    H_FRICTION,
    H_INERTIA,
    H_RADIUS,
    H_RESTITUTION,
    F,
)
from shuffle_sim.physics._curved_bodies import _free_acceleration, body_state, members_of, start_body
from shuffle_sim.physics._curved_lone_events import event_state
from shuffle_sim.physics._curved_rides import RIDE_END, pushed_ride, ride_of
from shuffle_sim.physics._impacts import PUSH_MERGE_SPEED, fixed_body_bounce
from shuffle_sim.physics._resolve import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics._toi import CONTACT_GAP
from shuffle_sim.physics.curved_events import NO_SHAPE, start_shape
from shuffle_sim.physics.curved_motion import NO_RIDE, RIDE_LINE, RIDE_NONE, onto_ride, ride_normal
from shuffle_sim.physics.curved_pairs import disc_at
from shuffle_sim.physics.curved_state import (
    C_EVENT_THETA,
    C_F,
    C_H,
    C_LO,
    C_N,
    C_OFFSET,
    C_SIGN,
    C_START,
    C_T_KILL,
    C_T_NEXT,
    C_T_SPIN,
    C_Y,
    I_DEAD,
    I_LEADER,
    I_MOVED,
    I_PHASE,
    I_RIDE_ROW,
    I_STATUS,
    I_TOUCHED,
    PHASE_REST,
    PHASE_STEP,
    body_dense,
    constants,
    ride_of_body,
)
from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_PEG,
    FALL,
    HOLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
)


@jit.kernel
def _pair_states(table, spin, ground, cs, ci, a, b, t, now, rho, buf, out, states):
    """The states of discs a and b at their impact near time t, each integrated from its body's step
    start; t is corrected by Newton's method on the integrated distance (its rate from the integrated
    velocities), within both bodies' present steps and not before ``now``, until the distance is
    within 1e-13 m of rho: the dense outputs that found t err by up to about the steps' tolerance.
    Fills ``states`` (2, 5) with each disc's (x, y, vx, vy, w); returns the time."""
    lo = now
    hi = math.inf
    for k in range(2):
        lead = ci[I_LEADER, a if k == 0 else b]
        if ci[I_PHASE, lead] == PHASE_STEP:
            lo = max(lo, cs[C_Y + 5, lead])
            hi = min(hi, cs[C_N + 5, lead])
    for _ in range(8):
        for k in range(2):
            i = a if k == 0 else b
            lead = ci[I_LEADER, i]
            _, members = members_of(cs, ci, lead, buf)
            x, y, vx, vy, w = body_state(table, spin, ground, cs, ci, lead, t, members, out)
            states[k, 0] = x + cs[C_OFFSET, i]
            states[k, 1] = y + cs[C_OFFSET + 1, i]
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
def _dissolve(table, spin, ground, cs, ci, lead, t, buf, out, pend):
    """Split body ``lead`` into its discs at time t: each disc's (x, y, vx, vy, w) into ``pend``
    (its row 5 set to 1), each its own leader again."""
    _, members = members_of(cs, ci, lead, buf)
    x, y, vx, vy, w = body_state(table, spin, ground, cs, ci, lead, t, members, out)
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        pend[i, 0] = x + cs[C_OFFSET, i]
        pend[i, 1] = y + cs[C_OFFSET + 1, i]
        pend[i, 2] = vx
        pend[i, 3] = vy
        pend[i, 4] = w
        pend[i, 5] = 1.0
        ci[I_LEADER, i] = i
        cs[C_OFFSET, i] = 0.0
        cs[C_OFFSET + 1, i] = 0.0


@jit.kernel
def _grow_group(table, spin, ground, cs, ci, t, contact, buf, out, pend, group):
    """Mark in ``group`` the pending discs ``group`` already holds and, transitively, every sliding
    disc touching one of them without clearly leaving it (as ``kernel._merge_pushing_group``): their
    bodies are split (``_dissolve``) and they join."""
    n = cs.shape[1]
    grew = True
    while grew:
        grew = False
        for k in range(n):
            if group[k] != 0 or ci[I_STATUS, k] != STATUS_MOVING:
                continue
            if pend[k, 5] != 0.0:
                xk, yk, vxk, vyk = pend[k, 0], pend[k, 1], pend[k, 2], pend[k, 3]
            else:
                xk, yk, vxk, vyk = disc_at(cs, ci, k, t)
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
                        _dissolve(table, spin, ground, cs, ci, ci[I_LEADER, k], t, buf, out, pend)
                    group[k] = 1
                    grew = True
                    break


@jit.inline
def _rider_of(cs, ci, i):
    """If disc i rides a cushion or peg (its body's ride names it): (True, the ride as the disc's own,
    offset zero, the ridden row); else (False, no ride, -1)."""
    lead = ci[I_LEADER, i]
    ride = ride_of_body(cs, lead)
    ox = cs[C_OFFSET, i]
    oy = cs[C_OFFSET + 1, i]
    if ride[0] == RIDE_NONE or ci[I_PHASE, lead] != PHASE_STEP or ox != ride[4] or oy != ride[5]:
        return False, NO_RIDE, -1
    rho = ride[3] + (ox * ride[1] + oy * ride[2] if ride[0] == RIDE_LINE else 0.0)
    return True, (ride[0], ride[1], ride[2], rho, 0.0, 0.0), ci[I_RIDE_ROW, lead]


@jit.inline
def _ride_from(ride, ox, oy):
    """A disc's own ride (offset zero) as the ride of a body whose reference disc is at (-ox, -oy) from it."""
    rho = ride[3] - (ox * ride[1] + oy * ride[2] if ride[0] == RIDE_LINE else 0.0)
    return (ride[0], ride[1], ride[2], rho, ox, oy)


@jit.kernel
def _start_group(table, spin, ground, cs, ci, t, pend, group, buf, out, rider, rider_ride, rider_row):
    """Start the discs marked in ``group`` as one body: the lowest-numbered leads; offsets from it;
    the mean velocity and the mean spin (which conserve momentum and cannot add energy).

    ``rider`` (or -1): a disc of the group that rode a cushion or peg (``rider_ride``, its own, on
    table row ``rider_row``): the group rides it through that disc, its velocity into the body
    removed, unless the group leaves the body faster than ``PUSH_MERGE_SPEED``. A group pressed into a
    cushion by the grade would otherwise meet it again and again, split and merge, without end."""
    n = cs.shape[1]
    lead = -1
    count = 0
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
        ci[I_LEADER, i] = lead
        cs[C_OFFSET, i] = pend[i, 0] - pend[lead, 0]
        cs[C_OFFSET + 1, i] = pend[i, 1] - pend[lead, 1]
        ci[I_MOVED, i] = 1
        pend[i, 5] = 0.0
    x = pend[lead, 0]
    y = pend[lead, 1]
    vx /= count
    vy /= count
    ride = NO_RIDE
    row = -1
    if rider >= 0 and group[rider] != 0:
        candidate = _ride_from(rider_ride, cs[C_OFFSET, rider], cs[C_OFFSET + 1, rider])
        nx, ny, _ = ride_normal(candidate, x, y)
        if vx * nx + vy * ny < PUSH_MERGE_SPEED:
            ride = candidate
            row = rider_row
            x, y, vx, vy = onto_ride(ride, x, y, vx, vy)
    return start_body(table, spin, ground, cs, ci, lead, t, x, y, vx, vy, w / count, ride, row, buf, out)


@jit.kernel
def _start_pending(table, spin, ground, cs, ci, t, pend, rides, buf, out):
    """Start every disc still pending (``pend[i, 5]``) as its own body, with its ride (``rides``)."""
    ok = True
    for i in range(cs.shape[1]):
        if pend[i, 5] == 0.0:
            continue
        pend[i, 5] = 0.0
        ci[I_MOVED, i] = 1
        if ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        ride = (rides[i, 0], rides[i, 1], rides[i, 2], rides[i, 3], rides[i, 4], rides[i, 5])
        row = int(rides[i, 6])
        ok = (
            start_body(
                table,
                spin,
                ground,
                cs,
                ci,
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
def _pushing(table, spin, ground, contact, xa, ya, vxa, vya, wa, xb, yb, vxb, vyb, wb):
    """Whether two touching sliding discs are pushed together: closing slower than PUSH_MERGE_SPEED with
    |d|^2 curving down (its second derivative |g|^2 + d . (a_b - a_a) negative), as ``kernel._disc_disc``."""
    if (vxa == 0.0 and vya == 0.0) or (vxb == 0.0 and vyb == 0.0):
        return False
    dx = xb - xa
    dy = yb - ya
    dist = math.sqrt(dx * dx + dy * dy)
    gx = vxb - vxa
    gy = vyb - vya
    if gx * dx + gy * dy >= PUSH_MERGE_SPEED * dist:
        return False
    aax, aay = _free_acceleration(table, spin, ground, xa, ya, vxa, vya, wa)
    abx, aby = _free_acceleration(table, spin, ground, xb, yb, vxb, vyb, wb)
    return gx * gx + gy * gy + dx * (abx - aax) + dy * (aby - aay) < 0.0


@jit.kernel
def _body_event(table, spin, ground, cs, ci, lead, a, kind, row, t, storm, scratch):
    """Apply a body's own event (cushion, peg, fall, hole, spin stop) of its disc a at time t: the body
    is integrated to it, split into its discs (``pend``), and disc a's event applied; a cushion that
    kills sets ``pend[a, 6]``. The discs are started by the caller (``_start_pending``).

    ``storm``: more than ``kernel.STORM_IMPACTS`` impacts at this instant already. A disc pinched
    between a cushion or peg and other discs can bounce between them without end at one instant; past
    that many, its impact on the body is perfectly inelastic along the normal (restitution 0), which
    ends the exchange: a stand-in for the sustained contact force, as a group is for discs."""
    buf, out, pend, rides, _, _ = scratch
    _, members = members_of(cs, ci, lead, buf)
    c = constants(table, spin, ground, cs[C_SIGN, lead])
    ride = ride_of_body(cs, lead)
    body_dense(ground, c, members, ride, cs, ci, lead, out)
    theta = cs[C_EVENT_THETA, lead]
    ox = cs[C_OFFSET, a]
    oy = cs[C_OFFSET + 1, a]
    shape = NO_SHAPE
    if kind != SPIN_STOP and row >= 0:
        shape, _ = start_shape(
            table,
            row,
            cs[C_START, lead] + ox,
            cs[C_START + 1, lead] + oy,
            cs[C_START + 2, lead],
            cs[C_START + 3, lead],
            ci[I_DEAD, a] == 0,
            True,
        )
        shape = _shifted(shape, ox, oy)
    e = event_state(
        ground,
        c,
        members,
        ride,
        shape,
        False,
        out,
        cs[C_Y, lead],
        cs[C_Y + 1, lead],
        cs[C_Y + 2, lead],
        cs[C_Y + 3, lead],
        cs[C_Y + 4, lead],
        cs[C_Y + 5, lead],
        cs[C_F, lead],
        cs[C_F + 1, lead],
        cs[C_F + 2, lead],
        cs[C_F + 3, lead],
        cs[C_F + 4, lead],
        cs[C_F + 5, lead],
        cs[C_H, lead],
        theta,
        cs[C_LO, lead],
    )
    if kind == SPIN_STOP:
        # The body's spin (a group shares one) reached zero: the body moves on, whole, without it.
        for i in range(cs.shape[1]):
            if ci[I_LEADER, i] == lead and ci[I_STATUS, i] < STATUS_FALLEN:
                ci[I_MOVED, i] = 1
        return start_body(
            table, spin, ground, cs, ci, lead, t, e[0], e[1], e[2], e[3], 0.0, ride, ci[I_RIDE_ROW, lead], buf, out
        )
    if (
        kind in (DISC_CUSHION, DISC_PEG)
        and members.shape[0] > 0
        and _group_rides(table, spin, ground, cs, ci, lead, a, row, t, e, buf, out)
    ):
        return True
    # Split the body at the event's state.
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] != lead or ci[I_STATUS, i] >= STATUS_FALLEN:
            continue
        pend[i, 0] = e[0] + cs[C_OFFSET, i]
        pend[i, 1] = e[1] + cs[C_OFFSET + 1, i]
        pend[i, 2] = e[2]
        pend[i, 3] = e[3]
        pend[i, 4] = e[4]
        pend[i, 5] = 1.0
        ci[I_LEADER, i] = i
        cs[C_OFFSET, i] = 0.0
        cs[C_OFFSET + 1, i] = 0.0
    x = pend[a, 0]
    y = pend[a, 1]
    if kind in (DISC_CUSHION, DISC_PEG):
        vx, vy, w, kills = fixed_body_bounce(table, row, x, y, pend[a, 2], pend[a, 3], pend[a, 4])
        if storm:
            vx, vy, w = _inelastic_bounce(table, row, x, y, pend[a, 2], pend[a, 3], pend[a, 4])
        pend[a, 6] = 1.0 if kills else 0.0
        sign = 0.0 if w == 0.0 else math.copysign(1.0, w)
        c2 = constants(table, spin, ground, sign)
        no_members = buf[:0]
        vx, vy, new_ride = pushed_ride(ground, c2, no_members, table, row, x, y, vx, vy, w)
        pend[a, 2] = vx
        pend[a, 3] = vy
        pend[a, 4] = w
        for k in range(6):
            rides[a, k] = new_ride[k]
        rides[a, 6] = float(row) if new_ride[0] != RIDE_NONE else -1.0
        return True
    if kind == RIDE_END:
        return True
    if kind == HOLED:
        x = table[row, F]
        y = table[row, F + 1]
    _out_of_play(cs, ci, a, kind, x, y, t)
    pend[a, 5] = 0.0
    return True


@jit.kernel
def _group_rides(table, spin, ground, cs, ci, lead, a, row, t, e, buf, out):
    """A group (discs pressed together, moving on as one) whose disc a meets the cushion or peg of row
    ``row`` at state ``e`` slower than ``PUSH_MERGE_SPEED``, and is not killed by it, rides it whole
    through disc a (its velocity into the body removed); returns whether it does. Split into its
    discs, the group would meet the body again at once, disc by disc, without end (the grade presses
    it in)."""
    ox = cs[C_OFFSET, a]
    oy = cs[C_OFFSET + 1, a]
    _, _, _, kills = fixed_body_bounce(table, row, e[0] + ox, e[1] + oy, e[2], e[3], e[4])
    if kills:
        return False
    ride = _ride_from(ride_of(table, row, e[0] + ox, e[1] + oy), ox, oy)
    nx, ny, _ = ride_normal(ride, e[0], e[1])
    if e[2] * nx + e[3] * ny <= -PUSH_MERGE_SPEED:
        return False
    x, y, vx, vy = onto_ride(ride, e[0], e[1], e[2], e[3])
    for i in range(cs.shape[1]):
        if ci[I_LEADER, i] == lead and ci[I_STATUS, i] < STATUS_FALLEN:
            ci[I_MOVED, i] = 1
    return start_body(table, spin, ground, cs, ci, lead, t, x, y, vx, vy, e[4], ride, row, buf, out)


@jit.kernel
def _out_of_play(cs, ci, a, kind, x, y, t):
    """Disc a leaves play (FALL or HOLED) at (x, y) at time t, alone."""
    ci[I_LEADER, a] = a
    ci[I_STATUS, a] = STATUS_FALLEN if kind == FALL else STATUS_HOLED
    ci[I_PHASE, a] = PHASE_REST
    cs[C_Y, a] = x
    cs[C_Y + 1, a] = y
    cs[C_Y + 2, a] = 0.0
    cs[C_Y + 3, a] = 0.0
    cs[C_Y + 4, a] = 0.0
    cs[C_Y + 5, a] = t
    cs[C_T_NEXT, a] = math.inf
    cs[C_T_KILL, a] = math.inf
    cs[C_T_SPIN, a] = math.inf
    ci[I_MOVED, a] = 1


@jit.kernel
def _inelastic_bounce(table, row, x, y, vx, vy, w):
    """``kernel.fixed_body_bounce`` with restitution 0: the normal from the body (as it finds it), then
    ``resolve.fixed_body_impulse``."""
    f = table[row, F_KIND]
    g0 = table[row, F]
    g1 = table[row, F + 1]
    if f == CUSHION_SEGMENT:
        ex = table[row, F + 2] - g0
        ey = table[row, F + 3] - g1
        u = min(max(((x - g0) * ex + (y - g1) * ey) / (ex * ex + ey * ey), 0.0), 1.0)
        nx = x - (g0 + u * ex)
        ny = y - (g1 + u * ey)
        mu_c = table[row, F + 6]
    elif f == CUSHION_CIRCLE:
        nx = g0 - x
        ny = g1 - y
        mu_c = table[row, F + 4]
    else:
        nx = x - g0
        ny = y - g1
        mu_c = table[row, F + 4]
    norm = math.sqrt(nx * nx + ny * ny)
    return fixed_body_impulse(vx, vy, w, nx / norm, ny / norm, table[0, H_RADIUS], 0.0, mu_c, table[0, H_INERTIA])


@jit.inline
def _shifted(shape, ox, oy):
    """A shape moved by (-ox, -oy): the shape a body's reference point meets when its disc at offset
    (ox, oy) meets ``shape``."""
    return (shape[0], shape[1] - ox, shape[2] - oy, shape[3], shape[4], shape[5], shape[6], shape[7])


@jit.kernel
def _disc_disc(table, spin, ground, cs, ci, a, b, t, rho, storm, contact, scratch):
    """Collide discs a and b at time t, their states there in ``states`` (``_pair_states``): both bodies
    split, the impulse applied, and the discs started again, on their own or moving on as one (module
    docstring)."""
    buf, out, pend, rides, group, states = scratch
    t_hit = t
    rider = -1
    rider_ride = NO_RIDE
    rider_row = -1
    for i in (a, b):
        riding, ride, row = _rider_of(cs, ci, i)
        if riding and rider < 0:
            rider, rider_ride, rider_row = i, ride, row
    for lead in (ci[I_LEADER, a], ci[I_LEADER, b]):
        if ci[I_LEADER, lead] == lead and pend[lead, 5] == 0.0:
            _dissolve(table, spin, ground, cs, ci, lead, t_hit, buf, out, pend)
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
    )
    pend[a, 2], pend[a, 3], pend[a, 4] = vax, vay, wa
    pend[b, 2], pend[b, 3], pend[b, 4] = vbx, vby, wb
    ci[I_TOUCHED, a] = 1
    ci[I_TOUCHED, b] = 1
    merge = storm or _pushing(
        table, spin, ground, contact, pend[a, 0], pend[a, 1], vax, vay, wa, pend[b, 0], pend[b, 1], vbx, vby, wb
    )
    ok = True
    if merge and ((vax != 0.0 or vay != 0.0) and (vbx != 0.0 or vby != 0.0)):
        for i in range(cs.shape[1]):
            group[i] = 0
        group[a] = 1
        group[b] = 1
        _grow_group(table, spin, ground, cs, ci, t, contact, buf, out, pend, group)
        ok = _start_group(table, spin, ground, cs, ci, t, pend, group, buf, out, rider, rider_ride, rider_row)
        for i in range(cs.shape[1]):
            group[i] = 0
    return _start_pending(table, spin, ground, cs, ci, t, pend, rides, buf, out) and ok
