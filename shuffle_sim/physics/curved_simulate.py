"""``simulate`` on a court that is not flat: one scene through the curved event loop, from Python.

The scene is converted to arrays once, run by ``curved_kernel.run_curved_from_start`` in one compiled
call, and wrapped as ``simulate`` wraps the flat kernel's results (``SimResult``); its trajectories
carry the ground, so that ``sample_positions`` follows the curved paths (``curved_sampling``).
"""

from __future__ import annotations

import numpy as np

from shuffle_sim.physics._court_table import H_DECEL
from shuffle_sim.physics._curved_bodies import CURVED_SEG_COLUMNS
from shuffle_sim.physics._event_loop import EV_COLUMNS
from shuffle_sim.physics._packing import court_ground, court_table, kernel_arrays
from shuffle_sim.physics.curved_kernel import run_curved_from_start
from shuffle_sim.physics.curved_state import I_DEAD, I_STATUS, N_INT_ROWS, N_ROWS
from shuffle_sim.physics.events import DISC_CUSHION
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE, Scene

#: Rows of the trajectory log per disc beside the events' (a row per start of a motion; a shot that
#: rides a cushion or moves in a group starts a few dozen).
SEGMENTS_PER_DISC = 256


def simulate_curved(scene: Scene, max_events: int):
    """``physics.simulate`` for a validated scene on a curved court."""
    from shuffle_sim.physics._simulate import EventLog, SimResult, Trajectories, _cushion_order, check_obstacles

    court = scene.court
    table = court_table(court)
    spin = kernel_arrays(court).orbit_tables
    ground = court_ground(court)
    n = scene.n_discs
    start = np.column_stack([scene.x, scene.y, scene.vx, scene.vy, scene.omega]).astype(np.float64)
    cs = np.zeros((N_ROWS, n))
    ci = np.zeros((N_INT_ROWS, n), dtype=np.int64)
    ev = np.empty((2 * int(max_events), EV_COLUMNS))
    seg = np.empty((n * SEGMENTS_PER_DISC + int(max_events) * max(2, n), CURVED_SEG_COLUMNS))
    pair_t = np.full((n, n), np.inf)
    pair_rho = np.zeros((n, n))
    final = np.empty((n, 5))
    bad, n_ev, n_seg, ok, t_end = run_curved_from_start(
        table, spin, ground, start, OVERLAP_TOLERANCE, cs, ci, pair_t, pair_rho, ev, seg, int(max_events), final
    )
    if bad >= 0:
        check_obstacles(court, scene.x[bad : bad + 1], scene.y[bad : bad + 1], f"{scene.source}: discs", first=bad)
    ev = ev[:n_ev]
    kind = ev[:, 1].astype(np.int32)
    b = ev[:, 3].astype(np.int32)
    cushion = kind == DISC_CUSHION
    b[cushion] = _cushion_order(court)[b[cushion]]
    events = EventLog(
        t=ev[:, 0].copy(), kind=kind, a=ev[:, 2].astype(np.int32), b=b, a_dead=ev[:, 4] != 0, b_dead=ev[:, 5] != 0
    )
    return SimResult(
        scene=scene,
        x=final[:, 0].copy(),
        y=final[:, 1].copy(),
        vx=final[:, 2].copy(),
        vy=final[:, 3].copy(),
        omega=final[:, 4].copy(),
        status=ci[I_STATUS].astype(np.int8),
        dead=ci[I_DEAD].astype(np.bool_),
        ok=bool(ok),
        events=events,
        trajectories=Trajectories(
            log=seg[:n_seg].copy(), decel=float(table[0, H_DECEL]), table=table, orbits=spin, ground=ground
        ),
        t_end=float(t_end),
    )
