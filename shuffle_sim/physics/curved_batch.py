"""``simulate_scenes`` on a court that is not flat: many scenes through the curved event loop.

The same batch as ``scene_batch._run_scenes`` (each scene its own copy of the court table with its
materials, its own state, the same checks of its start), run by ``curved_kernel.run_curved`` in a
parallel loop over scenes: bit-identical whatever the thread count, and to ``physics.simulate`` on
``Scenes.scene(k)``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.physics._curved_bodies import clear_discs, curved_state_at, make_scratch, place_curved
from shuffle_sim.physics._event_loop import EV_COLUMNS
from shuffle_sim.physics.curved_kernel import run_curved
from shuffle_sim.physics.curved_state import I_DEAD, I_STATUS, N_INT_ROWS, N_ROWS
from shuffle_sim.physics.scene_batch import PADDING, _scene_problem, apply_materials


@jit.kernel
def _run_curved_scene(
    base,
    spin,
    ground,
    ja,
    gravity,
    xs,
    ys,
    vxs,
    vys,
    omegas,
    n_discs,
    materials,
    max_events,
    k,
    out_x,
    out_y,
    out_vx,
    out_vy,
    out_omega,
    out_status,
    out_dead,
    out_ok,
    out_events,
    out_t_end,
    problem,
    problem_disc,
):
    """Run scene ``k`` to rest (or the event bound) and write its rows (``scene_batch._run_scene``)."""
    n = n_discs[k]
    width = xs.shape[1]
    table = base.copy()
    apply_materials(table, materials[k], gravity)
    for i in range(width):
        out_x[k, i] = np.nan
        out_y[k, i] = np.nan
        out_vx[k, i] = np.nan
        out_vy[k, i] = np.nan
        out_omega[k, i] = np.nan
        out_status[k, i] = PADDING
        out_dead[k, i] = False
    why, disc = _scene_problem(table, ja, xs, ys, vxs, vys, omegas, k, n)
    problem[k] = why
    problem_disc[k] = disc
    if why != 0:
        out_ok[k] = False
        out_events[k] = 0
        out_t_end[k] = np.nan
        return
    cs = np.zeros((N_ROWS, n))
    ci = np.zeros((N_INT_ROWS, n), np.int64)
    pair_t = np.full((n, n), math.inf)
    pair_rho = np.zeros((n, n))
    no_log = np.empty((0, max(EV_COLUMNS, 18)))
    scratch = make_scratch(n)
    buf, out, _, _, _, _ = scratch
    placed = True
    clear_discs(cs, ci)
    for i in range(n):
        placed = (
            place_curved(
                table, spin, ground, cs, ci, i, xs[k, i], ys[k, i], vxs[k, i], vys[k, i], omegas[k, i], buf, out
            )
            and placed
        )
    _, _, ok, t_end, processed = run_curved(
        table, spin, ground, cs, ci, pair_t, pair_rho, no_log, no_log, max_events, scratch
    )
    out_ok[k] = ok and placed
    out_events[k] = processed
    out_t_end[k] = t_end
    for i in range(n):
        x, y, vx, vy, w = curved_state_at(table, spin, ground, cs, ci, i, t_end, buf, out)
        out_x[k, i] = x
        out_y[k, i] = y
        out_vx[k, i] = vx
        out_vy[k, i] = vy
        out_omega[k, i] = w
        out_status[k, i] = ci[I_STATUS, i]
        out_dead[k, i] = ci[I_DEAD, i] != 0


@jit.parallel
def run_curved_scenes(
    base,
    spin,
    ground,
    gravity,
    ja,
    xs,
    ys,
    vxs,
    vys,
    omegas,
    n_discs,
    materials,
    max_events,
    out_x,
    out_y,
    out_vx,
    out_vy,
    out_omega,
    out_status,
    out_dead,
    out_ok,
    out_events,
    out_t_end,
    problem,
    problem_disc,
):
    """Every scene (``_run_curved_scene``), in parallel over scenes."""
    for k in prange(xs.shape[0]):
        _run_curved_scene(
            base,
            spin,
            ground,
            ja,
            gravity,
            xs,
            ys,
            vxs,
            vys,
            omegas,
            n_discs,
            materials,
            max_events,
            k,
            out_x,
            out_y,
            out_vx,
            out_vy,
            out_omega,
            out_status,
            out_dead,
            out_ok,
            out_events,
            out_t_end,
            problem,
            problem_disc,
        )
