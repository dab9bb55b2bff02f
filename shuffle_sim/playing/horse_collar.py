"""Horse collar played through the rules layer (``rules.horse_collar``): tactics and games.

One side throws all eight pucks of a frame from its own end; every frame is planned and run in the
shooter's own frame (the court file's frame; the table is symmetric). Pucks start from the near end
(``STANCE_Y``) anywhere across the table. Pucks that fall into a gutter leave play but stay on the
frame's card (judged fallen: worth nothing); pucks short of the foul line stay on the table and void
the frame (horse collar rules), so they remain obstacles.

Tactics: the fixed plan draws to the middle of the 3 zone in the first free lane (``LANES``); the
expected-value player also weighs draws to other 3 and 2 spots, hangers over the far end (13) and
at its corners (26). A frame's value is its score by the rules: nothing unless a puck is worth 3 or
more, nothing if a puck has not cleared the foul line, otherwise the sum of the pucks; a frame not
yet opened by a 3 is weighed by the chance that a later puck opens it.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.physics import STATUS_FALLEN
from shuffle_sim.playing._loop import FramePlay, GamePlay
from shuffle_sim.playing._matches import SIDES, MatchRequest, best_of_three
from shuffle_sim.playing.players import Draw, Hanger, Intent, ShotContext, Stance, zone_spot
from shuffle_sim.playing.records import FrameRecord, MatchRecord, ShotRecord
from shuffle_sim.playing.shooting import ShotOutcome
from shuffle_sim.rules.common import Board, Turn
from shuffle_sim.rules.horse_collar import (
    GAME,
    OPENING_VALUE,
    PUCKS_PER_FRAME,
    HorseCollarGame,
    HorseCollarOptions,
    score_frame,
)
from shuffle_sim.rules.rulings import ShotRulings
from shuffle_sim.shots import ShotBatch
from shuffle_sim.units import INCH

#: Pucks start this far from the near end of the surface (m).
STANCE_Y = 0.15
#: Lateral positions (m) of the fixed plan's 3-zone draws, in order of preference.
LANES = (0.0, -3.5 * INCH, 3.5 * INCH, -7.0 * INCH, 7.0 * INCH)
#: The chance that one puck opens a frame (scores 3 or more): about an expert's draws to the 3.
OPEN_CHANCE = 0.5
#: A game still going after this many frames stops unfinished.
MAX_FRAMES = 200


class HorseCollarTactics:
    """Horse collar tactics in the shooter's frame."""

    #: Samples the expected-value player weighs each shot over, at least: hangers pay 13 and 26 points
    #: a few times in a hundred, and over 24 samples a lucky corner hanger outweighs the draw to the 3
    #: that is worth more (measured over 2000 samples: draw to the 3 1.8, corner hanger 1.5 a shot).
    min_samples = 200

    def __init__(self, court: Court):
        self.court = court
        xmin, _, xmax, _ = court.bounds
        margin = court.disc_radius + 0.5 * INCH
        self.stance = Stance("segment", (xmin + margin, STANCE_Y, xmax - margin, STANCE_Y), 0.5, 9)
        self.three_y = zone_spot(court, "3")[1]
        self.two_y = zone_spot(court, "2")[1]

    def _free(self, ctx: ShotContext, x: float, y: float) -> bool:
        limit = 2.0 * ctx.radius
        return not np.any((ctx.board_x - x) ** 2 + (ctx.board_y - y) ** 2 < limit * limit)

    def plan(self, ctx: ShotContext):
        for x in LANES:
            if self._free(ctx, x, self.three_y):
                return Draw(x, self.three_y, label=f"draw to the 3 ({x / INCH:+.1f} in)")
        return Draw(LANES[0], self.three_y, label="draw to the 3 (+0.0 in)")

    def candidates(self, ctx: ShotContext) -> list:
        out: list[Intent] = [Draw(x, self.three_y, label=f"draw to the 3 ({x / INCH:+.1f} in)") for x in LANES]
        out += [Draw(x, self.two_y, label=f"draw to the 2 ({x / INCH:+.1f} in)") for x in LANES[:3]]
        out += [Hanger(0, along=a, label=f"hanger over the end ({a:.2f} across)") for a in (0.3, 0.5, 0.7)]
        out += [Hanger(c, label=f"corner hanger ({'right' if c > 0 else 'left'})") for c in (1, -1)]
        return out

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        """The frame's score by the rules, weighed by the chance that it will count: a puck short of
        the foul line stays on the table and voids the frame for good; a frame not yet opened by a 3
        counts only if one of the k pucks still to come opens it, 1 - (1 - OPEN_CHANCE)^k."""
        short = (batch.dead & (batch.status != STATUS_FALLEN)).any(axis=1)
        opened = (batch.value >= OPENING_VALUE).any(axis=1)
        left = PUCKS_PER_FRAME - (ctx.turn.shot if ctx.turn is not None else PUCKS_PER_FRAME)
        weight = np.where(opened, 1.0, 1.0 - (1.0 - OPEN_CHANCE) ** left)
        return np.where(short, 0.0, batch.value.sum(axis=1) * weight)


def horse_collar_tactics(court: Court) -> HorseCollarTactics:
    """The court's ``HorseCollarTactics``, made once and kept on the court (its stance and spots)."""
    return court.memo("tactics: horse collar", HorseCollarTactics)


class HorseCollarFrame(FramePlay):
    """One frame: ``side`` throws all eight pucks from its end; fallen pucks go to the gutter list."""

    game: HorseCollarGame

    def __init__(self, court: Court, tactics: HorseCollarTactics, game: HorseCollarGame):
        super().__init__(court, game.turns(), tactics, game)
        self.gutter: list[tuple[float, float]] = []

    @property
    def first(self) -> Turn:
        return self.planned[0]

    @property
    def side(self) -> str:
        return self.first.team

    def hammer(self) -> str | None:
        """The hammer of the game (the side throwing second), whoever throws this frame."""
        return self.game.sides[1]

    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        # every puck on the board is the throwing side's (``after_shot``: the rulings' shooter)
        return self.shot_context(turn, shot, seed, game_index, self.tactics.stance, self.side)

    def after_shot(self, turn: Turn, outcome: ShotOutcome) -> ShotRulings:
        rulings = self.rulings(outcome, self.side)  # the pucks that fell into the gutter leave the table
        self.keep(rulings)
        self.gutter += [(float(rulings.board.x[i]), float(rulings.board.y[i])) for i in rulings.remove]
        return rulings

    def finish(self, shots: list[ShotRecord]) -> FrameRecord:
        side, game = self.side, self.game
        all_x = self.xs + [g[0] for g in self.gutter]
        all_y = self.ys + [g[1] for g in self.gutter]
        frame = score_frame(Board(self.court, np.array(all_x), np.array(all_y), tuple([side] * len(all_x))), side=side)
        entry = game.record_frame(frame)
        points = {s: (entry.points if s == side else 0) for s in game.sides}
        return self.record(
            entry.number + 1,
            f"frame {entry.number + 1}: {side} throws from the {self.first.end}",
            frame,
            shots,
            score=points,
            points=points,
            note=entry.void or "",
        )


class HorseCollarPlay(GamePlay):
    game: HorseCollarGame
    max_frames = MAX_FRAMES
    frame_play = HorseCollarFrame
    default_court = "horse-collar"

    def __init__(self, game: HorseCollarGame, court: Court):
        super().__init__(game, court, horse_collar_tactics(court))

    def roles(self) -> dict[str, str]:
        return {self.game.sides[0]: "throws first", self.game.sides[1]: "hammer"}


#: Play a ``HorseCollarGame`` to its end (``GamePlay.play_out``; ``players`` by side name).
play_horse_collar_game = HorseCollarPlay.play_out


def play_match(request: MatchRequest) -> MatchRecord:
    """A game to 51 with the hammer rule (``request.length`` another game point) on the request's
    court (default the horse collar table), A throwing first; a match (not defined by the rules: the
    project's choice) is best two of three, the first thrower alternating."""
    return best_of_three(GAME, lambda number: new_game(number, request.length), play_horse_collar_game, request)


def new_game(number: int, length: int | None = None) -> HorseCollarGame:
    """Game ``number`` of a match (A throwing first in odd games), to 51 or ``length``."""
    options = HorseCollarOptions() if length is None else HorseCollarOptions(game_point=length)
    first, second = SIDES if number % 2 == 1 else SIDES[::-1]
    return HorseCollarGame(first, second, options)


def game_play(seed: int, length: int | None = None, court: Court | None = None) -> HorseCollarPlay:
    """A game played alone, as ``play`` plays it (A throwing first, to 51 or ``length``), on ``court``
    (default the horse collar table), ready for a ``GameDriver``."""
    return HorseCollarPlay(new_game(1, length), court or load_court("horse-collar"))


def named_stances(court: Court) -> list[tuple[str, str, Stance]]:
    """Where a horse collar shooter puts the puck down: across the near end of the table (position,
    label, stance)."""
    return [("end", "near end", horse_collar_tactics(court).stance)]


#: A horse collar shooter throws from the near end (the advisor's ``--from``).
POSITIONS = ("end",)


def shooter_context(board: Board, shooter: str, position: str) -> ShotContext:
    """What a horse collar shooter sees on ``board`` from the near end (the shot advisor)."""
    tactics = horse_collar_tactics(board.court)
    return ShotContext.on_board(board, tactics.stance, shooter, tactics)
