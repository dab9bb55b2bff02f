"""Shot intents: a shot as a player means it (draw, take-out, guard, hide, open 20, hanger, bank, or
a launch given outright), turned by ``aim`` into its noise-free ``Launch`` from the shooter's stance."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from shuffle_sim.messages import shown
from shuffle_sim.playing.players.aiming import hanger_point, solve_bank
from shuffle_sim.playing.players.context import Intent, Launch, PlayerError, ShotContext
from shuffle_sim.playing.players.launch import clearest_start, start_is_free, straight_launch
from shuffle_sim.playing.players.reading import read_launch

# --------------------------------------------------------------------------------------------------
# Intents


def _straight(ctx: ShotContext, aim_x: float, aim_y: float, extra: float, exclude: int, what: str) -> Launch:
    ox, oy, reach = ctx.obstacles()
    stance = ctx.stance
    t = clearest_start(stance.array, stance.preferred, stance.samples, aim_x, aim_y, ox, oy, reach, exclude)
    if t < 0.0:
        raise PlayerError(f"{what}: every start on the stance is blocked by a disc")
    sx, sy, vx, vy = straight_launch(stance.array, t, aim_x, aim_y, extra, ctx.decel)
    return read_launch(ctx, Launch(float(t), float(sx), float(sy), float(vx), float(vy), 0.0), aim_x, aim_y)


@dataclass(frozen=True)
class Draw(Intent):
    """Slide to rest at (x, y): straight, closed form (read for a court that is not flat: ``reading``)."""

    x: float
    y: float
    label: str = "draw"
    KIND = "draw"

    def aim(self, ctx: ShotContext) -> Launch:
        return _straight(ctx, self.x, self.y, 0.0, -1, f"draw to ({self.x:.3f}, {self.y:.3f})")


@dataclass(frozen=True)
class TakeOut(Intent):
    """Hit board disc ``target`` full on, with speed to slide ``extra`` metres past its centre."""

    target: int
    extra: float
    label: str = "take-out"
    KIND = "take-out"

    def aim(self, ctx: ShotContext) -> Launch:
        i = ctx.disc_index(self.target, "take-out")
        return _straight(ctx, float(ctx.board_x[i]), float(ctx.board_y[i]), self.extra, i, f"take-out of disc {i}")


def _along_line_of_fire(ctx: ShotContext, target: int, distance: float) -> tuple[float, float]:
    """The point ``distance`` metres from a disc toward the shooter's preferred start (negative: beyond it)."""
    sx, sy = ctx.stance.point(ctx.stance.preferred)
    x, y = float(ctx.board_x[target]), float(ctx.board_y[target])
    d = math.hypot(sx - x, sy - y)
    return x + distance * (sx - x) / d, y + distance * (sy - y) / d


@dataclass(frozen=True)
class _BesideDisc(Intent):
    """Draw to a point on the line of fire through board disc ``target``, ``distance`` metres from it:
    in front of it (toward the shooter, ``toward`` 1) or behind it (``toward`` -1)."""

    target: int
    distance: float
    toward: ClassVar[float]
    #: How the shot is named in a message about it (before "disc N").
    named: ClassVar[str]

    def point(self, ctx: ShotContext) -> tuple[float, float]:
        target = ctx.disc_index(self.target, self.KIND)
        return _along_line_of_fire(ctx, target, self.toward * self.distance)

    def aim(self, ctx: ShotContext) -> Launch:
        x, y = self.point(ctx)
        return _straight(ctx, x, y, 0.0, -1, f"{self.named} disc {self.target}")


@dataclass(frozen=True)
class Guard(_BesideDisc):
    """Draw to a point ``distance`` metres in front of board disc ``target`` (toward the shooter)."""

    label: str = "guard"
    KIND = "guard"
    toward = 1.0
    named = "guard of"


@dataclass(frozen=True)
class Hide(_BesideDisc):
    """Draw to a point ``distance`` metres behind board disc ``target`` (seen from the shooter)."""

    label: str = "hide"
    KIND = "hide"
    toward = -1.0
    named = "hide behind"


def hole_overshoot(distance: float, capture_radius: float, capture_speed: float, decel: float) -> float:
    """Slide (m) past a hole's centre that centres a straight shot's speed window on the hole.

    A disc launched at v0 toward a hole ``distance`` metres away drops in when it reaches the capture
    circle (v0^2 >= 2 a (d - rc)) and crosses it no faster than the capture speed
    (v0^2 <= vc^2 + 2 a (d - rc)). A relative speed error multiplies v0, so the middle of the window
    on a log scale, v0^2 = 2 a sqrt((d - rc) (d - rc + vc^2 / 2 a)), is the aim that tolerates the
    largest error either way: a slide of sqrt(...) - d past the centre.
    """
    near = max(distance - capture_radius, 0.0)
    return math.sqrt(near * (near + capture_speed * capture_speed / (2.0 * decel))) - distance


@dataclass(frozen=True)
class Open20(Intent):
    """Crokinole: a straight shot over the 20 hole at the speed that centres its capture window
    (``hole_overshoot``): short of it the disc stops on the board, too fast it crosses the hole."""

    label: str = "open 20"
    KIND = "open 20"

    def aim(self, ctx: ShotContext) -> Launch:
        if not ctx.court.holes:
            raise PlayerError(f"open 20: court {ctx.court.name!r} has no hole")
        hole = ctx.court.holes[0]
        ox, oy, reach = ctx.obstacles()
        stance = ctx.stance
        hole_index = ctx.n_discs + len(ctx.court.pegs)
        t = clearest_start(stance.array, stance.preferred, stance.samples, hole.x, hole.y, ox, oy, reach, hole_index)
        if t < 0.0:
            raise PlayerError("open 20: every start on the stance is blocked by a disc")
        sx, sy = stance.point(t)
        extra = hole_overshoot(math.hypot(hole.x - sx, hole.y - sy), hole.capture_radius, hole.capture_speed, ctx.decel)
        sx, sy, vx, vy = straight_launch(stance.array, t, hole.x, hole.y, extra, ctx.decel)
        return read_launch(ctx, Launch(float(t), float(sx), float(sy), float(vx), float(vy), 0.0), hole.x, hole.y)


@dataclass(frozen=True)
class Hanger(Intent):
    """Horse collar: draw to hang over the far end (13), or at a corner over the end and a side (26)."""

    corner: int = 0
    overhang: float = 0.5
    along: float = 0.5
    label: str = "hanger"
    KIND = "hanger"

    def aim(self, ctx: ShotContext) -> Launch:
        x, y = hanger_point(ctx.court, self.corner, self.overhang, self.along)
        return _straight(ctx, x, y, 0.0, -1, "hanger")


@dataclass(frozen=True)
class Bank(Intent):
    """Bank off ``cushion`` and stop at (x, y), or pass through it with ``extra`` metres to spare."""

    x: float
    y: float
    extra: float = 0.0
    cushion: str = "back bumper"
    label: str = "bank"
    KIND = "bank"

    def aim(self, ctx: ShotContext) -> Launch:
        """Solve from the preferred start, then from the others nearest it first, until one reaches."""
        stance = ctx.stance
        ox, oy, reach = ctx.obstacles()
        starts = sorted(
            {stance.preferred, *(k / (stance.samples - 1) for k in range(stance.samples))},
            key=lambda t: (abs(t - stance.preferred), t),
        )
        problem = "every start on the stance is blocked by a disc"
        for t in starts:
            if not start_is_free(stance.array, t, ox, oy, reach):
                continue
            sx, sy = stance.point(t)
            try:
                vx, vy = solve_bank(ctx.court, (sx, sy), (self.x, self.y), self.extra, self.cushion)
            except PlayerError as exc:
                problem = str(exc)
                continue
            return Launch(float(t), sx, sy, vx, vy, 0.0)
        raise PlayerError(f"bank to ({self.x:.3f}, {self.y:.3f}) m: {problem}")


@dataclass(frozen=True)
class Launched(Intent):
    """A launch given outright (a player of one's own, an agent's action): from stance parameter
    ``t`` (0 to 1 along ``ctx.stance``) with velocity (``vx``, ``vy``) m/s and spin ``omega`` rad/s."""

    t: float
    vx: float
    vy: float
    omega: float = 0.0
    label: str = "launch"

    def aim(self, ctx: ShotContext) -> Launch:
        values = (self.t, self.vx, self.vy, self.omega)
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
            raise PlayerError(f"launch: t, vx, vy and omega must be finite numbers (got {shown(values)})")
        if not 0.0 <= self.t <= 1.0:
            raise PlayerError(f"launch: t must lie in [0, 1] along the stance (got {shown(self.t)})")
        x, y = ctx.stance.point(self.t)
        return Launch(float(self.t), x, y, float(self.vx), float(self.vy), float(self.omega))
