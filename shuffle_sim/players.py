"""Simulated players: shot intents turned into launch states, execution noise, and two strategies.

A shot starts as an *intent*: draw to a point (``Draw``), take out a disc (``TakeOut``), guard a
disc or hide behind one (``Guard``, ``Hide``), open 20 (``Open20``, crokinole), a hanger attempt
(``Hanger``, horse collar) or a bank off a cushion (``Bank``, ricochet). ``Intent.aim`` turns it
into a ``Launch``: where the disc starts on the shooter's ``Stance`` (the line or arc a player
shoots from), and its velocity and spin.

- Straight shots are closed form. A disc sliding under Coulomb friction stops after
  v^2 / (2 mu g), so a draw to a point d metres away needs v0 = sqrt(2 mu g d), and a take-out
  aimed at a disc's centre with ``extra`` metres to spare needs sqrt(2 mu g (d + extra)) (DESIGN.md
  section 3). The start is the point of the stance whose straight path keeps clearest of the discs
  and pegs in the way, and of holes a slow disc would drop into (``clearest_start``); the stance's
  preferred point when its path is clear.
- Banks are solved numerically with the physics kernel: damped Newton iterations on (angle,
  speed), the Jacobian by finite differences, from the mirror-image guess (``solve_bank``).

Then the player's execution noise (``shuffle_sim.noise.NoiseModel``, presets in
``shuffle_sim/skills.toml``) perturbs the launch: the speed by a relative normal error, the
direction by an angle, the spin, and the start along the stance (lateral start). The draws come
from the counter-based Philox streams of ``shuffle_sim.noise``: shot ``k`` of game ``g`` under
seed ``s`` always gets the same errors (``shot_normals``), whatever else runs.

Strategies: ``FixedPlan`` plays the game's fixed plan; ``ExpectedValue`` simulates every candidate
shot under sampled execution errors in one batch call (``shuffle_sim.shots.simulate_shots``) and
plays the one with the best mean value, the value judged by the game's rules for the frame (own
minus opponent's frame score). What a game's plan, candidates and values are is the game's
``Tactics`` (``shuffle_sim.play_deck`` and the other ``play_*`` modules).

A ``Player`` is a skill and a strategy; ``parse_players`` reads the command line's
"expert-ev,novice-plan" syntax.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
from numba import njit

from shuffle_sim.court import Court
from shuffle_sim.geometry import point_segment_distance
from shuffle_sim.noise import (
    EXACT,
    STREAM_PLAY,
    STREAM_PLAYER_SAMPLES,
    NoiseError,
    NoiseModel,
    philox4x64,
    seed_key,
    skill_presets,
    word_to_uniform,
)
from shuffle_sim.rules.common import Turn
from shuffle_sim.scene import Scene
from shuffle_sim.shots import ShotBatch, simulate_shots


class PlayerError(ValueError):
    """A player or shot that cannot be made; the message names the field and the value."""


STANCE_SEGMENT = 0
STANCE_ARC = 1
#: A path at least this far (m) from every obstacle is clear: among clear starts the one nearest the
#: stance's preferred point is taken.
CLEAR_PATH = 0.02
#: Candidate-shot samples of the expected-value player unless its name says otherwise ("ev16").
DEFAULT_EV_SAMPLES = 24


# --------------------------------------------------------------------------------------------------
# numba kernels: stances, straight launches, noise


@njit(cache=True)
def stance_point(stance, t):
    """Point at parameter t in [0, 1] of a stance (segment: x0, y0 -> x1, y1; arc: cx, cy, R, a0 -> a1)."""
    if stance[0] == STANCE_SEGMENT:
        return stance[1] + t * (stance[3] - stance[1]), stance[2] + t * (stance[4] - stance[2])
    angle = stance[4] + t * (stance[5] - stance[4])
    return stance[1] + stance[3] * math.cos(angle), stance[2] + stance[3] * math.sin(angle)


@njit(cache=True)
def stance_length(stance):
    """Length (m) of a stance's segment or arc."""
    if stance[0] == STANCE_SEGMENT:
        return math.hypot(stance[3] - stance[1], stance[4] - stance[2])
    return stance[3] * abs(stance[5] - stance[4])


@njit(cache=True)
def start_is_free(stance, t, ox, oy, reach):
    """Whether a disc can start at stance parameter t: no obstacle nearer than its reach (touching is fine)."""
    px, py = stance_point(stance, t)
    for i in range(ox.shape[0]):
        dx = px - ox[i]
        dy = py - oy[i]
        if dx * dx + dy * dy < reach[i] * reach[i]:
            return False
    return True


@njit(cache=True)
def clearest_start(stance, preferred, samples, aim_x, aim_y, ox, oy, reach, exclude):
    """Stance parameter of the start whose straight path to (aim_x, aim_y) keeps clearest of obstacles.

    Obstacle i (centre ox[i], oy[i]) blocks a path passing nearer than ``reach[i]`` (2 r for a disc,
    r + its radius for a peg); ``exclude`` is an obstacle not counted (the disc a take-out aims at),
    -1 for none. Tried: the preferred parameter, then ``samples`` evenly spaced ones. A start that
    overlaps an obstacle is never taken; clearance beyond ``CLEAR_PATH`` counts as clear, and among
    equally clear starts the one nearest the preferred point wins. Returns -1.0 if every start overlaps.
    """
    best_t = -1.0
    best_score = -math.inf
    best_gap = math.inf
    for s in range(samples + 1):
        t = preferred if s == 0 else (s - 1) / (samples - 1)
        px, py = stance_point(stance, t)
        score = CLEAR_PATH
        blocked = False
        for i in range(ox.shape[0]):
            if i == exclude:
                continue
            dx = px - ox[i]
            dy = py - oy[i]
            if dx * dx + dy * dy < reach[i] * reach[i]:
                blocked = True
                break
            gap = point_segment_distance(ox[i], oy[i], px, py, aim_x, aim_y) - reach[i]
            score = min(score, gap)
        if blocked:
            continue
        off = abs(t - preferred)
        if score > best_score or (score == best_score and off < best_gap):
            best_t = t
            best_score = score
            best_gap = off
    return best_t


@njit(cache=True)
def straight_launch(stance, t, aim_x, aim_y, extra, decel):
    """Start point and velocity of a straight shot from stance parameter t through (aim_x, aim_y).

    The speed slides exactly to the aim point plus ``extra`` metres: sqrt(2 mu g (d + extra)).
    """
    sx, sy = stance_point(stance, t)
    dx = aim_x - sx
    dy = aim_y - sy
    d = math.hypot(dx, dy)
    reach = d + extra
    speed = math.sqrt(2.0 * decel * reach) if reach > 0.0 else 0.0
    return sx, sy, speed * dx / d, speed * dy / d


@njit(cache=True)
def perturb(stance, t, vx, vy, omega, z_speed, z_direction, z_spin, z_start, sd_speed, sd_direction, sd_spin,
            sd_start):
    """A launch with execution errors: speed times (1 + sd z), direction turned by sd z (rad), spin
    plus sd z, start moved sd z metres along the stance (kept on it). Zero deviations change nothing."""
    if sd_speed != 0.0 or sd_direction != 0.0:
        gain = 1.0 + sd_speed * z_speed
        gain = max(gain, 0.0)
        turn = sd_direction * z_direction
        c = math.cos(turn)
        s = math.sin(turn)
        vx, vy = gain * (c * vx - s * vy), gain * (s * vx + c * vy)
    if sd_spin != 0.0:
        omega = omega + sd_spin * z_spin
    if sd_start != 0.0:
        length = stance_length(stance)
        if length > 0.0:
            t = min(1.0, max(0.0, t + sd_start * z_start / length))
    return t, vx, vy, omega


@njit(cache=True, inline="always")
def _box_muller(u1, u2):
    radius = math.sqrt(-2.0 * math.log(u1))
    angle = 2.0 * math.pi * u2
    return radius * math.cos(angle), radius * math.sin(angle)


@njit(cache=True)
def shot_normals(k0, k1, game, stream, shot, sample):
    """Four standard normals for one shot: speed, direction, spin, start (in that order).

    Philox4x64-10 of counter (game, stream, shot, sample) under the seed's key, Box-Muller on the
    four words (``shuffle_sim.noise``): a pure function of its arguments.
    """
    w0, w1, w2, w3 = philox4x64(np.uint64(game), np.uint64(stream), np.uint64(shot), np.uint64(sample), k0, k1)
    z0, z1 = _box_muller(word_to_uniform(w0), word_to_uniform(w1))
    z2, z3 = _box_muller(word_to_uniform(w2), word_to_uniform(w3))
    return z0, z1, z2, z3


@njit(cache=True)
def half_turn(px, py, x, y):
    """A point turned half a turn about (px, py): the deck court's other end (as ``Court.for_end``)."""
    return 2.0 * px - x, 2.0 * py - y


@njit(cache=True)
def _perturb_batch(stance, ts, vxs, vys, ws, z, sd, ox, oy, reach, out_x, out_y, out_vx, out_vy, out_w):
    """Every launch (C) under every sample of errors (S, 4): rows c * S + s of the outputs."""
    n_samples = z.shape[0]
    for c in range(ts.shape[0]):
        for s in range(n_samples):
            t, vx, vy, w = perturb(stance, ts[c], vxs[c], vys[c], ws[c], z[s, 0], z[s, 1], z[s, 2], z[s, 3],
                                   sd[0], sd[1], sd[2], sd[3])
            if not start_is_free(stance, t, ox, oy, reach):
                t = ts[c]
            x, y = stance_point(stance, t)
            k = c * n_samples + s
            out_x[k] = x
            out_y[k] = y
            out_vx[k] = vx
            out_vy[k] = vy
            out_w[k] = w


@njit(cache=True)
def _sample_normals(k0, k1, game, shot, n_samples, out):
    for s in range(n_samples):
        z0, z1, z2, z3 = shot_normals(k0, k1, game, STREAM_PLAYER_SAMPLES, shot, s)
        out[s, 0] = z0
        out[s, 1] = z1
        out[s, 2] = z2
        out[s, 3] = z3


def noise_vector(skill: NoiseModel) -> np.ndarray:
    """A noise model's standard deviations as numba takes them: speed, direction, spin, start."""
    return np.array([skill.speed, skill.direction, skill.spin, skill.start], dtype=np.float64)


# --------------------------------------------------------------------------------------------------
# Stances, launches and what a shooter sees


@dataclass(frozen=True)
class Stance:
    """Where a shooter may start a disc: a segment (x0, y0, x1, y1) or an arc (cx, cy, R, a0, a1; radians).

    ``preferred`` is the parameter in [0, 1] a player starts from when its path is clear;
    ``samples`` how many evenly spaced starts ``clearest_start`` tries besides it.
    """

    kind: str
    geom: tuple[float, ...]
    preferred: float = 0.5
    samples: int = 9

    def __post_init__(self) -> None:
        if self.kind not in ("segment", "arc"):
            raise PlayerError(f"stance kind must be 'segment' or 'arc' (got {self.kind!r})")
        if len(self.geom) != (4 if self.kind == "segment" else 5) or not all(math.isfinite(v) for v in self.geom):
            raise PlayerError(f"stance geom must be 4 (segment) or 5 (arc) finite numbers (got {self.geom!r})")
        if not 0.0 <= self.preferred <= 1.0:
            raise PlayerError(f"stance preferred must lie in [0, 1] (got {self.preferred!r})")
        if self.samples < 2:
            raise PlayerError(f"stance samples must be at least 2 (got {self.samples!r})")
        code = STANCE_SEGMENT if self.kind == "segment" else STANCE_ARC
        object.__setattr__(self, "array", np.array([code, *self.geom, *([0.0] if self.kind == "segment" else [])],
                                                   dtype=np.float64))

    def point(self, t: float) -> tuple[float, float]:
        x, y = stance_point(self.array, float(t))
        return float(x), float(y)

    @property
    def length(self) -> float:
        return float(stance_length(self.array))


@dataclass(frozen=True)
class Launch:
    """A disc's launch state in SI: start (x, y) at stance parameter ``t``, velocity, spin."""

    t: float
    x: float
    y: float
    vx: float
    vy: float
    omega: float = 0.0

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "vx": self.vx, "vy": self.vy, "omega": self.omega}


class Tactics(Protocol):
    """What a game's players know: the fixed plan, the candidate shots, and what an outcome is worth."""

    def plan(self, ctx: ShotContext) -> Intent: ...

    def candidates(self, ctx: ShotContext) -> list[Intent]: ...

    def evaluate(self, ctx: ShotContext, batch: ShotBatch) -> np.ndarray:
        """Value to the shooter of each shot outcome of ``batch`` (own minus opponent's frame score)."""
        ...


@dataclass
class ShotContext:
    """Everything a player sees before a shot, in the frame the shot is planned in.

    ``court`` is the court at the target end (physics and judging); ``board_*`` the resting discs
    (team labels as the game's rules use them); ``shooter`` the shooter's label. ``seed``,
    ``game_index`` and ``shot`` name the shot's noise draws. ``info`` carries game facts the tactics
    need (crokinole: whether an opponent disc is on the board).
    """

    court: Court
    stance: Stance
    board_x: np.ndarray
    board_y: np.ndarray
    board_team: tuple[str, ...]
    shooter: str
    tactics: Tactics
    seed: int = 0
    game_index: int = 0
    shot: int = 0
    turn: Turn | None = None
    info: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.board_x = np.ascontiguousarray(self.board_x, dtype=np.float64).reshape(-1)
        self.board_y = np.ascontiguousarray(self.board_y, dtype=np.float64).reshape(-1)
        self.board_team = tuple(self.board_team)
        if not (self.board_x.size == self.board_y.size == len(self.board_team)):
            raise PlayerError("board_x, board_y and board_team must have one entry per disc")

    @property
    def n_discs(self) -> int:
        return int(self.board_x.size)

    @property
    def decel(self) -> float:
        """Sliding deceleration mu g, computed as the kernel computes it."""
        return self.court.params["mu"] * self.court.params["gravity"]

    @property
    def radius(self) -> float:
        return self.court.disc_radius

    def obstacles(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centres and reaches of what a path must clear: the board's discs (2 r; index = board index),
        pegs (r + their radius) and holes (their capture radius: a slow disc passing over one drops in)."""
        r = self.court.disc_radius
        pegs, holes = self.court.pegs, self.court.holes
        ox = np.concatenate([self.board_x, [p.x for p in pegs], [h.x for h in holes]])
        oy = np.concatenate([self.board_y, [p.y for p in pegs], [h.y for h in holes]])
        reach = np.concatenate([np.full(self.n_discs, 2.0 * r), [r + p.radius for p in pegs],
                                [h.capture_radius for h in holes]])
        return ox, oy, reach

    def board_scene(self) -> Scene | None:
        if self.n_discs == 0:
            return None
        zeros = np.zeros(self.n_discs)
        return Scene(court=self.court, x=self.board_x, y=self.board_y, vx=zeros, vy=zeros, omega=zeros,
                     team=list(self.board_team), source="board")

    def teams(self) -> np.ndarray:
        """Team label of each batch column: the board's discs, then the shot disc (the shooter's)."""
        return np.array([*self.board_team, self.shooter], dtype=object)


# --------------------------------------------------------------------------------------------------
# Intents


class Intent:
    """A shot as a player means it; ``aim`` gives its noise-free launch."""

    label: str = "shot"

    def aim(self, ctx: ShotContext) -> Launch:
        raise NotImplementedError


def _straight(ctx: ShotContext, aim_x: float, aim_y: float, extra: float, exclude: int, what: str) -> Launch:
    ox, oy, reach = ctx.obstacles()
    stance = ctx.stance
    t = clearest_start(stance.array, stance.preferred, stance.samples, aim_x, aim_y, ox, oy, reach, exclude)
    if t < 0.0:
        raise PlayerError(f"{what}: every start on the stance is blocked by a disc")
    sx, sy, vx, vy = straight_launch(stance.array, t, aim_x, aim_y, extra, ctx.decel)
    return Launch(float(t), float(sx), float(sy), float(vx), float(vy), 0.0)


def _check_target(ctx: ShotContext, target: int, what: str) -> int:
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 0 <= target < ctx.n_discs:
        raise PlayerError(f"{what}: target must be a board disc index in 0..{ctx.n_discs - 1} (got {target!r})")
    return int(target)


@dataclass(frozen=True)
class Draw(Intent):
    """Slide to rest at (x, y): straight, closed form."""

    x: float
    y: float
    label: str = "draw"

    def aim(self, ctx: ShotContext) -> Launch:
        return _straight(ctx, self.x, self.y, 0.0, -1, f"draw to ({self.x:.3f}, {self.y:.3f})")


@dataclass(frozen=True)
class TakeOut(Intent):
    """Hit board disc ``target`` full on, with speed to slide ``extra`` metres past its centre."""

    target: int
    extra: float
    label: str = "take-out"

    def aim(self, ctx: ShotContext) -> Launch:
        i = _check_target(ctx, self.target, "take-out")
        return _straight(ctx, float(ctx.board_x[i]), float(ctx.board_y[i]), self.extra, i, f"take-out of disc {i}")


def _along_line_of_fire(ctx: ShotContext, target: int, distance: float) -> tuple[float, float]:
    """The point ``distance`` metres from a disc toward the shooter's preferred start (negative: beyond it)."""
    sx, sy = ctx.stance.point(ctx.stance.preferred)
    x, y = float(ctx.board_x[target]), float(ctx.board_y[target])
    d = math.hypot(sx - x, sy - y)
    return x + distance * (sx - x) / d, y + distance * (sy - y) / d


@dataclass(frozen=True)
class Guard(Intent):
    """Draw to a point ``distance`` metres in front of board disc ``target`` (toward the shooter)."""

    target: int
    distance: float
    label: str = "guard"

    def point(self, ctx: ShotContext) -> tuple[float, float]:
        return _along_line_of_fire(ctx, _check_target(ctx, self.target, "guard"), self.distance)

    def aim(self, ctx: ShotContext) -> Launch:
        x, y = self.point(ctx)
        return _straight(ctx, x, y, 0.0, -1, f"guard of disc {self.target}")


@dataclass(frozen=True)
class Hide(Intent):
    """Draw to a point ``distance`` metres behind board disc ``target`` (seen from the shooter)."""

    target: int
    distance: float
    label: str = "hide"

    def point(self, ctx: ShotContext) -> tuple[float, float]:
        return _along_line_of_fire(ctx, _check_target(ctx, self.target, "hide"), -self.distance)

    def aim(self, ctx: ShotContext) -> Launch:
        x, y = self.point(ctx)
        return _straight(ctx, x, y, 0.0, -1, f"hide behind disc {self.target}")


@dataclass(frozen=True)
class Open20(Intent):
    """Crokinole: draw to rest on the 20 hole's centre (it drops in on the way: slower than capture)."""

    label: str = "open 20"

    def aim(self, ctx: ShotContext) -> Launch:
        if not ctx.court.holes:
            raise PlayerError(f"open 20: court {ctx.court.name!r} has no hole")
        hole = ctx.court.holes[0]
        return _straight(ctx, hole.x, hole.y, 0.0, -1, "open 20")


def hanger_point(court: Court, corner: int = 0, overhang: float = 0.5, along: float = 0.5) -> tuple[float, float]:
    """A rest point that hangs ``overhang`` of a disc radius over the court's end edge (``overhang`` "end").

    ``corner`` 0: at parameter ``along`` of the edge; +1 or -1: at the edge's end with the larger or
    smaller x, hanging over the side edge too (a corner hanger).
    """
    ends = [e for e in court.edges if e.overhang == "end" and e.kind == "segment"]
    if not ends:
        raise PlayerError(f"hanger: court {court.name!r} has no end edge to hang over")
    if corner not in (-1, 0, 1):
        raise PlayerError(f"hanger: corner must be -1, 0 or 1 (got {corner!r})")
    if not 0.0 < overhang < 1.0:
        raise PlayerError(f"hanger: overhang must lie in (0, 1) disc radii (got {overhang!r})")
    edge = ends[0]
    x0, y0, x1, y1 = edge.geom
    inset = (1.0 - overhang) * court.disc_radius

    def inward(seg):
        ax, ay, bx, by = seg
        length = math.hypot(bx - ax, by - ay)
        return -(by - ay) / length, (bx - ax) / length  # surface on the left of from -> to

    nx, ny = inward(edge.geom)
    if corner == 0:
        px, py = x0 + along * (x1 - x0), y0 + along * (y1 - y0)
        return px + inset * nx, py + inset * ny
    px, py = (x0, y0) if (x0 > x1) == (corner > 0) else (x1, y1)
    sides = [e for e in court.edges if e.overhang == "side" and e.kind == "segment"
             and ((e.geom[0], e.geom[1]) == (px, py) or (e.geom[2], e.geom[3]) == (px, py))]
    if not sides:
        raise PlayerError(f"hanger: court {court.name!r} has no side edge at the corner ({px:.3f}, {py:.3f})")
    sx, sy = inward(sides[0].geom)
    return px + inset * (nx + sx), py + inset * (ny + sy)


@dataclass(frozen=True)
class Hanger(Intent):
    """Horse collar: draw to hang over the far end (13), or at a corner over the end and a side (26)."""

    corner: int = 0
    overhang: float = 0.5
    along: float = 0.5
    label: str = "hanger"

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

    def aim(self, ctx: ShotContext) -> Launch:
        """Solve from the preferred start, then from the others nearest it first, until one reaches."""
        stance = ctx.stance
        ox, oy, reach = ctx.obstacles()
        starts = sorted({stance.preferred, *(k / (stance.samples - 1) for k in range(stance.samples))},
                        key=lambda t: (abs(t - stance.preferred), t))
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


def zone_spot(court: Court, zone: str, step: float = 0.002, x_range: tuple[float, float] | None = None
              ) -> tuple[float, float, float]:
    """The best draw target in a zone for a shooter whose errors run mostly along y: (x, y, depth).

    A speed error moves a draw along its line of fire far more than an aim error moves it across,
    so the target is the middle of the longest chord along y of the region where a disc scores the
    zone's value (judged on a ``step`` grid), and, among columns within a step of that length, the
    middle column. ``x_range`` limits the columns (a ricochet half).
    """
    from shuffle_sim.judge import judge_batch

    names = [z.name for z in court.zones]
    if zone not in names:
        raise PlayerError(f"zone: court {court.name!r} has no zone {zone!r} (zones: {', '.join(names)})")
    index = names.index(zone)
    z = court.zones[index]
    if z.kind == "polygon":
        x0, y0 = z.polygon.min(axis=0)
        x1, y1 = z.polygon.max(axis=0)
    else:
        cx, cy, _, outer = z.annulus
        x0, y0, x1, y1 = cx - outer, cy - outer, cx + outer, cy + outer
    if x_range is not None:
        x0, x1 = max(x0, x_range[0]), min(x1, x_range[1])
    xs = np.arange(x0 + step / 2, x1, step)
    ys = np.arange(y0 + step / 2, y1, step)
    if xs.size == 0 or ys.size == 0:
        raise PlayerError(f"zone: zone {zone!r} has no room in x range {x_range!r}")
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

#: Banks are solved to this distance from the target (m); a solution further than BANK_ACCEPT is refused.
BANK_TOLERANCE = 1e-9
BANK_ACCEPT = 1e-4
_bank_cache: dict = {}


def _bank_residual(court: Court, sx: float, sy: float, angle: float, speed: float, tx: float, ty: float,
                   extra: float) -> np.ndarray:
    """(across, along) miss of the shot's last straight leg against the target: both 0 on target."""
    from shuffle_sim.physics import simulate

    scene = Scene(court=court, x=np.array([sx]), y=np.array([sy]), vx=np.array([speed * math.sin(angle)]),
                  vy=np.array([speed * math.cos(angle)]), omega=np.zeros(1), source="bank")
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


def solve_bank(court: Court, start: tuple[float, float], target: tuple[float, float], extra: float = 0.0,
               cushion: str = "back bumper", max_iter: int = 30) -> tuple[float, float]:
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
    key = (court.source_path, court.end, tuple(sorted(court.params.items())), float(start[0]), float(start[1]),
           float(target[0]), float(target[1]), float(extra), cushion)
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
    # Mirror guess: reflect the target in the line the disc's centre touches the cushion on.
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
    v_out = math.sqrt(2.0 * decel * (total - leg_in + max(extra, 0.0)))
    speed = math.sqrt((v_out / max(keep, 1e-6)) ** 2 + 2.0 * decel * leg_in)
    angle = math.atan2(mx - sx, my - sy)

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
    if float(np.hypot(*residual)) > BANK_ACCEPT:
        _bank_cache[key] = PlayerError(
            f"bank: no launch from ({sx:.3f}, {sy:.3f}) m reaches ({tx:.3f}, {ty:.3f}) m off {cushion!r} "
            f"(best miss {float(np.hypot(*residual)):.3g} m)")
        raise _bank_cache[key]
    velocity = (speed * math.sin(angle), speed * math.cos(angle))
    _bank_cache[key] = velocity
    return velocity


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


@dataclass(frozen=True)
class Decision:
    """A chosen shot: the intent, its noise-free launch, and (expected-value player) what it was worth."""

    intent: Intent
    launch: Launch
    expected: float | None = None
    considered: int = 1


@dataclass(frozen=True)
class FixedPlan:
    """Plays the game's fixed plan (``Tactics.plan``): no look-ahead, no simulation."""

    name = "plan"

    def choose(self, ctx: ShotContext, skill: NoiseModel) -> Decision:
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

    name = "ev"
    samples: int = DEFAULT_EV_SAMPLES

    def __post_init__(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise PlayerError(f"samples must be a positive integer (got {self.samples!r})")

    def weigh(self, ctx: ShotContext, skill: NoiseModel, intents: list[Intent]
              ) -> tuple[list[Intent], list[Launch], np.ndarray]:
        """Aim the intents and return those that could be aimed, their launches and mean values."""
        aimed, launches = [], []
        for intent in intents:
            try:
                launches.append(intent.aim(ctx))
            except PlayerError:
                continue
            aimed.append(intent)
        if not aimed:
            return [], [], np.empty(0)
        n_samples = 1 if skill.is_exact else self.samples
        k0, k1 = seed_key(ctx.seed)
        z = np.empty((n_samples, 4))
        _sample_normals(k0, k1, np.uint64(ctx.game_index), np.uint64(ctx.shot), n_samples, z)
        n = len(aimed) * n_samples
        out = [np.empty(n) for _ in range(5)]
        ox, oy, reach = ctx.obstacles()
        ts, vxs, vys, ws = (np.array([getattr(launch, name) for launch in launches], dtype=np.float64)
                            for name in ("t", "vx", "vy", "omega"))
        _perturb_batch(ctx.stance.array, ts, vxs, vys, ws, z, noise_vector(skill), ox, oy, reach, *out)
        batch = simulate_shots(ctx.court, *out, board=ctx.board_scene())
        values = np.asarray(ctx.tactics.evaluate(ctx, batch), dtype=np.float64).reshape(len(aimed), n_samples)
        return aimed, launches, values.mean(axis=1)

    def choose(self, ctx: ShotContext, skill: NoiseModel) -> Decision:
        intents, launches, means = self.weigh(ctx, skill, ctx.tactics.candidates(ctx))
        if not intents:
            return FixedPlan().choose(ctx, skill)
        best = int(np.argmax(means))
        return Decision(intents[best], launches[best], float(means[best]), len(intents))


@dataclass(frozen=True)
class Player:
    """A simulated player: execution noise (``skill``) and a strategy (``FixedPlan`` or ``ExpectedValue``)."""

    name: str
    skill: NoiseModel
    strategy: FixedPlan | ExpectedValue

    def decide(self, ctx: ShotContext) -> Decision:
        return self.strategy.choose(ctx, self.skill)

    def play(self, ctx: ShotContext) -> tuple[Decision, Launch]:
        """Decide and execute: the decision and the launch as played (with this shot's errors)."""
        decision = self.decide(ctx)
        return decision, execute(ctx, decision.launch, self.skill)


def skills_for(game: str) -> dict[str, NoiseModel]:
    """The skill presets a player of ``game`` can name: the game's presets, and ``exact`` (no noise)."""
    try:
        presets = dict(skill_presets(game))
    except NoiseError as exc:
        raise PlayerError(str(exc)) from None
    presets.setdefault("exact", EXACT)
    return presets


def _normalise(name: str) -> str:
    return " ".join(name.replace("_", " ").replace("-", " ").lower().split())


def parse_player(game: str, text: str) -> Player:
    """A player from ``SKILL[-STRATEGY]``: a skill preset of the game (``expert``, ``top-competitive``,
    ``exact``) and ``plan`` (the default) or ``ev`` (``ev16``: 16 samples per candidate)."""
    if not isinstance(text, str) or not text.strip():
        raise PlayerError(f"players: a player must be SKILL or SKILL-STRATEGY (got {text!r})")
    spec = text.strip()
    skill_text, strategy_text = spec, "plan"
    head, sep, tail = spec.rpartition("-")
    if sep and (tail.lower() == "plan" or tail.lower().startswith("ev")):
        skill_text, strategy_text = head, tail.lower()
    presets = skills_for(game)
    by_name = {_normalise(name): name for name in presets}
    key = _normalise(skill_text)
    if key not in by_name:
        raise PlayerError(f"players: unknown skill {skill_text!r} in {spec!r} for {game} "
                          f"(known: {', '.join(by_name.values())})")
    skill = presets[by_name[key]]
    if strategy_text == "plan":
        strategy: FixedPlan | ExpectedValue = FixedPlan()
    else:
        digits = strategy_text[2:]
        if digits and not digits.isdigit():
            raise PlayerError(f"players: unknown strategy {strategy_text!r} in {spec!r} (plan, ev or evN)")
        samples = int(digits) if digits else DEFAULT_EV_SAMPLES
        if samples < 1:
            raise PlayerError(f"players: evN needs N >= 1 samples (got {strategy_text!r} in {spec!r})")
        strategy = ExpectedValue(samples)
    return Player(spec, skill, strategy)


def parse_players(game: str, text: str) -> tuple[Player, Player]:
    """Two players from "A,B" (one name alone plays both sides)."""
    if not isinstance(text, str):
        raise PlayerError(f"players: expected SKILL[-STRATEGY],SKILL[-STRATEGY] (got {text!r})")
    parts = [p for p in (part.strip() for part in text.split(","))]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise PlayerError(f"players: expected two players separated by a comma, e.g. expert-ev,novice-plan "
                          f"(got {text!r})")
    return parse_player(game, parts[0]), parse_player(game, parts[1])
