"""The shot lab's board: the resting discs on one court at one scoring end, their judgement and the
frame score, with every edit checked and an undo history.

Judging is ``judge.judge_batch`` (what ``shuffle-sim judge`` prints) and scoring is the game's rules
(``rules.score_board``, what ``shuffle-sim score`` prints), so the lab never has its own notion of a
disc's worth. A disc lying in a hole (crokinole's 20 hole) has been holed: it is judged and scored
where it lies but is set aside for the physics (``in_play``), as the player takes it off the board.

Every edit is checked before it is kept: a disc must lie on the surface, clear of the other discs
and of every cushion and peg (touching is allowed); otherwise ``LabError`` says which disc, where,
and why, and the board is left as it was.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.games import games
from shuffle_sim.judging import judge_batch
from shuffle_sim.physics import obstacle_at_start
from shuffle_sim.playing.shooting import one_numba_thread
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE

#: Undo keeps this many earlier boards.
UNDO_DEPTH = 100


class LabError(ValueError):
    """An edit, shot or file the lab cannot take; the message is shown on the page as it is."""


@dataclass(frozen=True)
class Disc:
    """A resting disc: centre in metres (court frame) and team name."""

    x: float
    y: float
    team: str


def team_names(court: Court) -> tuple[str, str]:
    """The two sides' names of the court's game, as the drawings colour them (deck: yellow, black)."""
    entry = games().get(court.game)
    return entry.sides if entry is not None else ("A", "B")


def disc_problem(court: Court, discs: list[Disc], k: int) -> str | None:
    """Why disc ``k`` of ``discs`` cannot rest where it is (off the surface, on another disc, on a
    cushion or peg), or None."""
    d = discs[k]
    where = f"({d.x:.3f}, {d.y:.3f}) m"
    if not (math.isfinite(d.x) and math.isfinite(d.y)):
        return f"disc {k}: position must be finite numbers (got {d.x!r}, {d.y!r})"
    if not court.on_surface(d.x, d.y):
        return f"disc {k} at {where} is off the surface of court {court.name!r}"
    limit = 2.0 * court.disc_radius - OVERLAP_TOLERANCE
    for j, other in enumerate(discs):
        if j != k and math.hypot(other.x - d.x, other.y - d.y) < limit:
            return (f"disc {k} at {where} lies on disc {j} at ({other.x:.3f}, {other.y:.3f}) m (centres must be "
                    f"at least {2 * court.disc_radius * 1000:.1f} mm apart)")
    body = obstacle_at_start(court, d.x, d.y)
    if body is not None:
        return f"disc {k} at {where} lies on {body}"
    return None


def in_hole(court: Court, x: float, y: float) -> bool:
    """Whether a resting centre lies within a hole's capture radius (a holed disc)."""
    return any(math.hypot(x - h.x, y - h.y) <= h.capture_radius for h in court.holes)


@dataclass
class LabBoard:
    """Resting discs on ``court`` (already turned to its scoring end) with an undo history."""

    court: Court
    discs: list[Disc] = field(default_factory=list)
    history: list[list[Disc]] = field(default_factory=list)

    # ---- edits ------------------------------------------------------------------------------------
    def checked(self, discs: list[Disc]) -> list[Disc]:
        """``discs`` if every disc can rest where it is; else ``LabError`` naming the first that cannot
        (a holed disc may lie in its hole, over the hole's edge, as the kernel leaves it). Only the
        discs new or moved since the current board are checked (against every disc), so the message
        names the one just put down."""
        current = set(self.discs)
        for k in [k for k in range(len(discs)) if discs[k] not in current]:  # the others were checked
            d = discs[k]
            if in_hole(self.court, d.x, d.y) and self.court.on_surface(d.x, d.y):
                continue
            problem = disc_problem(self.court, discs, k)
            if problem:
                raise LabError(problem)
        return discs

    def replace(self, discs: list[Disc], remember: bool = True) -> None:
        """Take ``discs`` as the board if they are valid (``LabError`` otherwise, the board unchanged)."""
        discs = self.checked(list(discs))
        if remember and discs != self.discs:
            self.history.append(list(self.discs))
            del self.history[:-UNDO_DEPTH]
        self.discs = discs

    def place(self, x: float, y: float, team: str) -> None:
        self.replace(self.discs + [Disc(float(x), float(y), str(team))])

    def move(self, k: int, x: float, y: float) -> None:
        discs = list(self.discs)
        discs[k] = Disc(float(x), float(y), discs[k].team)
        self.replace(discs)

    def delete(self, indices) -> None:
        drop = {int(i) for i in indices}
        self.replace([d for k, d in enumerate(self.discs) if k not in drop])

    def undo(self) -> bool:
        """Restore the board before the last change; False when there is nothing to undo."""
        if not self.history:
            return False
        self.discs = self.history.pop()
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

    def in_play(self) -> list[int]:
        """Indices of the discs the physics sees (all but holed ones)."""
        return [k for k, d in enumerate(self.discs) if not in_hole(self.court, d.x, d.y)]

    def judgement(self) -> list[dict]:
        """One ``shuffle-sim judge`` record per disc: x, y, value, zone, touching, dead, hanger."""
        if not self.discs:
            return []
        with one_numba_thread():
            return judge_batch(self.court, self.xs, self.ys).records()

    def frame_score(self):
        """The frame score under the game's rules (``rules.score_board``), or None for a court of a
        game without rules (``custom``)."""
        return frame_score(self.court, self.xs, self.ys, self.teams)

    def to_dict(self) -> dict:
        """The board in the format of ``shuffle-sim score`` (court by name or path, scoring end)."""
        return {"court": court_reference(self.court), "end": self.court.end,
                "discs": [{"x": d.x, "y": d.y, "team": d.team} for d in self.discs]}


def court_reference(court: Court) -> str:
    """How a file names the court: its name when it is one of the known courts, else its path."""
    return _court_reference(court.name, str(court.source_path))


@lru_cache(maxsize=64)
def _court_reference(name: str, source_path: str) -> str:
    from shuffle_sim.court import court_path, list_courts

    if name in list_courts() and Path(court_path(name)).resolve() == Path(source_path).resolve():
        return name
    return source_path


def frame_score(court: Court, xs, ys, teams, half: str | None = None):
    """``rules.score_board`` of resting discs, on one numba thread (a few discs per call: waking a
    thread pool costs more than the work), or None for a game without rules. ``half``: the half the
    frame scores on, for games that score on one half (ricochet; see ``shot_half``)."""
    from shuffle_sim.rules import Board, score_board

    if court.game not in games():
        return None
    with one_numba_thread():
        return score_board(court.game, Board(court, xs, ys, tuple(teams), half=half))


def shot_half(court: Court, start_x: float) -> str | None:
    """The half a shot started at ``start_x`` scores on, for games whose frames score on one half
    (ricochet: the half opposite the one the weight is slid from); None for the other games."""
    from shuffle_sim.rules.board_file import HALF_GAMES
    from shuffle_sim.rules.ricochet import half_of, scoring_half

    if court.game not in HALF_GAMES or half_of(start_x) is None:
        return None
    return scoring_half(half_of(start_x))
