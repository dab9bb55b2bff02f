"""Restitution that falls with the impact speed (``physics.restitution``): the law, the impulses that
use it, the kernel's impacts against their closed forms, and the crokinole board's defaults against
the filmed observation (hit slowly head-on the shooter stops dead; hit hard it follows through)."""

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import CourtError, load_court
from shuffle_sim.physics import DISC_CUSHION, DISC_DISC, restitution_at, simulate
from shuffle_sim.physics.contacts.impulses import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics.scene import Scene

CROKINOLE = load_court("crokinole")
DECK = load_court("deck")
speeds = st.floats(1e-6, 50.0)


def test_the_law_is_constant_up_to_the_yield_speed_then_falls_as_the_fourth_root():
    assert restitution_at(0.85, 0.7, 0.3) == 0.85
    assert restitution_at(0.85, 0.7, 0.7) == 0.85
    assert restitution_at(0.85, 0.7, 1.5) == pytest.approx(0.85 * (0.7 / 1.5) ** 0.25, rel=1e-15)
    assert restitution_at(0.85, 0.7, 11.2) == pytest.approx(0.85 / 2, rel=1e-15)  # (16 v_y): half
    assert restitution_at(0.8, math.inf, 1e9) == 0.8


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(1e-3, 10.0), speeds, speeds)
def test_the_law_never_rises_with_speed_and_stays_in_its_range(e, yield_speed, v1, v2):
    lo, hi = sorted((v1, v2))
    assert 0.0 <= restitution_at(e, yield_speed, hi) <= restitution_at(e, yield_speed, lo) <= e


@settings(max_examples=200, deadline=None)
@given(
    st.floats(-3, 3), st.floats(-3, 3), st.floats(-50, 50), st.floats(0, 2 * math.pi), st.floats(0, 1), st.floats(0, 1)
)
def test_an_infinite_yield_speed_is_the_constant_restitution_bit_for_bit(vx, vy, w, angle, e, mu):
    nx, ny = math.cos(angle), math.sin(angle)
    r = 0.0159
    assert fixed_body_impulse(vx, vy, w, nx, ny, r, e, mu, 0.5, math.inf) == fixed_body_impulse(
        vx, vy, w, nx, ny, r, e, mu, 0.5
    )
    assert disc_disc_impulse(vx, vy, w, -vy, vx, 0.0, nx, ny, r, e, mu, 0.5, math.inf) == disc_disc_impulse(
        vx, vy, w, -vy, vx, 0.0, nx, ny, r, e, mu, 0.5
    )


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, 5), st.floats(-1, 1), st.floats(0, 1), st.floats(0.01, 3))
def test_the_impulses_use_the_law_at_the_normal_approach_speed(speed, slant, e, yield_speed):
    # Head-on into a fixed body along -n, with a tangential part that must not change the normal result.
    vx, vy = slant * speed, -speed
    after = fixed_body_impulse(vx, vy, 0.0, 0.0, 1.0, 0.01, e, 0.0, 0.5, yield_speed)
    assert after[1] == pytest.approx(restitution_at(e, yield_speed, speed) * speed, rel=1e-12, abs=1e-15)
    # Two discs: the normal relative velocity after is -e(v) times the one before; momentum is kept.
    va = disc_disc_impulse(speed, 0.0, 0.0, 0.0, slant, 0.0, 1.0, 0.0, 0.01, e, 0.0, 0.5, yield_speed)
    assert va[3] - va[0] == pytest.approx(restitution_at(e, yield_speed, speed) * speed, rel=1e-12, abs=1e-15)
    assert va[0] + va[3] == pytest.approx(speed, rel=1e-12)


def _shooter_slide_after_head_on_hit(court, impact_speed, gap=0.08):
    """Shoot a disc head-on (along +y, no spin) at a disc at rest so that it arrives at
    ``impact_speed``; return (the shooter's slide after the hit, the contact time, the result)."""
    r = court.disc_radius
    a = court.params["mu"] * court.params["gravity"]
    target_y = -0.2  # between the 10 and 5 lines, on a line clear of the pegs and the 20 hole
    start_y = target_y - 2 * r - gap
    v0 = math.sqrt(impact_speed**2 + 2 * a * gap)
    result = simulate(
        Scene(
            court=court,
            x=np.zeros(2),
            y=np.array([start_y, target_y]),
            vx=np.zeros(2),
            vy=np.array([v0, 0.0]),
            omega=np.zeros(2),
        )
    )
    hits = [k for k, kind in enumerate(result.events.kind) if kind == DISC_DISC]
    assert len(hits) == 1
    t_hit = result.events.t[hits[0]]
    contact_y = start_y + v0 * t_hit - 0.5 * a * t_hit**2
    return result.y[0] - contact_y, result


def effective_restitution(court, impact_speed):
    """The restitution a player would read from the shooter's slide after a head-on hit of equal discs:
    the shooter keeps (1 - e) / 2 of its speed, and slides v^2 / (2 mu g) on."""
    slide, _ = _shooter_slide_after_head_on_hit(court, impact_speed)
    a = court.params["mu"] * court.params["gravity"]
    return 1.0 - 2.0 * math.sqrt(2.0 * a * max(slide, 0.0)) / impact_speed


@pytest.mark.courts_own_spin_model
def test_crokinole_defaults_stop_a_slow_shooter_dead_and_let_a_hard_one_follow_through():
    slow, hard = effective_restitution(CROKINOLE, 0.3), effective_restitution(CROKINOLE, 1.5)
    assert slow - hard >= 0.05
    # The shooter's slide is the law's own: e(0.3) = 0.85 and e(1.5) = 0.85 (0.7 / 1.5)^(1/4).
    assert slow == pytest.approx(restitution_at(0.85, 0.7, 0.3), abs=1e-9)
    assert hard == pytest.approx(restitution_at(0.85, 0.7, 1.5), abs=1e-9)
    slide_slow, _ = _shooter_slide_after_head_on_hit(CROKINOLE, 0.3)
    slide_hard, _ = _shooter_slide_after_head_on_hit(CROKINOLE, 1.5)
    assert slide_slow < 0.001 < 0.02 < slide_hard  # under a millimetre: dead; a couple of centimetres: through


def test_a_constant_restitution_court_reads_the_same_at_every_speed():
    court = CROKINOLE.with_params(disc_yield_speed=math.inf)
    assert effective_restitution(court, 0.3) == pytest.approx(0.85, abs=1e-9)
    assert effective_restitution(court, 1.5) == pytest.approx(0.85, abs=1e-9)


def test_a_yield_speed_above_every_impact_changes_nothing_bit_for_bit():
    discs = dict(
        x=np.array([0.3, 0.0, 0.05]),
        y=np.array([2.1, 11.0, 11.5]),
        vx=np.array([-0.03, 0.0, 0.0]),
        vy=np.array([2.0, 0.0, 0.0]),
        omega=np.array([0.5, 0.0, 0.0]),
    )
    plain = simulate(Scene(court=DECK, **discs))
    lawful = simulate(Scene(court=DECK.with_params(disc_yield_speed=100.0, cushion_yield_speed=100.0), **discs))
    assert DISC_DISC in plain.events.kind
    for name in ("x", "y", "vx", "vy", "omega"):
        assert np.array_equal(getattr(plain, name), getattr(lawful, name))
    assert np.array_equal(plain.events.t, lawful.events.t)


@pytest.mark.parametrize("speed", [0.5, 2.0, 4.0])
def test_a_cushion_with_a_law_sends_a_disc_back_at_its_restitution_at_the_impact_speed(speed):
    court = DECK.with_params(mu=0.0, cushion_restitution=0.6, cushion_yield_speed=1.0)
    result = simulate(
        Scene(court=court, x=np.zeros(1), y=np.array([15.0]), vx=np.zeros(1), vy=np.array([speed]), omega=np.zeros(1)),
        max_events=4,
    )
    hit = list(result.events.kind).index(DISC_CUSHION)
    after = result.trajectories.state[result.trajectories.t >= result.events.t[hit]][0, 3]
    assert after == pytest.approx(-restitution_at(0.6, 1.0, speed) * speed, rel=1e-12)


def test_a_peg_with_a_law_sends_a_disc_back_at_its_restitution_at_the_impact_speed():
    peg = CROKINOLE.pegs[0]
    court = CROKINOLE.with_params(mu=0.0, peg_restitution=0.6, peg_yield_speed=0.5)
    ux, uy = peg.x / math.hypot(peg.x, peg.y), peg.y / math.hypot(peg.x, peg.y)
    reach = peg.radius + court.disc_radius
    start = (peg.x + ux * (reach + 0.05), peg.y + uy * (reach + 0.05))
    result = simulate(
        Scene(
            court=court,
            x=np.array([start[0]]),
            y=np.array([start[1]]),
            vx=np.array([-2.0 * ux]),
            vy=np.array([-2.0 * uy]),
            omega=np.zeros(1),
        ),
        max_events=3,
    )
    state = result.trajectories.state[result.trajectories.t >= result.events.t[0]][0]
    assert math.hypot(state[2], state[3]) == pytest.approx(restitution_at(0.6, 0.5, 2.0) * 2.0, rel=1e-9)


def test_court_files_give_laws_per_pair_and_per_cushion_or_peg(tmp_path):
    text = load_court("ricochet").source_path and Path(load_court("ricochet").source_path).read_text()
    text = text.replace(
        "cushion_restitution = 0.7", "cushion_restitution = 0.7\ncushion_yield_speed = 1.5\ndisc_yield_speed = 0.9"
    )
    path = tmp_path / "ricochet-law.toml"
    path.write_text(text)
    court = load_court(path)
    assert court.params["disc_yield_speed"] == 0.9
    assert all(c.yield_speed == 1.5 for c in court.cushions)
    assert math.isinf(load_court("ricochet").params["disc_yield_speed"])


@pytest.mark.parametrize("value", [0.0, -1.0, float("nan"), "fast"])
def test_a_yield_speed_must_be_a_positive_number(value):
    with pytest.raises(CourtError, match=r"disc_yield_speed: .*(positive|number)"):
        DECK.with_params(disc_yield_speed=value)
