"""Coupled sliding and spinning friction of a flat disc: the force F(eps) and torque T(eps).

A disc sliding at speed v and spinning at omega on a flat surface, pressing evenly on its face (or
on an annulus of it), feels Coulomb friction on every element of the face against that element's
own velocity. With eps = v / (r omega) the total force is mu m g F(eps) against the velocity and the
torque mu m g r T(eps) against the spin (Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett. 90,
248302, 2003).

Both follow from one function: the mean distance phi(eps) from a point at distance eps (in units of
r) from the centre to the points of the unit disc. The friction density is the gradient of the local
speed |v + omega x rho| with respect to v, so F = phi'(eps) and T = phi - eps phi'. With complete
elliptic integrals K, E of parameter m = eps^2 (eps <= 1) or n = 1/eps^2 (eps >= 1):

    eps <= 1:  F = 4/(3 pi eps) [(1 + m) E - (1 - m) K]
               T = 4/(9 pi) [(4 - 2 m) E - (1 - m) K]
    eps >= 1:  F = 4 eps^2/(3 pi) [(1 + n) E - (1 - n) K]
               T = 4 eps^3/(9 pi) [(4 n - 2) E + (1 - n)(2 - 3 n) K]

(the eps > 1 torque has the prefactor 4 eps / (9 pi) once the bracket is written in eps, not the
4 / (9 pi eps) misprinted in the preprint). F(0) = 0, F(1) = 8/(3 pi), F(inf) = 1; T(0) = 2/3,
T(1) = 8/(9 pi), T ~ 1/(4 eps). An annulus of inner radius eta r follows by superposition:
F_eta = (F(eps) - eta^2 F(eps/eta)) / (1 - eta^2), T_eta = (T(eps) - eta^3 T(eps/eta)) / (1 - eta^2).

The brackets cancel to leading order where F or T is small (F near eps = 0, T at large eps), so
there they are summed as power series with the cancellation done in the coefficients; elsewhere K
and E come from the arithmetic-geometric mean. Both are accurate to a few units of rounding.

Motion: with k = I / (m r^2), dv/dt = -mu g F and d(r omega)/dt = -(mu g / k) T, so eps obeys an
equation of eps alone. Its fixed point eps* (k F = eps T) is where every motion ends, speed and spin
together, if k lies in the window (1 + eta^2)/4 < k < 2 (1 + eta + eta^2)/3 (for the whole face
1/4 < k < 2/3; Weidman and Malhotra's terminal regimes): below it eps runs to infinity (spin dies
first), above it to 0 (speed dies first).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.court.materials import inertia_window  # noqa: F401  (part of this module's face)

#: Parameters up to this use the power series; above it the arithmetic-geometric mean.
SERIES_LIMIT = 0.25
#: Terms of the power series: 0.25^30 is below 1e-18.
SERIES_TERMS = 30


def _series_coefficients() -> np.ndarray:
    """(3, SERIES_TERMS) coefficients, over pi/2, of the brackets' power series (``_bracket``).

    With a_j = ((2j-1)!! / (2j)!!)^2, E = pi/2 sum a_j m^j / (1 - 2j) and K = pi/2 sum a_j m^j; each
    bracket's coefficients follow by shifting and adding, so its cancellations are exact here.
    """
    a = np.ones(SERIES_TERMS + 2)
    for j in range(1, SERIES_TERMS + 2):
        a[j] = a[j - 1] * ((2.0 * j - 1.0) / (2.0 * j)) ** 2
    e = np.array([a[j] / (1.0 - 2.0 * j) for j in range(SERIES_TERMS)])
    k = a[:SERIES_TERMS]
    e1 = np.concatenate([[0.0], e[:-1]])
    k1 = np.concatenate([[0.0], k[:-1]])
    k2 = np.concatenate([[0.0, 0.0], k[:-2]])
    out = np.empty((3, SERIES_TERMS))
    out[0] = e + e1 - k + k1  # (1 + x) E - (1 - x) K
    out[1] = 4.0 * e - 2.0 * e1 - k + k1  # (4 - 2x) E - (1 - x) K
    out[2] = 4.0 * e1 - 2.0 * e + 2.0 * k - 5.0 * k1 + 3.0 * k2  # (4x - 2) E + (1 - x)(2 - 3x) K
    out[0, 0] = 0.0  # zero exactly; rounding would leave a residue
    out[2, :2] = 0.0
    return out * (0.5 * math.pi)


_COEFFICIENTS = _series_coefficients()


@jit.kernel
def elliptic_ke(m):
    """Complete elliptic integrals (K(m), E(m)) of parameter m in [0, 1), by the arithmetic-geometric mean."""
    a = 1.0
    b = math.sqrt(1.0 - m)
    total = 0.5 * m  # sum of 2^(j-1) c_j^2 with c_0^2 = m
    power = 0.5
    for _ in range(40):
        c = 0.5 * (a - b)
        if c == 0.0:
            break
        a, b = 0.5 * (a + b), math.sqrt(a * b)
        power *= 2.0
        total += power * c * c
    k = 0.5 * math.pi / a
    return k, k * (1.0 - total)


@jit.kernel
def _series(x, which):
    """Power series in x of the brackets (Horner): which = 0: (1 + x) E - (1 - x) K;
    1: (4 - 2x) E - (1 - x) K; 2: (4x - 2) E + (1 - x)(2 - 3x) K (whose terms of order 1 and x cancel)."""
    total = 0.0
    for j in range(SERIES_TERMS - 1, -1, -1):
        total = total * x + _COEFFICIENTS[which, j]
    return total


@jit.kernel
def _bracket(x, which):
    if x <= SERIES_LIMIT:
        return _series(x, which)
    k, e = elliptic_ke(x)
    if which == 0:
        return (1.0 + x) * e - (1.0 - x) * k
    if which == 1:
        return (4.0 - 2.0 * x) * e - (1.0 - x) * k
    return (4.0 * x - 2.0) * e + (1.0 - x) * (2.0 - 3.0 * x) * k


@jit.kernel
def face_force(eps):
    """F(eps) for the whole face: friction force over mu m g, against the velocity."""
    if eps <= 0.0:
        return 0.0
    if eps == 1.0:
        return 8.0 / (3.0 * math.pi)
    if math.isinf(eps):
        return 1.0
    if eps < 1.0:
        return 4.0 / (3.0 * math.pi * eps) * _bracket(eps * eps, np.int64(0))
    return 4.0 * eps * eps / (3.0 * math.pi) * _bracket(1.0 / (eps * eps), np.int64(0))


@jit.kernel
def face_torque(eps):
    """T(eps) for the whole face: friction torque over mu m g r, against the spin."""
    if eps <= 0.0:
        return 2.0 / 3.0
    if eps == 1.0:
        return 8.0 / (9.0 * math.pi)
    if math.isinf(eps):
        return 0.0
    if eps < 1.0:
        return 4.0 / (9.0 * math.pi) * _bracket(eps * eps, np.int64(1))
    return 4.0 * eps**3 / (9.0 * math.pi) * _bracket(1.0 / (eps * eps), np.int64(2))


@jit.kernel
def force(eps, eta):
    """F for a contact annulus of inner radius ``eta`` (over the outer radius; 0 is the whole face)."""
    if eta == 0.0:
        return face_force(eps)
    return (face_force(eps) - eta * eta * face_force(eps / eta)) / (1.0 - eta * eta)


@jit.kernel
def torque(eps, eta):
    """T for a contact annulus of inner radius ``eta`` (over the outer radius; 0 is the whole face)."""
    if eta == 0.0:
        return face_torque(eps)
    return (face_torque(eps) - eta**3 * face_torque(eps / eta)) / (1.0 - eta * eta)


@jit.kernel
def terminal_ratio(eta, inertia):
    """eps* where k F(eps) = eps T(eps): the ratio v / (r omega) every motion tends to (k inside the
    window of ``inertia_window``), found by bisection of k F - eps T, which is negative below eps*
    and positive above it."""
    lo = 1e-9
    hi = 1e9
    for _ in range(400):
        mid = math.sqrt(lo * hi) if hi / lo > 4.0 else 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if inertia * force(mid, eta) - mid * torque(mid, eta) < 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@jit.kernel
def face_force_slope(eps):
    """dF/deps for the whole face: (4/pi) E(eps^2) - F/eps below 1, 2 F/eps - 4 E(1/eps^2)/(pi eps)
    above (from d/dm [(1 + m) E - (1 - m) K] = 3 E / 2). Finite at eps = 1 (4 / (3 pi)), where the
    next derivative has a logarithmic singularity."""
    if eps <= 0.0:
        return 1.0
    if eps == 1.0:
        return 4.0 / (3.0 * math.pi)
    if math.isinf(eps):
        return 0.0
    if eps < 1.0:
        _, e = elliptic_ke(eps * eps)
        return 4.0 / math.pi * e - face_force(eps) / eps
    _, e = elliptic_ke(1.0 / (eps * eps))
    return 2.0 * face_force(eps) / eps - 4.0 * e / (math.pi * eps)


@jit.kernel
def force_slope(eps, eta):
    """dF/deps for the annulus eta..1. The torque's slope is -eps dF/deps (T = phi - eps phi')."""
    if eta == 0.0:
        return face_force_slope(eps)
    return (face_force_slope(eps) - eta * face_force_slope(eps / eta)) / (1.0 - eta * eta)


@jit.kernel
def face_force_ratio(eps):
    """F(eps) / eps for the whole face, smooth through eps = 0 (where it is 1): the friction force per
    unit of slide, which the curved-motion path needs at and near a stand-still while the disc spins.
    Below eps = 1/2 from the power series (whose first term is of order eps^2), above from F."""
    if eps <= 0.0:
        return 1.0
    if eps * eps <= SERIES_LIMIT:
        return 4.0 / (3.0 * math.pi * eps * eps) * _series(eps * eps, np.int64(0))
    return face_force(eps) / eps


@jit.kernel
def force_ratio(eps, eta):
    """F / eps for a contact annulus of inner radius ``eta``: (1 + eta)^-1 at eps = 0."""
    if eta == 0.0:
        return face_force_ratio(eps)
    return (face_force_ratio(eps) - eta * face_force_ratio(eps / eta)) / (1.0 - eta * eta)
