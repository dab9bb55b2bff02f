"""Impulses: restitution, Coulomb-capped contact friction, momentum and energy bookkeeping."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.physics.contacts.impulses import disc_disc_impulse, fixed_body_impulse

R = 0.05
speed = st.floats(-5.0, 5.0)
spin = st.floats(-100.0, 100.0)


def kinetic(vx, vy, w, r=R, k=0.5):
    """Kinetic energy per unit mass: v^2/2 + I w^2 / (2 m), I = k m r^2 (k = 1/2: a uniform disc)."""
    return 0.5 * (vx * vx + vy * vy) + 0.5 * k * r * r * w * w


@pytest.mark.parametrize("e", [0.0, 0.3, 0.8, 1.0])
def test_head_on_impact_of_equal_discs(e):
    v = 2.0
    vax, vay, wa, vbx, vby, wb = disc_disc_impulse(v, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, R, e, 0.3, 0.5)
    assert vax == pytest.approx((1 - e) * v / 2, abs=1e-15)
    assert vbx == pytest.approx((1 + e) * v / 2, abs=1e-15)
    assert vay == vby == wa == wb == 0.0


def test_elastic_frictionless_oblique_impact_splits_at_right_angles():
    for angle in (0.1, 0.5, 1.0, 1.4):
        nx, ny = math.cos(angle), math.sin(angle)
        vax, vay, _, vbx, vby, _ = disc_disc_impulse(1.5, 0.0, 0.0, 0.0, 0.0, 0.0, nx, ny, R, 1.0, 0.0, 0.5)
        assert vax * vbx + vay * vby == pytest.approx(0.0, abs=1e-15)
        assert kinetic(vax, vay, 0) + kinetic(vbx, vby, 0) == pytest.approx(kinetic(1.5, 0, 0), rel=1e-14)
        # B leaves along the line of centres.
        assert vbx * ny - vby * nx == pytest.approx(0.0, abs=1e-15)


@settings(max_examples=500, deadline=None)
@given(
    vax=speed,
    vay=speed,
    wa=spin,
    vbx=speed,
    vby=speed,
    wb=spin,
    angle=st.floats(0, 2 * math.pi),
    e=st.floats(0.0, 1.0),
    mu=st.floats(0.0, 2.0),
)
def test_disc_disc_impulse_conserves_momentum_and_never_adds_energy(vax, vay, wa, vbx, vby, wb, angle, e, mu):
    nx, ny = math.cos(angle), math.sin(angle)
    after = disc_disc_impulse(vax, vay, wa, vbx, vby, wb, nx, ny, R, e, mu, 0.5)
    ax, ay, wa2, bx, by, wb2 = after
    scale = 1.0 + abs(vax) + abs(vay) + abs(vbx) + abs(vby)
    assert ax + bx == pytest.approx(vax + vbx, abs=1e-13 * scale)
    assert ay + by == pytest.approx(vay + vby, abs=1e-13 * scale)
    before_e = kinetic(vax, vay, wa) + kinetic(vbx, vby, wb)
    after_e = kinetic(ax, ay, wa2) + kinetic(bx, by, wb2)
    assert after_e <= before_e * (1 + 1e-12) + 1e-15
    approach = (vbx - vax) * nx + (vby - vay) * ny
    leave = (bx - ax) * nx + (by - ay) * ny
    if approach < 0:
        assert leave == pytest.approx(-e * approach, abs=1e-12 * scale)
    else:
        assert after == (vax, vay, wa, vbx, vby, wb)
    # Angular momentum about the contact point is conserved: spins change by the same amount.
    assert wa2 - wa == pytest.approx(wb2 - wb, abs=1e-9 * (1 + abs(wa) + abs(wb)))


@settings(max_examples=500, deadline=None)
@given(vx=speed, vy=speed, w=spin, angle=st.floats(0, 2 * math.pi), e=st.floats(0.0, 1.0), mu=st.floats(0.0, 2.0))
def test_fixed_body_impulse_reflects_with_restitution_and_never_adds_energy(vx, vy, w, angle, e, mu):
    nx, ny = math.cos(angle), math.sin(angle)
    vx2, vy2, w2 = fixed_body_impulse(vx, vy, w, nx, ny, R, e, mu, 0.5)
    approach = vx * nx + vy * ny
    if approach < 0:
        assert vx2 * nx + vy2 * ny == pytest.approx(-e * approach, abs=1e-12)
    assert kinetic(vx2, vy2, w2) <= kinetic(vx, vy, w) * (1 + 1e-12) + 1e-15


def test_frictionless_cushion_keeps_the_tangential_velocity_and_spin():
    vx, vy, w = fixed_body_impulse(1.0, -2.0, 3.0, 0.0, 1.0, R, 0.5, 0.0, 0.5)
    assert (vx, vy, w) == (1.0, 1.0, 3.0)


def test_rough_cushion_stops_the_slip_when_friction_allows():
    # A disc sliding along +x without spin hits a wall below it (normal +y). With ample friction its
    # contact point (at -r n) ends up not slipping, vx + r w = 0: it rolls off along the wall,
    # turning clockwise, with vx - r w / 2 conserved (angular momentum about the contact point).
    vx, vy, w = fixed_body_impulse(1.0, -2.0, 0.0, 0.0, 1.0, R, 0.5, 10.0, 0.5)
    assert vx + R * w == pytest.approx(0.0, abs=1e-14)
    assert vx - R * w / 2 == pytest.approx(1.0, abs=1e-14)
    assert w < 0
    assert vy == pytest.approx(1.0)
    # With little friction the tangential impulse is capped at mu times the normal impulse.
    mu = 0.05
    vx, vy, w = fixed_body_impulse(1.0, -2.0, 0.0, 0.0, 1.0, R, 0.5, mu, 0.5)
    assert 1.0 - vx == pytest.approx(mu * 3.0, rel=1e-14)


def test_rough_disc_impact_transfers_spin_between_discs():
    # A spinning disc at rest is hit head-on by a non-spinning one: contact friction spins both.
    _, vay, wa, _, vby, wb = disc_disc_impulse(1.0, 0.0, 0.0, 0.0, 0.0, 20.0, 1.0, 0.0, R, 0.8, 0.5, 0.5)
    assert wa == pytest.approx(wb - 20.0)
    assert wa != 0.0 and vay != 0.0 and vay == pytest.approx(-vby)


@settings(max_examples=300, deadline=None)
@given(
    vax=speed,
    vay=speed,
    wa=spin,
    vbx=speed,
    vby=speed,
    wb=spin,
    angle=st.floats(0, 2 * math.pi),
    e=st.floats(0.0, 1.0),
    mu=st.floats(0.0, 2.0),
    k=st.floats(0.05, 1.0),
)
def test_impulses_with_any_inertia_ratio_never_add_energy(vax, vay, wa, vbx, vby, wb, angle, e, mu, k):
    """I = k m r^2: the friction impulse stops at most the slip, so no energy is added for any k."""
    nx, ny = math.cos(angle), math.sin(angle)
    ax, ay, wa2, bx, by, wb2 = disc_disc_impulse(vax, vay, wa, vbx, vby, wb, nx, ny, R, e, mu, k)
    before = kinetic(vax, vay, wa, k=k) + kinetic(vbx, vby, wb, k=k)
    assert kinetic(ax, ay, wa2, k=k) + kinetic(bx, by, wb2, k=k) <= before * (1 + 1e-12) + 1e-15
    vx2, vy2, w2 = fixed_body_impulse(vax, vay, wa, nx, ny, R, e, mu, k)
    assert kinetic(vx2, vy2, w2, k=k) <= kinetic(vax, vay, wa, k=k) * (1 + 1e-12) + 1e-15


@pytest.mark.parametrize("k", [0.4, 0.5, 1.0])
def test_rough_cushion_rolls_off_for_any_inertia_ratio(k):
    """Ample friction ends the slip, vx + r w = 0, with vx - k r w conserved (angular momentum about
    the contact point per unit mass)."""
    vx, _vy, w = fixed_body_impulse(1.0, -2.0, 0.0, 0.0, 1.0, R, 0.5, 10.0, k)
    assert vx + R * w == pytest.approx(0.0, abs=1e-14)
    assert vx - k * R * w == pytest.approx(1.0, abs=1e-14)
    assert vx == pytest.approx(1.0 / (1.0 + k), rel=1e-14)
