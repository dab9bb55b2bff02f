"""Deck shuffleboard played shot by shot through the rules layer: tactics, games, the lag, matches.

The driver asks the rules (``rules.deck_game``) who shoots and from where, lets the player choose
and execute a shot in the canonical frame (``deck_engine``: from the head toward the foot
diagram), turns the launch to the real end when the half-round is shot from the foot, runs the
board to rest with the physics kernel at the game's target end (``court.for_end``), and tells the
rules what happened (``DeckHalfRound.after_shot`` with the contacts and the discs killed by the
backstop; ``finish`` after the eighth disc). The fast engine ``deck_engine.deck_games_kernel``
plays fixed-plan games the same way in numba; this driver is its oracle.

``DeckTactics`` is what deck players know: the fixed plan (``deck_engine.deck_plan``), the
candidate shots of the expected-value player (draws to the 10, 8 and 7 spots, take-outs of
opponent discs that score and of own 10-offs, guards in front of own scoring discs, hides behind
discs in front of the triangle), and a shot's value: own minus opponent's points on the court.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.judging import lag_distance
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import judge_prepare
from shuffle_sim.playing._loop import FramePlay, GamePlay, play_game
from shuffle_sim.playing._matches import SIDES, MatchRequest, single_game
from shuffle_sim.playing.deck_engine import (
    COLOUR_CODES,
    MAX_HALF_ROUNDS,
    PLAN_TAKEOUT,
    SPOT_ZONES,
    DeckSetup,
    canonical_values,
    deck_plan,
    deck_setup,
)
from shuffle_sim.playing.players import (
    Draw,
    Guard,
    Hide,
    Intent,
    Launch,
    Player,
    ShotContext,
    Stance,
    TakeOut,
    execute,
    half_turn,
)
from shuffle_sim.playing.records import FrameRecord, GameRecord, MatchRecord, ShotRecord
from shuffle_sim.playing.shooting import ShotOutcome, run_shot, shoot, single_threaded
from shuffle_sim.rules.common import Board, Turn
from shuffle_sim.rules.deck import BLACK, GAME, YELLOW, ShotEffect, score_half_round
from shuffle_sim.rules.deck_game import DeckGame, DeckMatch, DeckOptions
from shuffle_sim.rules.rulings import ShotRulings
from shuffle_sim.shots import ShotBatch

#: Take-out speeds the expected-value player weighs (m of slide to spare past the disc).
TAKEOUT_EXTRAS = (1.5, 3.0)
#: A guard stops this far in front of the disc it guards (m); a hide this far behind its cover.
GUARD_DISTANCE = 1.2
HIDE_DISTANCE = 0.45
#: Game indices of the lag for the third game's colours (one per attempt), apart from the games'.
LAG_GAME_INDEX = 1_000_000


class DeckTactics:
    """Deck tactics in the canonical frame (see the module docstring); ``ctx.info["sign"]`` is the
    shooter's half (+1: +x)."""

    def __init__(self, setup: DeckSetup):
        self.setup = setup
        self.judge_arrays = judge_arrays(setup.court)
        self.prepared = judge_prepare(self.judge_arrays)
        self.dead_line_y = setup.court.line("dead line").geom[1]

    def _codes(self, ctx: ShotContext) -> np.ndarray:
        return np.array([COLOUR_CODES[t] for t in ctx.board_team], dtype=np.int64)

    def plan(self, ctx: ShotContext):
        s = self.setup
        values = np.zeros(ctx.n_discs, dtype=np.int64)
        canonical_values(ctx.board_x, ctx.board_y, ctx.n_discs, self.judge_arrays, self.prepared, values)
        kind, ax, ay, extra, exclude = deck_plan(
            ctx.board_x,
            ctx.board_y,
            self._codes(ctx),
            values,
            ctx.n_discs,
            COLOUR_CODES[ctx.shooter],
            s.spots_for(ctx.info["sign"]),
            s.takeout_extra,
            ctx.radius,
        )
        if kind == PLAN_TAKEOUT:
            return TakeOut(int(exclude), float(extra), label=f"take out disc {int(exclude)}")
        return Draw(float(ax), float(ay), label=self._spot_label(ctx, float(ax), float(ay)))

    def _spot_label(self, ctx: ShotContext, x: float, y: float) -> str:
        spots = self.setup.spots_for(ctx.info["sign"])
        for name, (sx, sy) in zip(SPOT_ZONES[1 if ctx.info["sign"] > 0 else -1], spots):
            if sx == x and sy == y:
                return f"draw to the {name}"
        return "draw"

    def _values(self, ctx: ShotContext) -> np.ndarray:
        from shuffle_sim.judging import judge_batch

        if ctx.n_discs == 0:
            return np.zeros(0, dtype=np.int64)
        return judge_batch(self.setup.court, ctx.board_x, ctx.board_y).value

    def candidates(self, ctx: ShotContext) -> list:
        sign = ctx.info["sign"]
        out: list[Intent] = [
            Draw(float(x), float(y), label=f"draw to the {name}")
            for name, (x, y) in zip(SPOT_ZONES[1 if sign > 0 else -1], self.setup.spots_for(sign))
        ]
        values = self._values(ctx)
        r = ctx.radius
        for i in range(ctx.n_discs):
            own = ctx.board_team[i] == ctx.shooter
            if (not own and values[i] > 0) or (own and values[i] < 0):
                for extra in TAKEOUT_EXTRAS:
                    out.append(TakeOut(i, extra, label=f"take out disc {i} ({values[i]:+d}), {extra} m to spare"))
            if own and values[i] > 0:
                guard = Guard(i, GUARD_DISTANCE, label=f"guard disc {i}")
                if guard.point(ctx)[1] > self.dead_line_y + 2 * r:
                    out.append(guard)
            in_front = ctx.board_y[i] < self.setup.spots[0, 0, 1] - 2 * r
            if in_front:
                hide = Hide(i, HIDE_DISTANCE, label=f"hide behind disc {i}")
                out.append(hide)
        return out

    def opponent_stance(self, ctx: ShotContext) -> Stance:
        """Where the opponent starts: the other half of the same 10-off area (C-3)."""
        return self.setup.stance(-ctx.info["sign"])

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        teams = ctx.teams()
        own = teams == ctx.shooter
        return batch.value[:, own].sum(axis=1) - batch.value[:, ~own].sum(axis=1)


def deck_tactics(setup: DeckSetup) -> DeckTactics:
    """The setup's ``DeckTactics``, made once and kept on the setup (a setup changed with
    ``dataclasses.replace`` is a new one, with tactics of its own)."""
    found = setup.__dict__.get("_tactics")
    if found is None:
        found = DeckTactics(setup)
        object.__setattr__(setup, "_tactics", found)
    return found


def _canonical(setup: DeckSetup, head_target: bool, xs: list[float], ys: list[float]):
    bx = np.array(xs, dtype=np.float64)
    by = np.array(ys, dtype=np.float64)
    if head_target:
        px, py = setup.pivot
        for i in range(bx.size):
            bx[i], by[i] = half_turn(px, py, bx[i], by[i])
    return bx, by


def _to_court(setup: DeckSetup, head_target: bool, launch: Launch) -> Launch:
    if not head_target:
        return launch
    x, y = half_turn(setup.pivot[0], setup.pivot[1], launch.x, launch.y)
    return Launch(launch.t, float(x), float(y), -launch.vx, -launch.vy, launch.omega)


class DeckFrame(FramePlay):
    """One half-round, shot at the game's target end. Players see the board in the canonical frame
    (toward the foot) and their launch is turned to the real end; the rules (``DeckHalfRound``) say
    who shoots, apply each shot's effects (removals, C-20a, penalties) and may end it early."""

    game: DeckGame

    def __init__(self, setup: DeckSetup, tactics: DeckTactics, game: DeckGame):
        self.half = game.half_round()
        self.target = game.target_end()
        self.head_target = self.target == "head"
        super().__init__(setup.court_at(self.target), (), tactics, game)
        self.setup = setup

    def next_turn(self) -> Turn | None:
        return None if self.half.ended else self.half.next_turn()

    def turns_after(self) -> tuple[Turn, ...]:
        half = self.half
        return () if half.ended else tuple(half.turns[half.shots + 1 :])

    def hammer(self) -> str | None:
        return self.half.turns[-1].team

    def seen_board(self) -> tuple[Court, np.ndarray, np.ndarray]:
        """The court toward the diagram the shooters aim at and the board in the canonical frame."""
        return (self.setup.court_toward(self.head_target), *_canonical(self.setup, self.head_target, self.xs, self.ys))

    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        sign = 1 if turn.side == "right" else -1
        assert turn.colour is not None, "a deck turn names its colour"
        return self.shot_context(
            turn, shot, seed, game_index, self.setup.stance(sign), turn.colour, sign=sign, half=self.half
        )

    def shoot(self, turn: Turn, launch: Launch) -> ShotOutcome:
        return run_shot(self.court, self.xs, self.ys, _to_court(self.setup, self.head_target, launch))

    def after_shot(self, turn: Turn, outcome: ShotOutcome) -> ShotRulings:
        assert turn.colour is not None, "a deck turn names its colour"
        rulings = self.rulings(outcome, turn.colour, turn.shot, short_discs=self.game.options.short_discs)
        self.half.record_shot(
            ShotEffect(rulings.remove, rulings.why, rulings.penalty, rulings.ends_frame, rulings.replay)
        )
        self.keep(rulings)
        return rulings

    def finish(self, shots: list[ShotRecord]) -> FrameRecord:
        game, half = self.game, self.half
        board = Board(self.court, *self.board_arrays(), tuple(self.teams))
        if not half.ended:
            half.finish(board)
        entry = half.entry
        assert entry is not None, "a finished half-round has its scoreboard entry"
        notes = [f"{side} {rule} {points}-off" for side, rule, points in entry.penalties]
        if entry.replayed:
            notes.append("half-round replayed")
        return self.record(
            len(game.scoreboard),
            f"half-round {entry.number + 1}: {entry.shooting_end} to {self.target}, {entry.lead} leads",
            score_half_round(board),
            shots,
            score=entry.points,
            points={s: entry.total(s) for s in game.sides},
            end=self.target,
            note="; ".join(notes),
        )


class DeckPlay(GamePlay):
    game: DeckGame
    max_frames = MAX_HALF_ROUNDS

    def __init__(self, game: DeckGame, setup: DeckSetup):
        super().__init__(game, setup.court, deck_tactics(setup))
        self.setup = setup

    def new_frame(self) -> DeckFrame:
        return DeckFrame(self.setup, self.tactics, self.game)

    def roles(self) -> dict[str, str]:
        return {self.game.side_of(YELLOW): YELLOW, self.game.side_of(BLACK): BLACK}


@single_threaded
def play_deck_game(
    game: DeckGame,
    players: Mapping[str, Player],
    seed: int,
    game_index: int = 0,
    court: Court | None = None,
    number: int = 1,
    max_half_rounds: int = MAX_HALF_ROUNDS,
    on_frame: Callable[[FrameRecord], None] | None = None,
    setup: DeckSetup | None = None,
) -> GameRecord:
    """Play ``game`` (a fresh ``DeckGame``) to its end; ``players`` by side name.

    Shot k of the game (counting every disc, replays included) takes its execution errors from the
    noise stream of (``seed``, ``game_index``, k). Stops unfinished after ``max_half_rounds``
    scoreboard lines. ``on_frame`` is called with each frame as it is posted. ``setup`` overrides the
    court's ``DeckSetup``.
    """
    setup = deck_setup(court or load_court("deck")) if setup is None else setup
    return play_game(DeckPlay(game, setup), players, seed, game_index, number, max_half_rounds, on_frame)


def judge_lag(match: DeckMatch, court: Court, first: ShotOutcome, second: ShotOutcome) -> tuple[str | None, str]:
    """The lag's winner (None: lag again) and a note, from the yellow lag shot ``first`` (on an empty
    court) and the black one ``second`` (shot with the yellow disc, if it stayed on the court, as disc 0).

    A disc in the alley loses to one on the court; black touching or moving yellow gives yellow the
    lag wherever both discs end, the alley included (C-2: "If the last black disc shot touches or
    moves the last yellow disc, the color choice goes to the player of yellow")."""
    yellow_on = not first.fallen[0]
    touched = yellow_on and any({c.a, c.b} == {0, 1} for c in second.contacts)
    yellow_xy = (float(second.x[0]), float(second.y[0])) if yellow_on and not second.fallen[0] else None
    black_xy = None if second.fallen[-1] else (float(second.x[-1]), float(second.y[-1]))
    winner = match.decide_lag(court, yellow_xy, black_xy, touched)

    def where(xy):
        return "in the alley" if xy is None else f"{lag_distance(court, *xy):.4f} m"

    if winner is None:
        return None, ("both discs in the alley" if yellow_xy is None and black_xy is None else "a tie") + ", lag again"
    return winner, (
        f"{match.first} (yellow) {where(yellow_xy)}, {match.second} (black) {where(black_xy)}"
        f"{', black touched yellow' if touched else ''}: {winner} wins and takes yellow"
    )


@single_threaded
def play_lag(
    match: DeckMatch, players: Mapping[str, Player], seed: int, court: Court | None = None, attempts: int = 20
) -> tuple[str, list[str]]:
    """Shoot the lag for the third game's colours (C-2) until it has a winner; returns (winner, notes).

    The side with the lower line number (``match.first``) lags with a yellow disc from the right half,
    then the other with black from the left, both from the head toward the far dead line. A disc
    that falls into the alley loses the lag; two such discs lag again. A black disc that touches or
    moves the yellow one gives yellow the lag, wherever the two discs end (C-2; ``deck.lag_winner``).
    """
    setup = deck_setup(court or load_court("deck"))
    tactics = deck_tactics(setup)
    dead_line = setup.court.line("dead line").geom[1]
    notes = []

    def lag_shot(side: str, colour: str, sign: int, index: int, bx: list[float], by: list[float], attempt: int):
        stance = setup.stance(sign)
        ctx = ShotContext(
            court=setup.court,
            stance=stance,
            board_x=np.array(bx),
            board_y=np.array(by),
            board_team=tuple([YELLOW] * len(bx)),
            shooter=colour,
            tactics=tactics,
            seed=seed,
            game_index=LAG_GAME_INDEX + attempt,
            shot=index,
            info={"sign": sign},
        )
        intent = Draw(stance.point(stance.preferred)[0], dead_line, label="lag to the far dead line")
        return shoot(setup.court, bx, by, execute(ctx, intent.aim(ctx), players[side].skill))

    for attempt in range(attempts):
        first = lag_shot(match.first, YELLOW, 1, 0, [], [], attempt)
        on = not first.fallen[0]
        second = lag_shot(
            match.second, BLACK, -1, 1, [float(first.x[0])] if on else [], [float(first.y[0])] if on else [], attempt
        )
        winner, note = judge_lag(match, setup.court, first, second)
        notes.append(f"lag {attempt + 1}: {note}")
        if winner is not None:
            return winner, notes
    raise RuntimeError(f"the lag found no winner in {attempts} attempts")


def deck_options(game_point: int | None, frames: int | None = None) -> DeckOptions:
    """A singles game to ``game_point`` (default 75), or of ``frames`` frames (MSA C-1)."""
    if frames is not None:
        return DeckOptions(frames=frames)
    return DeckOptions() if game_point is None else DeckOptions(game_point=game_point)


#: Formats ``play_match`` knows beside a game point (``_matches.check_format``).
FORMATS = ("frames",)


def game_play(seed: int, length: int | None = None, court: Court | None = None) -> DeckPlay:
    """A game played alone, as ``play`` plays it (A on yellow, to 75 or ``length``), on ``court``
    (default the MSA court), ready for a ``GameDriver``."""
    return DeckPlay(DeckGame(*SIDES, options=deck_options(length)), deck_setup(court or load_court("deck")))


def play_match(request: MatchRequest, frames: int | None = None) -> MatchRecord:
    """A singles game to 75 (``request.length`` another game point; ``frames``: a game of that many
    frames, MSA C-1, the sides switching colours at half way in 24- and 36-frame games) on the
    request's court (default the MSA court), A on yellow; a match is best two of three, A on yellow
    in game 1 and on black in game 2, the third game's colours by a simulated lag (MSA C-1a, C-2; the
    lag winner takes yellow)."""
    seed, court = request.seed, request.court
    options = deck_options(request.length, frames)
    if not request.match:
        return single_game(GAME, play_deck_game, DeckGame(*SIDES, options=options), request)
    deck_match = DeckMatch(*SIDES, options=options)
    games: list[GameRecord] = []
    notes: list[str] = []
    while not deck_match.over:
        if deck_match.needs_lag:
            winner, lag_notes = play_lag(deck_match, request.players, seed, court)
            notes += lag_notes
            deck_match.record_lag(winner, "yellow")
        number = len(games) + 1
        game = deck_match.next_game()
        games.append(request.play_game(play_deck_game, game, number))
        if not game.over:
            notes.append(f"game {number} stopped unfinished: the match has no winner")
            return request.record(GAME, games, None, dict(deck_match.wins), notes)
        deck_match.record_game(game)
    return request.record(GAME, games, deck_match.winner, dict(deck_match.wins), notes)


def named_stances(court: Court) -> list[tuple[str, str, Stance]]:
    """Where a deck shooter may put the disc down, in the court's frame at its scoring end: either half
    of the 10-off area at the other end, seen by the shooter (MSA C-3, C-4), as the players use them:
    (position of ``POSITIONS``, label, stance)."""
    setup = deck_setup(court)
    stances = [
        ("right", "head 10-off, right half", setup.stance(1)),
        ("left", "head 10-off, left half", setup.stance(-1)),
    ]
    if court.end != "head":
        return stances
    px, py = setup.pivot
    turned = []
    for position, name, s in stances:
        x0, y0, x1, y1 = s.geom
        turned.append(
            (
                position,
                name.replace("head 10-off", "foot 10-off"),
                Stance("segment", (2 * px - x0, 2 * py - y0, 2 * px - x1, 2 * py - y1), s.preferred, s.samples),
            )
        )
    return turned


#: The half of the 10-off area a deck shooter shoots from, as the shooter sees it (the advisor's
#: ``--from``); the first is the default.
POSITIONS = ("right", "left")


def default_position(board: Board, shooter: str) -> str:
    """The half of the 10-off area the rules give ``shooter`` on ``board`` (MSA C-3: "Yellow shall always
    be played from the right side of the head of the court, and left side of foot of the court"; black
    the other half), as the shooter sees it. The shooter stands at the end opposite the board's scoring
    end; a team that is neither colour gets the first position."""
    if shooter not in COLOUR_CODES:
        return POSITIONS[0]
    from_head = board.court.end != "head"
    return "right" if (shooter == YELLOW) == from_head else "left"


def shooter_context(board: Board, shooter: str, position: str) -> ShotContext:
    """What a deck shooter sees on ``board`` from the half ``position`` of the 10-off area (the shot
    advisor): the board in the canonical frame, toward the diagram at the board's scoring end."""
    setup = deck_setup(board.court)
    bx, by = _canonical(setup, board.court.end == "head", list(board.x), list(board.y))
    sign = 1 if position == "right" else -1
    court = setup.court_toward(board.court.end == "head")
    return ShotContext(
        court, setup.stance(sign), bx, by, tuple(board.team), shooter, deck_tactics(setup), info={"sign": sign}
    )
