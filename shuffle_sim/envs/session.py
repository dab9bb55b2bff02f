"""One game in which some sides are played from outside, a shot at a time: ``GameSession``.

A session is a game of ``play`` (the game module's ``game_play``: the same game flow, court and
coin toss as ``play(game, seed=...)``) driven by the one game loop's ``GameDriver``. The sides
given a ``Player`` are played by it; the others are *external*: an agent, a client of
``shuffle-sim serve``. ``advance`` plays the built-in sides' shots until it is an external side's
turn; ``shoot`` plays that side's action (``actions``), executed under the side's skill with the
shot's own noise draws (``players.execute``: shot k of game g of the seed, as a built-in player's
shot k would be), then the rules (``rules.shot_rulings``) as for every shot. So a session and
``play`` with the same shots and seed play the same game, bit for bit.

``view(side)`` is what a side sees between shots: the board in the shot's frame (the deck's
canonical frame, toward the foot; the court's frame elsewhere), each disc's side, the scores, the
frame, the shots left, the hammer, the 20s set aside and the stance of the shot to play.

A session plays its shots with numba on one thread, as ``play`` does (many tiny kernel calls).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.envs.actions import EnvError, action_launch, action_limits, check_action
from shuffle_sim.games import get_game
from shuffle_sim.noise import NoiseModel
from shuffle_sim.playing import SIDES, GameDriver, GamePlay, PendingShot, check_game_length, check_seed, game_court
from shuffle_sim.playing.player_names import (
    default_skill,
)
from shuffle_sim.playing.players import (
    Decision,
    Launch,
    Launched,
    Player,
    execute,
    find_skill,
)
from shuffle_sim.playing.shooting import one_numba_thread
from shuffle_sim.rules import ShotRulings

#: The player name a shot of an external side is recorded under.
EXTERNAL = "external"


@dataclass(frozen=True)
class ShotLog:
    """One shot of a session: its number in the game, the frame, the side and player, the launch as
    meant and as executed (the shot's frame, as the shooter saw it) and the rulings."""

    number: int
    frame: int
    side: str
    player: str
    intended: Launch
    executed: Launch
    rulings: ShotRulings

    def to_dict(self) -> dict:
        return {
            "shot": self.number,
            "frame": self.frame,
            "side": self.side,
            "player": self.player,
            "intended": _launch_dict(self.intended),
            "executed": _launch_dict(self.executed),
            "rulings": self.rulings.to_dict(),
        }


def _launch_dict(launch: Launch) -> dict:
    return {"t": launch.t, **launch.to_dict()}


@dataclass(frozen=True)
class SideView:
    """What one side sees between shots (see the module docstring); ``x``, ``y`` and ``own`` per disc."""

    x: np.ndarray
    y: np.ndarray
    own: np.ndarray  # bool
    score: tuple[int, int]  # own, opponent's
    frame: int
    shots_left: tuple[int, int]
    hammer: bool
    twenties: tuple[int, int]
    stance: np.ndarray  # (6,): the stance of the shot to play (``Stance.array``); zeros once over
    to_play: str | None  # the side whose shot it is


class GameSession:
    """A game of ``game`` in which ``players`` (by side, "A" and "B") play the sides they name and the
    sides given None are external (see the module docstring).

    ``skills``: an external side's execution noise (a ``NoiseModel`` or a preset name; default the
    game's ``default_skill``). ``seed``, ``game_index``: the game's noise draws (game ``game_index``
    of ``seed``, as game g of a match). ``length``: the game length (``play``'s ``game_length``);
    ``court``: a court of the game (default its own).
    """

    def __init__(
        self,
        game: str,
        players: Mapping[str, Player | None],
        seed: int = 0,
        game_index: int = 0,
        length: int | None = None,
        court: Court | str | os.PathLike | None = None,
        skills: Mapping[str, NoiseModel | str] | None = None,
    ):
        self.game = game
        self.seed = check_seed(seed)
        if set(players) != set(SIDES):
            raise EnvError(f"players: give each of the sides {', '.join(SIDES)} (got {sorted(players)})")
        self.players = dict(players)
        builtin = {side: p for side, p in self.players.items() if p is not None}
        self.court = game_court(game, court, builtin)
        self.length = check_game_length(game, length)
        self.play: GamePlay = get_game(game).play_module().game_play(seed, self.length, self.court)
        self.driver = GameDriver(self.play, seed, game_index, max_frames=self.play.max_frames)
        self.limits = action_limits(game, self.court)
        self.skills = {side: self._skill((skills or {}).get(side)) for side in SIDES if self.players[side] is None}
        self.slots = self.play.frame_discs()
        self.shots: list[ShotLog] = []

    def _skill(self, skill: NoiseModel | str | None) -> NoiseModel:
        if isinstance(skill, NoiseModel):
            return skill
        return find_skill(self.game, default_skill(self.game) if skill is None else skill, "skill")

    # ---- playing ------------------------------------------------------------------------------------

    @property
    def pending(self) -> PendingShot | None:
        """The shot to play next (built-in or external), or None once the game is over."""
        return self.driver.next_shot()

    def external(self, side: str) -> bool:
        return self.players[side] is None

    def player_name(self, side: str) -> str:
        """The name of ``side``'s player (``EXTERNAL`` for an external side)."""
        player = self.players[side]
        return EXTERNAL if player is None else player.name

    def skill(self, side: str) -> NoiseModel:
        """``side``'s execution noise."""
        player = self.players[side]
        return self.skills[side] if player is None else player.skill

    def advance(self) -> PendingShot | None:
        """Play the built-in sides' shots until an external side's turn; returns that shot, or None
        once the game is over."""
        with one_numba_thread():
            while (pending := self.driver.next_shot()) is not None:
                side = pending.turn.team
                player = self.players[side]
                if player is None:
                    return pending
                decision, played = player.play(pending.context)
                self._take(pending, player.name, decision, played)
        return None

    def _external_turn(self) -> PendingShot:
        pending = self.driver.next_shot()
        if pending is None:
            raise EnvError("shot: the game is over")
        side = pending.turn.team
        player = self.players[side]
        if player is not None:
            raise EnvError(f"shot: it is side {side}'s turn, played by {player.name}")
        return pending

    def shoot(self, action) -> ShotLog:
        """Play the pending external side's shot: ``action`` (``actions.ACTION_FIELDS``, clipped to
        the game's limits) under that side's skill. ``EnvError`` when no external side is to play."""
        pending = self._external_turn()
        return self.play_launch(action_launch(pending.context, check_action(action, self.limits)))

    def play_launch(self, intended: Launch, player: str = EXTERNAL) -> ShotLog:
        """Play the pending external side's shot as the launch ``intended`` (in the shot's frame,
        ``Launch.t`` on its stance), under that side's skill: an action's launch, or a replay's."""
        pending = self._external_turn()
        with one_numba_thread():
            played = execute(pending.context, intended, self.skills[pending.turn.team])
            decision = Decision(
                Launched(intended.t, intended.vx, intended.vy, intended.omega, label="action"), intended
            )
            return self._take(pending, player, decision, played)

    def _take(self, pending: PendingShot, player: str, decision: Decision, played: Launch) -> ShotLog:
        frame = self.play.frames_posted() + 1
        rulings = self.driver.take_shot(player, decision, played)
        log = ShotLog(self.driver.shot, frame, pending.turn.team, player, decision.launch, played, rulings)
        self.shots.append(log)
        return log

    # ---- the game's state ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The game has ended by its rules (``terminated``)."""
        return bool(self.play.game.over)

    @property
    def stopped(self) -> bool:
        """The game stopped unfinished at its frame limit (``truncated``)."""
        return not self.over and self.driver.next_shot() is None

    @property
    def scores(self) -> dict[str, int]:
        return {side: int(self.play.game.scores[side]) for side in SIDES}

    @property
    def winner(self) -> str | None:
        return self.play.game.winner

    def margin(self, side: str) -> int:
        """``side``'s score less the other side's."""
        scores = self.scores
        return scores[side] - scores[other(side)]

    def view(self, side: str) -> SideView:
        """What ``side`` sees at this point of the game (see the module docstring)."""
        opponent = other(side)
        scores = self.scores
        pending = self.driver.next_shot()
        frame = self.driver.frame
        if pending is None or frame is None:
            empty = np.empty(0)
            return SideView(
                empty,
                empty,
                np.zeros(0, dtype=bool),
                (scores[side], scores[opponent]),
                self.play.frames_posted(),
                (0, 0),
                False,
                (0, 0),
                np.zeros(6),
                None,
            )
        ctx = pending.context
        shooter_side = pending.turn.team
        labels = ctx.board_team
        own = np.fromiter(((label == ctx.shooter) == (shooter_side == side) for label in labels), bool, len(labels))
        left = {side: 0, opponent: 0}
        left[shooter_side] += 1
        for turn in frame.turns_after():
            left[turn.team] += 1
        return SideView(
            ctx.board_x,
            ctx.board_y,
            own,
            (scores[side], scores[opponent]),
            self.play.frames_posted() + 1,
            (left[side], left[opponent]),
            frame.hammer() == side,
            (frame.twenties.get(side, 0), frame.twenties.get(opponent, 0)),
            ctx.stance.array,
            shooter_side,
        )

    def board(self) -> tuple[Court, list[tuple[float, float, str]], str | None]:
        """The current frame's board in the court's frame for drawing: the court, the discs with their
        rules labels, and the end it scores at (None for a game whose frames have none); the last
        frame's board once the game is over."""
        frame = self.driver.frame
        if frame is not None:
            return self.court, list(zip(frame.xs, frame.ys, frame.teams)), getattr(frame, "target", None)
        if self.driver.frames:
            last = self.driver.frames[-1]
            return self.court, [(d["x"], d["y"], d["team"]) for d in last.board], last.end
        return self.court, [], None


def other(side: str) -> str:
    """The other side."""
    return SIDES[1] if side == SIDES[0] else SIDES[0]
