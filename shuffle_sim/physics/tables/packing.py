"""A court's physical geometry and materials, packed for the physics kernel.

``kernel_arrays(court)`` gives the named arrays (``KernelArrays``) and ``court_table(court)`` the
kernel's one-array table built from them (``physics.table.pack_court``); both are packed once per
court object and kept on it, so that a scene, a batch or a game packs its court once, not per disc.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from shuffle_sim.court import Court, CourtError
from shuffle_sim.court.friction_law import friction_law
from shuffle_sim.physics.tables.orbit_layout import N_COLUMNS
from shuffle_sim.physics.tables.orbit_tables import coupled_tables


class KernelArrays(NamedTuple):
    """A court's physical geometry and materials, packed for the physics kernel (SI)."""

    disc_radius: float
    disc_mass: float
    mu: float
    mu_speed: float  # the friction law's growth with speed, s/m (``court.friction_law``): 0 for Coulomb
    gravity: float
    disc_restitution: float
    disc_friction: float
    fall_segments: np.ndarray  # (F, 4) x0, y0, x1, y1: surface on the left of from -> to
    fall_circles: np.ndarray  # (C, 3) cx, cy, R: surface inside
    cushion_segments: np.ndarray  # (S, 8) x0, y0, x1, y1, half_thickness, e, friction, kills
    cushion_circles: np.ndarray  # (A, 6) cx, cy, R, e, friction, kills (hit from inside)
    pegs: np.ndarray  # (P, 5) cx, cy, radius, e, friction
    holes: np.ndarray  # (H, 4) cx, cy, capture radius, capture speed
    kill_lines: np.ndarray  # (K, 4) px, py, nx, ny: dead once (centre - p) . n > 0
    contact_inner_ratio: float  # eta: the disc presses on the annulus eta r < rho < r
    inertia_ratio: float  # I / (m r^2)
    orbit_tables: np.ndarray  # the coupled model's packed tables (physics.coupled); no rows: decoupled
    disc_yield_speed: float  # disc-disc restitution law (physics.restitution): inf, a constant e
    cushion_yield: np.ndarray  # (S + A,) each cushion's yield speed, segments first, as in the rows above
    peg_yield: np.ndarray  # (P,) each peg's yield speed


def kernel_arrays(court: Court) -> KernelArrays:
    """The kernel arrays of ``court`` at its current end, packed on first use and kept on the court."""
    return court.memo("kernel_arrays", pack_kernel_arrays)


def court_table(court: Court) -> np.ndarray:
    """The kernel's table of ``court`` (``physics.table.pack_court``), packed once per court object."""
    from shuffle_sim.physics.tables.court_table import pack_court

    return court.memo("kernel_table", lambda c: pack_court(kernel_arrays(c)))


def pack_kernel_arrays(court: Court) -> KernelArrays:
    """Pack the physical ``court`` (at its current end, for the rule lines) for the physics kernel."""
    p = court.params
    fall_segments = np.array([e.geom for e in court.edges if e.kind == "segment"], dtype=np.float64).reshape(-1, 4)
    fall_circles = np.array([e.geom[:3] for e in court.edges if e.kind == "circle"], dtype=np.float64).reshape(-1, 3)
    cushion_segments = np.array(
        [
            (*c.geom, c.thickness / 2, c.restitution, c.friction, float(c.kills))
            for c in court.cushions
            if c.kind == "segment"
        ],
        dtype=np.float64,
    ).reshape(-1, 8)
    cushion_circles = np.array(
        [(*c.geom[:3], c.restitution, c.friction, float(c.kills)) for c in court.cushions if c.kind == "circle"],
        dtype=np.float64,
    ).reshape(-1, 6)
    pegs = np.array([(g.x, g.y, g.radius, g.restitution, g.friction) for g in court.pegs], dtype=np.float64)
    holes = np.array([(h.x, h.y, h.capture_radius, h.capture_speed) for h in court.holes], dtype=np.float64)
    kills = []
    for k in court.kill_lines:
        # Entirely past the band: the centre is more than half a width plus a radius beyond it.
        offset = k.half_width + court.disc_radius
        kills.append((k.point[0] + offset * k.normal[0], k.point[1] + offset * k.normal[1], *k.normal))
    return KernelArrays(
        disc_radius=court.disc_radius,
        disc_mass=court.disc_mass,
        mu=p["mu"],
        mu_speed=p["mu_speed"],
        gravity=p["gravity"],
        disc_restitution=p["disc_restitution"],
        disc_friction=p["disc_friction"],
        fall_segments=fall_segments,
        fall_circles=fall_circles,
        cushion_segments=cushion_segments,
        cushion_circles=cushion_circles,
        pegs=pegs.reshape(-1, 5),
        holes=holes.reshape(-1, 4),
        kill_lines=np.array(kills, dtype=np.float64).reshape(-1, 4),
        contact_inner_ratio=p["contact_inner_ratio"],
        inertia_ratio=p["inertia_ratio"],
        orbit_tables=_spin_tables(p, holes.reshape(-1, 4)),
        disc_yield_speed=p["disc_yield_speed"],
        cushion_yield=np.array(
            [c.yield_speed for c in court.cushions if c.kind == "segment"]
            + [c.yield_speed for c in court.cushions if c.kind == "circle"],
            dtype=np.float64,
        ),
        peg_yield=np.array([g.yield_speed for g in court.pegs], dtype=np.float64),
    )


def _spin_tables(params: dict, holes: np.ndarray) -> np.ndarray:
    """The coupled model's packed tables for the kernel (built once per annulus and inertia ratio);
    no rows for the decoupled model. The coupled kernel knows one capture speed for all holes."""
    if params["spin_model"] == "coupled":
        if len(holes) and np.any(holes[:, 3] != holes[0, 3]):
            raise CourtError(
                f"holes: with spin_model 'coupled' every hole needs the same capture_speed "
                f"(got {sorted(set(holes[:, 3].tolist()))!r})"
            )
        return coupled_tables(params["contact_inner_ratio"], params["inertia_ratio"])
    return np.zeros((0, N_COLUMNS))


def closed_form_court(court: Court) -> bool:
    """Whether ``court``'s motions have closed forms: a flat court under Coulomb friction (a friction
    law of speed, or a surface that is not flat, needs the integrated law)."""
    return court.surface_shape.flat and friction_law(court.params) == "coulomb"


def court_surface(court: Court) -> np.ndarray:
    """The kernel's ground array of ``court`` (``physics.surface.pack_surface``): no entries for a
    court whose motions have closed forms (``closed_form_court``); packed once per court object."""
    from shuffle_sim.physics.tables.surface import pack_surface

    def pack(c: Court) -> np.ndarray:
        if closed_form_court(c):
            return np.zeros(0)
        return pack_surface(c.surface_shape, c.params["gravity"], c.bounds)

    return court.memo("kernel_ground", pack)
