"""Judge resting discs on a court: value, zone, lines touched, hanger, dead; one disc or millions.

The semantics are data in the court file (see ``courts/README.md``); one procedure serves all four
games. For a disc of radius r with centre c:

1. Fallen: c is off the playing surface (it crossed an edge into a gutter, alley or ditch): dead.
2. Holed: c lies within a hole's capture radius: the hole's value (crokinole 20, removed at once).
3. Zone: the first zone (in file order) whose interior contains c; failing that, the first whose
   closed outline holds c (a centre exactly on the surface's edge, along which dead zones run).
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

The batch function runs in one numba call with ``prange`` over discs. Before the loop it computes,
once per batch, each line's direction and length and a bounding box per line and per zone (grown by
the disc radius and a margin), so that most discs skip most lines and zones (``judge_prepare``). For
a large batch it also lays a grid over the surface and marks the *plain* cells: those that lie in
the surface's interior, inside one zone (and no earlier one) or in none, where no disc can touch a
line, overhang an edge or drop in a hole. Every disc centred in a plain cell has the same judgement,
which depends on the zone alone; the other discs take the full procedure above. Neither shortcut
changes any result (the tests compare them with the full procedure and with Shapely); they only
decide what need not be computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from shuffle_sim.court import NO_HANGER_VALUE, NO_TOUCH_VALUE, Court, JudgeArrays
from shuffle_sim.geometry import (
    TOUCH_TOLERANCE,
    band_distance,
    band_distance_framed,
    disc_touches_ring,
    point_in_annulus,
    point_in_closed_polygon,
    point_in_polygon,
    point_box_distance,
    point_box_far_distance,
    point_segment_distance,
    ring_distance,
    segment_box_distance,
    segment_frame,
)

HANGER_NONE = 0
HANGER_END = 1
HANGER_CORNER = 2
HANGER_NAMES = {HANGER_NONE: None, HANGER_END: "end", HANGER_CORNER: "corner"}


#: Slack (m) on the bounding boxes of ``judge_prepare``: far above rounding (about 1e-15 m on a
#: 16 m court), so a box never excludes what the exact test would include.
BOX_MARGIN = 1e-9


@njit(cache=True)
def judge_prepare(a):
    """Per-batch data for ``judge_one_prepared``: line frames, line reach boxes, zone and surface boxes.

    Returns (line_frame (L, 3): ux, uy, length of straight lines; line_reach (L, 4): box of the disc
    centres that can touch each line; zone_box (Z, 4); surface_box (4,)), boxes as xmin, ymin, xmax,
    ymax. Outside a box the exact test is certain to fail, so skipping it changes nothing.
    """
    n_lines = a.line_kind.shape[0]
    line_frame = np.zeros((n_lines, 3))
    line_reach = np.empty((n_lines, 4))
    g = a.line_geom
    for i in range(n_lines):
        pad = a.line_half_width[i] + a.disc_radius + TOUCH_TOLERANCE + BOX_MARGIN
        if a.line_kind[i] == 0:
            ux, uy, length = segment_frame(g[i, 0], g[i, 1], g[i, 2], g[i, 3])
            line_frame[i, 0] = ux
            line_frame[i, 1] = uy
            line_frame[i, 2] = length
            line_reach[i, 0] = min(g[i, 0], g[i, 2]) - pad
            line_reach[i, 1] = min(g[i, 1], g[i, 3]) - pad
            line_reach[i, 2] = max(g[i, 0], g[i, 2]) + pad
            line_reach[i, 3] = max(g[i, 1], g[i, 3]) + pad
        else:
            line_reach[i, 0] = g[i, 0] - g[i, 2] - pad
            line_reach[i, 1] = g[i, 1] - g[i, 2] - pad
            line_reach[i, 2] = g[i, 0] + g[i, 2] + pad
            line_reach[i, 3] = g[i, 1] + g[i, 2] + pad

    n_zones = a.zone_kind.shape[0]
    zone_box = np.empty((n_zones, 4))
    for z in range(n_zones):
        if a.zone_kind[z] == 0:
            v = a.zone_vertices[a.zone_start[z]:a.zone_start[z + 1]]
            zone_box[z, 0] = v[:, 0].min() - BOX_MARGIN
            zone_box[z, 1] = v[:, 1].min() - BOX_MARGIN
            zone_box[z, 2] = v[:, 0].max() + BOX_MARGIN
            zone_box[z, 3] = v[:, 1].max() + BOX_MARGIN
        else:
            an = a.zone_annulus
            zone_box[z, 0] = an[z, 0] - an[z, 3] - BOX_MARGIN
            zone_box[z, 1] = an[z, 1] - an[z, 3] - BOX_MARGIN
            zone_box[z, 2] = an[z, 0] + an[z, 3] + BOX_MARGIN
            zone_box[z, 3] = an[z, 1] + an[z, 3] + BOX_MARGIN

    surface_box = np.empty(4)
    if a.surface_kind == 1:
        c = a.surface_circle
        surface_box[0] = c[0] - c[2] - BOX_MARGIN
        surface_box[1] = c[1] - c[2] - BOX_MARGIN
        surface_box[2] = c[0] + c[2] + BOX_MARGIN
        surface_box[3] = c[1] + c[2] + BOX_MARGIN
    else:
        sp = a.surface_polygon
        surface_box[0] = sp[:, 0].min() - BOX_MARGIN
        surface_box[1] = sp[:, 1].min() - BOX_MARGIN
        surface_box[2] = sp[:, 0].max() + BOX_MARGIN
        surface_box[3] = sp[:, 1].max() + BOX_MARGIN
    return line_frame, line_reach, zone_box, surface_box


@njit(cache=True, inline="always")
def _in_box(x, y, box, k):
    return box[k, 0] <= x <= box[k, 2] and box[k, 1] <= y <= box[k, 3]


@njit(cache=True, inline="always")
def _on_surface(x, y, a, surface_box):
    """Whether the centre lies on the playing surface, its boundary included."""
    if not (surface_box[0] <= x <= surface_box[2] and surface_box[1] <= y <= surface_box[3]):
        return False
    if a.surface_kind == 1:
        c = a.surface_circle
        return math.hypot(x - c[0], y - c[1]) <= c[2]
    return point_in_closed_polygon(x, y, a.surface_polygon, 0, a.surface_polygon.shape[0])


@njit(cache=True, inline="always")
def judge_one_prepared(x, y, a, prepared):
    """Judge one disc centre (x, y) on a packed court ``a`` with ``prepared = judge_prepare(a)``.

    Returns (value, zone index or -1, touching bit mask over judged lines, dead, hanger code,
    fallen, holed). A holed disc's zone index is ``len(zones) + hole index``. Kernels that judge
    many discs call ``judge_prepare`` once and this per disc.
    """
    line_frame, line_reach, zone_box, surface_box = prepared
    r = a.disc_radius
    if not _on_surface(x, y, a, surface_box):
        return 0, -1, np.uint64(0), True, HANGER_NONE, True, False

    n_zones = a.zone_kind.shape[0]
    for h in range(a.hole_geom.shape[0]):
        if math.hypot(x - a.hole_geom[h, 0], y - a.hole_geom[h, 1]) <= a.hole_geom[h, 2]:
            return a.hole_value[h], n_zones + h, np.uint64(0), False, HANGER_NONE, False, True

    zone = -1
    for z in range(n_zones):
        if not _in_box(x, y, zone_box, z):
            continue
        if a.zone_kind[z] == 0:
            inside = point_in_polygon(x, y, a.zone_vertices, a.zone_start[z], a.zone_start[z + 1])
        else:
            an = a.zone_annulus
            inside = point_in_annulus(x, y, an[z, 0], an[z, 1], an[z, 2], an[z, 3])
        if inside:
            zone = z
            break
    if zone < 0:
        # A centre on the outline of a zone and of no zone's interior (a zone's border along the
        # surface's edge: the deck alleys and ends, the table's gutters, the crokinole ditch) lies in
        # the first zone whose closed outline holds it.
        for z in range(n_zones):
            if not _in_box(x, y, zone_box, z):
                continue
            if a.zone_kind[z] == 0:
                inside = point_in_closed_polygon(x, y, a.zone_vertices, a.zone_start[z], a.zone_start[z + 1])
            else:
                an = a.zone_annulus
                rho = math.hypot(x - an[z, 0], y - an[z, 1])
                inside = an[z, 2] <= rho <= an[z, 3]
            if inside:
                zone = z
                break

    touching = np.uint64(0)
    touch_value = NO_TOUCH_VALUE
    touch_dead = False
    touch_alive = False
    g = a.line_geom
    for i in range(a.line_kind.shape[0]):
        if not _in_box(x, y, line_reach, i):
            continue
        hw = a.line_half_width[i]
        if a.line_kind[i] == 0:
            d = band_distance_framed(x, y, g[i, 0], g[i, 1], line_frame[i, 0], line_frame[i, 1],
                                     line_frame[i, 2], hw)
            hit = d <= r + TOUCH_TOLERANCE
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
        ge = a.edge_geom
        if a.edge_kind[e] == 0:
            d = point_segment_distance(x, y, ge[e, 0], ge[e, 1], ge[e, 2], ge[e, 3])
        else:
            d = ge[e, 2] - math.hypot(x - ge[e, 0], y - ge[e, 1])
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


@njit(cache=True)
def judge_one(x, y, a):
    """Judge one disc centre (x, y) on a packed court ``a`` (``JudgeArrays``).

    Returns (value, zone index or -1, touching bit mask over judged lines, dead, hanger code,
    fallen, holed); see ``judge_one_prepared``, which this calls after ``judge_prepare``.
    """
    return judge_one_prepared(x, y, a, judge_prepare(a))


# ---- the grid of plain cells ----------------------------------------------------------------------

#: A batch of n discs gets a grid of about n / GRID_DISCS_PER_CELL cells (building a cell costs about
#: as much as judging a few discs), at most GRID_MAX_CELLS, and none below GRID_MIN_CELLS.
GRID_DISCS_PER_CELL = 16
GRID_MAX_CELLS = 1 << 16
GRID_MIN_CELLS = 64
#: Cell codes: a zone index, NO_ZONE for a plain cell outside every zone, MIXED for the others.
NO_ZONE = -1
MIXED = -2


@njit(cache=True, inline="always")
def _boxes_apart(bx0, by0, bx1, by1, cx0, cy0, cx1, cy1, gap):
    """Whether two boxes are more than ``gap`` apart along x or along y (then so is all they hold)."""
    return bx1 + gap < cx0 or cx1 + gap < bx0 or by1 + gap < cy0 or cy1 + gap < by0


@njit(cache=True, inline="always")
def _segment_further_than(x0, y0, x1, y1, bx0, by0, bx1, by1, gap):
    """Whether the segment is more than ``gap`` from the box (a cheap box test first)."""
    if _boxes_apart(bx0, by0, bx1, by1, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), gap):
        return True
    return segment_box_distance(x0, y0, x1, y1, bx0, by0, bx1, by1) > gap


@njit(cache=True, inline="always")
def _box_in_zone(a, z, zone_box, bx0, by0, bx1, by1):
    """0: the box misses zone z; 1: it lies in z's interior; 2: z's outline comes within a margin of it."""
    if bx1 < zone_box[z, 0] or bx0 > zone_box[z, 2] or by1 < zone_box[z, 1] or by0 > zone_box[z, 3]:
        return 0
    if a.zone_kind[z] == 0:
        v = a.zone_vertices
        start = a.zone_start[z]
        stop = a.zone_start[z + 1]
        j = stop - 1
        for i in range(start, stop):
            if not _segment_further_than(v[j, 0], v[j, 1], v[i, 0], v[i, 1], bx0, by0, bx1, by1, BOX_MARGIN):
                return 2
            j = i
        # The outline stays clear of the box, so one corner tells for all of it.
        return 1 if point_in_polygon(bx0, by0, v, start, stop) else 0
    an = a.zone_annulus
    near = point_box_distance(an[z, 0], an[z, 1], bx0, by0, bx1, by1)
    far = point_box_far_distance(an[z, 0], an[z, 1], bx0, by0, bx1, by1)
    if near > an[z, 2] + BOX_MARGIN and far < an[z, 3] - BOX_MARGIN:
        return 1
    if far < an[z, 2] - BOX_MARGIN or near > an[z, 3] + BOX_MARGIN:
        return 0
    return 2


@njit(cache=True, inline="always")
def _cell_code(a, prepared, bx0, by0, bx1, by1):
    """The zone shared by every centre in the box if the box is plain (see the module doc), else MIXED."""
    zone_box = prepared[2]
    r = a.disc_radius
    m = BOX_MARGIN
    if a.surface_kind == 1:
        c = a.surface_circle
        if point_box_far_distance(c[0], c[1], bx0, by0, bx1, by1) >= c[2] - m:
            return MIXED
    else:
        sp = a.surface_polygon
        n = sp.shape[0]
        j = n - 1
        for i in range(n):
            if not _segment_further_than(sp[j, 0], sp[j, 1], sp[i, 0], sp[i, 1], bx0, by0, bx1, by1, m):
                return MIXED
            j = i
        if not point_in_polygon(bx0, by0, sp, 0, n):
            return MIXED
    hg = a.hole_geom
    for h in range(hg.shape[0]):
        if point_box_distance(hg[h, 0], hg[h, 1], bx0, by0, bx1, by1) <= hg[h, 2] + m:
            return MIXED
    g = a.line_geom
    for i in range(a.line_kind.shape[0]):
        reach = a.line_half_width[i] + r + TOUCH_TOLERANCE + m
        if a.line_kind[i] == 0:
            if not _segment_further_than(g[i, 0], g[i, 1], g[i, 2], g[i, 3], bx0, by0, bx1, by1, reach):
                return MIXED
        else:
            near = point_box_distance(g[i, 0], g[i, 1], bx0, by0, bx1, by1)
            far = point_box_far_distance(g[i, 0], g[i, 1], bx0, by0, bx1, by1)
            if near <= g[i, 2] + reach and far >= g[i, 2] - reach:
                return MIXED
    ge = a.edge_geom
    for e in range(a.edge_kind.shape[0]):
        if a.edge_overhang[e] == 0:
            continue
        if a.edge_kind[e] == 0:
            if not _segment_further_than(ge[e, 0], ge[e, 1], ge[e, 2], ge[e, 3], bx0, by0, bx1, by1, r + m):
                return MIXED
        elif point_box_far_distance(ge[e, 0], ge[e, 1], bx0, by0, bx1, by1) >= ge[e, 2] - r - m:
            return MIXED
    for z in range(a.zone_kind.shape[0]):
        relation = _box_in_zone(a, z, zone_box, bx0, by0, bx1, by1)
        if relation == 2:
            return MIXED
        if relation == 1:
            return z
    return NO_ZONE


@njit(cache=True)
def _grid_frame(a, n_cells):
    """Origin, cell size and shape (nx, ny) of a grid of about ``n_cells`` cells over the surface."""
    sb = judge_prepare(a)[3]
    x0 = sb[0] + BOX_MARGIN
    y0 = sb[1] + BOX_MARGIN
    width = sb[2] - BOX_MARGIN - x0
    height = sb[3] - BOX_MARGIN - y0
    if n_cells < GRID_MIN_CELLS:
        return x0, y0, 1.0, 0, 0
    size = math.sqrt(width * height / n_cells)
    nx = max(1, int(math.ceil(width / size)))
    ny = max(1, int(math.ceil(height / size)))
    return x0, y0, size, nx, ny


@njit(cache=True, parallel=True)
def judge_grid(a, prepared, n_cells):
    """Cell codes of a grid of about ``n_cells`` cells over the surface (``_cell_code`` per cell).

    Returns (x0, y0, cell size, nx, ny, codes (ny * nx,) int32, row-major). Each cell is tested as
    its box grown by ``BOX_MARGIN``, so a centre that rounding puts in a neighbouring cell is covered.
    """
    x0, y0, size, nx, ny = _grid_frame(a, n_cells)
    codes = np.empty(ny * nx, np.int32)
    for j in prange(ny):
        by0 = y0 + j * size - BOX_MARGIN
        by1 = y0 + (j + 1) * size + BOX_MARGIN
        for i in range(nx):
            bx0 = x0 + i * size - BOX_MARGIN
            bx1 = x0 + (i + 1) * size + BOX_MARGIN
            codes[j * nx + i] = _cell_code(a, prepared, bx0, by0, bx1, by1)
    return x0, y0, size, nx, ny, codes


@njit(cache=True)
def judge_index(a, prepared, n_discs):
    """The grid of plain cells for a batch of ``n_discs`` discs, sized as ``judge_many`` sizes it.

    Returns (x0, y0, 1 / cell size, nx, ny, codes) for ``judge_point``; a batch too small for a grid
    gets an empty one (nx = ny = 0), and every disc takes the full procedure.
    """
    x0, y0, size, nx, ny, codes = judge_grid(a, prepared, min(GRID_MAX_CELLS, n_discs // GRID_DISCS_PER_CELL))
    return x0, y0, 1.0 / size, nx, ny, codes


@njit(cache=True, inline="always")
def judge_point(x, y, a, prepared, index):
    """Judge one disc centre with the grid of plain cells ``index = judge_index(...)``.

    Returns what ``judge_one_prepared`` returns, and the same values: a centre in a plain cell takes
    its cell's judgement (the zone's value, or dead in a dead zone), any other the full procedure.
    """
    gx0, gy0, inverse, nx, ny, codes = index
    code = MIXED
    fx = (x - gx0) * inverse
    fy = (y - gy0) * inverse
    if fx >= 0.0 and fy >= 0.0 and fx < nx and fy < ny:
        code = codes[int(fy) * nx + int(fx)]
    if code != MIXED:
        if code >= 0 and a.zone_dead[code]:
            return 0, code, np.uint64(0), True, HANGER_NONE, False, False
        return (a.zone_value[code] if code >= 0 else 0), code, np.uint64(0), False, HANGER_NONE, False, False
    return judge_one_prepared(x, y, a, prepared)


@njit(cache=True, parallel=True)
def judge_many(xs, ys, a, value, zone, touching, dead, hanger, fallen, holed):
    """Judge every (xs[i], ys[i]) into the output arrays, in parallel over discs."""
    prepared = judge_prepare(a)
    n = xs.shape[0]
    index = judge_index(a, prepared, n)
    for i in prange(n):
        v, z, t, d, h, f, o = judge_point(xs[i], ys[i], a, prepared, index)
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
        raise ValueError(f"{name}[{k}] must be a finite coordinate in metres (got {float(arr[k])!r})")
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
