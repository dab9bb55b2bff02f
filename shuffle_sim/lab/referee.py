"""The game's rules applied after every shot in the lab, exactly as ``shuffle-sim play`` applies them,
and the frame score of a board exactly as ``shuffle-sim score`` gives it.

After each shot the board at rest (``rules.rulings.ShotOutcome``: fallen discs in the gutter, the
shot's disc-disc contacts) goes through the call every game driver's ``FramePlay.after_shot`` makes,
``rules.shot_rulings``: 20s set aside, the hit and open-shot rules (crokinole), dead discs and C-20a
(deck; the lab counts the frame's shots, and a shot after the eighth is judged as the eighth), pucks
in the gutter (horse collar), the scoring half (ricochet); a court of no game (``custom``) loses its
fallen and dead discs, and holed discs are set aside.

``FrameState`` is what a frame carries besides its discs: the 20s set aside, the scoring half, the
shots played, and what the rules did (``notes``). ``frame_score`` scores discs plus that state as
``shuffle-sim score`` scores a board file that holds them.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace

import numba
import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.games import games
from shuffle_sim.rules import ShotOutcome, shot_rulings
from shuffle_sim.rules.common import Board, FrameScore

CROKINOLE, RICOCHET = "crokinole", "ricochet"
#: A deck half-round's discs (C-20a: after the eighth there is no replay).
DECK_DISCS = 8


@dataclass(frozen=True)
class Disc:
    """A resting disc: centre in metres (court frame) and team name."""

    x: float
    y: float
    team: str


@dataclass(frozen=True)
class FrameState:
    """A frame in the lab: the discs at rest and what the rules keep besides them.

    ``twenties``: (side, count) pairs of 20s set aside this round (crokinole); ``half``: the half
    the frame scores on (ricochet), once a shot has told it; ``shots``: shots played since the
    frame began; ``notes``: what the rules did after those shots, oldest first (removals with
    their reasons, fouls, penalties).
    """

    discs: tuple[Disc, ...] = ()
    twenties: tuple[tuple[str, int], ...] = ()
    half: str | None = None
    shots: int = 0
    notes: tuple[str, ...] = ()

    @property
    def twenty_counts(self) -> dict[str, int]:
        return dict(self.twenties)


@dataclass(frozen=True)
class Removal:
    """A disc the rules took off after a shot: where it came to rest, whose it was, and why."""

    x: float
    y: float
    team: str
    why: str
    short: str  # a word for its mark on the court: "holed" (counted as holed), "fell" or "removed"


@dataclass(frozen=True)
class Ruling:
    """What the rules made of one shot: the discs kept, those removed (with why), the 20s set aside
    by side, a foul or penalty, and the half the frame scores on."""

    kept: tuple[Disc, ...]
    removed: tuple[Removal, ...]
    why: dict[int, str] = field(default_factory=dict)  # the shot's disc index -> why it was removed
    twenties: dict[str, int] = field(default_factory=dict)
    foul: str | None = None
    penalty: str | None = None
    half: str | None = None

    def sentences(self) -> list[str]:
        """What the rules did, one sentence each (for the page)."""
        out = [f"{r.team} disc removed: {r.why}" for r in self.removed]
        out += [f"foul: {self.foul}"] if self.foul else []
        out += [f"penalty: {self.penalty}"] if self.penalty else []
        return out


def one_thread():
    """Run numba on one thread (``_runtime.threads.one_numba_thread``: a few discs a call), unless it
    already does (a batch of rulings sets it once)."""
    return contextlib.nullcontext() if numba.get_num_threads() == 1 else one_numba_thread()


def rule_shot(court: Court, teams: list[str], outcome: ShotOutcome, state: FrameState, start_x: float) -> Ruling:
    """Apply the court's game rules to a shot's outcome (``rules.shot_rulings``); ``teams`` labels its
    discs (the board's in play, then the shot disc, last), ``state`` is the frame before the shot
    and ``start_x`` the shot's start (ricochet: the half it is slid from)."""
    n = len(teams)
    before = Board(
        court,
        np.array([d.x for d in state.discs], dtype=np.float64),
        np.array([d.y for d in state.discs], dtype=np.float64),
        tuple(teams[:-1]),
    )
    with one_thread():
        rulings = shot_rulings(before, replace(outcome, start_x=start_x), teams[-1], min(state.shots + 1, DECK_DISCS))
    why = rulings.why
    kept = tuple(Disc(float(outcome.x[i]), float(outcome.y[i]), teams[i]) for i in range(n) if i not in why)
    removed = tuple(
        Removal(
            float(outcome.x[i]),
            float(outcome.y[i]),
            teams[i],
            why[i],
            _short(i in rulings.set_aside, bool(outcome.fallen[i])),
        )
        for i in sorted(why)
    )
    penalty = next((s.removeprefix("penalty: ") for s in rulings.sentences() if s.startswith("penalty: ")), None)
    return Ruling(kept, removed, why, dict(rulings.twenties), rulings.foul, penalty, rulings.half or state.half)


def _short(holed: bool, fallen: bool) -> str:
    """A word for a removed disc's mark on the court (the reason is in ``Removal.why``): "holed" only
    for a disc the rules count as holed, never for one they removed for another reason."""
    return "holed" if holed else "fell" if fallen else "removed"


def after_ruling(state: FrameState, ruling: Ruling, held: tuple[Disc, ...] = ()) -> FrameState:
    """The frame after a shot: the kept discs (after ``held``: discs the shot did not see), 20s
    added, the scoring half set, one more shot, the rules' sentences noted."""
    counts = state.twenty_counts
    for side, n in ruling.twenties.items():
        counts[side] = counts.get(side, 0) + n
    return replace(
        state,
        discs=tuple(held) + ruling.kept,
        twenties=tuple(counts.items()),
        half=ruling.half if ruling.half is not None else state.half,
        shots=state.shots + 1,
        notes=state.notes + tuple(f"shot {state.shots + 1}: {s}" for s in ruling.sentences()),
    )


def frame_score(court: Court, discs, state: FrameState | None = None) -> FrameScore | None:
    """The frame score of ``discs`` (with the state's 20s and scoring half) as ``shuffle-sim score``
    gives it for a board file holding them; None for a court of no game. ``RulesError`` (a
    ``ValueError``) when the rules cannot score it (ricochet weights on both halves, no half known)."""
    from shuffle_sim.rules import score_board

    if court.game not in games():
        return None
    state = state or FrameState()
    discs = list(discs)
    board = Board(
        court,
        np.array([d.x for d in discs], dtype=np.float64),
        np.array([d.y for d in discs], dtype=np.float64),
        tuple(d.team for d in discs),
        half=state.half,
        twenties=state.twenty_counts if court.game == CROKINOLE else None,
    )
    with one_thread():
        if court.game == RICOCHET:
            from shuffle_sim.rules.ricochet import round_half, score_round

            return score_round(board, half=round_half(board))
        return score_board(court.game, board)
