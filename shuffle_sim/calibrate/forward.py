"""The forward model of a court fit: where a disc shot without spin comes to rest, and when.

A disc launched at speed v0 along the unit vector u, without spin, on a court with sliding friction
mu and a uniform grade ``slope = [gx, gy]`` (the in-plane pull of gravity is g (gx, gy), so gx > 0
drifts discs toward +x; the surface's convention) feels

    dv/dt = g s e_d - mu g v / |v|,         s = |slope|, e_d = slope / s (downhill).

With phi the angle between the velocity and the downhill direction, k = mu / s and z = tan(phi / 2),
the speed follows the classical hodograph of a body sliding on a rough incline,
v = C z^(k - 1) (1 + z^2) / 2, and time and both displacements are integrals of powers of z, in
closed form. Written in c = cos(phi0) of the launch, they stay finite for every launch (straight
downhill, c = 1, and straight uphill, c = -1, included) and tend to the flat court's as s -> 0:

    T   = v0 / (2 g) [ (1 + c) / (mu - s)      + (1 - c) / (mu + s) ]
    D_d = v0^2 / (8 g) [ (1 + c)^2 / (mu - s)  - (1 - c)^2 / (mu + s) ]          along e_d
    D_c = v0^2 sin(phi0) / (4 g) [ (1 + c) / (mu - s/2) + (1 - c) / (mu + s/2) ]  across, on the
                                                                                   launch's side

The disc stops (and stays: static friction at least the sliding one) only while mu > s, which a
court must satisfy. The flat limit is v0^2 / (2 mu g) along u after v0 / (mu g).

``rest_and_time`` is the whole model the fit sees, so that it can be replaced by the simulator on a
graded court (the curved-motion kernel) without touching the fit: it takes arrays of shots and
returns arrays of rests and times.
"""

from __future__ import annotations

import numpy as np


def rest_and_time(start_x, start_y, direction, v0, mu, slope_x, slope_y, gravity):
    """Rest position and sliding time of discs shot without spin from (start_x, start_y) at speed
    ``v0`` (m/s) along ``direction`` (radians from the court's +y axis toward +x, as shots are aimed),
    on a court of sliding friction ``mu`` and uniform grade (``slope_x``, ``slope_y``).

    Arrays broadcast together; returns (rest_x, rest_y, time). Where mu <= |slope| a disc never
    stops: NaN there.
    """
    start_x, start_y, direction, v0 = np.broadcast_arrays(
        *(np.asarray(a, dtype=np.float64) for a in (start_x, start_y, direction, v0))
    )
    ux, uy = np.sin(direction), np.cos(direction)
    s = float(np.hypot(slope_x, slope_y))
    g = float(gravity)
    if not mu > s:
        nan = np.full(start_x.shape, np.nan)
        return nan, nan.copy(), nan.copy()
    if s == 0.0:
        reach = v0 * v0 / (2.0 * mu * g)
        return start_x + reach * ux, start_y + reach * uy, v0 / (mu * g)
    dx, dy = slope_x / s, slope_y / s  # downhill
    c = ux * dx + uy * dy  # cos(phi0)
    time = v0 / (2.0 * g) * ((1.0 + c) / (mu - s) + (1.0 - c) / (mu + s))
    along = v0 * v0 / (8.0 * g) * ((1.0 + c) ** 2 / (mu - s) - (1.0 - c) ** 2 / (mu + s))
    # D_c e_c, with sin(phi0) e_c = u - c e_d (the launch's component across the fall line).
    across = v0 * v0 / (4.0 * g) * ((1.0 + c) / (mu - 0.5 * s) + (1.0 - c) / (mu + 0.5 * s))
    rest_x = start_x + along * dx + across * (ux - c * dx)
    rest_y = start_y + along * dy + across * (uy - c * dy)
    return rest_x, rest_y, time


#: Below this |u| = |k t| the speed law's sums are taken as series (the closed forms would cancel).
SERIES_BELOW = 1e-3


def _decay_ratio(u: np.ndarray) -> np.ndarray:
    """(1 - exp(-u)) / u, 1 at u = 0."""
    safe = np.where(u == 0.0, 1.0, u)
    return np.where(u == 0.0, 1.0, -np.expm1(-safe) / safe)


def _lag_ratio(u: np.ndarray) -> np.ndarray:
    """(u - 1 + exp(-u)) / u^2, 1/2 at u = 0, summed as a series where |u| is small."""
    small = np.abs(u) < SERIES_BELOW
    safe = np.where(small, 1.0, u)
    series = 0.5 - u / 6.0 + u * u / 24.0 - u * u * u / 120.0
    return np.where(small, series, (safe + np.expm1(-safe)) / (safe * safe))


def stop_times(v0, c: float, k: float) -> np.ndarray:
    """When discs launched at ``v0`` stop under the deceleration c + k v: v0 / c under Coulomb
    (k = 0), ln(1 + k v0 / c) / k under the speed law (``court.friction_law``), infinite where a
    falling law (k < 0) never brakes the disc to rest."""
    v0 = np.asarray(v0, dtype=np.float64)
    if k == 0.0:
        return v0 / c
    x = k * v0 / c
    safe = np.where((x <= -1.0) | (x == 0.0), 1.0, x)
    ratio = np.where(x == 0.0, 1.0, np.log1p(safe) / safe)  # log1p keeps ln(1 + x) / x exact near 0
    return np.where(x <= -1.0, np.inf, v0 / c * ratio)


def slide_distance(t, v0, c: float, k: float):
    """How far (m) a disc without spin launched at ``v0`` has slid after ``t`` seconds on a flat
    court under the deceleration c + k v (c = g mu, k = g mu_speed; Coulomb at k = 0), staying at
    its rest once stopped. The speed law's closed form s(t) = (v0 + c/k)(1 - exp(-k t))/k - (c/k) t
    is written as v0 t (1 - exp(-u))/u - c t^2 (u - 1 + exp(-u))/u^2 with u = k t, which keeps its
    precision as k goes to 0 and is v0 t - c t^2 / 2 there."""
    t, v0 = np.broadcast_arrays(np.asarray(t, dtype=np.float64), np.asarray(v0, dtype=np.float64))
    moving = np.minimum(np.maximum(t, 0.0), stop_times(v0, c, k))
    u = k * moving
    return v0 * moving * _decay_ratio(u) - c * moving * moving * _lag_ratio(u)


def slide_speed(t, v0, c: float, k: float):
    """The speed (m/s) of the same slide after ``t`` seconds: v0 exp(-u) - c t (1 - exp(-u))/u with
    u = k t (v0 - c t under Coulomb), 0 once stopped."""
    t, v0 = np.broadcast_arrays(np.asarray(t, dtype=np.float64), np.asarray(v0, dtype=np.float64))
    moving = np.minimum(np.maximum(t, 0.0), stop_times(v0, c, k))
    u = k * moving
    return np.maximum(v0 * np.exp(-u) - c * moving * _decay_ratio(u), 0.0)
