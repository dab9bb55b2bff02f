"""The game registry: one entry per game, read from ``shuffle_sim/games.toml``.

Every per-game list of the package comes from here: the command line's game choices, the court
loader's known games, the rules layer's frame scorers, the game drivers, default players and the
colours of drawings. An entry names its rules and play modules by dotted path and loads them only
when asked (``scorer``, ``play_module``), so this module sits at the bottom of the package and
imports nothing of it. ``register_game`` adds a game at run time (a plug-in, or a test's toy game).
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

GAMES_FILE = Path(__file__).resolve().parent / "games.toml"
#: Court files may also say ``game = "custom"``: a court judged geometrically, with no game's rules.
CUSTOM = "custom"
_FIELDS = {
    "title",
    "court",
    "scorer",
    "play",
    "default_players",
    "sides",
    "surface_colour",
    "game_lengths",
    "length",
    "picture_zoom",
}


class UnknownGameError(ValueError):
    """A game name that is not registered; the message lists the known ones."""


@dataclass(frozen=True)
class GameEntry:
    """What the package knows of one game (the fields of ``games.toml``)."""

    name: str
    title: str
    court: str
    scorer_path: str  # "module:function", the frame scorer of a resting board
    play_path: str  # the module with ``play_match`` and the game's tactics
    default_players: str
    sides: tuple[str, str]
    surface_colour: str
    game_lengths: tuple[int, ...] = ()
    length: str = "points"
    picture_zoom: str | None = None  # the end a frame's picture shows, where frames have no end of their own

    def scorer(self) -> Callable:
        """The frame scorer, ``Board -> FrameScore``."""
        module, _, function = self.scorer_path.partition(":")
        return getattr(importlib.import_module(module), function)

    def play_module(self) -> ModuleType:
        """The module that plays whole games (``play_match``)."""
        return importlib.import_module(self.play_path)


_registered: dict[str, GameEntry] = {}


@cache
def _builtin() -> dict[str, GameEntry]:
    with open(GAMES_FILE, "rb") as fh:
        data = tomllib.load(fh)
    entries = {}
    for name, table in data.items():
        unknown = set(table) - _FIELDS
        if unknown:
            raise ValueError(f"{GAMES_FILE}: [{name}]: unknown keys {sorted(unknown)}")
        entries[name] = GameEntry(
            name=name,
            title=table["title"],
            court=table["court"],
            scorer_path=table["scorer"],
            play_path=table["play"],
            default_players=table["default_players"],
            sides=tuple(table["sides"]),
            surface_colour=table["surface_colour"],
            game_lengths=tuple(table.get("game_lengths", ())),
            length=table.get("length", "points"),
            picture_zoom=table.get("picture_zoom"),
        )
    return entries


def games() -> dict[str, GameEntry]:
    """Every registered game by name: the built-in four in file order, then those registered at run time."""
    return {**_builtin(), **_registered}


def game_names() -> tuple[str, ...]:
    return tuple(games())


def get_game(name: str) -> GameEntry:
    """The entry of ``name``; ``UnknownGameError`` naming the known games otherwise."""
    found = games().get(name)
    if found is None:
        raise UnknownGameError(f"game must be one of {', '.join(games())} (got {name!r})")
    return found


def register_game(entry: GameEntry) -> GameEntry:
    """Add (or replace) a game at run time; returns the entry."""
    if not entry.name or entry.name == CUSTOM:
        raise ValueError(f"game name must be a non-empty name other than {CUSTOM!r} (got {entry.name!r})")
    _registered[entry.name] = entry
    return entry


def unregister_game(name: str) -> None:
    """Remove a game registered at run time (the built-in games stay)."""
    _registered.pop(name, None)
