"""The court packed for the kernel: one float array, the *table*.

Row 0 is a header of scalars (disc radius, sliding and spin decelerations, disc-disc restitution
and friction); each further row is one feature of the court: its kind, the index the event log
reports for it, then its numbers. The kernel loops over the rows once per prediction.

Why one array: numba passes every array argument of a call with an atomic reference-count
increment and decrement, and for a lone disc those cost more than its physics. One table instead
of the seven arrays of ``court.KernelArrays`` keeps them few. ``pack_court`` builds it once per
court (with NumPy, in Python), and computes there what every prediction would otherwise compute
again (a cushion segment's unit direction and length).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import DISC_CUSHION, DISC_PEG, FALL, HOLED, KILLED

TABLE_COLUMNS = 14
# Row 0, the header.
H_RADIUS = 0
H_DECEL = 1  # mu g
H_SPIN_DECEL = 2  # mu g T(0) / (k r): (4/3) mu g / r for a uniform disc on its whole face
H_RESTITUTION = 3  # disc-disc
H_FRICTION = 4  # disc-disc
H_INERTIA = 5  # k = I / (m r^2)
H_INNER = 6  # eta, the inner over outer radius of the contact annulus
H_HOLE_SPEED = 7  # the holes' capture speed (one per court), -1 without holes
H_YIELD = 8  # disc-disc yield speed of the restitution law (``restitution``), inf: a constant e
H_SPEED_DECEL = 9  # g mu_speed (1/s): the sliding deceleration's growth with speed (``court.friction_law``)
H_SPIN_SPEED_DECEL = 10  # g mu_speed (1 + eta^2) / (2 k) (1/s): the same law's spin decay per unit spin
# Feature rows: the kind, the index the event log reports, then the feature's numbers from column F.
F_KIND = 0
F_INDEX = 1
F = 2
EDGE_SEGMENT = 0  # x0, y0, x1, y1 (surface on the left)
EDGE_CIRCLE = 1  # cx, cy, R (surface inside)
CUSHION_SEGMENT = 2  # x0, y0, x1, y1, half thickness, e, friction, kills, then its frame: ux, uy, length
CUSHION_CIRCLE = 3  # cx, cy, R, e, friction, kills (hit from inside)
PEG = 4  # cx, cy, radius, e, friction
HOLE = 5  # cx, cy, capture radius, capture speed
KILL_LINE = 6  # px, py, nx, ny: dead once (centre - p) . n > 0
#: The column of a cushion's or peg's yield speed (``restitution``; inf: a constant e), the same in
#: every kind of row: the last one.
F_YIELD = TABLE_COLUMNS - 1

#: Slack (m) of the shortcuts that skip a shape far from a point: far above rounding (about 1e-15 m
#: on a 16 m court), so a shortcut never skips what the exact test would find.
PRUNE_MARGIN = 1e-9


@jit.inline
def segment_frame(x0, y0, x1, y1):
    """Unit direction (ux, uy) and length of the segment (x0, y0)-(x1, y1), as the closed-form law's
    ``toi.capsule_entry`` uses them."""
    ex = x1 - x0
    ey = y1 - y0
    length = math.sqrt(ex * ex + ey * ey)
    return ex / length, ey / length, length


@jit.kernel
def decelerations(mu, gravity, radius, inner_ratio, inertia_ratio):
    """Sliding deceleration mu g (m/s^2) and spin deceleration of pure spin (rad/s^2).

    Spinning in place, every element of the contact annulus (radii eta r to r) rubs at its own
    speed, so the torque is mu m g times the mean lever arm, r T(0) = (2/3) r (1 + eta + eta^2) /
    (1 + eta); over I = k m r^2 that is mu g T(0) / (k r): (4/3) mu g / r for a uniform disc on
    its whole face (Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett. 90, 248302, 2003).
    """
    decel = mu * gravity
    lever = 2.0 / 3.0 * (1.0 + inner_ratio + inner_ratio * inner_ratio) / (1.0 + inner_ratio)
    return decel, lever / inertia_ratio * decel / radius


def speed_decelerations(mu_speed: float, gravity: float, inner_ratio: float, inertia_ratio: float):
    """The speed law's terms (``court.friction_law``): g mu_speed, by which the sliding deceleration
    grows per unit speed (1/s), and the spin's decay per unit spin (1/s).

    Under mu + mu_speed u at each element of the face, u its own sliding velocity v + omega x rho,
    the speed term's force and torque are linear in u, so they sum over the evenly pressed annulus
    in closed form whatever the slide and spin: the force -m g mu_speed v (the elements' omega x rho
    cancel), the torque -m g mu_speed omega <rho^2> with <rho^2> = r^2 (1 + eta^2) / 2; over
    I = k m r^2, the spin decays at g mu_speed (1 + eta^2) / (2 k) omega. The Coulomb part keeps its
    coupled force and torque (``face_friction``).
    """
    speed_decel = mu_speed * gravity
    return speed_decel, speed_decel * (1.0 + inner_ratio * inner_ratio) / (2.0 * inertia_ratio)


def pack_court(ka) -> np.ndarray:
    """The court's ``KernelArrays`` as one table: a header row, then one row per feature.

    Built with NumPy, not compiled: a court is packed once per batch (``_packing.court_table`` keeps
    it on the court), and a first run then compiles nothing for it (about 1 s of numba's time, in
    ``simulate``'s first call and in an experiment's chunk kernel). The numbers are the ones the
    compiled kernels would compute, bit for bit: ``decelerations`` and ``segment_frame`` run as
    Python (their ``py_func``), whose arithmetic and square root round as the compiled code's do.
    """
    blocks = (
        (EDGE_SEGMENT, ka.fall_segments, 0),
        (EDGE_CIRCLE, ka.fall_circles, 0),
        (CUSHION_SEGMENT, ka.cushion_segments, 0),
        (CUSHION_CIRCLE, ka.cushion_circles, ka.cushion_segments.shape[0]),
        (PEG, ka.pegs, 0),
        (HOLE, ka.holes, 0),
        (KILL_LINE, ka.kill_lines, 0),
    )
    n_rows = 1 + sum(source.shape[0] for _, source, _ in blocks)
    table = np.zeros((n_rows, TABLE_COLUMNS))
    decel, spin_decel = decelerations.py_func(
        float(ka.mu), float(ka.gravity), float(ka.disc_radius), float(ka.contact_inner_ratio), float(ka.inertia_ratio)
    )
    table[0, H_RADIUS] = ka.disc_radius
    table[0, H_DECEL] = decel
    table[0, H_SPIN_DECEL] = spin_decel
    table[0, H_RESTITUTION] = ka.disc_restitution
    table[0, H_FRICTION] = ka.disc_friction
    table[0, H_INERTIA] = ka.inertia_ratio
    table[0, H_INNER] = ka.contact_inner_ratio
    table[0, H_HOLE_SPEED] = ka.holes[0, 3] if ka.holes.shape[0] > 0 else -1.0
    table[0, H_YIELD] = ka.disc_yield_speed
    table[0, H_SPEED_DECEL], table[0, H_SPIN_SPEED_DECEL] = speed_decelerations(
        float(ka.mu_speed), float(ka.gravity), float(ka.contact_inner_ratio), float(ka.inertia_ratio)
    )
    yields = {
        CUSHION_SEGMENT: ka.cushion_yield[: ka.cushion_segments.shape[0]],
        CUSHION_CIRCLE: ka.cushion_yield[ka.cushion_segments.shape[0] :],
        PEG: ka.peg_yield,
    }
    row = 1
    for kind, source, first_index in blocks:
        rows = slice(row, row + source.shape[0])
        table[rows, F_KIND] = kind
        # Edges are not reported by index.
        table[rows, F_INDEX] = -1 if kind in (EDGE_SEGMENT, EDGE_CIRCLE) else first_index + np.arange(source.shape[0])
        table[rows, F : F + source.shape[1]] = source
        if kind in yields:
            table[rows, F_YIELD] = yields[kind]
        if kind == CUSHION_SEGMENT:
            # The frame ``_toi.capsule_entry`` would compute on every prediction, computed once.
            for r in range(row, row + source.shape[0]):
                table[r, F + 8 : F + 11] = segment_frame.py_func(*(float(v) for v in table[r, F : F + 4]))
        row += source.shape[0]
    return table


@jit.inline
def obstacle_overlap(table, x, y, tolerance):
    """(kind, index) of the first cushion or peg a disc at (x, y) overlaps by more than ``tolerance``.

    ``kind`` is DISC_CUSHION or DISC_PEG with the index the event log uses; (-1, -1) when there is
    none. Touching is not overlapping.
    """
    r = table[0, H_RADIUS]
    for row in range(1, table.shape[0]):
        f = table[row, F_KIND]
        if f != CUSHION_SEGMENT and f != CUSHION_CIRCLE and f != PEG:
            continue
        dx = x - table[row, F]
        dy = y - table[row, F + 1]
        if f == CUSHION_SEGMENT:
            reach = r + table[row, F + 4] - tolerance
            x0 = table[row, F]
            y0 = table[row, F + 1]
            x1 = table[row, F + 2]
            y1 = table[row, F + 3]
            # Farther than reach from the segment's bounding box: clear of it (a shortcut only).
            far = reach + PRUNE_MARGIN
            if x < min(x0, x1) - far or x > max(x0, x1) + far or y < min(y0, y1) - far or y > max(y0, y1) + far:
                continue
            # Squared distance to the segment.
            ex = x1 - x0
            ey = y1 - y0
            u = min(max((dx * ex + dy * ey) / (ex * ex + ey * ey), 0.0), 1.0)
            overlap = reach > 0.0 and (dx - u * ex) ** 2 + (dy - u * ey) ** 2 < reach * reach
        elif f == CUSHION_CIRCLE:
            reach = table[row, F + 2] - r + tolerance
            overlap = reach < 0.0 or dx * dx + dy * dy > reach * reach
        else:
            reach = r + table[row, F + 2] - tolerance
            overlap = reach > 0.0 and dx * dx + dy * dy < reach * reach
        if overlap:
            return (DISC_PEG if f == PEG else DISC_CUSHION), np.int64(table[row, F_INDEX])
    return -1, np.int64(-1)


@jit.inline
def event_of_row(f):
    """The event of a disc meeting a table row of kind ``f``: a cushion, a peg, a hole, a kill line or
    (an edge) a fall."""
    if f in (CUSHION_SEGMENT, CUSHION_CIRCLE):
        return DISC_CUSHION
    if f == PEG:
        return DISC_PEG
    if f == HOLE:
        return HOLED
    if f == KILL_LINE:
        return KILLED
    return FALL
