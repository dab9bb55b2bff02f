"""Two agents taking turns: ``ShuffleAEC``, a PettingZoo AEC environment (``envs.aec_env``).

The agents are the game's sides, "A" and "B", and ``agent_selection`` is the side whose shot it is,
as the game's rules order the shots (deck: the lead alternates, the colours change ends; crokinole:
the seats in turn, the first shooter alternating by round; horse collar: one side throws a whole
frame, the hammer second; ricochet: alternate weights, the round's starter first). Actions,
observations and rewards are ``ShuffleEnv``'s, for each side: ``"points"`` gives every agent, after
every shot, the change of its lead; ``"win"`` +1, -1 or 0 at the end. Once the game is over every
agent is terminated (truncated when it stopped at the frame limit) and steps out with ``None``.
``infos[agent]["shot"]`` is the agent's last shot (``session.ShotLog.to_dict``).
"""

from __future__ import annotations

import os
from typing import ClassVar

import numpy as np
from pettingzoo import AECEnv

from shuffle_sim.court import Court
from shuffle_sim.envs.actions import EnvError
from shuffle_sim.envs.observing import action_space, observation, observation_space, picture
from shuffle_sim.envs.session import GameSession
from shuffle_sim.envs.single import GameSeeds, check_reward, win_reward
from shuffle_sim.noise import NoiseModel
from shuffle_sim.playing import SIDES


class ShuffleAEC(AECEnv):
    """Two agents taking turns at one game (see the module docstring); ``skill`` is both agents'
    execution noise, the other parameters are ``ShuffleEnv``'s."""

    metadata: ClassVar[dict] = {
        "render_modes": ["rgb_array"],
        "name": "shuffle_sim_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str,
        skill: NoiseModel | str | None = None,
        seed: int | None = None,
        reward: str = "points",
        game_length: int | None = None,
        court: Court | str | os.PathLike | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise EnvError(f"render_mode must be None or 'rgb_array' (got {render_mode!r})")
        self.game = game
        self.skill = skill
        self.reward_kind = check_reward(reward)
        self.game_length = game_length
        self.render_mode = render_mode
        self.seeds = GameSeeds(seed)
        self.np_random = np.random.default_rng(seed)
        self.possible_agents = list(SIDES)
        self.court = court
        self.session = self._session(0 if seed is None else seed, 0)
        self.court = self.session.court  # the court loaded once, for every game
        actions = action_space(self.session)
        observations = observation_space(self.session.slots, self.session.play.max_frames)
        self._action_spaces = {agent: actions for agent in self.possible_agents}
        self._observation_spaces = {agent: observations for agent in self.possible_agents}

    def _session(self, seed: int, game_index: int) -> GameSession:
        skills = {side: self.skill for side in SIDES} if self.skill is not None else None
        return GameSession(self.game, dict.fromkeys(SIDES), seed, game_index, self.game_length, self.court, skills)

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def observe(self, agent):
        return observation(self.session.view(agent), self.session.slots)

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        game_seed, game_index = self.seeds.next(seed, self.np_random)
        self.session = self._session(game_seed, game_index)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"seed": game_seed, "game_index": game_index} for agent in self.agents}
        pending = self.session.advance()
        assert pending is not None, "a new game has a first shot"
        self.agent_selection = pending.turn.team
        self._margins = {agent: self.session.margin(agent) for agent in self.agents}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        session = self.session
        shot = session.shoot(action)
        pending = session.advance()
        if self.reward_kind == "points":
            margins = {a: session.margin(a) for a in self.agents}
            self.rewards = {a: float(margins[a] - self._margins[a]) for a in self.agents}
            self._margins = margins
        else:
            ended = session.over
            self.rewards = {a: (win_reward(session, a) if ended else 0.0) for a in self.agents}
        self.infos[agent] = {"shot": shot.to_dict(), "scores": session.scores}
        if pending is None:
            self.terminations = dict.fromkeys(self.agents, session.over)
            self.truncations = dict.fromkeys(self.agents, not session.over)
        else:
            self.agent_selection = pending.turn.team
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        return picture(self.session)

    def close(self):
        """Nothing to release: a game in play holds no files, processes or open figures (PettingZoo
        asks every environment for ``close``)."""
