"""Closed-form sliding: stopping distance and time, spin decay, and sampled trajectories."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.physics import FALL, SPIN_STOP, STATUS_FALLEN, STATUS_REST, STOP, sample_positions, simulate
from shuffle_sim.physics.laws.closed_form.slide import spin_after, time_to_slide, travelled
from shuffle_sim.physics.scene import Scene

DECK = load_court("deck")


def one_disc(court, x, y, vx, vy, omega=0.0):
    return Scene(
        court=court, x=np.array([x]), y=np.array([y]), vx=np.array([vx]), vy=np.array([vy]), omega=np.array([omega])
    )


@settings(max_examples=60, deadline=None)
@given(reach=st.floats(0.001, 13.0), angle=st.floats(-0.05, 0.05), mu=st.floats(0.01, 0.12))
def test_stopping_distance_and_time(reach, angle, mu):
    court = DECK.with_params(mu=mu)
    g = court.params["gravity"]
    v0 = math.sqrt(2 * mu * g * reach)
    # Launched up the 52 ft (15.85 m) court's centre line from near the head: nothing is in the way.
    result = simulate(one_disc(court, 0.0, 1.0, v0 * math.sin(angle), v0 * math.cos(angle)))
    distance = math.hypot(result.x[0], result.y[0] - 1.0)
    assert result.status[0] == STATUS_REST
    assert distance == pytest.approx(v0 * v0 / (2 * mu * g), rel=1e-9)
    stops = result.events.t[result.events.kind == STOP]
    assert len(stops) == 1
    assert stops[0] == pytest.approx(v0 / (mu * g), rel=1e-9)
    # The disc stops on its launch line.
    assert math.atan2(result.x[0], result.y[0] - 1.0) == pytest.approx(angle, abs=1e-12)


def test_spin_decays_at_four_thirds_mu_g_over_r():
    court = DECK
    omega = 7.0
    result = simulate(one_disc(court, 0.0, 3.0, 0.0, 0.0, omega))
    alpha = 4.0 / 3.0 * court.params["mu"] * court.params["gravity"] / court.disc_radius
    (t_spin,) = result.events.t[result.events.kind == SPIN_STOP]
    assert t_spin == pytest.approx(omega / alpha, rel=1e-12)
    # Spin does not move a disc at rest, and it ends at zero.
    assert (result.x[0], result.y[0]) == (0.0, 3.0)
    assert result.omega[0] == 0.0


@settings(max_examples=200, deadline=None)
@given(v=st.floats(1e-3, 50.0), a=st.floats(1e-3, 5.0), frac=st.floats(0.0, 1.0))
def test_time_to_slide_inverts_travelled(v, a, frac):
    stop = v * v / (2 * a)
    s = frac * stop
    t = time_to_slide(v, a, s)
    assert 0.0 <= t <= v / a * (1 + 1e-12)
    assert travelled(v, a, t) == pytest.approx(s, rel=1e-9, abs=1e-12 * stop)
    # Held at the stop ever after.
    assert travelled(v, a, v / a * 3.0) == stop


def test_frictionless_motion_is_uniform():
    assert travelled(2.0, 0.0, 3.0) == 6.0
    assert time_to_slide(2.0, 0.0, 6.0) == 3.0


@pytest.mark.parametrize("omega", [5.0, -5.0])
def test_spin_after_decays_to_zero_with_its_sign(omega):
    assert spin_after(omega, 2.0, 1.0) == math.copysign(3.0, omega)
    assert spin_after(omega, 2.0, 10.0) == 0.0


def test_sample_positions_follow_the_closed_form_and_vanish_after_a_fall():
    court = DECK
    v0 = 1.2
    # Disc 0 slides up the court; disc 1 slides sideways into the right alley and falls.
    scene = Scene(
        court=court,
        x=np.array([0.0, 0.5]),
        y=np.array([1.0, 3.0]),
        vx=np.array([0.0, 2.0]),
        vy=np.array([v0, 0.0]),
        omega=np.zeros(2),
    )
    result = simulate(scene)
    assert result.status[1] == STATUS_FALLEN
    (t_fall,) = result.events.t[result.events.kind == FALL]
    times, positions = sample_positions(result, 101)
    assert positions.shape == (101, 2, 2)
    assert times[0] == 0.0 and times[-1] == result.t_end
    a = court.params["mu"] * court.params["gravity"]
    tau = np.minimum(times, v0 / a)
    expected = 1.0 + v0 * tau - 0.5 * a * tau * tau
    np.testing.assert_allclose(positions[:, 0, 1], expected, rtol=1e-12)
    np.testing.assert_array_equal(positions[:, 0, 0], 0.0)
    gone = times >= t_fall
    assert np.isnan(positions[gone, 1]).all()
    assert np.isfinite(positions[~gone, 1]).all()
    # The fall happens where the centre crosses the side line x = 3 ft.
    assert result.x[1] == pytest.approx(3 * 0.3048, abs=1e-12)


def test_sample_positions_rejects_a_bad_frame_count():
    result = simulate(one_disc(DECK, 0.0, 1.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="n_frames"):
        sample_positions(result, 0)
