"""``shuffle-sim bench``'s restitution-law entry times what it says: the same half-rounds with and
without a law, the law acting on their impacts."""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim.bench import physics as bench
from shuffle_sim.bench.restitution import YIELD_SPEED, board_beside_constant, board_shots, law_beside_constant
from shuffle_sim.court import load_court
from shuffle_sim.physics.faces.scene_batch import Scenes, simulate_scenes


def test_the_law_changes_the_half_rounds_it_times_and_the_ratio_is_of_the_two_rates():
    deck = load_court("deck")
    rounds = bench.half_round_shots(deck, 40, seed=5)
    plain = bench.kernel_half_rounds(deck, rounds)
    lawful = bench.kernel_half_rounds(
        deck.with_params(disc_yield_speed=YIELD_SPEED, cushion_yield_speed=YIELD_SPEED), rounds
    )
    assert not np.array_equal(plain.x, lawful.x, equal_nan=True)  # impacts above the yield speed lose more
    row = law_beside_constant(deck, rounds, bench.kernel_half_rounds, 1)
    assert all(math.isfinite(v) and v > 0 for v in row.values())
    assert row["law_over_constant"] == row["kernel_per_s_law"] / row["kernel_per_s_constant"]
    assert row["evaluation_over_constant"] == row["kernel_per_s_law_e0"] / row["kernel_per_s_constant_e0"]


def test_the_evaluation_timing_plays_identical_paths():
    """With a restitution of 0 the law gives 0 at every speed: the same half-rounds, bit for bit, with the
    law evaluated at every impact."""
    deck = load_court("deck").with_params(disc_restitution=0.0, cushion_restitution=0.0)
    rounds = bench.half_round_shots(deck, 40, seed=5)
    plain = bench.kernel_half_rounds(deck, rounds)
    lawful = bench.kernel_half_rounds(
        deck.with_params(disc_yield_speed=YIELD_SPEED, cushion_yield_speed=YIELD_SPEED), rounds
    )
    assert np.array_equal(plain.x, lawful.x, equal_nan=True) and np.array_equal(plain.y, lawful.y, equal_nan=True)


def test_the_board_entry_times_the_crokinole_board_with_its_law_beside_a_constant_restitution():
    """The board's shots hit their targets above the law's yield speed: the law changes where the discs
    rest, and the entry reports both rates, their ratio and both runs' events."""
    board = load_court("crokinole")
    scenes = Scenes(board, *board_shots(60, seed=3))
    lawful = simulate_scenes(scenes)
    constant = simulate_scenes(Scenes(board.with_params(disc_yield_speed=math.inf), *board_shots(60, seed=3)))
    assert np.all(lawful.ok) and np.all(constant.ok)
    assert not np.array_equal(lawful.x, constant.x, equal_nan=True)
    assert lawful.events.sum() > 60  # every shot hits: at least a contact and two stops each
    row = board_beside_constant(60, 1)
    assert row["court"] == "crokinole" and row["yield_speed"] == board.params["disc_yield_speed"]
    assert row["law_over_constant"] == row["scenes_per_s_law"] / row["scenes_per_s_constant"]
    assert row["events_law"] > 0 and row["events_constant"] > 0
