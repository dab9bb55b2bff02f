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
same seed plays the same match bit for bit. The helpers here (``single_game``, ``best_of_three``,
``finish_match``) are the match formats the game modules share.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from shuffle_sim.court import Court, as_court
from shuffle_sim.games import UnknownGameError, game_names, get_game
from shuffle_sim.messages import shown
from shuffle_sim.playing.flat_only import require_flat
from shuffle_sim.playing.players import Player, PlayerError, parse_players
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord
from shuffle_sim.playing.shooting import one_numba_thread

SIDES = ("A", "B")
#: Games a side must win in the matches the rules leave open (horse collar, ricochet).
BEST_OF_THREE = 2


def _check_game(game: str) -> str:
    try:
        get_game(game)
    except UnknownGameError:
        raise PlayerError(f"game must be one of {', '.join(game_names())} (got {game!r})") from None
    return game


def check_game_length(game: str, length: int | None) -> int | None:
    """A game length (game point, or crokinole rounds) checked for ``game``; None keeps the rules' default."""
    if length is None:
        return None
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise PlayerError(f"game_length must be a positive integer (got {shown(length)})")
    allowed = get_game(game).game_lengths
    if allowed and length not in allowed:
        raise PlayerError(f"game_length: {game} is played to {' or '.join(map(str, allowed))} (got {length})")
    return length


def check_format(game: str, frames: int | None, championship: bool, length: int | None) -> dict:
    """The game format beside its length, checked for ``game``: a deck game of ``frames`` frames
    (MSA C-1), a crokinole ``championship`` game. Returns the keywords the game's ``play_match``
    takes for it (its play module names them in ``FORMATS``), empty for the usual format."""
    formats = getattr(get_game(game).play_module(), "FORMATS", ())
    out: dict = {}
    if frames is not None:
        if "frames" not in formats:
            raise PlayerError(f"frames: {game} is not played to a number of frames (got frames={shown(frames)})")
        if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1:
            raise PlayerError(f"frames must be a positive integer (got {shown(frames)})")
        if length is not None:
            raise PlayerError(
                f"game_length: a game of {frames} frames has no game point: give one of frames and game_length "
                f"(got {length})"
            )
        out["frames"] = frames
    if championship is not False:
        if not isinstance(championship, bool):
            raise PlayerError(f"championship must be true or false (got {shown(championship)})")
        if "championship" not in formats:
            raise PlayerError(f"championship: {game} has no championship format")
        out["championship"] = True
    return out


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise PlayerError(f"seed must be an integer in [0, 2**64) (got {shown(seed)})")
    return seed


def players_from(game: str, players: str | tuple[Player, Player] | None) -> dict[str, Player]:
    """Players by side from "A,B" text (``players.parse_players``), a pair, or the game's default."""
    if players is None:
        players = get_game(game).default_players
    if isinstance(players, str):
        players = parse_players(game, players)
    if len(players) != 2:
        raise PlayerError(f"players: expected two players (got {len(players)})")
    return dict(zip(SIDES, players))


def play(
    game: str,
    players: str | tuple[Player, Player] | None = None,
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
            get_game(game).play_module().play_match(by_side, seed, match, length, on_frame, on_game, played_on, **fmt)
        )
    record.players = {side: p.name for side, p in by_side.items()}
    record.court = played_on
    return record


def game_court(
    game: str, court: Court | str | os.PathLike | None, players: Mapping[str, Player] | None = None
) -> Court:
    """``court`` (a ``Court``, name or file; None: the game's own court) checked to be a court of
    ``game`` or a custom court, and flat if any of ``players`` (by side) plays to win: the win
    search's rollouts run the flat kernels (``flat_only``)."""
    found = as_court(get_game(game).court if court is None else court)
    if not found.plays(game):
        raise PlayerError(f"court: {found.name!r} is a {found.game} court, not a {game} court")
    for side, player in (players or {}).items():
        if player.strategy.name == "win":
            require_flat(found, f"players: side {side} ({player.name})")
    return found


def frame_callback(on_frame, number):
    """``on_frame(number, frame)`` as the one-argument callback a game driver takes (None stays None)."""
    return None if on_frame is None else (lambda frame: on_frame(number, frame))


def finish_match(game: str, seed: int, match: bool, games: list[GameRecord], winner, wins, notes=()) -> MatchRecord:
    """The record of a game or match as played (players are filled in by ``play``)."""
    return MatchRecord(
        game=game, seed=seed, players={}, match=match, games=games, winner=winner, wins=wins, notes=list(notes)
    )


def single_game(game_name, play_one, game, players, seed, on_frame, on_game, court) -> MatchRecord:
    """One game played alone (not a match) on ``court``: game index 0, number 1."""
    record = play_one(game, players, seed, 0, court=court, on_frame=frame_callback(on_frame, 1))
    if on_game:
        on_game(record)
    return finish_match(game_name, seed, False, [record], record.winner, {s: int(s == record.winner) for s in SIDES})


def best_of_three(game_name, make_game, play_one, players, seed, match, on_frame, on_game, court) -> MatchRecord:
    """A game, or a match won by the first side to win ``BEST_OF_THREE`` games on ``court``
    (``make_game(number)`` sets up game ``number``; an unfinished game ends the match without a
    winner)."""
    games: list[GameRecord] = []
    wins = {s: 0 for s in SIDES}
    while True:
        number = len(games) + 1
        record = play_one(
            make_game(number),
            players,
            seed,
            number - 1,
            court=court,
            number=number,
            on_frame=frame_callback(on_frame, number),
        )
        games.append(record)
        if on_game:
            on_game(record)
        if record.winner is not None:
            wins[record.winner] += 1
        if not match:
            return finish_match(game_name, seed, False, games, record.winner, wins)
        leader = max(SIDES, key=lambda s: wins[s])
        if wins[leader] >= BEST_OF_THREE:
            return finish_match(game_name, seed, True, games, leader, wins)
        if not record.finished:
            return finish_match(game_name, seed, True, games, None, wins)
