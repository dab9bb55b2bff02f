"""The judge's per-batch data and grid of cells, built with NumPy: the same arrays as the compiled
``kernels.judge_prepare`` and ``grid.judge_index``, without compiling them.

A batch of discs is judged with per-batch data (line frames, reach boxes of lines and zones, the
surface's box) and, for a large batch, a grid of cells that says what a disc centred in each cell
can meet (``judge.grid``). Building them takes a few milliseconds; compiling the kernels that build
them took about a third of the compile of an experiment's first run, on the critical path of a user's
first command. Here the same tests run over every cell at once in NumPy, in the same floating-point
operations in the same order (IEEE arithmetic, and ``hypot`` from the same C library), so the arrays
are bit for bit the compiled kernels' (``tests/judging/test_grid_build.py`` compares them on every
court, end and grid size). The compiled kernels stay: ``judge_one`` prepares inside numba, and the
tests check the one against the other.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging.cell_grid import GRID_DISCS_PER_CELL, GRID_MAX_CELLS, GRID_MIN_CELLS
from shuffle_sim.judging.packing import JudgeArrays
from shuffle_sim.judging.procedure import (
    BOX_MARGIN,
    CELL_ALL_ZONES,
    CELL_COLUMNS,
    CELL_NEAR_HOLE,
    CELL_NEAR_OVERHANG,
    CELL_ON_SURFACE,
    MIXED,
    NO_ZONE,
)


def prepare(a: JudgeArrays) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``kernels.judge_prepare(a)``: line frames, line reach boxes, zone boxes and the surface's box."""
    n_lines = a.line_kind.shape[0]
    line_frame = np.zeros((n_lines, 3))
    line_reach = np.empty((n_lines, 4))
    g = a.line_geom
    for i in range(n_lines):
        pad = a.line_half_width[i] + a.disc_radius + TOUCH_TOLERANCE + BOX_MARGIN
        if a.line_kind[i] == 0:
            dx = g[i, 2] - g[i, 0]
            dy = g[i, 3] - g[i, 1]
            length = math.hypot(dx, dy)
            line_frame[i] = (dx / length, dy / length, length)
            line_reach[i] = (
                min(g[i, 0], g[i, 2]) - pad,
                min(g[i, 1], g[i, 3]) - pad,
                max(g[i, 0], g[i, 2]) + pad,
                max(g[i, 1], g[i, 3]) + pad,
            )
        else:
            line_reach[i] = (
                g[i, 0] - g[i, 2] - pad,
                g[i, 1] - g[i, 2] - pad,
                g[i, 0] + g[i, 2] + pad,
                g[i, 1] + g[i, 2] + pad,
            )
    n_zones = a.zone_kind.shape[0]
    zone_box = np.empty((n_zones, 4))
    for z in range(n_zones):
        if a.zone_kind[z] == 0:
            v = a.zone_vertices[a.zone_start[z] : a.zone_start[z + 1]]
            zone_box[z] = (
                v[:, 0].min() - BOX_MARGIN,
                v[:, 1].min() - BOX_MARGIN,
                v[:, 0].max() + BOX_MARGIN,
                v[:, 1].max() + BOX_MARGIN,
            )
        else:
            an = a.zone_annulus
            zone_box[z] = (
                an[z, 0] - an[z, 3] - BOX_MARGIN,
                an[z, 1] - an[z, 3] - BOX_MARGIN,
                an[z, 0] + an[z, 3] + BOX_MARGIN,
                an[z, 1] + an[z, 3] + BOX_MARGIN,
            )
    if a.surface_kind == 1:
        c = a.surface_circle
        surface_box = np.array(
            [c[0] - c[2] - BOX_MARGIN, c[1] - c[2] - BOX_MARGIN, c[0] + c[2] + BOX_MARGIN, c[1] + c[2] + BOX_MARGIN]
        )
    else:
        sp = a.surface_polygon
        surface_box = np.array(
            [
                sp[:, 0].min() - BOX_MARGIN,
                sp[:, 1].min() - BOX_MARGIN,
                sp[:, 0].max() + BOX_MARGIN,
                sp[:, 1].max() + BOX_MARGIN,
            ]
        )
    return line_frame, line_reach, zone_box, surface_box


# ---- the geometry of ``geometry`` over arrays of boxes -------------------------------------------------


def _point_box_distance(px, py, bx0, by0, bx1, by1):
    dx = np.maximum(np.maximum(bx0 - px, 0.0), px - bx1)
    dy = np.maximum(np.maximum(by0 - py, 0.0), py - by1)
    return np.hypot(dx, dy)


def _point_box_far_distance(px, py, bx0, by0, bx1, by1):
    return np.hypot(np.maximum(np.abs(px - bx0), np.abs(px - bx1)), np.maximum(np.abs(py - by0), np.abs(py - by1)))


def _point_segment_distance(px, py, x0, y0, x1, y1):
    dx = x1 - x0
    dy = y1 - y0
    length2 = dx * dx + dy * dy
    t = np.clip(((px - x0) * dx + (py - y0) * dy) / length2, 0.0, 1.0)
    return np.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


def _segment_meets_box(x0, y0, x1, y1, bx0, by0, bx1, by1):
    """Liang-Barsky clipping of one segment against every box (``geometry.segment_meets_box``)."""
    dx = x1 - x0
    dy = y1 - y0
    t0 = np.zeros(bx0.shape)
    t1 = np.ones(bx0.shape)
    meets = np.ones(bx0.shape, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
            if p == 0.0:
                meets &= ~(q < 0.0)
                continue
            t = q / p
            if p < 0.0:
                t0 = np.where(t > t0, t, t0)
            else:
                t1 = np.where(t < t1, t, t1)
            meets &= ~(t0 > t1)
    return meets


def _segment_box_distance(x0, y0, x1, y1, bx0, by0, bx1, by1):
    d = np.minimum(_point_box_distance(x0, y0, bx0, by0, bx1, by1), _point_box_distance(x1, y1, bx0, by0, bx1, by1))
    for cx, cy in ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1)):
        d = np.minimum(d, _point_segment_distance(cx, cy, x0, y0, x1, y1))
    return np.where(_segment_meets_box(x0, y0, x1, y1, bx0, by0, bx1, by1), 0.0, d)


def _segment_further_than(x0, y0, x1, y1, bx0, by0, bx1, by1, gap):
    """``grid._segment_further_than`` for every box: the cheap box test, then the distance."""
    apart = (
        (bx1 + gap < min(x0, x1)) | (max(x0, x1) + gap < bx0) | (by1 + gap < min(y0, y1)) | (max(y0, y1) + gap < by0)
    )
    if apart.all():
        return apart
    return apart | (_segment_box_distance(x0, y0, x1, y1, bx0, by0, bx1, by1) > gap)


def _point_in_polygon(px, py, vertices: np.ndarray):
    """Crossing-number test of every point against a ring (``geometry.point_in_polygon``)."""
    inside = np.zeros(np.shape(px), dtype=bool)
    n = vertices.shape[0]
    j = n - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            xi, yi = vertices[i]
            xj, yj = vertices[j]
            crosses = (yi > py) != (yj > py)
            if crosses.any():
                x_cross = xi + (py - yi) * (xj - xi) / (yj - yi)
                inside ^= crosses & (px < x_cross)
            j = i
    return inside


# ---- the grid ------------------------------------------------------------------------------------


def _grid_frame(surface_box: np.ndarray, n_cells: int) -> tuple[float, float, float, int, int]:
    """``grid._grid_frame``: origin, cell size and shape of a grid of about ``n_cells`` cells."""
    x0 = float(surface_box[0]) + BOX_MARGIN
    y0 = float(surface_box[1]) + BOX_MARGIN
    width = float(surface_box[2]) - BOX_MARGIN - x0
    height = float(surface_box[3]) - BOX_MARGIN - y0
    if n_cells < GRID_MIN_CELLS:
        return x0, y0, 1.0, 0, 0
    size = math.sqrt(width * height / n_cells)
    return x0, y0, size, max(1, math.ceil(width / size)), max(1, math.ceil(height / size))


def _box_in_zone(a: JudgeArrays, z: int, zone_box: np.ndarray, bx0, by0, bx1, by1) -> np.ndarray:
    """``grid._box_in_zone`` for every box: 0 misses zone z, 1 lies in its interior, 2 near its outline."""
    out = np.zeros(bx0.shape, dtype=np.int64)
    hit = ~((bx1 < zone_box[z, 0]) | (bx0 > zone_box[z, 2]) | (by1 < zone_box[z, 1]) | (by0 > zone_box[z, 3]))
    if not hit.any():
        return out
    bx0, by0, bx1, by1 = bx0[hit], by0[hit], bx1[hit], by1[hit]
    if a.zone_kind[z] == 0:
        v = a.zone_vertices[a.zone_start[z] : a.zone_start[z + 1]]
        near = np.zeros(bx0.shape, dtype=bool)
        j = v.shape[0] - 1
        for i in range(v.shape[0]):
            near |= ~_segment_further_than(v[j, 0], v[j, 1], v[i, 0], v[i, 1], bx0, by0, bx1, by1, BOX_MARGIN)
            j = i
        relation = np.where(near, 2, np.where(_point_in_polygon(bx0, by0, v), 1, 0))
    else:
        an = a.zone_annulus
        d_near = _point_box_distance(an[z, 0], an[z, 1], bx0, by0, bx1, by1)
        d_far = _point_box_far_distance(an[z, 0], an[z, 1], bx0, by0, bx1, by1)
        inside = (d_near > an[z, 2] + BOX_MARGIN) & (d_far < an[z, 3] - BOX_MARGIN)
        outside = (d_far < an[z, 2] - BOX_MARGIN) | (d_near > an[z, 3] + BOX_MARGIN)
        relation = np.where(inside, 1, np.where(outside, 0, 2))
    out[hit] = relation
    return out


def cells(a: JudgeArrays, prepared, n_cells: int):
    """``grid.judge_cells(a, prepared, n_cells)``: (x0, y0, cell size, nx, ny, cells), cells row-major
    (``CELL_COLUMNS`` int64 columns each), every cell's box grown by ``BOX_MARGIN``."""
    zone_box = prepared[2]
    x0, y0, size, nx, ny = _grid_frame(prepared[3], n_cells)
    table = np.empty((ny * nx, CELL_COLUMNS), np.int64)
    if nx * ny == 0:
        return x0, y0, size, nx, ny, table
    j, i = np.divmod(np.arange(ny * nx, dtype=np.int64), nx)
    m = BOX_MARGIN
    bx0 = x0 + i * size - m
    bx1 = x0 + (i + 1) * size + m
    by0 = y0 + j * size - m
    by1 = y0 + (j + 1) * size + m
    r = a.disc_radius
    flags = np.zeros(bx0.shape, dtype=np.int64)
    if a.surface_kind == 1:
        c = a.surface_circle
        flags |= np.where(_point_box_far_distance(c[0], c[1], bx0, by0, bx1, by1) < c[2] - m, CELL_ON_SURFACE, 0)
    else:
        sp = a.surface_polygon
        clear = np.ones(bx0.shape, dtype=bool)
        k = sp.shape[0] - 1
        for q in range(sp.shape[0]):
            clear &= _segment_further_than(sp[k, 0], sp[k, 1], sp[q, 0], sp[q, 1], bx0, by0, bx1, by1, m)
            k = q
        flags |= np.where(clear & _point_in_polygon(bx0, by0, sp), CELL_ON_SURFACE, 0)
    hg = a.hole_geom
    for h in range(hg.shape[0]):
        flags |= np.where(
            _point_box_distance(hg[h, 0], hg[h, 1], bx0, by0, bx1, by1) <= hg[h, 2] + m, CELL_NEAR_HOLE, 0
        )
    lines = np.zeros(bx0.shape, dtype=np.int64)
    g = a.line_geom
    for q in range(a.line_kind.shape[0]):
        reach = a.line_half_width[q] + r + TOUCH_TOLERANCE + m
        if a.line_kind[q] == 0:
            near = ~_segment_further_than(g[q, 0], g[q, 1], g[q, 2], g[q, 3], bx0, by0, bx1, by1, reach)
        else:
            d_near = _point_box_distance(g[q, 0], g[q, 1], bx0, by0, bx1, by1)
            d_far = _point_box_far_distance(g[q, 0], g[q, 1], bx0, by0, bx1, by1)
            near = (d_near <= g[q, 2] + reach) & (d_far >= g[q, 2] - reach)
        lines |= np.where(near, np.int64(1) << np.int64(q), np.int64(0))
    ge = a.edge_geom
    for e in range(a.edge_kind.shape[0]):
        if a.edge_overhang[e] == 0:
            continue
        if a.edge_kind[e] == 0:
            near = ~_segment_further_than(ge[e, 0], ge[e, 1], ge[e, 2], ge[e, 3], bx0, by0, bx1, by1, r + m)
        else:
            near = _point_box_far_distance(ge[e, 0], ge[e, 1], bx0, by0, bx1, by1) >= ge[e, 2] - r - m
        flags |= np.where(near, CELL_NEAR_OVERHANG, 0)
    n_zones = a.zone_kind.shape[0]
    if n_zones > 64:
        flags |= CELL_ALL_ZONES
    zone = np.full(bx0.shape, NO_ZONE, dtype=np.int64)
    zones = np.zeros(bx0.shape, dtype=np.int64)
    zone_near = np.zeros(bx0.shape, dtype=bool)
    open_ = np.ones(bx0.shape, dtype=bool)  # no zone's interior has held the cell yet (the loop's break)
    for z in range(n_zones):
        relation = np.zeros(bx0.shape, dtype=np.int64)
        relation[open_] = _box_in_zone(a, z, zone_box, bx0[open_], by0[open_], bx1[open_], by1[open_])
        found = relation == 1
        zone[found] = z
        near = relation == 2
        zone_near |= near
        if z < 64:
            zones |= np.where(near, np.int64(1) << np.int64(z), np.int64(0))
        open_ &= ~found
    plain = ((flags == CELL_ON_SURFACE) | (flags == CELL_ON_SURFACE | CELL_ALL_ZONES)) & (lines == 0) & ~zone_near
    table[:, 0] = np.where(plain, zone, MIXED)
    table[:, 1] = zone
    table[:, 2] = zones
    table[:, 3] = lines
    table[:, 4] = flags
    return x0, y0, size, nx, ny, table


def index(a: JudgeArrays, prepared, n_discs: int):
    """``cell_grid.judge_index(a, prepared, n_discs)``: the grid of a batch of ``n_discs`` discs, as
    ``cell_grid.judge_point`` takes it (x0, y0, 1 / cell size, nx, ny, cells)."""
    x0, y0, size, nx, ny, table = cells(a, prepared, min(GRID_MAX_CELLS, int(n_discs) // GRID_DISCS_PER_CELL))
    return x0, y0, 1.0 / size, nx, ny, table
