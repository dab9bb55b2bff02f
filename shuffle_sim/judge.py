"""Judge resting discs on a court: value, zone, lines touched, hanger, dead; one disc or millions.

The semantics are data in the court file (see ``courts/README.md``); one procedure serves all four
games. For a disc of radius r with centre c:

1. Fallen: c is off the playing surface (it crossed an edge into a gutter, alley or ditch): dead.
2. Holed: c lies within a hole's capture radius: the hole's value (crokinole 20, removed at once).
3. Zone: the first zone (in file order) that contains c.
4. Touching: every judged line whose band the disc's circle meets (a line has width; tangency counts).
5. Hanger: the disc overhangs an edge (c is on the surface, the circle crosses the edge). Overhanging
   an ``end`` edge is an end hanger; an end and a ``side`` edge at once, a corner hanger; a side alone
   means nothing special (horse collar, seed 003). A hanger is worth the court's hanger value.
6. Value: the hanger value for a hanger; otherwise, if the disc touches lines with a ``touch_value``,
   the lowest of those (deck: 0, a disc on a line scores nothing, MSA D-2; crokinole and ricochet: a
   disc on a dividing line counts the lower value; horse collar: touching the deuce line is 1);
   otherwise the zone's value (0 outside every zone).
7. Dead: fallen, or touching a ``touch_dead`` line (crokinole 5 line, horse collar foul line), or
   lying in a ``dead`` zone without touching a ``touch_alive`` line (deck: short of the far dead
   line unless touching it, C-4b note; past the far baseline unless touching it, C-21). A dead disc
   is worth 0.

The batch function runs in one numba call with ``prange`` over discs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from shuffle_sim.court import NO_HANGER_VALUE, NO_TOUCH_VALUE, Court, JudgeArrays
from shuffle_sim.geometry import (
    band_distance,
    disc_touches_band,
    disc_touches_ring,
    point_in_annulus,
    point_in_polygon,
    point_in_polygon_or_on_boundary,
    point_segment_distance,
    ring_distance,
)

HANGER_NONE = 0
HANGER_END = 1
HANGER_CORNER = 2
HANGER_NAMES = {HANGER_NONE: None, HANGER_END: "end", HANGER_CORNER: "corner"}


@njit(cache=True)
def _on_surface(x, y, a):
    if a.surface_kind == 1:
        c = a.surface_circle
        return math.hypot(x - c[0], y - c[1]) <= c[2]
    return point_in_polygon_or_on_boundary(x, y, a.surface_polygon)


@njit(cache=True)
def judge_one(x, y, a):
    """Judge one disc centre (x, y) on a packed court ``a`` (``JudgeArrays``).

    Returns (value, zone index or -1, touching bit mask over judged lines, dead, hanger code,
    fallen, holed). A holed disc's zone index is ``len(zones) + hole index``.
    """
    r = a.disc_radius
    if not _on_surface(x, y, a):
        return 0, -1, np.uint64(0), True, HANGER_NONE, True, False

    n_zones = a.zone_kind.shape[0]
    for h in range(a.hole_geom.shape[0]):
        if math.hypot(x - a.hole_geom[h, 0], y - a.hole_geom[h, 1]) <= a.hole_geom[h, 2]:
            return a.hole_value[h], n_zones + h, np.uint64(0), False, HANGER_NONE, False, True

    zone = -1
    for z in range(n_zones):
        if a.zone_kind[z] == 0:
            inside = point_in_polygon(x, y, a.zone_vertices, a.zone_start[z], a.zone_start[z + 1])
        else:
            an = a.zone_annulus
            inside = point_in_annulus(x, y, an[z, 0], an[z, 1], an[z, 2], an[z, 3])
        if inside:
            zone = z
            break

    touching = np.uint64(0)
    touch_value = NO_TOUCH_VALUE
    touch_dead = False
    touch_alive = False
    for i in range(a.line_kind.shape[0]):
        g = a.line_geom
        hw = a.line_half_width[i]
        if a.line_kind[i] == 0:
            hit = disc_touches_band(x, y, r, g[i, 0], g[i, 1], g[i, 2], g[i, 3], hw)
        else:
            hit = disc_touches_ring(x, y, r, g[i, 0], g[i, 1], g[i, 2], hw)
        if hit:
            touching |= np.uint64(1) << np.uint64(i)
            if a.line_touch_value[i] < touch_value:
                touch_value = a.line_touch_value[i]
            touch_dead = touch_dead or a.line_touch_dead[i]
            touch_alive = touch_alive or a.line_touch_alive[i]

    over_end = False
    over_side = False
    for e in range(a.edge_kind.shape[0]):
        kind = a.edge_overhang[e]
        if kind == 0:
            continue
        g = a.edge_geom
        if a.edge_kind[e] == 0:
            d = point_segment_distance(x, y, g[e, 0], g[e, 1], g[e, 2], g[e, 3])
        else:
            d = g[e, 2] - math.hypot(x - g[e, 0], y - g[e, 1])
        if d < r:
            if kind == 1:
                over_end = True
            else:
                over_side = True
    hanger = HANGER_NONE
    if over_end:
        hanger = HANGER_CORNER if over_side else HANGER_END

    dead = touch_dead or (zone >= 0 and a.zone_dead[zone] and not touch_alive)
    if dead:
        value = 0
    elif hanger == HANGER_CORNER and a.hanger_corner_value != NO_HANGER_VALUE:
        value = a.hanger_corner_value
    elif hanger == HANGER_END and a.hanger_end_value != NO_HANGER_VALUE:
        value = a.hanger_end_value
    elif touch_value != NO_TOUCH_VALUE:
        value = touch_value
    elif zone >= 0:
        value = a.zone_value[zone]
    else:
        value = 0
    return value, zone, touching, dead, hanger, False, False


@njit(cache=True, parallel=True)
def judge_many(xs, ys, a, value, zone, touching, dead, hanger, fallen, holed):
    """Judge every (xs[i], ys[i]) into the output arrays, in parallel over discs."""
    for i in prange(xs.shape[0]):
        v, z, t, d, h, f, o = judge_one(xs[i], ys[i], a)
        value[i] = v
        zone[i] = z
        touching[i] = t
        dead[i] = d
        hanger[i] = h
        fallen[i] = f
        holed[i] = o


@dataclass(frozen=True)
class Judgement:
    """Judged rest positions for a batch of discs (arrays of equal length), with names to read them."""

    court: Court
    x: np.ndarray
    y: np.ndarray
    value: np.ndarray  # int64
    zone: np.ndarray  # int64 index into court.zone_names, -1 for none
    touching: np.ndarray  # uint64 bit mask over court.judged_lines
    dead: np.ndarray  # bool
    hanger: np.ndarray  # int8: 0 none, 1 end, 2 corner
    fallen: np.ndarray  # bool: centre off the surface
    holed: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.x)

    def zone_name(self, i: int) -> str | None:
        z = int(self.zone[i])
        return None if z < 0 else self.court.zone_names[z]

    def touching_names(self, i: int) -> list[str]:
        mask = int(self.touching[i])
        return [ln.name for k, ln in enumerate(self.court.judged_lines) if mask >> k & 1]

    def record(self, i: int) -> dict:
        """One disc as the command line prints it (x, y in metres in the court's frame)."""
        return {
            "x": float(self.x[i]),
            "y": float(self.y[i]),
            "value": int(self.value[i]),
            "zone": self.zone_name(i),
            "touching": self.touching_names(i),
            "dead": bool(self.dead[i]),
            "hanger": HANGER_NAMES[int(self.hanger[i])],
        }

    def records(self) -> list[dict]:
        return [self.record(i) for i in range(len(self))]


def _as_coords(values, name: str) -> np.ndarray:
    arr = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    bad = ~np.isfinite(arr)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{k}] must be a finite coordinate in metres (got {arr[k]!r})")
    return arr


def judge_batch(court: Court, xs, ys, end: str | None = None) -> Judgement:
    """Judge many disc centres on ``court`` (at ``end``, for courts with two) in one numba call."""
    court = court.for_end(end)
    x = _as_coords(xs, "x")
    y = _as_coords(ys, "y")
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length (got {x.size} and {y.size})")
    n = x.size
    out = dict(
        value=np.empty(n, np.int64),
        zone=np.empty(n, np.int64),
        touching=np.empty(n, np.uint64),
        dead=np.empty(n, np.bool_),
        hanger=np.empty(n, np.int8),
        fallen=np.empty(n, np.bool_),
        holed=np.empty(n, np.bool_),
    )
    judge_many(x, y, court.judge_arrays(), out["value"], out["zone"], out["touching"], out["dead"],
               out["hanger"], out["fallen"], out["holed"])
    return Judgement(court=court, x=x, y=y, **out)


def judge(court: Court, x: float, y: float, end: str | None = None) -> dict:
    """Judge one disc centre; returns the record the command line prints for it."""
    return judge_batch(court, [x], [y], end=end).record(0)


def line_distance(court: Court, x: float, y: float, line: str) -> float:
    """Distance from a disc to a line's band: edge of disc to edge of line, 0 when touching."""
    ln = court.line(line)
    r = court.disc_radius
    if ln.kind == "segment":
        d = band_distance(x, y, *ln.geom, ln.width / 2)
    else:
        d = ring_distance(x, y, ln.geom[0], ln.geom[1], ln.geom[2], ln.width / 2)
    return max(0.0, d - r)


def lag_distance(court: Court, x: float, y: float, line: str = "dead line", end: str | None = None) -> float:
    """Lag measurement of MSA rule C-2 from a disc at (x, y) to a line (default: the far dead line).

    When the disc touches the line: centre of disc to centre of line. Otherwise: nearest edge of disc
    to nearest edge of line. Smaller wins the lag.
    """
    court = court.for_end(end)
    ln = court.line(line)
    if line_distance(court, x, y, line) > 0.0:
        return line_distance(court, x, y, line)
    if ln.kind == "segment":
        return point_segment_distance(x, y, *ln.geom)
    return abs(math.hypot(x - ln.geom[0], y - ln.geom[1]) - ln.geom[2])


def edge_nearness(court: Court, x: float, y: float, edge: str = "front edge") -> float:
    """Distance from an edge to the disc's nearest point (ricochet: nearness to the front edge).

    Negative when the disc overhangs the edge. Smaller is nearer.
    """
    e = court.edge(edge)
    r = court.disc_radius
    if e.kind == "segment":
        x0, y0, x1, y1 = e.geom
        length = math.hypot(x1 - x0, y1 - y0)
        # Surface on the left of from -> to: the inward normal is the left normal.
        inward = (-(y1 - y0) / length, (x1 - x0) / length)
        return (x - x0) * inward[0] + (y - y0) * inward[1] - r
    return e.geom[2] - math.hypot(x - e.geom[0], y - e.geom[1]) - r
