"""Counter-based random draws and skill presets (shuffle_sim.noise)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim import noise


def _numpy_philox_block(seed: int, counter: tuple[int, int, int, int]) -> np.ndarray:
    """The same Philox4x64-10 block from NumPy (an independent implementation).

    NumPy increments the counter before it encrypts, so it is started one step behind.
    """
    c0, c1, c2, c3 = counter
    assert c0 >= 1  # no borrow from the next word
    bits = np.random.Philox(key=seed, counter=[c0 - 1, c1, c2, c3])
    return bits.random_raw(4)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**128 - 1), shot=st.integers(1, 2**63), stream=st.integers(0, 3), block=st.integers(0, 5))
def test_philox_matches_numpy(seed, shot, stream, block):
    k0, k1 = noise.seed_key(seed)
    ours = noise.philox4x64(np.uint64(shot), np.uint64(stream), np.uint64(block), np.uint64(0), k0, k1)
    expected = _numpy_philox_block(seed, (shot, stream, block, 0))
    assert [int(w) for w in ours] == [int(w) for w in expected]


def test_uniform_slots_follow_the_documented_layout():
    seed, first = 12345, 7
    u = noise.uniforms(seed, first, 3, 6, stream=1)
    for row in range(3):
        shot = first + row
        words = np.concatenate([_numpy_philox_block(seed, (shot, 1, b, 0)) for b in range(2)])[:6]
        expected = ((words >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0**-53
        np.testing.assert_array_equal(u[row], expected)


def test_draws_do_not_depend_on_how_the_range_is_split():
    whole = noise.normals(99, 0, 1000, 5)
    parts = np.concatenate([noise.normals(99, a, b - a, 5) for a, b in [(0, 1), (1, 333), (333, 334), (334, 1000)]])
    np.testing.assert_array_equal(whole, parts)


def test_streams_and_seeds_differ():
    a = noise.uniforms(1, 0, 100, 4, stream=0)
    assert not np.array_equal(a, noise.uniforms(1, 0, 100, 4, stream=1))
    assert not np.array_equal(a, noise.uniforms(2, 0, 100, 4, stream=0))


def test_uniforms_are_open_interval_and_normals_are_standard():
    u = noise.uniforms(3, 0, 200_000, 4)
    assert u.min() > 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.003
    z = noise.normals(3, 0, 200_000, 5)
    assert abs(z.mean()) < 0.01
    assert abs(z.std() - 1.0) < 0.01
    # Slots are independent of each other: correlation near zero.
    c = np.corrcoef(z.T)
    assert np.abs(c - np.eye(5)).max() < 0.01
    # Tail mass of a standard normal beyond 2 sd: 4.55 %.
    assert abs(np.mean(np.abs(z) > 2.0) - 0.0455) < 0.002


def test_bad_seed_is_rejected_by_name():
    with pytest.raises(noise.NoiseError, match="seed"):
        noise.uniforms(-1, 0, 1, 1)
    with pytest.raises(noise.NoiseError, match="seed"):
        noise.uniforms(2**128, 0, 1, 1)


def test_presets_load_for_every_game_and_unknown_names_are_listed():
    for game in ("deck", "horse-collar", "ricochet", "crokinole"):
        presets = noise.skill_presets(game)
        assert presets
        for model in presets.values():
            assert model.speed > 0 and model.direction > 0
    top = noise.skill_preset("crokinole", "top competitive")
    average = noise.skill_preset("crokinole", "average competitive")
    assert top.speed <= average.speed and top.direction <= average.direction
    with pytest.raises(noise.NoiseError, match="known: "):
        noise.skill_preset("crokinole", "grandmaster")
    with pytest.raises(noise.NoiseError, match="no skill presets"):
        noise.skill_presets("curling")


def test_parse_noise_reads_units_and_rejects_bad_values():
    model = noise.parse_noise({"speed": 0.02, "direction": 0.5, "start": "1 in"}, "x")
    assert model.direction == pytest.approx(math.radians(0.5))
    assert model.start == pytest.approx(0.0254)
    with pytest.raises(noise.NoiseError, match=r"x\.speed"):
        noise.parse_noise({"speed": -0.1}, "x")
    with pytest.raises(noise.NoiseError, match=r"x\.wobble"):
        noise.parse_noise({"wobble": 1}, "x")
