"""Times of impact against brute-force oracles: dense sampling of the exact distance functions.

An oracle here samples the distance along the path at tens of thousands of points, finds the first
sample inside the contact distance and brackets the crossing by bisection; it knows nothing of
the polynomial algebra the kernel uses. Where the two disagree by more than a grazing tolerance,
the kernel missed or invented a contact.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuffle_sim.physics.contacts.tolerances import APPROACH_TOL
from shuffle_sim.physics.laws.closed_form.toi import (
    capsule_entry,
    circle_entry,
    circle_exit,
    edge_crossing,
    hole_capture,
    line_passing,
    quartic_entry,
)

coord = st.floats(-2.0, 2.0)
SAMPLES = 40_001


def first_crossing(gap, lo, hi, samples=SAMPLES):
    """First t in [lo, hi] where gap(t) <= 0, by dense sampling then bisection; inf if none sampled."""
    t = np.linspace(lo, hi, samples)
    g = gap(t)
    inside = np.flatnonzero(g <= 0.0)
    if inside.size == 0:
        return math.inf
    k = inside[0]
    if k == 0:
        return lo
    a, b = t[k - 1], t[k]
    for _ in range(200):
        m = 0.5 * (a + b)
        if gap(np.array([m]))[0] <= 0.0:
            b = m
        else:
            a = m
    return b


def distance_poly(c, b, a, radius):
    def gap(t):
        dx = c[0] + t * (b[0] + t * a[0])
        dy = c[1] + t * (b[1] + t * a[1])
        return np.hypot(dx, dy) - radius

    return gap


@settings(max_examples=300, deadline=None)
@given(
    cx=coord,
    cy=coord,
    bx=coord,
    by=coord,
    ax=st.floats(-1, 1),
    ay=st.floats(-1, 1),
    radius=st.floats(0.01, 0.5),
    window=st.floats(0.01, 5.0),
)
def test_quartic_entry_matches_dense_sampling(cx, cy, bx, by, ax, ay, radius, window):
    assume(math.hypot(cx, cy) > radius * (1 + 1e-6))
    tau = quartic_entry(cx, cy, bx, by, ax, ay, radius, window)
    gap = distance_poly((cx, cy), (bx, by), (ax, ay), radius)
    oracle = first_crossing(gap, 0.0, window)
    t = np.linspace(0.0, window, SAMPLES)
    if math.isinf(tau):
        # No contact: the sampled distance never dips inside by more than a grazing sliver.
        assert gap(t).min() > -1e-9
    else:
        assert 0.0 <= tau <= window
        assert abs(gap(np.array([tau]))[0]) < 1e-9  # it is a root
        before = t[t < tau * (1 - 1e-9) - 1e-12]
        assert (gap(before) > -1e-9).all()  # and no earlier one was missed
        if math.isfinite(oracle):
            assert tau <= oracle + 1e-9


def test_quartic_entry_degenerate_cases():
    # Equal decelerations (A = 0): a quadratic. Head-on at relative speed 1 from 1 m apart, contact 0.2 m.
    assert quartic_entry(1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.2, 5.0) == pytest.approx(0.8, rel=1e-14)
    # No relative motion at all.
    assert quartic_entry(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 5.0) == math.inf
    # Relative acceleration only (both started from the same speed, now turning toward each other).
    tau = quartic_entry(1.0, 0.0, 0.0, 0.0, -0.5, 0.0, 0.2, 5.0)
    assert tau == pytest.approx(math.sqrt(0.8 / 0.5), rel=1e-14)
    # Frictionless: infinite window with a straight relative path.
    assert quartic_entry(1.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.2, math.inf) == pytest.approx(0.4, rel=1e-14)
    assert quartic_entry(1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.2, math.inf) == math.inf
    # The window ends before contact.
    assert quartic_entry(1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.2, 0.5) == math.inf


def test_quartic_entry_finds_a_brief_dip_between_two_roots():
    # A pass that dips inside the contact distance for a very short time near its closest approach:
    # closest distance 0.2 - 1e-7 at t = 1, relative speed 1.
    tau = quartic_entry(-1.0, 0.2 - 1e-7, 1.0, 0.0, 0.0, 0.0, 0.2, 3.0)
    assert tau == pytest.approx(1.0 - math.sqrt(0.2**2 - (0.2 - 1e-7) ** 2), abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(qx=coord, qy=coord, angle=st.floats(0, 2 * math.pi), cx=coord, cy=coord, rho=st.floats(0.01, 0.5))
def test_circle_entry_matches_sampling(qx, qy, angle, cx, cy, rho):
    ux, uy = math.cos(angle), math.sin(angle)
    assume(math.hypot(qx - cx, qy - cy) > rho + 1e-6)
    s = circle_entry(qx, qy, ux, uy, 1.0, cx, cy, rho, 10.0)
    oracle = first_crossing(lambda t: np.hypot(qx + ux * t - cx, qy + uy * t - cy) - rho, 0.0, 10.0)
    # A path whose closest approach is the radius itself (to rounding) only grazes the circle: with no
    # speed toward it there is nothing to bounce off, and either answer is right.
    grazing = abs(abs((cx - qx) * uy - (cy - qy) * ux) - rho) <= 1e-12
    if math.isinf(oracle):
        # Missing a contact the oracle found is an error; finding a grazing one it skipped is not.
        assert math.isinf(s) or math.hypot(qx + ux * s - cx, qy + uy * s - cy) == pytest.approx(rho, abs=1e-9)
    else:
        assert (grazing and math.isinf(s)) or s == pytest.approx(oracle, abs=1e-7)


def test_circle_entry_skips_an_exact_graze_and_finds_a_near_one():
    # The example hypothesis found: the path y = 0.5 touches the circle of radius 0.5 about (0.114, 0)
    # at one point, moving along it.
    assert circle_entry(0.0, 0.5, 1.0, 0.0, 1.0, 0.114, 0.0, 0.5, 10.0) == math.inf
    # 1e-9 m inside the graze it does enter, just before the touching point.
    s = circle_entry(0.0, 0.5 - 1e-9, 1.0, 0.0, 1.0, 0.114, 0.0, 0.5, 10.0)
    assert s == pytest.approx(0.114 - math.sqrt(0.5**2 - (0.5 - 1e-9) ** 2), abs=1e-9)


def test_circle_entry_contact_rule():
    # Touching and approaching: at once. Touching and leaving: never. Touching, sliding past: later
    # only by overlapping; here the tangent path never does.
    assert circle_entry(0.2, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.2, 10.0) == 0.0
    assert circle_entry(0.2, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.2, 10.0) == math.inf
    assert circle_entry(0.2, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.2, 10.0) == math.inf
    # Approaching slower than the tolerance counts as not approaching.
    assert circle_entry(0.2, 0.0, -1.0, 0.0, APPROACH_TOL / 10, 0.0, 0.0, 0.2, 10.0) > 0.0
    # Beyond reach.
    assert circle_entry(5.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.2, 1.0) == math.inf


@settings(max_examples=300, deadline=None)
@given(
    qx=coord,
    qy=coord,
    angle=st.floats(0, 2 * math.pi),
    x0=coord,
    y0=coord,
    x1=coord,
    y1=coord,
    rho=st.floats(0.01, 0.3),
)
def test_capsule_entry_matches_sampling(qx, qy, angle, x0, y0, x1, y1, rho):
    assume(math.hypot(x1 - x0, y1 - y0) > 1e-3)
    ux, uy = math.cos(angle), math.sin(angle)

    def gap(t):
        px = qx + ux * t
        py = qy + uy * t
        ex, ey = x1 - x0, y1 - y0
        u = np.clip(((px - x0) * ex + (py - y0) * ey) / (ex * ex + ey * ey), 0.0, 1.0)
        return np.hypot(px - (x0 + u * ex), py - (y0 + u * ey)) - rho

    assume(gap(np.array([0.0]))[0] > 1e-6)
    s = capsule_entry(qx, qy, ux, uy, 1.0, x0, y0, x1, y1, rho, 10.0)
    oracle = first_crossing(gap, 0.0, 10.0)
    if math.isinf(oracle):
        assert math.isinf(s) or abs(gap(np.array([s]))[0]) < 1e-9
    elif math.isinf(s):
        # A path that only grazes the capsule (tangent, never more than a hair inside) is no contact
        # by the kernel's contact rule (``test_circle_entry_contact_rule``); a real entry must be found.
        assert gap(np.linspace(0.0, 10.0, 20 * SAMPLES)).min() > -1e-9
    else:
        assert s == pytest.approx(oracle, abs=1e-7)


def test_capsule_entry_grazing_along_the_side_is_no_contact():
    """The case hypothesis found: a disc centre sliding parallel to a capsule's side at exactly the
    contact distance touches it all along and never enters it."""
    assert capsule_entry(0.0, 0.25, 1.0, 0.0, 1.0, 1.5, 0.0, 1.0, 0.0, 0.25, 10.0) == math.inf


@settings(max_examples=300, deadline=None)
@given(qx=st.floats(-0.9, 0.9), qy=st.floats(-0.9, 0.9), angle=st.floats(0, 2 * math.pi))
def test_edge_crossing_on_a_square(qx, qy, angle):
    # The square [-1, 1]^2, edges counter-clockwise (surface on their left): exactly one edge is
    # crossed first, where the ray leaves the square.
    ux, uy = math.cos(angle), math.sin(angle)
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    crossings = [edge_crossing(qx, qy, ux, uy, *corners[k], *corners[(k + 1) % 4], 10.0) for k in range(4)]
    s = min(crossings)
    exits = [
        t
        for t in (
            (1 - qx) / ux if ux > 0 else math.inf,
            (-1 - qx) / ux if ux < 0 else math.inf,
            (1 - qy) / uy if uy > 0 else math.inf,
            (-1 - qy) / uy if uy < 0 else math.inf,
        )
    ]
    assert s == pytest.approx(min(exits), rel=1e-12)


def test_edge_crossing_through_a_corner_is_caught():
    # Exactly through the corner (1, 1) of the square, where rounding may put the crossing a hair
    # beyond either edge's end.
    s = min(
        edge_crossing(0.1, 0.1, math.sqrt(0.5), math.sqrt(0.5), *a, *b, 10.0)
        for a, b in (((1, -1), (1, 1)), ((1, 1), (-1, 1)))
    )
    assert s == pytest.approx(0.9 * math.sqrt(2), rel=1e-12)


def test_line_passing_and_circle_exit():
    assert line_passing(0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 1.0) == 2.0
    assert line_passing(0.0, 3.0, 0.0, -1.0, 0.0, 2.0, 0.0, 1.0) == 0.0  # already past
    assert line_passing(0.0, 0.0, 0.0, -1.0, 0.0, 2.0, 0.0, 1.0) == math.inf
    assert circle_exit(0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0) == 2.0
    assert circle_exit(1.5, 0.0, -1.0, 0.0, 0.0, 0.0, 2.0) == pytest.approx(3.5)


def test_hole_capture_needs_slow_enough_over_the_hole():
    # Sliding along x through a hole at x = 1 (capture radius 0.02), decelerating at 1 m/s^2.
    # Slow everywhere: captured on entering the capture circle.
    assert hole_capture(0.0, 0.0, 1.0, 0.0, 0.5, 1.0, 1.0, 0.0, 0.02, 0.6) == pytest.approx(0.98)
    # Too fast while over the hole: passes.
    assert hole_capture(0.0, 0.0, 1.0, 0.0, 3.0, 1.0, 1.0, 0.0, 0.02, 0.6) == math.inf
    # Slows to the capture speed 0.6 m/s just over the hole: s = (v^2 - 0.36) / 2 = 1.0.
    v = math.sqrt(0.36 + 2.0)
    assert hole_capture(0.0, 0.0, 1.0, 0.0, v, 1.0, 1.0, 0.0, 0.02, 0.6) == pytest.approx(1.0)
