"""Brute-force reference for discs on a surface that is not flat (tests only; needs scipy).

The kernel's integrated motion law (``shuffle_sim.physics.laws.integrated``) integrates every body in its own
regularised variable with an unrolled DOP853 and finds events on a bound of the path between steps.
This reference does the same physics the plain way, sharing none of that code:

* the ground from the court's own NumPy description (``SurfaceShape.heights`` and ``friction``: the
  slope and crown in closed form, the maps by ``court.grid_spline``), not the kernel's packed array;
* every moving disc in one system of ordinary differential equations in the time t, integrated by
  scipy's DOP853 (``RTOL`` 1e-13, ``ATOL`` 1e-15) step by step, with the equations of motion written
  out again: in-plane gravity -g grad h, Coulomb friction mu m(x, y) g against the velocity (times
  F(eps), with the torque mu m g r T(eps), in the coupled model; F and T from
  ``physics.face_friction``, whose closed forms ``reference.face_friction`` checks against sums over the
  contact face), or the decoupled model's constant pure-spin decay;
* events found by event functions (positive until the event) sampled at ``SAMPLES`` points of every
  step's dense output beside its two ends, the first sign change located by ``scipy.optimize.brentq``
  on the dense output (a graze that changes no sample's sign is found by minimising the function
  around each sampled local minimum), and the state there reached by integrating again from the step's start to that
  time;
* a disc stops once its speed scale falls below ``Q_STOP`` (1e-7 m/s), finished as a straight stop
  at its present deceleration (the rest is below 1e-12 m and 1e-6 s).

Impacts use the kernel's impulse functions and restitution laws (``physics.contacts``): the collision law is not what is
checked here. The contact rules are the kernel's (``physics.contacts.tolerances``), and so is the ride of a disc
pressed against a cushion or a peg (``physics.laws.integrated.rides``): a model, written out again
here (``surface_model``). Discs moving on as one (``physics.contacts.pushing``) are not modelled:
scenes compared with this reference have none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import DOP853
from scipy.optimize import brentq, minimize_scalar

from shuffle_sim.physics import events
from shuffle_sim.physics.numba_api import (
    APPROACH_TOL,
    CONTACT_GAP,
    OVERLAP_SLACK,
    disc_disc_impulse,
    fixed_body_impulse,
)
from shuffle_sim.reference.surface_model import REST_SPEED, SurfaceModel, _segment_distance, _within_edge

RTOL = 1e-13
ATOL = 1e-15
#: A disc whose speed scale falls below this (m/s) stops (module docstring).
Q_STOP = 1e-7
#: Samples of every event function per step, beside the step's ends.
SAMPLES = 16


@dataclass
class ReferenceEvent:
    t: float
    kind: int
    a: int
    b: int  # a disc, or the index of ``KernelArrays``' cushion (segments, then circles), peg, hole, line


@dataclass
class SurfaceRun:
    """Final state of a reference run, arranged like ``physics.SimResult``."""

    x: np.ndarray
    y: np.ndarray
    omega: np.ndarray
    status: np.ndarray
    dead: np.ndarray
    t_end: float
    events: list[ReferenceEvent] = field(default_factory=list)

    def contacts(self) -> list[ReferenceEvent]:
        return [e for e in self.events if e.kind in (events.DISC_DISC, events.DISC_CUSHION, events.DISC_PEG)]


class SurfaceReference(SurfaceModel):
    """The reference integrator for one court (with its surface shape and materials)."""

    def run(self, x, y, vx, vy, omega, max_events: int = 10_000) -> SurfaceRun:
        """Run discs launched at (x, y) with (vx, vy, omega) at time 0 (arrays) to rest."""
        n = len(x)
        self.state = np.array([x, y, vx, vy, omega], dtype=np.float64).T.copy()  # (n, 5)
        self.status = np.full(n, events.STATUS_REST, dtype=np.int64)
        self.dead = np.zeros(n, bool)
        self.ride: list = [None] * n
        self.ride_body: list = [None] * n
        self.events: list[ReferenceEvent] = []
        features = self.features()
        t = 0.0
        for i in range(n):
            self._settle(i)
        for _ in range(max_events):
            moving = [i for i in range(n) if self.status[i] == events.STATUS_MOVING]
            due = self._due_now(features, moving)
            if due is not None:
                self._apply(features, t, *due)
                continue
            # Spin stops of discs at rest (in closed form).
            spins = [
                (t + self.spin_stop_time(self.state[i, 4], self.surface(*self.state[i, :2])[2]), i)
                for i in range(n)
                if self.status[i] == events.STATUS_REST and self.state[i, 4] != 0.0
            ]
            if not moving:
                if not spins:
                    break
                t, i = min(spins)
                self.events.append(ReferenceEvent(t, events.SPIN_STOP, i, -1))
                self.state[i, 4] = 0.0
                continue
            t = self._integrate(features, t, moving, min(spins)[0] if spins else math.inf)
        else:
            raise RuntimeError("reference: event bound reached")
        t_end = max((e.t for e in self.events), default=0.0)
        return SurfaceRun(
            x=self.state[:, 0].copy(),
            y=self.state[:, 1].copy(),
            omega=self.state[:, 4].copy(),
            status=self.status.copy(),
            dead=self.dead.copy(),
            t_end=t_end,
            events=self.events,
        )

    def _settle(self, i):
        s = self.state[i]
        if math.hypot(s[2], s[3]) <= REST_SPEED:
            s[2] = s[3] = 0.0
        if abs(s[4]) <= REST_SPEED:
            s[4] = 0.0
        if self.status[i] in (events.STATUS_FALLEN, events.STATUS_HOLED):
            return
        self.status[i] = events.STATUS_MOVING if self.moves(*s) else events.STATUS_REST
        if self.status[i] == events.STATUS_REST:
            self.ride[i] = None

    def _targets(self, features, moving):
        """Per moving disc and feature, and per pair, the contact target at the motion's start."""
        n = len(self.state)
        targets = {}
        for i in moving:
            xi, yi, vxi, vyi, _ = self.state[i]
            for f, feature in enumerate(features):
                targets[(i, f)] = self.feature_target(feature, xi, yi, vxi, vyi)
            for j in range(n):
                if (
                    j == i
                    or self.status[j] >= events.STATUS_FALLEN
                    or (self.status[j] == events.STATUS_MOVING and j < i)
                ):
                    continue
                targets[(i, "disc", j)] = self._pair_target(i, j)
        return targets

    def _pair_target(self, i, j):
        a, b = self.state[i], self.state[j]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy)
        rho = 2.0 * self.r
        if d - rho <= CONTACT_GAP:
            if (b[2] - a[2]) * dx + (b[3] - a[3]) * dy < -APPROACH_TOL * d:
                return rho, True
            return min(rho, d) - OVERLAP_SLACK, False
        return rho, False

    def _due_now(self, features, moving):
        """An event due at once at the present state (touching and approaching, and so on)."""
        kills = None
        for i in moving + [i for i in range(len(self.state)) if self.status[i] == events.STATUS_REST]:
            for f, feature in enumerate(features):
                kind = feature[0]
                if self.status[i] != events.STATUS_MOVING and kind not in ("hole", "kill"):
                    continue
                if kind == "kill" and self.dead[i]:
                    continue
                if self.ride_body[i] == f:
                    continue
                xi, yi, vxi, vyi, _ = self.state[i]
                if kind == "hole" and self.status[i] != events.STATUS_MOVING:
                    g = feature[2]
                    if g[3] > 0.0 and math.hypot(xi - g[0], yi - g[1]) <= g[2]:
                        return ("feature", i, f)
                    continue
                _, at_once = self.feature_target(feature, xi, yi, vxi, vyi)
                if at_once:
                    if kind == "kill":
                        kills = kills or ("feature", i, f)
                    else:
                        return ("feature", i, f)
        for i in moving:
            for j in range(len(self.state)):
                if j != i and self.status[j] < events.STATUS_FALLEN and self._pair_target(i, j)[1]:
                    return ("pair", min(i, j), max(i, j))
        return kills

    def _rhs(self, moving):
        signs = [0.0 if self.state[i, 4] == 0.0 else math.copysign(1.0, self.state[i, 4]) for i in moving]

        def f(t, s):
            out = np.empty_like(s)
            for k, i in enumerate(moving):
                x, y, vx, vy, w = s[5 * k : 5 * k + 5]
                ax, ay, dw = self.acceleration(x, y, vx, vy, w, self.ride[i], signs[k])
                out[5 * k : 5 * k + 5] = vx, vy, ax, ay, dw
            return out

        return f

    def _event_functions(self, features, moving, targets):
        """(name, function of the packed state) of every event still to come."""
        fns = []
        n = len(self.state)
        index = {i: k for k, i in enumerate(moving)}

        def pos(s, i):
            if i in index:
                k = index[i]
                return s[5 * k], s[5 * k + 1], s[5 * k + 2], s[5 * k + 3], s[5 * k + 4]
            return tuple(self.state[i])

        for i in moving:
            k = index[i]
            fns.append(
                (("stop", i), lambda s, k=k: self.speed_scale(s[5 * k + 2], s[5 * k + 3], s[5 * k + 4]) - Q_STOP)
            )
            if not self.coupled and self.state[i, 4] != 0.0:
                sign = math.copysign(1.0, self.state[i, 4])
                fns.append((("spin", i), lambda s, k=k, sign=sign: sign * s[5 * k + 4]))
            if self.ride[i] is not None:
                ride = self.ride[i]
                fns.append((("lift", i), lambda s, k=k, ride=ride: self.ride_push(*s[5 * k : 5 * k + 5], ride)))
                if ride[0] == "line" or self.ride_body[i] is not None:
                    for g in self._ride_ends(features[self.ride_body[i]], ride):
                        fns.append(
                            (
                                ("ride_end", i),
                                lambda s, k=k, g=g: (s[5 * k] - g[0]) * g[2] + (s[5 * k + 1] - g[1]) * g[3],
                            )
                        )
            for f, feature in enumerate(features):
                if self.ride_body[i] == f or (feature[0] == "kill" and self.dead[i]):
                    continue
                target, _ = targets[(i, f)]
                fns.append(
                    (
                        ("feature", i, f),
                        lambda s, k=k, feature=feature, target=target: self.feature_gap(
                            feature, s[5 * k], s[5 * k + 1], math.hypot(s[5 * k + 2], s[5 * k + 3]), target
                        ),
                    )
                )
            for j in range(n):
                if (i, "disc", j) not in targets:
                    continue
                target, _ = targets[(i, "disc", j)]
                fns.append(
                    (
                        ("pair", min(i, j), max(i, j)),
                        lambda s, i=i, j=j, target=target: (
                            math.hypot(pos(s, j)[0] - pos(s, i)[0], pos(s, j)[1] - pos(s, i)[1]) - target
                        ),
                    )
                )
        return fns

    def _integrate(self, features, t0, moving, t_limit):
        """Integrate the moving discs from t0 to their first event (or ``t_limit``), apply it, and
        return its time."""
        targets = self._targets(features, moving)
        rhs = self._rhs(moving)
        y0 = np.concatenate([self.state[i] for i in moving])
        solver = DOP853(rhs, t0, y0, t_bound=1e9, rtol=RTOL, atol=ATOL)
        fns = self._event_functions(features, moving, targets)
        while True:
            t_old, y_old = solver.t, solver.y.copy()
            message = solver.step()
            if solver.status == "failed":
                raise RuntimeError(f"reference: the integration failed: {message}")
            dense = solver.dense_output()
            times = np.linspace(t_old, solver.t, SAMPLES + 2)
            states = [y_old] + [dense(t) for t in times[1:-1]] + [solver.y]
            first = None
            for name, fn in fns:
                hit = _first_crossing(fn, dense, times, states)
                if hit is None:
                    continue
                kill = name[0] == "feature" and features[name[2]][0] == "kill"
                if first is None or hit < first[0] or (hit == first[0] and first[2] and not kill):
                    first = (hit, name, kill)
            if first is not None and first[0] > t_limit:
                first = None
            if first is None and solver.t < t_limit:
                continue
            if first is None:
                t_event = t_limit
                name = None
            else:
                t_event, name, _ = first
            # Reach the event by integrating again from the step's start.
            again = DOP853(rhs, t_old, y_old, t_bound=t_event, rtol=RTOL, atol=ATOL)
            while again.status == "running":
                again.step()
            for k, i in enumerate(moving):
                self.state[i] = again.y[5 * k : 5 * k + 5]
            if name is not None:
                self._apply(features, t_event, *name)
            return t_event

    def _apply(self, features, t, kind, a, b=None):
        r = self.r
        if kind == "stop":
            s = self.state[a]
            ax, ay, dw = self.acceleration(*s, self.ride[a])
            q = self.speed_scale(s[2], s[3], s[4])
            u = r * abs(s[4]) if self.coupled else 0.0
            du = r * math.copysign(1.0, s[4]) * dw if (self.coupled and s[4] != 0.0) else 0.0
            rate = -(s[2] * ax + s[3] * ay + u * du) / q
            tau = q / rate if rate > 0.0 else 0.0
            s[0] += 0.5 * s[2] * tau
            s[1] += 0.5 * s[3] * tau
            if self.coupled:
                s[4] = 0.0
            # Decoupled, the spin decays at its constant rate whether the disc slides or not: it is left
            # at its value at t, from which the spin stop is timed.
            s[2] = s[3] = 0.0
            self.ride[a] = self.ride_body[a] = None
            self.events.append(ReferenceEvent(t + tau, events.STOP, a, -1))
            self.status[a] = events.STATUS_REST
            return
        if kind == "spin":
            self.state[a, 4] = 0.0
            self.events.append(ReferenceEvent(t, events.SPIN_STOP, a, -1))
            self._settle(a)
            return
        if kind in ("lift", "ride_end"):
            self.ride[a] = self.ride_body[a] = None
            return
        if kind == "pair":
            sa, sb = self.state[a], self.state[b]
            self.events.append(ReferenceEvent(t, events.DISC_DISC, a, b))
            dx, dy = sb[0] - sa[0], sb[1] - sa[1]
            d = math.hypot(dx, dy)
            new = disc_disc_impulse(
                sa[2], sa[3], sa[4], sb[2], sb[3], sb[4], dx / d, dy / d, r, self.e, self.mu_c, self.k, self.disc_yield
            )
            sa[2:5] = new[:3]
            sb[2:5] = new[3:]
            for i in (a, b):
                self.ride[i] = self.ride_body[i] = None
                self._settle(i)
            return
        feature = features[b]
        fkind, index, g = feature
        s = self.state[a]
        if fkind == "kill":
            self.events.append(ReferenceEvent(t, events.KILLED, a, index))
            self.dead[a] = True
            return
        if fkind in ("edge", "edge_circle"):
            if fkind == "edge" and not _within_edge(g, s[0], s[1]):
                return
            self.events.append(ReferenceEvent(t, events.FALL, a, -1))
            s[2:5] = 0.0
            self.status[a] = events.STATUS_FALLEN
            return
        if fkind == "hole":
            self.events.append(ReferenceEvent(t, events.HOLED, a, index))
            s[0], s[1] = g[0], g[1]
            s[2:5] = 0.0
            self.status[a] = events.STATUS_HOLED
            return
        # A cushion or a peg: the impulse, then perhaps a ride.
        if fkind == "cushion":
            _, nx, ny = _segment_distance(s[0], s[1], *g[:4])
            e, mu_c, kills = g[5], g[6], g[7]
        elif fkind == "cushion_circle":
            d = math.hypot(g[0] - s[0], g[1] - s[1])
            nx, ny = (g[0] - s[0]) / d, (g[1] - s[1]) / d
            e, mu_c, kills = g[3], g[4], g[5]
        else:
            d = math.hypot(s[0] - g[0], s[1] - g[1])
            nx, ny = (s[0] - g[0]) / d, (s[1] - g[1]) / d
            e, mu_c, kills = g[3], g[4], 0.0
        self.events.append(ReferenceEvent(t, events.DISC_PEG if fkind == "peg" else events.DISC_CUSHION, a, index))
        body_yield = self.body_yield["peg" if fkind == "peg" else "cushion"]
        s[2:5] = fixed_body_impulse(s[2], s[3], s[4], nx, ny, r, e, mu_c, self.k, body_yield)
        if kills and not self.dead[a]:
            self.dead[a] = True
            self.events.append(ReferenceEvent(t, events.KILLED, a, -1))
        self.ride[a], self.ride_body[a] = self._pushed_ride(feature, b, s)
        self._settle(a)


def _first_crossing(fn, dense, times, states):
    """The first time of a step at which ``fn`` of the state falls to 0 or below, from its values at
    the step's ends and the points between (``states`` at ``times``), located by brentq on the dense
    output; None if none.

    A graze, a gap that dips below 0 and rises again between two samples, changes no sample's sign:
    wherever the samples have a local minimum (the step's ends included, judged by the gap's slope
    there) the gap is minimised on the dense output between the neighbouring samples, and a dip
    below 0 found so is located too."""
    values = [fn(state) for state in states]
    if values[0] <= 0.0:
        return None  # already closed at the start: not an event of this motion
    last = len(times) - 1
    for k in range(1, last + 1):
        if values[k] <= 0.0:
            if values[k] == 0.0:
                return float(times[k])
            return _locate(fn, dense, times[k - 1], times[k])
        lo = k - 1
        hi = min(k + 1, last)
        if k == last:
            falling = values[k] < values[k - 1] and _slope(fn, dense, times[k], times[k - 1]) > 0.0
        else:
            falling = values[k] <= values[k - 1] and values[k] <= values[k + 1]
        rising_first = k == 1 and values[1] > values[0] and _slope(fn, dense, times[0], times[1]) < 0.0
        if rising_first:
            hi = 1
        if falling or rising_first:
            found = minimize_scalar(
                lambda t: fn(dense(t)), bounds=(times[lo], times[hi]), method="bounded", options={"xatol": 1e-15}
            )
            if found.fun <= 0.0:
                return _locate(fn, dense, times[lo], float(found.x))
    return None


def _slope(fn, dense, t, toward):
    """The slope of ``fn`` along the dense output at ``t``, by a one-sided difference toward ``toward``."""
    h = 1e-7 * (toward - t)
    return (fn(dense(t + h)) - fn(dense(t))) / h


def _locate(fn, dense, t0, t1):
    """The root of ``fn`` on the dense output between t0 (open) and t1 (closed)."""
    if fn(dense(t1)) == 0.0:
        return float(t1)
    return brentq(lambda s: fn(dense(s)), t0, t1, xtol=1e-16, rtol=8.9e-16, maxiter=500)
