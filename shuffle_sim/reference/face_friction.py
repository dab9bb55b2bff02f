"""Brute-force reference for coupled sliding and spinning friction (tests only; needs scipy).

The friction force and torque on a disc that slides and spins on a flat surface are summed
numerically over the contact face (an annulus of radii eta r and r, pressing evenly), with no
elliptic closed form: every element of the face rubs with Coulomb friction against its own
velocity (Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett. 90, 248302, 2003). The motion is then
integrated with scipy's adaptive DOP853 at rtol 1e-12. The kernel's closed forms and tables
(``shuffle_sim.physics.face_friction``, ``shuffle_sim.physics.laws.closed_form.coupled``) are checked against this.

Face sum. In units of r and r omega, with eps = v / (r omega), the element at rho moves at
eps x + z x rho, which vanishes at the point p = (0, eps). Around p the face is a fan of rays
p + s (cos theta, sin theta), on which the element's velocity points along (-sin theta, cos theta)
whatever s is. The sum is taken over theta adaptively (``scipy.integrate.quad``) and along each
ray, over the stretch of it inside the face, by Gauss-Legendre (exact there: the integrand is a
polynomial in s). A ray leaving p outside a circle is parameterised by the angle under which it
meets the circle, so the integrand stays smooth where rays graze the circle.

Motion. The independent variable is lambda = -ln(r omega / (r omega_0)), which runs to infinity as
the disc stops, so the solver never steps across the singular instant at which both motions end:
d eps / d lambda = -(k F - eps T) / T, dt / d lambda = k r omega / (mu g T),
ds / d lambda = eps r omega dt / d lambda, with k = I / (m r^2).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import integrate

#: Gauss-Legendre nodes along a ray: exact for the cubic radial integrands.
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(3)
#: Quadrature tolerance of the sum over ray directions.
QUAD_TOL = 1e-13


def _ray_sums(s_lo, s_hi, sin_theta, eps):
    """Sums along rays from s_lo to s_hi of (force along -x, torque against the spin) per unit angle."""
    half = 0.5 * (s_hi - s_lo)
    mid = 0.5 * (s_hi + s_lo)
    force = 0.0
    torque = 0.0
    for node, weight in zip(_NODES, _WEIGHTS):
        s = mid + half * node
        # Element at p + s (cos, sin): area s ds dtheta; its friction is (sin theta, -cos theta);
        # against the velocity (+x) that is -sin theta; torque against the spin is s + eps sin theta.
        force += weight * half * s * (-sin_theta)
        torque += weight * half * s * (s + eps * sin_theta)
    return force, torque


def _circle_sums(eps, radius):
    """(force, torque) summed over the disc of ``radius`` around the centre, not yet over its area."""
    if eps < radius:
        # p inside: every ray leaves the circle once, at s = -eps sin + sqrt(R^2 - eps^2 cos^2).
        def part(theta, which):
            sin_t = math.sin(theta)
            cos_t = math.cos(theta)
            s_hi = -eps * sin_t + math.sqrt(radius * radius - (eps * cos_t) ** 2)
            return _ray_sums(0.0, s_hi, sin_t, eps)[which]

        limits = (0.0, 2.0 * math.pi)
    else:
        # p outside (or on) the circle: rays toward the centre, theta = -pi/2 + gamma, crossing it
        # where eps sin(gamma) = R sin(beta); s runs between eps cos(gamma) -+ R cos(beta).
        def part(beta, which):
            sin_g = radius / eps * math.sin(beta)
            cos_g = math.sqrt(max(0.0, 1.0 - sin_g * sin_g))
            chord = radius * math.cos(beta)
            jacobian = radius * math.cos(beta) / (eps * cos_g) if cos_g > 0.0 else 0.0
            sums = _ray_sums(eps * cos_g - chord, eps * cos_g + chord, -cos_g, eps)
            return sums[which] * jacobian

        limits = (-0.5 * math.pi, 0.5 * math.pi)
    force = integrate.quad(part, *limits, args=(0,), epsabs=QUAD_TOL, epsrel=QUAD_TOL, limit=400)[0]
    torque = integrate.quad(part, *limits, args=(1,), epsabs=QUAD_TOL, epsrel=QUAD_TOL, limit=400)[0]
    return force, torque


def face_force_torque(eps: float, eta: float = 0.0) -> tuple[float, float]:
    """(F, T): friction force over mu m g and torque over mu m g r, summed over the annulus eta..1."""
    if eps == 0.0:
        # Pure spin: the mean lever arm over the annulus, integrated the same way at eps -> 0.
        eps = 1e-300
    force, torque = _circle_sums(eps, 1.0)
    if eta > 0.0:
        inner_force, inner_torque = _circle_sums(eps, eta)
        force -= inner_force
        torque -= inner_torque
    area = math.pi * (1.0 - eta * eta)
    return force / area, torque / area


#: Quadrature of the speed law's face sums: Gauss-Legendre in the radius, even angles around.
_SPEED_RADII, _SPEED_WEIGHTS = np.polynomial.legendre.leggauss(6)
_SPEED_ANGLES = 24


def face_speed_sums(vx: float, vy: float, w: float, radius: float, eta: float = 0.0) -> tuple[float, float, float]:
    """The mean over the evenly pressed annulus (radii eta r to r) of each element's sliding velocity
    u = v + omega x rho and of its moment rho x u: (ux, uy, torque_z), summed numerically element by
    element. Under a friction law mu + mu_speed |u| at each element, the speed term's force per unit
    mass is -g mu_speed m (ux, uy) and its torque per unit mass -g mu_speed m torque_z.
    """
    inner = eta * radius
    rho = 0.5 * (radius - inner) * _SPEED_RADII + 0.5 * (radius + inner)
    weight = 0.5 * (radius - inner) * _SPEED_WEIGHTS * rho  # area element rho d(rho)
    theta = 2.0 * math.pi * np.arange(_SPEED_ANGLES) / _SPEED_ANGLES
    px = rho[:, None] * np.cos(theta)[None, :]
    py = rho[:, None] * np.sin(theta)[None, :]
    ux = vx - w * py
    uy = vy + w * px
    area = weight.sum() * _SPEED_ANGLES
    mean = lambda field: float((weight[:, None] * field).sum() / area)  # noqa: E731
    return mean(ux), mean(uy), mean(px * uy - py * ux)


@dataclass(frozen=True)
class SlideSpin:
    """A lone disc's coupled motion to rest, from the reference integrator.

    ``t_stop`` and ``distance`` are the stop time (s) and distance (m); ``eps_end`` is v / (r omega)
    at the end of the integration (the terminal ratio); ``lam``, ``t``, ``s``, ``eps`` sample the
    solution densely (lambda = -ln(omega / omega_0)).
    """

    t_stop: float
    distance: float
    eps_end: float
    lam: np.ndarray
    t: np.ndarray
    s: np.ndarray
    eps: np.ndarray
    dense: Callable[
        [float], np.ndarray
    ]  # scipy's dense output in lambda: (eps, t, s) in units of time_unit and length_unit
    rim0: float
    radius: float
    time_unit: float
    length_unit: float

    def at_distance(self, distance: float) -> tuple[float, float, float]:
        """(time, speed, spin) when the disc has slid ``distance`` (less than its stop distance)."""
        target = distance / self.length_unit
        lo, hi = 0.0, float(self.lam[-1])
        for _ in range(200):  # bisection on s(lambda), increasing
            mid = 0.5 * (lo + hi)
            if self.dense(mid)[2] < target:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-15:
                break
        eps, t, _ = self.dense(0.5 * (lo + hi))
        rim = self.rim0 * math.exp(-0.5 * (lo + hi))
        return t * self.time_unit, eps * rim, rim / self.radius


def slide_spin(
    speed: float,
    omega: float,
    radius: float,
    mu: float,
    gravity: float,
    eta: float = 0.0,
    inertia: float = 0.5,
    lam_end: float = 40.0,
    rtol: float = 1e-12,
    force_torque=face_force_torque,
) -> SlideSpin:
    """Integrate a lone disc launched at ``speed`` with spin ``omega`` (> 0) until it rests.

    Runs lambda from 0 to ``lam_end``, where r omega has fallen by e^-lam_end; the rest of the
    motion (a near-linear stop at the terminal ratio) is added in closed form: the time
    k r omega / (mu g T) and distance eps r omega times half of it.
    """
    decel = mu * gravity
    rim0 = radius * abs(omega)
    time_unit = rim0 / decel  # the solver sees dimensionless time and distance, of order 1
    length_unit = rim0 * time_unit

    def rhs(lam, y):
        eps = y[0]
        f, t = force_torque(max(eps, 0.0), eta)
        dt = inertia * math.exp(-lam) / t
        return [-(inertia * f - eps * t) / t, dt, eps * math.exp(-lam) * dt]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        sol = integrate.solve_ivp(
            rhs, (0.0, lam_end), [speed / rim0, 0.0, 0.0], method="DOP853", rtol=rtol, atol=1e-18, dense_output=True
        )
        if not sol.success:
            raise RuntimeError(f"reference integration failed: {sol.message}")
        eps_end, t_end, s_end = sol.y[:, -1]
        _, torque_end = force_torque(eps_end, eta)
    rim_end = math.exp(-lam_end)
    tail_t = inertia * rim_end / torque_end
    lam = np.linspace(0.0, lam_end, 400)
    dense = sol.sol(lam)
    return SlideSpin(
        t_stop=(t_end + tail_t) * time_unit,
        distance=(s_end + 0.5 * eps_end * rim_end * tail_t) * length_unit,
        eps_end=eps_end,
        lam=lam,
        t=dense[1] * time_unit,
        s=dense[2] * length_unit,
        eps=dense[0],
        dense=sol.sol,
        rim0=rim0,
        radius=radius,
        time_unit=time_unit,
        length_unit=length_unit,
    )
