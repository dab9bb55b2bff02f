"""The game environments: gymnasium's and PettingZoo's own checkers, whole games by a random agent,
determinism, and the same game as ``play`` for the same shots and seed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from shuffle_sim import envs, play
from shuffle_sim.envs.actions import EnvError, action_launch, check_action
from shuffle_sim.playing.players import Decision, Launched

from .conftest import GAMES, PLAN, SHORT, scripted_actions


@pytest.mark.filterwarnings("ignore:.*(normalized|spec).*:UserWarning")
@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checks_the_environment(game):
    env = envs.make(game, seed=3, render_mode="rgb_array")  # the default opponent: the game's best -ev
    check_env(env, skip_render_check=False)
    env.reset(seed=3)
    picture = env.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8


@pytest.mark.filterwarnings("ignore:.*(NumPy array|spaces.box|player_0).*:UserWarning")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_checks_the_aec_environment(game):
    api_test(envs.aec_env(game, seed=3), num_cycles=30)


def random_games(env, games: int, seed: int) -> list[tuple[bool, bool, dict]]:
    rng = np.random.default_rng(seed)
    low, high = env.action_space.low, env.action_space.high
    ends = []
    env.reset(seed=seed)
    while len(ends) < games:
        obs, _, terminated, truncated, info = env.step(rng.uniform(low, high).astype(np.float32))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            ends.append((terminated, truncated, info["scores"]))
            env.reset()
    return ends


@pytest.mark.parametrize("game", GAMES)
def test_a_random_agent_plays_whole_games_to_their_end(game):
    env = envs.make(game, opponent=PLAN[game], game_length=SHORT[game])
    ends = random_games(env, 3, seed=11)
    assert all(terminated and not truncated for terminated, truncated, _ in ends)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_random_agent_plays_a_hundred_whole_games(game):
    env = envs.make(game, opponent=PLAN[game])
    ends = random_games(env, 100, seed=5)
    assert all(terminated and not truncated for terminated, truncated, _ in ends)


def test_points_rewards_add_up_to_the_final_margin_and_win_rewards_to_the_result():
    for reward in ("points", "win"):
        env = envs.make("crokinole", opponent=PLAN["crokinole"], reward=reward, seed=2, game_length=2)
        rng = np.random.default_rng(0)
        env.reset(seed=2)
        total, done = 0.0, False
        while not done:
            _, r, terminated, truncated, info = env.step(rng.uniform(env.action_space.low, env.action_space.high))
            total += r
            done = terminated or truncated
        scores = info["scores"]
        margin = scores["A"] - scores["B"]
        assert total == (margin if reward == "points" else np.sign(margin))


@pytest.mark.parametrize("game", ("deck", "ricochet"))
def test_the_same_seed_and_actions_play_the_same_game(game):
    def run():
        env = envs.make(game, opponent=PLAN[game], seed=7, game_length=SHORT[game])
        obs, _ = env.reset(seed=7)
        trace = [obs]
        for action in scripted_actions(env.action_space.low, env.action_space.high, 1, 12):
            obs, reward, terminated, truncated, info = env.step(action)
            trace.append((obs, reward, info))
            if terminated or truncated:
                break
        return trace, [log.to_dict() for log in env.session.shots]

    (first, shots_a), (second, shots_b) = run(), run()
    assert shots_a == shots_b
    assert repr(first) == repr(second)


def test_later_games_of_a_seed_differ_and_a_seed_replays_them():
    env = envs.make("crokinole", opponent=PLAN["crokinole"], game_length=1)
    _, info = env.reset(seed=4)
    assert (info["seed"], info["game_index"]) == (4, 0)
    _, info = env.reset()
    assert (info["seed"], info["game_index"]) == (4, 1)
    _, info = env.reset(seed=4)
    assert info["game_index"] == 0


class Scripted:
    """A player of one's own that plays a fixed list of actions, as an agent in the environment does."""

    name = "scripted"

    def __init__(self, game, actions):
        self.game = game
        self.actions = iter(actions)

    def choose(self, ctx, skill):
        limits = envs.action_limits(self.game, ctx.court)
        launch = action_launch(ctx, check_action(next(self.actions), limits))
        return Decision(Launched(launch.t, launch.vx, launch.vy, launch.omega, label="action"), launch)


def _as_played(game_record) -> list[dict]:
    """A game's frames as played: boards, scores and every shot's executed launch."""
    frames = []
    for frame in game_record.to_dict()["frames"]:
        frame["shots"] = [(s["shot"], s["team"], s["launch"]) for s in frame["shots"]]
        frames.append(frame)
    return frames


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("side", ("A", "B"))
def test_the_environment_plays_the_game_play_plays_for_the_same_shots_and_seed(game, side):
    env = envs.make(game, opponent=PLAN[game], seed=9, side=side, game_length=SHORT[game])
    actions = scripted_actions(env.action_space.low.astype(float), env.action_space.high.astype(float), 3)
    env.reset(seed=9)
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    assert terminated
    players = [Scripted(game, actions), PLAN[game]]
    record = play(game, players=players if side == "A" else players[::-1], seed=9, game_length=SHORT[game])
    played = record.games[0]
    by_env = env.session.driver.record()
    assert _as_played(by_env) == _as_played(played)
    assert (by_env.totals, by_env.winner) == (played.totals, played.winner)


def test_bad_arguments_and_actions_are_named():
    with pytest.raises(ValueError, match="reward must be one of points, win"):
        envs.make("deck", opponent="expert-plan", reward="goals")
    with pytest.raises(ValueError, match="side must be one of A, B"):
        envs.make("deck", opponent="expert-plan", side="C")
    with pytest.raises(ValueError, match="skill: unknown skill 'wizard' for deck"):
        envs.make("deck", opponent="expert-plan", skill="wizard")
    env = envs.make("deck", opponent="expert-plan", seed=1)
    with pytest.raises(EnvError, match="call reset"):
        env.step(env.action_space.sample())
    env.reset()
    with pytest.raises(EnvError, match="action must be four numbers"):
        env.step([0.5, 0.0])
    with pytest.raises(EnvError, match="action speed must be a finite number"):
        env.step([0.5, 0.0, float("nan"), 0.0])


def test_an_action_means_the_launch_it_names_and_a_blocked_start_moves_along_the_stance():
    from shuffle_sim.envs.actions import launch_action

    env = envs.make("crokinole", opponent=PLAN["crokinole"], seed=1, game_length=1)
    env.reset(seed=1)
    ctx = env.session.pending.context
    action = check_action([0.3, 0.2, 0.9, 1.5], env.session.limits)
    launch = action_launch(ctx, action)
    assert np.allclose(launch_action(ctx, launch), action)
    assert np.isclose(launch.speed, 0.9)
    # straight ahead on the shooting arc is toward the board's centre
    straight = action_launch(ctx, check_action([0.3, 0.0, 1.0, 0.0], env.session.limits))
    inward = -np.array([straight.x, straight.y]) / np.hypot(straight.x, straight.y)
    assert np.allclose([straight.vx, straight.vy], inward)
    # a disc resting where the start is asked for: the start moves to the nearest free point
    x, y = ctx.stance.point(0.3)
    blocked = replace(ctx, board_x=np.array([x]), board_y=np.array([y]), board_team=("B",))
    moved = action_launch(blocked, action)
    assert moved.t != 0.3
    assert np.hypot(moved.x - x, moved.y - y) >= 2 * ctx.court.disc_radius
    assert np.hypot(moved.x - x, moved.y - y) < 2.1 * ctx.court.disc_radius


def test_the_court_and_the_side_are_the_ones_asked_for():
    env = envs.make("deck", opponent="expert-plan", court="deck-drifting", side="B", seed=1, game_length=7)
    _, info = env.reset(seed=1)
    assert env.session.court.name == "deck-drifting" and env.session.players["A"].name == "expert-plan"
    assert env.session.pending.turn.team == "B"  # yellow (A) leads: its shot was played by the opponent
    _, _, _, _, info = env.step(env.action_space.sample())
    assert info["shot"]["side"] == "B"
    assert envs.aec_env("crokinole", court="crokinole", seed=1).session.court.name == "crokinole"
