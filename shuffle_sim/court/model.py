"""The court model: a court or table as frozen records in SI units, in the court's own frame.

A ``Court`` holds the surface outline, edges where discs fall, cushions, pegs, holes, lines (with
width and what touching them does), zones (with values), rule lines, the disc and the materials,
for the scoring end it is set to (``for_end``). Geometry that follows from the data lives here too
(an edge's inward normal, the surface's bounds, whether a centre is on the surface), so that no
caller computes it again. Loading and validating court files is ``shuffle_sim.court._loading``; packing
a court into flat arrays for numba is the judging and physics packages' business.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from shuffle_sim.court.errors import CourtError
from shuffle_sim.court.friction_law import check_friction_law, diagonal
from shuffle_sim.court.materials import check_param, check_spin_params
from shuffle_sim.court.speed import SpeedCourse, mu_from_speed_or_mu, speed_for_mu
from shuffle_sim.court.steepness import SteepestPoint, check_steepness, steepest_point, too_little_friction
from shuffle_sim.court.surface_shape import FLAT, SHAPE_KEYS, SurfaceShape, crown_geometry, read_shape
from shuffle_sim.games import CUSTOM

# --------------------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class Line:
    """A painted line: a straight band (flat ends) or a circular band, ``width`` wide."""

    name: str
    kind: str  # "segment" or "circle"
    geom: tuple[float, float, float, float]  # segment x0, y0, x1, y1; circle cx, cy, R, 0
    width: float
    touch_value: int | None = None  # a touching disc is worth at most the lowest of these
    touch_dead: bool = False  # touching it makes the disc dead
    touch_alive: bool = False  # touching it keeps alive a disc whose centre lies in a dead zone
    judged: bool = True  # False: drawn only (deck separation triangle, crokinole quadrant lines)


@dataclass(frozen=True)
class Zone:
    """A scoring area, decided by the disc's centre (lines on its border are handled by touching)."""

    name: str
    value: int
    kind: str  # "polygon" or "annulus" (a circle is an annulus with inner radius 0)
    polygon: np.ndarray | None = None  # (n, 2) open ring, counter-clockwise
    annulus: tuple[float, float, float, float] | None = None  # cx, cy, inner, outer
    dead: bool = False


@dataclass(frozen=True)
class Edge:
    """Where the surface ends: a disc whose centre crosses it falls; before that it overhangs."""

    name: str
    kind: str  # "segment" (surface on its left, walking from -> to) or "circle" (surface inside)
    geom: tuple[float, float, float, float]
    overhang: str = "none"  # "end", "side" or "none": what overhanging it means for hangers

    def inward_normal(self, x: float = 0.0, y: float = 0.0) -> tuple[float, float]:
        """The unit normal pointing onto the surface: a straight edge's left normal (the surface is on
        the left of from -> to), or toward a circular edge's centre from (x, y)."""
        if self.kind == "segment":
            x0, y0, x1, y1 = self.geom
            length = math.hypot(x1 - x0, y1 - y0)
            return -(y1 - y0) / length, (x1 - x0) / length
        cx, cy = self.geom[0], self.geom[1]
        rho = math.hypot(x - cx, y - cy)
        return ((cx - x) / rho, (cy - y) / rho) if rho > 0 else (-1.0, 0.0)


@dataclass(frozen=True)
class Cushion:
    """A bumper, backstop or rail: a segment (a capsule of the given thickness) or a circle hit from inside."""

    name: str
    kind: str  # "segment" or "circle"
    geom: tuple[float, float, float, float]
    thickness: float
    restitution: float
    friction: float
    kills: bool = False  # touching it makes a disc dead (deck backstop, MSA C-20)
    yield_speed: float = math.inf  # restitution law (physics.restitution); inf: a constant restitution


@dataclass(frozen=True)
class Peg:
    name: str
    x: float
    y: float
    radius: float
    restitution: float
    friction: float
    yield_speed: float = math.inf  # restitution law (physics.restitution); inf: a constant restitution


@dataclass(frozen=True)
class Hole:
    name: str
    x: float
    y: float
    radius: float
    capture_radius: float
    capture_speed: float
    value: int


@dataclass(frozen=True)
class KillLine:
    """A rule line: a moving disc entirely past it (in direction ``past``) becomes dead."""

    line: str
    point: tuple[float, float]  # a point of the line's far edge, shifted by nothing yet
    normal: tuple[float, float]  # unit vector pointing "past"
    half_width: float


@dataclass(frozen=True)
class Court:
    """A court or table, in SI units and in the court's own frame (see ``frame``)."""

    name: str
    game: str
    title: str
    source_path: str
    frame: dict[str, str]
    sources: tuple[str, ...]
    disc_radius: float
    disc_thickness: float
    disc_mass: float
    params: dict[str, Any]  # numbers, and the spin model's name
    surface_kind: str  # "polygon" or "circle"
    surface_polygon: np.ndarray | None
    surface_circle: tuple[float, float, float] | None
    edges: tuple[Edge, ...]
    cushions: tuple[Cushion, ...]
    pegs: tuple[Peg, ...]
    holes: tuple[Hole, ...]
    lines: tuple[Line, ...]
    zones: tuple[Zone, ...]
    kill_lines: tuple[KillLine, ...]
    hanger_end_value: int | None
    hanger_corner_value: int | None
    ends: dict[str, tuple[float, float] | None] = field(default_factory=dict)
    end: str = "default"
    speed_course: SpeedCourse | None = None  # what the court's speed in seconds means (``speed``)

    @property
    def speed(self) -> float | None:
        """The court's speed as players rate it: the seconds a disc without spin slides over its speed
        course, sqrt(2 d / (mu g)) (``court.speed``); None for a court without a speed course."""
        if self.speed_course is None:
            return None
        p = self.params
        return speed_for_mu(p["mu"], self.speed_course.length, p["gravity"], p["mu_speed"])

    surface_shape: SurfaceShape = FLAT  # grade, crown, height and friction maps (``surface_shape``)

    # ---- derived views ---------------------------------------------------------------------------
    def line(self, name: str) -> Line:
        for line in self.lines:
            if line.name == name:
                return line
        raise KeyError(f"court {self.name!r} has no line {name!r}")

    def edge(self, name: str) -> Edge:
        for edge in self.edges:
            if edge.name == name:
                return edge
        raise KeyError(f"court {self.name!r} has no edge {name!r}")

    @property
    def judged_lines(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.judged)

    @property
    def zone_names(self) -> list[str]:
        """Zone names as judged: the zones, then the holes (a holed disc's zone is the hole)."""
        return [z.name for z in self.zones] + [h.name for h in self.holes]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """xmin, ymin, xmax, ymax of the playing surface."""
        if self.surface_kind == "circle":
            assert self.surface_circle is not None
            cx, cy, r = self.surface_circle
            return cx - r, cy - r, cx + r, cy + r
        p = self.surface_polygon
        assert p is not None
        return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())

    def for_end(self, end: str | None) -> Court:
        """The court with its scoring diagram (zones, lines, rule lines) at the named end.

        A court file describes the diagram at its default end; another end is that diagram turned half
        a turn about the point given in ``[ends]`` (the deck court's head end). Physical features
        (surface, edges, cushions, pegs, holes) stay where they are.
        """
        if end is None or end == self.end:
            return self
        if end not in self.ends:
            known = ", ".join(self.ends) or self.end
            raise CourtError(f"{self.source_path}: court {self.name!r} has no end {end!r} (ends: {known})")
        # Back to the end described as written, then on to the requested one (half turns undo themselves).
        court = self
        for pivot in (self.ends.get(self.end), self.ends[end]):
            if pivot is not None:
                court = court._half_turned(pivot)
        return replace(court, end=end)

    def _half_turned(self, pivot: tuple[float, float]) -> Court:
        px, py = pivot

        def turn(x, y):
            return 2.0 * px - x, 2.0 * py - y

        lines = []
        for ln in self.lines:
            if ln.kind == "segment":
                a = turn(ln.geom[0], ln.geom[1])
                b = turn(ln.geom[2], ln.geom[3])
                lines.append(replace(ln, geom=(a[0], a[1], b[0], b[1])))
            else:
                c = turn(ln.geom[0], ln.geom[1])
                lines.append(replace(ln, geom=(c[0], c[1], ln.geom[2], 0.0)))
        zones = []
        for z in self.zones:
            if z.kind == "polygon":
                assert z.polygon is not None
                # A half turn is a rotation: the ring stays counter-clockwise.
                zones.append(replace(z, polygon=np.column_stack(turn(z.polygon[:, 0], z.polygon[:, 1]))))
            else:
                assert z.annulus is not None
                c = turn(z.annulus[0], z.annulus[1])
                zones.append(replace(z, annulus=(c[0], c[1], z.annulus[2], z.annulus[3])))
        kills = [replace(k, point=turn(*k.point), normal=(-k.normal[0], -k.normal[1])) for k in self.kill_lines]
        return replace(self, lines=tuple(lines), zones=tuple(zones), kill_lines=tuple(kills))

    def with_params(self, **overrides: Any) -> Court:
        """A copy with material parameters, or the surface's shape, replaced (validated like the court
        file's).

        ``speed`` (a time, "14 s") sets mu from the court's speed course (``speed``); giving it with
        ``mu`` is an error naming both.

        A cushion, peg or hole restitution/friction/yield-speed/capture-speed override applies to every cushion,
        peg or hole of the court, replacing the values the court file gave them one by one. The shape
        keys (``slope``, ``crown``, ``height_map``, ``friction_map``; ``courts/README.md``) replace the
        court's own; a map's file is read relative to the current directory unless its path is
        absolute. A surface steeper than its friction anywhere is refused (``CourtError``).
        """
        params = dict(self.params)
        given: dict[str, Any] = {}
        shape_entries: dict[str, Any] = {}
        for key, value in overrides.items():
            if key in SHAPE_KEYS:
                shape_entries[key] = value
                continue
            if value is None or key == "speed":
                continue
            given[key] = params[key] = check_param(f"params.{key}", key, value, where="parameters")
        mu = mu_from_speed_or_mu(
            overrides, self.speed_course, params["gravity"], "parameters", "params", params["mu_speed"]
        )
        if mu is not None:
            params["mu"] = check_param("params.speed", "mu", mu, where="parameters")
        check_spin_params(params, "parameters", "params")
        check_friction_law(params, diagonal(self.bounds), "parameters", "params")
        shape = self.surface_shape
        if any(value is not None for value in shape_entries.values()):
            base = replace(shape, **crown_geometry(self.surface_kind, self.surface_polygon, self.surface_circle))
            shape = read_shape(shape_entries, "parameters", "params", base, self.bounds)
        if shape is not self.surface_shape or (params["mu"] != self.params["mu"] and not shape.flat):
            origin = self.frame.get("origin")
            check_steepness(shape, params["mu"], self.bounds, self.on_surface_array, "parameters", "params", origin)
        cushions = tuple(
            replace(
                c,
                restitution=given.get("cushion_restitution", c.restitution),
                friction=given.get("cushion_friction", c.friction),
                yield_speed=given.get("cushion_yield_speed", c.yield_speed),
            )
            for c in self.cushions
        )
        pegs = tuple(
            replace(
                g,
                restitution=given.get("peg_restitution", g.restitution),
                friction=given.get("peg_friction", g.friction),
                yield_speed=given.get("peg_yield_speed", g.yield_speed),
            )
            for g in self.pegs
        )
        holes = tuple(replace(h, capture_speed=given.get("hole_capture_speed", h.capture_speed)) for h in self.holes)
        return replace(self, params=params, cushions=cushions, pegs=pegs, holes=holes, surface_shape=shape)

    def plays(self, game: str) -> bool:
        """Whether ``game``'s rules may be played on this court: a court of that game, or a custom
        court (``games.CUSTOM``: judged geometrically, with no game's rules of its own)."""
        return self.game in (game, CUSTOM)

    def least_friction(self) -> float:
        """The least mu that keeps this court's surface flatter than its friction everywhere: a disc
        comes to rest under any larger mu (0 on a flat court)."""
        return self.steepest_point().least_mu

    def steepest_point(self) -> SteepestPoint:
        """Where this court's grade weighs most against its friction (``steepness.steepest_point``)."""
        return self.memo("steepest_point", lambda c: steepest_point(c.surface_shape, c.bounds, c.on_surface_array))

    def friction_refusal(self, mu: float) -> str:
        """Why ``mu`` (at most ``least_friction``) is too little friction for this court, in players'
        words: the grade and where, the steepest grade that mu holds there, the mu the court needs."""
        return too_little_friction(self.steepest_point(), mu, self.name, self.frame.get("origin"))

    def memo(self, key: str, build):
        """``build(self)``, computed once per court object and kept on it: the packings of the judging
        and physics kernels (``judge.packing``, ``physics.packing``). A changed court is a new object
        (``for_end``, ``with_params``), so it never meets a stale packing."""
        memo = self.__dict__.setdefault("_memo", {})
        found = memo.get(key)
        if found is None:
            found = memo[key] = build(self)
        return found

    def on_surface(self, x: float, y: float) -> bool:
        """Whether a centre at (x, y) lies on the playing surface (edges included)."""
        if self.surface_kind == "circle":
            assert self.surface_circle is not None
            cx, cy, r = self.surface_circle
            return math.hypot(x - cx, y - cy) <= r
        assert self.surface_polygon is not None
        return _point_in_polygon(x, y, self.surface_polygon)

    def on_surface_array(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``on_surface`` for arrays of points (the surface shape's checks), by the same crossing-number
        rule; points exactly on the outline may come out either way."""
        return surface_contains(self.surface_kind, self.surface_polygon, self.surface_circle, x, y)


def _point_in_polygon(x: float, y: float, poly: np.ndarray) -> bool:
    """``geometry.point_in_polygon_or_on_boundary`` in plain Python: the same crossing-number test and
    the same exact on-segment test, in the same floating-point operations, so the same answers, for a
    single point without loading or compiling a numba kernel (a court or experiment file's check)."""
    ring = np.asarray(poly, dtype=np.float64).tolist()
    inside = False
    xj, yj = ring[-1]
    for xi, yi in ring:
        if (yi > y) != (yj > y) and x < xi + (y - yi) * (xj - xi) / (yj - yi):
            inside = not inside
        xj, yj = xi, yi
    if inside:
        return True
    x0, y0 = ring[-1]
    for x1, y1 in ring:
        if (
            min(x0, x1) <= x <= max(x0, x1)
            and min(y0, y1) <= y <= max(y0, y1)
            and (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) == 0.0
        ):
            return True
        x0, y0 = x1, y1
    return False


def surface_contains(kind: str, polygon: np.ndarray | None, circle, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Whether each point (x, y) lies on a surface outline (a polygon or a circle), vectorised."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if kind == "circle":
        cx, cy, r = circle
        return np.hypot(x - cx, y - cy) <= r
    assert polygon is not None  # a surface is a circle or a polygon
    inside = np.zeros(np.broadcast(x, y).shape, dtype=bool)
    xj, yj = polygon[-1]
    for xi, yi in polygon:
        if yi != yj:
            crosses = (yi > y) != (yj > y)
            inside ^= crosses & (x < xi + (y - yi) * (xj - xi) / (yj - yi))
        xj, yj = xi, yi
    return inside
