"""Discs pushed together, and storms of impacts at one instant: when discs move on as one.

Discs left touching and pushed together by their friction (both sliding, the contact closing while
the normal speed is below ``PUSH_MERGE_SPEED``) would otherwise bounce ever faster and closer
(inelastic collapse). They move on as one instead, together with the sliding discs that touch them:
a stand-in for the sustained contact force real discs exchange, which the impulse model does not
have. Each law keeps its group its own way (the closed-form law gives every member the group's
mean velocity; the integrated law moves the group as one body), both conserving momentum and
adding no energy.

A disc pinched between touching discs, or between discs and a cushion or peg, with little
restitution can need thousands of pairwise impulses at one instant before no contact approaches
any more (the impulses converge geometrically, slowly when the contacts are nearly in line: an
event storm that the physics fuzz found at restitution 0.02). After ``STORM_IMPACTS`` impacts at
one instant, each further impact there ends the exchange: two discs and the sliding discs touching
them move on as one; where the motion law counts impacts on cushions and pegs too (the integrated
law, whose grade can press discs into them), a disc meets a cushion or peg with restitution 0
(``bounce``).
"""

from __future__ import annotations

from shuffle_sim._runtime import jit

#: Touching discs pushed together by friction with a normal speed below this (m/s) move on as one.
PUSH_MERGE_SPEED = 1e-3
#: Impacts at one instant after which a further impact there ends the exchange.
STORM_IMPACTS = 256


@jit.inline
def closing(gx, gy, dx, dy, half_ax, half_ay):
    """Whether two touching discs, apart by (dx, dy) with relative velocity (gx, gy) closing slower
    than ``PUSH_MERGE_SPEED`` and half their relative acceleration (half_ax, half_ay), keep closing:
    the curvature of |d|^2 at the contact, |g|^2 + 2 d . (half relative acceleration), is negative."""
    return gx * gx + gy * gy + 2.0 * (half_ax * dx + half_ay * dy) < 0.0
