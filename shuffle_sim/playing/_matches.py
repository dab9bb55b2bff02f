"""What ``play`` asks of a game's play module (``MatchRequest``), the match formats the game modules
share (``single_game``, ``best_of_three``), the checks of a game's arguments, and the court a game is
played on. ``match_play.play`` plays the games and matches themselves."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from shuffle_sim.court import Court, as_court
from shuffle_sim.games import UnknownGameError, game_names, get_game
from shuffle_sim.messages import shown
from shuffle_sim.playing.flat_only import require_win_search
from shuffle_sim.playing.players import Player, PlayerError
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord

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


def game_court(
    game: str, court: Court | str | os.PathLike | None, players: Mapping[str, Player] | None = None
) -> Court:
    """``court`` (a ``Court``, name or file; None: the game's own court) checked to be a court of
    ``game`` or a custom court, and one the game's win search rolls out on if any of ``players`` (by
    side) plays to win (``flat_only.require_win_search``)."""
    found = as_court(get_game(game).court if court is None else court)
    if not found.plays(game):
        raise PlayerError(f"court: {found.name!r} is a {found.game} court, not a {game} court")
    for side, player in (players or {}).items():
        if getattr(player.strategy, "name", None) == "win":
            require_win_search(game, found, f"players: side {side} ({player.name})")
    return found


def frame_callback(on_frame, number):
    """``on_frame(number, frame)`` as the one-argument callback a game driver takes (None stays None)."""
    return None if on_frame is None else (lambda frame: on_frame(number, frame))


@dataclass(frozen=True)
class MatchRequest:
    """What ``play`` asks of a game's play module (its ``play_match``): ``players`` by side, the
    ``seed``, a game or a ``match``, the game's ``length`` (None: the rules' default), the callbacks
    as frames and games finish (``on_frame(game_number, frame)``, ``on_game(game)``) and the
    ``court`` (None: the game's own)."""

    players: Mapping[str, Player]
    seed: int
    match: bool = False
    length: int | None = None
    on_frame: Callable[[int, FrameRecord], None] | None = None
    on_game: Callable[[GameRecord], None] | None = None
    court: Court | None = None

    def play_game(self, play_one, game, number: int) -> GameRecord:
        """Game ``number`` of the match (the rules' ``game``, game index ``number - 1``) played on the
        request's court by ``play_one`` (a game's ``GamePlay.play_out``), and told to ``on_game``."""
        record = play_one(
            game,
            self.players,
            self.seed,
            number - 1,
            court=self.court,
            number=number,
            on_frame=frame_callback(self.on_frame, number),
        )
        if self.on_game:
            self.on_game(record)
        return record

    def record(self, game: str, games: list[GameRecord], winner, wins, notes=()) -> MatchRecord:
        """The record of the game or match as played (players are filled in by ``play``)."""
        return MatchRecord(
            game=game,
            seed=self.seed,
            players={},
            match=self.match,
            games=games,
            winner=winner,
            wins=wins,
            notes=list(notes),
        )


def single_game(game_name: str, play_one, game, request: MatchRequest) -> MatchRecord:
    """One game played alone (not a match): game index 0, number 1."""
    record = request.play_game(play_one, game, 1)
    return request.record(game_name, [record], record.winner, {s: int(s == record.winner) for s in SIDES})


def best_of_three(game_name: str, make_game, play_one, request: MatchRequest) -> MatchRecord:
    """A game, or a match won by the first side to win ``BEST_OF_THREE`` games (``make_game(number)``
    sets up game ``number``; an unfinished game ends the match without a winner)."""
    games: list[GameRecord] = []
    wins = {s: 0 for s in SIDES}
    while True:
        number = len(games) + 1
        record = request.play_game(play_one, make_game(number), number)
        games.append(record)
        if record.winner is not None:
            wins[record.winner] += 1
        if not request.match:
            return request.record(game_name, games, record.winner, wins)
        leader = max(SIDES, key=lambda s: wins[s])
        if wins[leader] >= BEST_OF_THREE:
            return request.record(game_name, games, leader, wins)
        if not record.finished:
            return request.record(game_name, games, None, wins)
