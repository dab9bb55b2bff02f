"""Restitution that depends on the impact speed: the law of one material pair, evaluated at contact.

Real contacts lose more of their energy the harder they are hit: once the contact pressure passes
the yield stress of the softer body, part of the work goes into a permanent dent instead of coming
back. Johnson's analysis of the elastic-plastic impact of spheres gives a restitution that is close
to its elastic value up to the yield speed and then falls as the impact speed to the power -1/4
(K. L. Johnson, *Contact Mechanics*, Cambridge University Press, 1985, section 11.4; the same
asymptote in Thornton's model, J. Appl. Mech. 64, 383-386, 1997). The law used here is its simplest
form, two numbers per material pair::

    e(v) = e0                       for v <= v_y
    e(v) = e0 (v_y / v)^(1/4)       for v >  v_y

with v the normal approach speed at contact (the relative speed along the contact normal). It is
continuous at v_y and never rises with speed. A pair without a yield speed (``v_y`` infinite, the
courts' default) has the constant ``e0``, and the comparison is all it costs: every result on such
a court is bit-identical to a constant restitution. The figures of the crokinole defaults and where
they come from: docs/court-speed.md, "Impacts".

``impact_restitution`` is the one place the law is evaluated; the impulses (``resolve``) call it with
the approach speed they compute, so every path of the kernel that computes an impulse uses it.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit


@jit.inline
def impact_restitution(e, yield_speed, approach_speed):
    """The restitution of a pair with elastic restitution ``e`` and yield speed ``yield_speed`` (m/s;
    infinite: a constant ``e``) at the normal approach speed ``approach_speed`` (m/s, >= 0)."""
    if approach_speed <= yield_speed:
        return e
    # (v_y / v)^(1/4) as two square roots: exact to rounding, and cheaper than a power.
    return e * math.sqrt(math.sqrt(yield_speed / approach_speed))


def restitution_at(e: float, yield_speed: float, approach_speed: float) -> float:
    """``impact_restitution`` in plain Python (the same operations, so the same numbers), for planning
    a shot without compiling anything (a player's take-out speed, the docs' figures)."""
    return impact_restitution.py_func(float(e), float(yield_speed), float(approach_speed))
