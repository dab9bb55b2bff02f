"""The rules of the four games, one module each, on the small common interface of ``common``.

==================  =======================================================================
module              what it does
==================  =======================================================================
``common``          Board, Turn, Contact, DiscScore, FrameScore, RulesError
``board``           read a board of resting discs to score (``shuffle-sim score``)
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

from typing import Callable

from shuffle_sim.rules import crokinole, deck, horse_collar, ricochet
from shuffle_sim.rules.common import Board, Contact, DiscScore, FrameScore, RulesError, Turn

#: Game name -> (default court, frame scorer of a resting board).
GAMES: dict[str, tuple[str, Callable[[Board], FrameScore]]] = {
    deck.GAME: (deck.DEFAULT_COURT, deck.score_half_round),
    horse_collar.GAME: (horse_collar.DEFAULT_COURT, horse_collar.score_frame),
    ricochet.GAME: (ricochet.DEFAULT_COURT, ricochet.score_round),
    crokinole.GAME: (crokinole.DEFAULT_COURT, crokinole.score_round),
}


def default_court(game: str) -> str:
    if game not in GAMES:
        raise RulesError(f"game must be one of {', '.join(GAMES)} (got {game!r})")
    return GAMES[game][0]


def score_board(game: str, board: Board) -> FrameScore:
    """Score one frame of ``game`` from a board of resting discs."""
    default_court(game)
    return GAMES[game][1](board)


__all__ = [
    "Board",
    "Contact",
    "DiscScore",
    "FrameScore",
    "GAMES",
    "RulesError",
    "Turn",
    "default_court",
    "score_board",
]
