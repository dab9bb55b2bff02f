"""The ground under the discs: a court's surface shape packed for the kernels, and read at a point.

A flat court has no ground array: its shots take the closed forms (``kernel``, ``lone``). Any other
court (``court.surface_shape``: slope, crown, height map, friction map) is packed once into one
float array, the *ground*, which the curved-motion path reads at every evaluation of its equations
(``surface_at``): the in-plane gravity -g grad h (m/s^2) and the friction multiplier m (mu m is the
friction there), in the small-slope model of docs/design.md, 3.

Layout: a header of ``HEADER`` entries (gravity, the slope's acceleration, the crown's stiffness,
axis and middle, bounds of the acceleration and of the friction, where each map's block starts),
then each map's block: its cells across and along, its origin, one over its cell size, then 16
coefficients per cell (``court.grid_spline``), row by row. The height map's coefficients are stored
times -g, so that their gradient is the acceleration itself.

The bounds make the curved path's event search safe: no disc accelerates faster than
``G_ACCEL_BOUND`` (the grade's bound times g) plus the friction's bound ``G_FRICTION_BOUND`` times
mu g (and, under a friction law of speed, times mu_speed g v at the fastest speed a disc can reach,
which ``G_DROP_BOUND`` bounds with the scene's energy), so a path departs from the chord of a step
of duration T by at most that times T^2 / 8.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit

# The header.
G_GRAVITY = 0
G_SLOPE_X = 1  # g gx: the slope's in-plane acceleration (m/s^2)
G_SLOPE_Y = 2
G_CROWN_K = 3  # 2 g crown / w^2: the crown's acceleration is -K (u - uc) across its axis (1/s^2)
G_CROWN_AXIS = 4  # 0: across x, 1: across y, 2: radial
G_CROWN_X = 5  # the crown's middle
G_CROWN_Y = 6
G_ACCEL_BOUND = 7  # an upper bound of |-g grad h| over the surface (m/s^2)
G_FRICTION_BOUND = 8  # an upper bound of the friction multiplier over the surface
G_HEIGHT_MAP = 9  # where the height map's block starts (0: none)
G_FRICTION_MAP = 10  # where the friction map's block starts (0: none)
G_HESSIAN_BOUND = 11  # an upper bound of |grad a| (1/s^2): how fast the in-plane gravity varies
G_FRICTION_GRADIENT = 12  # an upper bound of |grad m| (1/m): how fast the friction varies
G_TOLERANCE = 13  # the curved motion's error tolerance per step (``laws.integrated.motion``)
G_DROP_BOUND = 14  # an upper bound of g (h(p) - h(q)) over the surface (m^2/s^2): what a descent adds to v^2 / 2
HEADER = 15
#: Error tolerance per step of a curved motion on a ground whose grade is affine (slope and crown),
#: and on one with maps: a bicubic spline's third derivatives jump from cell to cell, which costs an
#: 8th-order method its order where it crosses them, so it needs a tighter tolerance for the same
#: accuracy. Measured against the reference (``reference.surface_motion``), worst rest position over
#: a few dozen deck shots: slope and crown without spin a few 1e-9 m at 1e-8; a height map of
#: 0.2 m x 0.4 m cells 1e-7 m at 1e-11, 1e-8 m at 1e-12.
TOLERANCE_SMOOTH = 1e-8
TOLERANCE_MAPS = 1e-12
#: A motion with coupled spin takes a tolerance this much tighter: its slide decays ever more slowly as
#: eps falls, and errors made early in it carry farther (worst of 40 deck shots with spin on a slope
#: and crown: 3.5e-7 m at 1e-8, 8e-9 m at 1e-9, 3e-10 m at 1e-10).
TOLERANCE_SPIN_FACTOR = 0.01
# A map's block, from its start.
M_NX = 0  # cells across x
M_NY = 1  # cells along y
M_X0 = 2
M_Y0 = 3
M_INV_DX = 4
M_INV_DY = 5
M_COEFFICIENTS = 6


def _map_block(grid, scale: float) -> np.ndarray:
    """A map's block (``M_*``), its coefficients times ``scale``."""
    ny, nx = grid.values.shape
    xmin, ymin, _, _ = grid.extent
    dx, dy = grid.cell_size
    head = np.array([nx - 1, ny - 1, xmin, ymin, 1.0 / dx, 1.0 / dy])
    return np.concatenate([head, (grid.coefficients * scale).reshape(-1)])


def pack_surface(shape, gravity: float, bounds: tuple[float, float, float, float]) -> np.ndarray:
    """The ground array of a ``SurfaceShape`` under ``gravity`` on a surface within ``bounds``."""
    head = np.zeros(HEADER)
    head[G_GRAVITY] = gravity
    head[G_SLOPE_X] = gravity * shape.slope[0]
    head[G_SLOPE_Y] = gravity * shape.slope[1]
    head[G_CROWN_K] = 2.0 * gravity * shape.crown / shape.crown_width**2
    head[G_CROWN_AXIS] = shape.crown_axis
    head[G_CROWN_X], head[G_CROWN_Y] = shape.crown_centre
    head[G_ACCEL_BOUND] = gravity * shape.grade_bound(bounds)
    head[G_DROP_BOUND] = head[G_ACCEL_BOUND] * math.hypot(bounds[2] - bounds[0], bounds[3] - bounds[1])
    head[G_FRICTION_BOUND] = max(1.0, shape.friction_bound())
    maps = shape.height_map is not None or shape.friction_map is not None
    head[G_TOLERANCE] = TOLERANCE_MAPS if maps else TOLERANCE_SMOOTH
    hessian = abs(head[G_CROWN_K]) * (1.0 if shape.crown_axis < 2 else math.sqrt(2.0))
    blocks = [head]
    start = HEADER
    if shape.height_map is not None:
        block = _map_block(shape.height_map, -gravity)
        head[G_HEIGHT_MAP] = start
        start += block.size
        blocks.append(block)
        hessian += gravity * _curvature_bound(shape.height_map)
    if shape.friction_map is not None:
        block = _map_block(shape.friction_map, 1.0)
        head[G_FRICTION_MAP] = start
        blocks.append(block)
        head[G_FRICTION_GRADIENT] = shape.friction_map.bounds()[1]
    head[G_HESSIAN_BOUND] = hessian
    return np.concatenate(blocks)


def _curvature_bound(grid) -> float:
    """An upper bound of the size of the height map's second derivatives (1/m), from the coefficients:
    with s, t in [0, 1] each power is at most 1."""
    a = np.abs(grid.coefficients)
    p = np.arange(4)
    dx, dy = grid.cell_size
    xx = (a * (p * (p - 1))[:, None]).sum(axis=(2, 3)) / dx**2
    yy = (a * (p * (p - 1))[None, :]).sum(axis=(2, 3)) / dy**2
    xy = (a * np.outer(p, p)).sum(axis=(2, 3)) / (dx * dy)
    return float(np.max(xx + yy + 2.0 * xy))


@jit.inline
def _cell(surface, start, x, y):
    """The map cell under (x, y) (clamped to the map) and the local coordinates (s, t) in it."""
    nx = surface[start + M_NX]
    ny = surface[start + M_NY]
    u = (x - surface[start + M_X0]) * surface[start + M_INV_DX]
    v = (y - surface[start + M_Y0]) * surface[start + M_INV_DY]
    i = min(max(math.floor(u), 0.0), nx - 1.0)
    j = min(max(math.floor(v), 0.0), ny - 1.0)
    return start + M_COEFFICIENTS + 16 * int(j * nx + i), u - i, v - j


@jit.inline
def _map_gradient(surface, start, x, y):
    """(d/dx, d/dy) of a map's spline at (x, y)."""
    k, s, t = _cell(surface, start, x, y)
    # f = sum_p s^p R_p(t): Horner in s of p R_p (d/ds) and of R_p' (d/dt), each R_p by Horner in t.
    gs = 0.0
    gt = 0.0
    for p in range(3, -1, -1):
        row = k + 4 * p
        if p > 0:
            gs = gs * s + p * (((surface[row + 3] * t + surface[row + 2]) * t + surface[row + 1]) * t + surface[row])
        gt = gt * s + ((3.0 * surface[row + 3] * t + 2.0 * surface[row + 2]) * t + surface[row + 1])
    return gs * surface[start + M_INV_DX], gt * surface[start + M_INV_DY]


@jit.inline
def _map_value(surface, start, x, y):
    """A map's spline at (x, y)."""
    k, s, t = _cell(surface, start, x, y)
    total = 0.0
    for p in range(3, -1, -1):
        row = k + 4 * p
        total = total * s + (((surface[row + 3] * t + surface[row + 2]) * t + surface[row + 1]) * t + surface[row])
    return total


@jit.inline
def surface_at(surface, x, y):
    """(ax, ay, m) at (x, y): the in-plane gravity -g grad h (m/s^2) and the friction multiplier.
    The slope and the crown inline; the maps through one call (``maps_at``), which keeps the code
    that numba inlines into every stage of a step small."""
    ax = surface[G_SLOPE_X]
    ay = surface[G_SLOPE_Y]
    k = surface[G_CROWN_K]
    if k != 0.0:
        axis = surface[G_CROWN_AXIS]
        if axis != 1.0:
            ax -= k * (x - surface[G_CROWN_X])
        if axis != 0.0:
            ay -= k * (y - surface[G_CROWN_Y])
    if surface[G_HEIGHT_MAP] > 0.0 or surface[G_FRICTION_MAP] > 0.0:
        gx, gy, m = maps_at(surface, x, y)
        return ax + gx, ay + gy, m
    return ax, ay, 1.0


@jit.no_refcount
def maps_at(surface, x, y):
    """(ax, ay, m) of the maps alone at (x, y): the height map's in-plane gravity, the friction map's
    multiplier (1 without one)."""
    ax = 0.0
    ay = 0.0
    if surface[G_HEIGHT_MAP] > 0.0:
        ax, ay = _map_gradient(surface, int(surface[G_HEIGHT_MAP]), x, y)
    m = 1.0
    if surface[G_FRICTION_MAP] > 0.0:
        m = _map_value(surface, int(surface[G_FRICTION_MAP]), x, y)
    return ax, ay, m


@jit.kernel
def ground_at_call(surface, x, y):
    """``surface_at`` as a call (tests, and Python callers through numba)."""
    return surface_at(surface, x, y)


@jit.inline
def motion_tolerance(surface, coupled, sign):
    """The error tolerance per step of a motion (``curved_motion.error_norm``): the ground's, tighter
    while coupled spin lasts (``TOLERANCE_SPIN_FACTOR``)."""
    if coupled != 0.0 and sign != 0.0:
        return surface[G_TOLERANCE] * TOLERANCE_SPIN_FACTOR
    return surface[G_TOLERANCE]
