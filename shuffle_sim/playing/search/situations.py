"""Where a game stands before a shot, and what the outcomes of the shot's frame make of it.

A ``Situation`` is the part of the game a searching player needs beyond the board: the two scores,
who has the hammer, how much of the frame and the game is left. ``value(ctx, outcomes)`` turns the
sampled outcomes of a shot (and, where the game has a rollout, of the rest of its frame) into the
shooter's probability of winning the game (``win_tables``), following the rules' game flow:

- deck (``DeckSituation``): the half-round's points (C-20a's 10-off and its replay included), then
  game point, the D-4 tie extension, and the next half-round led by the side that had the hammer
  (C-3c; a replayed half-round by the same side);
- crokinole (``CrokinoleSituation``): the round's totals (with the 20s already set aside in it) make
  round points 2/1/0, then the rounds left and the hammer of the next round (singles players
  alternate the first shot);
- horse collar and ricochet (``FrameValueSituation``): no rollout; the frame as it stands after the
  shot (the game's ``Tactics.evaluate``, the expected-value player's frame value) is taken as its
  result, then the game's table (horse collar: the hammer rule; ricochet: the scorer starts next).

``situation_of(ctx)`` reads a situation from a game in play (``ctx.info["game"]``, set by each
game's frame); ``advice_situation`` builds one from what the advisor is told (a score, the hammer,
the frames left).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim.playing.players.context import PlayerError, ShotContext
from shuffle_sim.playing.search.win_tables import win_tables

DECK_DISCS = 8


def _round_points(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    return np.where(mine > theirs, 2, np.where(mine == theirs, 1, 0))


@dataclass(frozen=True)
class DeckSituation:
    """Before a deck shot: the shooter's and the opponent's scores (by side, as posted), whether the
    shooter's colour leads this half-round, the shot's number in it (1 to 8), the game point, and the
    D-4 extension (half-rounds of it left, this one included; 0 outside one)."""

    mine: int
    theirs: int
    lead: bool
    shot: int
    game_point: int = 75
    extension_left: int = 0

    game = "deck"
    #: The search weighs every shot of the half-round, every candidate (``kr_uct``), with 24,000
    #: simulated shots a decision (a deck shot costs a few microseconds: about 2 s of CPU a game).
    horizon = None
    budget = 24_000
    #: A half-round's points (a 10-off among them) can always change a deck game's result.
    decided = False

    @property
    def later(self) -> int:
        return DECK_DISCS - self.shot

    def _next(self, mine, theirs, next_lead_is_me, extension_left):
        """Win probability before a half-round led by ``next_lead_is_me`` with the given scores."""
        tables = win_tables("deck")
        lead_score = np.where(next_lead_is_me, mine, theirs)
        hammer_score = np.where(next_lead_is_me, theirs, mine)
        if extension_left:
            p = tables.deck(None, None, self.game_point, extension_left, lead_score - hammer_score)
        else:
            p = tables.deck(lead_score, hammer_score, self.game_point)
        return np.where(next_lead_is_me, p, 1.0 - p)

    def after(self, mine_points, theirs_points, replay) -> np.ndarray:
        """The shooter's win probability after the half-round ends with these points (arrays), posted
        or (``replay``) played over (the 10-off posted, the same lead, the same place in the game)."""
        mine = self.mine + np.asarray(mine_points)
        theirs = self.theirs + np.asarray(theirs_points)
        replay = np.asarray(replay, dtype=bool)
        out = np.empty(mine.shape, dtype=np.float64)
        if replay.any():
            out[replay] = self._next(mine[replay], theirs[replay], self.lead, self.extension_left)
        done = ~replay
        if not done.any():
            return out
        m, t = mine[done], theirs[done]
        if self.extension_left == 0:
            decided = np.maximum(m, t) >= self.game_point  # D-3: game point after a whole half-round
        else:
            decided = np.full(m.shape, self.extension_left == 1)  # D-4: the extension's round played out
        value = np.empty(m.shape)
        won = decided & (m != t)
        value[won] = (m[won] > t[won]).astype(float)
        tie = decided & (m == t)
        # a tie at game point (or after an extension): one more round, led by this half-round's hammer
        value[tie] = self._next(m[tie], t[tie], not self.lead, 2)
        going = ~decided
        value[going] = self._next(m[going], t[going], not self.lead, 1 if self.extension_left == 2 else 0)
        out[done] = value
        return out

    def value(self, colour: int, rollout: dict) -> np.ndarray:
        """Win probability per sample from a deck rollout (``deck_rollout.deck_rollouts``); ``colour``:
        the shooter's colour code."""
        points = rollout["points"]
        mine = points[:, colour].astype(np.int64)
        theirs = points[:, 1 - colour].astype(np.int64)
        penalty = rollout["penalty"]
        charged_me = penalty == colour
        charged_them = (penalty >= 0) & ~charged_me
        mine = np.where(charged_me, -10, np.where(charged_them, 0, mine))
        theirs = np.where(charged_them, -10, np.where(charged_me, 0, theirs))
        replay = (penalty >= 0) & ~rollout["last"]
        return self.after(mine, theirs, replay)


@dataclass(frozen=True)
class CrokinoleSituation:
    """Before a crokinole shot: the shooter's and the opponent's game points, the 20s each has set
    aside in this round so far, whether the shooter has the hammer this round, the shots left in the
    round after this one, and the rounds left after this one."""

    mine: int
    theirs: int
    twenties_mine: int
    twenties_theirs: int
    hammer: bool
    later: int
    rounds_left: int
    rounds: int = 4

    game = "crokinole"
    #: The search weighs the round's last shots only (at most ``horizon`` still to come after the shot),
    #: where the round's points are decided, every candidate with 24,000 simulated shots a decision:
    #: some 200 rollouts each at six shots to go (``kr_uct``). Earlier shots are the expected-value
    #: player's.
    horizon = 5
    budget = 24_000

    def value(self, totals: np.ndarray) -> np.ndarray:
        """Win probability per sample from a crokinole rollout (columns: own round total, the
        opponent's, as ``crokinole_rollout.crokinole_rollouts`` returns them)."""
        mine = totals[:, 0] + 20 * self.twenties_mine
        theirs = totals[:, 1] + 20 * self.twenties_theirs
        return self._after(_round_points(mine, theirs))

    @property
    def decided(self) -> bool:
        """True when the game's result no longer depends on this round: losing, tying and winning it
        leave the same win probability (a lead of more than one round with the last round to play)."""
        after = self._after(np.array([0, 1, 2]))
        return bool(np.all(after == after[0]))

    def _after(self, points: np.ndarray) -> np.ndarray:
        """Win probability once the round ends with the shooter's round ``points`` (2/1/0)."""
        lead = self.mine - self.theirs + points - (2 - points)
        if self.rounds_left == 0:
            return np.where(lead > 0, 1.0, np.where(lead == 0, 0.5, 0.0))
        # singles: the first shot alternates, so the shooter has the hammer next round if it shot
        # first in this one
        return np.asarray(
            win_tables("crokinole").crokinole(lead, self.rounds_left, not self.hammer, self.rounds), dtype=np.float64
        )


@dataclass(frozen=True)
class FrameValueSituation:
    """Horse collar or ricochet before a shot: the scores, the game point and the shooter's role
    (horse collar: whether the shooter throws first in each pair of frames; ricochet: unused, the
    shooter's round value decides who starts next)."""

    game: str
    mine: int
    theirs: int
    game_point: int
    first: bool = True

    horizon = None
    budget = 6000
    #: No rollout: the frame is taken as it stands after the shot, with no shots played after it.
    later = 0
    #: A frame can always change the result of a game played to a game point.
    decided = False

    def value(self, frame_value: np.ndarray) -> np.ndarray:
        """Win probability per sample when the frame ends worth ``frame_value`` to the shooter (own
        minus the opponent's points; fractions are interpolated between whole points)."""
        v = np.asarray(frame_value, dtype=np.float64)
        lo = np.floor(v)
        frac = v - lo
        return (1.0 - frac) * self._whole(lo.astype(np.int64)) + frac * self._whole(lo.astype(np.int64) + 1)

    def _whole(self, v: np.ndarray) -> np.ndarray:
        tables = win_tables(self.game)
        if self.game == "horse-collar":
            mine = self.mine + np.maximum(v, 0)
            if self.first:
                return np.asarray(tables.horse_collar(mine, self.theirs, self.game_point, True), dtype=np.float64)
            over = ((mine >= self.game_point) | (self.theirs >= self.game_point)) & (mine != self.theirs)
            p_first = np.asarray(tables.horse_collar(self.theirs, mine, self.game_point, False), dtype=np.float64)
            return np.where(over, (mine > self.theirs).astype(float), 1.0 - p_first)
        mine = self.mine + np.maximum(v, 0)
        theirs = self.theirs + np.maximum(-v, 0)
        won = mine >= self.game_point
        lost = theirs >= self.game_point
        me_next = v >= 0  # the scorer starts the next round (a round nobody scores: assumed the shooter)
        p_me_start = np.asarray(tables.ricochet(mine, theirs, self.game_point), dtype=np.float64)
        p_them_start = 1.0 - np.asarray(tables.ricochet(theirs, mine, self.game_point), dtype=np.float64)
        return np.where(won, 1.0, np.where(lost, 0.0, np.where(me_next, p_me_start, p_them_start)))


Situation = DeckSituation | CrokinoleSituation | FrameValueSituation


def situation_of(ctx: ShotContext):
    """The situation of a game in play (``ctx.info["game"]``: the rules' game object; None without one)."""
    game = ctx.info.get("game")
    if game is None or ctx.turn is None:
        return None
    me = ctx.turn.team
    kind = type(game).__name__
    if kind == "DeckGame":
        if game.options.format != "singles":
            return None
        half = ctx.info["half"]
        opponent = game.opponent(me)
        lead = half.turns[0].team == me
        extension_left = 0
        if game._extension_until is not None:
            extension_left = game._extension_until - game.completed
        return DeckSituation(
            game.scores[me], game.scores[opponent], lead, ctx.turn.shot, game.options.game_point, extension_left
        )
    if kind == "CrokinoleGame":
        if game.options.scoring != "points" or game.category.players_per_side != 1:
            return None
        frame = ctx.info["frame"]
        opponent = next(s for s in game.sides if s != me)
        first = frame.planned[0].team
        later = len(frame.turns_after())
        rounds_left = max(game.options.rounds - len(game.rounds) - 1, 0)
        return CrokinoleSituation(
            game.scores[me],
            game.scores[opponent],
            frame.twenties.get(me, 0),
            frame.twenties.get(opponent, 0),
            first != me,
            later,
            rounds_left,
            game.options.rounds,
        )
    if kind == "HorseCollarGame":
        opponent = next(s for s in game.sides if s != me)
        return FrameValueSituation(
            "horse-collar", game.scores[me], game.scores[opponent], game.options.game_point, me == game.sides[0]
        )
    if kind == "RicochetGame":
        opponent = next(s for s in game.players if s != me)
        return FrameValueSituation("ricochet", game.scores[me], game.scores[opponent], game.options.game_point)
    return None


def advice_situation(
    game: str,
    ctx: ShotContext,
    score: tuple[int, int],
    hammer: bool,
    frames_left: int | None,
    shots_left: int | None = None,
    game_length: int | None = None,
):
    """The situation the advisor is told of: ``score`` (the shooter's, the opponent's), whether the
    shooter has the hammer (the last shot of the frame; horse collar: throws second in each pair),
    ``frames_left`` (crokinole: rounds left after this one; others: unused) and ``shots_left`` in
    the frame after this one (default: the fewest the board allows with that hammer)."""
    mine, theirs = score
    if game == "deck":
        if shots_left is None:
            # shots so far at least the discs on the board; the lead shoots odd shots, the hammer even
            shot = ctx.n_discs + 1
            if (shot % 2 == 0) != hammer:
                shot += 1
            if shot > DECK_DISCS:
                raise PlayerError(
                    f"advise: {ctx.n_discs} discs on the board leave no shot for the {'hammer' if hammer else 'lead'}"
                )
        else:
            shot = DECK_DISCS - shots_left
        return DeckSituation(mine, theirs, not hammer, shot, game_length or 75, 0)
    if game == "crokinole":
        rounds = game_length or 4
        rounds_left = rounds - 1 if frames_left is None else frames_left
        if not 0 <= rounds_left < rounds:
            raise PlayerError(
                f"advise: frames_left must be 0 to {rounds - 1} for a game of {rounds} rounds (got {frames_left!r})"
            )
        if shots_left is None:
            # 16 shots a round, the hammer's on even numbers: the board's discs at least shot so far
            shot = ctx.n_discs + 1
            if (shot % 2 == 0) != hammer:
                shot += 1
            later = max(16 - shot, 0)
        else:
            later = shots_left
        return CrokinoleSituation(mine, theirs, 0, 0, hammer, later, rounds_left, rounds)
    if game == "horse-collar":
        return FrameValueSituation(game, mine, theirs, game_length or 51, not hammer)
    if game == "ricochet":
        return FrameValueSituation(game, mine, theirs, game_length or 15)
    raise PlayerError(f"advise: no win tables for game {game!r}")
