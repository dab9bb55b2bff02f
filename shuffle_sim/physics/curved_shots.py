"""The batch API's path for courts that are not flat: ``simulate_shots`` hands its shots here.

On a court with a slope, a crown or maps (``court.surface_shape``), a shot on an empty board is a
lone disc on a curved path (``physics.curved_lone.run_lone_curved``), judged where it stops as on a
flat court (``_shot_rows.judge_rest``), in a parallel loop over chunks of ``_shot_rows.CHUNK`` shots; each
chunk allocates its scratch (the dense output of a step) once. Shots among board discs run through
the curved scenes' event loop (``physics.curved_kernel``), then every rest position is judged in one
pass, as ``shots.play_board_shots`` does. The results are bit-identical whatever the thread count
or chunking: every shot writes only its own rows.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.judging.batch import judge_ranges
from shuffle_sim.judging.procedure import HANGER_NONE
from shuffle_sim.physics._curved_bodies import clear_discs, curved_state_at, make_scratch, place_curved
from shuffle_sim.physics._shot_rows import CHUNK, fill_unplayed, judge_rest, shot_problem
from shuffle_sim.physics.curved_kernel import run_curved
from shuffle_sim.physics.curved_lone import run_lone_curved
from shuffle_sim.physics.curved_state import I_DEAD, I_STATUS, I_TOUCHED, N_INT_ROWS, N_ROWS
from shuffle_sim.physics.events import STATUS_FALLEN


@jit.no_refcount
def _play_lone_chunk(
    table,
    spin,
    ground,
    ja,
    prepared,
    index,
    board_x,
    board_y,
    launches,
    max_events,
    start,
    stop,
    outs,
    problem,
    scratch,
    members,
):
    """Play and judge shots ``start`` to ``stop`` on an empty board: ``shots._play_lone_chunk`` on a
    curved court."""
    xs, ys, vxs, vys, omegas = launches
    out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, out_played = outs
    for k in range(start, stop):
        why = shot_problem(table, ja, index, board_x, board_y, xs[k], ys[k], vxs[k], vys[k], omegas[k])
        problem[k] = why
        if why != 0:
            fill_unplayed(
                k, board_x, board_y, xs[k], ys[k], out_x, out_y, out_status, out_dead, out_touched, out_ok, out_played
            )
            out_value[k, 0] = 0
            out_zone[k, 0] = -1
            out_hanger[k, 0] = HANGER_NONE
            continue
        x, y, _, _, _, status, dead, ok, _, _ = run_lone_curved(
            table, spin, ground, xs[k], ys[k], vxs[k], vys[k], omegas[k], max_events, scratch, members
        )
        value, zone, hanger, dead = judge_rest(ja, prepared, index, x, y, status, dead)
        out_ok[k] = ok
        out_played[k] = True
        out_x[k, 0] = x
        out_y[k, 0] = y
        out_status[k, 0] = status
        out_dead[k, 0] = dead
        out_value[k, 0] = value
        out_zone[k, 0] = zone
        out_hanger[k, 0] = hanger
        out_touched[k, 0] = False


@jit.parallel
def play_lone_shots(
    table,
    spin,
    ground,
    ja,
    prepared,
    index,
    board_x,
    board_y,
    xs,
    ys,
    vxs,
    vys,
    omegas,
    max_events,
    out_x,
    out_y,
    out_status,
    out_dead,
    out_value,
    out_zone,
    out_hanger,
    out_touched,
    out_ok,
    out_played,
    problem,
):
    """Play and judge every shot on an empty curved court, in parallel over chunks of ``CHUNK`` shots."""
    n_shots = xs.shape[0]
    launches = (xs, ys, vxs, vys, omegas)
    outs = (out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, out_played)
    for c in prange((n_shots + CHUNK - 1) // CHUNK):
        scratch = np.empty((7, 6))
        members = np.empty((0, 2))
        _play_lone_chunk(
            table,
            spin,
            ground,
            ja,
            prepared,
            index,
            board_x,
            board_y,
            launches,
            max_events,
            c * CHUNK,
            min(n_shots, (c + 1) * CHUNK),
            outs,
            problem,
            scratch,
            members,
        )


@jit.kernel
def _play_board_chunk(
    table, spin, ground, ja, index, board_x, board_y, launches, max_events, start, stop, outs, problem
):
    """Play shots ``start`` to ``stop`` among the board's discs through the curved scenes' loop, with the
    chunk's own state and scratch (``shots._play_board_chunk`` on a curved court)."""
    xs, ys, vxs, vys, omegas = launches
    out_x, out_y, out_status, out_dead, _, _, _, out_touched, out_ok, out_played = outs
    n_board = board_x.shape[0]
    n = n_board + 1
    cs = np.zeros((N_ROWS, n))
    ci = np.zeros((N_INT_ROWS, n), np.int64)
    pair_t = np.empty((n, n))
    pair_rho = np.empty((n, n))
    no_log = np.empty((0, 18))
    scratch = make_scratch(n)
    buf, out, _, _, _, _ = scratch
    for k in range(start, stop):
        why = shot_problem(table, ja, index, board_x, board_y, xs[k], ys[k], vxs[k], vys[k], omegas[k])
        problem[k] = why
        if why != 0:
            fill_unplayed(
                k, board_x, board_y, xs[k], ys[k], out_x, out_y, out_status, out_dead, out_touched, out_ok, out_played
            )
            continue
        for i in range(n):
            for j in range(n):
                pair_t[i, j] = math.inf
                pair_rho[i, j] = 0.0
        placed = True
        clear_discs(cs, ci)
        for j in range(n_board):
            placed = (
                place_curved(table, spin, ground, cs, ci, j, board_x[j], board_y[j], 0.0, 0.0, 0.0, buf, out) and placed
            )
        placed = (
            place_curved(table, spin, ground, cs, ci, n_board, xs[k], ys[k], vxs[k], vys[k], omegas[k], buf, out)
            and placed
        )
        _, _, ok, t_end, _ = run_curved(
            table, spin, ground, cs, ci, pair_t, pair_rho, no_log, no_log, max_events, scratch
        )
        out_ok[k] = ok and placed
        out_played[k] = True
        for i in range(n):
            x, y, _, _, _ = curved_state_at(table, spin, ground, cs, ci, i, t_end, buf, out)
            out_x[k, i] = x
            out_y[k, i] = y
            out_status[k, i] = ci[I_STATUS, i]
            out_dead[k, i] = ci[I_DEAD, i] != 0
            out_touched[k, i] = ci[I_TOUCHED, i] != 0


@jit.parallel
def play_board_shots(
    table,
    spin,
    ground,
    ja,
    prepared,
    index,
    board_x,
    board_y,
    xs,
    ys,
    vxs,
    vys,
    omegas,
    max_events,
    out_x,
    out_y,
    out_status,
    out_dead,
    out_value,
    out_zone,
    out_hanger,
    out_touched,
    out_ok,
    out_played,
    problem,
):
    """Play every shot among the board's discs on a curved court in parallel over chunks of ``CHUNK``
    shots, then judge every rest position in one pass (``shots.play_board_shots``)."""
    n_shots = xs.shape[0]
    n_discs = board_x.shape[0] + 1
    launches = (xs, ys, vxs, vys, omegas)
    outs = (out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, out_played)
    for c in prange((n_shots + CHUNK - 1) // CHUNK):
        _play_board_chunk(
            table,
            spin,
            ground,
            ja,
            index,
            board_x,
            board_y,
            launches,
            max_events,
            c * CHUNK,
            min(n_shots, (c + 1) * CHUNK),
            outs,
            problem,
        )
    n = n_shots * n_discs
    value = out_value.reshape(n)
    zone = out_zone.reshape(n)
    hanger = out_hanger.reshape(n)
    judged_dead = np.empty(n, np.bool_)
    judge_ranges(
        out_x.reshape(n),
        out_y.reshape(n),
        ja,
        prepared,
        index,
        value,
        zone,
        np.empty(n, np.uint64),
        judged_dead,
        hanger,
        np.empty(n, np.bool_),
        np.empty(n, np.bool_),
    )
    status = out_status.reshape(n)
    dead = out_dead.reshape(n)
    for m in prange(n):
        if status[m] == STATUS_FALLEN:
            zone[m] = -1
            hanger[m] = HANGER_NONE
            dead[m] = True
        else:
            dead[m] = dead[m] or judged_dead[m]
        if dead[m]:
            value[m] = 0
