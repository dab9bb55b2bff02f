"""A fifth game, made up for the tests: "push", added the way docs/adding-a-game.md says.

Rules: two sides slide two discs each per frame, alternately (the side that shoots first alternates
from frame to frame), from the near end of a 3 m lane toward two zones (far: 2 points, middle: 1; a
disc on the line between them counts 1); each side scores its own discs; the first side at 5 or more
after a frame, and ahead, wins.

This one module holds both halves a real game keeps apart (``shuffle_sim/rules/<game>.py`` for the
rules, ``shuffle_sim/playing/<game>.py`` for tactics and frames); ``COURT`` is its court file, which the
test writes into a folder named by ``SHUFFLE_SIM_COURTS``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from shuffle_sim.court import load_court
from shuffle_sim.games import get_game
from shuffle_sim.playing import FramePlay, GamePlay, play_game
from shuffle_sim.playing._matches import SIDES, MatchRequest, best_of_three
from shuffle_sim.playing.players import Draw, ShotContext, Stance, TakeOut
from shuffle_sim.playing.records import FrameRecord, MatchRecord
from shuffle_sim.playing.shooting import single_threaded
from shuffle_sim.rules.common import Board, DiscScore, FrameScore, Turn

GAME = "push"
GAME_POINT = 5
DISCS_PER_SIDE = 2

COURT = """
name = "push"
game = "push"
title = "Push lane (a test game)"
frame = { origin = "centre of the near end", x = "right", y = "toward the far end" }
disc = { diameter = "5 cm", mass = "0.1 kg" }
materials = { mu = 0.1 }
surface = { polygon = [["-0.3 m", "0 m"], ["0.3 m", "0 m"], ["0.3 m", "3 m"], ["-0.3 m", "3 m"], ["-0.3 m", "0 m"]] }

[[edges]]
name = "far end"
from = ["0.3 m", "3 m"]
to = ["-0.3 m", "3 m"]

[[edges]]
name = "right side"
from = ["0.3 m", "0 m"]
to = ["0.3 m", "3 m"]

[[edges]]
name = "left side"
from = ["-0.3 m", "3 m"]
to = ["-0.3 m", "0 m"]

[[lines]]
name = "far line"
from = ["-0.3 m", "2.2 m"]
to = ["0.3 m", "2.2 m"]
width = "1 cm"
touch_value = 1

[[zones]]
name = "far"
value = 2
polygon = [["-0.3 m", "2.2 m"], ["0.3 m", "2.2 m"], ["0.3 m", "3 m"], ["-0.3 m", "3 m"], ["-0.3 m", "2.2 m"]]

[[zones]]
name = "middle"
value = 1
polygon = [["-0.3 m", "1.6 m"], ["0.3 m", "1.6 m"], ["0.3 m", "2.2 m"], ["-0.3 m", "2.2 m"], ["-0.3 m", "1.6 m"]]
"""


# ---- rules (shuffle_sim/rules/push.py in a real game) -------------------------------------------


def score_frame(board: Board) -> FrameScore:
    """Each side scores its own discs' judged values."""
    judged = board.judge()
    discs = tuple(
        DiscScore(
            float(board.x[i]),
            float(board.y[i]),
            board.team[i],
            int(judged.value[i]),
            f"in the {judged.zone_name(i) or 'lane'}",
        )
        for i in range(len(board))
    )
    scores = {team: sum(d.value for d in discs if d.team == team) for team in board.teams()}
    return FrameScore(scores, discs)


class PushGame:
    """The game flow: turns of the next frame, frames posted, the winner."""

    def __init__(self, sides: tuple[str, str] = SIDES):
        self.sides = tuple(sides)
        self.scores = {s: 0 for s in self.sides}
        self.scoreboard: list[dict[str, int]] = []
        self.over = False
        self.winner: str | None = None

    def turns(self) -> tuple[Turn, ...]:
        first = len(self.scoreboard) % 2
        return tuple(
            Turn(team=self.sides[(first + k) % 2], player=0, shot=k + 1, end="near") for k in range(2 * DISCS_PER_SIDE)
        )

    def record_frame(self, frame: FrameScore) -> dict[str, int]:
        points = {s: int(frame.scores.get(s, 0)) for s in self.sides}
        for side, value in points.items():
            self.scores[side] += value
        self.scoreboard.append(points)
        leader = max(self.sides, key=self.scores.get)
        if self.scores[leader] >= GAME_POINT and list(self.scores.values()).count(self.scores[leader]) == 1:
            self.over, self.winner = True, leader
        return points


# ---- play (shuffle_sim/playing/push.py in a real game) ---------------------------------------------


class PushTactics:
    """Take out the opponent's disc nearest the far end when there is one, else draw to the middle of
    the far zone; the expected-value player also weighs a draw to the middle zone."""

    def __init__(self, court):
        self.court = court
        self.stance = Stance("segment", (-0.2, 0.1, 0.2, 0.1), 0.5, 9)

    def plan(self, ctx: ShotContext):
        opponents = [i for i in range(ctx.n_discs) if ctx.board_team[i] != ctx.shooter]
        if opponents:
            target = max(opponents, key=lambda i: ctx.board_y[i])
            return TakeOut(target, 1.0, label=f"take out disc {target}")
        return Draw(0.0, 2.6, label="draw to the far zone")

    def candidates(self, ctx: ShotContext) -> list:
        return [Draw(0.0, 2.6, label="draw to the far zone"), Draw(0.0, 1.9, label="draw to the middle")]

    def evaluate(self, ctx: ShotContext, batch) -> np.ndarray:
        own = ctx.teams() == ctx.shooter
        return (batch.value[:, own].sum(axis=1) - batch.value[:, ~own].sum(axis=1)).astype(float)


class PushFrame(FramePlay):
    def __init__(self, court, tactics: PushTactics, game: PushGame):
        super().__init__(court, game.turns(), tactics, game)

    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        return self.shot_context(turn, shot, seed, game_index, self.tactics.stance, turn.team)

    def after_shot(self, turn: Turn, outcome):
        rulings = self.rulings(outcome, turn.team)  # no ruler of its own: fallen and dead discs leave
        self.keep(rulings)
        return rulings

    def finish(self, shots) -> FrameRecord:
        frame = score_frame(Board(self.court, *self.board_arrays(), tuple(self.teams)))
        points = self.game.record_frame(frame)
        number = len(self.game.scoreboard)
        return self.record(number, f"frame {number}", frame, shots, score=points, points=points)


class PushPlay(GamePlay):
    frame_play = PushFrame

    def __init__(self, game: PushGame, court):
        super().__init__(game, court, PushTactics(court))

    def roles(self) -> dict[str, str]:
        return {self.sides[0]: "shoots first", self.sides[1]: "shoots second"}


@single_threaded
def play_push_game(
    game: PushGame, players: Mapping, seed: int, game_index: int = 0, court=None, number: int = 1, on_frame=None
):
    """Play ``game`` to its end on ``court`` (default the registered court of the game, found by name)."""
    court = court or load_court(get_game(GAME).court)
    return play_game(PushPlay(game, court), players, seed, game_index, number, 50, on_frame)


def play_match(request: MatchRequest) -> MatchRecord:
    return best_of_three(GAME, lambda number: PushGame(), play_push_game, request)
