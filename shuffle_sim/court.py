"""Court model: load and validate ``courts/*.toml``, and pack a court into flat arrays for numba.

A court file is data, not code: surface outline, lines (with widths and what touching them does),
zones (with values), edges where discs fall, cushions, pegs, holes, rule lines, disc size and
materials. The format is documented in ``courts/README.md``; every length is a string with a unit
("52 ft", "1 3/8 in", "0.02 m") or a plain number in metres. Everything here is SI.

Errors name the file, the key and the value (``CourtError``), so a user writing a court file can
fix it without reading this module.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from shuffle_sim.tables import TableReader

#: Marker in ``line_touch_value`` for a line that does not change a touching disc's value.
NO_TOUCH_VALUE = np.iinfo(np.int64).max
#: Marker for a court without a hanger value.
NO_HANGER_VALUE = np.iinfo(np.int64).max

OVERHANG_KINDS = {"none": 0, "end": 1, "side": 2}
STANDARD_GRAVITY = 9.80665

PARAM_DEFAULTS = {
    "mu": None,  # required in [materials]
    "disc_restitution": 0.8,
    "disc_friction": 0.1,
    "cushion_restitution": 0.5,
    "cushion_friction": 0.1,
    "peg_restitution": 0.6,
    "peg_friction": 0.1,
    "hole_capture_speed": 0.5,
    "gravity": STANDARD_GRAVITY,
    "contact_inner_ratio": 0.0,  # eta: inner over outer radius of the annulus a disc presses on
    "inertia_ratio": 0.5,  # I / (m r^2): 0.5 for a uniform disc
    "spin_model": "coupled",  # "coupled" (Farkas et al. 2003) or "decoupled" (spin and slide apart)
}
#: The values of ``spin_model``.
SPIN_MODELS = ("coupled", "decoupled")
#: Parameters that are probabilities-like ratios and must lie in [0, 1].
UNIT_INTERVAL_PARAMS = {"disc_restitution", "cushion_restitution", "peg_restitution"}


class CourtError(ValueError):
    """A court file that cannot be used; the message names the file, the key and the value."""


def _courts_dirs() -> list[Path]:
    """Where court names are looked up, in order: the folders of ``SHUFFLE_SIM_COURTS``, the project's
    ``courts/`` (a source checkout or an editable install), and ``shuffle_sim/courts`` (a wheel)."""
    dirs = []
    env = os.environ.get("SHUFFLE_SIM_COURTS")
    if env:
        dirs.extend(Path(p) for p in env.split(os.pathsep) if p)
    package = Path(__file__).resolve().parent
    dirs.append(package.parent / "courts")
    dirs.append(package / "courts")
    return dirs


def list_courts() -> list[str]:
    """Names of the courts that ``load_court`` finds by name (files ``courts/NAME.toml``)."""
    names: set[str] = set()
    for d in _courts_dirs():
        if d.is_dir():
            names.update(p.stem for p in d.glob("*.toml"))
    return sorted(names)


def court_path(name_or_path: str | os.PathLike) -> Path:
    """Resolve a court name (``deck``) or a path to a court file."""
    text = os.fspath(name_or_path)
    candidate = Path(text)
    if candidate.suffix == ".toml" or os.sep in text or candidate.exists():
        if not candidate.is_file():
            raise CourtError(f"{text}: no such court file")
        return candidate
    for d in _courts_dirs():
        path = d / f"{text}.toml"
        if path.is_file():
            return path
    raise CourtError(f"unknown court {text!r} (known: {', '.join(list_courts())})")


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


@dataclass(frozen=True)
class Peg:
    name: str
    x: float
    y: float
    radius: float
    restitution: float
    friction: float


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


class JudgeArrays(NamedTuple):
    """A court's judging geometry for one end, packed for numba (see ``shuffle_sim.judge``)."""

    disc_radius: float
    surface_kind: int  # 0 polygon, 1 circle
    surface_polygon: np.ndarray  # (n, 2)
    surface_circle: np.ndarray  # (3,) cx, cy, R
    zone_kind: np.ndarray  # (Z,) int64: 0 polygon, 1 annulus
    zone_value: np.ndarray  # (Z,) int64
    zone_dead: np.ndarray  # (Z,) bool
    zone_start: np.ndarray  # (Z + 1,) int64 offsets into zone_vertices
    zone_vertices: np.ndarray  # (V, 2)
    zone_annulus: np.ndarray  # (Z, 4)
    line_kind: np.ndarray  # (L,) int64: 0 segment, 1 circle
    line_geom: np.ndarray  # (L, 4)
    line_half_width: np.ndarray  # (L,)
    line_touch_value: np.ndarray  # (L,) int64, NO_TOUCH_VALUE where none
    line_touch_dead: np.ndarray  # (L,) bool
    line_touch_alive: np.ndarray  # (L,) bool
    edge_kind: np.ndarray  # (E,) int64: 0 segment, 1 circle
    edge_geom: np.ndarray  # (E, 4)
    edge_overhang: np.ndarray  # (E,) int64: 0 none, 1 end, 2 side
    hole_geom: np.ndarray  # (H, 3) cx, cy, capture radius
    hole_value: np.ndarray  # (H,) int64
    hanger_end_value: int
    hanger_corner_value: int


class KernelArrays(NamedTuple):
    """A court's physical geometry and materials, packed for the physics kernel (SI)."""

    disc_radius: float
    disc_mass: float
    mu: float
    gravity: float
    disc_restitution: float
    disc_friction: float
    fall_segments: np.ndarray  # (F, 4) x0, y0, x1, y1: surface on the left of from -> to
    fall_circles: np.ndarray  # (C, 3) cx, cy, R: surface inside
    cushion_segments: np.ndarray  # (S, 8) x0, y0, x1, y1, half_thickness, e, friction, kills
    cushion_circles: np.ndarray  # (A, 6) cx, cy, R, e, friction, kills (hit from inside)
    pegs: np.ndarray  # (P, 5) cx, cy, radius, e, friction
    holes: np.ndarray  # (H, 4) cx, cy, capture radius, capture speed
    kill_lines: np.ndarray  # (K, 4) px, py, nx, ny: dead once (centre - p) . n > 0
    contact_inner_ratio: float  # eta: the disc presses on the annulus eta r < rho < r
    inertia_ratio: float  # I / (m r^2)
    spin_tables: np.ndarray  # the coupled model's packed tables (physics.coupled); no rows: decoupled


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
    params: dict[str, float]
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
            cx, cy, r = self.surface_circle
            return cx - r, cy - r, cx + r, cy + r
        p = self.surface_polygon
        return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())

    def for_end(self, end: str | None) -> "Court":
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

    def _half_turned(self, pivot: tuple[float, float]) -> "Court":
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
                # A half turn is a rotation: the ring stays counter-clockwise.
                zones.append(replace(z, polygon=np.column_stack(turn(z.polygon[:, 0], z.polygon[:, 1]))))
            else:
                c = turn(z.annulus[0], z.annulus[1])
                zones.append(replace(z, annulus=(c[0], c[1], z.annulus[2], z.annulus[3])))
        kills = [
            replace(k, point=turn(*k.point), normal=(-k.normal[0], -k.normal[1])) for k in self.kill_lines
        ]
        return replace(self, lines=tuple(lines), zones=tuple(zones), kill_lines=tuple(kills))

    def with_params(self, **overrides: float) -> "Court":
        """A copy with material parameters replaced (validated like the court file's).

        A cushion, peg or hole restitution/friction/capture-speed override applies to every cushion,
        peg or hole of the court, replacing the values the court file gave them one by one.
        """
        params = dict(self.params)
        given = {}
        for key, value in overrides.items():
            if value is None:
                continue
            given[key] = params[key] = _check_param(f"params.{key}", key, value, where="parameters")
        _check_spin_params(params, "parameters", "params")
        cushions = tuple(
            replace(c, restitution=given.get("cushion_restitution", c.restitution),
                    friction=given.get("cushion_friction", c.friction))
            for c in self.cushions
        )
        pegs = tuple(
            replace(g, restitution=given.get("peg_restitution", g.restitution),
                    friction=given.get("peg_friction", g.friction))
            for g in self.pegs
        )
        holes = tuple(replace(h, capture_speed=given.get("hole_capture_speed", h.capture_speed)) for h in self.holes)
        return replace(self, params=params, cushions=cushions, pegs=pegs, holes=holes)

    # ---- packing for numba -----------------------------------------------------------------------
    def judge_arrays(self) -> JudgeArrays:
        """Pack the judging geometry of this court (at its current end) into flat arrays."""
        zones = self.zones
        zone_kind = np.array([0 if z.kind == "polygon" else 1 for z in zones], dtype=np.int64)
        zone_value = np.array([z.value for z in zones], dtype=np.int64)
        zone_dead = np.array([z.dead for z in zones], dtype=np.bool_)
        starts = [0]
        verts = []
        annuli = np.zeros((len(zones), 4))
        for i, z in enumerate(zones):
            if z.kind == "polygon":
                verts.append(z.polygon)
                starts.append(starts[-1] + len(z.polygon))
            else:
                annuli[i] = z.annulus
                starts.append(starts[-1])
        zone_vertices = np.vstack(verts) if verts else np.zeros((0, 2))
        lines = self.judged_lines
        if len(lines) > 64:
            raise CourtError(f"{self.source_path}: at most 64 judged lines are supported, got {len(lines)}")
        line_kind = np.array([0 if ln.kind == "segment" else 1 for ln in lines], dtype=np.int64)
        line_geom = np.array([ln.geom for ln in lines], dtype=np.float64).reshape(-1, 4)
        line_half_width = np.array([ln.width / 2 for ln in lines], dtype=np.float64)
        line_touch_value = np.array(
            [NO_TOUCH_VALUE if ln.touch_value is None else ln.touch_value for ln in lines], dtype=np.int64
        )
        edges = self.edges
        surface_polygon = self.surface_polygon if self.surface_polygon is not None else np.zeros((0, 2))
        surface_circle = np.array(self.surface_circle if self.surface_circle else (0.0, 0.0, 0.0))
        return JudgeArrays(
            disc_radius=self.disc_radius,
            surface_kind=0 if self.surface_kind == "polygon" else 1,
            surface_polygon=np.ascontiguousarray(surface_polygon, dtype=np.float64),
            surface_circle=surface_circle.astype(np.float64),
            zone_kind=zone_kind,
            zone_value=zone_value,
            zone_dead=zone_dead,
            zone_start=np.array(starts, dtype=np.int64),
            zone_vertices=np.ascontiguousarray(zone_vertices, dtype=np.float64),
            zone_annulus=annuli,
            line_kind=line_kind,
            line_geom=np.ascontiguousarray(line_geom),
            line_half_width=line_half_width,
            line_touch_value=line_touch_value,
            line_touch_dead=np.array([ln.touch_dead for ln in lines], dtype=np.bool_),
            line_touch_alive=np.array([ln.touch_alive for ln in lines], dtype=np.bool_),
            edge_kind=np.array([0 if e.kind == "segment" else 1 for e in edges], dtype=np.int64),
            edge_geom=np.array([e.geom for e in edges], dtype=np.float64).reshape(-1, 4),
            edge_overhang=np.array([OVERHANG_KINDS[e.overhang] for e in edges], dtype=np.int64),
            hole_geom=np.array([(h.x, h.y, h.capture_radius) for h in self.holes], dtype=np.float64).reshape(-1, 3),
            hole_value=np.array([h.value for h in self.holes], dtype=np.int64),
            hanger_end_value=NO_HANGER_VALUE if self.hanger_end_value is None else self.hanger_end_value,
            hanger_corner_value=NO_HANGER_VALUE if self.hanger_corner_value is None else self.hanger_corner_value,
        )

    def kernel_arrays(self) -> KernelArrays:
        """Pack the physical court (at its current end, for the rule lines) for the physics kernel."""
        p = self.params
        fall_segments = np.array([e.geom for e in self.edges if e.kind == "segment"], dtype=np.float64).reshape(-1, 4)
        fall_circles = np.array(
            [e.geom[:3] for e in self.edges if e.kind == "circle"], dtype=np.float64
        ).reshape(-1, 3)
        cushion_segments = np.array(
            [(*c.geom, c.thickness / 2, c.restitution, c.friction, float(c.kills))
             for c in self.cushions if c.kind == "segment"],
            dtype=np.float64,
        ).reshape(-1, 8)
        cushion_circles = np.array(
            [(*c.geom[:3], c.restitution, c.friction, float(c.kills)) for c in self.cushions if c.kind == "circle"],
            dtype=np.float64,
        ).reshape(-1, 6)
        pegs = np.array([(g.x, g.y, g.radius, g.restitution, g.friction) for g in self.pegs], dtype=np.float64)
        holes = np.array([(h.x, h.y, h.capture_radius, h.capture_speed) for h in self.holes], dtype=np.float64)
        kills = []
        for k in self.kill_lines:
            # Entirely past the band: the centre is more than half a width plus a radius beyond it.
            offset = k.half_width + self.disc_radius
            kills.append((k.point[0] + offset * k.normal[0], k.point[1] + offset * k.normal[1], *k.normal))
        return KernelArrays(
            disc_radius=self.disc_radius,
            disc_mass=self.disc_mass,
            mu=p["mu"],
            gravity=p["gravity"],
            disc_restitution=p["disc_restitution"],
            disc_friction=p["disc_friction"],
            fall_segments=fall_segments,
            fall_circles=fall_circles,
            cushion_segments=cushion_segments,
            cushion_circles=cushion_circles,
            pegs=pegs.reshape(-1, 5),
            holes=holes.reshape(-1, 4),
            kill_lines=np.array(kills, dtype=np.float64).reshape(-1, 4),
            contact_inner_ratio=p["contact_inner_ratio"],
            inertia_ratio=p["inertia_ratio"],
            spin_tables=_spin_tables(p, holes),
        )

    def on_surface(self, x: float, y: float) -> bool:
        """Whether a centre at (x, y) lies on the playing surface (edges included)."""
        if self.surface_kind == "circle":
            cx, cy, r = self.surface_circle
            return math.hypot(x - cx, y - cy) <= r
        return _point_in_polygon(x, y, self.surface_polygon)


def _point_in_polygon(x: float, y: float, poly: np.ndarray) -> bool:
    from shuffle_sim.geometry import point_in_polygon_or_on_boundary

    return bool(point_in_polygon_or_on_boundary(x, y, np.ascontiguousarray(poly, dtype=np.float64)))


# --------------------------------------------------------------------------------------------------
# Loading and validation

_TOP_KEYS = {
    "name", "game", "title", "sources", "frame", "disc", "materials", "surface", "edges", "cushions",
    "pegs", "holes", "lines", "zones", "kill_lines", "hangers", "ends",
}
_REQUIRED_TOP = {"name", "game", "frame", "disc", "materials", "surface"}
_GAMES = {"deck", "horse-collar", "ricochet", "crokinole", "custom"}


class _Reader(TableReader):
    """Reads one court file and raises ``CourtError`` naming the file, the key and the value."""

    def __init__(self, path: str):
        super().__init__(path, CourtError)

    def ring(self, value: Any, key: str) -> np.ndarray:
        """A closed polygon outline: the last point repeats the first; returned open and CCW."""
        if not isinstance(value, list) or len(value) < 4:
            self.fail(key, "must be a closed ring of at least 3 distinct points plus the first again", value)
        pts = np.array([self.point(p, f"{key}[{i}]") for i, p in enumerate(value)])
        if not np.allclose(pts[0], pts[-1], rtol=0, atol=1e-12):
            self.fail(key, "outline is open: the last point must repeat the first", value)
        pts = pts[:-1]
        area2 = float(np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1]))
        if abs(area2) <= 1e-12:
            self.fail(key, "outline encloses no area", value)
        if _self_intersects(pts):
            self.fail(key, "outline crosses itself", value)
        return pts if area2 > 0 else pts[::-1].copy()

    def circle(self, value: Any, key: str) -> tuple[float, float, float]:
        value = self.table(value, key)
        self.keys(value, key, {"centre", "radius"}, {"centre", "radius"})
        cx, cy = self.point(value["centre"], f"{key}.centre")
        return cx, cy, self.length(value["radius"], f"{key}.radius", positive=True)


def _self_intersects(pts: np.ndarray) -> bool:
    n = len(pts)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        for j in range(i + 1, n):
            if j == i or (j + 1) % n == i or j == (i + 1) % n:
                continue
            c, d = pts[j], pts[(j + 1) % n]
            d1, d2 = cross(c, d, a), cross(c, d, b)
            d3, d4 = cross(a, b, c), cross(a, b, d)
            if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 < 0 and d3 * d4 < 0:
                return True
    return False


def _check_param(key: str, name: str, value: Any, where: str) -> float | str:
    if name not in PARAM_DEFAULTS:
        raise CourtError(f"{where}: {key}: unknown parameter (allowed: {', '.join(sorted(PARAM_DEFAULTS))})")
    if name == "spin_model":
        if value not in SPIN_MODELS:
            raise CourtError(f"{where}: {key}: must be one of {', '.join(SPIN_MODELS)} (got {value!r})")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CourtError(f"{where}: {key}: must be a number (got {value!r})")
    value = float(value)
    if not math.isfinite(value):
        raise CourtError(f"{where}: {key}: must be finite (got {value!r})")
    if value < 0:
        raise CourtError(f"{where}: {key}: must not be negative (got {value!r})")
    if name in UNIT_INTERVAL_PARAMS and value > 1:
        raise CourtError(f"{where}: {key}: a restitution must lie in [0, 1] (got {value!r})")
    if name == "gravity" and value == 0:
        raise CourtError(f"{where}: {key}: must be positive (got {value!r})")
    if name == "contact_inner_ratio" and value >= 1:
        raise CourtError(f"{where}: {key}: the contact annulus's inner over outer radius must lie in [0, 1) "
                         f"(got {value!r})")
    if name == "inertia_ratio" and not 0 < value <= 1:
        raise CourtError(f"{where}: {key}: I / (m r^2) must lie in (0, 1] (got {value!r})")
    return value


def _check_spin_params(params: dict, where: str, prefix: str) -> None:
    """The coupled model needs speed and spin to end together: the inertia ratio inside the window of
    Weidman and Malhotra for the contact annulus (``physics.friction.inertia_window``)."""
    from shuffle_sim.physics.friction import inertia_window  # the physics package imports this module

    if params["spin_model"] != "coupled":
        return
    lo, hi = inertia_window(params["contact_inner_ratio"])
    k = params["inertia_ratio"]
    if not lo < k < hi:
        raise CourtError(f"{where}: {prefix}.inertia_ratio: with spin_model 'coupled' and contact_inner_ratio "
                         f"{params['contact_inner_ratio']!r} it must lie in ({lo:.6g}, {hi:.6g}), where sliding and "
                         f"spin end together (got {k!r})")


def _spin_tables(params: dict, holes: np.ndarray) -> np.ndarray:
    """The coupled model's packed tables for the kernel (built once per annulus and inertia ratio);
    no rows for the decoupled model. The coupled kernel knows one capture speed for all holes."""
    from shuffle_sim.physics.coupled import N_COLUMNS, coupled_tables  # the physics package imports this module

    if params["spin_model"] == "coupled":
        if len(holes) and np.any(holes[:, 3] != holes[0, 3]):
            raise CourtError(f"holes: with spin_model 'coupled' every hole needs the same capture_speed "
                             f"(got {sorted(set(holes[:, 3].tolist()))!r})")
        return coupled_tables(params["contact_inner_ratio"], params["inertia_ratio"])
    return np.zeros((0, N_COLUMNS))


def load_court(name_or_path: str | os.PathLike, end: str | None = None) -> Court:
    """Load a court by name (``deck``, ``horse-collar``, ``ricochet``, ``crokinole``) or file path.

    ``end`` picks the scoring end for courts with more than one (deck: ``foot``, the default, or
    ``head``). Raises ``CourtError`` naming the file, the key and the value on any problem.
    """
    path = court_path(name_or_path)
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CourtError(f"{path}: not valid TOML: {exc}") from None
    court = parse_court(data, str(path))
    return court.for_end(end)


def parse_court(data: dict, path: str = "<court>") -> Court:
    """Build a ``Court`` from the parsed TOML of a court file (see ``load_court``)."""
    r = _Reader(path)
    r.keys(data, "", _TOP_KEYS, _REQUIRED_TOP)
    name = r.string(data["name"], "name")
    game = r.string(data["game"], "game")
    if game not in _GAMES:
        r.fail("game", f"must be one of {', '.join(sorted(_GAMES))}", game)
    sources = data.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        r.fail("sources", "must be a list of strings", sources)

    frame = r.table(data["frame"], "frame")
    r.keys(frame, "frame", {"origin", "x", "y"}, {"origin", "x", "y"})
    for k in ("origin", "x", "y"):
        r.string(frame[k], f"frame.{k}")

    disc = r.table(data["disc"], "disc")
    r.keys(disc, "disc", {"diameter", "thickness", "mass"}, {"diameter", "mass"})
    disc_radius = r.length(disc["diameter"], "disc.diameter", positive=True) / 2
    disc_thickness = r.length(disc.get("thickness", "1 in"), "disc.thickness", positive=True)
    disc_mass = r.mass(disc["mass"], "disc.mass")

    materials = r.table(data["materials"], "materials")
    r.keys(materials, "materials", set(PARAM_DEFAULTS), {"mu"})
    params = {}
    for key, default in PARAM_DEFAULTS.items():
        params[key] = _check_param(f"materials.{key}", key, materials.get(key, default), path)
    _check_spin_params(params, path, "materials")

    surface = r.table(data["surface"], "surface")
    r.keys(surface, "surface", {"polygon", "circle"})
    if ("polygon" in surface) == ("circle" in surface):
        r.fail("surface", "needs exactly one of polygon or circle", surface)
    if "polygon" in surface:
        surface_kind, surface_polygon, surface_circle = "polygon", r.ring(surface["polygon"], "surface.polygon"), None
    else:
        surface_kind, surface_polygon, surface_circle = "circle", None, r.circle(surface["circle"], "surface.circle")

    def segment_or_circle(item: dict, key: str) -> tuple[str, tuple[float, float, float, float]]:
        has_seg = "from" in item or "to" in item
        if has_seg == ("circle" in item):
            r.fail(key, "needs either from and to, or circle", item)
        if has_seg:
            if "from" not in item or "to" not in item:
                r.fail(f"{key}.{'to' if 'from' in item else 'from'}", f"missing required key in [{key}]", item)
            a = r.point(item["from"], f"{key}.from")
            b = r.point(item["to"], f"{key}.to")
            if a == b:
                r.fail(f"{key}.to", "a segment needs two distinct ends", item["to"])
            return "segment", (*a, *b)
        cx, cy, rad = r.circle(item["circle"], f"{key}.circle")
        return "circle", (cx, cy, rad, 0.0)

    def unique(items: list, key: str) -> None:
        seen = set()
        for i, it in enumerate(items):
            if it.name in seen:
                r.fail(f"{key}[{i}].name", "duplicate name", it.name)
            seen.add(it.name)

    edges = []
    for i, e in enumerate(r.array(data, "edges")):
        key = f"edges[{i}]"
        r.keys(e, key, {"name", "from", "to", "circle", "overhang"}, {"name"})
        kind, geom = segment_or_circle(e, key)
        overhang = e.get("overhang", "none")
        if overhang not in OVERHANG_KINDS:
            r.fail(f"{key}.overhang", f"must be one of {', '.join(OVERHANG_KINDS)}", overhang)
        edges.append(Edge(r.string(e["name"], f"{key}.name"), kind, geom, overhang))
    unique(edges, "edges")

    cushions = []
    for i, c in enumerate(r.array(data, "cushions")):
        key = f"cushions[{i}]"
        r.keys(c, key, {"name", "from", "to", "circle", "thickness", "restitution", "friction", "kills"}, {"name"})
        kind, geom = segment_or_circle(c, key)
        e = _check_param(f"{key}.restitution", "cushion_restitution", c.get("restitution", params["cushion_restitution"]), path)
        f = _check_param(f"{key}.friction", "cushion_friction", c.get("friction", params["cushion_friction"]), path)
        thickness = r.length(c.get("thickness", 0.0), f"{key}.thickness", nonnegative=True)
        kills = r.boolean(c.get("kills", False), f"{key}.kills")
        cushions.append(Cushion(r.string(c["name"], f"{key}.name"), kind, geom, thickness, e, f, kills))
    unique(cushions, "cushions")

    pegs = []
    for i, g in enumerate(r.array(data, "pegs")):
        key = f"pegs[{i}]"
        r.keys(g, key, {"name", "at", "ring", "diameter", "restitution", "friction"}, {"name", "diameter"})
        radius = r.length(g["diameter"], f"{key}.diameter", positive=True) / 2
        e = _check_param(f"{key}.restitution", "peg_restitution", g.get("restitution", params["peg_restitution"]), path)
        f = _check_param(f"{key}.friction", "peg_friction", g.get("friction", params["peg_friction"]), path)
        pname = r.string(g["name"], f"{key}.name")
        if ("at" in g) == ("ring" in g):
            r.fail(key, "needs exactly one of at or ring", g)
        if "at" in g:
            x, y = r.point(g["at"], f"{key}.at")
            pegs.append(Peg(pname, x, y, radius, e, f))
        else:
            ring = r.table(g["ring"], f"{key}.ring")
            r.keys(ring, f"{key}.ring", {"centre", "radius", "count", "start_deg"}, {"centre", "radius", "count"})
            cx, cy = r.point(ring["centre"], f"{key}.ring.centre")
            rr = r.length(ring["radius"], f"{key}.ring.radius", positive=True)
            count = r.integer(ring["count"], f"{key}.ring.count")
            if count < 1:
                r.fail(f"{key}.ring.count", "must be at least 1", count)
            start = ring.get("start_deg", 0.0)
            if isinstance(start, bool) or not isinstance(start, (int, float)):
                r.fail(f"{key}.ring.start_deg", "must be a number of degrees", start)
            for k in range(count):
                a = math.radians(start + 360.0 * k / count)
                pegs.append(Peg(f"{pname} {k + 1}", cx + rr * math.cos(a), cy + rr * math.sin(a), radius, e, f))

    holes = []
    for i, h in enumerate(r.array(data, "holes")):
        key = f"holes[{i}]"
        r.keys(h, key, {"name", "at", "diameter", "capture_radius", "capture_speed", "value"},
               {"name", "at", "diameter", "value"})
        x, y = r.point(h["at"], f"{key}.at")
        radius = r.length(h["diameter"], f"{key}.diameter", positive=True) / 2
        capture_radius = r.length(h.get("capture_radius", radius), f"{key}.capture_radius", positive=True)
        speed = _check_param(f"{key}.capture_speed", "hole_capture_speed",
                             h.get("capture_speed", params["hole_capture_speed"]), path)
        holes.append(Hole(r.string(h["name"], f"{key}.name"), x, y, radius, capture_radius, speed,
                          r.integer(h["value"], f"{key}.value")))
    unique(holes, "holes")

    lines = []
    for i, ln in enumerate(r.array(data, "lines")):
        key = f"lines[{i}]"
        r.keys(ln, key, {"name", "from", "to", "circle", "width", "touch_value", "touch_dead", "touch_alive", "judged"},
               {"name", "width"})
        kind, geom = segment_or_circle(ln, key)
        tv = ln.get("touch_value")
        lines.append(Line(
            name=r.string(ln["name"], f"{key}.name"),
            kind=kind,
            geom=geom,
            width=r.length(ln["width"], f"{key}.width", positive=True),
            touch_value=None if tv is None else r.integer(tv, f"{key}.touch_value"),
            touch_dead=r.boolean(ln.get("touch_dead", False), f"{key}.touch_dead"),
            touch_alive=r.boolean(ln.get("touch_alive", False), f"{key}.touch_alive"),
            judged=r.boolean(ln.get("judged", True), f"{key}.judged"),
        ))
    unique(lines, "lines")

    zones = []
    for i, z in enumerate(r.array(data, "zones")):
        key = f"zones[{i}]"
        r.keys(z, key, {"name", "value", "dead", "polygon", "circle", "annulus"}, {"name", "value"})
        shapes = [k for k in ("polygon", "circle", "annulus") if k in z]
        if len(shapes) != 1:
            r.fail(key, "needs exactly one of polygon, circle or annulus", z)
        zname = r.string(z["name"], f"{key}.name")
        value = r.integer(z["value"], f"{key}.value")
        dead = r.boolean(z.get("dead", False), f"{key}.dead")
        if "polygon" in z:
            zones.append(Zone(zname, value, "polygon", polygon=r.ring(z["polygon"], f"{key}.polygon"), dead=dead))
        elif "circle" in z:
            cx, cy, rad = r.circle(z["circle"], f"{key}.circle")
            zones.append(Zone(zname, value, "annulus", annulus=(cx, cy, 0.0, rad), dead=dead))
        else:
            ann = r.table(z["annulus"], f"{key}.annulus")
            r.keys(ann, f"{key}.annulus", {"centre", "inner", "outer"}, {"centre", "inner", "outer"})
            cx, cy = r.point(ann["centre"], f"{key}.annulus.centre")
            inner = r.length(ann["inner"], f"{key}.annulus.inner", nonnegative=True)
            outer = r.length(ann["outer"], f"{key}.annulus.outer", positive=True)
            if outer <= inner:
                r.fail(f"{key}.annulus.outer", "must exceed inner", ann["outer"])
            zones.append(Zone(zname, value, "annulus", annulus=(cx, cy, inner, outer), dead=dead))
    unique(zones, "zones")

    line_by_name = {ln.name: ln for ln in lines}
    kill_lines = []
    for i, k in enumerate(r.array(data, "kill_lines")):
        key = f"kill_lines[{i}]"
        r.keys(k, key, {"line", "past"}, {"line", "past"})
        lname = r.string(k["line"], f"{key}.line")
        if lname not in line_by_name or line_by_name[lname].kind != "segment":
            r.fail(f"{key}.line", "must name a straight line of this court", lname)
        past = k["past"]
        if (not isinstance(past, list) or len(past) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in past)
                or math.hypot(*past) == 0):
            r.fail(f"{key}.past", "must be a non-zero direction [dx, dy]", past)
        norm = math.hypot(*past)
        ln = line_by_name[lname]
        kill_lines.append(KillLine(lname, (ln.geom[0], ln.geom[1]), (past[0] / norm, past[1] / norm), ln.width / 2))

    hangers = r.table(data.get("hangers", {}), "hangers")
    r.keys(hangers, "hangers", {"end", "corner"})
    end_value = None if "end" not in hangers else r.integer(hangers["end"], "hangers.end")
    corner_value = end_value if "corner" not in hangers else r.integer(hangers["corner"], "hangers.corner")

    ends_table = r.table(data.get("ends", {}), "ends")
    default_end = "default"
    ends: dict[str, tuple[float, float] | None] = {}
    if ends_table:
        default_end = r.string(ends_table.get("default", ""), "ends.default")
        for end_name, spec in ends_table.items():
            if end_name == "default":
                continue
            spec = r.table(spec, f"ends.{end_name}")
            r.keys(spec, f"ends.{end_name}", {"rotate_about"})
            ends[end_name] = r.point(spec["rotate_about"], f"ends.{end_name}.rotate_about") if spec else None
        if default_end not in ends or ends[default_end] is not None:
            r.fail("ends.default", "must name an end described as written ({})", default_end)
    else:
        ends = {default_end: None}

    return Court(
        name=name,
        game=game,
        title=str(data.get("title", name)),
        source_path=path,
        frame=dict(frame),
        sources=tuple(sources),
        disc_radius=disc_radius,
        disc_thickness=disc_thickness,
        disc_mass=disc_mass,
        params=params,
        surface_kind=surface_kind,
        surface_polygon=surface_polygon,
        surface_circle=surface_circle,
        edges=tuple(edges),
        cushions=tuple(cushions),
        pegs=tuple(pegs),
        holes=tuple(holes),
        lines=tuple(lines),
        zones=tuple(zones),
        kill_lines=tuple(kill_lines),
        hanger_end_value=end_value,
        hanger_corner_value=corner_value,
        ends=ends,
        end=default_end,
    )
