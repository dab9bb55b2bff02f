"""Which motion law a court takes, and the arrays its motion needs, from Python.

A flat court with Coulomb friction moves in closed form (``CLOSED_FORM``); a court with a slope,
a crown or maps (``court.surface_shape``) is integrated (``INTEGRATED``). The law's *motion* is the
tuple its kernels take (``ops``): the packed court and the coupled model's tables, and on a court that
is not flat its packed surface.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.physics.laws.integrated.bodies import BODY_SEG_COLUMNS
from shuffle_sim.physics.laws.law import CLOSED_FORM, INTEGRATED, Law
from shuffle_sim.physics.state import SEG_COLUMNS
from shuffle_sim.physics.tables.packing import closed_form_court, court_surface, court_table, kernel_arrays

#: Rows of a scene's trajectory log per disc beside the events' under the integrated law (a row per
#: start of a body's motion; a shot that rides a cushion or moves in a group starts a few dozen).
SEGMENTS_PER_DISC = 256


def court_law(court: Court) -> Law:
    """The motion law of ``court``: closed form on a flat court under Coulomb friction, integrated
    otherwise (``packing.closed_form_court``)."""
    return CLOSED_FORM if closed_form_court(court) else INTEGRATED


def court_motion(court: Court) -> tuple[np.ndarray, ...]:
    """The arrays ``court_law(court)``'s kernels take (``ops``): (table, orbit_tables[, surface])."""
    motion: tuple[np.ndarray, ...] = (court_table(court), kernel_arrays(court).orbit_tables)
    if court_law(court) is INTEGRATED:
        motion += (court_surface(court),)
    return motion


def trajectory_log(law: Law, n_discs: int, max_events: int) -> np.ndarray:
    """An empty trajectory log for a scene of ``n_discs`` discs and at most ``max_events`` events: each
    processed event starts a segment for each disc it moves (two for an impact, all of a group moving
    on as one). (np.empty only reserves the pages.)"""
    per_event = int(max_events) * max(2, n_discs)
    if law is CLOSED_FORM:
        return np.empty((n_discs + per_event, SEG_COLUMNS))
    return np.empty((n_discs * SEGMENTS_PER_DISC + per_event, BODY_SEG_COLUMNS))
