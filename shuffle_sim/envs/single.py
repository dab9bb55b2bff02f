"""One agent against a built-in player: ``ShuffleEnv``, a ``gymnasium.Env`` (``envs.make``).

Each episode is one game of ``play``: the agent plays one side ("A" by default: deck yellow, the
first thrower or shooter elsewhere; ricochet's starter is the coin toss's) and the opponent, any
player ``play --players`` takes, the other. ``step(action)`` plays the agent's shot, then the
opponent's shots until it is the agent's turn again or the game is over.

- action: ``actions.ACTION_FIELDS`` (start, direction, speed, spin) within the game's limits
  (``actions.ActionLimits``), executed under the agent's ``skill`` (a preset of the game or
  ``exact``);
- observation: ``observing.observation`` (the discs, score, frame, shots left, hammer, 20s, stance);
- reward: ``"points"``, the change of the agent's lead (own total less the opponent's) since its
  last shot, so an episode's rewards add up to the final margin; ``"win"``: +1 for a won game, -1
  for a lost one, 0 for a tie, at its end;
- terminated: the game is over by its rules; truncated: it stopped unfinished at the game's frame
  limit;
- info: ``shot`` (``session.ShotLog.to_dict``: the action's launch as meant and as executed, in the
  shot's frame, and the shot's rulings, ``rules.ShotRulings.to_dict``), ``opponent_shots`` (the
  opponent's shots since, alike), ``scores``; ``env.session.shots`` keeps every ``ShotLog``.

Seeds: ``reset(seed=s)`` plays game 0 of seed s (the same game as ``play(game, seed=s)`` with the
same shots); each later ``reset()`` without a seed plays the next game of that seed (noise stream
g, as game g of a match). Without any seed the first one is drawn from the environment's
``np_random``.
"""

from __future__ import annotations

import os

import gymnasium as gym
import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.envs.actions import EnvError
from shuffle_sim.envs.observing import action_space, observation, observation_space, picture
from shuffle_sim.envs.session import GameSession, ShotLog, other
from shuffle_sim.noise import NoiseModel
from shuffle_sim.playing import SIDES
from shuffle_sim.playing.player_names import (
    as_player,
    default_skill,
)
from shuffle_sim.playing.players import (
    Player,
)

REWARDS = ("points", "win")


class GameSeeds:
    """The seed and game index of each episode (see the module docstring)."""

    def __init__(self, seed: int | None):
        self.seed = seed
        self.game_index = -1

    def next(self, seed: int | None, rng: np.random.Generator) -> tuple[int, int]:
        if seed is not None:
            self.seed, self.game_index = int(seed), 0
        elif self.seed is None:
            self.seed, self.game_index = int(rng.integers(2**63)), 0
        else:
            self.game_index += 1
        return self.seed, self.game_index


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise EnvError(f"reward must be one of {', '.join(REWARDS)} (got {reward!r})")
    return reward


def win_reward(session: GameSession, side: str) -> float:
    """+1 for ``side`` winning, -1 losing, 0 for a tie or an unfinished game."""
    winner = session.winner
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)


class ShuffleEnv(gym.Env):
    """One agent against a built-in player (see the module docstring).

    Parameters
    ----------
    game
        ``deck``, ``horse-collar``, ``ricochet`` or ``crokinole``.
    opponent
        Any player ``play --players`` takes ("expert-plan", "top-competitive-ev", a ``Player`` or a
        strategy of one's own); default the game's best skill with the ``ev`` strategy
        ("expert-ev", crokinole "top-competitive-ev").
    skill
        The agent's execution noise: a skill preset of the game, ``exact``, or a ``NoiseModel``
        (default the game's best preset, as the opponent's).
    reward
        ``"points"`` (the change of the agent's lead at each step) or ``"win"`` (+1, -1, 0 at the end).
    seed
        The first game's seed (``reset(seed=...)`` sets another).
    side, game_length, court
        The agent's side ("A" or "B"), the game's length and court, as ``play`` takes them.
    render_mode
        ``"rgb_array"``: ``render()`` returns the court drawing of the frame in play.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}  # noqa: RUF012 (gymnasium's own is an instance variable)

    def __init__(
        self,
        game: str,
        opponent: Player | str | None = None,
        skill: NoiseModel | str | None = None,
        reward: str = "points",
        seed: int | None = None,
        side: str = "A",
        game_length: int | None = None,
        court: Court | str | os.PathLike | None = None,
        render_mode: str | None = None,
    ):
        if side not in SIDES:
            raise EnvError(f"side must be one of {', '.join(SIDES)} (got {side!r})")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise EnvError(f"render_mode must be None or 'rgb_array' (got {render_mode!r})")
        self.game = game
        self.side = side
        self.reward_kind = check_reward(reward)
        self.opponent = as_player(game, f"{default_skill(game)}-ev" if opponent is None else opponent)
        self.skill = skill
        self.game_length = game_length
        self.render_mode = render_mode
        self.seeds = GameSeeds(seed)
        self.court = court
        # The first game, set up here so that the spaces are known and bad arguments fail here.
        self.session = self._session(0 if seed is None else seed, 0)
        self.court = self.session.court  # the court loaded once, for every game
        self.action_space = action_space(self.session)
        self.observation_space = observation_space(self.session.slots, self.session.play.max_frames)
        self._ready = False

    def _session(self, seed: int, game_index: int) -> GameSession:
        players = {self.side: None, other(self.side): self.opponent}
        return GameSession(
            self.game,
            players,
            seed,
            game_index,
            self.game_length,
            self.court,
            {self.side: self.skill} if self.skill is not None else None,
        )

    def _observe(self) -> dict:
        return observation(self.session.view(self.side), self.session.slots)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed, game_index = self.seeds.next(seed, self.np_random)
        self.session = self._session(game_seed, game_index)
        self.session.advance()
        self._margin = self.session.margin(self.side)
        self._ready = True
        return self._observe(), {"seed": game_seed, "game_index": game_index, "scores": self.session.scores}

    def step(self, action):
        if not self._ready:
            raise EnvError("step: call reset() first (a new game after the last one ended)")
        session = self.session
        shot: ShotLog = session.shoot(action)
        done = len(session.shots)
        session.advance()
        terminated, truncated = session.over, session.stopped
        if self.reward_kind == "points":
            margin = session.margin(self.side)
            reward, self._margin = float(margin - self._margin), margin
        else:
            reward = win_reward(session, self.side) if terminated else 0.0
        self._ready = not (terminated or truncated)
        info = {
            "shot": shot.to_dict(),
            "opponent_shots": [log.to_dict() for log in session.shots[done:]],
            "scores": session.scores,
        }
        return self._observe(), reward, terminated, truncated, info

    def render(self):
        if self.render_mode is None:
            return None
        return picture(self.session)
