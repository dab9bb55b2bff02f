"""Crokinole played through the rules layer (``rules.crokinole``): tactics, games and matches.

A player shoots from the 5 line (the shooting line, radius 12 in) anywhere in their quadrant: the
quarter of the line centred on their seat (south at -y, then clockwise west, north, east), and
takes the start whose straight path keeps clearest of pegs and discs (``players.clearest_start``).
After each shot the hit rule and the open-shot rule are applied (``judge_shot``): 20s are set aside
at once and counted for the round, fouls and dead discs removed.

Tactics: the fixed plan takes out the opponent disc nearest the centre when there is one, and
otherwise shoots for the open 20. The expected-value player also weighs take-outs of every
opponent disc at two speeds, draws into the 15 circle on the far side of the hole and draws to
hide behind the pegs, valued as the round would score now: own minus opponent's total, with the
shot's fouls applied (a shot that hits no opponent disc loses itself and the shooter's discs it
moved; an open shot must end in or touching the 15 line, or in the hole).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.physics import STATUS_HOLED
from shuffle_sim.play_common import (
    FrameRecord,
    GameRecord,
    ShotRecord,
    play_turn,
    single_threaded,
)
from shuffle_sim.players import Draw, Open20, Player, ShotContext, Stance, TakeOut
from shuffle_sim.rules.common import Board
from shuffle_sim.rules.crokinole import (
    FIFTEEN_LINE,
    CrokinoleGame,
    judge_shot,
    score_round,
)
from shuffle_sim.shots import ShotBatch
from shuffle_sim.units import INCH

#: Seat directions (degrees, counter-clockwise from +x): the player sits beyond the board this way.
SEAT_ANGLES = {"south": 270.0, "west": 180.0, "north": 90.0, "east": 0.0}
SHOOTING_LINE = "5 line"
#: Slides to spare past a disc (m) of take-outs: the fixed plan's is the first.
TAKEOUT_EXTRAS = (0.1, 0.3)
#: Draw targets of the expected-value player: radius (m) and angle from the seat's far side (degrees).
FIFTEEN_SPOTS = ((2.2 * INCH, 0.0), (2.2 * INCH, 40.0), (2.2 * INCH, -40.0))
PEG_HIDE_GAP = 0.2 * INCH
MAX_ROUNDS = 50


class CrokinoleTactics:
    """Crokinole tactics; ``ctx.info["seat"]`` names the shooter's seat."""

    def __init__(self, court: Court):
        self.court = court
        line = court.line(SHOOTING_LINE)
        self.centre = (line.geom[0], line.geom[1])
        self.shooting_radius = line.geom[2]
        fifteen = court.line(FIFTEEN_LINE)
        self.fifteen_reach = fifteen.geom[2] + fifteen.width / 2 + court.disc_radius
        self.stances = {}
        for seat, degrees in SEAT_ANGLES.items():
            a = math.radians(degrees)
            self.stances[seat] = Stance("arc", (*self.centre, self.shooting_radius, a - math.pi / 4, a + math.pi / 4),
                                        0.5, 13)

    def stance(self, seat: str) -> Stance:
        return self.stances[seat]

    def _radius(self, x, y):
        return np.hypot(np.asarray(x) - self.centre[0], np.asarray(y) - self.centre[1])

    def plan(self, ctx: ShotContext):
        opponents = [i for i in range(ctx.n_discs) if ctx.board_team[i] != ctx.shooter]
        if opponents:
            radii = self._radius(ctx.board_x[opponents], ctx.board_y[opponents])
            target = opponents[int(np.argmin(radii))]
            return TakeOut(target, TAKEOUT_EXTRAS[0], label=f"take out disc {target}")
        return Open20()

    def candidates(self, ctx: ShotContext) -> list:
        out: list = [Open20()]
        seat = math.radians(SEAT_ANGLES[ctx.info["seat"]])
        for radius, degrees in FIFTEEN_SPOTS:
            a = seat + math.pi + math.radians(degrees)
            out.append(Draw(self.centre[0] + radius * math.cos(a), self.centre[1] + radius * math.sin(a),
                            label=f"draw into the 15 ({degrees:+.0f} deg)"))
        r = ctx.radius
        for peg in self.court.pegs:
            a = math.atan2(peg.y - self.centre[1], peg.x - self.centre[0])
            behind = math.hypot(peg.x - self.centre[0], peg.y - self.centre[1]) + peg.radius + r + PEG_HIDE_GAP
            # Pegs on the shooter's side of the board only: the far ones cannot be reached behind.
            if math.cos(a - seat) > 0.0:
                out.append(Draw(self.centre[0] + behind * math.cos(a), self.centre[1] + behind * math.sin(a),
                                label=f"hide behind {peg.name}"))
        for i in range(ctx.n_discs):
            if ctx.board_team[i] != ctx.shooter:
                for extra in TAKEOUT_EXTRAS:
                    out.append(TakeOut(i, extra, label=f"take out disc {i}, {extra} m to spare"))
        return out

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        teams = ctx.teams()
        own = teams == ctx.shooter
        shot = batch.x.shape[1] - 1
        value = batch.value.copy()
        if (~own).any():
            hit = batch.touched[:, ~own].any(axis=1)
            lost = ~hit[:, None] & own[None, :] & (batch.touched | (np.arange(own.size) == shot)[None, :])
            value[lost] = 0
        else:
            holed = batch.status[:, shot] == STATUS_HOLED
            inside = self._radius(batch.x[:, shot], batch.y[:, shot]) <= self.fifteen_reach
            value[~(holed | inside), shot] = 0
        return (value[:, own].sum(axis=1) - value[:, ~own].sum(axis=1)).astype(np.float64)


@single_threaded
def play_crokinole_game(game: CrokinoleGame, players: Mapping[str, Player], seed: int, game_index: int = 0,
                        court: Court | None = None, number: int = 1, max_rounds: int = MAX_ROUNDS,
                        on_frame: Callable[[FrameRecord], None] | None = None) -> GameRecord:
    """Play ``game`` to its end (``players`` by side name); shot k of the game uses noise stream k."""
    court = court or load_court("crokinole")
    tactics = CrokinoleTactics(court)
    frames: list[FrameRecord] = []
    shot = 0
    while not game.over and len(game.rounds) < max_rounds:
        turns = game.turns()
        xs: list[float] = []
        ys: list[float] = []
        teams: list[str] = []
        twenties = {s: 0 for s in game.sides}
        shots: list[ShotRecord] = []
        fouls = []
        for turn in turns:
            ctx = ShotContext(court=court, stance=tactics.stance(turn.end), board_x=np.array(xs),
                              board_y=np.array(ys), board_team=tuple(teams), shooter=turn.team, tactics=tactics,
                              seed=seed, game_index=game_index, shot=shot, turn=turn, info={"seat": turn.end})
            outcome = play_turn(players[turn.team], ctx, xs, ys, shots)
            shot += 1
            after = Board(court, outcome.x, outcome.y, tuple(teams + [turn.team]))
            result = judge_shot(after, turn.team, len(xs), [True] * len(xs) + [False], outcome.contacts)
            for side, count in result.twenties.items():
                twenties[side] += count
            if result.foul:
                fouls.append(f"shot {shot} ({turn.team}): {result.foul}")
            keep = [i for i in range(len(after)) if i not in result.remove]
            xs = [float(outcome.x[i]) for i in keep]
            ys = [float(outcome.y[i]) for i in keep]
            teams = [after.team[i] for i in keep]
        frame = score_round(Board(court, np.array(xs), np.array(ys), tuple(teams)), twenties=twenties,
                            teams=game.sides)
        entry = game.record_round(frame, twenties)
        record = FrameRecord(
            number=entry.number,
            label=f"round {entry.number}: {turns[0].team} starts from the {turns[0].end}",
            score=dict(entry.totals),
            points=dict(entry.points),
            totals=dict(game.scores),
            board=[d.to_dict() for d in frame.discs],
            end=None,
            note="; ".join(fouls),
            twenties=dict(entry.twenties),
            shots=shots,
        )
        frames.append(record)
        if on_frame is not None:
            on_frame(record)
    roles = {s: ", ".join(seat for side, _, seat in game.seats if side == s) for s in game.sides}
    return GameRecord(number=number, sides=game.sides, roles=roles, frames=frames, totals=dict(game.scores),
                      winner=game.winner, finished=game.over)
