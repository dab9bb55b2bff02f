"""Impulses at contact: disc against disc, and disc against a fixed body (cushion, peg).

Discs have the moment of inertia I = k m r^2 (k = 1/2 for a uniform disc) and all discs of a court
have the same mass, so every formula here is per unit mass and the mass drops out. An impact is instantaneous:

* a normal impulse along the line of centres with Newton's restitution law: the normal relative
  velocity after is ``-e`` times the one before, ``e`` the pair's restitution at the approach speed
  (``restitution.impact_restitution``: a constant, or falling above the pair's yield speed);
* a tangential (friction) impulse that opposes the slip of the two surfaces at the contact point and
  changes both spins. It is the impulse that would stop the slip, capped by Coulomb's law at
  ``mu_c`` times the normal impulse (the classic rough-sphere impact of Walton; cf. Brach, *Mechanical
  Impact Dynamics*, 1991). Stopping no more than the slip never reverses it, so the impact never
  adds kinetic energy (translation plus rotation) for 0 <= e <= 1; momentum is conserved exactly
  up to rounding because the same impulse acts on both discs.

For a contact normal n and tangent t = (-n_y, n_x), the slip speed changes per unit tangential
impulse (per unit mass) by 1 + r^2 m / I = 1 + 1/k against a fixed body and by 2 (1 + 1/k) between
two free discs (3 and 6 for a uniform disc), and a spin by 1 / (k r).
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.contacts.restitution import impact_restitution


@jit.kernel
def _coulomb_cap(stick, normal_impulse, mu_c):
    cap = mu_c * normal_impulse
    if stick > cap:
        return cap
    if stick < -cap:
        return -cap
    return stick


@jit.kernel
def disc_disc_impulse(vax, vay, wa, vbx, vby, wb, nx, ny, r, e, mu_c, k, yield_speed=math.inf):
    """Velocities and spins of discs A and B after they collide; n is the unit normal from A to B.

    ``k`` is I / (m r^2); ``e`` and ``yield_speed`` the pair's restitution law (``restitution``; an
    infinite yield speed: the constant ``e``). Returns (vax, vay, wa, vbx, vby, wb). Discs already
    separating (normal relative velocity >= 0) are returned unchanged.
    """
    gx = vbx - vax
    gy = vby - vay
    approach = gx * nx + gy * ny
    if approach >= 0.0:
        return vax, vay, wa, vbx, vby, wb
    e = impact_restitution(e, yield_speed, -approach)
    jn = -0.5 * (1.0 + e) * approach
    tx = -ny
    ty = nx
    # Slip of B's contact point (at -r n) relative to A's (at +r n), along t.
    slip = gx * tx + gy * ty - r * (wa + wb)
    jt = _coulomb_cap(-slip / (2.0 * (1.0 + 1.0 / k)), jn, mu_c)
    px = jn * nx + jt * tx
    py = jn * ny + jt * ty
    dw = -jt / (k * r)
    return vax - px, vay - py, wa + dw, vbx + px, vby + py, wb + dw


@jit.kernel
def fixed_body_impulse(vx, vy, w, nx, ny, r, e, mu_c, k, yield_speed=math.inf):
    """Velocity and spin of a disc after it hits a fixed body; n is the unit normal toward the disc.

    ``k`` is I / (m r^2); ``e`` and ``yield_speed`` the body's restitution law (``restitution``).
    Returns (vx, vy, w); a disc already moving away (v . n >= 0) is returned unchanged.
    """
    approach = vx * nx + vy * ny
    if approach >= 0.0:
        return vx, vy, w
    e = impact_restitution(e, yield_speed, -approach)
    jn = -(1.0 + e) * approach
    tx = -ny
    ty = nx
    # Slip of the disc's contact point (at -r n) along t.
    slip = vx * tx + vy * ty - r * w
    jt = _coulomb_cap(-slip / (1.0 + 1.0 / k), jn, mu_c)
    return vx + jn * nx + jt * tx, vy + jn * ny + jt * ty, w - jt / (k * r)
