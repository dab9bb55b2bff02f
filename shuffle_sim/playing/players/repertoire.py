"""Crokinole shots as tournament players name them: straight take-outs along the clearest line for
the shooter's own errors (``Strike``), and the kernel-aimed shots whose effect depends on what the
discs do after contact (``Shot`` with a goal: take-out and stick, roll off, roll into the 15 or
the 20, double take-out, carom off a peg or an own disc onto a hidden disc).

``Strike`` is geometry: the start along the shooting arc and the aim within the target's hit window
with the best chance of touching it first under a normal direction error
(``lines.best_line``); its speed slides ``extra`` metres past the target's centre (the physics
model's closed form v0 = sqrt(2 mu g (d + extra))).

``Shot`` is solved with the physics kernel, as the ricochet bank is: a grid of launches (starts on
the arc x aims across the discs in reach x speeds) is simulated noise-free in one batch call, each
outcome is checked against the shot's goal (``goal_met``) and the hit rule (an opponent disc
touched), and the launch kept is the one that meets its goal noise-free and whose neighbours along
the aim (same start and speed), weighted by the shooter's direction error, most often meet the goal
and the hit rule: the middle of the widest band of working aims, so that small errors keep it working.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_sim.physics import STATUS_FALLEN, STATUS_HOLED, restitution_at, speed_for_distance
from shuffle_sim.playing.players.aiming import surface_key
from shuffle_sim.playing.players.context import Launch, PlayerError, ShotContext
from shuffle_sim.playing.players.intents import Intent
from shuffle_sim.playing.players.launch import stance_point
from shuffle_sim.playing.players.lines import best_line, visible_fraction
from shuffle_sim.playing.players.reading import read_launch
from shuffle_sim.shots import ShotBatch, simulate_shots

#: What a hit on another opponent disc (instead of the one aimed at) counts for when choosing a line.
OTHER_DISC_WEIGHT = 0.5


def line_arrays(ctx: ShotContext) -> tuple[np.ndarray, ...]:
    """Obstacles as ``lines`` takes them: centres, reaches, the speed below which each blocks
    (holes only; inf for discs and pegs) and which are opponent discs (the hit rule's wanted set)."""
    ox, oy, reach = ctx.obstacles()
    n, pegs = ctx.n_discs, len(ctx.court.pegs)
    slow = np.concatenate([np.full(n + pegs, np.inf), [h.capture_speed for h in ctx.court.holes]])
    good = np.zeros(ox.size, dtype=np.bool_)
    good[:n] = [team != ctx.shooter for team in ctx.board_team]
    return ox, oy, reach, slow, good


def direction_sd(ctx: ShotContext) -> float:
    """The shooter's direction error (rad); 0 for a noise-free shooter or one not yet known."""
    return 0.0 if ctx.skill is None else float(ctx.skill.direction)


#: A take-out is judged to reach at least this far (m) past its target's centre when its line is chosen
#: (whether it crosses the 20 hole too fast to drop in).
LINE_REACH = 0.3


def strike_line(ctx: ShotContext, target: int, extra: float = LINE_REACH) -> tuple[float, float, float, float]:
    """``lines.best_line`` for board disc ``target``: (t, aim angle, P(target), P(any opponent disc)).
    ``extra``: how far past the target's centre the shot would slide on an empty board."""
    ox, oy, reach, slow, good = line_arrays(ctx)
    stance = ctx.stance
    return best_line(
        stance.array,
        stance.preferred,
        stance.samples,
        *_line_to(ctx, target, extra),
        direction_sd(ctx),
        OTHER_DISC_WEIGHT,
        good,
        ox,
        oy,
        reach,
        slow,
        reach,
    )


def _line_to(ctx: ShotContext, target: int, extra: float) -> tuple[float, float, int, float, float, float]:
    """What the line kernels (``lines``) take of a shot at board disc ``target``: its centre, its
    index, the slide past its centre, the deceleration and the disc radius."""
    return float(ctx.board_x[target]), float(ctx.board_y[target]), target, extra, ctx.decel, ctx.radius


def edge_distance(ctx: ShotContext, x: float, y: float, ux: float, uy: float) -> float:
    """How far a disc at (x, y) moving along unit (ux, uy) slides before its centre leaves the board
    (the first circular edge ahead of it: the crokinole ditch)."""
    best = math.inf
    for edge in ctx.court.edges:
        if edge.kind != "circle":
            continue
        cx, cy, radius = edge.geom[0], edge.geom[1], edge.geom[2]
        dx, dy = x - cx, y - cy
        b = dx * ux + dy * uy
        c = dx * dx + dy * dy - radius * radius
        if c < 0.0:
            best = min(best, -b + math.sqrt(b * b - c))
    return best


def strike_speed(ctx: ShotContext, target: int, sx: float, sy: float, angle: float, extra: float) -> float:
    """Launch speed of a take-out that sends board disc ``target``, struck full on, ``extra`` metres
    past the board's edge along the line of fire.

    A head-on collision of equal discs with restitution e passes (1 + e) / 2 of the striker's speed to
    the struck disc (Newton's law of restitution with momentum conserved), which must then slide its
    distance L to the edge plus ``extra``: v_contact = 2 sqrt(2 a (L + extra)) / (1 + e); the
    striker slows over its d - 2 r to contact, v0^2 = v_contact^2 + 2 a (d - 2 r). A disc off the
    line of a circular edge is sent a disc radius past where it would stop. With a restitution that
    falls with the impact speed (``physics.restitution``), e is the one at v_contact: the equation is
    solved by iterating it (a contraction: e changes by at most e / 4 per unit of log speed).
    """
    ux, uy = math.cos(angle), math.sin(angle)
    tx, ty = float(ctx.board_x[target]), float(ctx.board_y[target])
    a = ctx.decel
    slide = edge_distance(ctx, tx, ty, ux, uy)
    if not math.isfinite(slide):
        slide = ctx.radius
    e = ctx.court.params["disc_restitution"]
    yield_speed = ctx.court.params["disc_yield_speed"]
    after = speed_for_distance(max(slide + extra, 0.0), a)  # the target's speed just after the hit
    contact = 2.0 * after / (1.0 + e)
    if math.isfinite(yield_speed):
        for _ in range(60):
            previous = contact
            contact = 2.0 * after / (1.0 + restitution_at(e, yield_speed, contact))
            if abs(contact - previous) <= 1e-12 * contact:
                break
    d = math.hypot(tx - sx, ty - sy)
    return math.sqrt(contact * contact + 2.0 * a * max(d - 2.0 * ctx.radius, 0.0))


@dataclass(frozen=True)
class Strike(Intent):
    """Take out board disc ``target`` along the clearest line for the shooter's direction error, hard
    enough to send it ``extra`` metres past the board's edge (``strike_speed``); refused when no
    straight line from the arc touches it (a fully hidden disc: a carom's job)."""

    target: int
    extra: float
    label: str = "take-out"
    KIND = "take-out"

    def line(self, ctx: ShotContext) -> tuple[float, float, float, float]:
        return strike_line(ctx, ctx.disc_index(self.target, "take-out"))

    def aim(self, ctx: ShotContext) -> Launch:
        i = ctx.disc_index(self.target, "take-out")
        t, angle, p, _ = self.line(ctx)
        if t < 0.0 or p <= 0.0:
            raise PlayerError(f"take-out of disc {i}: no straight line from the shooting arc touches it first")
        sx, sy = stance_point(ctx.stance.array, t)
        speed = strike_speed(ctx, i, sx, sy, angle, self.extra)
        launch = Launch(float(t), float(sx), float(sy), speed * math.cos(angle), speed * math.sin(angle), 0.0)
        # read for the surface: the path through the point the flat line aims at, its target's distance on
        d = math.hypot(float(ctx.board_x[i]) - sx, float(ctx.board_y[i]) - sy)
        return read_launch(ctx, launch, sx + d * math.cos(angle), sy + d * math.sin(angle))


def visibility(ctx: ShotContext, target: int, extra: float = LINE_REACH) -> float:
    """``lines.visible_fraction`` of board disc ``target`` from the shooter's stance (1 clear, 0 hidden)."""
    ox, oy, reach, slow, _ = line_arrays(ctx)
    stance = ctx.stance
    return float(
        visible_fraction(
            stance.array, max(stance.samples, 25), *_line_to(ctx, target, extra), ox, oy, reach, slow, reach
        )
    )


# --------------------------------------------------------------------------------------------------
# Shots aimed with the kernel

#: Goals of ``Shot``: what the noise-free outcome must show.
GOALS = ("stick", "roll off", "roll in", "double", "carom")
GOAL_KINDS = {
    "stick": "take-out and stick",
    "roll off": "take-out and roll off",
    "roll in": "take-out and roll in",
    "double": "double take-out",
    "carom": "carom",
}
#: Slides (m) past the target's centre the speeds of the grid are set for (a carom's path is longer).
GRID_EXTRAS = (0.05, 0.15, 0.3, 0.5, 0.8)
#: Directions tried either side of the line to the target: across its hit window (straight goals),
#: or a fan this wide (rad) for a carom, at CAROM_STEP.
CAROM_FAN = math.radians(50.0)
CAROM_STEP = math.radians(0.4)
WINDOW_STEPS = 25
GRID_STARTS = 9
_shot_cache: dict = {}


def removed(batch: ShotBatch, column) -> np.ndarray:
    """Whether disc ``column`` of each shot left play: fallen into the ditch, or dead on the board."""
    return (batch.status[:, column] == STATUS_FALLEN) | (
        batch.dead[:, column] & (batch.status[:, column] != STATUS_HOLED)
    )


def goal_met(goal: str, batch: ShotBatch, shot: int, target: int, second: int) -> np.ndarray:
    """Whether each outcome of ``batch`` does what a ``Shot`` with ``goal`` means (see ``Shot``)."""
    out = removed(batch, target)
    if goal == "stick":
        return out & ~removed(batch, shot) & (batch.value[:, shot] >= 5)
    if goal == "roll off":
        return out & (batch.status[:, shot] == STATUS_FALLEN)
    if goal == "roll in":
        return out & (batch.value[:, shot] >= 15)
    if goal == "double":
        return out & removed(batch, second)
    return batch.touched[:, target]  # carom: the hidden disc is reached


@dataclass(frozen=True)
class Shot(Intent):
    """A crokinole shot on board disc ``target`` aimed with the kernel for ``goal``:

    - ``stick``: take it out and stay on the board (the shooter scoring at least 5);
    - ``roll off``: take it out and leave the board too (no shooter left to be taken out);
    - ``roll in``: take it out and roll into the 15 or the 20;
    - ``double``: take it out and board disc ``second`` as well;
    - ``carom``: reach it off a peg or another disc, for a disc no straight line can touch.

    The launch is the grid point (start x aim x speed, simulated noise-free in one batch) whose
    neighbours along the aim also meet the goal most often (module docstring); refused when no
    grid point meets it.
    """

    goal: str
    target: int
    second: int = -1
    label: str = "shot"

    @property
    def kind(self) -> str:
        return GOAL_KINDS.get(self.goal, self.goal)

    def aim(self, ctx: ShotContext) -> Launch:
        if self.goal not in GOALS:
            raise PlayerError(f"shot goal must be one of {', '.join(GOALS)} (got {self.goal!r})")
        i = ctx.disc_index(self.target, f"{self.goal} shot")
        if self.goal == "double":
            j = ctx.disc_index(self.second, "double take-out (second)")
            if j == i:
                raise PlayerError(f"double take-out: second must differ from target (both {i})")
        key = (
            self.goal,
            i,
            self.second,
            ctx.stance.geom,
            ctx.board_x.tobytes(),
            ctx.board_y.tobytes(),
            ctx.board_team,
            ctx.shooter,
            direction_sd(ctx),
            ctx.court.source_path,
            ctx.court.end,
            tuple(sorted(ctx.court.params.items())),
            surface_key(ctx.court),
        )
        if key not in _shot_cache:
            if len(_shot_cache) > 4096:
                _shot_cache.clear()
            _shot_cache[key] = self._solve(ctx, i)
        launch = _shot_cache[key]
        if launch is None:
            raise PlayerError(f"{self.goal} shot on disc {i}: no launch from the shooting arc does it")
        return launch

    def _grid(self, ctx: ShotContext, i: int):
        stance = ctx.stance
        ox, oy, reach = ctx.obstacles()
        tx, ty = float(ctx.board_x[i]), float(ctx.board_y[i])
        rows = []
        for k in range(GRID_STARTS):
            t = k / (GRID_STARTS - 1)
            sx, sy = stance.point(t)
            if np.any((ox - sx) ** 2 + (oy - sy) ** 2 < reach**2):
                continue
            d = math.hypot(tx - sx, ty - sy)
            centre = math.atan2(ty - sy, tx - sx)
            if self.goal == "carom":
                angles = centre + np.arange(-CAROM_FAN, CAROM_FAN + 1e-12, CAROM_STEP)
            else:
                half = math.asin(min(1.0, 2.0 * ctx.radius / d))
                angles = centre + np.linspace(-half, half, WINDOW_STEPS)
            for extra in GRID_EXTRAS:
                rows.append((t, sx, sy, speed_for_distance(d + extra, ctx.decel), angles))
        return rows

    def _solve(self, ctx: ShotContext, i: int) -> Launch | None:
        rows = self._grid(ctx, i)
        if not rows:
            return None
        sizes = [row[4].size for row in rows]
        xs = np.concatenate([np.full(n, row[1]) for n, row in zip(sizes, rows)])
        ys = np.concatenate([np.full(n, row[2]) for n, row in zip(sizes, rows)])
        vxs = np.concatenate([row[3] * np.cos(row[4]) for row in rows])
        vys = np.concatenate([row[3] * np.sin(row[4]) for row in rows])
        batch = simulate_shots(ctx.court, xs, ys, vxs, vys, np.zeros(xs.size), board=ctx.board_scene())
        met = np.asarray(goal_met(self.goal, batch, ctx.n_discs, i, self.second) & batch.ok)
        if not met.any():
            return None
        opponents = np.array([team != ctx.shooter for team in ctx.board_team] + [False])
        hit = np.asarray(batch.touched[:, opponents].any(axis=1))
        sigma = max(direction_sd(ctx), math.radians(0.3))
        best, best_score, offset = None, -1.0, 0
        for row, n in zip(rows, sizes):
            g = met[offset : offset + n].astype(np.float64)
            h = hit[offset : offset + n].astype(np.float64)
            step = float(row[4][1] - row[4][0]) if n > 1 else 1.0
            width = max(1, math.ceil(3.0 * sigma / step))
            lags = np.arange(-width, width + 1)
            kernel = np.exp(-0.5 * (lags * step / sigma) ** 2)
            kernel /= kernel.sum()
            # the chance the goal is met, and that the hit rule is, under the direction error
            smooth = np.convolve(g, kernel)[width : width + n] + np.convolve(h, kernel)[width : width + n]
            smooth[g == 0.0] = -1.0
            a = int(np.argmax(smooth))
            if smooth[a] > best_score + 1e-12:
                best_score = float(smooth[a])
                t, sx, sy, speed, angles = row
                best = Launch(
                    float(t), float(sx), float(sy), speed * math.cos(angles[a]), speed * math.sin(angles[a]), 0.0
                )
            offset += n
        return best
