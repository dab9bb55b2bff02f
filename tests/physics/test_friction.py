"""Coupled sliding and spinning friction (Farkas, Bartels, Unger and Wolf, PRL 90, 248302, 2003).

The closed forms of ``physics.friction`` against the brute-force sum over the contact face
(``reference.face_friction``), and the model's numbers: the terminal ratio, the stop distances, pure
spin-down and the inertia-ratio window of the terminal regimes (Weidman and Malhotra).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

scipy = pytest.importorskip("scipy")
from scipy import special  # noqa: E402

from shuffle_sim.physics.face_friction import (  # noqa: E402
    face_force,
    face_torque,
    force,
    inertia_window,
    terminal_ratio,
    torque,
)
from shuffle_sim.reference.face_friction import face_force_torque, slide_spin  # noqa: E402

G = 9.81


@pytest.mark.parametrize("eta", [0.0, 0.5, 0.9])
@pytest.mark.parametrize("eps", [0.0, 1e-3, 0.05, 0.3, 0.5, 0.653, 0.9, 0.999, 1.0, 1.001, 1.3, 2.0, 5.0, 50.0, 1e3])
def test_closed_forms_match_the_face_sum(eps, eta):
    f, t = face_force_torque(eps, eta)
    assert force(eps, eta) == pytest.approx(f, rel=1e-12, abs=1e-15)
    assert torque(eps, eta) == pytest.approx(t, rel=1e-12, abs=1e-15)


@settings(max_examples=25, deadline=None)
@given(eps=st.floats(0.01, 100.0), eta=st.sampled_from([0.0, 0.3, 0.7]))
def test_closed_forms_match_the_face_sum_anywhere(eps, eta):
    f, t = face_force_torque(eps, eta)
    assert force(eps, eta) == pytest.approx(f, rel=1e-11)
    assert torque(eps, eta) == pytest.approx(t, rel=1e-11)


@pytest.mark.parametrize("eta", [0.5, 0.9])
@pytest.mark.parametrize("offset", [-1e-9, 0.0, 1e-9])
def test_closed_forms_at_the_inner_edge(eta, offset):
    """eps = eta puts the face's still point on the inner circle: a hair inside, on it, a hair outside."""
    eps = eta + offset
    f, t = face_force_torque(eps, eta)
    assert force(eps, eta) == pytest.approx(f, rel=1e-12)
    assert torque(eps, eta) == pytest.approx(t, rel=1e-12)


def test_special_values():
    assert face_force(0.0) == 0.0
    assert face_torque(0.0) == pytest.approx(2.0 / 3.0, rel=1e-15)
    assert face_force(1.0) == pytest.approx(8.0 / (3.0 * math.pi), rel=1e-15)
    assert face_torque(1.0) == pytest.approx(8.0 / (9.0 * math.pi), rel=1e-15)
    assert face_force(1.0 - 1e-12) == pytest.approx(8.0 / (3.0 * math.pi), rel=1e-11)
    assert face_force(1.0 + 1e-12) == pytest.approx(8.0 / (3.0 * math.pi), rel=1e-11)
    assert face_force(1e8) == pytest.approx(1.0, rel=1e-15)
    assert face_torque(1e4) * 4e4 == pytest.approx(1.0, rel=1e-8)
    # F ~ eps for small eps (the linear response of a spinning face), no cancellation left.
    assert face_force(1e-6) == pytest.approx(1e-6, rel=1e-11)


def test_the_torque_prefactor_misprint():
    """Above eps = 1 the torque's prefactor is 4 eps / (9 pi); the preprint's 4 / (9 pi eps) is wrong."""
    eps = 2.0
    n = 1.0 / eps**2
    bracket = (4.0 - 2.0 * eps**2) * special.ellipe(n) + (eps**2 - 1.0) * (
        2.0 * eps**2 - 3.0
    ) / eps**2 * special.ellipk(n)
    _, t = face_force_torque(eps)
    assert 4.0 * eps / (9.0 * math.pi) * bracket == pytest.approx(t, rel=1e-12)
    assert 4.0 / (9.0 * math.pi * eps) * bracket != pytest.approx(t, rel=0.1)


def test_terminal_ratio_whole_face():
    assert terminal_ratio(0.0, 0.5) == pytest.approx(0.6530018, abs=5e-8)
    assert slide_spin(1.0, 3.0 / 0.05, 0.05, 0.1, G).eps_end == pytest.approx(0.6530018, abs=5e-8)


def test_terminal_ratio_thin_ring():
    """A thin ring of contact with a ring's inertia (I = m r^2) ends at v = r omega."""
    assert abs(terminal_ratio(0.99, 1.0) - 1.0) < 0.01
    assert abs(slide_spin(1.0, 1.0 / 0.05, 0.05, 0.1, G, eta=0.99, inertia=1.0).eps_end - 1.0) < 0.01


@pytest.mark.parametrize(("eps0", "ratio"), [(1.0, 1.27479), (0.5, 1.96700)])
def test_stop_distance_ratio(eps0, ratio):
    radius, mu, speed = 0.05, 0.1, 1.2
    run = slide_spin(speed, speed / (eps0 * radius), radius, mu, G)
    assert run.distance / (speed**2 / (2.0 * mu * G)) == pytest.approx(ratio, abs=5e-6)


def test_pure_spin_down():
    """Without speed the spin decays at (4/3) mu g / r: the mean lever arm 2 r / 3 over I = m r^2 / 2."""
    radius, mu, omega = 0.05, 0.1, 30.0
    run = slide_spin(0.0, omega, radius, mu, G)
    assert run.t_stop == pytest.approx(omega / (4.0 / 3.0 * mu * G / radius), rel=1e-11)
    assert run.distance == pytest.approx(0.0, abs=1e-15)


def test_inertia_window_whole_face():
    assert inertia_window(0.0) == (0.25, pytest.approx(2.0 / 3.0))


@pytest.mark.parametrize("eta", [0.0, 0.5])
def test_terminal_ratio_exists_only_inside_the_window(eta):
    lo, hi = inertia_window(eta)
    for k in (lo + 0.02, 0.5 * (lo + hi), hi - 0.02):
        e = terminal_ratio(eta, k)
        assert 1e-6 < e < 1e6
        assert k * force(e, eta) - e * torque(e, eta) == pytest.approx(0.0, abs=1e-12)
    # Outside, k F - eps T keeps one sign: no terminal ratio.
    for k, sign in ((lo - 0.02, -1.0), (hi + 0.02, 1.0)):
        for e in (1e-4, 0.1, 0.5, 1.0, 2.0, 10.0, 1e4):
            assert sign * (k * force(e, eta) - e * torque(e, eta)) > 0.0


@pytest.mark.parametrize(("inertia", "trend"), [(0.22, "infinity"), (0.3, "finite"), (0.62, "finite"), (0.72, "zero")])
def test_terminal_regimes_either_side_of_the_window(inertia, trend):
    """Below the window the spin dies first (eps to infinity), above it the speed (eps to zero)."""
    run = slide_spin(1.0, 1.0 / 0.05, 0.05, 0.1, G, inertia=inertia, lam_end=60.0)
    late = run.eps[-1]
    if trend == "finite":
        assert late == pytest.approx(terminal_ratio(0.0, inertia), rel=1e-3)  # slow near the window edges
    elif trend == "infinity":
        assert late > 1e3 and run.eps[-1] > run.eps[-50] > run.eps[-100]
    else:
        assert late < 1e-2 and run.eps[-1] < run.eps[-50] < run.eps[-100]
