"""The model of the brute-force surface reference: a disc's forces on a surface that is not flat
(in-plane gravity, friction over the contact face: Coulomb's, and a law of speed's summed element
by element), its rides on cushions and pegs, and the
court's features as the reference's event functions see them (tests only).

``surface_motion.SurfaceReference`` runs scenes with it; the module docstring there says what the
reference shares with the kernel and what it does not.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.physics.numba_api import (
    APPROACH_TOL,
    CONTACT_GAP,
    EDGE_TOL,
    OVERLAP_SLACK,
    force,
    kernel_arrays,
    torque,
)
from shuffle_sim.reference.face_friction import face_speed_sums

#: Normal speed (m/s) below which an impact leaves a disc riding the body it hit (the kernel's
#: ``pushing.PUSH_MERGE_SPEED``), and the speed below which a disc is at rest.
PUSH_SPEED = 1e-3
REST_SPEED = 1e-12


class SurfaceModel:
    """A court's surface, materials and features, as the reference's equations and events use them."""

    """The reference integrator for one court (with its surface shape and materials)."""

    def __init__(self, court: Court):
        self.court = court
        self.shape = court.surface_shape
        p = court.params
        self.g = p["gravity"]
        self.mu = p["mu"]
        self.mu_speed = p["mu_speed"]  # the friction law mu + mu_speed |u| at each element of the face
        self.r = court.disc_radius
        self.k = p["inertia_ratio"]
        self.eta = p["contact_inner_ratio"]
        self.coupled = p["spin_model"] == "coupled"
        self.e = p["disc_restitution"]
        self.mu_c = p["disc_friction"]
        self.disc_yield = p["disc_yield_speed"]  # the restitution laws (``physics.contacts.restitution``)
        self.body_yield = {"cushion": p["cushion_yield_speed"], "peg": p["peg_yield_speed"]}
        lever = 2.0 / 3.0 * (1.0 + self.eta + self.eta**2) / (1.0 + self.eta)
        self.spin_decel = lever / self.k * self.mu * self.g / self.r
        ka = kernel_arrays(court)
        self.ka = ka

    # ---- the ground and the equations of motion -----------------------------------------------------
    def surface(self, x: float, y: float) -> tuple[float, float, float]:
        """(ax, ay, m): -g grad h and the friction multiplier, from the court's NumPy description."""
        _, hx, hy = self.shape.heights(np.array([x]), np.array([y]))
        m = self.shape.friction(np.array([x]), np.array([y]))
        return -self.g * float(hx[0]), -self.g * float(hy[0]), float(m[0])

    def free_acceleration(self, x, y, vx, vy, w, spin_sign=None):
        """(ax, ay, dw/dt) of a disc (not riding). ``spin_sign``, the sign of the spin at the start of
        the motion, keeps the decoupled spin's constant decay smooth through zero, where the spin-stop
        event ends the motion (an integrator cannot step over the jump of sign(w))."""
        ax, ay, m = self.surface(x, y)
        v = math.hypot(vx, vy)
        u = self.r * abs(w)
        decel = self.mu * m * self.g
        if self.coupled and u > 0.0:
            eps = v / u
            if v > 0.0:
                f = force(eps, self.eta)
                ax -= decel * f * vx / v
                ay -= decel * f * vy / v
            dw = -math.copysign(decel * torque(eps, self.eta) / (self.k * self.r), w)
        else:
            if v > 0.0:
                ax -= decel * vx / v
                ay -= decel * vy / v
            sign = spin_sign if spin_sign is not None else (0.0 if w == 0.0 else math.copysign(1.0, w))
            dw = -sign * self.spin_decel * m
        if self.mu_speed != 0.0:
            ux, uy, moment = face_speed_sums(vx, vy, w, self.r, self.eta)
            speed_decel = self.mu_speed * m * self.g
            ax -= speed_decel * ux
            ay -= speed_decel * uy
            dw -= speed_decel * moment / (self.k * self.r * self.r)
        return ax, ay, dw

    def spin_stop_time(self, w: float, m: float) -> float:
        """How long a spin w in place lasts (s): its decay d|w|/dt = -(a + b |w|), a the pure-spin rate
        and b the speed law's torque per unit spin (from ``face_speed_sums``), integrated by hand."""
        a = self.spin_decel * m
        if self.mu_speed == 0.0:
            return abs(w) / a
        b = -self.mu_speed * m * self.g * face_speed_sums(0.0, 0.0, -1.0, self.r, self.eta)[2] / (self.k * self.r**2)
        return math.log(1.0 + b * abs(w) / a) / b

    @staticmethod
    def ride_normal(ride, x, y):
        """(nx, ny, kappa) of a ride (kind, a, b, rho): the normal from the body, the curvature term."""
        kind, a, b, rho = ride
        if kind == "line":
            return a, b, 0.0
        dx, dy = x - a, y - b
        d = math.hypot(dx, dy)
        if kind == "outside":
            return dx / d, dy / d, -1.0 / rho
        return -dx / d, -dy / d, 1.0 / rho

    def acceleration(self, x, y, vx, vy, w, ride, spin_sign=None):
        ax, ay, dw = self.free_acceleration(x, y, vx, vy, w, spin_sign)
        if ride is not None:
            nx, ny, kappa = self.ride_normal(ride, x, y)
            push = kappa * (vx * vx + vy * vy) - (ax * nx + ay * ny)
            ax += push * nx
            ay += push * ny
        return ax, ay, dw

    def ride_push(self, x, y, vx, vy, w, ride):
        ax, ay, _ = self.free_acceleration(x, y, vx, vy, w)
        nx, ny, kappa = self.ride_normal(ride, x, y)
        return kappa * (vx * vx + vy * vy) - (ax * nx + ay * ny)

    def moves(self, x, y, vx, vy, w) -> bool:
        if math.hypot(vx, vy) > REST_SPEED:
            return True
        if self.coupled and abs(w) > REST_SPEED:
            ax, ay, _ = self.surface(x, y)
            return ax != 0.0 or ay != 0.0
        return False

    def speed_scale(self, vx, vy, w):
        v2 = vx * vx + vy * vy
        if self.coupled:
            return math.sqrt(v2 + (self.r * w) ** 2)
        return math.sqrt(v2)

    # ---- the features ----------------------------------------------------------------------------------
    def features(self):
        """(kind, index, geometry) of every edge, cushion, peg, hole and kill line, as the kernel indexes them."""
        ka = self.ka
        out = []
        for row in ka.fall_segments:
            out.append(("edge", -1, tuple(row)))
        for row in ka.fall_circles:
            out.append(("edge_circle", -1, tuple(row)))
        for k, row in enumerate(ka.cushion_segments):
            out.append(("cushion", k, tuple(row)))
        for k, row in enumerate(ka.cushion_circles):
            out.append(("cushion_circle", len(ka.cushion_segments) + k, tuple(row)))
        for k, row in enumerate(ka.pegs):
            out.append(("peg", k, tuple(row)))
        for k, row in enumerate(ka.holes):
            out.append(("hole", k, tuple(row)))
        for k, row in enumerate(ka.kill_lines):
            out.append(("kill", k, tuple(row)))
        return out

    def feature_gap(self, feature, x, y, speed, target):
        kind, _, g = feature
        if kind == "edge":
            x0, y0, x1, y1 = g
            length = math.hypot(x1 - x0, y1 - y0)
            return (-(x - x0) * (y1 - y0) + (y - y0) * (x1 - x0)) / length
        if kind == "edge_circle":
            return g[2] - math.hypot(x - g[0], y - g[1])
        if kind == "cushion":
            return _segment_distance(x, y, *g[:4])[0] - target
        if kind == "cushion_circle":
            return target - math.hypot(x - g[0], y - g[1])
        if kind == "peg":
            return math.hypot(x - g[0], y - g[1]) - target
        if kind == "hole":
            return max(math.hypot(x - g[0], y - g[1]) - g[2], speed - g[3])
        return -((x - g[0]) * g[2] + (y - g[1]) * g[3])

    def feature_target(self, feature, x, y, vx, vy):
        """(target, at_once) of a feature for a disc starting at (x, y) with (vx, vy): the kernel's
        contact rules (touching and approaching: at once; touching: an overlap must be pushed)."""
        kind, _, g = feature
        r = self.r
        if kind == "cushion":
            rho = r + g[4]
            d, nx, ny = _segment_distance(x, y, *g[:4])
            if d - rho <= CONTACT_GAP:
                if vx * nx + vy * ny < -APPROACH_TOL:
                    return rho, True
                return min(rho, d) - OVERLAP_SLACK, False
            return rho, False
        if kind == "cushion_circle":
            rho = g[2] - r
            d = math.hypot(x - g[0], y - g[1])
            if d >= rho - CONTACT_GAP:
                if (x - g[0]) * vx + (y - g[1]) * vy > APPROACH_TOL * d:
                    return rho, True
                return max(rho, d) + OVERLAP_SLACK, False
            return rho, False
        if kind == "peg":
            return _outside_target(g[0], g[1], r + g[2], x, y, vx, vy)
        if kind == "edge":
            gap = self.feature_gap(feature, x, y, 0.0, 0.0)
            x0, y0, x1, y1 = g
            outward = -(-vx * (y1 - y0) + vy * (x1 - x0))
            return 0.0, gap <= 0.0 and outward > 0.0
        if kind == "edge_circle":
            gap = self.feature_gap(feature, x, y, 0.0, 0.0)
            return 0.0, gap <= 0.0 and (x - g[0]) * vx + (y - g[1]) * vy > 0.0
        if kind == "hole":
            speed = math.hypot(vx, vy)
            return 0.0, self.feature_gap(feature, x, y, speed, 0.0) <= 0.0
        gap = self.feature_gap(feature, x, y, 0.0, 0.0)
        return 0.0, gap < 0.0 or (gap == 0.0 and vx * g[2] + vy * g[3] > 0.0)

    # ---- a run ---------------------------------------------------------------------------------------
    @staticmethod
    def _ride_ends(feature, ride):
        """Half planes (px, py, nx, ny) whose gaps close where a ride on a straight cushion ends."""
        kind, _, g = feature
        if kind != "cushion":
            return []
        x0, y0, x1, y1 = g[:4]
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        if ride[0] == "line":
            return [(x0, y0, ux, uy), (x1, y1, -ux, -uy)]
        if math.hypot(ride[1] - x0, ride[2] - y0) <= math.hypot(ride[1] - x1, ride[2] - y1):
            return [(x0, y0, -ux, -uy)]
        return [(x1, y1, ux, uy)]

    def _pushed_ride(self, feature, f, s):
        """The ride after an impact on a fixed body (the kernel's rule), with the velocity made tangent."""
        fkind, _, g = feature
        r = self.r
        if fkind == "cushion":
            x0, y0, x1, y1 = g[:4]
            length = math.hypot(x1 - x0, y1 - y0)
            ux, uy = (x1 - x0) / length, (y1 - y0) / length
            along = (s[0] - x0) * ux + (s[1] - y0) * uy
            if along <= 0.0 or along >= length:
                end = (x0, y0) if along <= 0.0 else (x1, y1)
                ride = ("outside", end[0], end[1], r + g[4])
            else:
                _, nx, ny = _segment_distance(s[0], s[1], *g[:4])
                ride = ("line", nx, ny, 0.0)
        elif fkind == "cushion_circle":
            ride = ("inside", g[0], g[1], g[2] - r)
        else:
            ride = ("outside", g[0], g[1], r + g[2])
        nx, ny, _ = self.ride_normal(ride, s[0], s[1])
        normal = s[2] * nx + s[3] * ny
        if normal >= PUSH_SPEED:
            return None, None
        tx, ty = s[2] - normal * nx, s[3] - normal * ny
        if math.hypot(tx, ty) <= REST_SPEED:
            tx = ty = 0.0
        if tx == 0.0 and ty == 0.0 and (not self.coupled or s[4] == 0.0):
            ax, ay, _ = self.surface(s[0], s[1])
            if ax * nx + ay * ny < 0.0:
                s[2] = s[3] = 0.0
                return None, None
            return None, None
        if self.ride_push(s[0], s[1], tx, ty, s[4], ride) > 0.0:
            s[2], s[3] = tx, ty
            return ride, f
        return None, None


def _outside_target(cx, cy, rho, x, y, vx, vy):
    d = math.hypot(x - cx, y - cy)
    if d <= rho + CONTACT_GAP:
        if (x - cx) * vx + (y - cy) * vy < -APPROACH_TOL * d:
            return rho, True
        return min(rho, d) - OVERLAP_SLACK, False
    return rho, False


def _segment_distance(px, py, x0, y0, x1, y1):
    ex, ey = x1 - x0, y1 - y0
    length = math.hypot(ex, ey)
    ux, uy = ex / length, ey / length
    s = min(max((px - x0) * ux + (py - y0) * uy, 0.0), length)
    dx, dy = px - x0 - s * ux, py - y0 - s * uy
    d = math.hypot(dx, dy)
    return (d, dx / d, dy / d) if d > 0.0 else (0.0, -uy, ux)


def _within_edge(g, x, y) -> bool:
    x0, y0, x1, y1 = g
    length = math.hypot(x1 - x0, y1 - y0)
    along = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / length
    return -EDGE_TOL <= along <= length + EDGE_TOL
