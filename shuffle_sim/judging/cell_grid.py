"""The grid of plain cells that lets a large batch skip the full judging procedure.

For a large batch a grid is laid over the surface (``judge_cells``) noting, per cell, what a disc
centred anywhere in it can meet: whether the cell lies on the surface clear of its outline, whether a
hole or an overhanging edge comes near, which lines the disc may touch, which zones' outlines cross
the cell and which zone holds it otherwise. A *plain* cell (in the surface's interior, inside one
zone, and no earlier one, or in none, with no line, edge or hole near) gives every disc in it the
same judgement, which depends on the zone alone; a disc in any other cell takes the full procedure
restricted to what its cell names (``procedure._judge_where``). None of this changes any result (the
tests compare it with the full procedure and with Shapely); it only decides what need not be computed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.court.geometry import (
    TOUCH_TOLERANCE,
    point_box_distance,
    point_box_far_distance,
    point_in_polygon,
    segment_box_distance,
)
from shuffle_sim.judging.procedure import (
    BOX_MARGIN,
    CELL_ALL_ZONES,
    CELL_CODE,
    CELL_COLUMNS,
    CELL_FLAGS,
    CELL_LINES,
    CELL_NEAR_HOLE,
    CELL_NEAR_OVERHANG,
    CELL_ON_SURFACE,
    CELL_ZONE,
    CELL_ZONES,
    HANGER_NONE,
    MIXED,
    NO_ZONE,
    _all_lines,
    _judge_where,
    judge_prepare,
)

#: A batch of n discs gets a grid of about n / GRID_DISCS_PER_CELL cells (building a cell costs about
#: as much as judging a few discs), at most GRID_MAX_CELLS, and none below GRID_MIN_CELLS.
GRID_DISCS_PER_CELL = 16
GRID_MAX_CELLS = 1 << 16
GRID_MIN_CELLS = 64


@jit.kernel
def _boxes_apart(bx0, by0, bx1, by1, cx0, cy0, cx1, cy1, gap):
    """Whether two boxes are more than ``gap`` apart along x or along y (then so is all they hold)."""
    return bx1 + gap < cx0 or cx1 + gap < bx0 or by1 + gap < cy0 or cy1 + gap < by0


@jit.kernel
def _segment_further_than(x0, y0, x1, y1, bx0, by0, bx1, by1, gap):
    """Whether the segment is more than ``gap`` from the box (a cheap box test first)."""
    if _boxes_apart(bx0, by0, bx1, by1, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), gap):
        return True
    return segment_box_distance(x0, y0, x1, y1, bx0, by0, bx1, by1) > gap


@jit.inline
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


@jit.inline
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
        if clear and point_in_polygon(bx0, by0, sp, np.int64(0), n):
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


@jit.kernel
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
    nx = max(1, math.ceil(width / size))
    ny = max(1, math.ceil(height / size))
    return x0, y0, size, nx, ny


@jit.no_refcount
def _cell_row(a, prepared, x0, y0, size, nx, j, cells):
    """Fill the entries of row j of the grid (one call per row keeps the parallel loop small)."""
    by0 = y0 + j * size - BOX_MARGIN
    by1 = y0 + (j + 1) * size + BOX_MARGIN
    for i in range(nx):
        bx0 = x0 + i * size - BOX_MARGIN
        bx1 = x0 + (i + 1) * size + BOX_MARGIN
        _cell_entry(a, prepared, bx0, by0, bx1, by1, cells, j * nx + i)


@jit.parallel
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


@jit.kernel
def judge_grid(a, prepared, n_cells):
    """Cell codes of a grid of about ``n_cells`` cells over the surface (``judge_cells``).

    Returns (x0, y0, cell size, nx, ny, codes (ny * nx,) int32, row-major): a plain cell's zone or
    NO_ZONE, MIXED for the others.
    """
    x0, y0, size, nx, ny, cells = judge_cells(a, prepared, n_cells)
    return x0, y0, size, nx, ny, cells[:, CELL_CODE].astype(np.int32)


@jit.kernel
def judge_index(a, prepared, n_discs):
    """The grid of cells for a batch of ``n_discs`` discs: about one cell per ``GRID_DISCS_PER_CELL``
    discs, at most ``GRID_MAX_CELLS``.

    Returns (x0, y0, 1 / cell size, nx, ny, cells) for ``judge_point``; a batch too small for a grid
    gets an empty one (nx = ny = 0), and every disc takes the full procedure.
    """
    x0, y0, size, nx, ny, cells = judge_cells(a, prepared, min(GRID_MAX_CELLS, n_discs // GRID_DISCS_PER_CELL))
    return x0, y0, 1.0 / size, nx, ny, cells


@jit.inline
def surely_on_surface(x, y, index):
    """True if the grid ``index`` (``judge_index``) puts (x, y) in a cell lying on the surface, clear
    of its outline; False means "look": off the grid, or in a cell near the outline."""
    gx0, gy0, inverse, nx, ny, cells = index
    fx = (x - gx0) * inverse
    fy = (y - gy0) * inverse
    if fx >= 0.0 and fy >= 0.0 and fx < nx and fy < ny:
        return cells[int(fy) * nx + int(fx), CELL_FLAGS] & CELL_ON_SURFACE != 0
    return False


@jit.inline
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
