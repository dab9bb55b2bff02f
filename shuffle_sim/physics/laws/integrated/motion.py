"""The motion of a disc on a surface that is not a plane: its equations, integrated exactly enough.

On a graded, crowned or mapped court (``surface``) a sliding disc feels, per unit mass, the in-plane
gravity a(x, y) = -g grad h and kinetic friction mu m(x, y) g against its velocity (times F(eps) in
the coupled model while it spins, with the torque mu m g r T(eps) against its spin; decoupled, the
spin decays at the constant pure-spin rate times m). The path curves, and nothing is closed-form
in general, so the motion is integrated:

* **Independent variable.** Not the time: the stop is singular (the direction of travel turns ever
  faster as the speed falls: d(phi)/dt ~ g s sin(phi) / v), so every derivative of the motion in t
  grows like 1/(time left)^n and a step in t can never exceed a fraction of the time left. The
  equations are integrated in sigma with dt = q d(sigma), q the speed scale (the speed, or
  sqrt(v^2 + (r omega)^2) while coupled spin lasts): a Sundman transformation, which sends the stop
  to sigma = infinity, where every component converges exponentially (shuffle_sim/reference/
  face_friction.py integrates its brute-force reference in lambda = -ln(r omega) for the same reason).
  The state is (x, y, vx, vy, omega, t); t is one of its components.
* **Method.** Dormand-Prince 8(5,3) (``dop853``, unrolled in ``step``) with error control,
  relative and absolute on every component, at the ground's tolerance (``surface.TOLERANCE_SMOOTH``,
  tighter with maps and while coupled spin lasts: ``surface.motion_tolerance``): the answer does not
  depend on any user step. Measured against a scipy DOP853 reference at 1e-13
  (``shuffle_sim/reference/surface_motion.py``), rest positions agree to a few 1e-9 m (at worst a
  few 1e-8 m) and stop times to 1e-9 relative, under the 1e-7 the kernel promises. Against the
  alternative of integrating in t and
  finishing the last stretch in closed form: in t, a deck draw on a court with a 1-in-1000 drift and
  a 1/32 in crown took 50 steps plus 30 rejected ones at equal accuracy, against 18 in sigma.
* **The end.** Once the slide left is so short that the ground is uniform along it to within
  ``FINISH_ERROR`` (``may_finish``), a disc without coupled spin ends in closed form: the
  classical hodograph of a body sliding on a uniform rough incline (``hodograph_rest``). With coupled
  spin the integration goes on until q < ``Q_END`` and the rest (under 1e-15 m) is a straight stop.
* **Riding.** A disc pressed against a cushion or a peg by the grade would bounce ever more often
  and ever less (a Zeno sequence). Once its normal approach is slow (``PUSH_MERGE_SPEED``) and the
  ground pushes it into the body, it rides the body instead: its centre keeps its distance, the
  body's normal force takes the normal part of the acceleration (and the centripetal part on a
  circle), until that force would pull (lift-off), the contact runs off a segment's end, or it stops
  (``derivatives``' ``ride``). No contact friction acts while riding (the impulse model has none
  for sustained contact), as for discs moving on as one (``kernel``).

Spin changes sign only through an event: the sign of omega is fixed for a motion (``c``'s
``sign_w``), so that the decoupled spin's constant decay is smooth until it reaches zero, which the
event search finds (``SPIN_STOP``).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.court.friction_law import slide_to_rest
from shuffle_sim.physics.face_friction import force, force_ratio, torque
from shuffle_sim.physics.tables.surface import (
    G_ACCEL_BOUND,
    G_FRICTION_BOUND,
    G_FRICTION_GRADIENT,
    G_HESSIAN_BOUND,
    surface_at,
)

#: Step-size control: safety factor and bounds on the change of step (Hairer's dop853 defaults).
SAFETY = 0.9
GROW_MAX = 10.0
SHRINK_MIN = 0.2
#: The first step of a motion, as a fraction of the e-folding of its speed (1 / (mu g) in sigma).
FIRST_STEP = 0.2
#: Rejected steps allowed in a row before a motion gives up (never seen; a bound, not a tolerance).
MAX_REJECTS = 60
#: A coupled motion is finished as a straight stop once its speed scale q is below this (m/s): the
#: distance left is below 1e-15 m and the time left below 1e-7 s.
Q_END = 1e-8
#: The closed-form end of a slide without spin may err by at most this (m) from the ground's variation
#: along the slide left (``may_finish``).
FINISH_ERROR = 1e-12

# The ride of a motion: (kind, a, b, rho, ox, oy): on no body; on a straight cushion with (a, b) the
# unit normal from the cushion to the disc and the centre kept on the line p . (a, b) = rho; or on a
# circle of centre (a, b) and radius rho (the centre's distance from it) seen from outside (a peg) or
# inside (a round cushion); (ox, oy) is the offset of the touching disc from the body's reference
# disc (a group, ``loop_steps``).
RIDE_NONE = 0
RIDE_LINE = 1
RIDE_OUTSIDE = 2
RIDE_INSIDE = 3
NO_RIDE = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@jit.kernel
def ride_normal(ride, x, y):
    """(nx, ny, kappa): the unit normal from the ridden body to the disc at the body's reference
    point (x, y), and the normal acceleration the path's curvature needs per unit speed squared."""
    kind = ride[0]
    if kind == RIDE_LINE:
        return ride[1], ride[2], 0.0
    dx = x + ride[4] - ride[1]
    dy = y + ride[5] - ride[2]
    d = math.sqrt(dx * dx + dy * dy)
    if kind == RIDE_OUTSIDE:
        return dx / d, dy / d, -1.0 / ride[3]
    return -dx / d, -dy / d, 1.0 / ride[3]


@jit.no_refcount
def derivatives(surface, c, members, ride, x, y, vx, vy, w):
    """d(x, y, vx, vy, omega, t)/d(sigma) of a body on the ground (module docstring). Compiled once
    and called from every stage of a step (``step``, ``dense``) and the event searches; it allocates
    nothing, so it runs without numba's reference counting.

    ``c`` = (mu g, decoupled spin deceleration, radius, eta, inertia ratio k, coupled 1/0, sign of
    omega, error tolerance, the speed law's g mu_speed and its spin decay per unit spin
    (``court_table.speed_decelerations``)); ``members`` (M, 2) the offsets of a group's discs from
    (x, y), none for a lone disc (the group feels the mean gravity and friction of its discs);
    ``ride`` the ridden body (``RIDE_*``).
    """
    decel = c[0]
    if members.shape[0] == 0:
        ax, ay, m = surface_at(surface, x, y)
    else:
        ax, ay, m = group_surface(surface, members, x, y)
    v = math.sqrt(vx * vx + vy * vy)
    u = c[2] * abs(w) if c[5] != 0.0 else 0.0
    if u > 0.0:
        q = math.sqrt(v * v + u * u)
        eps = v / u
        # The friction per unit of velocity, times q: F / v, written to stay finite as v or u vanish.
        if eps <= 1.0:
            per_v = decel * m * force_ratio(eps, c[3]) * (q / u)
        else:
            per_v = decel * m * force(eps, c[3]) * (q / v)
        # Against the spin: as u vanishes under a slide, T ~ u / (4 eps) goes smoothly through zero.
        dw = -q * math.copysign(decel * m * torque(eps, c[3]) / (c[4] * c[2]), w)
    else:
        q = v
        per_v = decel * m
        dw = -q * c[6] * c[1] * m
    if c[8] != 0.0:
        # The friction law's speed term, linear in each element's sliding velocity: its force and
        # torque over the face in closed form (``court_table.speed_decelerations``).
        per_v += q * c[8] * m
        dw -= q * c[9] * m * w
    dvx = q * ax - per_v * vx
    dvy = q * ay - per_v * vy
    if ride[0] != RIDE_NONE:
        # The body's normal force: what keeps the centre on its path, n (kappa v^2 - a . n) per unit mass.
        nx, ny, kappa = ride_normal(ride, x, y)
        push = kappa * v * v * q - (dvx * nx + dvy * ny)
        dvx += push * nx
        dvy += push * ny
    return q * vx, q * vy, dvx, dvy, dw, q


@jit.no_refcount
def group_surface(surface, members, x, y):
    """The mean in-plane gravity and friction multiplier of a group's discs, at offsets ``members``
    from (x, y)."""
    ax = 0.0
    ay = 0.0
    m = 0.0
    for k in range(members.shape[0]):
        gx, gy, gm = surface_at(surface, x + members[k, 0], y + members[k, 1])
        ax += gx
        ay += gy
        m += gm
    share = 1.0 / members.shape[0]
    return ax * share, ay * share, m * share


@jit.no_refcount
def ride_force(surface, c, members, ride, x, y, vx, vy, w):
    """The ridden body's normal force per unit mass (m/s^2): positive while it pushes; the ride ends
    where it falls to zero. (A moving body: q > 0.)"""
    _, _, dvx, dvy, _, q = derivatives(surface, c, members, NO_RIDE, x, y, vx, vy, w)
    nx, ny, kappa = ride_normal(ride, x, y)
    return kappa * (vx * vx + vy * vy) - (dvx * nx + dvy * ny) / q


@jit.kernel
def onto_ride(ride, x, y, vx, vy):
    """(x, y, vx, vy) put back exactly on the ride's path, the normal velocity removed: the
    integration keeps the constraint only to its tolerance, and a rider must neither sink into its
    body nor drift off it."""
    kind = ride[0]
    if kind == RIDE_NONE:
        return x, y, vx, vy
    nx, ny, _ = ride_normal(ride, x, y)
    if kind == RIDE_LINE:
        off = ride[3] - (x * nx + y * ny)
    else:
        dx = x + ride[4] - ride[1]
        dy = y + ride[5] - ride[2]
        d = math.sqrt(dx * dx + dy * dy)
        off = ride[3] - d if kind == RIDE_OUTSIDE else d - ride[3]
    normal = vx * nx + vy * ny
    return x + off * nx, y + off * ny, vx - normal * nx, vy - normal * ny


@jit.kernel
def error_norm(c, h, y, n, e5, e3):
    """The step's error over its tolerance ``c[7]`` (below 1: accepted), as Hairer's dop853 combines
    its 5th- and 3rd-order estimates: |h| E5^2 / sqrt((E5^2 + 0.01 E3^2) n), each component scaled by
    the tolerance, relative and absolute."""
    s5 = 0.0
    s3 = 0.0
    tolerance = c[7]
    for k in range(6):
        scale = tolerance * (1.0 + max(abs(y[k]), abs(n[k])))
        s5 += (e5[k] / scale) ** 2
        s3 += (e3[k] / scale) ** 2
    if s5 == 0.0:
        return 0.0
    return abs(h) * s5 / math.sqrt((s5 + 0.01 * s3) * 6.0)


@jit.kernel
def next_step(h, err):
    """The next step after one of size h with error norm ``err`` (accepted or not)."""
    if err == 0.0:
        return h * GROW_MAX
    factor = SAFETY * err ** (-1.0 / 8.0)
    return h * min(GROW_MAX, max(SHRINK_MIN, factor))


@jit.kernel
def interpolate(d0, d1, d2, d3, d4, d5, d6, y, theta):
    """The dense output's value at the fraction ``theta`` of a step, from the step's start value y and
    the interpolant's seven coefficients (Hairer's ``contd8``, in Horner form)."""
    r = 1.0 - theta
    v = d6
    v = v * theta + d5
    v = v * r + d4
    v = v * theta + d3
    v = v * r + d2
    v = v * theta + d1
    v = v * r + d0
    return v * theta + y


@jit.kernel
def dense_component(out, k, y, theta):
    """One component of a step's dense output ``out[:7]`` (``dense``), at the fraction ``theta`` of it."""
    return interpolate(out[0, k], out[1, k], out[2, k], out[3, k], out[4, k], out[5, k], out[6, k], y, theta)


@jit.kernel
def spin_stop_fraction(out, w, sign, lo):
    """Where in (lo, 1] of a step (dense output ``out[:7]``, spin w at its start) a decoupled spin of
    the sign ``sign`` reaches zero: bisection to the last representable fraction (the sign is fixed
    for the motion, so it crosses zero once)."""
    a = lo
    e = 1.0
    for _ in range(200):
        if e - a <= 2.0e-16:
            break
        m = 0.5 * (a + e)
        if dense_component(out, np.int64(4), w, m) * sign > 0.0:
            a = m
        else:
            e = m
    return e


@jit.kernel
def speed_scale(c, vx, vy, w):
    """q: the speed, or sqrt(v^2 + (r omega)^2) while coupled spin lasts."""
    v2 = vx * vx + vy * vy
    if c[5] != 0.0:
        u = c[2] * w
        return math.sqrt(v2 + u * u)
    return math.sqrt(v2)


@jit.no_refcount
def hodograph_rest(ax, ay, friction, speed_friction, vx, vy):
    """The rest of a slide without spin on uniform ground, in closed form: (time left, dx, dy).

    A body sliding at v on a uniform incline of in-plane gravity a (|a| < the friction deceleration
    f) with kinetic friction f against its velocity: with phi the angle between the velocity and
    the downhill a, z = tan(phi / 2) and k = f / |a| > 1, the speed is v = (C / 2) z^(k-1) (1 + z^2)
    and dt = -(C / (2 |a|)) z^(k-2) (1 + z^2) dz (the classical hodograph of a particle on a rough
    inclined plane). Integrated from z to 0 (the stop, moving straight downhill), per |a|:

        time left     v / (1 + z^2) (1 / (k - 1) + z^2 / (k + 1))
        downhill      v^2 / (1 + z^2)^2 (1 / (2k - 2) - z^4 / (2k + 2))
        across        2 v^2 z / (1 + z^2)^2 (1 / (2k - 1) + z^2 / (2k + 1))

    (across: toward the side of the downhill line the velocity points to). Large z (moving uphill)
    is evaluated in 1 / z. Without a grade it is the straight stop v / f, v^2 / (2 f), or under a
    friction law of speed f + ``speed_friction`` v (which has a closed form only without a grade)
    ``friction_law.slide_to_rest``'s.
    """
    v = math.sqrt(vx * vx + vy * vy)
    s = math.sqrt(ax * ax + ay * ay)
    if v == 0.0:
        return 0.0, 0.0, 0.0
    if s == 0.0:
        if speed_friction != 0.0:
            tau, reach = slide_to_rest(v, friction, speed_friction)
            return tau, reach * vx / v, reach * vy / v
        tau = v / friction
        return tau, 0.5 * vx * tau, 0.5 * vy * tau
    k = friction / s
    gx = ax / s
    gy = ay / s
    ux = vx / v
    uy = vy / v
    cos_phi = ux * gx + uy * gy
    # The across direction: the part of the velocity's direction normal to the downhill.
    px = ux - cos_phi * gx
    py = uy - cos_phi * gy
    sin_phi = math.sqrt(px * px + py * py)
    if sin_phi > 0.0:
        px /= sin_phi
        py /= sin_phi
    if cos_phi >= 0.0:
        z = sin_phi / (1.0 + cos_phi)
        z2 = z * z
        d = 1.0 + z2
        tau = v / (s * d) * (1.0 / (k - 1.0) + z2 / (k + 1.0))
        down = v * v / (s * d * d) * (1.0 / (2.0 * k - 2.0) - z2 * z2 / (2.0 * k + 2.0))
        across = 2.0 * v * v * z / (s * d * d) * (1.0 / (2.0 * k - 1.0) + z2 / (2.0 * k + 1.0))
    else:
        # In y = 1 / z = (1 - cos phi) / sin phi, exact as phi nears pi.
        y = sin_phi / (1.0 - cos_phi)
        y2 = y * y
        d = 1.0 + y2
        tau = v / (s * d) * (y2 / (k - 1.0) + 1.0 / (k + 1.0))
        down = v * v / (s * d * d) * (y2 * y2 / (2.0 * k - 2.0) - 1.0 / (2.0 * k + 2.0))
        across = 2.0 * v * v * y / (s * d * d) * (y2 / (2.0 * k - 1.0) + 1.0 / (2.0 * k + 1.0))
    return tau, down * gx + across * px, down * gy + across * py


@jit.kernel
def closed_end(surface, c, m, ax, ay, speed):
    """Whether a slide without coupled spin at ``speed`` on ground of in-plane gravity (ax, ay) and
    friction multiplier m there may end in closed form (``hodograph_rest``; ``may_finish``), and the
    least deceleration it has left (m/s^2). Under a friction law of speed only on ground without a
    grade: its deceleration then lies between m (c + k v) at the speed and m c at rest."""
    friction = c[0] * m
    net = friction - math.sqrt(ax * ax + ay * ay)
    if c[8] == 0.0:
        return may_finish(surface, c[0], speed, net), net
    if ax != 0.0 or ay != 0.0:
        return False, net
    net = m * (c[0] + min(c[8], 0.0) * speed)
    return may_finish(surface, c[0] + max(c[8], 0.0) * speed, speed, net), net


@jit.kernel
def spin_after(w, sign, rate, speed_rate, tau):
    """A decoupled spin w of the sign ``sign`` after ``tau`` of its decay d|w|/dt = -(rate + speed_rate
    |w|) (the pure-spin rate, and the speed law's per unit spin): 0 once it has stopped."""
    if speed_rate == 0.0:
        w -= sign * rate * tau
    else:
        w = sign * ((abs(w) + rate / speed_rate) * math.exp(-speed_rate * tau) - rate / speed_rate)
    return 0.0 if w * sign <= 0.0 else w


@jit.kernel
def spin_stop_time(w, rate, speed_rate):
    """How long a decoupled spin w lasts under d|w|/dt = -(rate + speed_rate |w|) (s)."""
    return slide_to_rest(abs(w), rate, speed_rate)[0]


@jit.kernel
def may_finish(surface, decel, speed, net_decel):
    """Whether a slide of ``speed`` that decelerates at no less than ``net_decel`` may end in closed
    form: the ground's variation along the slide left, (|grad a| + mu g |grad m|) L, acting over the
    time left tau, moves the rest by at most that times tau^2 / 2 with L = v tau / 2, tau = v / net.
    """
    if net_decel <= 0.0:
        return False
    tau = speed / net_decel
    variation = surface[G_HESSIAN_BOUND] + decel * surface[G_FRICTION_GRADIENT]
    return variation * speed * tau * tau * tau <= 4.0 * FINISH_ERROR


@jit.kernel
def max_acceleration(surface, decel, speed_decel, energy):
    """An upper bound of |d^2 p / dt^2| of any disc on this ground (m/s^2): the grade's bound plus
    the friction's (``surface``). Under a friction law rising with speed (``speed_decel`` > 0) the
    friction's bound grows with the fastest speed a disc can reach: no faster than all the scene's
    kinetic energy per unit mass, ``energy`` (v^2 + k r^2 omega^2 summed over its discs), and what
    each disc can gain descending the ground, in one disc (impacts and friction only take energy)."""
    if speed_decel <= 0.0:
        return surface[G_ACCEL_BOUND] + decel * surface[G_FRICTION_BOUND]
    fastest = math.sqrt(energy)
    return surface[G_ACCEL_BOUND] + (decel + speed_decel * fastest) * surface[G_FRICTION_BOUND]
