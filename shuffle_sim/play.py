"""Whole simulated games and matches of the four games, and their scorecards (``shuffle-sim play``).

``play(game, players, seed)`` plays one game, or a match with ``match=True``, between two simulated
players (``shuffle_sim.players``) on sides "A" and "B", and returns its ``MatchRecord``:

- deck: a singles game to 75 (``game_length`` sets another game point), A on yellow; a match is
  best two of three, A on yellow in game 1 and on black in game 2, the third game's colours by a
  simulated lag (MSA C-1a, C-2; the lag winner takes yellow);
- horse collar: a game to 51 with the hammer rule, A throwing first; a match (not defined by the
  rules: the project's choice) is best two of three, the first thrower alternating;
- ricochet: a game to 15 (or 21), starter and starting half by a coin toss drawn from the seed; a
  match (the project's choice) is best two of three, a new toss each game;
- crokinole: a singles game of 4 rounds (``game_length`` rounds), A shooting first; a match is the
  category's number of games (singles: 10), the first shooter alternating (seed 002).

Game g of a match draws its execution errors from noise stream g (``players.shot_normals``), so the
same seed plays the same match bit for bit. ``write_scorecard`` writes ``scorecard.json``,
``scorecard.csv`` and one picture per frame of its final board (``plot.plot_court``).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable
from pathlib import Path

from shuffle_sim.play_common import (
    CSV_COLUMNS,
    FrameRecord,
    GameRecord,
    MatchRecord,
    one_numba_thread,
)
from shuffle_sim.players import Player, PlayerError, parse_players

GAMES = ("deck", "horse-collar", "ricochet", "crokinole")
SIDES = ("A", "B")
#: Players when none are named: each game's best preset, expected value against the fixed plan.
DEFAULT_PLAYERS = {
    "deck": "expert-ev,expert-plan",
    "horse-collar": "expert-ev,expert-plan",
    "ricochet": "expert-ev,expert-plan",
    "crokinole": "top-competitive-ev,top-competitive-plan",
}
#: Games a side must win in the matches the rules leave open (horse collar, ricochet).
BEST_OF_THREE = 2
#: Colours of sides A and B in the pictures of games whose discs are not named by colour.
PICTURE_COLOURS = {"horse-collar": ("red", "blue"), "ricochet": ("blue", "red"), "crokinole": ("light", "dark")}


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise PlayerError(f"game must be one of {', '.join(GAMES)} (got {game!r})")
    return game


def check_game_length(game: str, length: int | None) -> int | None:
    """A game length (game point, or crokinole rounds) checked for ``game``; None keeps the rules' default."""
    if length is None:
        return None
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise PlayerError(f"game_length must be a positive integer (got {length!r})")
    if game == "ricochet" and length not in (15, 21):
        raise PlayerError(f"game_length: ricochet is played to 15 or 21 (got {length})")
    return length


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise PlayerError(f"seed must be an integer in [0, 2**64) (got {seed!r})")
    return seed


def players_from(game: str, players: str | tuple[Player, Player] | None) -> dict[str, Player]:
    """Players by side from "A,B" text (``players.parse_players``), a pair, or the game's default."""
    if players is None:
        players = DEFAULT_PLAYERS[game]
    if isinstance(players, str):
        players = parse_players(game, players)
    if len(players) != 2:
        raise PlayerError(f"players: expected two players (got {len(players)})")
    return dict(zip(SIDES, players))


def play(game: str, players: str | tuple[Player, Player] | None = None, seed: int = 0, match: bool = False,
         game_length: int | None = None, on_frame: Callable[[int, FrameRecord], None] | None = None,
         on_game: Callable[[GameRecord], None] | None = None) -> MatchRecord:
    """Play a game (or a match) of ``game``; see the module docstring.

    ``on_frame(game_number, frame)`` and ``on_game(game)`` are called as frames and games finish.
    """
    _check_game(game)
    length = check_game_length(game, game_length)
    check_seed(seed)
    by_side = players_from(game, players)
    with one_numba_thread():
        runner = {"deck": _deck, "horse-collar": _horse_collar, "ricochet": _ricochet, "crokinole": _crokinole}[game]
        record = runner(by_side, seed, match, length, on_frame, on_game)
    record.players = {side: p.name for side, p in by_side.items()}
    return record


def _frame_callback(on_frame, number):
    return None if on_frame is None else (lambda frame: on_frame(number, frame))


def _finish(game: str, seed: int, match: bool, games: list[GameRecord], winner, wins, notes=()) -> MatchRecord:
    return MatchRecord(game=game, seed=seed, players={}, match=match, games=games, winner=winner, wins=wins,
                       notes=list(notes))


def _deck(players, seed, match, length, on_frame, on_game) -> MatchRecord:
    from shuffle_sim.play_deck import deck_options, play_deck_game, play_lag
    from shuffle_sim.rules.deck_game import DeckGame, DeckMatch

    options = deck_options(length)
    if not match:
        record = play_deck_game(DeckGame(*SIDES, options=options), players, seed, 0,
                                on_frame=_frame_callback(on_frame, 1))
        if on_game:
            on_game(record)
        return _finish("deck", seed, False, [record], record.winner, {s: int(s == record.winner) for s in SIDES})
    deck_match = DeckMatch(*SIDES, options=options)
    games, notes = [], []
    while not deck_match.over:
        if deck_match.needs_lag:
            winner, lag_notes = play_lag(deck_match, players, seed)
            notes += lag_notes
            deck_match.record_lag(winner, "yellow")
        number = len(games) + 1
        game = deck_match.next_game()
        record = play_deck_game(game, players, seed, number - 1, number=number,
                                on_frame=_frame_callback(on_frame, number))
        games.append(record)
        if on_game:
            on_game(record)
        if not game.over:
            notes.append(f"game {number} stopped unfinished: the match has no winner")
            return _finish("deck", seed, True, games, None, dict(deck_match.wins), notes)
        deck_match.record_game(game)
    return _finish("deck", seed, True, games, deck_match.winner, dict(deck_match.wins), notes)


def _best_of_three(game_name, make_game, play_one, players, seed, match, on_frame, on_game) -> MatchRecord:
    games = []
    wins = {s: 0 for s in SIDES}
    while True:
        number = len(games) + 1
        record = play_one(make_game(number), players, seed, number - 1, number=number,
                          on_frame=_frame_callback(on_frame, number))
        games.append(record)
        if on_game:
            on_game(record)
        if record.winner is not None:
            wins[record.winner] += 1
        if not match:
            return _finish(game_name, seed, False, games, record.winner, wins)
        leader = max(SIDES, key=lambda s: wins[s])
        if wins[leader] >= BEST_OF_THREE:
            return _finish(game_name, seed, True, games, leader, wins)
        if not record.finished:
            return _finish(game_name, seed, True, games, None, wins)


def _horse_collar(players, seed, match, length, on_frame, on_game) -> MatchRecord:
    from shuffle_sim.play_horse_collar import play_horse_collar_game
    from shuffle_sim.rules.horse_collar import HorseCollarGame, HorseCollarOptions

    options = HorseCollarOptions() if length is None else HorseCollarOptions(game_point=length)

    def make(number):
        first, second = SIDES if number % 2 == 1 else SIDES[::-1]
        return HorseCollarGame(first, second, options)

    return _best_of_three("horse-collar", make, play_horse_collar_game, players, seed, match, on_frame, on_game)


def _ricochet(players, seed, match, length, on_frame, on_game) -> MatchRecord:
    from shuffle_sim.play_ricochet import new_game, play_ricochet_game
    from shuffle_sim.rules.ricochet import RicochetOptions

    options = RicochetOptions() if length is None else RicochetOptions(game_point=length)
    return _best_of_three("ricochet", lambda number: new_game(seed, number - 1, SIDES, options), play_ricochet_game,
                          players, seed, match, on_frame, on_game)


def _crokinole(players, seed, match, length, on_frame, on_game) -> MatchRecord:
    from shuffle_sim.play_crokinole import play_crokinole_game
    from shuffle_sim.rules.crokinole import (
        CrokinoleGame,
        CrokinoleMatch,
        CrokinoleOptions,
    )

    options = CrokinoleOptions() if length is None else CrokinoleOptions(rounds=length)
    if not match:
        record = play_crokinole_game(CrokinoleGame(SIDES, options), players, seed, 0,
                                     on_frame=_frame_callback(on_frame, 1))
        if on_game:
            on_game(record)
        return _finish("crokinole", seed, False, [record], record.winner,
                       {s: int(s == record.winner) for s in SIDES})
    crokinole_match = CrokinoleMatch(SIDES, options)
    games = []
    while not crokinole_match.over:
        number = len(games) + 1
        game = crokinole_match.next_game()
        record = play_crokinole_game(game, players, seed, number - 1, number=number,
                                     on_frame=_frame_callback(on_frame, number))
        crokinole_match.record_game(game)
        games.append(record)
        if on_game:
            on_game(record)
    notes = ["match points: " + ", ".join(f"{s} {p}" for s, p in crokinole_match.points.items()),
             "20s: " + ", ".join(f"{s} {n}" for s, n in crokinole_match.twenties.items())]
    return _finish("crokinole", seed, True, games, crokinole_match.winner, dict(crokinole_match.wins), notes)


# --------------------------------------------------------------------------------------------------
# Scorecards


def _picture_discs(game: str, frame: FrameRecord, sides: tuple[str, str]) -> list[tuple[float, float, str]]:
    colours = PICTURE_COLOURS.get(game)
    out = []
    for disc in frame.board:
        team = disc["team"]
        if colours is not None and team in sides:
            team = colours[sides.index(team)]
        out.append((disc["x"], disc["y"], team))
    return out


def write_scorecard(record: MatchRecord, out: str | os.PathLike, pictures: bool = True, dpi: int = 100) -> list[Path]:
    """Write ``scorecard.json``, ``scorecard.csv`` and (``pictures``) ``gameG-frameFF.png`` into ``out``.

    Each picture is the frame's final board on its court, judged at the end the frame scored at.
    Returns the paths written.
    """
    from shuffle_sim.court import load_court
    from shuffle_sim.plot import plot_court

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if pictures:
        court = load_court(record.game)
        for g in record.games:
            for f in g.frames:
                path = out / f"game{g.number}-frame{f.number:02d}.png"
                zoom = f.end if f.end is not None else ("default" if record.game == "horse-collar" else None)
                plot_court(court, path, discs=_picture_discs(record.game, f, g.sides) or None, end=f.end, zoom=zoom,
                           dpi=dpi)
                f.picture = path.name
                written.append(path)
    json_path = out / "scorecard.json"
    json_path.write_text(json.dumps(record.to_dict(), indent=1))
    csv_path = out / "scorecard.csv"
    with open(csv_path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(record.csv_rows())
    return [json_path, csv_path, *written]


def frame_line(frame: FrameRecord, sides: tuple[str, str]) -> str:
    """One scoreboard line: the frame, each side's points and running total, and any note."""
    parts = [f"  {frame.label:<46s}"]
    for side in sides:
        parts.append(f"{side} {frame.points.get(side, 0):+4d} ={frame.totals.get(side, 0):4d}")
    line = "  ".join(parts)
    if frame.twenties is not None:
        line += "   20s " + "/".join(str(frame.twenties.get(s, 0)) for s in sides)
        line += "   totals " + "/".join(str(frame.score.get(s, 0)) for s in sides)
    if frame.note:
        line += f"   ({frame.note})"
    return line
