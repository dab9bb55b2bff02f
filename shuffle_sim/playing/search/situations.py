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
  result, then the game's table (horse collar: the hammer rule; ricochet: the scorer starts next, and
  after a round nobody scores, the round's starter again).

``situation_of(ctx)`` reads a situation from a game in play (``ctx.info["game"]``, set by each
game's frame); ``told_situation.advice_situation`` builds one from what the advisor is told (a
score, the hammer, the frames left). ``describe()`` says a situation in players' words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim.playing.players.context import ShotContext
from shuffle_sim.playing.search.win_tables import win_tables

DECK_DISCS = 8


def _round_points(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    return np.where(mine > theirs, 2, np.where(mine == theirs, 1, 0))


def _count(n: int, what: str) -> str:
    return f"{'no' if n == 0 else n} {what}{'' if n == 1 else 's'}"


def _shots(n: int) -> str:
    return _count(n, "shot")


@dataclass(frozen=True)
class DeckSituation:
    """Before a deck shot: the shooter's and the opponent's scores (by side, as posted), whether the
    shooter's colour leads this half-round, the shot's number in it (1 to 8), the game point, and the
    D-4 extension (half-rounds of it left, this one included; 0 outside one). A game of a number of
    frames (MSA C-1) names them (``frames``; its game point is then unused), the half-rounds
    ``played`` before this one, and whether the sides switch colours at half way (``switch``)."""

    mine: int
    theirs: int
    lead: bool
    shot: int
    game_point: int = 75
    extension_left: int = 0
    frames: int | None = None
    played: int = 0
    switch: bool = False

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

    def _next(self, mine, theirs, next_lead_is_me, extension_left, played):
        """Win probability before a half-round led by ``next_lead_is_me`` with the given scores, after
        ``played`` half-rounds (a game of a number of frames)."""
        tables = win_tables("deck")
        lead_score = np.where(next_lead_is_me, mine, theirs)
        hammer_score = np.where(next_lead_is_me, theirs, mine)
        if extension_left and self.frames:
            variant = "frames-switch" if self.switch else "frames"
            p = tables.deck_extension(lead_score - hammer_score, extension_left, self.frames, variant)
        elif extension_left:
            p = tables.deck_extension(lead_score - hammer_score, extension_left, self.game_point)
        elif self.frames:
            p = tables.deck_frames(lead_score - hammer_score, played, self.frames, self.switch)
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
            out[replay] = self._next(mine[replay], theirs[replay], self.lead, self.extension_left, self.played)
        done = ~replay
        if not done.any():
            return out
        m, t = mine[done], theirs[done]
        played = self.played + 1
        if self.extension_left:
            decided = np.full(m.shape, self.extension_left == 1)  # D-4: the extension's round played out
        elif self.frames:
            decided = np.full(m.shape, played >= self.frames)  # C-1: the last frame played
        else:
            decided = np.maximum(m, t) >= self.game_point  # D-3: game point after a whole half-round
        value = np.empty(m.shape)
        won = decided & (m != t)
        value[won] = (m[won] > t[won]).astype(float)
        tie = decided & (m == t)
        # a tie at game point (or after the last frame, or an extension): one more round, led by this
        # half-round's hammer
        if tie.any():
            value[tie] = self._next(m[tie], t[tie], not self.lead, 2, played)
        going = ~decided
        # C-3c: the hammer leads next; at a switch of colours half way through (C-1), the same side
        switched = bool(self.frames and self.switch and not self.extension_left and played == self.frames // 2)
        next_lead = self.lead if switched else not self.lead
        if going.any():
            value[going] = self._next(m[going], t[going], next_lead, 1 if self.extension_left == 2 else 0, played)
        out[done] = value
        return out

    def describe(self) -> list[str]:
        """The situation in players' words, one fact a line."""
        role = "leads this half-round" if self.lead else "has the hammer (the last shot of the half-round)"
        score = f"score {self.mine}-{self.theirs}, the shooter's first"
        if not self.frames:
            game = f"{score}, in a game to {self.game_point} (MSA D-3)"
        elif self.extension_left:
            game = f"{score}, in a game of {self.frames} frames (MSA C-1)"
        else:
            left = self.frames - self.played - 1
            game = f"{score}, frame {self.played + 1} of {self.frames} (MSA C-1): {_count(left, 'frame')} after it"
            if self.switch and self.played < self.frames // 2:
                game += f", the sides switching colours after frame {self.frames // 2}"
        facts = [game, f"the shooter {role}: shot {self.shot} of {DECK_DISCS}, {_shots(self.later)} after it"]
        if self.extension_left:
            facts.append(
                f"tied at game point, the game plays on (D-4): {self.extension_left} half-rounds left, "
                "this one included"
            )
        return facts

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
    round after this one, the rounds left after this one (0 in a championship game's extra rounds),
    the game's rounds, and whether it is a championship game (level after its rounds, it plays
    another round; crokinole tournament rules)."""

    mine: int
    theirs: int
    twenties_mine: int
    twenties_theirs: int
    hammer: bool
    later: int
    rounds_left: int
    rounds: int = 4
    championship: bool = False

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

    def describe(self) -> list[str]:
        """The situation in players' words, one fact a line."""
        role = "has the hammer (the last shot of the round)" if self.hammer else "shoots first this round"
        tie = "another round, a championship game" if self.championship else "a tie"
        opponent = f", {(self.later + 1) // 2} of them the opponent's" if self.later else ""
        return [
            f"round points {self.mine}-{self.theirs}, the shooter's first; {_count(self.rounds_left, 'round')} "
            f"after this one in a game of {self.rounds} rounds (level after them, {tie})",
            f"the shooter {role}: {_shots(self.later)} after this one{opponent}",
            f"20s set aside this round: the shooter's {self.twenties_mine}, the opponent's {self.twenties_theirs}",
        ]

    @property
    def decided(self) -> bool:
        """True when the game's result no longer depends on this round: losing, tying and winning it
        leave the same win probability (a lead of more than one round with the last round to play)."""
        after = self._after(np.array([0, 1, 2]))
        return bool(np.all(after == after[0]))

    def _after(self, points: np.ndarray) -> np.ndarray:
        """Win probability once the round ends with the shooter's round ``points`` (2/1/0)."""
        lead = self.mine - self.theirs + points - (2 - points)
        if self.rounds_left == 0 and not self.championship:
            return np.where(lead > 0, 1.0, np.where(lead == 0, 0.5, 0.0))
        # singles: the first shot alternates, so the shooter has the hammer next round if it shot
        # first in this one
        return np.asarray(
            win_tables("crokinole").crokinole(lead, self.rounds_left, not self.hammer, self.rounds, self.championship),
            dtype=np.float64,
        )


@dataclass(frozen=True)
class FrameValueSituation:
    """Horse collar or ricochet before a shot: the scores, the game point and the shooter's role
    ``first`` (horse collar: whether the shooter throws first in each pair of frames; ricochet:
    whether the shooter started this round, and so starts the next one if nobody scores it)."""

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

    def describe(self) -> list[str]:
        """The situation in players' words, one fact a line."""
        score = f"score {self.mine}-{self.theirs}, the shooter's first, in a game to {self.game_point}"
        if self.game == "horse-collar":
            role = "first" if self.first else "second, with the hammer"
            return [
                f"{score} (the hammer rule)",
                f"the shooter throws {role} in this pair of frames",
                "the frame is valued as it stands after this shot: the pucks still to come are not played out",
            ]
        return [
            score,
            f"{'the shooter' if self.first else 'the opponent'} started this round",
            "the round is valued as it stands after this shot: the weights still to come are not played out",
        ]

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
        # the ricochet rules: "the player who scored last" starts the next round, so a round nobody
        # scores leaves its starter to start again (``rules.ricochet.RicochetGame.record_round``)
        me_next = (v > 0) | ((v == 0) & self.first)
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
        options = game.options
        if options.frames is not None and options.frames_or_game_point:
            return None  # "frames or game point, whichever first" has no table
        half = ctx.info["half"]
        opponent = game.opponent(me)
        lead = half.turns[0].team == me
        extension_left = 0
        if game._extension_until is not None:
            extension_left = game._extension_until - game.completed
        return DeckSituation(
            game.scores[me],
            game.scores[opponent],
            lead,
            ctx.turn.shot,
            options.game_point,
            extension_left,
            options.frames,
            game.completed,
            options.switches_colours,
        )
    if kind == "CrokinoleGame":
        if game.options.scoring != "points" or game.category.players_per_side != 1:
            return None
        from shuffle_sim.playing.crokinole import twenties_of

        frame = ctx.info["frame"]
        opponent = next(s for s in game.sides if s != me)
        first = frame.planned[0].team
        later = len(frame.turns_after())
        rounds_left = max(game.options.rounds - len(game.rounds) - 1, 0)
        return CrokinoleSituation(
            game.scores[me],
            game.scores[opponent],
            *twenties_of(ctx),
            first != me,
            later,
            rounds_left,
            game.options.rounds,
            game.options.championship,
        )
    if kind == "HorseCollarGame":
        opponent = next(s for s in game.sides if s != me)
        return FrameValueSituation(
            "horse-collar", game.scores[me], game.scores[opponent], game.options.game_point, me == game.sides[0]
        )
    if kind == "RicochetGame":
        if not game.options.scorer_starts:
            return None  # the table follows the rules' default: the scorer starts the next round
        opponent = next(s for s in game.players if s != me)
        return FrameValueSituation(
            "ricochet", game.scores[me], game.scores[opponent], game.options.game_point, game.starter == me
        )
    return None
