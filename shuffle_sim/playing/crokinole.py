"""Crokinole played through the rules layer (``rules.crokinole``): tactics, games and matches.

A player shoots from the 5 line (the shooting line, radius 12 in) anywhere in their quadrant: the
quarter of the line centred on their seat (south at -y, then clockwise west, north, east). After
each shot the hit rule and the open-shot rule are applied (``rules.shot_rulings``): 20s are set aside at
once and counted for the round, fouls and dead discs removed.

Tactics: the fixed plan takes out the opponent disc it is likeliest to hit along its clearest line
from the arc (``repertoire.Strike``: the start and aim with the best chance under the shooter's
own direction error), with a carom off a peg or a disc when every opponent disc is hidden; on a
board without opponent discs it shoots the open 20. The expected-value player weighs the
repertoire (``players.repertoire``): straight take-outs of every opponent disc at two speeds,
take-out and stick, roll off, roll into the 15 or 20, double take-outs and caroms for the discs
nearest the centre, the open 20, draws into the 15 and behind the pegs. An outcome is valued as the
round would score now (own minus opponent's total, with the shot's fouls applied: a shot that hits
no opponent disc loses itself and the shooter's discs it moved; an open shot must end in or touching
the 15 line, or in the hole), less what the opponent's next shot is likely to take: a disc of the
shooter's on a closed board, or an open 20 on a board left open.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.physics import STATUS_HOLED
from shuffle_sim.playing._loop import FramePlay, GamePlay
from shuffle_sim.playing._matches import SIDES, MatchRequest, single_game
from shuffle_sim.playing.players import Draw, Open20, PlayerError, ShotContext, Stance
from shuffle_sim.playing.players.repertoire import Shot, Strike, strike_line, visibility
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord, ShotRecord
from shuffle_sim.playing.shooting import ShotOutcome
from shuffle_sim.rules.common import Board, Turn
from shuffle_sim.rules.crokinole import (
    FIFTEEN_LINE,
    GAME,
    TWENTY,
    CrokinoleGame,
    CrokinoleMatch,
    CrokinoleOptions,
    score_round,
)
from shuffle_sim.rules.rulings import ShotRulings
from shuffle_sim.shots import ShotBatch
from shuffle_sim.units import INCH

#: Seat directions (degrees, counter-clockwise from +x): the player sits beyond the board this way.
SEAT_ANGLES = {"south": 270.0, "west": 180.0, "north": 90.0, "east": 0.0}
SHOOTING_LINE = "5 line"
#: How far past the board's edge (m) a take-out would send its disc struck full on (``Strike``):
#: the fixed plan's is the first.
TAKEOUT_EXTRAS = (0.15, 0.05)
#: Draw targets of the expected-value player: radius (m) and angle from the seat's far side (degrees).
FIFTEEN_SPOTS = ((2.2 * INCH, 0.0), (2.2 * INCH, 40.0), (2.2 * INCH, -40.0))
PEG_HIDE_GAP = 0.2 * INCH
#: Opponent discs (nearest the centre first) the expected-value player weighs kernel-aimed shots on.
KERNEL_TARGETS = 3
#: What the expected-value player expects of the opponent's next shot: a take-out of a disc of its
#: own hits this often, an open 20 on a board left open drops this often (the top-competitive
#: figures of docs/players/skills.md).
NEXT_HIT_RATE = 0.9
NEXT_OPEN20_RATE = 0.65
MAX_ROUNDS = 50


@dataclass(frozen=True)
class PegHide(Draw):
    """A draw to rest just behind a peg, hidden from the opponent across the board (aimed as a draw)."""

    hides_from_opponent = True


def twenties_of(ctx: ShotContext) -> tuple[int, int]:
    """The 20s set aside so far in the round (``ctx.info["twenties"]``, by side): the shooter's and
    the opponent's (every other side's)."""
    twenties = ctx.info.get("twenties") or {}
    mine = int(twenties.get(ctx.shooter, 0))
    return mine, int(sum(twenties.values())) - mine


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
            self.stances[seat] = Stance(
                "arc", (*self.centre, self.shooting_radius, a - math.pi / 4, a + math.pi / 4), 0.5, 13
            )

    def stance(self, seat: str) -> Stance:
        return self.stances[seat]

    def _radius(self, x, y):
        return np.hypot(np.asarray(x) - self.centre[0], np.asarray(y) - self.centre[1])

    def plan(self, ctx: ShotContext):
        """Take out the opponent disc with the best chance of a hit along its clearest line (the one
        nearest the centre among equals); a carom when every opponent disc is hidden from the arc;
        on a board without opponent discs, the open 20."""
        opponents = [i for i in range(ctx.n_discs) if ctx.board_team[i] != ctx.shooter]
        if not opponents:
            return Open20()
        radii = self._radius(ctx.board_x[opponents], ctx.board_y[opponents])
        extra = TAKEOUT_EXTRAS[0]
        chances = [strike_line(ctx, i)[3] for i in opponents]
        best = max(range(len(opponents)), key=lambda k: (round(chances[k], 3), -radii[k]))
        if chances[best] > 0.0:
            return Strike(opponents[best], extra, label=f"take out disc {opponents[best]}")
        for k in np.argsort(radii, kind="stable"):
            carom = Shot("carom", opponents[k], label=f"carom onto disc {opponents[k]}")
            try:
                carom.aim(ctx)  # solved once here, then from the cache
                return carom
            except PlayerError:
                continue
        return self.hide(ctx)[0]  # nothing can reach an opponent disc: the shot is lost, hide it

    def hide(self, ctx: ShotContext) -> list:
        """Draws to rest just behind each peg on the shooter's side of the board."""
        seat = math.radians(SEAT_ANGLES[ctx.info["seat"]])
        out = []
        for peg in self.court.pegs:
            a = math.atan2(peg.y - self.centre[1], peg.x - self.centre[0])
            behind = math.hypot(peg.x - self.centre[0], peg.y - self.centre[1]) + peg.radius + ctx.radius + PEG_HIDE_GAP
            # Pegs on the shooter's side of the board only: the far ones cannot be reached behind.
            if math.cos(a - seat) > 0.0:
                out.append(
                    PegHide(
                        self.centre[0] + behind * math.cos(a),
                        self.centre[1] + behind * math.sin(a),
                        label=f"hide behind {peg.name}",
                    )
                )
        return out

    def opponent_stance(self, ctx: ShotContext) -> Stance:
        """Where the opponent shoots from: the seat across the board (singles: south and north)."""
        seats = tuple(SEAT_ANGLES)
        return self.stances[seats[(seats.index(ctx.info["seat"]) + 2) % len(seats)]]

    def candidates(self, ctx: ShotContext) -> list:
        """The repertoire (``players.repertoire``): on an open board the open 20, draws into the 15 and
        behind the pegs; against opponent discs, straight take-outs of each at two speeds, and for the
        ``KERNEL_TARGETS`` nearest the centre the kernel-aimed take-out and stick, roll off and roll
        into the 15 or 20, double take-outs of their pairs, and caroms onto those not in clear view."""
        out: list = [Open20()]
        seat = math.radians(SEAT_ANGLES[ctx.info["seat"]])
        for radius, degrees in FIFTEEN_SPOTS:
            a = seat + math.pi + math.radians(degrees)
            out.append(
                Draw(
                    self.centre[0] + radius * math.cos(a),
                    self.centre[1] + radius * math.sin(a),
                    label=f"draw into the 15 ({degrees:+.0f} deg)",
                )
            )
        out += self.hide(ctx)
        opponents = [i for i in range(ctx.n_discs) if ctx.board_team[i] != ctx.shooter]
        for i in opponents:
            for extra in TAKEOUT_EXTRAS:
                out.append(Strike(i, extra, label=f"take out disc {i}, {extra} m past the edge"))
        radii = self._radius(ctx.board_x[opponents], ctx.board_y[opponents]) if opponents else np.empty(0)
        near = [opponents[k] for k in np.argsort(radii, kind="stable")[:KERNEL_TARGETS]]
        for i in near:
            out.append(Shot("stick", i, label=f"take out disc {i} and stick"))
            out.append(Shot("roll off", i, label=f"take out disc {i} and roll off"))
            out.append(Shot("roll in", i, label=f"take out disc {i} and roll into the 15"))
            if visibility(ctx, i) < 1.0:
                out.append(Shot("carom", i, label=f"carom onto disc {i}"))
        for a, i in enumerate(near):
            for j in near[a + 1 :]:
                out.append(Shot("double", i, j, label=f"double take-out of discs {i} and {j}"))
        return out

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        """The round as it would score now (own minus opponent's total, the 20s already set aside in
        the round, ``ctx.info["twenties"]``, included; the shot's fouls applied: a shot that hits no
        opponent disc loses itself and the shooter's discs it moved; an open shot must end in or
        touching the 15 line, or in the hole), less what the opponent's next shot is likely to take:
        on a board closed by a disc of the shooter's, the best of them (``NEXT_HIT_RATE`` of its
        value); on a board left open, an open 20 (``NEXT_OPEN20_RATE`` of 20). Nothing is taken when
        the opponent has no shot left in the round."""
        teams = ctx.teams()
        own = np.asarray(teams == ctx.shooter)
        shot = batch.x.shape[1] - 1
        value = batch.value.copy()
        if (~own).any():
            hit = np.asarray(batch.touched[:, ~own].any(axis=1))
            lost = ~hit[:, None] & own[None, :] & (batch.touched | (np.arange(own.size) == shot)[None, :])
            value[lost] = 0
        else:
            holed = batch.status[:, shot] == STATUS_HOLED
            inside = self._radius(batch.x[:, shot], batch.y[:, shot]) <= self.fifteen_reach
            value[~(holed | inside), shot] = 0
        # 20s are set aside at once and cannot be taken; discs on the board can.
        holed_all = batch.status == STATUS_HOLED
        score = (value[:, own].sum(axis=1) - value[:, ~own].sum(axis=1)).astype(np.float64)
        mine, theirs = twenties_of(ctx)
        score += TWENTY * (mine - theirs)
        if ctx.info.get("opponent_shots_left", 0) > 0:
            standing = np.where(own[None, :] & ~holed_all & (value > 0), value, 0)
            closed = standing.max(axis=1) if standing.shape[1] else np.zeros(score.size)
            score -= np.where(closed > 0, NEXT_HIT_RATE * closed, NEXT_OPEN20_RATE * 20.0)
        return score


def crokinole_tactics(court: Court) -> CrokinoleTactics:
    """The court's ``CrokinoleTactics``, made once and kept on the court (they hold only what its
    geometry gives: stances, reaches)."""
    return court.memo("tactics: crokinole", CrokinoleTactics)


class CrokinoleFrame(FramePlay):
    """One round: shooters in seat order; after each shot the hit and open-shot rules (``shot_rulings``)
    set 20s aside and remove fouls and dead discs."""

    game: CrokinoleGame

    def __init__(self, court: Court, tactics: CrokinoleTactics, game: CrokinoleGame):
        super().__init__(court, game.turns(), tactics, game)
        self.twenties = {s: 0 for s in game.sides}
        self.fouls: list[str] = []
        self.shot = 0

    def opponent_shots_left(self, turn: Turn) -> int:
        """Shots still to come in the round (after the current one) by the other side."""
        return sum(1 for later in self.turns_after() if later.team != turn.team)

    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        self.shot = shot + 1
        return self.shot_context(
            turn,
            shot,
            seed,
            game_index,
            self.tactics.stance(turn.end),
            turn.team,
            seat=turn.end,
            opponent_shots_left=self.opponent_shots_left(turn),
            twenties=dict(self.twenties),
            frame=self,
        )

    def after_shot(self, turn: Turn, outcome: ShotOutcome) -> ShotRulings:
        rulings = self.rulings(outcome, turn.team)
        for side, count in rulings.twenties.items():
            self.twenties[side] += count
        if rulings.foul:
            self.fouls.append(f"shot {self.shot} ({turn.team}): {rulings.foul}")
        self.keep(rulings)
        return rulings

    def finish(self, shots: list[ShotRecord]) -> FrameRecord:
        game, first = self.game, self.planned[0]
        frame = score_round(
            Board(self.court, *self.board_arrays(), tuple(self.teams)), twenties=self.twenties, teams=game.sides
        )
        entry = game.record_round(frame, self.twenties)
        return self.record(
            entry.number,
            f"round {entry.number}: {first.team} starts from the {first.end}",
            frame,
            shots,
            score=entry.totals,
            points=entry.points,
            note="; ".join(self.fouls),
            twenties=dict(entry.twenties),
        )


class CrokinolePlay(GamePlay):
    game: CrokinoleGame
    max_frames = MAX_ROUNDS
    frame_play = CrokinoleFrame
    default_court = "crokinole"

    def __init__(self, game: CrokinoleGame, court: Court):
        super().__init__(game, court, crokinole_tactics(court))

    def frames_posted(self) -> int:
        return len(self.game.rounds)

    def roles(self) -> dict[str, str]:
        game = self.game
        return {s: ", ".join(seat for side, _, seat in game.seats if side == s) for s in game.sides}


#: Play a ``CrokinoleGame`` to its end (``GamePlay.play_out``; ``players`` by side name).
play_crokinole_game = CrokinolePlay.play_out


#: Formats ``play_match`` knows beside a number of rounds (``_matches.check_format``).
FORMATS = ("championship",)


def crokinole_options(rounds: int | None) -> CrokinoleOptions:
    return CrokinoleOptions() if rounds is None else CrokinoleOptions(rounds=rounds)


def game_play(seed: int, length: int | None = None, court: Court | None = None) -> CrokinolePlay:
    """A singles game played alone, as ``play`` plays it (A shooting first, 4 rounds or ``length``),
    on ``court`` (default the tournament board), ready for a ``GameDriver``."""
    return CrokinolePlay(CrokinoleGame(SIDES, crokinole_options(length)), court or load_court("crokinole"))


def play_match(request: MatchRequest, championship: bool = False) -> MatchRecord:
    """A singles game of 4 rounds (``request.length`` rounds) on the request's court (default the
    tournament board), A shooting first; a match is the category's number of games (singles: 10),
    the first shooter alternating. A ``championship`` game plays another round while level after its
    rounds, and a championship match is best two of three games (crokinole tournament rules)."""
    length = request.length
    options = CrokinoleOptions(rounds=CrokinoleOptions.rounds if length is None else length, championship=championship)
    if not request.match:
        return single_game(GAME, play_crokinole_game, CrokinoleGame(SIDES, options), request)
    crokinole_match = CrokinoleMatch(SIDES, options)
    games: list[GameRecord] = []
    while not crokinole_match.over:
        game = crokinole_match.next_game()
        games.append(request.play_game(play_crokinole_game, game, len(games) + 1))
        crokinole_match.record_game(game)
    notes = [
        "match points: " + ", ".join(f"{s} {p}" for s, p in crokinole_match.points.items()),
        "20s: " + ", ".join(f"{s} {n}" for s, n in crokinole_match.twenties.items()),
    ]
    return request.record(GAME, games, crokinole_match.winner, dict(crokinole_match.wins), notes)


def named_stances(court: Court) -> list[tuple[str, str, Stance]]:
    """Where a crokinole shooter may shoot from: the shooting arc (the 5 line) in front of each seat
    (position, label, stance)."""
    tactics = crokinole_tactics(court)
    return [(seat, f"{seat} seat (5 line)", tactics.stance(seat)) for seat in SEAT_ANGLES]


#: Where a crokinole shooter may shoot from (the advisor's ``--from``); the first is the default.
POSITIONS = tuple(SEAT_ANGLES)
#: A shot is judged with this many opponent shots still to come in the round (a board left open then
#: invites an open 20; see ``CrokinoleTactics.evaluate``).
ADVICE_OPPONENT_SHOTS = 1


def default_position(board: Board, shooter: str) -> str:
    """The seat a singles player of ``shooter``'s side sits in: the game's first side south, the
    second across the board, north (``rules.crokinole``: the singles seats)."""
    from shuffle_sim.games import get_game

    sides = get_game(GAME).sides
    return "north" if shooter == sides[1] else "south"


def shooter_context(board: Board, shooter: str, position: str) -> ShotContext:
    """What a crokinole shooter sees on ``board`` from the seat ``position`` (the shot advisor)."""
    tactics = crokinole_tactics(board.court)
    return ShotContext.on_board(
        board,
        tactics.stance(position),
        shooter,
        tactics,
        seat=position,
        opponent_shots_left=ADVICE_OPPONENT_SHOTS,
        twenties=dict(board.twenties or {}),
    )
