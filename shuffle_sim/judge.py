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

The batch function runs in one numba call with ``prange`` over chunks of discs. Before the loop it
computes, once per batch, each line's direction and length and a bounding box per line and per zone
(grown by the disc radius and a margin), so that most discs skip most lines and zones
(``judge_prepare``). For a large batch it also lays a grid over the surface (``judge_cells``) and
notes, per cell, what a disc centred anywhere in it can meet: whether the cell lies on the surface
clear of its outline, whether a hole or an overhanging edge comes near, which lines the disc may
touch, which zones' outlines cross the cell and which zone holds it otherwise. A *plain* cell (in
the surface's interior, inside one zone, and no earlier one, or in none, with no line, edge or hole
near) gives every disc in it the same judgement, which depends on the zone alone; a disc in any
other cell takes the full procedure above restricted to what its cell names (``_judge_where``).
None of these shortcuts changes any result (the tests compare them with the full procedure and
with Shapely); they only decide what need not be computed. The grid of a batch is remembered for
the next batches on the same court (``cached_judge_index``).

The loops over discs are compiled without numba's reference counting (``_nrt=False``): they
allocate nothing, and an atomic count of every court array a disc's judging touches would cost more
than judging it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from shuffle_sim.court import NO_HANGER_VALUE, NO_TOUCH_VALUE, Court, JudgeArrays
from shuffle_sim.geometry import (
    TOUCH_TOLERANCE,
    band_distance,
    band_within_framed,
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

#: Columns of a cell's entry (``judge_cells``).
CELL_CODE = 0  # the cell's code: its zone or NO_ZONE if plain, else MIXED
CELL_ZONE = 1  # the zone whose interior holds the whole cell, unless one of CELL_ZONES comes first (or NO_ZONE)
CELL_ZONES = 2  # bit mask of the zones (before CELL_ZONE) whose outline comes near the cell
CELL_LINES = 3  # bit mask of the judged lines a disc centred in the cell may touch
CELL_FLAGS = 4  # the flags below
CELL_COLUMNS = 5
#: Cell flags.
CELL_ON_SURFACE = 1  # every centre in the cell is on the surface, clear of its outline
CELL_NEAR_HOLE = 2  # a hole's capture radius may reach into the cell
CELL_NEAR_OVERHANG = 4  # a disc centred in the cell may overhang an edge
CELL_ALL_ZONES = 8  # more than 64 zones: CELL_ZONES cannot say which, test them all


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


# The tests below take the arrays they read rather than the whole court: called (not inlined) from
# the judging loops, which keeps those small to compile, and compiled without reference counting,
# so that a call costs no atomic updates.


@njit(cache=True, _nrt=False)
def _on_surface(x, y, surface_kind, surface_circle, surface_polygon, surface_box):
    """Whether the centre lies on the playing surface, its boundary included."""
    if not (surface_box[0] <= x <= surface_box[2] and surface_box[1] <= y <= surface_box[3]):
        return False
    if surface_kind == 1:
        c = surface_circle
        return math.hypot(x - c[0], y - c[1]) <= c[2]
    return point_in_closed_polygon(x, y, surface_polygon, 0, surface_polygon.shape[0])


@njit(cache=True, _nrt=False)
def _hole_at(x, y, hole_geom):
    """Index of the first hole whose capture radius holds the centre, or -1."""
    for h in range(hole_geom.shape[0]):
        if math.hypot(x - hole_geom[h, 0], y - hole_geom[h, 1]) <= hole_geom[h, 2]:
            return h
    return -1


@njit(cache=True, _nrt=False)
def _in_zone_interior(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, z):
    if zone_kind[z] == 0:
        return point_in_polygon(x, y, zone_vertices, zone_start[z], zone_start[z + 1])
    an = zone_annulus
    return point_in_annulus(x, y, an[z, 0], an[z, 1], an[z, 2], an[z, 3])


@njit(cache=True, _nrt=False)
def _in_zone_closed(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, z):
    if zone_kind[z] == 0:
        return point_in_closed_polygon(x, y, zone_vertices, zone_start[z], zone_start[z + 1])
    an = zone_annulus
    rho = math.hypot(x - an[z, 0], y - an[z, 1])
    return an[z, 2] <= rho <= an[z, 3]


@njit(cache=True, _nrt=False)
def _first_zone(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, zone_box, all_zones, zones, closed):
    """The first zone in file order, among the bit mask ``zones`` (every zone if ``all_zones``), whose
    interior holds (x, y), or with ``closed`` whose outline included holds it; -1 if none. The mask
    is walked bit by bit, lowest first."""
    n_zones = zone_kind.shape[0]
    rest = np.int64(-1) if all_zones else zones
    z = 0
    while z < n_zones and rest != 0:
        if not all_zones:
            z = trailing_zeros(rest)
            rest &= rest - 1
        if _in_box(x, y, zone_box, z):
            if closed:
                inside = _in_zone_closed(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, z)
            else:
                inside = _in_zone_interior(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, z)
            if inside:
                return z
        z += 1
    return -1


@njit(cache=True, inline="always")
def _touches_line(x, y, a, line_frame, i):
    """Whether a disc centred at (x, y) touches judged line i (its band, within ``TOUCH_TOLERANCE``)."""
    g = a.line_geom
    hw = a.line_half_width[i]
    r = a.disc_radius
    if a.line_kind[i] == 0:
        return band_within_framed(x, y, g[i, 0], g[i, 1], line_frame[i, 0], line_frame[i, 1], line_frame[i, 2], hw,
                                  r + TOUCH_TOLERANCE)
    return disc_touches_ring(x, y, r, g[i, 0], g[i, 1], g[i, 2], hw)


@njit(cache=True, _nrt=False)
def _hanger(x, y, r, edge_kind, edge_overhang, edge_geom):
    """The hanger code of a disc of radius r centred at (x, y) on the surface: which overhang edges
    it crosses."""
    over_end = False
    over_side = False
    for e in range(edge_kind.shape[0]):
        kind = edge_overhang[e]
        if kind == 0:
            continue
        ge = edge_geom
        if edge_kind[e] == 0:
            d = point_segment_distance(x, y, ge[e, 0], ge[e, 1], ge[e, 2], ge[e, 3])
        else:
            d = ge[e, 2] - math.hypot(x - ge[e, 0], y - ge[e, 1])
        if d < r:
            if kind == 1:
                over_end = True
            else:
                over_side = True
    if over_end:
        return HANGER_CORNER if over_side else HANGER_END
    return HANGER_NONE


@njit(cache=True, inline="always")
def _verdict(a, zone, touch_value, touch_dead, touch_alive, hanger):
    """(value, dead) from the zone, the lines touched and the hanger code (steps 6 and 7)."""
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
    return value, dead


@njit(cache=True, inline="always")
def _judge_where(x, y, a, prepared, flags, zone_default, zones, lines):
    """The judging procedure (module docstring) for one centre, told what it can skip.

    ``flags`` (``CELL_*``) say whether the centre is surely on the surface and whether holes,
    overhanging edges or all zones must be looked at; ``zones`` and ``lines`` are bit masks of the
    zones and lines that can matter (zones only without ``CELL_ALL_ZONES``), and ``zone_default``
    the zone that holds the centre if none of ``zones`` does. Called with everything to look at,
    it is the full procedure (``judge_one_prepared``); a grid cell (``judge_cells``) tells it what it
    can skip there, and skipping only ever leaves out tests certain to fail, so the answers are the
    same. The bounding boxes of ``judge_prepare`` prune further, likewise.
    """
    line_frame, line_reach, zone_box, surface_box = prepared
    if flags & CELL_ON_SURFACE == 0 and not _on_surface(x, y, a.surface_kind, a.surface_circle, a.surface_polygon,
                                                         surface_box):
        return 0, -1, np.uint64(0), True, HANGER_NONE, True, False

    n_zones = a.zone_kind.shape[0]
    if flags & CELL_NEAR_HOLE != 0:
        h = _hole_at(x, y, a.hole_geom)
        if h >= 0:
            return a.hole_value[h], n_zones + h, np.uint64(0), False, HANGER_NONE, False, True

    zone = -1
    all_zones = flags & CELL_ALL_ZONES != 0
    some_zones = all_zones or zones != 0
    if some_zones:
        zone = _first_zone(x, y, a.zone_kind, a.zone_start, a.zone_vertices, a.zone_annulus, zone_box, all_zones,
                           zones, False)
    if zone < 0 and not all_zones:
        zone = zone_default
    if zone < 0 and some_zones:
        # A centre on the outline of a zone and of no zone's interior (a zone's border along the
        # surface's edge: the deck alleys and ends, the table's gutters, the crokinole ditch) lies in
        # the first zone whose closed outline holds it.
        zone = _first_zone(x, y, a.zone_kind, a.zone_start, a.zone_vertices, a.zone_annulus, zone_box, all_zones,
                           zones, True)

    touching = np.uint64(0)
    touch_value = NO_TOUCH_VALUE
    touch_dead = False
    touch_alive = False
    # A cell's mask is tight; only the full procedure (all lines) prunes by the lines' boxes first.
    rest = lines
    while rest != 0:
        i = trailing_zeros(rest)
        rest &= rest - 1
        if all_zones and not _in_box(x, y, line_reach, i):
            continue
        # Accumulated without branching on the answer, which is as likely one way as the other.
        hit = _touches_line(x, y, a, line_frame, i)
        touching |= np.uint64(hit) << np.uint64(i)
        touch_value = min(touch_value, a.line_touch_value[i] if hit else NO_TOUCH_VALUE)
        touch_dead = touch_dead | (hit & a.line_touch_dead[i])
        touch_alive = touch_alive | (hit & a.line_touch_alive[i])

    hanger = (_hanger(x, y, a.disc_radius, a.edge_kind, a.edge_overhang, a.edge_geom) if flags & CELL_NEAR_OVERHANG != 0
              else HANGER_NONE)
    value, dead = _verdict(a, zone, touch_value, touch_dead, touch_alive, hanger)
    return value, zone, touching, dead, hanger, False, False


@njit(cache=True, inline="always")
def _all_lines(a):
    """Bit mask with a bit for every judged line (at most 64, ``Court.judge_arrays``)."""
    n = a.line_kind.shape[0]
    return np.int64(-1) if n >= 64 else (np.int64(1) << np.int64(n)) - np.int64(1)


@njit(cache=True, inline="always")
def judge_one_prepared(x, y, a, prepared):
    """Judge one disc centre (x, y) on a packed court ``a`` with ``prepared = judge_prepare(a)``.

    Returns (value, zone index or -1, touching bit mask over judged lines, dead, hanger code,
    fallen, holed). A holed disc's zone index is ``len(zones) + hole index``. Kernels that judge
    many discs call ``judge_prepare`` once and this per disc.
    """
    return _judge_where(x, y, a, prepared, CELL_NEAR_HOLE | CELL_NEAR_OVERHANG | CELL_ALL_ZONES, NO_ZONE,
                        np.int64(0), _all_lines(a))


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



@njit(cache=True)
def _boxes_apart(bx0, by0, bx1, by1, cx0, cy0, cx1, cy1, gap):
    """Whether two boxes are more than ``gap`` apart along x or along y (then so is all they hold)."""
    return bx1 + gap < cx0 or cx1 + gap < bx0 or by1 + gap < cy0 or cy1 + gap < by0


@njit(cache=True)
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
def _cell_entry(a, prepared, bx0, by0, bx1, by1, cells, k):
    """Fill row k of ``cells`` for the box: what a centre anywhere in it can meet (``judge_cells``).

    The box is plain (``CELL_CODE`` its zone or NO_ZONE) when it lies in the surface's interior and
    no line, overhanging edge or hole comes near it and its zone is certain. Every "near" here is
    tested against the box with a margin, so it only ever errs towards near.
    """
    zone_box = prepared[2]
    r = a.disc_radius
    m = BOX_MARGIN
    flags = 0
    if a.surface_kind == 1:
        c = a.surface_circle
        if point_box_far_distance(c[0], c[1], bx0, by0, bx1, by1) < c[2] - m:
            flags |= CELL_ON_SURFACE
    else:
        sp = a.surface_polygon
        n = sp.shape[0]
        clear = True
        j = n - 1
        for i in range(n):
            if not _segment_further_than(sp[j, 0], sp[j, 1], sp[i, 0], sp[i, 1], bx0, by0, bx1, by1, m):
                clear = False
                break
            j = i
        if clear and point_in_polygon(bx0, by0, sp, 0, n):
            flags |= CELL_ON_SURFACE
    hg = a.hole_geom
    for h in range(hg.shape[0]):
        if point_box_distance(hg[h, 0], hg[h, 1], bx0, by0, bx1, by1) <= hg[h, 2] + m:
            flags |= CELL_NEAR_HOLE
    lines = np.int64(0)
    g = a.line_geom
    for i in range(a.line_kind.shape[0]):
        reach = a.line_half_width[i] + r + TOUCH_TOLERANCE + m
        if a.line_kind[i] == 0:
            near = not _segment_further_than(g[i, 0], g[i, 1], g[i, 2], g[i, 3], bx0, by0, bx1, by1, reach)
        else:
            d_near = point_box_distance(g[i, 0], g[i, 1], bx0, by0, bx1, by1)
            d_far = point_box_far_distance(g[i, 0], g[i, 1], bx0, by0, bx1, by1)
            near = d_near <= g[i, 2] + reach and d_far >= g[i, 2] - reach
        if near:
            lines |= np.int64(1) << np.int64(i)
    ge = a.edge_geom
    for e in range(a.edge_kind.shape[0]):
        if a.edge_overhang[e] == 0:
            continue
        if a.edge_kind[e] == 0:
            if not _segment_further_than(ge[e, 0], ge[e, 1], ge[e, 2], ge[e, 3], bx0, by0, bx1, by1, r + m):
                flags |= CELL_NEAR_OVERHANG
        elif point_box_far_distance(ge[e, 0], ge[e, 1], bx0, by0, bx1, by1) >= ge[e, 2] - r - m:
            flags |= CELL_NEAR_OVERHANG
    n_zones = a.zone_kind.shape[0]
    if n_zones > 64:
        flags |= CELL_ALL_ZONES
    zone = NO_ZONE
    zones = np.int64(0)
    zone_near = False
    for z in range(n_zones):
        relation = _box_in_zone(a, z, zone_box, bx0, by0, bx1, by1)
        if relation == 1:
            zone = z
            break
        if relation == 2:
            zone_near = True
            if z < 64:
                zones |= np.int64(1) << np.int64(z)
    plain = (flags == CELL_ON_SURFACE or flags == CELL_ON_SURFACE | CELL_ALL_ZONES) and lines == 0 and not zone_near
    cells[k, CELL_CODE] = zone if plain else MIXED
    cells[k, CELL_ZONE] = zone
    cells[k, CELL_ZONES] = zones
    cells[k, CELL_LINES] = lines
    cells[k, CELL_FLAGS] = flags


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


@njit(cache=True, _nrt=False)
def _cell_row(a, prepared, x0, y0, size, nx, j, cells):
    """Fill the entries of row j of the grid (one call per row keeps the parallel loop small)."""
    by0 = y0 + j * size - BOX_MARGIN
    by1 = y0 + (j + 1) * size + BOX_MARGIN
    for i in range(nx):
        bx0 = x0 + i * size - BOX_MARGIN
        bx1 = x0 + (i + 1) * size + BOX_MARGIN
        _cell_entry(a, prepared, bx0, by0, bx1, by1, cells, j * nx + i)


@njit(cache=True, parallel=True)
def judge_cells(a, prepared, n_cells):
    """Entries of a grid of about ``n_cells`` cells over the surface (``_cell_entry`` per cell).

    Returns (x0, y0, cell size, nx, ny, cells (ny * nx, CELL_COLUMNS) int64, row-major). Each cell
    is tested as its box grown by ``BOX_MARGIN``, so a centre that rounding puts in a neighbouring
    cell is covered.
    """
    x0, y0, size, nx, ny = _grid_frame(a, n_cells)
    cells = np.empty((ny * nx, CELL_COLUMNS), np.int64)
    for j in prange(ny):
        # int64 as in the typing of this function (the parallel loop's index is unsigned): one compiled
        # version of ``_cell_row``, not two.
        _cell_row(a, prepared, x0, y0, size, nx, np.int64(j), cells)
    return x0, y0, size, nx, ny, cells


@njit(cache=True)
def judge_grid(a, prepared, n_cells):
    """Cell codes of a grid of about ``n_cells`` cells over the surface (``judge_cells``).

    Returns (x0, y0, cell size, nx, ny, codes (ny * nx,) int32, row-major): a plain cell's zone or
    NO_ZONE, MIXED for the others.
    """
    x0, y0, size, nx, ny, cells = judge_cells(a, prepared, n_cells)
    return x0, y0, size, nx, ny, cells[:, CELL_CODE].astype(np.int32)


@njit(cache=True)
def judge_index(a, prepared, n_discs):
    """The grid of cells for a batch of ``n_discs`` discs: about one cell per ``GRID_DISCS_PER_CELL``
    discs, at most ``GRID_MAX_CELLS``.

    Returns (x0, y0, 1 / cell size, nx, ny, cells) for ``judge_point``; a batch too small for a grid
    gets an empty one (nx = ny = 0), and every disc takes the full procedure.
    """
    x0, y0, size, nx, ny, cells = judge_cells(a, prepared, min(GRID_MAX_CELLS, n_discs // GRID_DISCS_PER_CELL))
    return x0, y0, 1.0 / size, nx, ny, cells


@njit(cache=True, inline="always")
def surely_on_surface(x, y, index):
    """True if the grid ``index`` (``judge_index``) puts (x, y) in a cell lying on the surface, clear
    of its outline; False means "look": off the grid, or in a cell near the outline."""
    gx0, gy0, inverse, nx, ny, cells = index
    fx = (x - gx0) * inverse
    fy = (y - gy0) * inverse
    if fx >= 0.0 and fy >= 0.0 and fx < nx and fy < ny:
        return cells[int(fy) * nx + int(fx), CELL_FLAGS] & CELL_ON_SURFACE != 0
    return False


@njit(cache=True, inline="always")
def judge_point(x, y, a, prepared, index):
    """Judge one disc centre with the grid ``index = judge_index(...)``.

    Returns what ``judge_one_prepared`` returns, and the same values: a centre in a plain cell takes
    its cell's judgement (the zone's value, or dead in a dead zone), one in another cell the full
    procedure restricted to what its cell can meet, one off the grid the full procedure.
    """
    gx0, gy0, inverse, nx, ny, cells = index
    fx = (x - gx0) * inverse
    fy = (y - gy0) * inverse
    flags = CELL_NEAR_HOLE | CELL_NEAR_OVERHANG | CELL_ALL_ZONES
    zone_default = np.int64(NO_ZONE)
    zones = np.int64(0)
    lines = _all_lines(a)
    if fx >= 0.0 and fy >= 0.0 and fx < nx and fy < ny:
        k = int(fy) * nx + int(fx)
        code = cells[k, CELL_CODE]
        if code != MIXED:
            if code >= 0 and a.zone_dead[code]:
                return 0, code, np.uint64(0), True, HANGER_NONE, False, False
            return (a.zone_value[code] if code >= 0 else 0), code, np.uint64(0), False, HANGER_NONE, False, False
        flags = cells[k, CELL_FLAGS]
        zone_default = cells[k, CELL_ZONE]
        zones = cells[k, CELL_ZONES]
        lines = cells[k, CELL_LINES]
    return _judge_where(x, y, a, prepared, flags, zone_default, zones, lines)


#: Discs per call of ``judge_range`` in the parallel loop of ``judge_ranges``.
JUDGE_CHUNK = 1024


@njit(cache=True, _nrt=False)
def judge_range(xs, ys, a, prepared, index, start, stop, value, zone, touching, dead, hanger, fallen, holed):
    """Judge discs ``start`` to ``stop`` into the output arrays, with ``prepared = judge_prepare(a)``
    and the grid ``index`` (``judge_index``). Compiled without reference counting: it allocates
    nothing, and counting the references of the court's arrays for every disc would cost more than
    judging it."""
    for i in range(start, stop):
        v, z, t, d, h, f, o = judge_point(xs[i], ys[i], a, prepared, index)
        value[i] = v
        zone[i] = z
        touching[i] = t
        dead[i] = d
        hanger[i] = h
        fallen[i] = f
        holed[i] = o


@njit(cache=True, parallel=True)
def judge_ranges(xs, ys, a, prepared, index, value, zone, touching, dead, hanger, fallen, holed):
    """``judge_range`` over every disc, in parallel over chunks of ``JUDGE_CHUNK`` discs."""
    n = xs.shape[0]
    for c in prange((n + JUDGE_CHUNK - 1) // JUDGE_CHUNK):
        judge_range(xs, ys, a, prepared, index, c * JUDGE_CHUNK, min(n, (c + 1) * JUDGE_CHUNK), value, zone,
                    touching, dead, hanger, fallen, holed)


@njit(cache=True)
def judge_many(xs, ys, a, value, zone, touching, dead, hanger, fallen, holed):
    """Judge every (xs[i], ys[i]) into the output arrays, in parallel over chunks of discs."""
    prepared = judge_prepare(a)
    index = judge_index(a, prepared, xs.shape[0])
    judge_ranges(xs, ys, a, prepared, index, value, zone, touching, dead, hanger, fallen, holed)


#: Grids of recent batches (``cached_judge_index``), by court content and grid size; a few suffice.
_INDEX_CACHE: dict = {}
_INDEX_CACHE_SIZE = 8


def _judge_arrays_digest(a: JudgeArrays) -> bytes:
    digest = hashlib.blake2b(digest_size=20)
    for value in a:
        if isinstance(value, np.ndarray):
            digest.update(f"{value.dtype.str}{value.shape}".encode())
            digest.update(np.ascontiguousarray(value).tobytes())
        else:
            digest.update(repr(value).encode())
        digest.update(b";")
    return digest.digest()


def cached_judge_index(a: JudgeArrays, n_discs: int):
    """``(prepared, index)`` for a batch of ``n_discs`` discs on the court packed in ``a``: the same as
    ``judge_prepare(a)`` and ``judge_index(a, prepared, n_discs)``, but remembered for the last few
    courts and grid sizes, so that repeated batches on one court (experiments, players, benchmarks)
    build their grid once. Keyed by the arrays' contents, so a changed court never meets a stale grid.
    """
    n_cells = min(GRID_MAX_CELLS, int(n_discs) // GRID_DISCS_PER_CELL)
    key = (_judge_arrays_digest(a), n_cells if n_cells >= GRID_MIN_CELLS else 0)
    found = _INDEX_CACHE.pop(key, None)
    if found is None:
        prepared = judge_prepare(a)
        found = (prepared, judge_index(a, prepared, int(n_discs)))
    _INDEX_CACHE[key] = found  # most recent last
    while len(_INDEX_CACHE) > _INDEX_CACHE_SIZE:
        del _INDEX_CACHE[next(iter(_INDEX_CACHE))]
    return found


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
    a = court.judge_arrays()
    prepared, index = cached_judge_index(a, n)
    judge_ranges(x, y, a, prepared, index, out["value"], out["zone"], out["touching"], out["dead"], out["hanger"],
                 out["fallen"], out["holed"])
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
