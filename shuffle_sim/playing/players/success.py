"""Whether a shot did what it was meant to do, for every sampled execution of it at once.

A shot's success is its intent met by the outcome, read from a ``ShotBatch`` of sampled executions
(the board's discs, then the shot disc last):

- take-out (``TakeOut``, crokinole ``Strike``): the target no longer scores: fallen off the surface,
  dead, or at rest worth nothing or less (a deck disc knocked onto a line or into the 10-off area);
  a crokinole disc knocked into the 20 hole scores 20 and was not taken out;
- a kernel-aimed crokinole shot (``repertoire.Shot``): its goal (``repertoire.goal_met``);
- bank take-out (a ``Bank`` with slide to spare): the weight nearest its aim point no longer scores;
- open 20: the disc dropped into the hole;
- hanger: the disc hangs over the far end (a corner hanger: at the corner);
- hide (``Hide``, and any intent whose ``hides_from_opponent`` is true: the crokinole hide behind a
  peg): the disc rests in play hidden from the opponent's start, at least half of its hit window
  blocked from every start of the opponent's stance (``lines.visible_fraction`` below one half);
- guard: the guarded disc still scores and is hidden from the opponent's start as a hide is;
- draw (``Draw``, a ``Bank`` to a spot): the disc rests in play in the zone of its spot, scoring the
  zone's value (touching no line that voids it); a spot in no zone, within a disc diameter of it.

The opponent's start comes from the game's tactics (``opponent_stance(ctx)``); a game without one
judges hides and guards by where the disc rests (within a disc diameter of its spot).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.judging import judge_batch
from shuffle_sim.physics import STATUS_FALLEN, STATUS_HOLED
from shuffle_sim.playing.players.context import Intent, ShotContext, fixed_obstacles
from shuffle_sim.playing.players.intents import Bank, Draw, Guard, Hanger, Hide, Open20, TakeOut
from shuffle_sim.playing.players.lines import add_fixed, visible_fraction
from shuffle_sim.playing.players.repertoire import LINE_REACH, Shot, Strike, goal_met
from shuffle_sim.shots import ShotBatch

#: A disc is hidden when less than this share of its hit window is open from every opponent start.
HIDDEN_BELOW = 0.5


def in_play(batch: ShotBatch, column: int) -> np.ndarray:
    """Whether disc ``column`` of each outcome is still in play: on the surface, alive, not holed."""
    status = batch.status[:, column]
    return (status != STATUS_FALLEN) & (status != STATUS_HOLED) & ~batch.dead[:, column]


@jit.kernel
def _visible_after(stance, samples, xs, ys, alive, column, extra, decel, radius, fixed, out):
    """``out[k]``: the visible fraction of disc ``column`` of outcome k from ``stance``, the other
    discs still in play, the pegs and the holes (``fixed``: ``fixed_obstacles``) in the way."""
    n_discs = xs.shape[1]
    m = n_discs + fixed[0].shape[0]
    ox = np.empty(m)
    oy = np.empty(m)
    reach = np.empty(m)
    slow = np.empty(m)
    for k in range(xs.shape[0]):
        if not alive[k, column]:
            out[k] = 1.0
            continue
        for i in range(n_discs):
            ox[i] = xs[k, i]
            oy[i] = ys[k, i]
            # a disc out of play is no obstacle: put it out of reach
            reach[i] = 2.0 * radius if alive[k, i] else 0.0
            slow[i] = math.inf
        add_fixed(fixed, n_discs, ox, oy, reach, slow)
        out[k] = visible_fraction(
            stance, samples, xs[k, column], ys[k, column], column, extra, decel, radius, ox, oy, reach, slow, reach
        )


def visible_from(ctx: ShotContext, stance, batch: ShotBatch, column: int) -> np.ndarray:
    """The share of disc ``column``'s hit window open from the best start of ``stance``, per outcome."""
    alive = np.ascontiguousarray(np.stack([in_play(batch, i) for i in range(batch.x.shape[1])], axis=1))
    out = np.empty(batch.x.shape[0])
    _visible_after(
        stance.array,
        max(stance.samples, 9),
        np.ascontiguousarray(batch.x),
        np.ascontiguousarray(batch.y),
        alive,
        int(column),
        LINE_REACH,
        ctx.decel,
        ctx.radius,
        fixed_obstacles(ctx.court),
        out,
    )
    return out


def _near(ctx: ShotContext, batch: ShotBatch, column: int, x: float, y: float) -> np.ndarray:
    d = np.hypot(batch.x[:, column] - x, batch.y[:, column] - y)
    return in_play(batch, column) & (d <= 2.0 * ctx.radius)


def _in_zone_of(ctx: ShotContext, batch: ShotBatch, column: int, x: float, y: float) -> np.ndarray:
    spot = judge_batch(ctx.court, np.array([x]), np.array([y]))
    zone, value = int(spot.zone[0]), int(spot.value[0])
    if zone < 0 or spot.dead[0]:
        return _near(ctx, batch, column, x, y)
    return in_play(batch, column) & (batch.zone[:, column] == zone) & (batch.value[:, column] == value)


def _opponent_stance(ctx: ShotContext):
    find = getattr(ctx.tactics, "opponent_stance", None)
    return None if find is None else find(ctx)


def _hidden(ctx: ShotContext, batch: ShotBatch, column: int, x: float, y: float) -> np.ndarray:
    stance = _opponent_stance(ctx)
    if stance is None:
        return _near(ctx, batch, column, x, y)
    return in_play(batch, column) & (visible_from(ctx, stance, batch, column) < HIDDEN_BELOW)


def intent_met(ctx: ShotContext, intent: Intent, batch: ShotBatch) -> np.ndarray:
    """Whether each outcome of ``batch`` (sampled executions of ``intent`` from ``ctx``'s board) did
    what the intent means (the module docstring)."""
    shot = batch.x.shape[1] - 1
    if isinstance(intent, Shot):
        return goal_met(intent.goal, batch, shot, int(intent.target), int(intent.second)) & batch.ok
    if isinstance(intent, (TakeOut, Strike)):
        target = int(intent.target)
        return ~in_play(batch, target) & (batch.status[:, target] != STATUS_HOLED) | (batch.value[:, target] <= 0)
    if isinstance(intent, Bank) and intent.extra > 0.0 and ctx.n_discs:
        target = int(np.argmin(np.hypot(ctx.board_x - intent.x, ctx.board_y - intent.y)))
        return ~in_play(batch, target) | (batch.value[:, target] <= 0)
    if isinstance(intent, Open20):
        return batch.status[:, shot] == STATUS_HOLED
    if isinstance(intent, Hanger):
        wanted = 2 if intent.corner else 1
        return (batch.hanger[:, shot] >= wanted) & ~batch.dead[:, shot] & (batch.status[:, shot] != STATUS_FALLEN)
    if isinstance(intent, Guard):
        target = int(intent.target)
        scoring = in_play(batch, target) & (batch.value[:, target] > 0)
        stance = _opponent_stance(ctx)
        if stance is None:
            return scoring & _near(ctx, batch, shot, *intent.point(ctx))
        return scoring & (visible_from(ctx, stance, batch, target) < HIDDEN_BELOW)
    if isinstance(intent, Hide) or (getattr(intent, "hides_from_opponent", False) and isinstance(intent, (Draw, Bank))):
        x, y = intent.point(ctx) if isinstance(intent, Hide) else (intent.x, intent.y)
        return _hidden(ctx, batch, shot, x, y)
    if isinstance(intent, (Draw, Bank)):
        return _in_zone_of(ctx, batch, shot, intent.x, intent.y)
    raise TypeError(f"no success test for a {type(intent).__name__} shot")


def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95 % by default): Wilson, JASA 22 (1927)
    209-212. Unlike the normal interval it stays within [0, 1] and is not empty at 0 or n successes."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def samples_for_margin(margin: float, z: float = 1.959963984540054) -> int:
    """Samples that bound a proportion's 95 % normal half-width by ``margin`` at its worst (p = 1/2):
    n = z^2 / (4 margin^2), rounded up."""
    return math.ceil(z * z / (4.0 * margin * margin))
