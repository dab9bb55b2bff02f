"""The per-disc judging procedure in numba: surface, hole, zone, lines touched, hanger, verdict.

``judge_prepare`` computes once per batch each line's frame and a bounding box per line and per zone
(grown by the disc radius and a margin), so that most discs skip most lines and zones; ``judge_one``
and ``judge_one_prepared`` judge a single centre by the procedure of ``shuffle_sim.judging``. The loops
over discs are compiled without numba's reference counting (``_nrt=False``): they allocate nothing,
and an atomic count of every court array a disc's judging touches would cost more than judging it.
"""

from __future__ import annotations

import math

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from shuffle_sim._runtime import jit
from shuffle_sim.court.geometry import (
    TOUCH_TOLERANCE,
    band_within_framed,
    disc_touches_ring,
    point_in_annulus,
    point_in_closed_polygon,
    point_in_polygon,
    point_near_ring,
    point_segment_distance,
    segment_frame,
)
from shuffle_sim.judging.packing import NO_HANGER_VALUE, NO_TOUCH_VALUE

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
#: Cell codes: a zone index, NO_ZONE for a plain cell outside every zone, MIXED for the others.
NO_ZONE = -1
MIXED = -2


@jit.kernel
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
            v = a.zone_vertices[a.zone_start[z] : a.zone_start[z + 1]]
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


@jit.inline
def _in_box(x, y, box, k):
    return box[k, 0] <= x <= box[k, 2] and box[k, 1] <= y <= box[k, 3]


# The tests below take the arrays they read rather than the whole court: called (not inlined) from
# the judging loops, which keeps those small to compile, and compiled without reference counting,
# so that a call costs no atomic updates.


@jit.no_refcount
def _on_surface(x, y, surface_kind, surface_circle, surface_polygon, surface_box):
    """Whether the centre lies on the playing surface, its boundary included: a centre within
    ``TOUCH_TOLERANCE`` of the outline is on it (exact contact, ``geometry``)."""
    if not (surface_box[0] <= x <= surface_box[2] and surface_box[1] <= y <= surface_box[3]):
        return False
    return _surface_holds(x, y, surface_kind, surface_circle, surface_polygon)


@jit.inline
def _surface_holds(x, y, surface_kind, surface_circle, surface_polygon):
    """The exact on-surface test, outline included (the box tests before it are shortcuts only)."""
    if surface_kind == 1:
        c = surface_circle
        return math.hypot(x - c[0], y - c[1]) <= c[2] + TOUCH_TOLERANCE
    n = surface_polygon.shape[0]
    if point_in_closed_polygon(x, y, surface_polygon, np.int64(0), n):
        return True
    return point_near_ring(x, y, surface_polygon, np.int64(0), n, TOUCH_TOLERANCE)


@jit.inline
def centre_on_surface(ja, x, y):
    """Whether a disc centred at (x, y) lies on the court's playing surface, its outline included.

    The one on-surface test of the package's numba code (``Court.on_surface`` is the same test in
    Python, in the same floating-point operations): a centre exactly on an edge is on the surface.
    """
    return _surface_holds(x, y, ja.surface_kind, ja.surface_circle, ja.surface_polygon)


@jit.no_refcount
def _hole_at(x, y, hole_geom):
    """Index of the first hole whose capture radius holds the centre, or -1."""
    for h in range(hole_geom.shape[0]):
        if math.hypot(x - hole_geom[h, 0], y - hole_geom[h, 1]) <= hole_geom[h, 2]:
            return h
    return -1


@jit.no_refcount
def _in_zone_interior(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, z):
    if zone_kind[z] == 0:
        return point_in_polygon(x, y, zone_vertices, zone_start[z], zone_start[z + 1])
    an = zone_annulus
    return point_in_annulus(x, y, an[z, 0], an[z, 1], an[z, 2], an[z, 3])


@jit.no_refcount
def _in_zone_closed(x, y, zone_kind, zone_start, zone_vertices, zone_annulus, z):
    """Whether zone z's outline, included within ``TOUCH_TOLERANCE`` (exact contact, ``geometry``),
    holds (x, y): a centre on the surface by exact contact lies in the zone that runs along the edge
    there, as the centre exactly on the edge does."""
    if zone_kind[z] == 0:
        start, stop = zone_start[z], zone_start[z + 1]
        if point_in_closed_polygon(x, y, zone_vertices, start, stop):
            return True
        return point_near_ring(x, y, zone_vertices, start, stop, TOUCH_TOLERANCE)
    an = zone_annulus
    rho = math.hypot(x - an[z, 0], y - an[z, 1])
    return an[z, 2] - TOUCH_TOLERANCE <= rho <= an[z, 3] + TOUCH_TOLERANCE


@jit.no_refcount
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


@jit.inline
def _touches_line(x, y, a, line_frame, i):
    """Whether a disc centred at (x, y) touches judged line i (its band, within ``TOUCH_TOLERANCE``)."""
    g = a.line_geom
    hw = a.line_half_width[i]
    r = a.disc_radius
    if a.line_kind[i] == 0:
        return band_within_framed(
            x, y, g[i, 0], g[i, 1], line_frame[i, 0], line_frame[i, 1], line_frame[i, 2], hw, r + TOUCH_TOLERANCE
        )
    return disc_touches_ring(x, y, r, g[i, 0], g[i, 1], g[i, 2], hw)


@jit.no_refcount
def _hanger(x, y, r, edge_kind, edge_overhang, edge_geom):
    """The hanger code of a disc of radius r centred at (x, y) on the surface: which overhang edges
    it crosses. A disc flush with an edge (its circle within ``TOUCH_TOLERANCE`` of it) does not."""
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
        if d < r - TOUCH_TOLERANCE:  # beyond the edge by more than exact contact: overhanging
            if kind == 1:
                over_end = True
            else:
                over_side = True
    if over_end:
        return HANGER_CORNER if over_side else HANGER_END
    return HANGER_NONE


@jit.inline
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


@jit.inline
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
    if flags & CELL_ON_SURFACE == 0 and not _on_surface(
        x, y, a.surface_kind, a.surface_circle, a.surface_polygon, surface_box
    ):
        return 0, -1, np.uint64(0), True, HANGER_NONE, True, False

    n_zones = a.zone_kind.shape[0]
    if flags & CELL_NEAR_HOLE != 0:
        h = _hole_at(x, y, a.hole_geom)
        if h >= 0:
            return a.hole_value[h], n_zones + h, np.uint64(0), False, HANGER_NONE, False, True

    zone = -1
    all_zones = flags & CELL_ALL_ZONES != 0
    some_zones = all_zones or zones != 0
    # The flags are typed values, not literals, so that ``_first_zone`` compiles for one signature.
    interior, closed = np.bool_(False), np.bool_(True)
    if some_zones:
        zone = _first_zone(
            x, y, a.zone_kind, a.zone_start, a.zone_vertices, a.zone_annulus, zone_box, all_zones, zones, interior
        )
    if zone < 0 and not all_zones:
        zone = zone_default
    if zone < 0 and some_zones:
        # A centre on the outline of a zone and of no zone's interior (a zone's border along the
        # surface's edge: the deck alleys and ends, the table's gutters, the crokinole ditch) lies in
        # the first zone whose closed outline holds it.
        zone = _first_zone(
            x, y, a.zone_kind, a.zone_start, a.zone_vertices, a.zone_annulus, zone_box, all_zones, zones, closed
        )

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

    hanger = (
        _hanger(x, y, a.disc_radius, a.edge_kind, a.edge_overhang, a.edge_geom)
        if flags & CELL_NEAR_OVERHANG != 0
        else HANGER_NONE
    )
    value, dead = _verdict(a, zone, touch_value, touch_dead, touch_alive, hanger)
    return value, zone, touching, dead, hanger, False, False


@jit.inline
def _all_lines(a):
    """Bit mask with a bit for every judged line (at most 64, ``Court.judge_arrays``)."""
    n = a.line_kind.shape[0]
    return np.int64(-1) if n >= 64 else (np.int64(1) << np.int64(n)) - np.int64(1)


@jit.inline
def judge_one_prepared(x, y, a, prepared):
    """Judge one disc centre (x, y) on a packed court ``a`` with ``prepared = judge_prepare(a)``.

    Returns (value, zone index or -1, touching bit mask over judged lines, dead, hanger code,
    fallen, holed). A holed disc's zone index is ``len(zones) + hole index``. Kernels that judge
    many discs call ``judge_prepare`` once and this per disc.
    """
    return _judge_where(
        x, y, a, prepared, CELL_NEAR_HOLE | CELL_NEAR_OVERHANG | CELL_ALL_ZONES, NO_ZONE, np.int64(0), _all_lines(a)
    )


@jit.no_refcount
def judge_one_call(x, y, a, prepared):
    """``judge_one_prepared`` compiled as a function of its own, for kernels that judge a few discs a
    shot (the rollouts' removals and round totals): calling it, rather than inlining the procedure at
    every place, compiles the procedure once for all of them. A loop over many discs inlines
    ``judge_one_prepared`` (or ``cell_grid.judge_point``) instead: a call per disc costs about as much
    as judging it."""
    return judge_one_prepared(x, y, a, prepared)


@jit.kernel
def judge_one(x, y, a):
    """Judge one disc centre (x, y) on a packed court ``a`` (``JudgeArrays``).

    Returns (value, zone index or -1, touching bit mask over judged lines, dead, hanger code,
    fallen, holed); see ``judge_one_prepared``, which this calls after ``judge_prepare``.
    """
    return judge_one_prepared(x, y, a, judge_prepare(a))


# ---- the grid of plain cells ----------------------------------------------------------------------
