"""Simulated games: one game loop over the rules' game flow, players, and each game's tactics.

====================  ==============================================================================
module                what it does
====================  ==============================================================================
``_matches``          ``play``: a game or a match of any registered game; match formats
``_loop``             ``play_game``: the one game loop (``GamePlay``, ``FramePlay``)
``shooting``          one shot through the kernel (``shoot``), fallen discs into the gutter
``records``           shot, frame, game and match records (the scorecard's data)
``scorecard``         ``write_scorecard`` (JSON, CSV, frame pictures), scoreboard lines
``players``           intents, launch kernels, aiming, strategies, presets, what a shot's success is
``search``            the ``win`` players: search over the candidate shots, rollouts, win tables
``advisor``           ``shuffle-sim advise``: the candidate shots for a board, ranked
``deck``              deck tactics, half-rounds, the lag, matches (the Python driver)
``deck_engine``       the numba deck engine: whole fixed-plan games in one call
``flat_only``         whole frames in numba (engine, rollouts) run flat courts only: refusals
``_deck_half_round``  numba: one half-round of the deck engine (shots, removals, C-20a, score)
``_deck_setup``       where deck players stand and aim on a court (``DeckSetup``)
``_deck_plan``        the deck fixed-plan player, compiled: its shot and its launch
``horse_collar``      horse collar tactics and frames
``ricochet``          ricochet tactics and rounds
``crokinole``         crokinole tactics, rounds and matches
====================  ==============================================================================
"""

from shuffle_sim.playing._matches import (
    SIDES,
    check_format,
    check_game_length,
    check_seed,
    game_court,
    play,
    players_from,
)
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord, ShotRecord
from shuffle_sim.playing.scorecard import frame_line, write_scorecard

__all__ = [
    "SIDES",
    "FrameRecord",
    "GameRecord",
    "MatchRecord",
    "ShotRecord",
    "check_format",
    "check_game_length",
    "check_seed",
    "frame_line",
    "game_court",
    "play",
    "players_from",
    "write_scorecard",
]
