"""Whole simulated games and matches of every registered game (``shuffle-sim play``).

``play(game, players, seed)`` plays one game, or a match with ``match=True``, between two simulated
players (``shuffle_sim.playing.players``) on sides "A" and "B", and returns its ``MatchRecord``. The
game's entry in the registry (``shuffle_sim.games``) names its play module, whose ``play_match``
knows the game's format:

- deck: a singles game to 75 (``game_length`` sets another game point; ``frames``, a game of that
  many frames, MSA C-1), A on yellow; a match is best two of three, A on yellow in game 1 and on
  black in game 2, the third game's colours by a simulated lag (MSA C-1a, C-2; the lag winner takes
  yellow);
- horse collar: a game to 51 with the hammer rule, A throwing first; a match (not defined by the
  rules: the project's choice) is best two of three, the first thrower alternating;
- ricochet: a game to 15 (or 21), starter and starting half by a coin toss drawn from the seed; a
  match (the project's choice) is best two of three, a new toss each game;
- crokinole: a singles game of 4 rounds (``game_length`` rounds), A shooting first; a match is the
  category's number of games (singles: 10), the first shooter alternating. A ``championship`` game
  plays a 5th round (and more) while level after its rounds; a championship match is best two of
  three games (crokinole tournament rules).

A play module that knows more formats than its game's length names them in ``FORMATS`` (deck
``frames``, crokinole ``championship``); ``play`` passes them to its ``play_match`` as keywords
(``check_format``).

Game g of a match draws its execution errors from noise stream g (``players.shot_normals``), so the
same seed plays the same match bit for bit. What ``play`` asks of a play module
(``MatchRequest``) and the match formats the game modules share are in ``_matches``
(``single_game``, ``best_of_three``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from shuffle_sim.court import Court
from shuffle_sim.games import get_game
from shuffle_sim.playing._matches import (
    SIDES,
    MatchRequest,
    _check_game,
    check_format,
    check_game_length,
    check_seed,
    game_court,
)
from shuffle_sim.playing.player_names import as_player, parse_players
from shuffle_sim.playing.players import Player, PlayerError
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord
from shuffle_sim.playing.shooting import one_numba_thread


def players_from(game: str, players: str | Sequence | None) -> dict[str, Player]:
    """Players by side from "A,B" text (``player_names.parse_players``), a pair, or the game's default.
    Each of a pair is a ``Player``, a player's name ("expert-win") or a strategy of one's own
    (``player_names.as_player``)."""
    if players is None:
        players = get_game(game).default_players
    if isinstance(players, str):
        return dict(zip(SIDES, parse_players(game, players)))
    pair = list(players)
    if len(pair) != 2:
        raise PlayerError(f"players: expected two players (got {len(pair)})")
    return {side: as_player(game, player) for side, player in zip(SIDES, pair)}


def play(
    game: str,
    players: str | Sequence | None = None,
    seed: int = 0,
    match: bool = False,
    game_length: int | None = None,
    on_frame: Callable[[int, FrameRecord], None] | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    court: Court | str | os.PathLike | None = None,
    frames: int | None = None,
    championship: bool = False,
) -> MatchRecord:
    """Play a game (or a match) of ``game``; see the module docstring.

    ``players``: "A,B" names ("expert-ev,novice-plan"; the game's default players when None), or a
    pair, each a ``Player``, a name, or a strategy of one's own: any object with
    ``choose(ctx, skill)`` (``players.Strategy``; docs: "Players of your own"), as in
    ``play("deck", players=[MyPlayer(), "expert-win"])``.
    ``court``: a court of the game (a ``Court``, a court name or a court file; default the game's
    own court), for example a graded or slow one. ``on_frame(game_number, frame)`` and
    ``on_game(game)`` are called as frames and games finish. ``frames``: a deck game of that many
    frames instead of a game point; ``championship``: a crokinole championship game (``check_format``).
    """
    _check_game(game)
    length = check_game_length(game, game_length)
    fmt = check_format(game, frames, championship, length)
    check_seed(seed)
    by_side = players_from(game, players)
    played_on = game_court(game, court, by_side)
    with one_numba_thread():
        record = (
            get_game(game)
            .play_module()
            .play_match(MatchRequest(by_side, seed, match, length, on_frame, on_game, played_on), **fmt)
        )
    record.players = {side: p.name for side, p in by_side.items()}
    record.court = played_on
    return record
