"""What runs flat Coulomb courts only refuses others by name: the court's surface in players' units,
or its friction law; the deck's win search takes any court, crokinole's does not."""

import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing.flat_only import require_closed_form, require_win_search
from shuffle_sim.playing.players import PlayerError


def test_the_refusal_names_the_crown_in_inches():
    with pytest.raises(PlayerError, match=r"is not flat \(slope \[0\.001, 0\.0\], crown 1/32 in\)"):
        require_closed_form(load_court("deck-drifting"), "the deck game engine")
    require_closed_form(load_court("deck"), "the deck game engine")  # a flat Coulomb court passes


def test_the_refusal_names_a_friction_law_of_speed():
    court = load_court("crokinole").with_params(mu_speed=0.01)
    with pytest.raises(PlayerError, match=r"court 'crokinole' is flat \(mu_speed 0\.01 s/m\)"):
        require_closed_form(court, "crokinole rollouts")


def test_only_crokinole_win_search_needs_a_flat_coulomb_court():
    require_win_search("deck", load_court("deck-drifting"), "players")
    with pytest.raises(PlayerError, match="players: court 'crokinole' is not flat"):
        require_win_search("crokinole", load_court("crokinole").with_params(slope=[0.01, 0.0]), "players")
