"""Whole games between two simulated players, kept as the rules' game objects (their scoreboards
are what the win tables and the head-to-head benchmark read).

``play_rules_game(game, (a, b), seed, g, length, first)`` plays game index ``g`` of ``seed`` with
player ``a`` on side A and ``b`` on side B; ``first`` names the side that shoots first in the
game's first frame (deck: the side on yellow, which leads the first half-round; crokinole: the side
that shoots first in round 1; horse collar: the first thrower, the other having the hammer;
ricochet: the coin toss decides, as in ``shuffle-sim play``, and ``first`` is ignored).
"""

from __future__ import annotations

from shuffle_sim.playing._matches import SIDES
from shuffle_sim.playing.players import Player
from shuffle_sim.playing.shooting import one_numba_thread


def play_rules_game(
    game: str, players: tuple[Player, Player], seed: int, game_index: int, length: int | None, first: str = "A"
):
    """Play one game (module docstring) and return the rules' game object, finished or stopped."""
    by_side = dict(zip(SIDES, players))
    other = SIDES[1] if first == SIDES[0] else SIDES[0]
    rules_game: object
    options: object
    with one_numba_thread():
        if game == "deck":
            from shuffle_sim.playing.deck import deck_options, play_deck_game
            from shuffle_sim.rules.deck_game import DeckGame

            rules_game = DeckGame(first, other, options=deck_options(length))
            play_deck_game(rules_game, by_side, seed, game_index)
        elif game == "crokinole":
            from shuffle_sim.playing.crokinole import play_crokinole_game
            from shuffle_sim.rules.crokinole import CrokinoleGame, CrokinoleOptions

            options = CrokinoleOptions() if length is None else CrokinoleOptions(rounds=length)
            rules_game = CrokinoleGame(SIDES, options, first=first)
            play_crokinole_game(rules_game, by_side, seed, game_index)
        elif game == "horse-collar":
            from shuffle_sim.playing.horse_collar import play_horse_collar_game
            from shuffle_sim.rules.horse_collar import HorseCollarGame, HorseCollarOptions

            options = HorseCollarOptions() if length is None else HorseCollarOptions(game_point=length)
            rules_game = HorseCollarGame(first, other, options)
            play_horse_collar_game(rules_game, by_side, seed, game_index)
        elif game == "ricochet":
            from shuffle_sim.playing.ricochet import new_game, play_ricochet_game
            from shuffle_sim.rules.ricochet import RicochetOptions

            options = RicochetOptions() if length is None else RicochetOptions(game_point=length)
            rules_game = new_game(seed, game_index, SIDES, options)
            play_ricochet_game(rules_game, by_side, seed, game_index)
        else:
            raise ValueError(f"game must be one of deck, crokinole, horse-collar, ricochet (got {game!r})")
    return rules_game
