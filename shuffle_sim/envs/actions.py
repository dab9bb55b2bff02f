"""The shot an agent chooses: a game's action limits and the launch an action means.

An action is four numbers, the shot as a player of the game chooses it (``ACTION_FIELDS``):

- ``start``: where the disc starts, 0 to 1 along the shooter's stance (``ShotContext.stance``: the
  legal start line across the deck's 10-off area half, the near end of a table, the front of a
  ricochet half, the crokinole shooting arc in front of the shooter's seat);
- ``direction``: radians, counter-clockwise, from straight ahead: square to a straight stance
  toward the court, toward the centre of a curved one;
- ``speed``: m/s (how hard: a deck or table shot's weight);
- ``spin``: rad/s, counter-clockwise seen from above.

Each game's limits come from ``data/actions.toml``: the largest turn either way, the fastest launch
(one that would slide a number of court lengths on an empty flat surface under the court's friction
law, ``court.friction_law``: Coulomb's ``sqrt(2 mu g d)``) and the largest spin. An action is
clipped to them. A start that would put the disc on a resting disc moves
along the stance to the nearest free start (``free_start``), as a player puts the disc down beside
it; the shot is then executed under the shooter's noise like any player's (``players.execute``).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.court.friction_law import decelerations, launch_speed
from shuffle_sim.messages import shown
from shuffle_sim.playing.players import Launch, ShotContext, Stance, start_is_free

ACTIONS_FILE = Path(__file__).resolve().parent / "data" / "actions.toml"
#: The action's four numbers, in order.
ACTION_FIELDS = ("start", "direction", "speed", "spin")
_LIMIT_KEYS = ("direction", "slide", "spin")
#: Candidate starts either side of a blocked one, per unit of stance parameter (``free_start``).
FREE_START_STEPS = 400


class EnvError(ValueError):
    """Bad input to a game environment or the shot protocol; the message names the field and the value."""


@dataclass(frozen=True)
class ActionLimits:
    """A game's action limits on a court: largest turn (rad), fastest launch (m/s), largest spin (rad/s)."""

    direction: float
    speed: float
    spin: float

    @property
    def low(self) -> np.ndarray:
        return np.array([0.0, -self.direction, 0.0, -self.spin])

    @property
    def high(self) -> np.ndarray:
        return np.array([1.0, self.direction, self.speed, self.spin])

    def to_dict(self) -> dict:
        """Each action field's [low, high] (the shot protocol's ``limits``)."""
        return {name: [float(lo), float(hi)] for name, lo, hi in zip(ACTION_FIELDS, self.low, self.high)}


@cache
def _limits_table() -> dict[str, dict[str, float]]:
    with open(ACTIONS_FILE, "rb") as fh:
        data = tomllib.load(fh)
    out = {}
    for game, table in data.items():
        unknown = set(table) - set(_LIMIT_KEYS)
        if unknown:
            raise EnvError(f"{ACTIONS_FILE.name}: [{game}]: unknown keys {sorted(unknown)}")
        values = {}
        for key in _LIMIT_KEYS:
            value = table.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < value < math.inf:
                raise EnvError(f"{ACTIONS_FILE.name}: {game}.{key} must be a positive number (got {shown(value)})")
            values[key] = float(value)
        out[game] = values
    return out


def action_limits(game: str, court: Court) -> ActionLimits:
    """The action limits of ``game`` on ``court`` (``data/actions.toml``)."""
    table = _limits_table()
    if game not in table:
        raise EnvError(f"game: no action limits for {game!r} in {ACTIONS_FILE.name} (known: {', '.join(table)})")
    rec = table[game]
    x0, y0, x1, y1 = court.bounds
    slide = rec["slide"] * max(x1 - x0, y1 - y0)
    speed = launch_speed(slide, *decelerations(court.params))
    return ActionLimits(math.radians(rec["direction"]), speed, rec["spin"])


def check_action(action, limits: ActionLimits) -> np.ndarray:
    """``action`` as four float64s clipped to ``limits``; ``EnvError`` naming the field for a wrong
    shape or a value that is not a finite number."""
    try:
        values = np.asarray(action, dtype=np.float64)
    except (TypeError, ValueError):
        raise EnvError(f"action must be four numbers {ACTION_FIELDS} (got {shown(action)})") from None
    if values.shape != (len(ACTION_FIELDS),):
        raise EnvError(f"action must be four numbers {ACTION_FIELDS} (got shape {values.shape})")
    for name, value in zip(ACTION_FIELDS, values):
        if not math.isfinite(value):
            raise EnvError(f"action {name} must be a finite number (got {shown(float(value))})")
    return np.clip(values, limits.low, limits.high)


def ahead(stance: Stance, x: float, y: float, court: Court) -> float:
    """Straight ahead from (x, y) on ``stance`` (radians, counter-clockwise from +x): toward the arc's
    centre, or square to the segment toward the middle of the court."""
    if stance.kind == "arc":
        cx, cy = stance.geom[0], stance.geom[1]
        return math.atan2(cy - y, cx - x)
    x0, y0, x1, y1 = stance.geom
    nx, ny = -(y1 - y0), x1 - x0
    bx0, by0, bx1, by1 = court.bounds
    if nx * (0.5 * (bx0 + bx1) - x) + ny * (0.5 * (by0 + by1) - y) < 0.0:
        nx, ny = -nx, -ny
    return math.atan2(ny, nx)


def free_start(ctx: ShotContext, t: float) -> float:
    """``t``, or the nearest stance parameter to it whose start overlaps no resting disc or peg."""
    ox, oy, reach = ctx.obstacles()
    stance = ctx.stance.array
    if start_is_free(stance, t, ox, oy, reach):
        return t
    for k in range(1, FREE_START_STEPS + 1):
        for candidate in (t - k / FREE_START_STEPS, t + k / FREE_START_STEPS):
            if 0.0 <= candidate <= 1.0 and start_is_free(stance, candidate, ox, oy, reach):
                return candidate
    raise EnvError("start: every start on the stance is blocked by a disc")


def action_launch(ctx: ShotContext, action: np.ndarray) -> Launch:
    """The noise-free launch a checked action (``check_action``) means for the shooter of ``ctx``."""
    start, direction, speed, spin = (float(v) for v in action)
    t = free_start(ctx, start)
    x, y = ctx.stance.point(t)
    heading = ahead(ctx.stance, x, y, ctx.court) + direction
    return Launch(t, x, y, speed * math.cos(heading), speed * math.sin(heading), spin)


def launch_action(ctx: ShotContext, launch: Launch) -> np.ndarray:
    """The action that means ``launch`` from the shooter's stance (``action_launch`` undone)."""
    heading = math.atan2(launch.vy, launch.vx)
    turn = heading - ahead(ctx.stance, launch.x, launch.y, ctx.court)
    turn = math.atan2(math.sin(turn), math.cos(turn))
    return np.array([launch.t, turn, launch.speed, launch.omega])
