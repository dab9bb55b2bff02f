"""Aiming where straight-line geometry is not enough: hanger points on an edge, a spot inside a
zone, and the bank solver (damped Newton iterations on angle and speed with the physics kernel,
the Jacobian by finite differences, from the mirror-image guess)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.messages import shown
from shuffle_sim.physics import Scene, speed_for_distance
from shuffle_sim.playing.players.context import PlayerError


def hanger_point(court: Court, corner: int = 0, overhang: float = 0.5, along: float = 0.5) -> tuple[float, float]:
    """A rest point that hangs ``overhang`` of a disc radius over the court's end edge (``overhang`` "end").

    ``corner`` 0: at parameter ``along`` of the edge; +1 or -1: at the edge's end with the larger or
    smaller x, hanging over the side edge too (a corner hanger).
    """
    ends = [e for e in court.edges if e.overhang == "end" and e.kind == "segment"]
    if not ends:
        raise PlayerError(f"hanger: court {court.name!r} has no end edge to hang over")
    if corner not in (-1, 0, 1):
        raise PlayerError(f"hanger: corner must be -1, 0 or 1 (got {shown(corner)})")
    if not 0.0 < overhang < 1.0:
        raise PlayerError(f"hanger: overhang must lie in (0, 1) disc radii (got {shown(overhang)})")
    edge = ends[0]
    x0, y0, x1, y1 = edge.geom
    inset = (1.0 - overhang) * court.disc_radius

    nx, ny = edge.inward_normal()
    if corner == 0:
        px, py = x0 + along * (x1 - x0), y0 + along * (y1 - y0)
        return px + inset * nx, py + inset * ny
    px, py = (x0, y0) if (x0 > x1) == (corner > 0) else (x1, y1)
    sides = [
        e
        for e in court.edges
        if e.overhang == "side"
        and e.kind == "segment"
        and ((e.geom[0], e.geom[1]) == (px, py) or (e.geom[2], e.geom[3]) == (px, py))
    ]
    if not sides:
        raise PlayerError(f"hanger: court {court.name!r} has no side edge at the corner ({px:.3f}, {py:.3f})")
    sx, sy = sides[0].inward_normal()
    return px + inset * (nx + sx), py + inset * (ny + sy)


def zone_spot(
    court: Court, zone: str, step: float = 0.002, x_range: tuple[float, float] | None = None
) -> tuple[float, float, float]:
    """The best draw target in a zone for a shooter whose errors run mostly along y: (x, y, depth).

    A speed error moves a draw along its line of fire far more than an aim error moves it across,
    so the target is the middle of the longest chord along y of the region where a disc scores the
    zone's value (judged on a ``step`` grid), and, among columns within a step of that length, the
    middle column. ``x_range`` limits the columns (a ricochet half).
    """
    from shuffle_sim.judging import judge_batch

    names = [z.name for z in court.zones]
    if zone not in names:
        raise PlayerError(f"zone: court {court.name!r} has no zone {zone!r} (zones: {', '.join(names)})")
    index = names.index(zone)
    z = court.zones[index]
    if z.kind == "polygon":
        assert z.polygon is not None
        x0, y0 = z.polygon.min(axis=0)
        x1, y1 = z.polygon.max(axis=0)
    else:
        assert z.annulus is not None
        cx, cy, _, outer = z.annulus
        x0, y0, x1, y1 = cx - outer, cy - outer, cx + outer, cy + outer
    if x_range is not None:
        x0, x1 = max(x0, x_range[0]), min(x1, x_range[1])
    xs = np.arange(x0 + step / 2, x1, step)
    ys = np.arange(y0 + step / 2, y1, step)
    if xs.size == 0 or ys.size == 0:
        raise PlayerError(f"zone: zone {zone!r} has no room in x range {shown(x_range)}")
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    judged = judge_batch(court, gx.ravel(), gy.ravel())
    good = ((judged.zone == index) & (judged.value == z.value) & ~judged.dead).reshape(gx.shape)
    best_len = np.zeros(xs.size, dtype=np.int64)
    best_mid = np.zeros(xs.size)
    for i in range(xs.size):
        run = start = 0
        for j in range(ys.size + 1):
            if j < ys.size and good[i, j]:
                if run == 0:
                    start = j
                run += 1
                continue
            if run > best_len[i]:
                best_len[i] = run
                best_mid[i] = 0.5 * (ys[start] + ys[start + run - 1])
            run = 0
    longest = int(best_len.max())
    if longest == 0:
        raise PlayerError(f"zone: no disc can score in zone {zone!r} of court {court.name!r}")
    columns = np.flatnonzero(best_len >= longest - 1)
    i = int(columns[len(columns) // 2])
    return float(xs[i]), float(best_mid[i]), float(longest * step)


# --------------------------------------------------------------------------------------------------
# The bank solver


def surface_key(court: Court) -> str:
    """What a cache of aims must key on beside the court's params: its surface shape ("" when flat)."""
    return "" if court.surface_shape.flat else court.surface_shape.digest()


#: Banks are solved to this distance from the target (m); a solution further than BANK_ACCEPT is refused.
BANK_TOLERANCE = 1e-9
BANK_ACCEPT = 1e-4
_bank_cache: dict = {}


def _bank_residual(
    court: Court, sx: float, sy: float, angle: float, speed: float, tx: float, ty: float, extra: float
) -> np.ndarray:
    """(across, along) miss of the shot's last straight leg against the target: both 0 on target."""
    from shuffle_sim.physics import simulate

    scene = Scene(
        court=court,
        x=np.array([sx]),
        y=np.array([sy]),
        vx=np.array([speed * math.sin(angle)]),
        vy=np.array([speed * math.cos(angle)]),
        omega=np.zeros(1),
        source="bank",
    )
    result = simulate(scene)
    log = result.trajectories.log
    moving = log[(log[:, 1] == 0) & (np.hypot(log[:, 5], log[:, 6]) > 0.0)]
    rx, ry = float(result.x[0]), float(result.y[0])
    if len(moving):
        vx, vy = moving[-1, 5], moving[-1, 6]
        v = math.hypot(vx, vy)
        ux, uy = vx / v, vy / v
    else:
        ux, uy = 0.0, 1.0
    dx, dy = rx - tx, ry - ty
    return np.array([dx * uy - dy * ux, dx * ux + dy * uy - extra])


def solve_bank(
    court: Court,
    start: tuple[float, float],
    target: tuple[float, float],
    extra: float = 0.0,
    cushion: str = "back bumper",
    max_iter: int = 30,
) -> tuple[float, float]:
    """Launch velocity from ``start`` that banks off ``cushion`` and stops at ``target`` (or passes
    through it with ``extra`` metres of slide to spare), found with the physics kernel.

    The court is taken without its edges (a take-out's imagined rest point may lie off the table).
    First guess: the mirror image of the target in the cushion's contact line, and the speed that
    slides there losing the normal speed to the cushion's restitution. Then damped Newton steps on
    (angle, speed) with a finite-difference Jacobian until the last straight leg passes through the
    target with ``extra`` to spare, to ``BANK_TOLERANCE``. Raises ``PlayerError`` if no launch comes
    within ``BANK_ACCEPT``.
    """
    names = [c.name for c in court.cushions]
    if cushion not in names:
        raise PlayerError(f"bank: court {court.name!r} has no cushion {cushion!r} (cushions: {', '.join(names)})")
    key = (
        court.source_path,
        court.end,
        tuple(sorted(court.params.items())),
        surface_key(court),
        float(start[0]),
        float(start[1]),
        float(target[0]),
        float(target[1]),
        float(extra),
        cushion,
    )
    if key in _bank_cache:
        cached = _bank_cache[key]
        if isinstance(cached, PlayerError):
            raise cached
        return cached
    c = court.cushions[names.index(cushion)]
    if c.kind != "segment":
        raise PlayerError(f"bank: cushion {cushion!r} must be straight")
    free = replace(court, edges=())
    sx, sy = (float(v) for v in start)
    tx, ty = (float(v) for v in target)
    decel = court.params["mu"] * court.params["gravity"]
    angle, speed = _mirror_guess(court, c, sx, sy, tx, ty, extra, decel)
    angle, speed, residual = _newton_bank(free, sx, sy, tx, ty, extra, angle, speed, max_iter)
    if float(np.hypot(*residual)) > BANK_ACCEPT:
        _bank_cache[key] = PlayerError(
            f"bank: no launch from ({sx:.3f}, {sy:.3f}) m reaches ({tx:.3f}, {ty:.3f}) m off {cushion!r} "
            f"(best miss {float(np.hypot(*residual)):.3g} m)"
        )
        raise _bank_cache[key]
    velocity = (speed * math.sin(angle), speed * math.cos(angle))
    _bank_cache[key] = velocity
    return velocity


def _mirror_guess(
    court: Court, c, sx: float, sy: float, tx: float, ty: float, extra: float, decel: float
) -> tuple[float, float]:
    """The bank's first (angle, speed): toward the mirror image of the target in the line the disc's
    centre touches cushion ``c`` on, fast enough to slide there losing the normal speed to the
    cushion's restitution."""
    x0, y0, x1, y1 = c.geom
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    if (sx - x0) * nx + (sy - y0) * ny < 0:
        nx, ny = -nx, -ny
    offset = court.disc_radius + c.thickness / 2
    px, py = x0 + offset * nx, y0 + offset * ny
    depth_start = (sx - px) * nx + (sy - py) * ny
    depth_target = (tx - px) * nx + (ty - py) * ny
    mx, my = tx - 2.0 * depth_target * nx, ty - 2.0 * depth_target * ny
    total = math.hypot(mx - sx, my - sy)
    leg_in = total * depth_start / max(depth_start + depth_target, 1e-12)
    cos_in = (depth_start + depth_target) / total
    e = c.restitution
    keep = math.sqrt((e * cos_in) ** 2 + (1.0 - cos_in * cos_in))
    v_out = speed_for_distance(total - leg_in + max(extra, 0.0), decel)
    speed = math.sqrt((v_out / max(keep, 1e-6)) ** 2 + 2.0 * decel * leg_in)
    angle = math.atan2(mx - sx, my - sy)
    return angle, speed


def _newton_bank(
    free: Court, sx: float, sy: float, tx: float, ty: float, extra: float, angle: float, speed: float, max_iter: int
) -> tuple[float, float, np.ndarray]:
    """Damped Newton steps on (angle, speed) from a first guess, with a finite-difference Jacobian, until
    the miss is within ``BANK_TOLERANCE`` (or stops shrinking); the launch and its miss."""
    residual = _bank_residual(free, sx, sy, angle, speed, tx, ty, extra)
    for _ in range(max_iter):
        if float(np.hypot(*residual)) <= BANK_TOLERANCE:
            break
        h_angle, h_speed = 1e-7, 1e-7 * speed
        d_angle = (_bank_residual(free, sx, sy, angle + h_angle, speed, tx, ty, extra) - residual) / h_angle
        d_speed = (_bank_residual(free, sx, sy, angle, speed + h_speed, tx, ty, extra) - residual) / h_speed
        jacobian = np.column_stack([d_angle, d_speed])
        try:
            step = np.linalg.solve(jacobian, -residual)
        except np.linalg.LinAlgError:
            break
        size = float(np.hypot(*residual))
        for _ in range(10):  # halve the step until the miss shrinks
            trial_angle, trial_speed = angle + step[0], max(speed + step[1], 1e-6)
            trial = _bank_residual(free, sx, sy, trial_angle, trial_speed, tx, ty, extra)
            if float(np.hypot(*trial)) < size:
                angle, speed, residual = trial_angle, trial_speed, trial
                break
            step = step / 2.0
        else:
            break
    return angle, speed, residual
