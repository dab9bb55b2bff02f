"""What a shooter stands on and sees: ``Stance``, ``Launch``, ``ShotContext``, and the ``Tactics``
interface a game's tactics module implements (plan, candidates, value of an outcome)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from shuffle_sim.court import Court, Hole
from shuffle_sim.messages import shown
from shuffle_sim.noise import NoiseModel
from shuffle_sim.physics.scene import Scene
from shuffle_sim.playing.players.launch import STANCE_ARC, STANCE_SEGMENT, stance_length, stance_point
from shuffle_sim.rules.common import Board, Turn
from shuffle_sim.shots import ShotBatch


class PlayerError(ValueError):
    """A player or shot that cannot be made; the message names the field and the value."""


def fixed_obstacles(court: Court, holes: Sequence[Hole] | None = None) -> tuple[np.ndarray, ...]:
    """What a disc's path must clear besides the board's discs, pegs first, then holes (``holes``:
    by default the court's): centres x and y, reach (the disc's radius plus a peg's; a hole's
    capture radius: a slow disc passing over one drops in) and the speed below which each stops
    a disc (inf for a peg; a hole's capture speed), as the line kernels take them (``lines``)."""
    r = court.disc_radius
    pegs = court.pegs
    holes = court.holes if holes is None else holes
    return (
        np.array([p.x for p in pegs] + [h.x for h in holes], dtype=np.float64),
        np.array([p.y for p in pegs] + [h.y for h in holes], dtype=np.float64),
        np.array([r + p.radius for p in pegs] + [h.capture_radius for h in holes], dtype=np.float64),
        np.array([math.inf] * len(pegs) + [h.capture_speed for h in holes], dtype=np.float64),
    )


# --------------------------------------------------------------------------------------------------
# Stances, launches and what a shooter sees


@dataclass(frozen=True)
class Stance:
    """Where a shooter may start a disc: a segment (x0, y0, x1, y1) or an arc (cx, cy, R, a0, a1; radians).

    ``preferred`` is the parameter in [0, 1] a player starts from when its path is clear;
    ``samples`` how many evenly spaced starts ``clearest_start`` tries besides it.
    """

    kind: str
    geom: tuple[float, ...]
    preferred: float = 0.5
    samples: int = 9
    #: The stance as the kernels take it: (code, geom..., padded to 6), set from the fields above.
    array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in ("segment", "arc"):
            raise PlayerError(f"stance kind must be 'segment' or 'arc' (got {self.kind!r})")
        if len(self.geom) != (4 if self.kind == "segment" else 5) or not all(math.isfinite(v) for v in self.geom):
            raise PlayerError(f"stance geom must be 4 (segment) or 5 (arc) finite numbers (got {shown(self.geom)})")
        if not 0.0 <= self.preferred <= 1.0:
            raise PlayerError(f"stance preferred must lie in [0, 1] (got {shown(self.preferred)})")
        if self.samples < 2:
            raise PlayerError(f"stance samples must be at least 2 (got {shown(self.samples)})")
        code = STANCE_SEGMENT if self.kind == "segment" else STANCE_ARC
        object.__setattr__(
            self, "array", np.array([code, *self.geom, *([0.0] if self.kind == "segment" else [])], dtype=np.float64)
        )

    def point(self, t: float) -> tuple[float, float]:
        x, y = stance_point(self.array, float(t))
        return float(x), float(y)

    @property
    def length(self) -> float:
        return float(stance_length(self.array))


@dataclass(frozen=True)
class Launch:
    """A disc's launch state in SI: start (x, y) at stance parameter ``t``, velocity, spin; ``reaches``
    False when the launch was read for a court whose surface takes every path to its goal off the
    court first (``reading``: no such launch gets there)."""

    t: float
    x: float
    y: float
    vx: float
    vy: float
    omega: float = 0.0
    reaches: bool = True

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "vx": self.vx, "vy": self.vy, "omega": self.omega}


class Intent:
    """A shot as a player means it; ``aim`` gives its noise-free launch. ``label`` names this shot
    ("take out disc 3"); ``kind`` is its kind in the same words, one naming for every game ("draw",
    "take-out", "take-out and stick", ...)."""

    label: str = "shot"
    #: The kind of every shot of the class (a class whose shots differ in kind overrides ``kind``).
    KIND = "shot"

    @property
    def kind(self) -> str:
        return self.KIND

    def aim(self, ctx: ShotContext) -> Launch:
        raise NotImplementedError


class Tactics(Protocol):
    """What a game's players know: the fixed plan, the candidate shots, and what an outcome is worth."""

    def plan(self, ctx: ShotContext) -> Intent: ...

    def candidates(self, ctx: ShotContext) -> list[Intent]: ...

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        """Value to the shooter of each shot outcome of ``batch`` (own minus opponent's frame score)."""
        ...


@dataclass
class ShotContext:
    """Everything a player sees before a shot, in the frame the shot is planned in.

    ``court`` is the court at the target end (physics and judging); ``board_*`` the resting discs
    (team labels as the game's rules use them); ``shooter`` the shooter's label. ``seed``,
    ``game_index`` and ``shot`` name the shot's noise draws. ``info`` carries game facts the tactics
    need (crokinole: whether an opponent disc is on the board).
    """

    court: Court
    stance: Stance
    board_x: np.ndarray
    board_y: np.ndarray
    board_team: tuple[str, ...]
    shooter: str
    tactics: Tactics
    seed: int = 0
    game_index: int = 0
    shot: int = 0
    turn: Turn | None = None
    info: dict = field(default_factory=dict)
    #: The shooter's own execution noise, set by the strategy before aiming: intents that aim for the
    #: clearest line under the shooter's errors (``repertoire``) read it; None aims as if noise-free.
    skill: NoiseModel | None = None
    #: How much of a curved court's drift the shooter reads: 1 aims for the real surface, 0 as if flat
    #: (``reading``); set by the ``Player`` before aiming.
    reads: float = 1.0

    @classmethod
    def on_board(cls, board: Board, stance: Stance, shooter: str, tactics: Tactics, **info) -> ShotContext:
        """What ``shooter`` sees of a rules ``Board`` (its court, discs and teams) from ``stance``, with
        the game facts ``info`` (the shot advisor's context)."""
        return cls(board.court, stance, board.x, board.y, tuple(board.team), shooter, tactics, info=info)

    def __post_init__(self) -> None:
        self.board_x = np.ascontiguousarray(self.board_x, dtype=np.float64).reshape(-1)
        self.board_y = np.ascontiguousarray(self.board_y, dtype=np.float64).reshape(-1)
        self.board_team = tuple(self.board_team)
        if not (self.board_x.size == self.board_y.size == len(self.board_team)):
            raise PlayerError("board_x, board_y and board_team must have one entry per disc")

    @property
    def n_discs(self) -> int:
        return int(self.board_x.size)

    def disc_index(self, target, what: str) -> int:
        """``target`` checked to be the index of a board disc (``what``: the shot that names it)."""
        if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 0 <= target < self.n_discs:
            raise PlayerError(
                f"{what}: target must be a board disc index in 0..{self.n_discs - 1} (got {shown(target)})"
            )
        return int(target)

    @property
    def decel(self) -> float:
        """Sliding deceleration mu g, computed as the kernel computes it."""
        return self.court.params["mu"] * self.court.params["gravity"]

    @property
    def radius(self) -> float:
        return self.court.disc_radius

    def obstacles(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centres and reaches of what a path must clear: the board's discs (2 r; index = board index),
        pegs (r + their radius) and holes (their capture radius: a slow disc passing over one drops in).
        Made once per context (the board a shooter sees does not change while it chooses)."""
        found = self.__dict__.get("_obstacles")
        if found is not None:
            return found
        fixed_x, fixed_y, fixed_reach, _ = fixed_obstacles(self.court)
        ox = np.concatenate([self.board_x, fixed_x])
        oy = np.concatenate([self.board_y, fixed_y])
        reach = np.concatenate([np.full(self.n_discs, 2.0 * self.court.disc_radius), fixed_reach])
        self.__dict__["_obstacles"] = found = (ox, oy, reach)
        return found

    def board_scene(self) -> Scene | None:
        if self.n_discs == 0:
            return None
        zeros = np.zeros(self.n_discs)
        return Scene(
            court=self.court,
            x=self.board_x,
            y=self.board_y,
            vx=zeros,
            vy=zeros,
            omega=zeros,
            team=list(self.board_team),
            source="board",
        )

    def teams(self) -> np.ndarray:
        """Team label of each batch column: the board's discs, then the shot disc (the shooter's)."""
        return np.array([*self.board_team, self.shooter], dtype=object)
