"""Building the coupled motion's tables: both orbits integrated once per (eta, k), packed, cached.

The orbits of ``laws.closed_form.coupled`` (the layout and the lookups live there) are integrated node to node by
the classical Runge-Kutta method with Richardson extrapolation (4 and 8 substeps), from next to the
fixed point out to eps = ``EPS_MAX`` or ``EPS_MIN``. The nodes are spaced ``NODE_STEP`` apart and
graded geometrically down to ``GRADE_MIN`` toward the points where eps crosses 1 or eta, where F''
has a logarithmic singularity. Each interval's quintic Hermite interpolants are stored expanded in
powers of the local coordinate (``_interval_coefficients``). The packed tables are kept in memory
and on disk beside numba's cache, under a digest of the model's sources.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from pathlib import Path

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.messages import shown
from shuffle_sim.physics.face_friction import force, force_slope, inertia_window, terminal_ratio, torque
from shuffle_sim.physics.tables import orbit_layout

#: The nodes next to a crossing of eps = 1 or eps = eta stand this close to it.
GRADE_MIN = 1e-8
#: The longest an orbit may run in sigma (near the window's edges eps changes slowly).
MAX_SPAN = 3000.0


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
    tab[row, orbit_layout.C_SIGMA] = sigma
    tab[row, orbit_layout.C_FV] = fv
    tab[row, orbit_layout.C_FU] = fu
    tab[row, orbit_layout.C_G] = g
    for c in range(3):
        tab[row, orbit_layout.C_D1 + c] = d[c]
        tab[row, orbit_layout.C_D2 + c] = d[3 + c]
    tab[row, orbit_layout.C_EPS] = fv / fu


@jit.kernel
def _integrate_orbit(tab, fv, fu, g, eta, k):
    """Fill ``tab`` with one orbit from sigma = 0 (next to the fixed point) outward; returns its rows."""
    singular = np.array([1.0, eta if eta > 0.0 else -1.0])
    sigma = 0.0
    row = 0
    _store(tab, row, sigma, fv, fu, g, eta, k)
    crossed_at = -math.inf  # sigma of the last singular crossing
    while row + 1 < tab.shape[0]:
        eps = tab[row, orbit_layout.C_EPS]
        if eps <= orbit_layout.EPS_MIN or eps >= orbit_layout.EPS_MAX or sigma >= MAX_SPAN:
            break
        d_eps = (tab[row, orbit_layout.C_D1] - eps * tab[row, orbit_layout.C_D1 + 1]) / fu
        # Distance (in sigma) to the next singular eps ahead, to first order.
        ahead = math.inf
        target = -1.0
        for s in singular:
            if s > 0.0 and d_eps != 0.0:
                d = (s - eps) / d_eps
                if 0.0 < d < ahead:
                    ahead = d
                    target = s
        step = min(orbit_layout.NODE_STEP, max(sigma - crossed_at, GRADE_MIN))
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
            tab[row, orbit_layout.C_EPS] = target
    return row + 1


@jit.kernel
def _make_bins(tab, first, rows, bins, offset):
    """bins[offset + b] = the row of the last node at or before sigma_first + b * NODE_STEP."""
    lo = tab[first, orbit_layout.C_SIGMA]
    n_bins = int((tab[first + rows - 1, orbit_layout.C_SIGMA] - lo) / orbit_layout.NODE_STEP) + 2
    i = first
    for b in range(n_bins):
        edge = lo + b * orbit_layout.NODE_STEP
        while i + 1 < first + rows and tab[i + 1, orbit_layout.C_SIGMA] <= edge:
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
    physics = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for name in ("face_friction.py", "laws/closed_form/coupled.py", "tables/orbit_layout.py", "tables/orbit_tables.py"):
        digest.update((physics / name).read_bytes())
    return digest.hexdigest()[:16]


_SOURCE_VERSION = _digest_sources()


def _disk_path(eta: float, inertia: float) -> Path:
    """Where the tables for (eta, k) are kept between processes: beside numba's compiled kernels."""
    key = f"{float(eta).hex()}_{float(inertia).hex()}_{_source_version()}"
    return Path(__file__).resolve().parent / "__pycache__" / f"coupled_tables_{key}.npy"


def _load_saved(path: Path) -> np.ndarray | None:
    try:
        orbit_tables = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    return (
        orbit_tables
        if orbit_tables.ndim == 2
        and orbit_tables.shape[1] == orbit_layout.N_COLUMNS
        and orbit_tables.dtype == np.float64
        else None
    )


def _save(path: Path, orbit_tables: np.ndarray) -> None:
    """Keep the tables for later processes (written whole, then renamed); a read-only install skips it."""
    try:
        path.parent.mkdir(exist_ok=True)
        for old in path.parent.glob("coupled_tables_*.npy"):
            if not old.name.endswith(f"_{_source_version()}.npy"):
                old.unlink(missing_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as fh:
            np.save(fh, orbit_tables, allow_pickle=False)
        os.replace(fh.name, path)
    except OSError:
        pass


def coupled_tables(eta: float, inertia: float) -> np.ndarray:
    """The packed tables (``orbit_tables``) for contact ratio ``eta`` and inertia ratio ``inertia``, built once
    and cached: rows 0-1 the header ``meta``, then the upper and the lower orbit, then the lookup
    bins (as floats, ``N_COLUMNS`` to a row). ``inertia`` must lie inside ``_friction.inertia_window``.

    Building takes a few tenths of a second plus the builder's compilation, so the tables are also
    saved beside the compiled kernels (``__pycache__``), under a digest of this module's and
    ``friction``'s sources, and read from there by later processes.
    """
    key = (float(eta), float(inertia))
    if key in _CACHE:
        return _CACHE[key]
    lo, hi = inertia_window(eta)
    if not lo < inertia < hi:
        raise ValueError(
            f"inertia ratio {shown(inertia)} is outside the window ({lo:.6g}, {hi:.6g}) for contact "
            f"ratio {shown(eta)}: speed and spin would not end at a finite ratio"
        )
    path = _disk_path(eta, inertia)
    saved = _load_saved(path)
    if saved is not None:
        _CACHE[key] = saved
        return saved
    orbit_tables = _build(float(eta), float(inertia))
    _save(path, orbit_tables)
    _CACHE[key] = orbit_tables
    return orbit_tables


def _build(eta: float, inertia: float) -> np.ndarray:
    """Integrate both orbits and pack them (``coupled_tables``)."""
    meta = np.zeros(orbit_layout.N_META)
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
    meta[orbit_layout.M_ETA], meta[orbit_layout.M_K], meta[orbit_layout.M_EPS_STAR], meta[orbit_layout.M_RATE] = (
        eta,
        inertia,
        e_star,
        rate,
    )
    meta[orbit_layout.M_FV_STAR], meta[orbit_layout.M_FU_STAR], meta[orbit_layout.M_G_STAR] = fv_s, fu_s, g_s
    capacity = int(MAX_SPAN / orbit_layout.NODE_STEP) + 400
    parts = []
    for sign, base in ((1.0, orbit_layout.M_UP_FV), (-1.0, orbit_layout.M_LO_FV)):
        c = sign * orbit_layout.START_OFFSET / d_eps
        meta[base] = c * w_v
        meta[base + 1] = c * w_u
        meta[base + 2] = c * w_v / (rate + 2.0)
        tab = np.empty((capacity, orbit_layout.N_COLUMNS))
        rows = _integrate_orbit(tab, fv_s + meta[base], fu_s + meta[base + 1], g_s + meta[base + 2], eta, inertia)
        parts.append(tab[:rows].copy())
    meta[orbit_layout.M_UP_ROWS] = len(parts[0])
    meta[orbit_layout.M_LO_ROWS] = len(parts[1])
    tab = np.ascontiguousarray(np.concatenate(parts))
    bins = np.zeros(2 * (capacity + 4) + 8, dtype=np.int64)
    n_up = _make_bins(tab, 0, len(parts[0]), bins, 0)
    _make_bins(tab, len(parts[0]), len(parts[1]), bins, n_up)
    meta[orbit_layout.M_UP_BINS] = n_up
    t0 = torque(0.0, eta)
    meta[orbit_layout.M_Q_SLIDE] = (1.0 + eta * eta) / (4.0 * inertia)
    meta[orbit_layout.M_Q_SPIN] = inertia / ((1.0 + eta) * t0)
    meta[orbit_layout.M_SPIN_RATE] = t0 / inertia
    n_bins = (
        n_up
        + int((tab[-1, orbit_layout.C_SIGMA] - tab[len(parts[0]), orbit_layout.C_SIGMA]) / orbit_layout.NODE_STEP)
        + 2
    )
    bin_rows = (n_bins + orbit_layout.N_COLUMNS - 1) // orbit_layout.N_COLUMNS
    coefficients = _interval_coefficients(tab)
    coefficient_end = orbit_layout.META_ROWS + len(tab) + orbit_layout.COEFFICIENT_ROWS * len(tab)
    meta[orbit_layout.M_BINS_ROW] = coefficient_end
    orbit_tables = np.zeros((coefficient_end + bin_rows, orbit_layout.N_COLUMNS))
    orbit_tables[: orbit_layout.META_ROWS].flat[: orbit_layout.N_META] = meta
    orbit_tables[orbit_layout.META_ROWS : orbit_layout.META_ROWS + len(tab)] = tab
    orbit_tables[orbit_layout.META_ROWS + len(tab) : coefficient_end].flat[: coefficients.size] = coefficients.ravel()
    orbit_tables[coefficient_end:].flat[:n_bins] = bins[:n_bins]
    return orbit_tables


def _interval_coefficients(tab: np.ndarray) -> np.ndarray:
    """(rows, COEFFICIENT_ROWS * N_COLUMNS) blocks: for the interval from each row to the next, its
    start sigma, 1 / its width h, then for f_v, f_u and g the six coefficients of the quintic Hermite
    interpolant in t = (sigma - start) / h (value, slope and curvature matched at both ends), lowest
    power first. The last row of each orbit has no interval; its block is never read."""
    x0 = tab[:-1, orbit_layout.C_SIGMA]
    h = tab[1:, orbit_layout.C_SIGMA] - x0
    out = np.zeros((len(tab), orbit_layout.COEFFICIENT_ROWS * orbit_layout.N_COLUMNS))
    out[:-1, orbit_layout.K_START] = x0
    with np.errstate(divide="ignore"):
        out[:-1, orbit_layout.K_INV_WIDTH] = np.where(h > 0.0, 1.0 / np.where(h > 0.0, h, 1.0), 0.0)
    for c in range(3):
        y0 = tab[:-1, orbit_layout.C_FV + c]
        rise = tab[1:, orbit_layout.C_FV + c] - y0
        d0 = tab[:-1, orbit_layout.C_D1 + c] * h
        d1 = tab[1:, orbit_layout.C_D1 + c] * h
        s0 = tab[:-1, orbit_layout.C_D2 + c] * h * h
        s1 = tab[1:, orbit_layout.C_D2 + c] * h * h
        base = orbit_layout.K_COEFFICIENTS + 6 * c
        out[:-1, base] = y0
        out[:-1, base + 1] = d0
        out[:-1, base + 2] = 0.5 * s0
        out[:-1, base + 3] = 10.0 * rise - 6.0 * d0 - 4.0 * d1 - 1.5 * s0 + 0.5 * s1
        out[:-1, base + 4] = -15.0 * rise + 8.0 * d0 + 7.0 * d1 + 1.5 * s0 - s1
        out[:-1, base + 5] = 6.0 * rise - 3.0 * d0 - 3.0 * d1 - 0.5 * s0 + 0.5 * s1
    return out
