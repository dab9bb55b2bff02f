"""The ``win`` strategy: shots chosen by the probability of winning the game, found by search.

The search is kernel-regression UCT (KR-UCT: Yee, Lisy and Bowling, "Monte Carlo Tree Search in
Continuous Action Spaces with Execution Uncertainty", IJCAI 2016, written for digital curling) at
the shooter's decision: the actions are the game's candidate shots (``Tactics.candidates``, the
repertoire the expected-value player weighs), each a launch in a continuous space (start along the
stance, speed, direction, spin). An action's value is the shooter's probability of winning the game
after it, estimated by simulation with the exact kernel:

1. the shot is executed under the shooter's own errors (a sampled execution);
2. the rest of the frame is played out by the game's rollout (deck: the rest of the half-round by
   the fixed plan, the opponent's replies and the hammer included, ``deck_rollout``; crokinole: the
   rest of the round by a quick take-out-or-open-20 plan, ``crokinole_rollout``; horse collar and
   ricochet have none: the frame is taken as it stands after the shot);
3. the frame's result and the game's score give the win probability from the game's table
   (``situations``, ``win_tables``).

Kernel regression shares what is learnt between nearby launches: with K(a, b) = exp(-d^2 / 2), d the
launch difference in units of the shooter's execution errors (speed and direction) and of a disc
radius (start), an action's estimate is V(a) = sum_b K(a, b) S_b / W(a), W(a) = sum_b K(a, b) n_b
(S_b the sum of b's sampled values, n_b their number). Each round gives ``STEP`` more samples to the
``WIDTH`` actions of highest upper bound V(a) + C sqrt(ln N / W(a)); progressive widening adds, once
N^(1/2) exceeds the number of actions, a variant of the best action (its speed and direction moved
by one execution error either way; of the candidate variants, the one the kernel density covers
least, as KR-UCT adds actions). When the budget of simulated shots is spent, the action with the
highest lower bound V(a) - C sqrt(ln N / W(a)) is played. Every action's sample k uses the same
execution errors (common random numbers) and all draws come from the counter-based stream
``STREAM_SEARCH``: the same seed plays the same game, whatever the thread count.

The search is one level deep in the tree: the opponent's replies are played by the rollout policy,
not searched. Every candidate is searched: a shortlist by the expected-value player's one-shot
estimate would drop the shots whose worth shows only later in the frame. Each game's situation sets
how far from the end of the frame the search starts (``horizon``: crokinole searches the round's
last six shots, the deck every shot) and its budget. Before the horizon, without a game in play
(``situations.situation_of`` is None), and once the game's result no longer depends on the frame
(``Situation.decided``: a crokinole lead of more than one round with one round left), every shot is
worth the same to the game and the strategy plays as the expected-value player, for the frame itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.noise import SEARCH_DEPTHS, NoiseModel, seed_key
from shuffle_sim.playing.players.context import Intent, Launch, PlayerError, ShotContext
from shuffle_sim.playing.players.launch import executed_launch, noise_vector
from shuffle_sim.playing.players.strategies import Decision, ExpectedValue, with_skill
from shuffle_sim.playing.search._draws import search_normals
from shuffle_sim.playing.search.situations import CrokinoleSituation, DeckSituation, FrameValueSituation, situation_of
from shuffle_sim.shots import simulate_shots

#: Simulated shots (the shot itself and every shot of its rollout) a decision may spend, unless the
#: game's situation names its own (``Situation.budget``) or the player does (``winN``).
DEFAULT_BUDGET = 6000
#: Samples each action gets first, then per round; actions sampled per round.
FIRST_SAMPLES = 8
STEP = 16
WIDTH = 8
#: Exploration constant of the bounds (win probabilities lie in [0, 1]).
EXPLORATION = 0.25
#: A launch's start differences are measured in disc radii; speed and direction in execution errors
#: (floored, so that a noise-free shooter's kernel stays narrow but finite).
SPEED_FLOOR = 0.01
DIRECTION_FLOOR = math.radians(0.2)
#: Variants added to a decision's actions at most.
MAX_WIDENING = 8
#: Variants tried per widening (speed and direction one error either way), of which one is added.
WIDEN_PROPOSALS = 4


@jit.kernel
def sampled_executions(
    stance, ts, vxs, vys, ws, samples, sd, k0, k1, game, counter, ox, oy, reach, out_x, out_y, out_vx, out_vy, out_w
):
    """Each launch (row) under its sample's execution errors from the search stream (depth 0)."""
    stream = (k0, k1, game, counter)
    for k in range(ts.shape[0]):
        z = search_normals(stream, 0, samples[k])
        _, out_x[k], out_y[k], out_vx[k], out_vy[k], out_w[k] = executed_launch(
            stance, ts[k], vxs[k], vys[k], ws[k], z, sd, ox, oy, reach
        )


def executions(ctx: ShotContext, skill: NoiseModel, rows: np.ndarray, samples) -> tuple[np.ndarray, ...]:
    """The launch ``rows`` (start parameter, vx, vy, spin) from ``ctx``'s stance, each under the
    execution errors of its sample (``samples``) of the search stream of ``ctx``'s shot, for a
    shooter of ``skill``: (x, y, vx, vy, spin) of each."""
    out = [np.empty(rows.shape[0]) for _ in range(5)]
    ox, oy, reach = ctx.obstacles()
    k0, k1 = seed_key(ctx.seed)
    sampled_executions(
        ctx.stance.array,
        rows[:, 0].copy(),
        rows[:, 1].copy(),
        rows[:, 2].copy(),
        rows[:, 3].copy(),
        np.ascontiguousarray(samples, dtype=np.int64),
        noise_vector(skill),
        k0,
        k1,
        int(ctx.game_index),
        int(ctx.shot) * SEARCH_DEPTHS,
        ox,
        oy,
        reach,
        *out,
    )
    return tuple(out)


def launch_rows(launches: list[Launch], repeats: int = 1) -> np.ndarray:
    """The launches as the rollouts take them, (start parameter, vx, vy, spin) a row, each row
    ``repeats`` times in a row."""
    return np.repeat(np.array([[la.t, la.vx, la.vy, la.omega] for la in launches], dtype=np.float64), repeats, axis=0)


def shots_per_sample(situation) -> int:
    """Simulated shots one sample costs: the shot, then those its rollout plays (``situation.later``)."""
    return 1 + situation.later


@dataclass
class Action:
    """A launch the search weighs: the intent it came from (a variant keeps its parent's), the noise-free
    launch, and its samples so far."""

    intent: Intent
    launch: Launch
    values: list = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class SearchResult:
    """What the search found: every action with its visits and kernel estimate, the index played."""

    actions: list
    estimates: np.ndarray
    weights: np.ndarray
    chosen: int
    simulated_shots: int

    def mean(self, k: int) -> float:
        a = self.actions[k]
        return float(np.mean(a.values)) if a.values else math.nan


def _features(actions: list[Action], ctx: ShotContext, skill: NoiseModel) -> np.ndarray:
    """Launches as points of the kernel's space: start (disc radii), log speed (speed errors) and
    direction (radians; ``_distance2`` scales it by the direction error)."""
    r = ctx.radius
    sd_speed = max(skill.speed, SPEED_FLOOR)
    out = np.empty((len(actions), 4))
    for k, a in enumerate(actions):
        speed = max(a.launch.speed, 1e-9)
        out[k] = (a.launch.x / r, a.launch.y / r, math.log(speed) / sd_speed, math.atan2(a.launch.vy, a.launch.vx))
    return out


def _distance2(a: np.ndarray, b: np.ndarray, skill: NoiseModel) -> np.ndarray:
    """Squared kernel distances between the launches of ``a`` (A, 4) and ``b`` (B, 4): (A, B)."""
    diff = a[:, None, :] - b[None, :, :]
    turn = np.remainder(diff[..., 3] + math.pi, 2.0 * math.pi) - math.pi  # directions wrap
    diff[..., 3] = turn / max(skill.direction, DIRECTION_FLOOR)
    return (diff**2).sum(axis=2)


def _kernel(features: np.ndarray, skill: NoiseModel) -> np.ndarray:
    return np.exp(-0.5 * _distance2(features, features, skill))


@dataclass(frozen=True)
class WinSearch:
    """Plays the shot with the best estimated probability of winning the game (module docstring).

    ``budget``: simulated shots per decision (a shot and its rollout count 1 + the shots rolled out).
    """

    name: ClassVar[str] = "win"
    budget: int | None = None

    def __post_init__(self) -> None:
        if self.budget is not None and (
            isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 1
        ):
            raise PlayerError(f"budget must be a positive integer (got {self.budget!r})")

    def budget_for(self, situation) -> int:
        """Simulated shots per decision: the player's own, else the game's (``Situation.budget``)."""
        if self.budget is not None:
            return self.budget
        return getattr(situation, "budget", None) or DEFAULT_BUDGET

    def choose(self, ctx: ShotContext, skill: NoiseModel) -> Decision:
        ctx = with_skill(ctx, skill)
        situation = situation_of(ctx)
        if situation is None or situation.decided or self._before_horizon(situation):
            return ExpectedValue().choose(ctx, skill)
        result = self.search(ctx, skill, situation, ctx.tactics.candidates(ctx))
        if result is None:
            return ExpectedValue().choose(ctx, skill)
        best = result.actions[result.chosen]
        return Decision(best.intent, best.launch, float(result.estimates[result.chosen]), len(result.actions))

    # ---- evaluation -----------------------------------------------------------------------------

    def _before_horizon(self, situation) -> bool:
        return situation.horizon is not None and situation.later > situation.horizon

    def evaluate(
        self,
        ctx: ShotContext,
        skill: NoiseModel,
        situation,
        launches: list[Launch],
        samples: np.ndarray,
        read_density: int = 1,
    ) -> np.ndarray:
        """Win probability of each (launch, sample) row: the launch under sample's execution errors,
        the frame rolled out, the game's table (the deck's plan read from a read table ``read_density``
        times as fine as its own on a court that is not flat: ``deck_rollout.deck_rollouts``)."""
        rows = launch_rows(launches)
        sd = noise_vector(skill)
        if isinstance(situation, DeckSituation):
            from shuffle_sim.playing.search.deck_rollout import rollouts_from

            colour, out = rollouts_from(ctx, rows, sd, situation.later, samples, read_density)
            return situation.value(colour, out)
        if isinstance(situation, CrokinoleSituation):
            from shuffle_sim.playing.crokinole import CrokinoleTactics
            from shuffle_sim.playing.search.crokinole_rollout import crokinole_rollouts

            assert isinstance(ctx.tactics, CrokinoleTactics), "a crokinole situation comes with crokinole's tactics"
            own = [t == ctx.shooter for t in ctx.board_team]
            rollout_values = crokinole_rollouts(
                ctx.court,
                ctx.stance,
                ctx.tactics.opponent_stance(ctx),
                ctx.board_x,
                ctx.board_y,
                own,
                rows,
                sd,
                sd,
                situation.later,
                ctx.seed,
                ctx.game_index,
                ctx.shot,
                samples,
            )
            return situation.value(rollout_values)
        assert isinstance(situation, FrameValueSituation)
        return situation.value(self._frame_values(ctx, skill, rows, samples))

    def _frame_values(self, ctx: ShotContext, skill: NoiseModel, rows: np.ndarray, samples: np.ndarray) -> np.ndarray:
        x, y, vx, vy, omega = executions(ctx, skill, rows, samples)
        batch = simulate_shots(ctx.court, x, y, vx, vy, omega, board=ctx.board_scene(), bad_starts="skip")
        return np.asarray(ctx.tactics.evaluate(ctx, batch), dtype=np.float64)

    # ---- the search -----------------------------------------------------------------------------

    def search(self, ctx: ShotContext, skill: NoiseModel, situation, intents: list[Intent]) -> SearchResult | None:
        """Search the candidate ``intents`` (module docstring); None when none can be aimed."""
        actions = self.actions_of(ctx, intents)
        if not actions:
            return None
        cost = shots_per_sample(situation)
        first = 1 if skill.is_exact else FIRST_SAMPLES

        def sample(picks: list[int], count: int) -> int:
            launches, ids, owners = [], [], []
            for k in picks:
                a = actions[k]
                for s in range(a.n, a.n + count):
                    launches.append(a.launch)
                    ids.append(s)
                    owners.append(k)
            values = self.evaluate(ctx, skill, situation, launches, np.array(ids, dtype=np.int64))
            for k, v in zip(owners, values.tolist()):
                actions[k].values.append(v)
            return len(launches) * cost

        budget = self.budget_for(situation)
        spent = sample(list(range(len(actions))), first)
        features = _features(actions, ctx, skill)
        kernel = _kernel(features, skill)
        widened = 0
        while spent < budget and not skill.is_exact:
            n = np.array([a.n for a in actions], dtype=np.float64)
            sums = np.array([math.fsum(a.values) for a in actions])
            weights = kernel @ n
            estimates = (kernel @ sums) / weights
            total = n.sum()
            upper = estimates + EXPLORATION * np.sqrt(math.log(total) / weights)
            picks = [int(k) for k in np.argsort(-upper, kind="stable")[:WIDTH]]
            # progressive widening: a variant of the best action, the least covered of a few, sampled
            # with this round's picks
            if widened < MAX_WIDENING and math.sqrt(total / STEP) > len(actions):
                variant = self._widen(ctx, skill, actions, int(np.argmax(estimates)), features, n)
                if variant is not None:
                    widened += 1
                    actions.append(variant)
                    features = _features(actions, ctx, skill)
                    kernel = _kernel(features, skill)
                    picks = [*picks[:-1], len(actions) - 1]
            spent += sample(picks, STEP)
        n = np.array([a.n for a in actions], dtype=np.float64)
        sums = np.array([math.fsum(a.values) for a in actions])
        weights = kernel @ n
        estimates = (kernel @ sums) / weights
        lower = estimates - EXPLORATION * np.sqrt(math.log(max(n.sum(), 2.0)) / weights)
        chosen = int(np.argmax(lower))
        return SearchResult(actions, estimates, weights, chosen, spent)

    def actions_of(self, ctx: ShotContext, intents: list[Intent]) -> list[Action]:
        """The actions searched: every candidate that can be aimed."""
        actions = []
        for intent in intents:
            try:
                actions.append(Action(intent, intent.aim(ctx)))
            except PlayerError:
                continue
        return actions

    def _widen(
        self, ctx: ShotContext, skill: NoiseModel, actions: list[Action], best: int, features: np.ndarray, n: np.ndarray
    ) -> Action | None:
        """A variant of action ``best``: speed and direction moved by one execution error (module
        docstring); the proposal with the least kernel density over the actions so far."""
        base = actions[best].launch
        sd_speed = max(skill.speed, SPEED_FLOOR)
        sd_dir = max(skill.direction, DIRECTION_FLOOR)
        proposals = []
        for ds, dd in ((1, 0), (-1, 0), (0, 1), (0, -1))[:WIDEN_PROPOSALS]:
            gain = math.exp(ds * sd_speed)
            turn = dd * sd_dir
            c, s = math.cos(turn), math.sin(turn)
            vx, vy = gain * (c * base.vx - s * base.vy), gain * (s * base.vx + c * base.vy)
            proposals.append(Launch(base.t, base.x, base.y, vx, vy, base.omega))
        trial = [Action(actions[best].intent, la) for la in proposals]
        f_new = _features(trial, ctx, skill)
        density = (np.exp(-0.5 * _distance2(f_new, features, skill)) * n[None, :]).sum(axis=1)
        pick = int(np.argmin(density))
        if density[pick] > 4.0 * max(n.max(), 1.0):
            return None
        return trial[pick]
