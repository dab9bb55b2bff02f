"""The one game loop: every game is played by ``play_game`` through the rules' game flow.

A game is a sequence of frames (deck half-rounds, horse collar frames, ricochet and crokinole
rounds); a frame is a sequence of shots. What differs between games lives in two small objects
that each game module provides (``shuffle_sim.playing.deck`` and the others):

- a ``GamePlay``: the rules' game flow (``game``: ``over``, ``winner``, ``scores``), how many frames
  are on the scoreboard, the next frame, and the sides' roles (colours, who throws first);
- a ``FramePlay``: the frame's turns in order (``next_turn``, from the rules), what the shooter sees
  (``context``: stance, board in the shooter's frame, tactics), where the shot runs (``shoot``: the
  court and board the kernel sees), what the rules make of each shot (``after_shot``: removals,
  fouls, penalties) and the frame's record once it is over (``finish``: scoring and recording).

The loop asks the player for its shot, records it (``ShotRecord``), runs it, and posts each frame;
shot k of a game takes its execution errors from noise stream k of (seed, game index), so the same
seed plays the same game bit for bit.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.playing.players import Launch, Player, ShotContext
from shuffle_sim.playing.records import FrameRecord, GameRecord, ShotRecord
from shuffle_sim.playing.shooting import ShotOutcome, shoot
from shuffle_sim.rules.common import Turn


class FramePlay(ABC):
    """One frame in play: a board of resting discs (``xs``, ``ys``, ``teams``) on ``court``.

    Subclasses give ``next_turn``, ``context``, ``after_shot`` and ``finish``; ``shoot`` runs the
    launch on the frame's court from its board as it stands.
    """

    def __init__(self, court: Court):
        self.court = court
        self.xs: list[float] = []
        self.ys: list[float] = []
        self.teams: list[str] = []

    @abstractmethod
    def next_turn(self) -> Turn | None:
        """The next shot of the frame, or None once the frame is over."""
        ...

    @abstractmethod
    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        """What the shooter of ``turn`` sees; ``shot`` counts the game's shots before this one."""
        ...

    def shoot(self, turn: Turn, launch: Launch) -> ShotOutcome:
        """Run ``launch`` from the board as it stands to rest."""
        return shoot(self.court, self.xs, self.ys, launch)

    @abstractmethod
    def after_shot(self, turn: Turn, outcome: ShotOutcome) -> None:
        """Apply the rules to the board at rest after a shot (removals, fouls, penalties)."""
        ...

    @abstractmethod
    def finish(self, shots: list[ShotRecord]) -> FrameRecord:
        """Score the frame, tell the game flow, and return the frame's record."""
        ...

    def keep(self, outcome: ShotOutcome, teams: list[str], remove) -> None:
        """The board after a shot: every disc of ``outcome`` but those in ``remove``."""
        keep = [i for i in range(len(teams)) if i not in remove]
        self.xs = [float(outcome.x[i]) for i in keep]
        self.ys = [float(outcome.y[i]) for i in keep]
        self.teams = [teams[i] for i in keep]

    def board_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.xs), np.array(self.ys)


class GamePlay(ABC):
    """A game in play: the rules' game flow (``game``), its sides, and how to start each frame."""

    #: The rules' game object; each game's subclass names its class.
    game: Any = None
    sides: tuple[str, str]

    def frames_posted(self) -> int:
        """Frames on the game's scoreboard so far."""
        return len(self.game.scoreboard)

    @abstractmethod
    def new_frame(self) -> FramePlay: ...

    @abstractmethod
    def roles(self) -> dict[str, str]:
        """Each side's role in the game as played (colour, throws first, seat), for the scorecard."""
        ...


def play_game(
    play: GamePlay,
    players: Mapping[str, Player],
    seed: int,
    game_index: int = 0,
    number: int = 1,
    max_frames: int = 200,
    on_frame: Callable[[FrameRecord], None] | None = None,
) -> GameRecord:
    """Play ``play`` to its end, or until ``max_frames`` frames are posted (the record is then marked
    unfinished); ``players`` by side name. ``on_frame`` is called with each frame as it is posted."""
    frames: list[FrameRecord] = []
    shot = 0
    while not play.game.over and play.frames_posted() < max_frames:
        frame = play.new_frame()
        shots: list[ShotRecord] = []
        while (turn := frame.next_turn()) is not None:
            ctx = frame.context(turn, shot, seed, game_index)
            player = players[turn.team]
            decision, played = player.play(ctx)
            shot += 1
            shots.append(ShotRecord.of(shot, turn.team, player.name, decision, played))
            frame.after_shot(turn, frame.shoot(turn, played))
        record = frame.finish(shots)
        frames.append(record)
        if on_frame is not None:
            on_frame(record)
    return GameRecord(
        number=number,
        sides=play.sides,
        roles=play.roles(),
        frames=frames,
        totals=dict(play.game.scores),
        winner=play.game.winner,
        finished=play.game.over,
    )
