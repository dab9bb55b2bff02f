"""Exact coupled motion between events (``physics.coupled``) against the brute-force reference.

The tables give stop time, stop distance and the state at any time from any start; the reference
sums the friction over the contact face and integrates with scipy's DOP853 at rtol 1e-12.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim.physics.face_friction import inertia_window, terminal_ratio
from shuffle_sim.physics.laws.closed_form.coupled import (
    MODE_SLIDE_LIMIT,
    MODE_SPIN_LIMIT,
    motion_at,
    start_motion,
    time_to_reach,
)
from shuffle_sim.physics.tables.orbit_layout import EPS_MAX, EPS_MIN
from shuffle_sim.physics.tables.orbit_tables import coupled_tables

G = 9.81
MU = 0.1
RADIUS = 0.05
DECEL = MU * G


def start(eta, k, speed, omega):
    orbit_tables = coupled_tables(eta, k)
    rim = RADIUS * omega
    mode, sigma0, theta0, reach = start_motion(orbit_tables, speed, rim, DECEL)
    return (orbit_tables, mode, sigma0, theta0, reach, speed, rim, DECEL)


@pytest.mark.parametrize(("eps0", "ratio"), [(1.0, 1.27479), (0.5, 1.96700)])
def test_stop_distance_ratios_from_the_tables(eps0, ratio):
    speed = 1.3
    motion = start(0.0, 0.5, speed, speed / (eps0 * RADIUS))
    assert motion[4] / (speed**2 / (2 * DECEL)) == pytest.approx(ratio, abs=5e-6)


def test_spin_free_limit_is_the_closed_form():
    speed = 2.0
    motion = start(0.0, 0.5, speed, speed / (2 * EPS_MAX * RADIUS))
    assert motion[1] == MODE_SLIDE_LIMIT
    assert motion[3] == speed / DECEL and motion[4] == speed * speed / (2 * DECEL)


def test_pure_spin_limit_stops_at_four_thirds_mu_g_over_r():
    omega = 40.0
    motion = start(0.0, 0.5, EPS_MIN * 0.5 * RADIUS * omega, omega)
    assert motion[1] == MODE_SPIN_LIMIT
    assert motion[3] == pytest.approx(omega / (4.0 / 3.0 * DECEL / RADIUS), rel=1e-14)


def test_outside_the_window_is_refused():
    lo, _ = inertia_window(0.9)
    with pytest.raises(ValueError, match="outside the window"):
        coupled_tables(0.9, lo - 0.01)


# The grid (eps0 0.05 to 50, eta 0, 0.5, 0.9, k 0.4 to 0.65), thinned to keep the suite quick;
# eta = 0.9 with k = 0.4 lies outside the window.
GRID = [
    (0.0, 0.5, 0.05),
    (0.0, 0.5, 1.0),
    (0.0, 0.5, 50.0),
    (0.0, 0.4, 0.3),
    (0.0, 0.65, 5.0),
    (0.5, 0.4, 0.05),
    (0.5, 0.65, 50.0),
    (0.5, 0.5, 1.0),
    (0.9, 0.5, 0.05),
    (0.9, 0.65, 50.0),
    (0.9, 0.6, 1.0),
]


@pytest.mark.parametrize(("eta", "k", "eps0"), GRID)
def test_stop_time_and_distance_match_the_reference(eta, k, eps0):
    ref_mod = pytest.importorskip("shuffle_sim.reference.face_friction")
    speed = 1.1
    omega = speed / (eps0 * RADIUS)
    motion = start(eta, k, speed, omega)
    ref = ref_mod.slide_spin(speed, omega, RADIUS, MU, G, eta=eta, inertia=k)
    assert motion[3] == pytest.approx(ref.t_stop, rel=1e-9)
    assert motion[4] == pytest.approx(ref.distance, rel=1e-9)


@pytest.mark.parametrize(("eta", "k", "eps0"), [(0.0, 0.5, 3.0), (0.5, 0.45, 0.2), (0.9, 0.6, 1.5)])
def test_state_along_the_way_matches_the_reference(eta, k, eps0):
    ref_mod = pytest.importorskip("shuffle_sim.reference.face_friction")
    speed = 0.9
    omega = speed / (eps0 * RADIUS)
    motion = start(eta, k, speed, omega)
    ref = ref_mod.slide_spin(speed, omega, RADIUS, MU, G, eta=eta, inertia=k)
    for j in (5, 40, 120, 250):
        t, s, eps = ref.t[j], ref.s[j], ref.eps[j]
        done, v, rim = motion_at(*motion, t)
        rim_ref = RADIUS * omega * math.exp(-ref.lam[j])
        assert done == pytest.approx(s, rel=1e-9, abs=1e-12 * motion[4])
        # Near the stop the speeds fall linearly to zero in the time left, theta0 - t: the reference's
        # time, integrated at rtol 1e-12, fixes them only to about that share of t over the time left.
        conditioning = 1e-11 * t / max(motion[3] - t, 1e-300)
        assert rim == pytest.approx(rim_ref, rel=1e-8 + conditioning)
        assert v == pytest.approx(eps * rim_ref, rel=1e-8 + conditioning)
        # Position to time and back: s(t) is flat near the stop, so the round trip is checked in s.
        assert motion_at(*motion, time_to_reach(*motion, done))[0] == pytest.approx(done, rel=1e-13, abs=1e-15)
        if j < 100:
            assert time_to_reach(*motion, done) == pytest.approx(t, rel=1e-10)


def test_motion_ends_at_the_terminal_ratio_with_both_together():
    motion = start(0.0, 0.5, 1.0, 1.0 / (4.0 * RADIUS))
    theta0 = motion[3]
    e_star = terminal_ratio(0.0, 0.5)
    gaps = []
    for frac in (1e-3, 1e-6, 1e-9):
        _, v, rim = motion_at(*motion, theta0 * (1 - frac))
        gaps.append(abs(v / rim - e_star))
    # eps - eps* falls as a power (about 0.6) of the time left.
    assert gaps[1] < 1e-1 * gaps[0] and gaps[2] < 1e-1 * gaps[1] and gaps[2] < 1e-4
    assert motion_at(*motion, theta0) == (motion[4], 0.0, 0.0)


def test_speed_and_position_are_monotone_and_consistent():
    motion = start(0.5, 0.5, 1.0, 1.0 / (0.7 * RADIUS))
    taus = np.linspace(0.0, motion[3], 2001)
    states = np.array([motion_at(*motion, t) for t in taus])
    assert np.all(np.diff(states[:, 0]) >= 0) and np.all(np.diff(states[:, 1]) <= 0)
    # ds/dt = v: the centred difference of the position against the speed.
    h = taus[1] - taus[0]
    slope = (states[2:, 0] - states[:-2, 0]) / (2 * h)
    assert np.allclose(slope[:-5], states[1:-1, 1][:-5], rtol=1e-5, atol=1e-9)
