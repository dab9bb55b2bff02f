"""Exact coupled sliding and spinning between events: one dimensionless tabulation per (eta, k).

A disc sliding at v and spinning with rim speed u = r |omega| slows as dv/dt = -a F(eps) and
du/dt = -(a / k) T(eps), with a = mu g, eps = v / u, k = I / (m r^2) and F, T the friction force
and torque of its contact annulus (``face_friction``; Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett.
90, 248302, 2003). The right-hand side depends on eps alone, so the equations are invariant under
(v, u, t) -> (c v, c u, c t); with k inside the window of ``_friction.inertia_window`` both motions
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
are stored expanded in powers of the local coordinate, so that a lookup is one Horner evaluation per
column from one contiguous block. This module holds the table's layout and its lookups (numba);
``_coupled_tables`` builds the tables.

From a start (v0, u0): find sigma0 with eps(sigma0) = v0 / u0 (Newton on the interpolant), then the
stop time is Theta0 = v0 / (a f_v(sigma0)), the stop distance a Theta0^2 g(sigma0), and at time tau
the state follows at sigma0 + ln((Theta0 - tau) / Theta0).
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.tables import orbit_layout

# Motion modes (the kernel stores them per disc).
MODE_UPPER = 0
MODE_LOWER = 1
MODE_TERMINAL = 2  # eps = eps* exactly: a straight-line stop of both
MODE_SLIDE_LIMIT = 3  # eps >= EPS_MAX
MODE_SPIN_LIMIT = 4  # eps <= EPS_MIN


@jit.inline
def _meta(orbit_tables, index):
    return orbit_tables[index // orbit_layout.N_COLUMNS, index % orbit_layout.N_COLUMNS]


@jit.inline
def _interval(orbit_tables, i, sigma):
    """(first row, first column) of the coefficient block of the interval starting at orbit row i (a
    row of the packed tables ``orbit_tables``), and t, sigma's place in it."""
    n_rows = int(_meta(orbit_tables, orbit_layout.M_UP_ROWS)) + int(_meta(orbit_tables, orbit_layout.M_LO_ROWS))
    flat = (orbit_layout.META_ROWS + n_rows) * orbit_layout.N_COLUMNS + (
        i - orbit_layout.META_ROWS
    ) * orbit_layout.COEFFICIENT_ROWS * orbit_layout.N_COLUMNS
    row = flat // orbit_layout.N_COLUMNS
    col = flat % orbit_layout.N_COLUMNS  # 0: the blocks are whole rows
    t = (sigma - orbit_tables[row, col + orbit_layout.K_START]) * orbit_tables[row, col + orbit_layout.K_INV_WIDTH]
    return row, t


@jit.inline
def _block(orbit_tables, row, k):
    """Entry k of the coefficient block that starts at ``row``."""
    return orbit_tables[row + k // orbit_layout.N_COLUMNS, k % orbit_layout.N_COLUMNS]


@jit.inline
def _quintic(orbit_tables, row, base, t):
    """The quintic with coefficients at ``base`` of the block at ``row``, at t (Horner)."""
    return _block(orbit_tables, row, base) + t * (
        _block(orbit_tables, row, base + 1)
        + t
        * (
            _block(orbit_tables, row, base + 2)
            + t
            * (
                _block(orbit_tables, row, base + 3)
                + t * (_block(orbit_tables, row, base + 4) + t * _block(orbit_tables, row, base + 5))
            )
        )
    )


@jit.inline
def _quintic_slope(orbit_tables, row, base, t):
    """d/dt of the quintic at ``base`` of the block at ``row``."""
    return _block(orbit_tables, row, base + 1) + t * (
        2.0 * _block(orbit_tables, row, base + 2)
        + t
        * (
            3.0 * _block(orbit_tables, row, base + 3)
            + t * (4.0 * _block(orbit_tables, row, base + 4) + t * 5.0 * _block(orbit_tables, row, base + 5))
        )
    )


@jit.inline
def _orbit_rows(orbit_tables, mode):
    """(first row, number of rows) of orbit ``mode`` in the packed tables."""
    if mode == MODE_UPPER:
        return orbit_layout.META_ROWS, int(_meta(orbit_tables, orbit_layout.M_UP_ROWS))
    return orbit_layout.META_ROWS + int(_meta(orbit_tables, orbit_layout.M_UP_ROWS)), int(
        _meta(orbit_tables, orbit_layout.M_LO_ROWS)
    )


@jit.inline
def _row(orbit_tables, mode, sigma):
    """The row whose interval holds ``sigma`` on orbit ``mode`` (upper or lower)."""
    tab = orbit_tables
    first, rows = _orbit_rows(orbit_tables, mode)
    offset = 0 if mode == MODE_UPPER else int(_meta(orbit_tables, orbit_layout.M_UP_BINS))
    b = offset + max(0, int((sigma - tab[first, orbit_layout.C_SIGMA]) / orbit_layout.NODE_STEP))
    bins_row = int(_meta(orbit_tables, orbit_layout.M_BINS_ROW))
    i = orbit_layout.META_ROWS + int(orbit_tables[bins_row + b // orbit_layout.N_COLUMNS, b % orbit_layout.N_COLUMNS])
    last = first + rows - 2
    while i < last and tab[i + 1, orbit_layout.C_SIGMA] <= sigma:
        i += 1
    return min(i, last)


@jit.no_refcount
def orbit_state(orbit_tables, mode, sigma):
    """(f_v, f_u, g) at ``sigma`` on orbit ``mode``: the table, or its linearised start below sigma = 0."""
    if mode == MODE_TERMINAL or sigma <= 0.0:
        if mode == MODE_TERMINAL or sigma == -math.inf:
            return (
                _meta(orbit_tables, orbit_layout.M_FV_STAR),
                _meta(orbit_tables, orbit_layout.M_FU_STAR),
                _meta(orbit_tables, orbit_layout.M_G_STAR),
            )
        grow = math.exp(_meta(orbit_tables, orbit_layout.M_RATE) * sigma)
        base = orbit_layout.M_UP_FV if mode == MODE_UPPER else orbit_layout.M_LO_FV
        return (
            _meta(orbit_tables, orbit_layout.M_FV_STAR) + _meta(orbit_tables, base) * grow,
            _meta(orbit_tables, orbit_layout.M_FU_STAR) + _meta(orbit_tables, base + 1) * grow,
            _meta(orbit_tables, orbit_layout.M_G_STAR) + _meta(orbit_tables, base + 2) * grow,
        )
    row, t = _interval(orbit_tables, _row(orbit_tables, mode, sigma), sigma)
    return (
        _quintic(orbit_tables, row, orbit_layout.K_COEFFICIENTS, t),
        _quintic(orbit_tables, row, orbit_layout.K_COEFFICIENTS + 6, t),
        _quintic(orbit_tables, row, orbit_layout.K_COEFFICIENTS + 12, t),
    )


@jit.no_refcount
def _sigma_of(orbit_tables, mode, eps):
    """sigma on orbit ``mode`` where f_v / f_u = eps."""
    tab = orbit_tables
    e_star = _meta(orbit_tables, orbit_layout.M_EPS_STAR)
    first, rows = _orbit_rows(orbit_tables, mode)
    if abs(eps - e_star) <= orbit_layout.START_OFFSET:
        return math.log(
            (eps - e_star) / (orbit_layout.START_OFFSET if mode == MODE_UPPER else -orbit_layout.START_OFFSET)
        ) / _meta(orbit_tables, orbit_layout.M_RATE)
    # eps runs away from eps* along the orbit: binary search on the nodes' eps.
    up = mode == MODE_UPPER
    lo = first
    hi = first + rows - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if tab[mid, orbit_layout.C_EPS] <= eps if up else tab[mid, orbit_layout.C_EPS] >= eps:
            lo = mid
        else:
            hi = mid
    a = tab[lo, orbit_layout.C_SIGMA]
    b = tab[hi, orbit_layout.C_SIGMA]
    # Start Newton from the cubic Hermite interpolant of sigma(eps) through the two nodes, with
    # d eps / d sigma = (f_v' - eps f_u') / f_u there: within rounding of the root but for the
    # interpolant's error, so two Newton steps end the search.
    e0 = tab[lo, orbit_layout.C_EPS]
    e1 = tab[hi, orbit_layout.C_EPS]
    de = e1 - e0
    x = (eps - e0) / de
    m0 = de * tab[lo, orbit_layout.C_FU] / (tab[lo, orbit_layout.C_D1] - e0 * tab[lo, orbit_layout.C_D1 + 1])
    m1 = de * tab[hi, orbit_layout.C_FU] / (tab[hi, orbit_layout.C_D1] - e1 * tab[hi, orbit_layout.C_D1 + 1])
    x2 = x * x
    x3 = x2 * x
    sigma = a * (2.0 * x3 - 3.0 * x2 + 1.0) + m0 * (x3 - 2.0 * x2 + x) + b * (3.0 * x2 - 2.0 * x3) + m1 * (x3 - x2)
    if not a <= sigma <= b:
        sigma = a + (b - a) * x
    for _ in range(60):
        row, t = _interval(orbit_tables, lo, sigma)
        fv = _quintic(orbit_tables, row, orbit_layout.K_COEFFICIENTS, t)
        fu = _quintic(orbit_tables, row, orbit_layout.K_COEFFICIENTS + 6, t)
        inv_width = _block(orbit_tables, row, orbit_layout.K_INV_WIDTH)
        dfv = _quintic_slope(orbit_tables, row, orbit_layout.K_COEFFICIENTS, t) * inv_width
        dfu = _quintic_slope(orbit_tables, row, orbit_layout.K_COEFFICIENTS + 6, t) * inv_width
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
def start_motion(orbit_tables, speed, rim, decel):
    """Mode, sigma0, stop time and stop distance of a disc sliding at ``speed`` with rim speed ``rim``
    (both > 0) under ``decel`` = mu g."""
    eps = speed / rim
    if eps >= orbit_layout.EPS_MAX:
        return MODE_SLIDE_LIMIT, 0.0, speed / decel, speed * speed / (2.0 * decel)
    if eps <= orbit_layout.EPS_MIN:
        theta = rim / (decel * _meta(orbit_tables, orbit_layout.M_SPIN_RATE))
        return MODE_SPIN_LIMIT, 0.0, theta, speed * theta / (_meta(orbit_tables, orbit_layout.M_Q_SPIN) + 1.0)
    if eps == _meta(orbit_tables, orbit_layout.M_EPS_STAR):
        mode = MODE_TERMINAL
        sigma = -math.inf
    else:
        mode = MODE_UPPER if eps > _meta(orbit_tables, orbit_layout.M_EPS_STAR) else MODE_LOWER
        sigma = _sigma_of(orbit_tables, mode, eps)
    fv, fu, g = orbit_state(orbit_tables, mode, sigma)
    # Both give Theta0; the larger of speed and rim is the better conditioned.
    theta = speed / (decel * fv) if eps >= 1.0 else rim / (decel * fu)
    return mode, sigma, theta, decel * theta * theta * g


@jit.no_refcount
def motion_at(orbit_tables, mode, sigma0, theta0, reach, speed0, rim0, decel, tau):
    """(distance slid, speed, rim speed) ``tau`` seconds after the start (``start_motion``)."""
    theta = theta0 - tau
    if theta <= 0.0:
        return reach, 0.0, 0.0
    if tau <= 0.0:
        return 0.0, speed0, rim0
    if mode == MODE_SLIDE_LIMIT:
        v = speed0 - decel * tau
        return tau * (speed0 - 0.5 * decel * tau), v, rim0 * (v / speed0) ** _meta(orbit_tables, orbit_layout.M_Q_SLIDE)
    x = theta / theta0
    if mode == MODE_SPIN_LIMIT:
        q = _meta(orbit_tables, orbit_layout.M_Q_SPIN)
        return reach * (1.0 - x ** (q + 1.0)), speed0 * x**q, rim0 * x
    sigma = sigma0 + math.log(x)
    fv, fu, g = orbit_state(orbit_tables, mode, sigma)
    return reach - decel * theta * theta * g, decel * theta * fv, decel * theta * fu


@jit.no_refcount
def time_to_reach(orbit_tables, mode, sigma0, theta0, reach, speed0, rim0, decel, s):
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
        done, v, _ = motion_at(orbit_tables, mode, sigma0, theta0, reach, speed0, rim0, decel, tau)
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
def distance_at_speed(orbit_tables, mode, sigma0, theta0, reach, speed0, rim0, decel, v_target):
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
        _s, v, _ = motion_at(orbit_tables, mode, sigma0, theta0, reach, speed0, rim0, decel, tau)
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
    return motion_at(orbit_tables, mode, sigma0, theta0, reach, speed0, rim0, decel, hi)[0]
