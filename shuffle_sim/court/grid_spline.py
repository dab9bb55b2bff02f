"""Values on a regular grid, interpolated by a bicubic spline: a surface with a continuous grade.

A height map of a court (or a friction map) is a table of values at the nodes of a regular grid.
Between the nodes it is read as the tensor-product cubic spline with not-a-knot ends (de Boor, A
Practical Guide to Splines, 1978, chapter IV): twice continuously differentiable, so heights, grades
and their rates of change are continuous everywhere, and exact for any cubic polynomial in x and y.

On each cell the spline is one bicubic polynomial. It is stored as its 16 coefficients in the cell's
local coordinates s, t in [0, 1] (``cell_coefficients``), built from the spline's values and first
and mixed derivatives at the cell's four corners (the bicubic Hermite patch, which reproduces a
tensor-product cubic spline exactly): the kernel evaluates one cell's polynomial, with no solve.

The derivatives at the nodes come from one-dimensional splines along each row and each column
(``node_slopes``): the not-a-knot conditions and the interior continuity conditions form a
tridiagonal system, solved by the Thomas algorithm.
"""

from __future__ import annotations

import numpy as np

#: The fewest nodes along each axis (a not-a-knot cubic spline needs four).
MIN_NODES = 4

# The bicubic Hermite basis in matrix form: p(s) = [1, s, s^2, s^3] . M . [p(0), p(1), h p'(0), h p'(1)].
_HERMITE = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [-3.0, 3.0, -2.0, -1.0], [2.0, -2.0, 1.0, 1.0]])


def node_slopes(values: np.ndarray, spacing: float, axis: int) -> np.ndarray:
    """First derivatives at the nodes of the not-a-knot cubic splines through ``values`` along ``axis``.

    With uniform spacing h the interior nodes satisfy m[i-1] + 4 m[i] + m[i+1] = 3 (y[i+1] - y[i-1]) / h
    (continuous second derivative), and not-a-knot (one cubic over the first two and the last two
    intervals) gives m[0] + 2 m[1] = (-5 y[0] + 4 y[1] + y[2]) / (2h) and its mirror image at the
    other end: a tridiagonal system for every line of the grid at once.
    """
    y = np.moveaxis(np.asarray(values, dtype=np.float64), axis, 0)
    n = y.shape[0]
    if n < MIN_NODES:
        raise ValueError(f"a not-a-knot cubic spline needs at least {MIN_NODES} nodes (got {n})")
    lower = np.ones(n)
    diag = np.full(n, 4.0)
    upper = np.ones(n)
    rhs = np.empty_like(y)
    rhs[1:-1] = 3.0 * (y[2:] - y[:-2]) / spacing
    diag[0], upper[0] = 1.0, 2.0
    rhs[0] = (-5.0 * y[0] + 4.0 * y[1] + y[2]) / (2.0 * spacing)
    lower[-1], diag[-1] = 2.0, 1.0
    rhs[-1] = (-y[-3] - 4.0 * y[-2] + 5.0 * y[-1]) / (2.0 * spacing)
    # Thomas algorithm: forward elimination, then back substitution.
    c = np.empty(n)
    d = np.empty_like(y)
    c[0] = upper[0] / diag[0]
    d[0] = rhs[0] / diag[0]
    for i in range(1, n):
        pivot = diag[i] - lower[i] * c[i - 1]
        c[i] = upper[i] / pivot
        d[i] = (rhs[i] - lower[i] * d[i - 1]) / pivot
    m = np.empty_like(y)
    m[-1] = d[-1]
    for i in range(n - 2, -1, -1):
        m[i] = d[i] - c[i] * m[i + 1]
    return np.moveaxis(m, 0, axis)


def cell_coefficients(values: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """(ny - 1, nx - 1, 4, 4) coefficients a[j, i, p, q] of the spline on cell (j, i):
    f = sum a[p, q] s^p t^q with s = (x - x_i) / dx and t = (y - y_j) / dy in [0, 1].

    ``values`` is (ny, nx): row j at y_j, column i at x_i.
    """
    f = np.asarray(values, dtype=np.float64)
    fx = node_slopes(f, dx, axis=1) * dx  # derivatives in units of a cell
    fy = node_slopes(f, dy, axis=0) * dy
    fxy = node_slopes(fx, dy, axis=0) * dy
    ny, nx = f.shape
    corners = np.empty((ny - 1, nx - 1, 4, 4))
    # Rows: f(0, .), f(1, .), f_s(0, .), f_s(1, .); columns: the same in t.
    for p, (a, da) in enumerate(((f, 0), (f, 1), (fx, 0), (fx, 1))):
        g = fy if a is f else fxy
        corners[:, :, p, 0] = a[:-1, da : nx - 1 + da]
        corners[:, :, p, 1] = a[1:, da : nx - 1 + da]
        corners[:, :, p, 2] = g[:-1, da : nx - 1 + da]
        corners[:, :, p, 3] = g[1:, da : nx - 1 + da]
    return np.einsum("pk,jikl,ql->jipq", _HERMITE, corners, _HERMITE)


def locate(coordinate: np.ndarray, start: float, step: float, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The cell index (clamped to the grid) and the local coordinate in it of each coordinate."""
    u = (np.asarray(coordinate, dtype=np.float64) - start) / step
    index = np.clip(np.floor(u), 0, cells - 1).astype(np.int64)
    return index, u - index


def evaluate(coefficients: np.ndarray, extent: tuple[float, float, float, float], x, y):
    """(value, d/dx, d/dy) of the spline at points (x, y) (arrays of one shape). Points beyond the
    grid take the polynomial of the nearest cell (the court's checks keep the map over the surface)."""
    ny1, nx1 = coefficients.shape[:2]
    xmin, ymin, xmax, ymax = extent
    dx = (xmax - xmin) / nx1
    dy = (ymax - ymin) / ny1
    i, s = locate(x, xmin, dx, nx1)
    j, t = locate(y, ymin, dy, ny1)
    a = coefficients[j, i]
    powers = np.arange(4)
    sp = s[..., None] ** powers
    tp = t[..., None] ** powers
    ds = np.concatenate([np.zeros((*s.shape, 1)), sp[..., :3] * powers[1:]], axis=-1)
    dt = np.concatenate([np.zeros((*t.shape, 1)), tp[..., :3] * powers[1:]], axis=-1)
    value = np.einsum("...pq,...p,...q->...", a, sp, tp)
    d_x = np.einsum("...pq,...p,...q->...", a, ds, tp) / dx
    d_y = np.einsum("...pq,...p,...q->...", a, sp, dt) / dy
    return value, d_x, d_y


def cell_bounds(coefficients: np.ndarray, dx: float, dy: float) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, upper bounds of |f| and of |grad f| over the cell, from the coefficients alone:
    with s, t in [0, 1] every power is at most 1, so |f| <= sum |a| and |df/dx| <= sum p |a| / dx."""
    a = np.abs(coefficients)
    p = np.arange(4)
    value = a.sum(axis=(2, 3))
    gx = (a * p[:, None]).sum(axis=(2, 3)) / dx
    gy = (a * p[None, :]).sum(axis=(2, 3)) / dy
    return value, np.hypot(gx, gy)
