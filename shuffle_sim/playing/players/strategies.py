"""Executing a shot under a skill's noise, and the two strategies: ``FixedPlan`` (the game's fixed
plan) and ``ExpectedValue`` (every candidate simulated under sampled errors in one batch call; the
best mean value by the game's rules is played)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Protocol

import numpy as np

from shuffle_sim.messages import shown
from shuffle_sim.noise import STREAM_PLAY, NoiseModel, seed_key
from shuffle_sim.playing.players.context import Intent, Launch, PlayerError, ShotContext
from shuffle_sim.playing.players.launch import (
    _perturb_batch,
    _sample_normals,
    noise_vector,
    perturb,
    shot_normals,
    stance_point,
    start_is_free,
)
from shuffle_sim.shots import simulate_shots

DEFAULT_EV_SAMPLES = 24

# --------------------------------------------------------------------------------------------------
# Execution


def execute(ctx: ShotContext, launch: Launch, skill: NoiseModel) -> Launch:
    """The launch as played: the player's execution errors for this shot (``STREAM_PLAY`` draws).

    A start moved onto a disc (crokinole discs near the shooting line) stays where it was aimed.
    """
    k0, k1 = seed_key(ctx.seed)
    z = shot_normals(k0, k1, np.uint64(ctx.game_index), np.uint64(STREAM_PLAY), np.uint64(ctx.shot), np.uint64(0))
    sd = noise_vector(skill)
    t, vx, vy, w = perturb(ctx.stance.array, launch.t, launch.vx, launch.vy, launch.omega, *z, *sd)
    ox, oy, reach = ctx.obstacles()
    if not start_is_free(ctx.stance.array, t, ox, oy, reach):
        t = launch.t
    x, y = stance_point(ctx.stance.array, t)
    return Launch(float(t), float(x), float(y), float(vx), float(vy), float(w))


# --------------------------------------------------------------------------------------------------
# Strategies and players


def with_skill(ctx: ShotContext, skill: NoiseModel) -> ShotContext:
    """``ctx`` as seen by a shooter of ``skill`` (intents that aim under the shooter's errors read it)."""
    return ctx if ctx.skill is skill else replace(ctx, skill=skill)


@dataclass(frozen=True)
class Decision:
    """A chosen shot: the intent, its noise-free launch, and (expected-value player) what it was worth."""

    intent: Intent
    launch: Launch
    expected: float | None = None
    considered: int = 1


class Strategy(Protocol):
    """How a player chooses its shot: ``FixedPlan``, ``ExpectedValue``, ``playing.search.WinSearch``
    (``name``: "plan", "ev" or "win", as in a player's name), or a player of one's own.

    ``choose(ctx, skill)`` is called once per shot with what the shooter sees (``ShotContext``: the
    court at the target end, the ``stance`` the disc may start from, the resting discs
    ``board_x``, ``board_y``, ``board_team`` in the shot's own frame, the ``shooter``'s team, the
    game's ``tactics`` and facts in ``info``) and the player's execution noise (``skill``), and
    returns a ``Decision``: the shot as meant (an ``Intent``: ``Draw``, ``TakeOut``, ``Open20``,
    ... or ``Launched`` for a launch worked out by hand) and its noise-free ``Launch``
    (``intent.aim(ctx)``). The driver then plays that launch with the shot's execution errors
    (``execute``) and applies the rules. ``name`` names the player on the scorecard; any object
    with such a ``choose`` is a strategy (``players.as_player``; the docs' "Players of your own").
    """

    name: ClassVar[str]

    def choose(self, ctx: ShotContext, skill: NoiseModel) -> Decision: ...


@dataclass(frozen=True)
class FixedPlan:
    """Plays the game's fixed plan (``Tactics.plan``): no look-ahead, no simulation."""

    name: ClassVar[str] = "plan"

    def choose(self, ctx: ShotContext, skill: NoiseModel) -> Decision:
        ctx = with_skill(ctx, skill)
        intent = ctx.tactics.plan(ctx)
        return Decision(intent, intent.aim(ctx))


@dataclass(frozen=True)
class ExpectedValue:
    """Plays the candidate shot with the best expected value for the frame.

    Every candidate (``Tactics.candidates``) is aimed, then played ``samples`` times under the
    player's own execution errors (the same sampled errors for every candidate, so they compare
    fairly), all in one ``simulate_shots`` call on the current board; each outcome is valued by the
    game's rules (``Tactics.evaluate``: own minus opponent's frame score) and the candidate with the
    best mean wins (the first on a tie). Candidates that cannot be aimed are skipped; with none left
    the fixed plan is played.
    """

    name: ClassVar[str] = "ev"
    samples: int = DEFAULT_EV_SAMPLES

    def __post_init__(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise PlayerError(f"samples must be a positive integer (got {shown(self.samples)})")

    def outcomes(
        self, ctx: ShotContext, skill: NoiseModel, intents: list[Intent]
    ) -> tuple[list[Intent], list[Launch], np.ndarray]:
        """Aim the intents; return those that could be aimed, their launches, and the value of every
        sampled execution (candidates x samples)."""
        ctx = with_skill(ctx, skill)
        aimed, launches = [], []
        for intent in intents:
            try:
                launches.append(intent.aim(ctx))
            except PlayerError:
                continue
            aimed.append(intent)
        if not aimed:
            return [], [], np.empty((0, 0))
        # A game whose payoffs are lumpy (a rare 26-point corner hanger) asks for more samples
        # (``Tactics.min_samples``): with few, the luckiest rare shot looks best (the winner's curse).
        n_samples = 1 if skill.is_exact else max(self.samples, int(getattr(ctx.tactics, "min_samples", 0)))
        k0, k1 = seed_key(ctx.seed)
        z = np.empty((n_samples, 4))
        _sample_normals(k0, k1, np.uint64(ctx.game_index), np.uint64(ctx.shot), n_samples, z)
        n = len(aimed) * n_samples
        out = [np.empty(n) for _ in range(5)]
        ox, oy, reach = ctx.obstacles()
        ts, vxs, vys, ws = (
            np.array([getattr(launch, name) for launch in launches], dtype=np.float64)
            for name in ("t", "vx", "vy", "omega")
        )
        _perturb_batch(ctx.stance.array, ts, vxs, vys, ws, z, noise_vector(skill), ox, oy, reach, *out)
        x, y, vx, vy, omega = out
        batch = simulate_shots(ctx.court, x, y, vx, vy, omega, board=ctx.board_scene())
        values = np.asarray(ctx.tactics.evaluate(ctx, batch), dtype=np.float64).reshape(len(aimed), n_samples)
        return aimed, launches, values

    def weigh(
        self, ctx: ShotContext, skill: NoiseModel, intents: list[Intent]
    ) -> tuple[list[Intent], list[Launch], np.ndarray]:
        """Aim the intents and return those that could be aimed, their launches and mean values."""
        aimed, launches, values = self.outcomes(ctx, skill, intents)
        return aimed, launches, (values.mean(axis=1) if aimed else np.empty(0))

    def choose(self, ctx: ShotContext, skill: NoiseModel) -> Decision:
        ctx = with_skill(ctx, skill)
        intents, launches, means = self.weigh(ctx, skill, ctx.tactics.candidates(ctx))
        if not intents:
            return FixedPlan().choose(ctx, skill)
        best = int(np.argmax(means))
        return Decision(intents[best], launches[best], float(means[best]), len(intents))
