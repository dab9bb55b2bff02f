"""The small interface every game's rules share: boards, turns, contacts, frame scores, game flows.

The rules take plain data: a ``Board`` is a court plus resting disc centres and team labels; a
shot's contacts are ``Contact(a, b, a_dead, b_dead)`` records (disc-disc events only, in time
order); a game flow is told each frame's outcome and answers who shoots next, from where, and when
the game is over. ``rulings`` alone reads a simulated shot's result (``physics.SimResult``) into
that data.

Conventions shared by the four games (``deck``, ``horse_collar``, ``ricochet``, ``crokinole``):

- ``score_*(board) -> FrameScore``: what a resting board is worth, disc by disc, with a short human
  reason per disc. A disc's ``value`` is what it adds to its team's score in this frame (0 for a disc
  that does not count, whatever its zone), so ``scores[team]`` is always the sum of its discs' values.
- A game flow object has ``turns()`` (the shots of the next frame, in order, as ``Turn`` records),
  ``record_*(...)`` (the frame's outcome), ``scores``, ``scoreboard``, ``over`` and ``winner``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.judging import Judgement, judge_batch
from shuffle_sim.messages import shown

#: The halves of a court split at x = 0, as a player at the court's front or head sees them.
HALVES = ("left", "right")


class RulesError(ValueError):
    """A rules call that cannot be honoured; the message names the argument and the value."""


class Contact(NamedTuple):
    """One disc-disc contact during a shot: disc indices and each disc's dead standing at that moment."""

    a: int
    b: int
    a_dead: bool
    b_dead: bool


@dataclass(frozen=True)
class Turn:
    """One shot to be played: who shoots it and from where.

    ``end`` is where the shooter stands (deck and horse collar: ``"head"`` or ``"foot"``; ricochet:
    ``"front"``; crokinole: the seat, ``"south"``, ``"west"``, ``"north"`` or ``"east"``). ``side``
    is the half the shot is played from where the game has halves (deck: the ``"right"`` or
    ``"left"`` half of the 10-off area seen by the shooter, C-3; ricochet: the ``"left"`` or
    ``"right"`` half of the table). ``colour`` is the disc colour where the game names one (deck).
    """

    team: str
    player: int
    shot: int  # 1-based number of the shot within the frame
    end: str
    side: str | None = None
    colour: str | None = None


@dataclass(frozen=True)
class DiscScore:
    """One disc of a scored frame: where it rests, whose it is, what it adds and why."""

    x: float
    y: float
    team: str
    value: int
    reason: str

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "team": self.team, "value": self.value, "reason": self.reason}


@dataclass(frozen=True)
class FrameScore:
    """A scored frame (half-round, frame, round): points per team, per disc, and any voiding rule."""

    scores: dict[str, int]
    discs: tuple[DiscScore, ...]
    void: str | None = None

    def to_dict(self) -> dict:
        """The JSON form printed by ``shuffle-sim score --json``."""
        return {
            "scores": {team: int(points) for team, points in self.scores.items()},
            "discs": [d.to_dict() for d in self.discs],
            "void": self.void,
        }


@dataclass(frozen=True)
class Board:
    """Resting discs on a court (at its scoring end): centres in metres and a team label per disc.

    ``half``: the half of the court a frame scores on, for games whose frames score on one half
    (ricochet: ``"left"``, x < 0, or ``"right"``); None where the game has no such half or it is
    not known. ``twenties``: the 20s each side has already set aside in the round (crokinole: a
    disc that drops into the hole is removed at once and counted), as a board file may list them;
    None when the board says nothing about them. A board holds its own copies of the centres and is
    not changed once made, so it is judged once (``judge``).
    """

    court: Court
    x: np.ndarray
    y: np.ndarray
    team: tuple[str, ...]
    half: str | None = None
    twenties: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        # The board's own copies: its judgement is made once (``judge``), so nothing else may change them.
        x = np.atleast_1d(np.array(self.x, dtype=np.float64))
        y = np.atleast_1d(np.array(self.y, dtype=np.float64))
        if x.ndim != 1 or x.shape != y.shape:
            raise RulesError(f"board: x and y must be flat and of equal length (got {x.shape} and {y.shape})")
        team = tuple(str(t) for t in self.team)
        if len(team) != x.size:
            raise RulesError(f"board: team must have one label per disc ({x.size}), got {len(team)}")
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "team", team)
        if self.half is not None and self.half not in HALVES:
            raise RulesError(f"board: half must be one of {', '.join(HALVES)} (got {shown(self.half)})")
        if self.twenties is not None:
            object.__setattr__(
                self,
                "twenties",
                {
                    str(side): check_int(n, f"board: twenties[{side!r}]", minimum=0)
                    for side, n in dict(self.twenties).items()
                },
            )

    @classmethod
    def of(cls, court: Court, discs: Iterable[tuple[float, float, str]], half: str | None = None) -> Board:
        """A board from ``(x, y, team)`` triples."""
        rows = list(discs)
        return cls(
            court,
            np.array([r[0] for r in rows], dtype=np.float64),
            np.array([r[1] for r in rows], dtype=np.float64),
            tuple(r[2] for r in rows),
            half,
        )

    def __len__(self) -> int:
        return int(self.x.size)

    def judge(self) -> Judgement:
        """Judge every disc on the board's court (one numba call, made once per board: a board is
        not changed after it is made, and the rules ask for its judgement several times a shot)."""
        found = self.__dict__.get("_judgement")
        if found is None:
            found = judge_batch(self.court, self.x, self.y)
            object.__setattr__(self, "_judgement", found)
        return found

    def teams(self) -> list[str]:
        """The team labels present, in order of first appearance."""
        return list(dict.fromkeys(self.team))

    def without(self, indices: Iterable[int]) -> Board:
        """The board with the given discs removed (the rest keep their order)."""
        drop = set(int(i) for i in indices)
        keep = [i for i in range(len(self)) if i not in drop]
        return Board(
            self.court, self.x[keep], self.y[keep], tuple(self.team[i] for i in keep), self.half, self.twenties
        )


def check_contacts(contacts: Iterable[Sequence], n_discs: int) -> list[Contact]:
    """Contacts as ``Contact`` records, with their disc indices checked against the board."""
    out = []
    for k, c in enumerate(contacts):
        contact = Contact(int(c[0]), int(c[1]), bool(c[2]), bool(c[3]))
        for name, index in (("a", contact.a), ("b", contact.b)):
            if not 0 <= index < n_discs:
                raise RulesError(f"contacts[{k}].{name} must be a disc index in 0..{n_discs - 1} (got {index})")
        out.append(contact)
    return out


def reached_by(start: int, contacts: Iterable[Contact]) -> set[int]:
    """Discs set moving by disc ``start``, directly or through other discs (contacts in time order).

    A disc joins the chain when it touches a disc already in it; a contact between two discs both
    outside the chain at that moment does not join them, even if one of them joins later.
    """
    chain = {start}
    for c in contacts:
        if c.a in chain or c.b in chain:
            chain.add(c.a)
            chain.add(c.b)
    return chain


def check_side_names(names: Sequence[str], what: str = "sides") -> tuple[str, ...]:
    """Two or more distinct, non-empty side names."""
    names = tuple(names)
    if len(names) < 2 or len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise RulesError(f"{what} must be distinct non-empty names (got {shown(names)})")
    return names


def check_int(value, name: str, minimum: int | None = None, allowed: Iterable[int] | None = None) -> int:
    """An integer argument, checked against a minimum or a set of allowed values."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"{name} must be an integer (got {shown(value)})")
    value = int(value)
    if minimum is not None and value < minimum:
        raise RulesError(f"{name} must be at least {minimum} (got {value})")
    if allowed is not None:
        allowed = tuple(allowed)
        if value not in allowed:
            raise RulesError(f"{name} must be one of {', '.join(map(str, allowed))} (got {value})")
    return value


def check_choice(value, name: str, allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)} (got {shown(value)})")
    return value


def touching_phrase(names: Sequence[str]) -> str:
    """'the 14 ft line' or 'the 14 ft line and the centre line'."""
    parts = [f"the {n}" for n in names]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def line_reason(touching: Sequence[str], if_touching: str, otherwise: str) -> str:
    """The reason a disc touching the lines ``touching`` gets ("touching the 8 line: ``if_touching``"),
    or ``otherwise`` when it touches none."""
    return f"touching {touching_phrase(touching)}: {if_touching}" if touching else otherwise
