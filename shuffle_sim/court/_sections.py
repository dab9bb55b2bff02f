"""The sections of a court file, one reader each (the format is documented in ``courts/README.md``).

Every reader takes the ``CourtReader`` of the file, so that an error names the file, the key and the
value (``CourtError``), and returns the model's frozen records (``shuffle_sim.court.model``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from shuffle_sim.court.errors import CourtError
from shuffle_sim.court.friction_law import check_friction_law, diagonal
from shuffle_sim.court.materials import (
    OVERHANG_KINDS,
    PARAM_DEFAULTS,
    check_number_param,
    check_param,
    check_spin_params,
)
from shuffle_sim.court.model import Cushion, Edge, Hole, KillLine, Line, Peg, Zone, surface_contains
from shuffle_sim.court.speed import SpeedCourse, mu_from_speed_or_mu
from shuffle_sim.court.steepness import check_steepness
from shuffle_sim.court.surface_shape import FLAT, SHAPE_KEYS, SurfaceShape, crown_geometry, read_shape
from shuffle_sim.court.toml_reader import TomlReader


class CourtReader(TomlReader):
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

    def segment_or_circle(self, item: dict, key: str) -> tuple[str, tuple[float, float, float, float]]:
        has_seg = "from" in item or "to" in item
        if has_seg == ("circle" in item):
            self.fail(key, "needs either from and to, or circle", item)
        if has_seg:
            if "from" not in item or "to" not in item:
                self.fail(f"{key}.{'to' if 'from' in item else 'from'}", f"missing required key in [{key}]", item)
            a = self.point(item["from"], f"{key}.from")
            b = self.point(item["to"], f"{key}.to")
            if a == b:
                self.fail(f"{key}.to", "a segment needs two distinct ends", item["to"])
            return "segment", (*a, *b)
        cx, cy, rad = self.circle(item["circle"], f"{key}.circle")
        return "circle", (cx, cy, rad, 0.0)

    def unique(self, items: list, key: str) -> None:
        seen = set()
        for i, it in enumerate(items):
            if it.name in seen:
                self.fail(f"{key}[{i}].name", "duplicate name", it.name)
            seen.add(it.name)


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


def read_frame(r: CourtReader, data: dict) -> dict[str, str]:
    """``[frame]``: what the origin and the axes are, in words (every length of the file is in it)."""
    frame = r.table(data["frame"], "frame")
    r.keys(frame, "frame", {"origin", "x", "y"}, {"origin", "x", "y"})
    for k in ("origin", "x", "y"):
        r.string(frame[k], f"frame.{k}")
    return frame


def read_disc(r: CourtReader, data: dict) -> tuple[float, float, float]:
    """``[disc]``: radius, thickness (default 1 in) and mass of the game's discs."""
    disc = r.table(data["disc"], "disc")
    r.keys(disc, "disc", {"diameter", "thickness", "mass"}, {"diameter", "mass"})
    disc_radius = r.length(disc["diameter"], "disc.diameter", positive=True) / 2
    disc_thickness = r.length(disc.get("thickness", "1 in"), "disc.thickness", positive=True)
    return disc_radius, disc_thickness, r.mass(disc["mass"], "disc.mass")


def read_materials(r: CourtReader, data: dict, course: SpeedCourse | None = None) -> dict[str, Any]:
    """``[materials]``: friction, restitutions and the rest (``materials.PARAM_DEFAULTS``); mu, or the
    court's ``speed`` in seconds over its ``course`` (``court.speed``), is required."""
    materials = r.table(data["materials"], "materials")
    r.keys(materials, "materials", set(PARAM_DEFAULTS) | {"speed"})
    if "mu" not in materials and "speed" not in materials:
        r.fail("materials.mu", 'missing required key in [materials] (or give the court\'s speed, "14 s")', materials)
    params: dict[str, Any] = {
        key: check_param(f"materials.{key}", key, materials.get(key, default), r.path)
        for key, default in PARAM_DEFAULTS.items()
        if key != "mu" or "mu" in materials
    }
    mu = mu_from_speed_or_mu(materials, course, params["gravity"], r.path, "materials", params["mu_speed"])
    if mu is not None:
        params = {"mu": check_param("materials.speed", "mu", mu, r.path), **params}
    check_spin_params(params, r.path, "materials")
    return params


def read_surface(r: CourtReader, data: dict) -> tuple[str, np.ndarray | None, tuple[float, float, float] | None]:
    """``[surface]``: the playing surface, a polygon or a circle: (kind, polygon, circle). Its shape
    (slope, crown, maps) is ``read_surface_shape``'s."""
    surface = r.table(data["surface"], "surface")
    r.keys(surface, "surface", {"polygon", "circle", *SHAPE_KEYS})
    if ("polygon" in surface) == ("circle" in surface):
        r.fail("surface", "needs exactly one of polygon or circle", surface)
    if "polygon" in surface:
        return "polygon", r.ring(surface["polygon"], "surface.polygon"), None
    return "circle", None, r.circle(surface["circle"], "surface.circle")


def read_surface_shape(
    r: CourtReader, data: dict, kind: str, polygon: np.ndarray | None, circle, mu: float
) -> SurfaceShape:
    """``[surface]``'s shape: slope, crown, height map and friction map (``surface_shape``), map files
    read beside the court file; refused if steeper than the friction ``mu`` anywhere on the surface."""
    surface = data["surface"]
    if not any(key in surface for key in SHAPE_KEYS):
        return FLAT
    bounds = _bounds(kind, polygon, circle)
    base = SurfaceShape(**crown_geometry(kind, polygon, circle))
    shape = read_shape(surface, r.path, "surface", base, bounds, base_dir=Path(r.path).parent)

    def inside(x, y):
        return surface_contains(kind, polygon, circle, x, y)

    check_steepness(shape, mu, bounds, inside, r.path, "surface", data["frame"]["origin"])
    return shape


def check_materials_law(r: CourtReader, params: dict, kind: str, polygon: np.ndarray | None, circle) -> None:
    """``[materials]``' friction law checked over the surface's speeds (``friction_law.check_friction_law``)."""
    check_friction_law(params, diagonal(_bounds(kind, polygon, circle)), r.path, "materials")


def _bounds(kind: str, polygon: np.ndarray | None, circle) -> tuple[float, float, float, float]:
    if kind == "circle":
        cx, cy, radius = circle
        return cx - radius, cy - radius, cx + radius, cy + radius
    assert polygon is not None  # a surface is a circle or a polygon
    return (
        float(polygon[:, 0].min()),
        float(polygon[:, 1].min()),
        float(polygon[:, 0].max()),
        float(polygon[:, 1].max()),
    )


def read_edges(r: CourtReader, data: dict) -> tuple[Edge, ...]:
    """``[[edges]]``: where the surface ends and discs fall; each may allow an overhang (a hanger)."""
    edges = []
    for i, e in enumerate(r.array(data, "edges")):
        key = f"edges[{i}]"
        r.keys(e, key, {"name", "from", "to", "circle", "overhang"}, {"name"})
        kind, geom = r.segment_or_circle(e, key)
        overhang = e.get("overhang", "none")
        if overhang not in OVERHANG_KINDS:
            r.fail(f"{key}.overhang", f"must be one of {', '.join(OVERHANG_KINDS)}", overhang)
        edges.append(Edge(r.string(e["name"], f"{key}.name"), kind, geom, overhang))
    r.unique(edges, "edges")
    return tuple(edges)


def read_cushions(r: CourtReader, data: dict, params: dict[str, float]) -> tuple[Cushion, ...]:
    """``[[cushions]]``: bumpers, backstops and rails, with the court's cushion materials as defaults."""
    cushions = []
    for i, c in enumerate(r.array(data, "cushions")):
        key = f"cushions[{i}]"
        r.keys(
            c,
            key,
            {"name", "from", "to", "circle", "thickness", "restitution", "friction", "kills", "yield_speed"},
            {"name"},
        )
        kind, geom = r.segment_or_circle(c, key)
        e = check_number_param(
            f"{key}.restitution", "cushion_restitution", c.get("restitution", params["cushion_restitution"]), r.path
        )
        f = check_number_param(
            f"{key}.friction", "cushion_friction", c.get("friction", params["cushion_friction"]), r.path
        )
        v_y = check_number_param(
            f"{key}.yield_speed", "cushion_yield_speed", c.get("yield_speed", params["cushion_yield_speed"]), r.path
        )
        thickness = r.length(c.get("thickness", 0.0), f"{key}.thickness", nonnegative=True)
        kills = r.boolean(c.get("kills", False), f"{key}.kills")
        cushions.append(Cushion(r.string(c["name"], f"{key}.name"), kind, geom, thickness, e, f, kills, v_y))
    r.unique(cushions, "cushions")
    return tuple(cushions)


def read_pegs(r: CourtReader, data: dict, params: dict[str, float]) -> tuple[Peg, ...]:
    """``[[pegs]]``: single pegs (``at``) or rings of evenly spaced pegs (``ring``)."""
    pegs = []
    for i, g in enumerate(r.array(data, "pegs")):
        key = f"pegs[{i}]"
        r.keys(
            g, key, {"name", "at", "ring", "diameter", "restitution", "friction", "yield_speed"}, {"name", "diameter"}
        )
        radius = r.length(g["diameter"], f"{key}.diameter", positive=True) / 2
        e = check_number_param(
            f"{key}.restitution", "peg_restitution", g.get("restitution", params["peg_restitution"]), r.path
        )
        f = check_number_param(f"{key}.friction", "peg_friction", g.get("friction", params["peg_friction"]), r.path)
        v_y = check_number_param(
            f"{key}.yield_speed", "peg_yield_speed", g.get("yield_speed", params["peg_yield_speed"]), r.path
        )
        pname = r.string(g["name"], f"{key}.name")
        if ("at" in g) == ("ring" in g):
            r.fail(key, "needs exactly one of at or ring", g)
        if "at" in g:
            x, y = r.point(g["at"], f"{key}.at")
            pegs.append(Peg(pname, x, y, radius, e, f, v_y))
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
                pegs.append(Peg(f"{pname} {k + 1}", cx + rr * math.cos(a), cy + rr * math.sin(a), radius, e, f, v_y))
    return tuple(pegs)


def read_holes(r: CourtReader, data: dict, params: dict[str, float]) -> tuple[Hole, ...]:
    """``[[holes]]``: holes a slow disc drops into (the crokinole 20), with their value."""
    holes = []
    for i, h in enumerate(r.array(data, "holes")):
        key = f"holes[{i}]"
        r.keys(
            h,
            key,
            {"name", "at", "diameter", "capture_radius", "capture_speed", "value"},
            {"name", "at", "diameter", "value"},
        )
        x, y = r.point(h["at"], f"{key}.at")
        radius = r.length(h["diameter"], f"{key}.diameter", positive=True) / 2
        capture_radius = r.length(h.get("capture_radius", radius), f"{key}.capture_radius", positive=True)
        speed = check_number_param(
            f"{key}.capture_speed", "hole_capture_speed", h.get("capture_speed", params["hole_capture_speed"]), r.path
        )
        holes.append(
            Hole(
                r.string(h["name"], f"{key}.name"),
                x,
                y,
                radius,
                capture_radius,
                speed,
                r.integer(h["value"], f"{key}.value"),
            )
        )
    r.unique(holes, "holes")
    return tuple(holes)


def read_lines(r: CourtReader, data: dict) -> tuple[Line, ...]:
    """``[[lines]]``: lines with width and what touching them does to a disc."""
    lines = []
    for i, ln in enumerate(r.array(data, "lines")):
        key = f"lines[{i}]"
        r.keys(
            ln,
            key,
            {"name", "from", "to", "circle", "width", "touch_value", "touch_dead", "touch_alive", "judged"},
            {"name", "width"},
        )
        kind, geom = r.segment_or_circle(ln, key)
        tv = ln.get("touch_value")
        lines.append(
            Line(
                name=r.string(ln["name"], f"{key}.name"),
                kind=kind,
                geom=geom,
                width=r.length(ln["width"], f"{key}.width", positive=True),
                touch_value=None if tv is None else r.integer(tv, f"{key}.touch_value"),
                touch_dead=r.boolean(ln.get("touch_dead", False), f"{key}.touch_dead"),
                touch_alive=r.boolean(ln.get("touch_alive", False), f"{key}.touch_alive"),
                judged=r.boolean(ln.get("judged", True), f"{key}.judged"),
            )
        )
    r.unique(lines, "lines")
    return tuple(lines)


def read_zones(r: CourtReader, data: dict) -> tuple[Zone, ...]:
    """``[[zones]]``: scoring (or dead) areas as polygons, circles or annuli, in judging order."""
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
    r.unique(zones, "zones")
    return tuple(zones)


def read_kill_lines(r: CourtReader, data: dict, lines: tuple[Line, ...]) -> tuple[KillLine, ...]:
    """``[[kill_lines]]``: straight lines past which a moving disc is dead (deck: the far baseline)."""
    line_by_name = {ln.name: ln for ln in lines}
    kill_lines = []
    for i, k in enumerate(r.array(data, "kill_lines")):
        key = f"kill_lines[{i}]"
        r.keys(k, key, {"line", "past"}, {"line", "past"})
        lname = r.string(k["line"], f"{key}.line")
        if lname not in line_by_name or line_by_name[lname].kind != "segment":
            r.fail(f"{key}.line", "must name a straight line of this court", lname)
        past = k["past"]
        if (
            not isinstance(past, list)
            or len(past) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in past)
            or math.hypot(*past) == 0
        ):
            r.fail(f"{key}.past", "must be a non-zero direction [dx, dy]", past)
        norm = math.hypot(*past)
        ln = line_by_name[lname]
        kill_lines.append(KillLine(lname, (ln.geom[0], ln.geom[1]), (past[0] / norm, past[1] / norm), ln.width / 2))
    return tuple(kill_lines)


def read_hangers(r: CourtReader, data: dict) -> tuple[int | None, int | None]:
    """``[hangers]``: the values of an end hanger and a corner hanger (the corner defaults to the end)."""
    hangers = r.table(data.get("hangers", {}), "hangers")
    r.keys(hangers, "hangers", {"end", "corner"})
    end_value = None if "end" not in hangers else r.integer(hangers["end"], "hangers.end")
    corner_value = end_value if "corner" not in hangers else r.integer(hangers["corner"], "hangers.corner")
    return end_value, corner_value


def read_ends(r: CourtReader, data: dict) -> tuple[dict[str, tuple[float, float] | None], str]:
    """``[ends]``: the scoring ends; every end but the default is the diagram turned half a turn."""
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
    return ends, default_end
