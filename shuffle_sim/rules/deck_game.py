"""Deck shuffleboard game and match flow (MSA rules): who shoots, from where, when it ends.

- Half-rounds: eight discs, alternating colours, the lead colour first. Yellow shoots from the right
  half of the 10-off area at the head and the left half at the foot (C-3), so yellow and black keep
  to their own halves of the court (yellow on +x). The first half-round is shot from the head.
- Singles (walking): both players walk to the other end after each half-round and the colour lead
  changes (C-3c). Doubles: partners stay at opposite ends (player 0 of each side at the head, player 1
  at the foot) and the lead changes only after both ends are played, a round (C-3d).
- Game to 75 (or 50, 100, any agreed number), a fixed number of frames (12, 16, 24, 36), or a number
  of frames or game point, whichever comes first ("12 or 16 frame game or 75"; C-1), a frame being a
  half-round. A game ends after a half-round in which a side is at or over game point and ahead (or
  after the last frame, the higher score winning); all discs of a half-round are played first (D-3).
  A tie at or over game point (or after the last frame) plays on one full round in singles, two in
  doubles, then the higher score wins even below game point; still tied, the same again (D-4). 24-
  and 36-frame games switch colours at half way (C-1; an option for other even frame counts).
- Match: best two of three; the side with the lower line number plays game 1 with yellow, game 2 with
  black, and a lag decides the colour choice for a third game (C-1a, C-2; ``deck.lag_winner``).
- Penalties (``deck_penalties``) are posted with the half-round in which they happen; a compound
  penalty voids the half-round, credits the opponent and replays it -- unless the rule says "unless
  game point has been reached by offender's opponent" (C-10, C-13, C-15, C-18, the second paragraph
  of C-3b) and the opponent has, judged with the credit posted and the half-round's earlier penalties
  taken. The first paragraph of C-3b (a live
  disc touched after shooting the opponent's disc) is always played over. C-20a (``deck.shot_effect``) replays the
  half-round with 10-off to the shooter; on the eighth disc there is no replay and the 10-off is the
  only score of the half-round.

Points are named by colour, as they come off the court; the scoreboard and totals are by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from shuffle_sim.rules.common import Board, FrameScore, RulesError, Turn, check_choice, check_int, check_side_names
from shuffle_sim.rules.deck import (
    BLACK,
    COLOURS,
    DISCS_PER_HALF_ROUND,
    SHORT_DISC_OPTIONS,
    YELLOW,
    ShotEffect,
    lag_winner,
    other_colour,
    score_half_round,
    shot_effect,
)
from shuffle_sim.rules.deck_penalties import PenaltyAssessment, assess

FORMATS = ("singles", "doubles")
ENDS = ("head", "foot")
#: Half-rounds played on after a tie at game point (D-4): one full round in singles, two in doubles.
TIE_EXTENSION = {"singles": 2, "doubles": 4}


#: Fixed-frame games whose sides switch colours at half way unless told otherwise (C-1: "One single
#: 24 or 36 frame game with teams switching colors at the half way point").
SWITCH_AT_HALF_FRAMES = (24, 36)


@dataclass(frozen=True)
class DeckOptions:
    """Settings of a deck game (C-1).

    ``frames`` set: a fixed number of frames (half-rounds) instead of ``game_point``; with
    ``frames_or_game_point`` as well, whichever comes first ("12 or 16 frame game or 75").
    ``switch_colours_at_half``: the sides swap colours after half the frames; None (the default)
    follows C-1: on for 24- and 36-frame games, off otherwise.
    """

    format: str = "singles"
    game_point: int = 75
    frames: int | None = None
    short_discs: str = "removed"
    switch_colours_at_half: bool | None = None
    frames_or_game_point: bool = False

    def __post_init__(self) -> None:
        check_choice(self.format, "format", FORMATS)
        check_int(self.game_point, "game_point", minimum=1)
        if self.frames is not None:
            check_int(self.frames, "frames", minimum=1)
        check_choice(self.short_discs, "short_discs", SHORT_DISC_OPTIONS)
        if self.switch_colours_at_half is not None and not isinstance(self.switch_colours_at_half, bool):
            raise RulesError(
                f"switch_colours_at_half must be true, false or None (got {self.switch_colours_at_half!r})"
            )
        if self.switch_colours_at_half and (self.frames is None or self.frames % 2):
            raise RulesError(f"switch_colours_at_half needs an even number of frames (got frames={self.frames!r})")
        if not isinstance(self.frames_or_game_point, bool):
            raise RulesError(f"frames_or_game_point must be true or false (got {self.frames_or_game_point!r})")
        if self.frames_or_game_point and self.frames is None:
            raise RulesError("frames_or_game_point needs a number of frames (got frames=None)")

    @property
    def switches_colours(self) -> bool:
        """Whether the sides swap colours at half way (C-1)."""
        if self.switch_colours_at_half is not None:
            return self.switch_colours_at_half
        return self.frames in SWITCH_AT_HALF_FRAMES

    @property
    def plays_to_game_point(self) -> bool:
        """Whether game point ends the game (a game to points, or frames or points, whichever first)."""
        return self.frames is None or self.frames_or_game_point


@dataclass(frozen=True)
class HalfRoundEntry:
    """One line of the scoreboard: a half-round's points and penalties, by side."""

    number: int  # 0-based half-round index; a replay has the same number as the half-round it replays
    shooting_end: str
    lead: str
    points: dict[str, int]
    penalties: tuple[tuple[str, str, int], ...] = ()  # (side, rule, points off)
    replayed: bool = False

    def total(self, side: str) -> int:
        return self.points.get(side, 0) - sum(p for s, _, p in self.penalties if s == side)


class DeckGame:
    """One deck game between two sides, starting with ``yellow`` on yellow."""

    def __init__(self, yellow: str = "A", black: str = "B", options: DeckOptions = DeckOptions()):
        self.sides = check_side_names((yellow, black))
        self.options = options
        self._side_of = {YELLOW: yellow, BLACK: black}
        self.scores = {yellow: 0, black: 0}
        self.scoreboard: list[HalfRoundEntry] = []
        self.completed = 0  # half-rounds completed (replays not counted)
        self.over = False
        self.winner: str | None = None
        self._extension_until: int | None = None

    # ---- who shoots and from where -------------------------------------------------------------
    def side_of(self, colour: str) -> str:
        return self._side_of[check_choice(colour, "colour", COLOURS)]

    def colour_of(self, side: str) -> str:
        for colour, s in self._side_of.items():
            if s == side:
                return colour
        raise RulesError(f"side must be one of {', '.join(self.sides)} (got {side!r})")

    def opponent(self, side: str) -> str:
        return self.side_of(other_colour(self.colour_of(side)))

    def shooting_end(self) -> str:
        return ENDS[self.completed % 2]

    def target_end(self) -> str:
        return ENDS[1 - self.completed % 2]

    def lead_colour(self) -> str:
        """Yellow leads the first half-round; C-3c (singles) and C-3d (doubles) say when it changes."""
        period = 1 if self.options.format == "singles" else 2
        return COLOURS[(self.completed // period) % 2]

    def turns(self) -> tuple[Turn, ...]:
        """The eight shots of the next half-round, in order."""
        self._check_not_over()
        end = self.shooting_end()
        lead = self.lead_colour()
        player = 0 if self.options.format == "singles" or end == "head" else 1
        turns = []
        for k in range(DISCS_PER_HALF_ROUND):
            colour = lead if k % 2 == 0 else other_colour(lead)
            # C-3: yellow right at the head, left at the foot; black the other half.
            side = "right" if (colour == YELLOW) == (end == "head") else "left"
            turns.append(Turn(team=self.side_of(colour), player=player, shot=k + 1, end=end, side=side, colour=colour))
        return tuple(turns)

    def half_round(self) -> DeckHalfRound:
        """A tracker for the next half-round, shot by shot (see ``DeckHalfRound``)."""
        self._check_not_over()
        return DeckHalfRound(self)

    # ---- recording -----------------------------------------------------------------------------
    def record_half_round(
        self,
        points: Mapping[str, int] | FrameScore | None,
        penalties: Iterable[PenaltyAssessment] = (),
        replay: bool = False,
    ) -> HalfRoundEntry:
        """Post a half-round: ``points`` by colour (or a ``FrameScore`` of a colour-labelled board), and
        the penalties assessed during it (offenders named by colour).

        With a compound penalty, ``points`` must be None: the board is voided and the penalty's credit
        is the opponent's score; the half-round is then replayed, unless the rule has the game-point
        exception (C-10, C-13, C-15, C-18, C-3b.2) and the offender's opponent has reached game point
        (with the credit posted, and the penalties already taken in the half-round by either side). The first paragraph
        of C-3b is always replayed. ``replay=True`` posts only the penalties (C-20a) and replays the half-round.
        """
        self._check_not_over()
        penalties = tuple(penalties)
        compound = [p for p in penalties if p.compound]
        if len(compound) > 1:
            raise RulesError("penalties: a half-round ends at its first compound penalty (got more than one)")
        if isinstance(points, FrameScore):
            points = points.scores
        if compound and points is not None:
            raise RulesError("points: a compound penalty voids the half-round's discs; pass points=None")
        by_side = {s: 0 for s in self.sides}
        for colour, value in (points or {}).items():
            by_side[self.side_of(colour)] += check_int(value, f"points[{colour!r}]")
        posted = []
        for p in penalties:
            offender = self.side_of(p.offender)
            posted.append((offender, p.rule, p.points_off))
            if p.credit:
                by_side[self.opponent(offender)] += p.credit
        if compound:
            # "Unless game point has been reached by offender's opponent": the opponent's score with
            # everything of this half-round posted, the credit and the penalties already taken by
            # either side (the opponent's own 5- and 10-offs included).
            opponent = self.opponent(self.side_of(compound[0].offender))
            taken = sum(points_off for side, _, points_off in posted if side == opponent)
            reached = (
                self.game_point_applies()
                and self.scores[opponent] + by_side[opponent] - taken >= self.options.game_point
            )
            replay = replay or not (compound[0].game_point_exception and reached)
        entry = HalfRoundEntry(
            number=self.completed,
            shooting_end=self.shooting_end(),
            lead=self.lead_colour(),
            points=by_side,
            penalties=tuple(posted),
            replayed=bool(replay),
        )
        self.scoreboard.append(entry)
        for s in self.sides:
            self.scores[s] += entry.total(s)
        if not replay:
            self.completed += 1
            self._after_half_round()
        return entry

    def game_point_applies(self) -> bool:
        """Whether reaching game point ends the game (``DeckOptions.plays_to_game_point``)."""
        return self.options.plays_to_game_point

    def _after_half_round(self) -> None:
        o = self.options
        if o.switches_colours and o.frames is not None and self.completed == o.frames // 2:
            self._side_of = {YELLOW: self._side_of[BLACK], BLACK: self._side_of[YELLOW]}
        a, b = (self.scores[s] for s in self.sides)
        extension = TIE_EXTENSION[o.format]
        if self._extension_until is not None:
            decide = self.completed >= self._extension_until
        else:
            # C-1: a number of frames, a game point, or both ("12 or 16 frame game or 75"): whichever first.
            decide = (o.frames is not None and self.completed >= o.frames) or (
                o.plays_to_game_point and max(a, b) >= o.game_point
            )
        if not decide:
            return
        if a != b:
            self.over = True
            self.winner = self.sides[0] if a > b else self.sides[1]
        else:
            self._extension_until = self.completed + extension

    def _check_not_over(self) -> None:
        if self.over:
            raise RulesError(f"the game is over (won by {self.winner})")


class DeckHalfRound:
    """One half-round shot by shot: turns, removals after each shot, penalties, and the posting.

    Boards given to it are at the game's target end and labelled by colour. The half-round ends after
    the eighth shot (``finish``), at a compound penalty, or at a C-20a contact (``after_shot``);
    ``entry`` then holds the posted scoreboard line.
    """

    def __init__(self, game: DeckGame):
        self.game = game
        self.turns = game.turns()
        self.shots = 0
        self.penalties: list[PenaltyAssessment] = []
        self.entry: HalfRoundEntry | None = None

    @property
    def ended(self) -> bool:
        return self.entry is not None

    def next_turn(self) -> Turn | None:
        if self.ended or self.shots >= DISCS_PER_HALF_ROUND:
            return None
        return self.turns[self.shots]

    def after_shot(self, board: Board, contacts: Iterable = (), killed: Iterable[int] = ()) -> ShotEffect:
        """Apply a shot's outcome: removals at once and C-20a (penalty to the shooter, replay or end)."""
        turn = self.next_turn()
        if turn is None:
            raise RulesError("after_shot: the half-round has no shot left to play")
        return self.record_shot(shot_effect(board, turn.shot, contacts, killed, self.game.options.short_discs))

    def record_shot(self, effect: ShotEffect) -> ShotEffect:
        """Post the current shot whose effect is known (``shot_effect``, or ``rules.rulings``'s):
        C-20a charges the shooter and replays or ends the half-round."""
        turn = self.next_turn()
        if turn is None:
            raise RulesError("record_shot: the half-round has no shot left to play")
        self.shots += 1
        if effect.penalty is not None:
            assert turn.colour is not None, "a deck turn names its colour"
            charge = assess(effect.penalty, turn.colour)
            if effect.replay:
                self.entry = self.game.record_half_round(None, [*self.penalties, charge], replay=True)
            else:  # the eighth disc: no replay, the 10-off is the only score (C-20a)
                self.entry = self.game.record_half_round({}, [*self.penalties, charge])
        return effect

    def penalize(self, rule: str, offender: str, board: Board | None = None, **kwargs) -> PenaltyAssessment:
        """Assess a table I penalty on ``offender`` (a colour); a compound one ends the half-round."""
        if self.ended:
            raise RulesError("penalize: the half-round has ended")
        charge = assess(rule, offender, board, **kwargs)
        if charge.compound:
            self.entry = self.game.record_half_round(None, [*self.penalties, charge])
        else:
            self.penalties.append(charge)
        return charge

    def foul_shot(
        self, rule: str, board: Board | None = None, live_disc_touched: bool = True, displaced: Iterable[int] = ()
    ) -> PenaltyAssessment:
        """The shot of the current turn was a foul of the shot itself (table I): the shooter played the
        opponent's disc (C-3b) or his own from the opponent's half (C-3b.2). ``board``: the discs on
        the court before that shot (a compound penalty credits the opponent's good discs on it).

        - A live disc touched: the compound penalty; the half-round ends (``penalize``).
        - C-3b, no live disc touched: 10-off, "opponent's disc shall be returned to the starting
          position and play continued as before the infraction": the shot is as if not played, so the
          turn is not used and the same shooter shoots next, now with his own disc (the half-round
          "is not complete until the 8th disc has been shot by the correct player"). The caller
          keeps the board as it was before the shot.
        - C-3b.2, no live disc touched: 10-off, "that disc is removed from court and play
          continues": the turn is used; the next shooter follows. So with the other penalties of a
          shot that take the shot disc off (C-4c, C-17: ``displaced`` as ``assess`` takes it).
        """
        turn = self.next_turn()
        if turn is None:
            raise RulesError("foul_shot: the half-round has no shot left to play")
        assert turn.colour is not None, "a deck turn names its colour"
        charge = self.penalize(rule, turn.colour, board, live_disc_touched=live_disc_touched, displaced=displaced)
        if not charge.compound and not charge.return_shot_disc:
            self.shots += 1
        return charge

    def finish(self, board: Board) -> HalfRoundEntry:
        """Score the resting discs after the eighth shot and post the half-round with its penalties."""
        if self.ended:
            raise RulesError("finish: the half-round has already been posted")
        if self.shots != DISCS_PER_HALF_ROUND:
            raise RulesError(f"finish: {self.shots} of {DISCS_PER_HALF_ROUND} discs played; all are played (D-3)")
        frame = score_half_round(board, self.game.options.short_discs)
        self.entry = self.game.record_half_round(frame, self.penalties)
        return self.entry


@dataclass
class DeckMatch:
    """A match: best two of three games (``games_to_win=2``) or one game (``games_to_win=1``).

    ``first`` is the side with the lower line number: yellow in game 1, black in game 2; the colour
    choice for game 3 goes to the winner of a lag (C-1a, C-2). ``forfeit`` ends the match (C-25).
    """

    first: str = "A"
    second: str = "B"
    options: DeckOptions = field(default_factory=DeckOptions)
    games_to_win: int = 2

    def __post_init__(self) -> None:
        self.sides = check_side_names((self.first, self.second))
        check_int(self.games_to_win, "games_to_win", allowed=(1, 2))
        self.games: list[DeckGame] = []
        self.wins = {self.first: 0, self.second: 0}
        self.over = False
        self.winner: str | None = None
        self.forfeited_by: str | None = None
        self._current: DeckGame | None = None
        self._lag_choice: tuple[str, str] | None = None  # (lag winner, colour chosen)

    @property
    def needs_lag(self) -> bool:
        """Whether the next game is a third game whose colours are not yet chosen by a lag."""
        return not self.over and len(self.games) == 2 and self._lag_choice is None

    def decide_lag(
        self, court, yellow_xy, black_xy, black_touched_yellow: bool = False, yellow_side: str | None = None
    ) -> str | None:
        """Judge the lag (``deck.lag_winner``); returns the winning side, or None on a tie (lag again).
        A disc that went into the alley is None; black touching yellow gives yellow the lag wherever
        the discs end (C-2)."""
        yellow_side = self.first if yellow_side is None else yellow_side
        black_side = self.second if yellow_side == self.first else self.first
        result = lag_winner(court, yellow_xy, black_xy, black_touched_yellow)
        return None if result is None else (yellow_side, black_side)[result]

    def record_lag(self, winner: str, colour: str) -> None:
        """The lag winner's colour choice for the third game (C-1a)."""
        if not self.needs_lag:
            raise RulesError("record_lag: a lag decides colours only before a third game")
        if winner not in self.sides:
            raise RulesError(f"winner must be one of {', '.join(self.sides)} (got {winner!r})")
        self._lag_choice = (winner, check_choice(colour, "colour", COLOURS))

    def next_game(self) -> DeckGame:
        if self.over:
            raise RulesError(f"the match is over (won by {self.winner})")
        if self._current is not None:
            return self._current
        n = len(self.games)
        if n < 2:
            yellow = self.first if n == 0 else self.second
        else:
            if self._lag_choice is None:
                raise RulesError("next_game: the third game's colours are decided by a lag first (record_lag)")
            winner, colour = self._lag_choice
            loser = self.second if winner == self.first else self.first
            yellow = winner if colour == YELLOW else loser
        black = self.second if yellow == self.first else self.first
        self._current = DeckGame(yellow=yellow, black=black, options=self.options)
        return self._current

    def record_game(self, game: DeckGame) -> None:
        if game is not self._current:
            raise RulesError("record_game: record the game returned by next_game")
        if not game.over:
            raise RulesError("record_game: the game is not over")
        self.games.append(game)
        self._current = None
        assert game.winner is not None, "a deck game is over only with a winner"
        self.wins[game.winner] += 1
        if self.wins[game.winner] >= self.games_to_win:
            self.over = True
            self.winner = game.winner

    def forfeit(self, side: str) -> None:
        """``side`` forfeits (C-24, C-25): the other side wins the match."""
        if side not in self.sides:
            raise RulesError(f"side must be one of {', '.join(self.sides)} (got {side!r})")
        self.over = True
        self.forfeited_by = side
        self.winner = self.second if side == self.first else self.first
        self._current = None
