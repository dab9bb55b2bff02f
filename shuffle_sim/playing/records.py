"""The records of a game as played, which make the scorecard written by ``shuffle-sim play``.

``FrameRecord``, ``GameRecord`` and ``MatchRecord`` serialise to JSON (``to_dict``) and to CSV rows
(``csv_rows``), one row per frame and side; ``ShotRecord`` is one shot as played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shuffle_sim.court import Court
from shuffle_sim.games import get_game
from shuffle_sim.playing.players import Decision, Launch


@dataclass
class ShotRecord:
    """One shot as played: who, what they meant, what it was worth to them (EV player), the launch."""

    number: int
    team: str
    player: str
    intent: str
    expected: float | None
    launch: dict

    @classmethod
    def of(cls, number: int, team: str, player: str, decision: Decision, played: Launch) -> ShotRecord:
        return cls(number, team, player, decision.intent.label, decision.expected, played.to_dict())

    def to_dict(self) -> dict:
        return {
            "shot": self.number,
            "team": self.team,
            "player": self.player,
            "intent": self.intent,
            "expected": self.expected,
            "launch": self.launch,
        }


@dataclass
class FrameRecord:
    """One frame (deck half-round, horse collar frame, ricochet or crokinole round) of a game.

    ``score``: the frame's own score by side (deck points on the court, horse collar frame points,
    ricochet points, crokinole round totals); ``points``: what it adds to the game total (after
    penalties; crokinole round points); ``totals``: the game totals after it. ``board``: the final
    discs (x, y in metres in the court's frame, team, value, reason), judged at ``end``.
    """

    number: int
    label: str
    score: dict[str, int]
    points: dict[str, int]
    totals: dict[str, int]
    board: list[dict]
    end: str | None = None
    note: str = ""
    twenties: dict[str, int] | None = None
    shots: list[ShotRecord] = field(default_factory=list)
    picture: str | None = None

    def to_dict(self) -> dict:
        out = {
            "frame": self.number,
            "label": self.label,
            "score": self.score,
            "points": self.points,
            "totals": self.totals,
            "note": self.note,
            "end": self.end,
            "board": self.board,
            "shots": [s.to_dict() for s in self.shots],
            "picture": self.picture,
        }
        if self.twenties is not None:
            out["twenties"] = self.twenties
        return out


@dataclass
class GameRecord:
    """One game: its sides (and their roles: colours, who throws first), frames, totals and winner."""

    number: int
    sides: tuple[str, str]
    roles: dict[str, str]
    frames: list[FrameRecord]
    totals: dict[str, int]
    winner: str | None
    finished: bool = True

    def to_dict(self) -> dict:
        return {
            "game": self.number,
            "sides": list(self.sides),
            "roles": self.roles,
            "frames": [f.to_dict() for f in self.frames],
            "totals": self.totals,
            "winner": self.winner,
            "finished": self.finished,
        }


CSV_COLUMNS = ("game", "frame", "label", "side", "score", "points", "twenties", "total", "note")


@dataclass
class MatchRecord:
    """A game or a match as played: the scorecard written by ``shuffle-sim play``.

    ``court``: the court it was played on (None: the game's own court); the scorecard names it, gives
    its speed as players rate it (seconds over its speed course, ``Court.speed``) and its surface's
    shape (slope, crown; empty when flat), and draws the frames on it.
    """

    game: str
    seed: int
    players: dict[str, str]
    match: bool
    games: list[GameRecord]
    winner: str | None
    wins: dict[str, int]
    notes: list[str] = field(default_factory=list)
    court: Court | None = field(default=None, repr=False)  # its name is in ``to_dict``

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            **self._court_dict(),
            "seed": self.seed,
            "players": self.players,
            "match": self.match,
            "games": [g.to_dict() for g in self.games],
            "winner": self.winner,
            "wins": self.wins,
            "notes": self.notes,
        }

    def _court_dict(self) -> dict:
        if self.court is None:
            return {"court": get_game(self.game).court}
        speed = self.court.speed
        return {
            "court": self.court.name,
            "court_speed_s": None if speed is None else round(speed, 3),
            "court_surface": self.court.surface_shape.params(),
        }

    def csv_rows(self) -> list[dict]:
        """One row per frame and side (``CSV_COLUMNS``)."""
        rows = []
        for g in self.games:
            for f in g.frames:
                for side in g.sides:
                    rows.append(
                        {
                            "game": g.number,
                            "frame": f.number,
                            "label": f.label,
                            "side": side,
                            "score": f.score.get(side, 0),
                            "points": f.points.get(side, 0),
                            "twenties": "" if f.twenties is None else f.twenties.get(side, 0),
                            "total": f.totals.get(side, 0),
                            "note": f.note,
                        }
                    )
        return rows
