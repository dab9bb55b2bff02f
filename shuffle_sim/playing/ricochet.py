"""Ricochet played through the rules layer (``rules.ricochet``): tactics and games.

Every weight of a round is slid from the front edge of the round's half (``Turn.side``: the left
half is x < 0) toward the back bumper and rebounds onto the other half, so every launch is a bank
(``players.Bank``, solved with the kernel). The round scores on the other half (``scoring_half``):
weights that stop short of the scoring area, fall off, or rest off the scoring half are removed
after each shot (``shot_removals``).

Tactics: the fixed plan takes out the opponent's weight nearest the front edge when the opponent
holds the round (their weight is the nearest) and a bank can reach it, else banks to the middle of
the 3 zone on the landing half. The expected-value player also weighs banks to the 4, 3, 2 and 1 spots, a 5-point
hanger over the front edge and take-outs of every opponent weight, valued by the closest-weights
rule: the points the shooter would score if the round ended now, minus the opponent's.
"""

from __future__ import annotations

import random

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.playing._loop import FramePlay, GamePlay
from shuffle_sim.playing._matches import SIDES, MatchRequest, best_of_three
from shuffle_sim.playing.players import Bank, PlayerError, ShotContext, Stance, hanger_point, zone_spot
from shuffle_sim.playing.records import FrameRecord, MatchRecord, ShotRecord
from shuffle_sim.playing.shooting import ShotOutcome
from shuffle_sim.rules.common import Board, Turn
from shuffle_sim.rules.ricochet import (
    FRONT_EDGE,
    GAME,
    RicochetGame,
    RicochetOptions,
    coin_toss,
    score_only_far_half,
    score_round,
)
from shuffle_sim.rules.rulings import ShotRulings
from shuffle_sim.shots import ShotBatch
from shuffle_sim.units import INCH

#: A weight starts this far beyond touching the front edge (m).
STANCE_GAP = 0.001
#: Slides to spare (m) of the expected-value player's take-outs; the fixed plan's is the first.
TAKEOUT_EXTRAS = (0.3, 0.1)
MAX_ROUNDS = 200


def _edge_frame(court: Court, edge: str) -> tuple[float, float, float, float]:
    """A point of a straight edge and its inward unit normal (the surface is on its left)."""
    found = court.edge(edge)
    return found.geom[0], found.geom[1], *found.inward_normal()


class RicochetTactics:
    """Ricochet tactics; ``ctx.info["side"]`` is the half the round is played from."""

    def __init__(self, court: Court):
        self.court = court
        r = court.disc_radius
        xmin, _, xmax, _ = court.bounds
        rail = next((c for c in court.cushions if c.kind == "segment" and c.geom[0] == c.geom[2] == 0.0), None)
        inner = (rail.thickness / 2 if rail else 0.0) + r + 0.5 * INCH
        outer = xmax - r - 0.5 * INCH
        y0 = r + STANCE_GAP
        self.stances = {
            "left": Stance("segment", (-inner, y0, xmin + r + 0.5 * INCH, y0), 0.5, 9),
            "right": Stance("segment", (inner, y0, outer, y0), 0.5, 9),
        }
        self.edge = _edge_frame(court, FRONT_EDGE)
        self.spots = {}
        for side, sign in (("left", 1.0), ("right", -1.0)):  # a round from the left lands on x > 0
            lo, hi = (inner, outer) if sign > 0 else (-outer, -inner)
            spots = {}
            for zone in ("4", "3", "2", "1"):
                y = zone_spot(court, zone, x_range=(lo, hi))[1]
                spots[zone] = (0.5 * (lo + hi), y)
            along = (0.5 * (lo + hi) - xmin) / (xmax - xmin)
            spots["5"] = hanger_point(court, 0, 0.5, along if court.edge(FRONT_EDGE).geom[0] < 0 else 1 - along)
            self.spots[side] = spots

    def stance(self, side: str) -> Stance:
        return self.stances[side]

    def nearness(self, x, y) -> np.ndarray:
        """Distance from the front edge to each weight's nearest point (``judge.edge_nearness``)."""
        px, py, nx, ny = self.edge
        return (np.asarray(x) - px) * nx + (np.asarray(y) - py) * ny - self.court.disc_radius

    def _leader(self, ctx: ShotContext) -> int | None:
        """The opponent weight nearest the front edge, if it is nearer than every shooter's weight."""
        if ctx.n_discs == 0:
            return None
        near = self.nearness(ctx.board_x, ctx.board_y)
        own = np.array([t == ctx.shooter for t in ctx.board_team])
        if own.all():
            return None
        best = int(np.flatnonzero(~own)[np.argmin(near[~own])])
        if own.any() and near[own].min() <= near[best]:
            return None
        return best

    def plan(self, ctx: ShotContext):
        leader = self._leader(ctx)
        if leader is not None:
            takeout = Bank(
                float(ctx.board_x[leader]),
                float(ctx.board_y[leader]),
                TAKEOUT_EXTRAS[0],
                label=f"bank to take out weight {leader}",
            )
            try:
                takeout.aim(ctx)  # solved once here, then from the cache
                return takeout
            except PlayerError:
                pass  # no bank reaches it (behind the centre rail): draw instead
        x, y = self.spots[ctx.info["side"]]["3"]
        return Bank(x, y, label="bank to the 3")

    def candidates(self, ctx: ShotContext) -> list:
        spots = self.spots[ctx.info["side"]]
        out = [Bank(x, y, label=f"bank to the {zone}") for zone, (x, y) in spots.items()]
        for i in range(ctx.n_discs):
            if ctx.board_team[i] != ctx.shooter:
                for extra in TAKEOUT_EXTRAS:
                    out.append(
                        Bank(
                            float(ctx.board_x[i]),
                            float(ctx.board_y[i]),
                            extra,
                            label=f"bank to take out weight {i}, {extra} m to spare",
                        )
                    )
        return out

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        teams = ctx.teams()
        own = teams == ctx.shooter
        start_x = -1.0 if ctx.info["side"] == "left" else 1.0  # weights off the other half are removed
        score_only_far_half(np.full(batch.x.shape[0], start_x), batch.x, batch.value, batch.dead, batch.hanger)
        live = ~batch.dead
        near = np.where(live, self.nearness(batch.x, batch.y), np.inf)
        own_best = np.where(own, near, np.inf).min(axis=1)
        opp_best = np.where(~own, near, np.inf).min(axis=1)
        own_points = np.where(own & (near < opp_best[:, None]), batch.value, 0).sum(axis=1)
        opp_points = np.where(~own & (near < own_best[:, None]), batch.value, 0).sum(axis=1)
        return np.where(own_best < opp_best, own_points, np.where(opp_best < own_best, -opp_points, 0)).astype(float)


def ricochet_tactics(court: Court) -> RicochetTactics:
    """The court's ``RicochetTactics``, made once and kept on the court (its stances and spots)."""
    return court.memo("tactics: ricochet", RicochetTactics)


def new_game(seed: int, game_index: int, sides: tuple[str, str], options) -> RicochetGame:
    """A game whose coin toss (starter and starting half) is drawn from the seed and the game index."""
    starter, side = coin_toss(random.Random(f"ricochet:{seed}:{game_index}"), sides)
    return RicochetGame(sides, starter=starter, start_side=side, options=options)


class RicochetFrame(FramePlay):
    """One round: weights alternate from the round's half; short and fallen weights are removed after
    each shot (``shot_removals``)."""

    game: RicochetGame

    def __init__(self, court: Court, tactics: RicochetTactics, game: RicochetGame):
        super().__init__(court, game.turns(), tactics, game)

    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        assert turn.side is not None, "a ricochet turn names its half"
        return self.shot_context(
            turn, shot, seed, game_index, self.tactics.stance(turn.side), turn.team, side=turn.side
        )

    def after_shot(self, turn: Turn, outcome: ShotOutcome) -> ShotRulings:
        rulings = self.rulings(outcome, turn.team)  # the scoring half: opposite the weight's start
        self.keep(rulings)
        return rulings

    def finish(self, shots: list[ShotRecord]) -> FrameRecord:
        game = self.game
        frame = score_round(
            Board(self.court, *self.board_arrays(), tuple(self.teams)), teams=game.players, half=game.scoring_half
        )
        entry = game.record_round(frame)
        return self.record(
            entry.number + 1,
            f"round {entry.number + 1}: from the {entry.side} half onto the {entry.half}, {entry.starter} starts",
            frame,
            shots,
            score=entry.points,
            points=entry.points,
        )


class RicochetPlay(GamePlay):
    game: RicochetGame
    max_frames = MAX_ROUNDS
    frame_play = RicochetFrame
    default_court = "ricochet"

    def __init__(self, game: RicochetGame, court: Court):
        super().__init__(game, court, ricochet_tactics(court), game.players)
        self.starter, self.first_side = game.starter, game.side

    def roles(self) -> dict[str, str]:
        players = self.game.players
        loser = players[1] if self.starter == players[0] else players[0]
        return {self.starter: f"won the toss, started from the {self.first_side} half", loser: "lost the toss"}


#: Play a ``RicochetGame`` to its end (``GamePlay.play_out``; ``players`` by player name).
play_ricochet_game = RicochetPlay.play_out


def play_match(request: MatchRequest) -> MatchRecord:
    """A game to 15 (or 21) on the request's court (default the ricochet table), starter and starting
    half by a coin toss drawn from the seed; a match (the project's choice) is best two of three, a
    new toss each game."""
    options = ricochet_options(request.length)
    return best_of_three(
        GAME, lambda number: new_game(request.seed, number - 1, SIDES, options), play_ricochet_game, request
    )


def ricochet_options(length: int | None) -> RicochetOptions:
    """A game to 15, or to ``length``."""
    return RicochetOptions() if length is None else RicochetOptions(game_point=length)


def game_play(seed: int, length: int | None = None, court: Court | None = None) -> RicochetPlay:
    """A game played alone, as ``play`` plays it (the coin toss drawn from the seed, to 15 or
    ``length``), on ``court`` (default the ricochet table), ready for a ``GameDriver``."""
    return RicochetPlay(new_game(seed, 0, SIDES, ricochet_options(length)), court or load_court("ricochet"))


def named_stances(court: Court) -> list[tuple[str, str, Stance]]:
    """Where a ricochet weight is slid from: the left or right half of the front of the table (position,
    label, stance)."""
    tactics = ricochet_tactics(court)
    return [(side, f"front, {side} half", tactics.stance(side)) for side in ("left", "right")]


#: The half a ricochet weight may be slid from (the advisor's ``--from``); the first is the default.
POSITIONS = ("left", "right")


def shooter_context(board: Board, shooter: str, position: str) -> ShotContext:
    """What a ricochet shooter sees on ``board`` sliding from the half ``position`` (the shot advisor)."""
    tactics = ricochet_tactics(board.court)
    return ShotContext.on_board(board, tactics.stance(position), shooter, tactics, side=position)
