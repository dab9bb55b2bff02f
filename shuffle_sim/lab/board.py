"""The shot lab's board: the resting discs of one frame on one court at one scoring end, with what
the rules keep besides them (``referee.FrameState``: 20s set aside, the scoring half, the shots
played, what the rules did), their judgement and the frame score, every edit checked, and an undo
history of whole frames.

Judging is ``judge.judge_batch`` (what ``shuffle-sim judge`` prints) and scoring is the game's rules
as ``shuffle-sim score`` applies them (``referee.frame_score``), so the lab never has its own notion
of a disc's worth. A disc never rests in a hole: the rules take a holed disc off at once
(crokinole's 20s are counted for their side), so a board is always one ``shuffle-sim score`` and the
lab read back.

Every edit is checked before it is kept: a disc must lie on the surface, clear of the other discs,
of every cushion and peg (touching is allowed) and of the holes; otherwise ``LabError`` says which
disc, where, and why, and the board is left as it was.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.games import games
from shuffle_sim.judging import judge_batch
from shuffle_sim.lab.referee import Disc, FrameState, frame_score
from shuffle_sim.messages import shown
from shuffle_sim.physics import obstacle_at_start
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE

__all__ = ["Disc", "FrameState", "LabBoard", "LabError", "court_reference", "disc_problem", "team_names"]

#: Undo keeps this many earlier frames.
UNDO_DEPTH = 100


class LabError(ValueError):
    """An edit, shot or file the lab cannot take; the message is shown on the page as it is.

    ``field``: the name of the page's field whose bad value refused it (the message then stays until
    that field is fixed, ``status.Status.failed``), or None."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def team_names(court: Court) -> tuple[str, str]:
    """The two sides' names of the court's game, as the drawings colour them (deck: yellow, black)."""
    entry = games().get(court.game)
    return entry.sides if entry is not None else ("A", "B")


def disc_problem(court: Court, discs: list[Disc], k: int) -> str | None:
    """Why disc ``k`` of ``discs`` cannot rest where it is (off the surface, on another disc, on a
    cushion or peg, in a hole), or None."""
    d = discs[k]
    if not (
        isinstance(d.x, (int, float)) and isinstance(d.y, (int, float)) and math.isfinite(d.x) and math.isfinite(d.y)
    ):
        return f"disc {k}: position must be finite numbers (got {shown(d.x)}, {shown(d.y)})"
    where = f"({d.x:.3f}, {d.y:.3f}) m"
    if not court.on_surface(d.x, d.y):
        return f"disc {k} at {where} is off the surface of court {court.name!r}"
    limit = 2.0 * court.disc_radius - OVERLAP_TOLERANCE
    for j, other in enumerate(discs):
        if j != k and math.hypot(other.x - d.x, other.y - d.y) < limit:
            return (
                f"disc {k} at {where} lies on disc {j} at ({other.x:.3f}, {other.y:.3f}) m (centres must be "
                f"at least {2 * court.disc_radius * 1000:.1f} mm apart)"
            )
    body = obstacle_at_start(court, d.x, d.y)
    if body is not None:
        return f"disc {k} at {where} lies on {body}"
    hole = hole_at(court, d.x, d.y)
    if hole is not None:
        return (
            f"disc {k} at {where} lies in the {hole.value} hole: a disc that drops in is taken off at once "
            f"and counted (shoot it in)"
        )
    return None


def hole_at(court: Court, x: float, y: float):
    """The hole whose capture radius holds a centre at (x, y) (a holed disc), or None."""
    return next((h for h in court.holes if math.hypot(x - h.x, y - h.y) <= h.capture_radius), None)


@dataclass
class LabBoard:
    """One frame on ``court`` (already turned to its scoring end), with an undo history of frames."""

    court: Court
    state: FrameState = field(default_factory=FrameState)
    history: list[FrameState] = field(default_factory=list)

    @property
    def discs(self) -> list[Disc]:
        return list(self.state.discs)

    # ---- edits ------------------------------------------------------------------------------------
    def checked(self, discs: list[Disc]) -> list[Disc]:
        """``discs`` if every disc can rest where it is; else ``LabError`` naming the first that cannot.
        Only the discs new or moved since the current board are checked (against every disc), so the
        message names the one just put down."""
        current = set(self.state.discs)
        for k in [k for k in range(len(discs)) if discs[k] not in current]:  # the others were checked
            problem = disc_problem(self.court, discs, k)
            if problem:
                raise LabError(problem)
        return discs

    def replace(self, discs: list[Disc], remember: bool = True) -> None:
        """Take ``discs`` as the board if they are valid (``LabError`` otherwise, the board unchanged);
        the rest of the frame stays."""
        discs = self.checked(list(discs))
        self.set_state(replace(self.state, discs=tuple(discs)), remember)

    def set_state(self, state: FrameState, remember: bool = True) -> None:
        """Take a whole frame (after a shot, a load, a clear), remembered for undo."""
        if remember and state != self.state:
            self.history.append(self.state)
            del self.history[:-UNDO_DEPTH]
        self.state = state

    def place(self, x: float, y: float, team: str) -> None:
        self.replace([*self.discs, Disc(float(x), float(y), str(team))])

    def move(self, k: int, x: float, y: float) -> None:
        discs = list(self.discs)
        discs[k] = Disc(float(x), float(y), discs[k].team)
        self.replace(discs)

    def delete(self, indices) -> None:
        drop = {int(i) for i in indices}
        self.replace([d for k, d in enumerate(self.discs) if k not in drop])

    def clear(self) -> None:
        """A new frame: no discs, no 20s set aside, no shots (undoable)."""
        self.set_state(FrameState())

    def undo(self) -> bool:
        """Restore the frame before the last change; False when there is nothing to undo."""
        if not self.history:
            return False
        self.state = self.history.pop()
        return True

    # ---- views ------------------------------------------------------------------------------------
    @property
    def xs(self) -> np.ndarray:
        return np.array([d.x for d in self.discs], dtype=np.float64)

    @property
    def ys(self) -> np.ndarray:
        return np.array([d.y for d in self.discs], dtype=np.float64)

    @property
    def teams(self) -> list[str]:
        return [d.team for d in self.discs]

    def judgement(self) -> list[dict]:
        """One ``shuffle-sim judge`` record per disc: x, y, value, zone, touching, dead, hanger."""
        if not self.discs:
            return []
        with one_numba_thread():
            return judge_batch(self.court, self.xs, self.ys).records()

    def frame_score(self):
        """The frame score as ``shuffle-sim score`` gives it for this board's file (``referee.frame_score``),
        or None for a court of a game without rules (``custom``)."""
        return frame_score(self.court, self.state.discs, self.state)

    def to_dict(self) -> dict:
        """The board in the format of ``shuffle-sim score`` (court by name or path, scoring end, and
        the frame's 20s set aside and scoring half where it has them)."""
        data: dict[str, object] = {
            "court": court_reference(self.court),
            "end": self.court.end,
            "discs": [{"x": d.x, "y": d.y, "team": d.team} for d in self.discs],
        }
        from shuffle_sim.rules.board_file import HALF_GAMES, TWENTIES_GAMES

        if self.court.game in HALF_GAMES and self.state.half is not None:
            data["half"] = self.state.half
        twenties = {side: n for side, n in self.state.twenties if n}
        if self.court.game in TWENTIES_GAMES and twenties:
            data["twenties"] = twenties
        return data


def court_reference(court: Court) -> str:
    """How a file names the court: its name when it is one of the known courts, else its path."""
    return _court_reference(court.name, str(court.source_path))


@lru_cache(maxsize=64)
def _court_reference(name: str, source_path: str) -> str:
    from shuffle_sim.court import court_path, list_courts

    if name in list_courts() and Path(court_path(name)).resolve() == Path(source_path).resolve():
        return name
    return source_path
