"""Horse collar table shuffleboard (horse collar rules): a frame's score and the game to 51 with the hammer rule.

- One side throws all eight pucks of a frame: a single player all eight; a team of two 4 and 4; a team
  of four 2 each, in turn. Then the other side throws its frame from the other end.
- Puck values (judged from the court file): 1 between the foul line and the deuce line (touching the
  deuce line included, clear of the foul line), 2 between the deuce and trey lines (touching the trey
  line included), 3 beyond the trey line, 13 overhanging the far end, 26 overhanging the far end and a
  side at a corner. Pucks in the alleys (gutters) are dead.
- A frame scores nothing if any puck on the board has not completely cleared the foul line (the "foul
  line void"), and nothing unless at least one puck is worth 3 or more ("a 3 before anything counts").
  Otherwise it scores the sum of its pucks.
- Game: play on until a side has 51 or more after the side with the hammer (the side throwing second)
  has thrown; the higher score wins; a tie at 51 or more plays another pair of frames.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from shuffle_sim.judging import Judgement
from shuffle_sim.judging.procedure import HANGER_CORNER, HANGER_END
from shuffle_sim.rules.common import (
    Board,
    DiscScore,
    FrameScore,
    RulesError,
    Turn,
    check_int,
    check_side_names,
    line_reason,
)

GAME = "horse-collar"
DEFAULT_COURT = "horse-collar"
PUCKS_PER_FRAME = 8
TEAM_SIZES = (1, 2, 4)
#: At least one puck must be worth this much before anything counts.
OPENING_VALUE = 3
VOID_FOUL_LINE = "a puck on the board has not completely cleared the foul line: the frame scores nothing"
VOID_NO_THREE = "no puck worth 3 or more (a 3 before anything counts): the frame scores nothing"


def _short_of_foul_line(judgement: Judgement, i: int) -> bool:
    """A dead puck still on the board: on the foul line or short of it (dead, but never removed)."""
    return bool(judgement.dead[i] and not judgement.fallen[i])


def puck_reason(judgement: Judgement, i: int) -> tuple[int, str]:
    """A puck's own worth and the sentence that explains it, before any frame voiding."""
    if judgement.fallen[i]:
        return 0, "in the alley: dead"
    touching = judgement.touching_names(i)
    if judgement.dead[i]:
        return 0, line_reason(touching, "has not cleared the foul line, dead", "short of the foul line: dead")
    value = int(judgement.value[i])
    if judgement.hanger[i] == HANGER_CORNER:
        return value, f"{value}-point hanger at a corner"
    if judgement.hanger[i] == HANGER_END:
        return value, f"{value}-point hanger over the far end"
    return value, line_reason(touching, f"counts {value}", f"in the {value} zone")


def score_frame(board: Board, side: str | None = None) -> FrameScore:
    """Score one side's frame of eight pucks (all pucks on the board are the throwing side's).

    ``side`` names the throwing side in ``scores``; by default the pucks' team label, or the labels
    joined with '+' when the side threw pucks of two colours.
    """
    judgement = board.judge()
    worth = [puck_reason(judgement, i) for i in range(len(board))]
    void = None
    if any(_short_of_foul_line(judgement, i) for i in range(len(board))):
        void = VOID_FOUL_LINE
    elif not any(v >= OPENING_VALUE for v, _ in worth):
        void = VOID_NO_THREE
    if side is None:
        side = "+".join(sorted(board.teams())) or "thrower"
    discs = []
    total = 0
    for i, (value, reason) in enumerate(worth):
        if void is not None and value:
            value, reason = 0, f"{reason}, but the frame is void"
        total += value
        discs.append(DiscScore(float(board.x[i]), float(board.y[i]), board.team[i], value, reason))
    return FrameScore(scores={side: total}, discs=tuple(discs), void=void)


@dataclass(frozen=True)
class HorseCollarOptions:
    game_point: int = 51
    team_size: int = 1

    def __post_init__(self) -> None:
        check_int(self.game_point, "game_point", minimum=1)
        check_int(self.team_size, "team_size", allowed=TEAM_SIZES)


@dataclass(frozen=True)
class FrameEntry:
    number: int  # 0-based frame index over the game
    side: str
    points: int
    void: str | None = None


class HorseCollarGame:
    """A game between ``first`` (throws first) and ``second`` (has the hammer)."""

    def __init__(self, first: str = "A", second: str = "B", options: HorseCollarOptions = HorseCollarOptions()):
        self.sides = check_side_names((first, second))
        self.hammer = second
        self.options = options
        self.scores = {first: 0, second: 0}
        self.scoreboard: list[FrameEntry] = []
        self.over = False
        self.winner: str | None = None

    def thrower(self) -> str:
        """The side throwing the next frame."""
        return self.sides[len(self.scoreboard) % 2]

    def turns(self) -> tuple[Turn, ...]:
        """The next frame's eight throws: one side throws them all, team members in turn."""
        if self.over:
            raise RulesError(f"the game is over (won by {self.winner})")
        side = self.thrower()
        end = "head" if side == self.sides[0] else "foot"
        per_player = PUCKS_PER_FRAME // self.options.team_size
        return tuple(Turn(team=side, player=k // per_player, shot=k + 1, end=end) for k in range(PUCKS_PER_FRAME))

    def record_frame(self, points: int | FrameScore | Mapping[str, int]) -> FrameEntry:
        """Post the throwing side's frame (its points, or the ``FrameScore`` of its board)."""
        if self.over:
            raise RulesError(f"the game is over (won by {self.winner})")
        void = None
        if isinstance(points, FrameScore):
            void = points.void
            points = points.scores
        if isinstance(points, Mapping):
            points = sum(check_int(v, f"points[{k!r}]") for k, v in points.items())
        points = check_int(points, "points", minimum=0)
        side = self.thrower()
        entry = FrameEntry(number=len(self.scoreboard), side=side, points=points, void=void)
        self.scoreboard.append(entry)
        self.scores[side] += points
        if len(self.scoreboard) % 2 == 0:  # the hammer has thrown
            a, b = (self.scores[s] for s in self.sides)
            if max(a, b) >= self.options.game_point and a != b:
                self.over = True
                self.winner = self.sides[0] if a > b else self.sides[1]
        return entry
