"""Simulated games: whole games and matches of the four games between simulated players, their
records and scorecards; the players, their strategies and each game's tactics; the shot advisor.

``play(game, players, seed)`` plays a game (``match=True``: a match) between two simulated players
on sides "A" and "B" and returns its ``MatchRecord`` (``shuffle-sim play``); the same seed plays the
same game bit for bit. Each game is played in the format its rules give it: deck a singles game to
75, a match best two of three with a lag for game 3 (MSA C-1a, C-2); horse collar a game to 51 with
the hammer rule; ricochet a game to 15 (or 21) after a coin toss; crokinole a singles game of four
rounds, a match the category's number of games; horse collar and ricochet matches, which their rules
leave open, best two of three. ``game_length`` sets another game point (or number of rounds).
``players_from`` reads players from text such as ``"expert-ev,average-plan"``
(``shuffle_sim.playing.players``); ``write_scorecard`` writes what ``shuffle-sim play`` writes.

====================  ==============================================================================
module                what it holds
====================  ==============================================================================
``match_play``        ``play``: a game or a match of any registered game, between named players
``player_names``      players named as the command line names them ("expert-ev"), or of one's own
``records``           shot, frame, game and match records (the scorecard's data)
``scorecard``         ``write_scorecard`` (JSON, CSV, frame pictures), scoreboard lines
``players``           players: skill presets, strategies, intents, aiming, what a shot's success is
``search``            the ``win`` players: search over the candidate shots, rollouts, win tables
``advisor``           ``shuffle-sim advise``: the candidate shots for a board, ranked
``shooting``          one shot through the kernel, as every game driver plays it
``deck``              deck tactics, half-rounds, the lag, matches
``deck_engine``       the numba deck engine: whole fixed-plan games in one call
``horse_collar``      horse collar tactics and frames
``ricochet``          ricochet tactics and rounds
``crokinole``         crokinole tactics, rounds and matches
``flat_only``         what runs flat Coulomb courts only (deck engine, crokinole rollouts): refusals
====================  ==============================================================================

Inside the package: the one game loop (``_loop``: ``GameDriver``, a game a shot at a time, and
``play_game``), the match formats and the checks of a game's arguments (``_matches``), the deck
engine's parts (``_deck_setup``, ``_deck_plan``, ``_deck_half_round``), and one shot run among a
board's discs in numba under the court's motion law, which the deck engine and the win search's
rollouts share (``_board_shot``).
"""

from shuffle_sim.playing._loop import FramePlay, GameDriver, GamePlay, PendingShot, play_game
from shuffle_sim.playing._matches import (
    SIDES,
    check_format,
    check_game_length,
    check_seed,
    game_court,
)
from shuffle_sim.playing.match_play import play, players_from
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord, ShotRecord
from shuffle_sim.playing.scorecard import frame_line, write_scorecard

__all__ = [
    "SIDES",
    "FramePlay",
    "FrameRecord",
    "GameDriver",
    "GamePlay",
    "GameRecord",
    "MatchRecord",
    "PendingShot",
    "ShotRecord",
    "check_format",
    "check_game_length",
    "check_seed",
    "frame_line",
    "game_court",
    "play",
    "play_game",
    "players_from",
    "write_scorecard",
]
