"""Closed-form motion of a sliding, spinning disc between events, and the kernel's state layout.

Between events a sliding disc feels only kinetic Coulomb friction with the surface: a constant
deceleration ``a = mu g`` opposite its velocity, independent of mass. It therefore moves on a
straight line, and the distance slid ``tau`` seconds after a reference instant is

    s(tau) = v tau - a tau^2 / 2        until it stops at tau = v / a, after s = v^2 / (2 a).

Spin alone decays at its own constant rate ``alpha = (4/3) mu g / r``: the friction torque of a
uniform disc pressing evenly on its face, (2/3) mu m g r, over the moment of inertia m r^2 / 2 (in
general mu g T(0) / (k r), ``_court_table.decelerations``). In the decoupled model that holds while the disc
slides too. In the coupled model (Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett. 90, 248302,
2003) a disc that slides and spins follows ``coupled``: still a straight line, but s(t), v(t) and
omega(t) come from the dimensionless tables, and both motions end at one instant. A disc without
spin, or without speed, keeps the closed forms here exactly, in both models.

State is a structure of arrays: ``st[ROW, i]`` (float64) and ``ist[ROW, i]`` (int64) with one column
per disc. A disc's motion is stored as a reference state at time ``T0`` (position, direction of
travel, speed, spin) and evaluated lazily, so a disc not involved in an event is never touched and
every prediction made from its reference stays exact.
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.laws.closed_form.coupled import motion_at, start_motion, time_to_reach
from shuffle_sim.physics.state import COMMON_FLOAT_ROWS, COMMON_INT_ROWS, REST_SPEED, T_SPIN

# Rows of the float state ``st`` after the rows every law shares (``physics.state``): the reference
# state at time T0.
PX = COMMON_FLOAT_ROWS  # reference position (m)
PY = COMMON_FLOAT_ROWS + 1
UX = COMMON_FLOAT_ROWS + 2  # unit direction of travel (meaningless at rest)
UY = COMMON_FLOAT_ROWS + 3
SPEED = COMMON_FLOAT_ROWS + 4  # speed at T0 (m/s), 0 at rest
OMEGA = COMMON_FLOAT_ROWS + 5  # spin at T0 (rad/s, counter-clockwise seen from above)
T0 = COMMON_FLOAT_ROWS + 6  # reference time (s)
T_STOP = COMMON_FLOAT_ROWS + 7  # absolute time the disc stops sliding (inf if it never does, T0 at rest)
MODE = COMMON_FLOAT_ROWS + 8  # -1: the closed form (no spin, or the decoupled model); else the ``coupled`` mode
SIGMA0 = COMMON_FLOAT_ROWS + 9  # coupled: sigma at T0 on its orbit
REACH = COMMON_FLOAT_ROWS + 10  # coupled: distance from the reference position to the stop
THETA = COMMON_FLOAT_ROWS + 11  # coupled: time from T0 to the stop
N_FLOAT_ROWS = COMMON_FLOAT_ROWS + 12

# The integer state has the shared rows only (``physics.state``): every disc is its own body.
N_INT_ROWS = COMMON_INT_ROWS


@jit.no_refcount
def travelled(speed, decel, tau):
    """Distance slid ``tau`` seconds after a reference speed ``speed``: v tau - a tau^2/2, held at the stop."""
    if decel <= 0.0:
        return speed * tau
    if decel * tau >= speed:  # past the stop at tau = v / a
        return speed * speed / (2.0 * decel)
    return tau * (speed - 0.5 * decel * tau)


@jit.no_refcount
def time_to_slide(speed, decel, s):
    """Time to slide a distance ``s`` (at most the stopping distance) from speed ``speed``.

    The smaller root of a t^2/2 - v t + s = 0, written as 2 s / (v + sqrt(v^2 - 2 a s)), which is
    exact to rounding for every s including s = 0 and the stopping distance (where it gives v / a).
    """
    if s <= 0.0:
        return 0.0
    disc = speed * speed - 2.0 * decel * s
    disc = max(disc, 0.0)
    return 2.0 * s / (speed + math.sqrt(disc))


@jit.kernel
def speed_for_distance(distance, decel):
    """The launch speed that slides exactly ``distance`` before it stops at deceleration ``decel``
    (mu g without spin): sqrt(2 a d), the inverse of ``stopping_distance``."""
    return math.sqrt(2.0 * decel * distance)


@jit.no_refcount
def stopping_distance(speed, decel):
    """v^2 / (2 a); infinite without friction."""
    if decel <= 0.0:
        return math.inf if speed > 0.0 else 0.0
    return speed * speed / (2.0 * decel)


@jit.no_refcount
def spin_after(omega, spin_decel, tau):
    """Spin ``tau`` seconds after a reference spin ``omega``, decaying at ``spin_decel`` to zero."""
    drop = spin_decel * tau
    if omega > 0.0:
        return omega - drop if omega > drop else 0.0
    return omega + drop if -omega > drop else 0.0


@jit.no_refcount
def position_at(st, i, t, decel):
    """Centre of disc ``i`` at absolute time ``t`` (>= its reference time)."""
    s = travelled(st[SPEED, i], decel, t - st[T0, i])
    return st[PX, i] + st[UX, i] * s, st[PY, i] + st[UY, i] * s


@jit.no_refcount
def speed_at(st, i, t, decel):
    """Speed of disc ``i`` at absolute time ``t``."""
    v = st[SPEED, i] - decel * (t - st[T0, i])
    return max(0.0, v)


@jit.inline
def reference_state(t, x, y, vx, vy, omega, decel, spin_decel):
    """A reference state at time ``t`` from a position, velocity and spin, in scalars.

    Returns (ux, uy, speed, omega, t_stop, t_spin): the unit direction of travel (0, 0 at rest), the
    speed and spin with values below ``REST_SPEED`` set to exactly zero, and the absolute times the
    disc stops sliding (``t`` at rest) and stops spinning (inf if it does not spin). The disc slides
    if ``speed`` > 0. ``set_motion`` stores this (through ``start_reference``) in the state arrays;
    the lone-disc loop (``lone``) keeps it in locals.
    """
    # At rest (a stop, a fall) the square root is skipped: it would give exactly 0.
    speed = math.sqrt(vx * vx + vy * vy) if vx != 0.0 or vy != 0.0 else 0.0
    if speed <= REST_SPEED:
        speed = 0.0
        ux = 0.0
        uy = 0.0
        t_stop = t
    else:
        ux = vx / speed
        uy = vy / speed
        t_stop = t + speed / decel if decel > 0.0 else math.inf
    if abs(omega) <= REST_SPEED:
        omega = 0.0
    if omega == 0.0:
        t_spin = math.inf
    else:
        t_spin = t + abs(omega) / spin_decel if spin_decel > 0.0 else math.inf
    return ux, uy, speed, omega, t_stop, t_spin


@jit.inline
def start_reference(orbit_tables, radius, t, x, y, vx, vy, omega, decel, spin_decel):
    """``reference_state`` for either model: ``orbit_tables`` holds the coupled model's packed tables
    (``_coupled.coupled_tables``), or no rows for the decoupled model.

    Returns (ux, uy, speed, omega, t_stop, t_spin, mode, sigma0, reach, theta): ``mode`` -1 for the
    closed forms; a disc that slides and spins in the coupled model gets its coupled mode, sigma0,
    stop distance ``reach`` and time to the stop ``theta``, with t_stop = t + theta and no separate
    spin stop (t_spin inf): both motions end at the stop.
    """
    ux, uy, speed, omega, t_stop, t_spin = reference_state(t, x, y, vx, vy, omega, decel, spin_decel)
    if orbit_tables.shape[0] == 0 or speed == 0.0 or omega == 0.0 or decel <= 0.0:
        return ux, uy, speed, omega, t_stop, t_spin, -1, 0.0, 0.0, 0.0
    mode, sigma0, theta, reach = start_motion(orbit_tables, speed, radius * abs(omega), decel)
    return ux, uy, speed, omega, t + theta, math.inf, mode, sigma0, reach, theta


@jit.inline
def motion_after(orbit_tables, radius, mode, sigma0, reach, theta, speed, omega, decel, spin_decel, tau):
    """(distance slid, speed, spin) ``tau`` >= 0 seconds after a reference state (``start_reference``)."""
    if mode < 0:
        return (
            travelled(speed, decel, tau) if speed != 0.0 else 0.0,
            max(0.0, speed - decel * tau) if speed != 0.0 else 0.0,
            spin_after(omega, spin_decel, tau),
        )
    s, v, rim = motion_at(orbit_tables, mode, sigma0, theta, reach, speed, radius * abs(omega), decel, tau)
    return s, v, math.copysign(rim / radius, omega)


@jit.inline
def time_for_distance(orbit_tables, radius, mode, sigma0, reach, theta, speed, omega, decel, s):
    """Time after the reference at which the disc has slid ``s`` (at most its stop distance)."""
    if mode < 0:
        return time_to_slide(speed, decel, s)
    return time_to_reach(orbit_tables, mode, sigma0, theta, reach, speed, radius * abs(omega), decel, s)


@jit.no_refcount
def set_motion(orbit_tables, radius, st, i, t, x, y, vx, vy, omega, decel, spin_decel):
    """Give disc ``i`` a new reference state at time ``t`` (``start_reference``), in either model;
    returns True if it slides. The caller sets the status."""
    ux, uy, speed, omega, t_stop, t_spin, mode, sigma0, reach, theta = start_reference(
        orbit_tables, radius, t, x, y, vx, vy, omega, decel, spin_decel
    )
    st[PX, i] = x
    st[PY, i] = y
    st[T0, i] = t
    st[UX, i] = ux
    st[UY, i] = uy
    st[SPEED, i] = speed
    st[T_STOP, i] = t_stop
    st[OMEGA, i] = omega
    st[T_SPIN, i] = t_spin
    st[MODE, i] = mode
    st[SIGMA0, i] = sigma0
    st[REACH, i] = reach
    st[THETA, i] = theta
    return speed > 0.0


@jit.inline
def disc_motion(orbit_tables, radius, st, i, t, decel, spin_decel):
    """(distance slid since T0, speed, spin) of disc ``i`` at absolute time ``t``."""
    return motion_after(
        orbit_tables,
        radius,
        int(st[MODE, i]),
        st[SIGMA0, i],
        st[REACH, i],
        st[THETA, i],
        st[SPEED, i],
        st[OMEGA, i],
        decel,
        spin_decel,
        t - st[T0, i],
    )


@jit.inline
def coupled_disc_motion(orbit_tables, radius, st, i, t, decel):
    """(distance slid since T0, speed, spin) at time ``t`` of disc ``i`` in the coupled motion."""
    omega = st[OMEGA, i]
    s, v, rim = motion_at(
        orbit_tables,
        int(st[MODE, i]),
        st[SIGMA0, i],
        st[THETA, i],
        st[REACH, i],
        st[SPEED, i],
        radius * abs(omega),
        decel,
        t - st[T0, i],
    )
    return s, v, math.copysign(rim / radius, omega)


@jit.no_refcount
def disc_motion_call(orbit_tables, radius, st, i, t, decel, spin_decel):
    """``disc_motion`` as a call, for the coupled predictions: one compiled copy instead of one
    inlined copy per call site (shorter first compilation)."""
    return disc_motion(orbit_tables, radius, st, i, t, decel, spin_decel)
