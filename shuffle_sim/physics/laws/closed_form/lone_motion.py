"""A lone disc's slide and spin on a flat court, from any start, at any time: the kernel's motion
between events, for plots, teaching and checks.

``slide_and_spin`` starts the motion the kernel gives a disc launched at ``speed`` with spin
``omega`` and nothing in its way: the closed form without spin, and in the coupled model (Farkas,
Bartels, Unger and Wolf, Phys. Rev. Lett. 90, 248302, 2003) the exact motion along the tabulated
orbits, in which both motions end at one instant with v / (r omega) at ``terminal_ratio``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim.physics.face_friction import terminal_ratio as _terminal_ratio
from shuffle_sim.physics.laws.closed_form.slide import motion_after, start_reference
from shuffle_sim.physics.tables.court_table import decelerations
from shuffle_sim.physics.tables.orbit_tables import coupled_tables


def terminal_ratio(contact_inner_ratio: float = 0.0, inertia_ratio: float = 0.5) -> float:
    """The ratio eps* = v / (r omega) that a sliding, spinning disc tends to as it stops (0.653 for a
    uniform disc pressing on its whole face)."""
    return float(_terminal_ratio(contact_inner_ratio, inertia_ratio))


@dataclass(frozen=True)
class SlideSpin:
    """The motion of a lone disc from its launch to its stop (SI units).

    ``stop_time`` (s) and ``stop_distance`` (m) are when and how far it stops sliding; ``at(times)``
    gives the distance slid, the speed and the spin at each time. Spin that outlasts the slide (the
    decoupled closed form) decays on after ``stop_time``.
    """

    speed: float
    omega: float
    radius: float
    decel: float
    stop_time: float
    stop_distance: float
    _reference: tuple
    _orbits: np.ndarray
    _spin_decel: float

    def at(self, times) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(distance slid, speed, spin) at each of ``times`` (seconds after the launch)."""
        _ux, _uy, speed, omega, _t_stop, _t_spin, mode, sigma0, reach, theta = self._reference
        times = np.asarray(times, dtype=float)
        out = np.empty((3, times.size))
        for k, t in enumerate(times.ravel()):
            out[:, k] = motion_after(
                self._orbits,
                self.radius,
                mode,
                sigma0,
                reach,
                theta,
                speed,
                omega,
                self.decel,
                self._spin_decel,
                max(float(t), 0.0),
            )
        return out[0].reshape(times.shape), out[1].reshape(times.shape), out[2].reshape(times.shape)


def slide_and_spin(
    speed: float,
    omega: float,
    *,
    radius: float,
    mu: float,
    gravity: float = 9.80665,
    contact_inner_ratio: float = 0.0,
    inertia_ratio: float = 0.5,
    coupled: bool = True,
) -> SlideSpin:
    """The motion of a disc of ``radius`` launched at ``speed`` (m/s) with spin ``omega`` (rad/s) on a
    flat surface of friction ``mu``, as the kernel moves it between events.

    ``coupled`` chooses the coupled model (the courts' default) or the decoupled one, in which spin
    never changes the slide. ``contact_inner_ratio`` and ``inertia_ratio`` are the court materials of
    the same names.
    """
    for name, value in (("speed", speed), ("radius", radius), ("mu", mu), ("gravity", gravity)):
        if not np.isfinite(value) or value < 0 or (name != "speed" and value == 0):
            raise ValueError(f"{name} must be a positive finite number (got {value!r})")
    if not np.isfinite(omega):
        raise ValueError(f"omega must be finite (got {omega!r})")
    decel, spin_decel = decelerations.py_func(
        float(mu), float(gravity), float(radius), float(contact_inner_ratio), float(inertia_ratio)
    )
    orbit_tables = coupled_tables(contact_inner_ratio, inertia_ratio) if coupled else np.zeros((0, 11))
    reference = start_reference(
        orbit_tables, float(radius), 0.0, 0.0, 0.0, 0.0, float(speed), float(omega), decel, spin_decel
    )
    _, _, v0, w0, t_stop, _, mode, sigma0, reach, theta = reference
    stop_distance = motion_after(
        orbit_tables, float(radius), mode, sigma0, reach, theta, v0, w0, decel, spin_decel, t_stop
    )[0]
    return SlideSpin(
        float(speed),
        float(omega),
        float(radius),
        decel,
        float(t_stop),
        float(stop_distance),
        reference,
        orbit_tables,
        spin_decel,
    )
