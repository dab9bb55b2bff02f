"""The rules of the four games, one module each, on the small common interface of ``common``.

==================  =======================================================================
module              what it does
==================  =======================================================================
``common``          Board, Turn, Contact, DiscScore, FrameScore, RulesError
``rulings``         one shot's rulings: the board before a shot and its result -> removals and why,
                    20s, the hit rule, fouls, penalties (``shot_rulings``)
``board_file``      read a board of resting discs to score (``shuffle-sim score``)
``deck``            deck half-round scoring, shot effects (C-20a), lag (C-2), legal starts
``deck_penalties``  MSA penalty table I (data) and compound/displacement penalties
``deck_game``       deck game and match flow (C-1, C-3, D-3, D-4)
``horse_collar``    horse collar frame scoring and the game to 51 with the hammer
``ricochet``        ricochet scoring (far half, closest weights only), the game to 15 or 21
``crokinole``       crokinole shots (hit and open-shot rules), rounds, games, matches
``standings``       crokinole standings, tie-breakers and shoot-outs
==================  =======================================================================
"""

from __future__ import annotations

from shuffle_sim.games import GameEntry, UnknownGameError, get_game
from shuffle_sim.rules.common import Board, Contact, DiscScore, FrameScore, RulesError, Turn
from shuffle_sim.rules.rulings import ShotOutcome, ShotRulings, shot_rulings


def _entry(game: str) -> GameEntry:
    try:
        return get_game(game)
    except UnknownGameError as exc:
        raise RulesError(str(exc)) from None


def default_court(game: str) -> str:
    """The court a game is played on unless a board names another (the registry's ``court``)."""
    return _entry(game).court


def score_board(game: str, board: Board) -> FrameScore:
    """Score one frame of ``game`` from a board of resting discs (the registry's ``scorer``).

    A board knows where discs rest, not what the shots did: to apply the rules to a simulated shot
    (the hit rule, fouls, 20s set aside, penalties), use ``shot_rulings`` first and score the board
    it leaves."""
    return _entry(game).scorer()(board)


__all__ = [
    "Board",
    "Contact",
    "DiscScore",
    "FrameScore",
    "RulesError",
    "ShotOutcome",
    "ShotRulings",
    "Turn",
    "default_court",
    "score_board",
    "shot_rulings",
]
