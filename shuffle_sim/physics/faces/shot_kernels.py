"""The batch API's kernels: many independent shots simulated to rest and judged in one numba call,
under either motion law (``shots.simulate_shots`` is their face).

Two paths, each compiled on first use, for the law it meets:

* On an empty board (the commonest batch: draws, aim and speed sweeps) each shot is a lone disc run
  by the law's lone-disc run (``laws.ops.run_lone``: the event loop for one disc, its state in local
  variables, called rather than inlined so that the chunk compiles in seconds) and judged at once
  where it stops (``shot_rows.judge_rest``), so no rest position makes a second trip through
  memory. The chunk loop is compiled without reference counting: it allocates
  nothing, and counting references to the court's arrays for every shot, atomically, would cost more
  than the shot's physics.
* Among board discs, each chunk allocates its state once and reuses it for all its shots, through
  the event loop (``loop``); then every rest position is judged in one pass.

The shots run in chunks of ``shot_rows.CHUNK`` shots: from Python (``play_shots``, which
``simulate_shots`` calls) in one share of chunks a thread, the share kernels compiled as ordinary
loops; for numba code, in one parallel loop (``play_lone_shots``, ``play_board_shots``), whose own
compile takes seconds more. Every shot writes only its own rows, so results are bit-identical
whatever the thread count or chunking. ``launches`` bundles
the launch arrays (x, y, vx, vy, omega) and ``outs`` the output arrays of ``ShotBatch`` (x, y, status,
dead, value, zone, hanger, touched, ok, played).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import run_shares
from shuffle_sim.judging.batch import JUDGE_CHUNK, judge_range
from shuffle_sim.judging.procedure import HANGER_NONE
from shuffle_sim.physics.events import STATUS_FALLEN
from shuffle_sim.physics.faces.shot_rows import CHUNK, fill_unplayed, judge_rest, shot_problem
from shuffle_sim.physics.laws import ops
from shuffle_sim.physics.loop import run_events
from shuffle_sim.physics.state import DEAD, EV_COLUMNS, STATUS, TOUCHED


@jit.no_refcount
def _write_refused(board_x, board_y, launches, outs, k):
    """The rows of shot k, which cannot be played: those of a shot not played (``fill_unplayed``), the
    shot disc out of play at its start and worth nothing. Compiled on its own and called only for
    such shots: inlined into the chunk loops through ``_refused``, its writes were lost."""
    xs, ys, _, _, _ = launches
    out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, out_played = outs
    fill_unplayed(
        k, board_x, board_y, xs[k], ys[k], out_x, out_y, out_status, out_dead, out_touched, out_ok, out_played
    )
    shot = board_x.shape[0]
    out_value[k, shot] = 0
    out_zone[k, shot] = -1
    out_hanger[k, shot] = HANGER_NONE


@jit.inline
def _refused(table, ja, index, board_x, board_y, launches, outs, problem, k):
    """Whether shot k cannot be played (``shot_problem``, noted in ``problem``); its rows are then
    written by ``_write_refused``."""
    xs, ys, vxs, vys, omegas = launches
    why = shot_problem(table, ja, index, board_x, board_y, xs[k], ys[k], vxs[k], vys[k], omegas[k])
    problem[k] = why
    if why != 0:
        _write_refused(board_x, board_y, launches, outs, k)
    return why != 0


@jit.no_refcount
def _play_lone_chunk(
    law, motion, ja, prepared, index, board_x, board_y, launches, max_events, span, outs, problem, scratch
):
    """Play and judge the shots ``span`` = (start, stop) on an empty board (``board_x`` and ``board_y``
    are empty): each a lone disc (``ops.run_lone`` with the chunk's ``scratch``), judged where it ends."""
    xs, ys, vxs, vys, omegas = launches
    out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, out_touched, out_ok, out_played = outs
    table = motion[0]
    for k in range(span[0], span[1]):
        if _refused(table, ja, index, board_x, board_y, launches, outs, problem, k):
            continue
        x, y, _, _, _, status, dead, ok, _, _ = ops.run_lone(
            law, motion, xs[k], ys[k], vxs[k], vys[k], omegas[k], max_events, scratch
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


@jit.no_refcount
def _play_board_chunk(law, motion, ja, index, board_x, board_y, launches, max_events, span, state, logs, outs, problem):
    """Play the shots ``span`` = (start, stop) among the board's discs, through the event loop with the
    chunk's ``state`` and empty ``logs`` (events, trajectories); judging follows in one pass over every
    rest position."""
    xs, ys, vxs, vys, omegas = launches
    out_x, out_y, out_status, out_dead, _, _, _, out_touched, out_ok, out_played = outs
    table = motion[0]
    ist = state[1]
    n_board = board_x.shape[0]
    n_discs = n_board + 1
    for k in range(span[0], span[1]):
        if _refused(table, ja, index, board_x, board_y, launches, outs, problem, k):
            continue
        ops.clear(law, state)
        placed = True
        for j in range(n_board):
            placed = ops.place(law, motion, state, j, board_x[j], board_y[j], 0.0, 0.0, 0.0) and placed
        placed = ops.place(law, motion, state, n_board, xs[k], ys[k], vxs[k], vys[k], omegas[k]) and placed
        _, _, ok, t_end, _ = run_events(law, motion, state, logs[0], logs[1], max_events)
        out_ok[k] = ok and placed
        out_played[k] = True
        for i in range(n_discs):
            x, y, _, _, _ = ops.state_at(law, motion, state, i, t_end)
            out_x[k, i] = x
            out_y[k, i] = y
            out_status[k, i] = ist[STATUS, i]
            out_dead[k, i] = ist[DEAD, i] != 0
            out_touched[k, i] = ist[TOUCHED, i] != 0


@jit.shares
def play_lone_chunks(lo, hi, law, motion, ja, prepared, index, board_x, board_y, launches, max_events, outs, problem):
    """Play and judge the chunks ``lo .. hi - 1`` of ``CHUNK`` shots on an empty board: one share of a
    batch (``play_shots``), each chunk with scratch arrays of its own."""
    n_shots = launches[0].shape[0]
    for c in range(lo, hi):
        span = (np.int64(c * CHUNK), np.int64(min(n_shots, (c + 1) * CHUNK)))
        scratch = ops.lone_scratch(law)
        _play_lone_chunk(
            law, motion, ja, prepared, index, board_x, board_y, launches, max_events, span, outs, problem, scratch
        )


@jit.shares
def play_board_chunks(lo, hi, law, motion, ja, index, board_x, board_y, launches, max_events, outs, problem):
    """Play the chunks ``lo .. hi - 1`` of ``CHUNK`` shots among the board's discs, each chunk with a
    state of its own: one share of a batch (``play_shots``), judged after."""
    n_shots = launches[0].shape[0]
    n_discs = board_x.shape[0] + 1
    for c in range(lo, hi):
        span = (np.int64(c * CHUNK), np.int64(min(n_shots, (c + 1) * CHUNK)))
        logs = (np.empty((0, EV_COLUMNS)), ops.no_log(law))
        state = ops.new_state(law, n_discs)
        _play_board_chunk(
            law, motion, ja, index, board_x, board_y, launches, max_events, span, state, logs, outs, problem
        )


def play_shots(law, motion, ja, prepared, index, board_x, board_y, launches, max_events, outs, problem) -> None:
    """Play and judge every shot of a batch, from Python: the chunks of ``CHUNK`` shots in one share a
    thread (``threads.run_shares``, numba's thread count), then, among board discs, every rest
    position judged in shares the same way. Each shot writes only its own rows, so the results are
    the same whatever the thread count. The share kernels compile as ordinary loops, in a fraction
    of a parallel loop's compile; ``play_lone_shots`` and ``play_board_shots`` do the same in one
    numba call, for numba code."""
    n_chunks = (launches[0].shape[0] + CHUNK - 1) // CHUNK
    if board_x.shape[0] == 0:
        run_shares(
            play_lone_chunks,
            n_chunks,
            law,
            motion,
            ja,
            prepared,
            index,
            board_x,
            board_y,
            launches,
            max_events,
            outs,
            problem,
        )
        return
    run_shares(
        play_board_chunks, n_chunks, law, motion, ja, index, board_x, board_y, launches, max_events, outs, problem
    )
    rows = rest_rows(outs)
    run_shares(judge_rest_rows, rows[0].size, ja, prepared, index, *rows)


@jit.kernel
def rest_rows(outs):
    """The batch's rest positions and verdicts as rows of one disc each (views of ``outs``), and the
    judge's scratch rows: (x, y, status, dead, value, zone, hanger, judged dead, touching, fallen,
    holed), as ``judge_rest_rows`` takes them. A function of its own, so that Python and numba code
    lay them out alike."""
    out_x, out_y, out_status, out_dead, out_value, out_zone, out_hanger, _, _, _ = outs
    n = out_x.size
    return (
        out_x.reshape(n),
        out_y.reshape(n),
        out_status.reshape(n),
        out_dead.reshape(n),
        out_value.reshape(n),
        out_zone.reshape(n),
        out_hanger.reshape(n),
        np.empty(n, np.bool_),
        np.empty(n, np.uint64),
        np.empty(n, np.bool_),
        np.empty(n, np.bool_),
    )


@jit.threaded
def judge_rest_rows(
    lo, hi, ja, prepared, index, xs, ys, status, dead, value, zone, hanger, judged, touching, fallen, holed
):
    """Judge the rest positions ``lo .. hi - 1`` (``rest_rows``) and merge in the kernel's verdicts: a
    fallen disc is dead, in no zone and on no hanger; a dead disc is worth 0. One share of the
    judging pass, from Python threads (``play_shots``) or a parallel loop (``play_board_shots``)."""
    judge_range(lo, hi, xs, ys, ja, prepared, index, value, zone, touching, judged, hanger, fallen, holed)
    for m in range(lo, hi):
        if status[m] == STATUS_FALLEN:
            zone[m] = -1
            hanger[m] = HANGER_NONE
            dead[m] = True
        else:
            dead[m] = dead[m] or judged[m]
        if dead[m]:
            value[m] = 0


@jit.parallel
def play_lone_shots(law, motion, ja, prepared, index, board_x, board_y, launches, max_events, outs, problem):
    """Play and judge every shot on an empty board, in parallel over chunks of ``CHUNK`` shots, in one
    numba call (for numba code; from Python, ``play_shots`` runs the same chunks)."""
    n_shots = launches[0].shape[0]
    for c in prange((n_shots + CHUNK - 1) // CHUNK):
        play_lone_chunks(
            c, c + 1, law, motion, ja, prepared, index, board_x, board_y, launches, max_events, outs, problem
        )


@jit.parallel
def play_board_shots(law, motion, ja, prepared, index, board_x, board_y, launches, max_events, outs, problem):
    """Play every shot among the board's discs in parallel over chunks of ``CHUNK`` shots, then judge
    every rest position in one parallel pass and merge in the kernel's verdicts, in one numba call
    (for numba code; from Python, ``play_shots`` runs the same chunks)."""
    n_shots = launches[0].shape[0]
    for c in prange((n_shots + CHUNK - 1) // CHUNK):
        play_board_chunks(c, c + 1, law, motion, ja, index, board_x, board_y, launches, max_events, outs, problem)
    rows = rest_rows(outs)
    n = rows[0].size
    for c in prange((n + JUDGE_CHUNK - 1) // JUDGE_CHUNK):
        judge_rest_rows(c * JUDGE_CHUNK, min(n, (c + 1) * JUDGE_CHUNK), ja, prepared, index, *rows)
