"""Win probability by score, frames or rounds left and hammer, for the players who play to win.

A game of this family is a chain of frames (deck half-rounds, crokinole rounds, horse collar
frames, ricochet rounds). Given the distribution of one frame's outcome between the side that
shoots first and the side with the hammer (the last shot), the probability of winning the game from
any score follows exactly from the rules' game flow by dynamic programming: the value of a state is
the outcome-weighted value of the states the frame leads to, a finished game worth 1 won, 0 lost,
1/2 tied (``win probability`` below means this expected score). The frame outcomes come from
self-play: whole games of simulated players of the game (``collect``), stored with their provenance
in ``data/<game>.json`` beside the tables for the game's usual length; other lengths are computed
from the same outcomes on first use.

Per game (the rules named are those of ``shuffle_sim.rules``):

- deck (MSA, singles): a state is (score of the side that leads the next half-round, score of the
  other side); a half-round's outcome is (lead side's points, hammer side's points, replayed), the
  points net of penalties as posted (C-20a's 10-off and its replay included). The next half-round
  is led by the side that had the hammer (C-3c), a replayed one by the same side. The game ends
  after a half-round with a side at or over game point and ahead; a tie there plays one more round
  (D-4, as ``rules.deck_game``). A game of a number of frames (C-1; variant "frames", or
  "frames-switch" when the sides switch colours at half way and the side that led the last
  half-round before it leads the first after it): a state is (half-rounds played, the lead of the
  side that leads the next); after the last frame the higher score wins, a tie plays the D-4 round.
- crokinole (tournament points): a state is (own round points minus the opponent's, rounds left,
  whether the side has the hammer in the next round); a round's outcome is won, tied or lost by the
  side with the hammer (2, 1 or 0 points). Singles players alternate the first shot every round; a
  game tied after its rounds is a tie (1/2), or in a championship game (variant "championship")
  goes to another round while tied.
- horse collar: a state is (first thrower's score, hammer's score) before a pair of frames; a frame
  scores its points for its thrower; the game ends once a side has the game point after the hammer
  has thrown, ahead.
- ricochet: a state is (next round's starter's score, the other's); only one side scores a round;
  the scorer starts the next (the default option); the game ends when a side reaches game point.

The data files are made by self-play: ``table_making``, whose docstring gives the command (also in
docs/players/strategies.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

import numpy as np

from shuffle_sim.playing.search._win_solve import (
    DECK_ABOVE,
    DECK_BELOW,
    POINTS_ABOVE,
    crokinole_table,
    deck_frames_table,
    deck_table,
    horse_collar_table,
    ricochet_table,
)

__all__ = [
    "DATA_DIR",
    "DECK_ABOVE",
    "DECK_BELOW",
    "POINTS_ABOVE",
    "SELF_PLAY",
    "STORED_DECIMALS",
    "VARIANTS",
    "SelfPlayPlan",
    "WinTableError",
    "WinTables",
    "compute_table",
    "crokinole_table",
    "data_path",
    "deck_frames_table",
    "deck_table",
    "horse_collar_table",
    "ricochet_table",
    "win_tables",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
#: Stored probabilities are rounded to this many decimals.
STORED_DECIMALS = 5


class SelfPlayPlan(TypedDict):
    """The self-play of one game's data file: the player (both sides), games and game length."""

    players: str
    games: int
    length: int


#: Self-play of the data files: players (both sides), games, seed and length per game.
SELF_PLAY: dict[str, SelfPlayPlan] = {
    "deck": {"players": "expert-ev", "games": 120, "length": 75},
    "crokinole": {"players": "top-competitive-ev", "games": 150, "length": 4},
    "horse-collar": {"players": "expert-ev", "games": 60, "length": 51},
    "ricochet": {"players": "expert-ev", "games": 150, "length": 15},
}


class WinTableError(ValueError):
    """A table file that cannot be read or a state outside what a table knows; names the field."""


# --------------------------------------------------------------------------------------------------
# The tables as the players read them


@dataclass(frozen=True)
class WinTables:
    """One game's frame outcomes from self-play (``outcomes``, ``probs``), their provenance, and its
    tables by game length (computed on first use beyond the stored one)."""

    game: str
    provenance: dict
    outcomes: np.ndarray
    probs: np.ndarray

    def table(self, length: int, variant: str = "") -> dict:
        """The game's table for ``length`` (game point, frames or rounds) in the game's format
        ``variant`` (``VARIANTS``; "" the usual one)."""
        return _table(
            self.game, int(length), variant, self.outcomes.tobytes(), self.outcomes.shape, self.probs.tobytes()
        )

    # ---- deck ---------------------------------------------------------------------------------
    def deck(self, lead_score, hammer_score, game_point: int, extension: int = 0, lead_diff=None):
        """The lead side's win probability before a half-round: in regular play from the two scores,
        or (``extension`` 2 or 1: half-rounds of the D-4 extension left, this one included) from the
        lead side's lead ``lead_diff``."""
        if extension:
            return self.deck_extension(lead_diff, extension, game_point)
        t = self.table(game_point)
        n = t["lead"].shape[0]
        i = np.clip(np.asarray(lead_score) - t["lo"], 0, n - 1)
        j = np.clip(np.asarray(hammer_score) - t["lo"], 0, n - 1)
        return t["lead"][i, j]

    def deck_extension(self, lead_diff, extension: int, length: int, variant: str = ""):
        """The lead side's win probability before a half-round of the D-4 extension (``extension`` 2
        or 1: its half-rounds left, this one included), ``lead_diff`` ahead; read from the table of
        ``length`` and ``variant`` (the extension is the same in every deck format)."""
        t = self.table(length, variant)
        span = t["extension_span"]
        d = np.clip(np.asarray(lead_diff), -span, span) + span
        return (t["extension_first"] if extension == 2 else t["extension_second"])[d]

    def deck_frames(self, lead_diff, played: int, frames: int, switch: bool):
        """In a game of ``frames`` half-rounds (``switch``: the sides switch colours at half way, C-1),
        the win probability of the side leading the next half-round, ``lead_diff`` ahead, with
        ``played`` half-rounds played before it."""
        if not 0 <= played < frames:
            raise WinTableError(f"played must be in 0..{frames - 1} (got {played!r})")
        t = self.table(frames, "frames-switch" if switch else "frames")
        span = t["span"]
        return t["lead"][played, np.clip(np.asarray(lead_diff), -span, span) + span]

    # ---- crokinole ----------------------------------------------------------------------------
    def crokinole(self, lead, rounds_left: int, hammer_next: bool, rounds: int, championship: bool = False):
        """A side's win probability ``lead`` round points ahead with ``rounds_left`` rounds to play,
        having the hammer in the next of them (``hammer_next``); ``championship``: a game level after
        its rounds plays another round, while level."""
        t = self.table(rounds, "championship" if championship else "")
        span = t["span"]
        if not 0 <= rounds_left <= rounds:
            raise WinTableError(f"rounds_left must be in 0..{rounds} (got {rounds_left!r})")
        d = np.clip(np.asarray(lead), -span, span) + span
        return t["values"][d, rounds_left, int(bool(hammer_next))]

    # ---- horse collar -------------------------------------------------------------------------
    def horse_collar(self, first_score, hammer_score, game_point: int, after_first: bool):
        t = self.table(game_point)
        v = t["after_first"] if after_first else t["first"]
        n = v.shape[0]
        return v[np.clip(np.asarray(first_score), 0, n - 1), np.clip(np.asarray(hammer_score), 0, n - 1)]

    # ---- ricochet -----------------------------------------------------------------------------
    def ricochet(self, starter_score, other_score, game_point: int):
        t = self.table(game_point)
        n = t["starter"].shape[0]
        return t["starter"][np.clip(np.asarray(starter_score), 0, n - 1), np.clip(np.asarray(other_score), 0, n - 1)]


@lru_cache(maxsize=16)
def _table(game: str, length: int, variant: str, outcome_bytes: bytes, shape: tuple, prob_bytes: bytes) -> dict:
    outcomes = np.frombuffer(outcome_bytes, dtype=np.int64).reshape(shape)
    probs = np.frombuffer(prob_bytes, dtype=np.float64)
    stored = _stored_tables(game) if not variant else None
    if stored is not None and stored.get("length") == length and stored.get("digest") == _digest(outcomes, probs):
        return stored["table"]
    return compute_table(game, outcomes, probs, length, variant)


#: The formats of each game with a table of their own, beside its usual one (""): the deck game of a
#: number of frames (its sides switching colours at half way, or not), the championship crokinole game.
VARIANTS = {"deck": ("frames", "frames-switch"), "crokinole": ("championship",)}


def compute_table(game: str, outcomes: np.ndarray, probs: np.ndarray, length: int, variant: str = "") -> dict:
    """The game's tables for ``length`` (game point, frames, or crokinole rounds) in the format
    ``variant`` (``VARIANTS``; "" the usual one) from frame outcomes."""
    if variant and variant not in VARIANTS.get(game, ()):
        raise WinTableError(f"variant must be one of {', '.join(VARIANTS.get(game, ())) or 'none'} (got {variant!r})")
    if game == "deck" and variant:
        return deck_frames_table(outcomes, probs, length, variant == "frames-switch")
    if game == "deck":
        return deck_table(outcomes, probs, length)
    if game == "crokinole":
        return crokinole_table(_crokinole_probs(outcomes, probs), length, variant == "championship")
    if game == "horse-collar":
        return horse_collar_table(outcomes[:, 0], probs, length)
    if game == "ricochet":
        return ricochet_table(outcomes, probs, length)
    raise WinTableError(f"game must be one of deck, crokinole, horse-collar, ricochet (got {game!r})")


def _crokinole_probs(outcomes: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Won, tied, lost by the side with the hammer, from rows (lead total, hammer total)."""
    won = probs[outcomes[:, 1] > outcomes[:, 0]].sum()
    tied = probs[outcomes[:, 1] == outcomes[:, 0]].sum()
    return np.array([won, tied, 1.0 - won - tied])


def _digest(outcomes: np.ndarray, probs: np.ndarray) -> str:
    import hashlib

    return hashlib.sha256(
        np.ascontiguousarray(outcomes, dtype=np.int64).tobytes() + np.round(probs, 12).tobytes()
    ).hexdigest()[:16]


def data_path(game: str) -> Path:
    return DATA_DIR / f"{game}.json"


@lru_cache(maxsize=8)
def _read(game: str) -> dict:
    path = data_path(game)
    try:
        with open(path) as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        raise WinTableError(
            f"{path}: cannot read the win table of {game} ({exc}); remake it with "
            f"python -m shuffle_sim.playing.search.table_making {game}"
        ) from None
    for key in ("game", "provenance", "frames"):
        if key not in data:
            raise WinTableError(f"{path}: {key}: missing required key")
    if data["game"] != game:
        raise WinTableError(f"{path}: game: expected {game!r} (got {data['game']!r})")
    return data


def _stored_tables(game: str) -> dict | None:
    data = _read(game)
    stored = data.get("table")
    if not stored:
        return None
    return {"length": stored["length"], "digest": stored["digest"], "table": _unpack(stored["arrays"])}


def _unpack(arrays: dict) -> dict:
    out = {}
    for key, value in arrays.items():
        if isinstance(value, dict):
            out[key] = np.asarray(value["values"], dtype=np.float64).reshape(value["shape"]) / 10**STORED_DECIMALS
        else:
            out[key] = value
    return out


def _pack(table: dict) -> dict:
    out = {}
    for key, value in table.items():
        if isinstance(value, np.ndarray):
            out[key] = {
                "shape": list(value.shape),
                "values": np.rint(value * 10**STORED_DECIMALS).astype(np.int64).ravel().tolist(),
            }
        else:
            out[key] = value
    return out


@lru_cache(maxsize=8)
def win_tables(game: str) -> WinTables:
    """The tables of ``game`` (``data/<game>.json``)."""
    data = _read(game)
    frames = data["frames"]
    rows = np.asarray(frames["rows"], dtype=np.int64)
    if rows.ndim != 2 or rows.shape[0] == 0:
        raise WinTableError(f"{data_path(game)}: frames.rows: must be a non-empty list of rows")
    counts = rows[:, -1].astype(np.float64)
    return WinTables(game, dict(data["provenance"]), np.ascontiguousarray(rows[:, :-1]), counts / counts.sum())


# --------------------------------------------------------------------------------------------------
# Self-play
