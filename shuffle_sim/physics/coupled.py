"""Exact coupled sliding and spinning between events: one dimensionless tabulation per (eta, k).

A disc sliding at v and spinning with rim speed u = r |omega| slows as dv/dt = -a F(eps) and
du/dt = -(a / k) T(eps), with a = mu g, eps = v / u, k = I / (m r^2) and F, T the friction force
and torque of its contact annulus (``friction``; Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett.
90, 248302, 2003). The right-hand side depends on eps alone, so the equations are invariant under
(v, u, t) -> (c v, c u, c t); with k inside the window of ``friction.inertia_window`` both motions
end together at a finite stop time, with eps tending to the terminal ratio eps*.

Write Theta for the time left until the stop and sigma = ln Theta + const. Then
v = a Theta f_v(sigma), u = a Theta f_u(sigma) and the distance still to slide is
a Theta^2 g(sigma), where (f_v, f_u, g) solve the autonomous equations

    f_v' = F(eps) - f_v,   f_u' = T(eps) / k - f_u,   g' = f_v - 2 g,   eps = f_v / f_u

(' = d/dsigma). Every motion with eps > eps* lies on one solution of these (the upper orbit),
every motion with eps < eps* on another (the lower orbit), shifted in sigma: the scale symmetry is
a shift. So each orbit is integrated once, from next to the fixed point (f_v, f_u, g) = (F*, T*/k,
F*/2), where the linearised solution is exact to 1e-18, out to eps = 1e10 or 1e-10; beyond those
the limits of pure sliding with a power-law spin, or pure spin with a power-law slide, are exact
to rounding for all but a negligible end of the motion.

The table holds sigma and (f_v, f_u, g) with their first and second sigma-derivatives (from the
equations, F' in closed form), read by quintic Hermite interpolation: each interval's three quintics
are stored expanded in powers of the local coordinate (``_interval_coefficients``), so that a lookup
is one Horner evaluation per column from one contiguous block. The nodes are spaced
``NODE_STEP`` apart and graded geometrically down to ``GRADE_MIN`` toward the points where eps
crosses 1 or eta, where F'' has a logarithmic singularity. The orbits are integrated node to node
by the classical Runge-Kutta method with Richardson extrapolation (4 and 8 substeps).

From a start (v0, u0): find sigma0 with eps(sigma0) = v0 / u0 (Newton on the interpolant), then the
stop time is Theta0 = v0 / (a f_v(sigma0)), the stop distance a Theta0^2 g(sigma0), and at time tau
the state follows at sigma0 + ln((Theta0 - tau) / Theta0).
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from pathlib import Path

import numpy as np

from shuffle_sim import jit
from shuffle_sim.physics.friction import force, force_slope, inertia_window, terminal_ratio, torque

# Columns of an orbit table.
C_SIGMA = 0
C_FV = 1
C_FU = 2
C_G = 3
C_D1 = 4  # first derivatives of f_v, f_u, g: columns 4, 5, 6
C_D2 = 7  # second derivatives: columns 7, 8, 9
C_EPS = 10
N_COLUMNS = 11

#: Spacing of the table's nodes in sigma, away from the graded stretches.
NODE_STEP = 1.0 / 32.0
#: The nodes next to a crossing of eps = 1 or eps = eta stand this close to it.
GRADE_MIN = 1e-8
#: eps - eps* at the first node of each orbit (the linearised solution is exact to its square).
START_OFFSET = 1e-9
#: The orbits end at these eps; beyond them, the pure-slide and pure-spin limits.
EPS_MIN = 1e-10
EPS_MAX = 1e10
#: The longest an orbit may run in sigma (near the window's edges eps changes slowly).
MAX_SPAN = 3000.0

# Entries of the header ``meta``.
M_ETA = 0
M_K = 1
M_EPS_STAR = 2
M_RATE = 3  # p: eps - eps* ~ exp(p sigma) near the stop
M_FV_STAR = 4
M_FU_STAR = 5
M_G_STAR = 6
M_UP_FV = 7  # the upper orbit's linear term at sigma = 0: f_v - f_v* = coefficient * exp(p sigma)
M_UP_FU = 8
M_UP_G = 9
M_LO_FV = 10  # the lower orbit's
M_LO_FU = 11
M_LO_G = 12
M_UP_ROWS = 13  # rows of the upper orbit in ``tab`` (it starts at row 0), then the lower orbit's
M_LO_ROWS = 14
M_Q_SLIDE = 15  # pure-slide limit: u ~ v^q
M_Q_SPIN = 16  # pure-spin limit: v ~ u^q
M_SPIN_RATE = 17  # T(0) / k: pure spin's deceleration of the rim speed over a
M_BIN_LO = 18  # where each orbit's lookup bins start (sigma): upper, lower
M_BIN_LO2 = 19
M_UP_BINS = 20  # offset of the upper orbit's bins in ``bins`` is 0, the lower's is this
M_BINS_ROW = 21  # the row of the packed tables where the bins start
N_META = 22
#: Rows of the packed tables taken by the header; the orbits' rows follow, then each orbit row's
#: interval coefficients (``COEFFICIENT_ROWS`` rows each), then the lookup bins.
META_ROWS = 2
COEFFICIENT_ROWS = 2
# Places in an interval's coefficient block: start sigma, 1 / width, then 6 coefficients per column.
K_START = 0
K_INV_WIDTH = 1
K_COEFFICIENTS = 2

# Motion modes (the kernel stores them per disc).
MODE_UPPER = 0
MODE_LOWER = 1
MODE_TERMINAL = 2  # eps = eps* exactly: a straight-line stop of both
MODE_SLIDE_LIMIT = 3  # eps >= EPS_MAX
MODE_SPIN_LIMIT = 4  # eps <= EPS_MIN


@jit.kernel
def _derivatives(fv, fu, g, eta, k):
    """(f_v', f_u', g') and (f_v'', f_u'', g'') of the dimensionless equations."""
    eps = fv / fu
    d_fv = force(eps, eta) - fv
    d_fu = torque(eps, eta) / k - fu
    d_g = fv - 2.0 * g
    d_eps = (d_fv - eps * d_fu) / fu
    slope = force_slope(eps, eta)
    return d_fv, d_fu, d_g, slope * d_eps - d_fv, -eps * slope * d_eps / k - d_fu, d_fv - 2.0 * d_g


@jit.kernel
def _rk4(fv, fu, g, step, substeps, eta, k):
    h = step / substeps
    for _ in range(substeps):
        a1, b1, c1, _, _, _ = _derivatives(fv, fu, g, eta, k)
        a2, b2, c2, _, _, _ = _derivatives(fv + 0.5 * h * a1, fu + 0.5 * h * b1, g + 0.5 * h * c1, eta, k)
        a3, b3, c3, _, _, _ = _derivatives(fv + 0.5 * h * a2, fu + 0.5 * h * b2, g + 0.5 * h * c2, eta, k)
        a4, b4, c4, _, _, _ = _derivatives(fv + h * a3, fu + h * b3, g + h * c3, eta, k)
        fv += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4)
        fu += h / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4)
        g += h / 6.0 * (c1 + 2.0 * c2 + 2.0 * c3 + c4)
    return fv, fu, g


@jit.kernel
def _advance(fv, fu, g, step, eta, k):
    """One node step: RK4 with 4 and with 8 substeps, Richardson-extrapolated (error of order 6)."""
    f1, u1, g1 = _rk4(fv, fu, g, step, 4, eta, k)
    f2, u2, g2 = _rk4(fv, fu, g, step, 8, eta, k)
    return f2 + (f2 - f1) / 15.0, u2 + (u2 - u1) / 15.0, g2 + (g2 - g1) / 15.0


@jit.kernel
def _store(tab, row, sigma, fv, fu, g, eta, k):
    d = _derivatives(fv, fu, g, eta, k)
    tab[row, C_SIGMA] = sigma
    tab[row, C_FV] = fv
    tab[row, C_FU] = fu
    tab[row, C_G] = g
    for c in range(3):
        tab[row, C_D1 + c] = d[c]
        tab[row, C_D2 + c] = d[3 + c]
    tab[row, C_EPS] = fv / fu


@jit.kernel
def _integrate_orbit(tab, fv, fu, g, eta, k):
    """Fill ``tab`` with one orbit from sigma = 0 (next to the fixed point) outward; returns its rows."""
    singular = np.array([1.0, eta if eta > 0.0 else -1.0])
    sigma = 0.0
    row = 0
    _store(tab, row, sigma, fv, fu, g, eta, k)
    crossed_at = -math.inf  # sigma of the last singular crossing
    while row + 1 < tab.shape[0]:
        eps = tab[row, C_EPS]
        if eps <= EPS_MIN or eps >= EPS_MAX or sigma >= MAX_SPAN:
            break
        d_eps = (tab[row, C_D1] - eps * tab[row, C_D1 + 1]) / fu
        # Distance (in sigma) to the next singular eps ahead, to first order.
        ahead = math.inf
        target = -1.0
        for s in singular:
            if s > 0.0 and d_eps != 0.0:
                d = (s - eps) / d_eps
                if 0.0 < d < ahead:
                    ahead = d
                    target = s
        step = min(NODE_STEP, max(sigma - crossed_at, GRADE_MIN))
        snap = False
        if ahead < 1.5 * step:
            if ahead > 2.0 * GRADE_MIN:
                step = 0.5 * ahead
            else:
                step = ahead
                snap = True
        if snap:
            # Land on the crossing: Newton on the step length.
            for _ in range(6):
                f1, u1, g1 = _advance(fv, fu, g, step, eta, k)
                e1 = f1 / u1
                d1 = _derivatives(f1, u1, g1, eta, k)
                de1 = (d1[0] - e1 * d1[1]) / u1
                step += (target - e1) / de1
            crossed_at = sigma + step
        fv, fu, g = _advance(fv, fu, g, step, eta, k)
        sigma += step
        row += 1
        _store(tab, row, sigma, fv, fu, g, eta, k)
        if snap:
            tab[row, C_EPS] = target
    return row + 1


@jit.kernel
def _make_bins(tab, first, rows, bins, offset):
    """bins[offset + b] = the row of the last node at or before sigma_first + b * NODE_STEP."""
    lo = tab[first, C_SIGMA]
    n_bins = int((tab[first + rows - 1, C_SIGMA] - lo) / NODE_STEP) + 2
    i = first
    for b in range(n_bins):
        edge = lo + b * NODE_STEP
        while i + 1 < first + rows and tab[i + 1, C_SIGMA] <= edge:
            i += 1
        bins[offset + b] = i
    return n_bins


_CACHE: dict = {}


def _source_version() -> str:
    """A digest of the model's sources: tables saved by other versions are never read. Taken once, when
    this module is imported, so that a process keeps the digest of the code it runs even if the files
    change under it."""
    return _SOURCE_VERSION


def _digest_sources() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in ("friction.py", "coupled.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


_SOURCE_VERSION = _digest_sources()


def _disk_path(eta: float, inertia: float) -> Path:
    """Where the tables for (eta, k) are kept between processes: beside numba's compiled kernels."""
    key = f"{float(eta).hex()}_{float(inertia).hex()}_{_source_version()}"
    return Path(__file__).resolve().parent / "__pycache__" / f"coupled_tables_{key}.npy"


def _load_saved(path: Path) -> np.ndarray | None:
    try:
        spin = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    return spin if spin.ndim == 2 and spin.shape[1] == N_COLUMNS and spin.dtype == np.float64 else None


def _save(path: Path, spin: np.ndarray) -> None:
    """Keep the tables for later processes (written whole, then renamed); a read-only install skips it."""
    try:
        path.parent.mkdir(exist_ok=True)
        for old in path.parent.glob("coupled_tables_*.npy"):
            if not old.name.endswith(f"_{_source_version()}.npy"):
                old.unlink(missing_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as fh:
            np.save(fh, spin, allow_pickle=False)
        os.replace(fh.name, path)
    except OSError:
        pass


def coupled_tables(eta: float, inertia: float) -> np.ndarray:
    """The packed tables (``spin``) for contact ratio ``eta`` and inertia ratio ``inertia``, built once
    and cached: rows 0-1 the header ``meta``, then the upper and the lower orbit, then the lookup
    bins (as floats, ``N_COLUMNS`` to a row). ``inertia`` must lie inside ``friction.inertia_window``.

    Building takes a few tenths of a second plus the builder's compilation, so the tables are also
    saved beside the compiled kernels (``__pycache__``), under a digest of this module's and
    ``friction``'s sources, and read from there by later processes.
    """
    key = (float(eta), float(inertia))
    if key in _CACHE:
        return _CACHE[key]
    lo, hi = inertia_window(eta)
    if not lo < inertia < hi:
        raise ValueError(f"inertia ratio {inertia!r} is outside the window ({lo:.6g}, {hi:.6g}) for contact ratio "
                         f"{eta!r}: speed and spin would not end at a finite ratio")
    path = _disk_path(eta, inertia)
    saved = _load_saved(path)
    if saved is not None:
        _CACHE[key] = saved
        return saved
    spin = _build(float(eta), float(inertia))
    _save(path, spin)
    _CACHE[key] = spin
    return spin


def _build(eta: float, inertia: float) -> np.ndarray:
    """Integrate both orbits and pack them (``coupled_tables``)."""
    meta = np.zeros(N_META)
    e_star = terminal_ratio(eta, inertia)
    f_star = force(e_star, eta)
    t_star = torque(e_star, eta)
    fv_s, fu_s, g_s = f_star, t_star / inertia, 0.5 * f_star
    slope = force_slope(e_star, eta)
    rate = slope * (inertia + e_star * e_star) / t_star - 1.0
    # Eigenvector for the rate p of the linearised (f_v, f_u) equations at the fixed point.
    w_v = slope * e_star / fu_s
    w_u = slope / fu_s - 1.0 - rate
    d_eps = (w_v - e_star * w_u) / fu_s  # eps - eps* per unit of the eigenvector
    meta[M_ETA], meta[M_K], meta[M_EPS_STAR], meta[M_RATE] = eta, inertia, e_star, rate
    meta[M_FV_STAR], meta[M_FU_STAR], meta[M_G_STAR] = fv_s, fu_s, g_s
    capacity = int(MAX_SPAN / NODE_STEP) + 400
    parts = []
    for sign, base in ((1.0, M_UP_FV), (-1.0, M_LO_FV)):
        c = sign * START_OFFSET / d_eps
        meta[base] = c * w_v
        meta[base + 1] = c * w_u
        meta[base + 2] = c * w_v / (rate + 2.0)
        tab = np.empty((capacity, N_COLUMNS))
        rows = _integrate_orbit(tab, fv_s + meta[base], fu_s + meta[base + 1], g_s + meta[base + 2], eta, inertia)
        parts.append(tab[:rows].copy())
    meta[M_UP_ROWS] = len(parts[0])
    meta[M_LO_ROWS] = len(parts[1])
    tab = np.ascontiguousarray(np.concatenate(parts))
    bins = np.zeros(2 * (capacity + 4) + 8, dtype=np.int64)
    n_up = _make_bins(tab, 0, len(parts[0]), bins, 0)
    _make_bins(tab, len(parts[0]), len(parts[1]), bins, n_up)
    meta[M_UP_BINS] = n_up
    t0 = torque(0.0, eta)
    meta[M_Q_SLIDE] = (1.0 + eta * eta) / (4.0 * inertia)
    meta[M_Q_SPIN] = inertia / ((1.0 + eta) * t0)
    meta[M_SPIN_RATE] = t0 / inertia
    n_bins = n_up + int((tab[-1, C_SIGMA] - tab[len(parts[0]), C_SIGMA]) / NODE_STEP) + 2
    bin_rows = (n_bins + N_COLUMNS - 1) // N_COLUMNS
    coefficients = _interval_coefficients(tab)
    coefficient_end = META_ROWS + len(tab) + COEFFICIENT_ROWS * len(tab)
    meta[M_BINS_ROW] = coefficient_end
    spin = np.zeros((coefficient_end + bin_rows, N_COLUMNS))
    spin[:META_ROWS].flat[:N_META] = meta
    spin[META_ROWS:META_ROWS + len(tab)] = tab
    spin[META_ROWS + len(tab):coefficient_end].flat[:coefficients.size] = coefficients.ravel()
    spin[coefficient_end:].flat[:n_bins] = bins[:n_bins]
    return spin


def _interval_coefficients(tab: np.ndarray) -> np.ndarray:
    """(rows, COEFFICIENT_ROWS * N_COLUMNS) blocks: for the interval from each row to the next, its
    start sigma, 1 / its width h, then for f_v, f_u and g the six coefficients of the quintic Hermite
    interpolant in t = (sigma - start) / h (value, slope and curvature matched at both ends), lowest
    power first. The last row of each orbit has no interval; its block is never read."""
    x0 = tab[:-1, C_SIGMA]
    h = tab[1:, C_SIGMA] - x0
    out = np.zeros((len(tab), COEFFICIENT_ROWS * N_COLUMNS))
    out[:-1, K_START] = x0
    with np.errstate(divide="ignore"):
        out[:-1, K_INV_WIDTH] = np.where(h > 0.0, 1.0 / np.where(h > 0.0, h, 1.0), 0.0)
    for c in range(3):
        y0 = tab[:-1, C_FV + c]
        rise = tab[1:, C_FV + c] - y0
        d0 = tab[:-1, C_D1 + c] * h
        d1 = tab[1:, C_D1 + c] * h
        s0 = tab[:-1, C_D2 + c] * h * h
        s1 = tab[1:, C_D2 + c] * h * h
        base = K_COEFFICIENTS + 6 * c
        out[:-1, base] = y0
        out[:-1, base + 1] = d0
        out[:-1, base + 2] = 0.5 * s0
        out[:-1, base + 3] = 10.0 * rise - 6.0 * d0 - 4.0 * d1 - 1.5 * s0 + 0.5 * s1
        out[:-1, base + 4] = -15.0 * rise + 8.0 * d0 + 7.0 * d1 + 1.5 * s0 - s1
        out[:-1, base + 5] = 6.0 * rise - 3.0 * d0 - 3.0 * d1 - 0.5 * s0 + 0.5 * s1
    return out


# --------------------------------------------------------------------------------------------------
# Evaluation (numba)


@jit.inline
def _meta(spin, index):
    return spin[index // N_COLUMNS, index % N_COLUMNS]


@jit.inline
def _interval(spin, i, sigma):
    """(first row, first column) of the coefficient block of the interval starting at orbit row i (a
    row of the packed tables ``spin``), and t, sigma's place in it."""
    n_rows = int(_meta(spin, M_UP_ROWS)) + int(_meta(spin, M_LO_ROWS))
    flat = (META_ROWS + n_rows) * N_COLUMNS + (i - META_ROWS) * COEFFICIENT_ROWS * N_COLUMNS
    row = flat // N_COLUMNS
    col = flat % N_COLUMNS  # 0: the blocks are whole rows
    t = (sigma - spin[row, col + K_START]) * spin[row, col + K_INV_WIDTH]
    return row, t


@jit.inline
def _block(spin, row, k):
    """Entry k of the coefficient block that starts at ``row``."""
    return spin[row + k // N_COLUMNS, k % N_COLUMNS]


@jit.inline
def _quintic(spin, row, base, t):
    """The quintic with coefficients at ``base`` of the block at ``row``, at t (Horner)."""
    return (_block(spin, row, base) + t * (_block(spin, row, base + 1) + t * (_block(spin, row, base + 2) + t * (
        _block(spin, row, base + 3) + t * (_block(spin, row, base + 4) + t * _block(spin, row, base + 5))))))


@jit.inline
def _quintic_slope(spin, row, base, t):
    """d/dt of the quintic at ``base`` of the block at ``row``."""
    return (_block(spin, row, base + 1) + t * (2.0 * _block(spin, row, base + 2) + t * (
        3.0 * _block(spin, row, base + 3) + t * (4.0 * _block(spin, row, base + 4) + t * 5.0 * _block(spin, row,
                                                                                                      base + 5)))))


@jit.inline
def _orbit_rows(spin, mode):
    """(first row, number of rows) of orbit ``mode`` in the packed tables."""
    if mode == MODE_UPPER:
        return META_ROWS, int(_meta(spin, M_UP_ROWS))
    return META_ROWS + int(_meta(spin, M_UP_ROWS)), int(_meta(spin, M_LO_ROWS))


@jit.inline
def _row(spin, mode, sigma):
    """The row whose interval holds ``sigma`` on orbit ``mode`` (upper or lower)."""
    tab = spin
    first, rows = _orbit_rows(spin, mode)
    offset = 0 if mode == MODE_UPPER else int(_meta(spin, M_UP_BINS))
    b = offset + max(0, int((sigma - tab[first, C_SIGMA]) / NODE_STEP))
    bins_row = int(_meta(spin, M_BINS_ROW))
    i = META_ROWS + int(spin[bins_row + b // N_COLUMNS, b % N_COLUMNS])
    last = first + rows - 2
    while i < last and tab[i + 1, C_SIGMA] <= sigma:
        i += 1
    return min(i, last)


@jit.no_refcount
def orbit_state(spin, mode, sigma):
    """(f_v, f_u, g) at ``sigma`` on orbit ``mode``: the table, or its linearised start below sigma = 0."""
    if mode == MODE_TERMINAL or sigma <= 0.0:
        if mode == MODE_TERMINAL or sigma == -math.inf:
            return _meta(spin, M_FV_STAR), _meta(spin, M_FU_STAR), _meta(spin, M_G_STAR)
        grow = math.exp(_meta(spin, M_RATE) * sigma)
        base = M_UP_FV if mode == MODE_UPPER else M_LO_FV
        return (_meta(spin, M_FV_STAR) + _meta(spin, base) * grow, _meta(spin, M_FU_STAR) + _meta(spin, base + 1) * grow,
                _meta(spin, M_G_STAR) + _meta(spin, base + 2) * grow)
    row, t = _interval(spin, _row(spin, mode, sigma), sigma)
    return (_quintic(spin, row, K_COEFFICIENTS, t), _quintic(spin, row, K_COEFFICIENTS + 6, t),
            _quintic(spin, row, K_COEFFICIENTS + 12, t))


@jit.no_refcount
def _sigma_of(spin, mode, eps):
    """sigma on orbit ``mode`` where f_v / f_u = eps."""
    tab = spin
    e_star = _meta(spin, M_EPS_STAR)
    first, rows = _orbit_rows(spin, mode)
    if abs(eps - e_star) <= START_OFFSET:
        return math.log((eps - e_star) / ((START_OFFSET if mode == MODE_UPPER else -START_OFFSET))) / _meta(spin, M_RATE)
    # eps runs away from eps* along the orbit: binary search on the nodes' eps.
    up = mode == MODE_UPPER
    lo = first
    hi = first + rows - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if (tab[mid, C_EPS] <= eps if up else tab[mid, C_EPS] >= eps):
            lo = mid
        else:
            hi = mid
    a = tab[lo, C_SIGMA]
    b = tab[hi, C_SIGMA]
    # Start Newton from the cubic Hermite interpolant of sigma(eps) through the two nodes, with
    # d eps / d sigma = (f_v' - eps f_u') / f_u there: within rounding of the root but for the
    # interpolant's error, so two Newton steps end the search.
    e0 = tab[lo, C_EPS]
    e1 = tab[hi, C_EPS]
    de = e1 - e0
    x = (eps - e0) / de
    m0 = de * tab[lo, C_FU] / (tab[lo, C_D1] - e0 * tab[lo, C_D1 + 1])
    m1 = de * tab[hi, C_FU] / (tab[hi, C_D1] - e1 * tab[hi, C_D1 + 1])
    x2 = x * x
    x3 = x2 * x
    sigma = (a * (2.0 * x3 - 3.0 * x2 + 1.0) + m0 * (x3 - 2.0 * x2 + x) + b * (3.0 * x2 - 2.0 * x3)
             + m1 * (x3 - x2))
    if not a <= sigma <= b:
        sigma = a + (b - a) * x
    for _ in range(60):
        row, t = _interval(spin, lo, sigma)
        fv = _quintic(spin, row, K_COEFFICIENTS, t)
        fu = _quintic(spin, row, K_COEFFICIENTS + 6, t)
        inv_width = _block(spin, row, K_INV_WIDTH)
        dfv = _quintic_slope(spin, row, K_COEFFICIENTS, t) * inv_width
        dfu = _quintic_slope(spin, row, K_COEFFICIENTS + 6, t) * inv_width
        resid = fv - eps * fu
        if (resid > 0.0) == up:
            b = sigma
        else:
            a = sigma
        step = resid / (dfv - eps * dfu)
        if abs(step) <= 1e-15 * (1.0 + abs(sigma)):
            return sigma - step
        nxt = sigma - step
        if not a < nxt < b:
            nxt = 0.5 * (a + b)
        if b - a <= 1e-15 * (1.0 + abs(sigma)):
            return nxt
        sigma = nxt
    return sigma


@jit.no_refcount
def start_motion(spin, speed, rim, decel):
    """Mode, sigma0, stop time and stop distance of a disc sliding at ``speed`` with rim speed ``rim``
    (both > 0) under ``decel`` = mu g."""
    eps = speed / rim
    if eps >= EPS_MAX:
        return MODE_SLIDE_LIMIT, 0.0, speed / decel, speed * speed / (2.0 * decel)
    if eps <= EPS_MIN:
        theta = rim / (decel * _meta(spin, M_SPIN_RATE))
        return MODE_SPIN_LIMIT, 0.0, theta, speed * theta / (_meta(spin, M_Q_SPIN) + 1.0)
    if eps == _meta(spin, M_EPS_STAR):
        mode = MODE_TERMINAL
        sigma = -math.inf
    else:
        mode = MODE_UPPER if eps > _meta(spin, M_EPS_STAR) else MODE_LOWER
        sigma = _sigma_of(spin, mode, eps)
    fv, fu, g = orbit_state(spin, mode, sigma)
    # Both give Theta0; the larger of speed and rim is the better conditioned.
    theta = speed / (decel * fv) if eps >= 1.0 else rim / (decel * fu)
    return mode, sigma, theta, decel * theta * theta * g


@jit.no_refcount
def motion_at(spin, mode, sigma0, theta0, reach, speed0, rim0, decel, tau):
    """(distance slid, speed, rim speed) ``tau`` seconds after the start (``start_motion``)."""
    theta = theta0 - tau
    if theta <= 0.0:
        return reach, 0.0, 0.0
    if tau <= 0.0:
        return 0.0, speed0, rim0
    if mode == MODE_SLIDE_LIMIT:
        v = speed0 - decel * tau
        return tau * (speed0 - 0.5 * decel * tau), v, rim0 * (v / speed0) ** _meta(spin, M_Q_SLIDE)
    x = theta / theta0
    if mode == MODE_SPIN_LIMIT:
        q = _meta(spin, M_Q_SPIN)
        return reach * (1.0 - x ** (q + 1.0)), speed0 * x ** q, rim0 * x
    sigma = sigma0 + math.log(x)
    fv, fu, g = orbit_state(spin, mode, sigma)
    return reach - decel * theta * theta * g, decel * theta * fv, decel * theta * fu


@jit.no_refcount
def time_to_reach(spin, mode, sigma0, theta0, reach, speed0, rim0, decel, s):
    """The time at which the disc has slid ``s`` (0 <= s <= reach): safeguarded Newton on s(tau)."""
    if s <= 0.0:
        return 0.0
    if s >= reach:
        return theta0
    lo = 0.0
    hi = theta0
    # Start from the constant-deceleration time at the mean deceleration reach over the stop.
    tau = theta0 * (1.0 - math.sqrt(max(0.0, 1.0 - s / reach)))
    for _ in range(100):
        done, v, _ = motion_at(spin, mode, sigma0, theta0, reach, speed0, rim0, decel, tau)
        resid = done - s
        if resid > 0.0:
            hi = tau
        else:
            lo = tau
        if v > 0.0 and abs(resid) <= 1e-15 * v * theta0:
            return tau - resid / v
        nxt = tau - resid / v if v > 0.0 else 0.5 * (lo + hi)
        if not lo < nxt < hi:
            nxt = 0.5 * (lo + hi)
        if hi - lo <= 1e-15 * theta0:
            return nxt
        tau = nxt
    return tau


@jit.no_refcount
def distance_at_speed(spin, mode, sigma0, theta0, reach, speed0, rim0, decel, v_target):
    """Distance slid when the speed has fallen to ``v_target`` (0 if it starts no faster): the speed
    falls monotonically, so bisection with secant steps on v(tau) - v_target brackets it."""
    if speed0 <= v_target:
        return 0.0
    if v_target <= 0.0:
        return reach
    lo = 0.0
    hi = theta0
    f_lo = speed0 - v_target
    f_hi = -v_target
    for _ in range(200):
        tau = lo + (hi - lo) * f_lo / (f_lo - f_hi)
        if not lo < tau < hi:
            tau = 0.5 * (lo + hi)
        s, v, _ = motion_at(spin, mode, sigma0, theta0, reach, speed0, rim0, decel, tau)
        f = v - v_target
        if f > 0.0:
            lo = tau
            f_lo = f
            f_hi *= 0.5  # Illinois: keep the secant from stalling on one side
        else:
            hi = tau
            f_hi = f
            f_lo *= 0.5
        if hi - lo <= 1e-15 * theta0:
            break
    return motion_at(spin, mode, sigma0, theta0, reach, speed0, rim0, decel, hi)[0]
