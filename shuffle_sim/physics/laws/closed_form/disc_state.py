"""A disc's state in the kernel's arrays: placing it, reading its position and motion at a time,
and starting a new motion after an event (numba, no Python inside).

The state is a structure of arrays (``slide`` has the rows); a disc's motion is a reference state
evaluated lazily, in closed form or along the coupled tables (``orbit_tables``, no rows for the decoupled
model).
"""

from __future__ import annotations

import math

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import STATUS_MOVING, STATUS_REST
from shuffle_sim.physics.laws.closed_form.slide import (
    MODE,
    OMEGA,
    PX,
    PY,
    T0,
    UX,
    UY,
    coupled_disc_motion,
    position_at,
    set_motion,
    speed_at,
    spin_after,
)
from shuffle_sim.physics.state import (
    DEAD,
    KILL_B,
    LEADER,
    MOVED,
    NEXT_B,
    NEXT_DISC,
    NEXT_KIND,
    STATUS,
    T_KILL,
    T_NEXT,
    TOUCHED,
)
from shuffle_sim.physics.tables.court_table import H_DECEL, H_RADIUS, H_SPIN_DECEL, decelerations


@jit.no_refcount
def place(orbit_tables, radius, st, ist, i, x, y, vx, vy, omega, decel, spin_decel):
    moving = set_motion(orbit_tables, radius, st, i, 0.0, x, y, vx, vy, omega, decel, spin_decel)
    ist[STATUS, i] = STATUS_MOVING if moving else STATUS_REST
    ist[DEAD, i] = 0
    ist[TOUCHED, i] = 0
    ist[MOVED, i] = 0
    st[T_NEXT, i] = math.inf
    st[T_KILL, i] = math.inf
    ist[NEXT_KIND, i] = -1
    ist[NEXT_B, i] = -1
    ist[KILL_B, i] = -1
    ist[LEADER, i] = i  # every disc is its own body in this law
    ist[NEXT_DISC, i] = i


@jit.no_refcount
def place_disc(table, orbit_tables, st, ist, i, x, y, vx, vy, omega):
    """Put disc ``i`` at (x, y) with its launch velocity and spin at time 0, alive. ``orbit_tables`` is the
    coupled model's packed tables (``_coupled.coupled_tables``), or no rows for the decoupled model."""
    place(orbit_tables, table[0, H_RADIUS], st, ist, i, x, y, vx, vy, omega, table[0, H_DECEL], table[0, H_SPIN_DECEL])


@jit.no_refcount
def kinematics(orbit_tables, radius, st, ist, i, t, decel, spin_decel):
    """(x, y, vx, vy, omega) of disc ``i`` at time ``t`` (>= the time of its last event)."""
    if st[MODE, i] < 0:
        x, y = position_at(st, i, t, decel)
        speed = speed_at(st, i, t, decel) if ist[STATUS, i] == STATUS_MOVING else 0.0
        return x, y, st[UX, i] * speed, st[UY, i] * speed, spin_after(st[OMEGA, i], spin_decel, t - st[T0, i])
    s, speed, w = coupled_disc_motion(orbit_tables, radius, st, i, t, decel)
    if ist[STATUS, i] != STATUS_MOVING:
        speed = 0.0
    return st[PX, i] + st[UX, i] * s, st[PY, i] + st[UY, i] * s, st[UX, i] * speed, st[UY, i] * speed, w


@jit.no_refcount
def state_at(table, orbit_tables, st, ist, i, t):
    """(x, y, vx, vy, omega) of disc ``i`` at time ``t`` (>= the time of its last event)."""
    return kinematics(orbit_tables, table[0, H_RADIUS], st, ist, i, t, table[0, H_DECEL], table[0, H_SPIN_DECEL])


@jit.no_refcount
def load_disc(ka, st, ist, i, x, y, vx, vy, omega):
    """``place_disc`` for a court given as ``KernelArrays``."""
    decel, spin_decel = decelerations(ka.mu, ka.gravity, ka.disc_radius, ka.contact_inner_ratio, ka.inertia_ratio)
    place(ka.orbit_tables, ka.disc_radius, st, ist, i, x, y, vx, vy, omega, decel, spin_decel)


@jit.no_refcount
def disc_state(ka, st, ist, i, t):
    """``state_at`` for a court given as ``KernelArrays``."""
    decel, spin_decel = decelerations(ka.mu, ka.gravity, ka.disc_radius, ka.contact_inner_ratio, ka.inertia_ratio)
    return kinematics(ka.orbit_tables, ka.disc_radius, st, ist, i, t, decel, spin_decel)


@jit.no_refcount
def restart(orbit_tables, radius, st, ist, i, t, x, y, vx, vy, w, decel, spin_decel):
    """New motion for disc i from time t (after an impulse or a stop)."""
    moving = set_motion(orbit_tables, radius, st, i, t, x, y, vx, vy, w, decel, spin_decel)
    ist[STATUS, i] = STATUS_MOVING if moving else STATUS_REST
