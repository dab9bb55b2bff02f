"""What every game driver shares: playing one shot through the kernel, and the records of a match.

``shoot`` runs a board plus one launched disc to rest with ``physics.simulate`` and hands back what
the rules layer takes: resting positions (a fallen disc is put in the gutter, alley or ditch beyond
the edge it crossed, so that judging sees it off the surface, as ``shuffle_sim.judge`` expects of a
fallen disc), the disc-disc contacts in time order (``rules.common.Contact``) and the kernel's
dead standing.

``FrameRecord``, ``GameRecord`` and ``MatchRecord`` are the scorecard: JSON (``to_dict``) and CSV
rows (``csv_rows``), one row per frame and side.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import wraps

import numba
import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.physics import DISC_DISC, STATUS_FALLEN, SimResult, simulate
from shuffle_sim.players import Decision, Launch, ShotContext
from shuffle_sim.rules.common import Contact
from shuffle_sim.scene import Scene

#: A fallen disc is drawn and judged this many disc radii beyond the edge it crossed.
GUTTER_OFFSET = 1.0


@dataclass
class ShotOutcome:
    """One shot run to rest: positions (fallen discs moved into the gutter), contacts, standing."""

    result: SimResult
    x: np.ndarray
    y: np.ndarray
    fallen: np.ndarray
    dead: np.ndarray  # the kernel's dead standing (kill line, killing cushion)
    contacts: list[Contact]


def into_gutter(court: Court, x: float, y: float) -> tuple[float, float]:
    """Where a disc that fell at (x, y), on an edge, lies: ``GUTTER_OFFSET`` radii out past that edge."""
    best = (math.inf, 0.0, 0.0)
    for edge in court.edges:
        if edge.kind == "segment":
            x0, y0, x1, y1 = edge.geom
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy)
            u = min(max(((x - x0) * dx + (y - y0) * dy) / (length * length), 0.0), 1.0)
            d = math.hypot(x - (x0 + u * dx), y - (y0 + u * dy))
            out = (dy / length, -dx / length)  # the surface is on the left of from -> to
        else:
            cx, cy, radius, _ = edge.geom
            rho = math.hypot(x - cx, y - cy)
            d = abs(rho - radius)
            out = ((x - cx) / rho, (y - cy) / rho) if rho > 0 else (1.0, 0.0)
        if d < best[0]:
            best = (d, *out)
    _, ox, oy = best
    step = GUTTER_OFFSET * court.disc_radius
    gx, gy = x + step * ox, y + step * oy
    while court.on_surface(gx, gy):  # a corner: keep going until off the surface
        gx, gy = gx + step * ox, gy + step * oy
    return gx, gy


def shoot(court: Court, board_x, board_y, launch: Launch, team: list[str] | None = None) -> ShotOutcome:
    """Run the resting board plus the launched disc (last) to rest on ``court``."""
    bx = np.asarray(board_x, dtype=np.float64).reshape(-1)
    by = np.asarray(board_y, dtype=np.float64).reshape(-1)
    n = bx.size
    scene = Scene(court=court, x=np.append(bx, launch.x), y=np.append(by, launch.y),
                  vx=np.append(np.zeros(n), launch.vx), vy=np.append(np.zeros(n), launch.vy),
                  omega=np.append(np.zeros(n), launch.omega), team=list(team) if team else [], source="shot")
    result = simulate(scene)
    x, y = result.x.copy(), result.y.copy()
    fallen = result.status == STATUS_FALLEN
    for i in np.flatnonzero(fallen):
        x[i], y[i] = into_gutter(court, float(x[i]), float(y[i]))
    ev = result.events
    contacts = [Contact(int(ev.a[k]), int(ev.b[k]), bool(ev.a_dead[k]), bool(ev.b_dead[k]))
                for k in range(len(ev)) if ev.kind[k] == DISC_DISC]
    return ShotOutcome(result, x, y, fallen, result.dead.copy(), contacts)


def play_turn(player, ctx: ShotContext, board_x, board_y, shots: list) -> ShotOutcome:
    """Let ``player`` choose and execute its shot in ``ctx``, record it in ``shots``, run it to rest."""
    decision, played = player.play(ctx)
    shots.append(ShotRecord.of(ctx.shot + 1, ctx.shooter, player.name, decision, played))
    return shoot(ctx.court, board_x, board_y, played)


# --------------------------------------------------------------------------------------------------
# Records


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
        return {"shot": self.number, "team": self.team, "player": self.player, "intent": self.intent,
                "expected": self.expected, "launch": self.launch}


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
        out = {"frame": self.number, "label": self.label, "score": self.score, "points": self.points,
               "totals": self.totals, "note": self.note, "end": self.end, "board": self.board,
               "shots": [s.to_dict() for s in self.shots], "picture": self.picture}
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
        return {"game": self.number, "sides": list(self.sides), "roles": self.roles,
                "frames": [f.to_dict() for f in self.frames], "totals": self.totals, "winner": self.winner,
                "finished": self.finished}


CSV_COLUMNS = ("game", "frame", "label", "side", "score", "points", "twenties", "total", "note")


@dataclass
class MatchRecord:
    """A game or a match as played: the scorecard written by ``shuffle-sim play``."""

    game: str
    seed: int
    players: dict[str, str]
    match: bool
    games: list[GameRecord]
    winner: str | None
    wins: dict[str, int]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"game": self.game, "seed": self.seed, "players": self.players, "match": self.match,
                "games": [g.to_dict() for g in self.games], "winner": self.winner, "wins": self.wins,
                "notes": self.notes}

    def csv_rows(self) -> list[dict]:
        """One row per frame and side (``CSV_COLUMNS``)."""
        rows = []
        for g in self.games:
            for f in g.frames:
                for side in g.sides:
                    rows.append({
                        "game": g.number, "frame": f.number, "label": f.label, "side": side,
                        "score": f.score.get(side, 0), "points": f.points.get(side, 0),
                        "twenties": "" if f.twenties is None else f.twenties.get(side, 0),
                        "total": f.totals.get(side, 0), "note": f.note,
                    })
        return rows


def single_threaded(function):
    """Run ``function`` under ``one_numba_thread`` (the game drivers: many tiny numba calls)."""

    @wraps(function)
    def wrapper(*args, **kwargs):
        with one_numba_thread():
            return function(*args, **kwargs)

    return wrapper


@contextmanager
def one_numba_thread():
    """Run numba on one thread for a while: a game calls it for a few discs at a time, and waking a
    thread pool for each call costs more than the work (results do not depend on the thread count)."""
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(previous)
