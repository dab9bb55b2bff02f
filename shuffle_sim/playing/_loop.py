"""The one game loop: every game is played by ``GameDriver`` through the rules' game flow.

A game is a sequence of frames (deck half-rounds, horse collar frames, ricochet and crokinole
rounds); a frame is a sequence of shots. What differs between games lives in two small objects
that each game module provides (``shuffle_sim.playing.deck`` and the others):

- a ``GamePlay``: the rules' game flow (``game``: ``over``, ``winner``, ``scores``), how many frames
  are on the scoreboard, the next frame, and the sides' roles (colours, who throws first);
- a ``FramePlay``: the frame's turns in order (``next_turn``, from the rules), what the shooter sees
  (``context``: stance, board in the shooter's frame, tactics), where the shot runs (``shoot``: the
  court and board the kernel sees), what the rules make of each shot (``after_shot``: the shot's
  rulings, ``rules.shot_rulings``, applied to the frame) and the frame's record once it is over
  (``finish``: scoring and recording).

``GameDriver`` plays one game a shot at a time: ``next_shot`` says whose turn it is and what the
shooter sees (starting frames and posting finished ones on the way), ``take_shot`` records a shot
as played, runs it and applies the rules. ``play_game`` drives it with simulated players; the game
environments (``shuffle_sim.envs``) drive the same object with an agent's shots, so both play by
the same rules flow. Shot k of a game takes its execution errors from noise stream k of (seed,
game index), so the same seed plays the same game bit for bit.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.playing.players import Decision, Launch, Player, ShotContext, Stance
from shuffle_sim.playing.records import FrameRecord, GameRecord, ShotRecord
from shuffle_sim.playing.shooting import ShotOutcome, run_shot, single_threaded
from shuffle_sim.rules import Board, FrameScore, ShotRulings, shot_rulings
from shuffle_sim.rules.common import Turn


class FramePlay(ABC):
    """One frame in play: a board of resting discs (``xs``, ``ys``, ``teams``) on ``court``, its
    shots in the rules' order (``planned``; ``taken`` of them handed out by ``next_turn``) and the
    20s set aside so far by side (``twenties``: crokinole).

    Subclasses give ``context``, ``after_shot`` and ``finish``, and ``next_turn`` where the rules
    decide turn by turn (deck); ``shoot`` runs the launch on the frame's court from its board as it
    stands. ``tactics`` (what the players know of the game) and ``game`` (the rules' game flow) serve
    ``shot_context`` and ``record``, which a subclass's ``context`` and ``finish`` may build on.
    """

    def __init__(self, court: Court, planned: tuple[Turn, ...] = (), tactics: Any = None, game: Any = None):
        self.court = court
        self.xs: list[float] = []
        self.ys: list[float] = []
        self.teams: list[str] = []
        self.planned = planned
        self.taken = 0
        self.twenties: dict[str, int] = {}
        self.tactics = tactics
        self.game = game

    def next_turn(self) -> Turn | None:
        """The next shot of the frame, or None once the frame is over."""
        if self.taken >= len(self.planned):
            return None
        self.taken += 1
        return self.planned[self.taken - 1]

    def turns_after(self) -> tuple[Turn, ...]:
        """The frame's shots still to come after the one being played."""
        return self.planned[self.taken :]

    def hammer(self) -> str | None:
        """The side with the hammer in this frame: the one that shoots its last shot."""
        return self.planned[-1].team if self.planned else None

    @abstractmethod
    def context(self, turn: Turn, shot: int, seed: int, game_index: int) -> ShotContext:
        """What the shooter of ``turn`` sees; ``shot`` counts the game's shots before this one."""
        ...

    def seen_board(self) -> tuple[Court, np.ndarray, np.ndarray]:
        """The court and the board's discs (x, y) as the shooters see them: as they stand."""
        return (self.court, *self.board_arrays())

    def shot_context(
        self, turn: Turn, shot: int, seed: int, game_index: int, stance: Stance, shooter: str, **info
    ) -> ShotContext:
        """What ``shooter`` (the board's label of the shooter of ``turn``) sees from ``stance``: the
        board (``seen_board``), the frame's tactics, the shot's noise draws and, in ``info``, the
        rules' game flow (``"game"``) and the game facts given."""
        court, bx, by = self.seen_board()
        return ShotContext(
            court,
            stance,
            bx,
            by,
            tuple(self.teams),
            shooter,
            self.tactics,
            seed=seed,
            game_index=game_index,
            shot=shot,
            turn=turn,
            info={**info, "game": self.game},
        )

    def shoot(self, turn: Turn, launch: Launch) -> ShotOutcome:
        """Run ``launch`` from the board as it stands to rest."""
        return run_shot(self.court, self.xs, self.ys, launch)

    @abstractmethod
    def after_shot(self, turn: Turn, outcome: ShotOutcome) -> ShotRulings:
        """Apply the shot's rulings (``rulings``) to the frame: removals, 20s, fouls, penalties."""
        ...

    def rulings(self, outcome: ShotOutcome, shooter: str, shot_number: int = 1, **options) -> ShotRulings:
        """The rules' rulings on a shot played on the board as it stands (``rules.shot_rulings``)."""
        before = Board(self.court, np.array(self.xs), np.array(self.ys), tuple(self.teams))
        return shot_rulings(before, outcome, shooter, shot_number, **options)

    @abstractmethod
    def finish(self, shots: list[ShotRecord]) -> FrameRecord:
        """Score the frame, tell the game flow, and return the frame's record."""
        ...

    def record(
        self,
        number: int,
        label: str,
        scored: FrameScore,
        shots: list[ShotRecord],
        score: Mapping[str, int],
        points: Mapping[str, int],
        **more,
    ) -> FrameRecord:
        """The frame's record: its ``score`` and the ``points`` it adds, the game's totals after it,
        the board as the rules scored it (``scored``) and its ``shots``; ``more``: ``FrameRecord``'s
        other fields (end, note, twenties)."""
        return FrameRecord(
            number=number,
            label=label,
            score=dict(score),
            points=dict(points),
            totals=dict(self.game.scores),
            board=[d.to_dict() for d in scored.discs],
            shots=shots,
            **more,
        )

    def keep(self, rulings: ShotRulings) -> None:
        """The board after a shot: every disc the rulings left in play."""
        board = rulings.board
        keep = rulings.kept
        self.xs = [float(board.x[i]) for i in keep]
        self.ys = [float(board.y[i]) for i in keep]
        self.teams = [board.team[i] for i in keep]

    def board_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.xs), np.array(self.ys)


class GamePlay(ABC):
    """A game in play: the rules' game flow (``game``), its sides, the court and the players'
    tactics, and how to start each frame (``frame_play``: the game's ``FramePlay``, made from the
    court, the tactics and the game)."""

    #: The rules' game object; each game's subclass names its class.
    game: Any = None
    sides: tuple[str, str]
    #: A game still going after this many frames stops unfinished.
    max_frames: int = 200
    #: The game's ``FramePlay`` class: ``new_frame`` makes each frame of it from the court, the
    #: tactics and the game.
    frame_play: Callable[..., FramePlay]
    #: The court a game is played on when ``play_out`` is given none (its name).
    default_court: str = ""

    def __init__(self, game: Any, court: Court, tactics: Any = None, sides: Sequence[str] | None = None):
        """``game`` played on ``court`` by ``sides`` (default the game's ``sides``) knowing ``tactics``."""
        self.game = game
        sides = game.sides if sides is None else sides
        self.sides = (sides[0], sides[1])
        self.court = court
        self.tactics = tactics

    @classmethod
    @single_threaded
    def play_out(
        cls,
        game: Any,
        players: Mapping[str, Player],
        seed: int,
        game_index: int = 0,
        court: Court | None = None,
        number: int = 1,
        max_frames: int | None = None,
        on_frame: Callable[[FrameRecord], None] | None = None,
    ) -> GameRecord:
        """Play ``game`` (the rules' game flow) to its end on ``court`` (default ``default_court``),
        ``players`` by side name; shot k of the game uses noise stream k (``play_game``)."""
        play = cls(game, court or load_court(cls.default_court))
        return play_game(play, players, seed, game_index, number, max_frames or cls.max_frames, on_frame)

    def frames_posted(self) -> int:
        """Frames on the game's scoreboard so far."""
        return len(self.game.scoreboard)

    def frame_discs(self) -> int:
        """The most discs a frame's board can hold: its shots (asked before the game is over)."""
        return len(self.game.turns())

    def new_frame(self) -> FramePlay:
        return self.frame_play(self.court, self.tactics, self.game)

    @abstractmethod
    def roles(self) -> dict[str, str]:
        """Each side's role in the game as played (colour, throws first, seat), for the scorecard."""
        ...


@dataclass(frozen=True)
class PendingShot:
    """The shot to play next: its turn and what the shooter sees."""

    turn: Turn
    context: ShotContext


class GameDriver:
    """One game of ``play`` played a shot at a time (see the module docstring).

    Stops after ``max_frames`` frames are posted (the record is then marked unfinished);
    ``on_frame`` is called with each frame as it is posted.
    """

    def __init__(
        self,
        play: GamePlay,
        seed: int,
        game_index: int = 0,
        number: int = 1,
        max_frames: int = 200,
        on_frame: Callable[[FrameRecord], None] | None = None,
    ):
        self.play = play
        self.seed = seed
        self.game_index = game_index
        self.number = number
        self.max_frames = max_frames
        self.on_frame = on_frame
        self.frames: list[FrameRecord] = []
        self.shot = 0  # shots of the game so far
        self.frame: FramePlay | None = None
        self.frame_shots: list[ShotRecord] = []
        self.pending: PendingShot | None = None

    def next_shot(self) -> PendingShot | None:
        """The shot to play next, or None once the game is over (or stopped at ``max_frames``)."""
        while self.pending is None:
            if self.frame is None:
                if self.play.game.over or self.play.frames_posted() >= self.max_frames:
                    return None
                self.frame = self.play.new_frame()
                self.frame_shots = []
            turn = self.frame.next_turn()
            if turn is None:
                self._post_frame()
                continue
            self.pending = PendingShot(turn, self.frame.context(turn, self.shot, self.seed, self.game_index))
        return self.pending

    def _post_frame(self) -> None:
        assert self.frame is not None
        record = self.frame.finish(self.frame_shots)
        self.frames.append(record)
        self.frame = None
        if self.on_frame is not None:
            self.on_frame(record)

    def take_shot(self, player: str, decision: Decision, played: Launch) -> ShotRulings:
        """Record the pending shot as ``player`` meant it (``decision``) and played it (``played``, with
        its execution errors), run it from the board as it stands and apply the rules; returns the
        shot's rulings."""
        pending = self.next_shot()
        if pending is None or self.frame is None:
            raise RuntimeError("take_shot: the game is over")
        self.shot += 1
        self.frame_shots.append(ShotRecord.of(self.shot, pending.turn.team, player, decision, played))
        self.pending = None
        return self.frame.after_shot(pending.turn, self.frame.shoot(pending.turn, played))

    def record(self) -> GameRecord:
        """The game's record as played so far."""
        play = self.play
        return GameRecord(
            number=self.number,
            sides=play.sides,
            roles=play.roles(),
            frames=list(self.frames),
            totals=dict(play.game.scores),
            winner=play.game.winner,
            finished=play.game.over,
        )


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
    driver = GameDriver(play, seed, game_index, number, max_frames, on_frame)
    while (pending := driver.next_shot()) is not None:
        player = players[pending.turn.team]
        decision, played = player.play(pending.context)
        driver.take_shot(player.name, decision, played)
    return driver.record()
