"""Ricochet shuffleboard (ricochet rules): short weights removed, closest-weights-only scoring, game to 15 or 21.

- A coin toss picks who starts and from which side. Weights alternate until all eight are played;
  each is slid from the front toward the back bumper and "bounces off the back bumper onto the other
  side of the table playing surface" (ricochet rules).
- The scoring half of a round is the half opposite the one the weights are slid from (the left half
  is x < 0). A weight that comes to rest "before entering the scoring surface area" is removed before
  the next weight: one short of the first line, one that falls off, and one that never rebounded onto
  the scoring half (its centre rests on the half it was slid along, or on the centre line).
- Values come from the court file: the zone between lines, a weight on a line scores the smaller
  number, it must clear the first line completely to score, and a weight overhanging the front edge
  scores 5.
- Only one player scores a round: the one whose weight is nearest the front edge scores each of their
  weights nearer than every opponent weight. Nearness is the distance from the front edge to the
  weight's nearest point (``judge.edge_nearness``; negative for an overhang). Equal nearness: neither
  scores from that depth on.
- The next round is played from the other side; the player who scored last starts it (option: shoots
  last instead). A player who reaches or passes 15 (or 21) at the end of a round wins.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from shuffle_sim.judging import Judgement, edge_nearness
from shuffle_sim.judging.procedure import HANGER_NONE
from shuffle_sim.rules.common import (
    HALVES,
    Board,
    DiscScore,
    FrameScore,
    RulesError,
    Turn,
    check_choice,
    check_int,
    check_side_names,
    line_reason,
)

GAME = "ricochet"
DEFAULT_COURT = "ricochet"
WEIGHTS_PER_ROUND = 8
FRONT_EDGE = "front edge"
SIDES = HALVES
GAME_POINTS = (15, 21)


def scoring_half(slid_from: str) -> str:
    """The half a round scores on: the weights rebound onto the half opposite the one they are slid from."""
    check_choice(slid_from, "side", SIDES)
    return SIDES[1 - SIDES.index(slid_from)]


def half_of(x: float) -> str | None:
    """The half a weight's centre rests on (left: x < 0), or None on the centre line x = 0."""
    return "left" if x < 0 else "right" if x > 0 else None


def round_half(board: Board, half: str | None = None) -> str | None:
    """The scoring half of a board: ``half`` if given, else ``board.half``, else the one half every
    weight in play lies on (weights judged dead or fallen say nothing: they are removed whatever the
    half). Raises ``RulesError`` when the weights in play lie on both halves. None: no weight in play
    lies on a half, so none scores whichever half it is.
    """
    if half is not None:
        return check_choice(half, "half", SIDES)
    if board.half is not None:
        return board.half
    judgement = board.judge()
    found = {half_of(float(board.x[i])) for i in range(len(board)) if not judgement.dead[i]} - {None}
    if len(found) > 1:
        raise RulesError(
            "half: weights lie on both halves of the table, so the scoring half is not known; "
            'give it (--half left|right, or "half" in the board file)'
        )
    return found.pop() if found else None


def off_half_reason(x: float, half: str | None) -> str:
    """Why a weight resting outside the scoring half scores nothing."""
    where = "on the centre line" if half_of(x) is None else f"on the {half_of(x)} half"
    target = f"the {half} half" if half is not None else "the scoring half"
    return f"{where}: never rebounded onto {target}, removed"


def scoring_half_mask(start_x, x) -> np.ndarray:
    """Which weights rest on the scoring half of their shot: x (shots, weights) of resting centres,
    start_x (shots,) of the shot weight's start. A shot started on the left half (x < 0) scores on
    the right half and the other way round; a start on the centre line gives no scoring half."""
    start = np.asarray(start_x, dtype=np.float64).reshape(-1, 1)
    return np.asarray(x, dtype=np.float64) * start < 0.0


def score_only_far_half(start_x, x, value, dead, hanger) -> None:
    """Apply the scoring half to judged batch arrays in place (shots x weights): every weight off the
    scoring half of its shot (``scoring_half_mask``) is dead, worth 0 and no hanger (the ricochet rules: it has
    not entered the scoring surface area and is removed)."""
    off = ~scoring_half_mask(start_x, x)
    value[off] = 0
    dead[off] = True
    hanger[off] = HANGER_NONE


def weight_reason(judgement: Judgement, i: int) -> tuple[int, str]:
    """A weight's own worth and its explanation, before the closest-weights rule."""
    if judgement.fallen[i]:
        return 0, "off the table: dead"
    if judgement.dead[i]:
        return 0, "short of the scoring area: removed"
    value = int(judgement.value[i])
    if judgement.hanger[i] != HANGER_NONE:
        return value, f"overhanging the front edge: {value}"
    cleared = f"counts {value}" if value else "has not cleared it, scores nothing"
    return value, line_reason(judgement.touching_names(i), cleared, f"in the {value} zone")


def _worth(board: Board, half: str | None) -> tuple[list[tuple[int, str]], list[int]]:
    """Each weight's own worth and reason, and the weights in play (alive and on the scoring half)."""
    judgement = board.judge()
    worth, live = [], []
    for i in range(len(board)):
        x = float(board.x[i])
        if judgement.dead[i]:
            worth.append(weight_reason(judgement, i))
        elif half_of(x) != half or half is None:
            worth.append((0, off_half_reason(x, half)))
        else:
            worth.append(weight_reason(judgement, i))
            live.append(i)
    return worth, live


def shot_removals(board: Board, half: str | None = None) -> dict[int, str]:
    """Weights removed at once after a shot (before the next weight): short ones, fallen ones, and
    ones resting off the scoring half (``round_half`` of ``half``: the round's scoring half)."""
    worth, live = _worth(board, round_half(board, half))
    keep = set(live)
    return {i: worth[i][1] for i in range(len(board)) if i not in keep}


def score_round(
    board: Board, teams: Sequence[str] = (), front_edge: str = FRONT_EDGE, half: str | None = None
) -> FrameScore:
    """Score a round's resting weights by the closest-weights rule (the ricochet rules, examples A and B).

    ``half``: the round's scoring half (``round_half``: else ``board.half``, else the one half the
    weights in play lie on). Weights off it score nothing and take no part in the nearness contest.
    """
    worth, live = _worth(board, round_half(board, half))
    n = len(board)
    near = {i: edge_nearness(board.court, float(board.x[i]), float(board.y[i]), front_edge) for i in live}
    scores = {t: 0 for t in [*teams, *board.teams()]}
    best: dict[str, float] = {}
    for i in live:
        t = board.team[i]
        best[t] = min(best.get(t, math.inf), near[i])
    scorer = None
    if best:
        nearest = min(best.values())
        leaders = [t for t, d in best.items() if d == nearest]
        if len(leaders) == 1:
            scorer = leaders[0]
    discs = []
    for i in range(n):
        value, reason = worth[i]
        team = board.team[i]
        if i in near:
            others = [d for t, d in best.items() if t != team]
            threshold = min(others) if others else math.inf
            if scorer is None:
                value, reason = 0, f"{reason}, but level with the nearest opposing weight: nobody scores"
            elif team != scorer:
                value, reason = 0, f"{reason}, but {scorer} has the nearest weight: scores nothing"
            elif near[i] < threshold and value == 0:
                reason = f"{reason} (though nearer than every opposing weight)"
            elif near[i] < threshold:
                reason = f"{reason}, nearer than every opposing weight: scores"
            elif near[i] == threshold:
                value, reason = 0, f"{reason}, but level with an opposing weight: scores nothing"
            else:
                value, reason = 0, f"{reason}, but behind an opposing weight: scores nothing"
        scores[team] += value
        discs.append(DiscScore(float(board.x[i]), float(board.y[i]), team, value, reason))
    return FrameScore(scores=scores, discs=tuple(discs), void=None)


def coin_toss(rng: random.Random, players: Sequence[str] = ("A", "B")) -> tuple[str, str]:
    """The toss winner and the side they start from (the ricochet rules: the winner also picks the side)."""
    players = check_side_names(players, "players")
    return players[rng.randrange(len(players))], SIDES[rng.randrange(2)]


@dataclass(frozen=True)
class RicochetOptions:
    game_point: int = 15
    scorer_starts: bool = True  # False: the player who scored last shoots last in the next round

    def __post_init__(self) -> None:
        check_int(self.game_point, "game_point", allowed=GAME_POINTS)


@dataclass(frozen=True)
class RoundEntry:
    number: int
    side: str  # the half the weights were slid from
    starter: str
    points: dict[str, int]

    @property
    def half(self) -> str:
        """The half the round scored on."""
        return scoring_half(self.side)


class RicochetGame:
    """A game between two players; ``starter`` and ``start_side`` come from the coin toss."""

    def __init__(
        self,
        players: Sequence[str] = ("A", "B"),
        starter: str | None = None,
        start_side: str = "left",
        options: RicochetOptions = RicochetOptions(),
    ):
        self.players = check_side_names(players, "players")
        if len(self.players) != 2:
            raise RulesError(f"players: ricochet is a game for two (got {self.players!r})")
        starter = self.players[0] if starter is None else starter
        self.starter = check_choice(starter, "starter", self.players)
        self.side = check_choice(start_side, "start_side", SIDES)
        self.options = options
        self.scores = {p: 0 for p in self.players}
        self.scoreboard: list[RoundEntry] = []
        self.last_scorer: str | None = None
        self.over = False
        self.winner: str | None = None

    @property
    def scoring_half(self) -> str:
        """The half the next round scores on: opposite the half its weights are slid from."""
        return scoring_half(self.side)

    def _other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def turns(self) -> tuple[Turn, ...]:
        """The next round's eight weights, alternating from the round's starter, all from one side."""
        if self.over:
            raise RulesError(f"the game is over (won by {self.winner})")
        order = (self.starter, self._other(self.starter))
        return tuple(
            Turn(team=order[k % 2], player=0, shot=k + 1, end="front", side=self.side) for k in range(WEIGHTS_PER_ROUND)
        )

    def record_round(self, points: Mapping[str, int] | FrameScore) -> RoundEntry:
        """Post a round's points (only one player may score) and set up the next round."""
        if self.over:
            raise RulesError(f"the game is over (won by {self.winner})")
        if isinstance(points, FrameScore):
            points = points.scores
        by_player = {p: 0 for p in self.players}
        for p, v in points.items():
            check_choice(p, "points player", self.players)
            by_player[p] += check_int(v, f"points[{p!r}]", minimum=0)
        scorers = [p for p, v in by_player.items() if v > 0]
        if len(scorers) > 1:
            raise RulesError(f"points: only one player can score a round (got {by_player})")
        entry = RoundEntry(number=len(self.scoreboard), side=self.side, starter=self.starter, points=by_player)
        self.scoreboard.append(entry)
        for p, v in by_player.items():
            self.scores[p] += v
        if scorers:
            self.last_scorer = scorers[0]
            if self.scores[self.last_scorer] >= self.options.game_point:
                self.over = True
                self.winner = self.last_scorer
                return entry
        self.side = SIDES[1 - SIDES.index(self.side)]
        if self.last_scorer is not None:
            self.starter = self.last_scorer if self.options.scorer_starts else self._other(self.last_scorer)
        return entry
