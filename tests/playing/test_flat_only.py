"""Whole frames in numba run flat courts only: the refusal names the court's surface in players' units."""

import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing.flat_only import require_flat
from shuffle_sim.playing.players import PlayerError


def test_the_refusal_names_the_crown_in_inches():
    with pytest.raises(PlayerError, match=r"is not flat \(slope \[0\.001, 0\.0\], crown 1/32 in\)"):
        require_flat(load_court("deck-drifting"), "the win player")
    require_flat(load_court("deck"), "the win player")  # a flat court passes
