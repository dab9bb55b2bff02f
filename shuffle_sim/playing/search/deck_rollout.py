"""Deck shots and the rest of their half-round, many sampled executions in one numba call.

``deck_rollouts`` plays, for every sample s, one launch from a deck board (the shot weighed by a
searching player) under the shooter's execution errors, then the half-round's remaining shots by
the fixed plan (``deck_engine.deck_plan``, the two players' own errors) with the expected-value
player's firm take-out (``ROLLOUT_TAKEOUT_EXTRA``), each shot run to rest by
the physics kernel and followed by the rules' removals (fallen, dead by the kernel or by the judge,
short of the far dead line) and the dead-disc rule C-20a from the kernel's contact log (a dead disc
touching a live one: 10-off to its shooter and the half-round replayed, or on the eighth disc the
10-off the only score), exactly as the numba deck engine plays a half-round. Everything is in the
canonical frame (from the head toward the foot diagram, ``deck_engine``). Samples run in shares on
numba's thread count of threads (``threads.run_shares``; a share compiles in a fraction of a
``prange`` loop's time); each writes only its own rows, and its errors come from the counter-based stream
``STREAM_SEARCH`` of (game index, shot x ``SEARCH_DEPTHS`` + depth, sample), so the results are the
same whatever the thread count.

Per sample the outputs are the half-round's points of yellow and black at its end (board values,
the C-20a 10-off not included), the colour charged with C-20a (-1: none) and whether that ends the
half-round without a replay (the eighth disc), and the root shot's own rest state (positions and
in-play flags of the board discs and the shot disc) for judging what that shot did.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import run_shares
from shuffle_sim.court import Court
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import judge_prepare
from shuffle_sim.noise import SEARCH_DEPTHS, STREAM_SEARCH, seed_key
from shuffle_sim.physics.numba_api import (
    DEAD,
    DISC_DISC,
    EV_COLUMNS,
    SEG_COLUMNS,
    STATUS,
    STATUS_FALLEN,
    TOUCHED,
    court_law,
    court_motion,
)
from shuffle_sim.playing._board_shot import run_board_shot
from shuffle_sim.playing._deck_plan import _stance_array, plan_aim
from shuffle_sim.playing._deck_setup import deck_reads
from shuffle_sim.playing.deck_engine import DISCS, deck_setup, setup_numbers, value_and_dead
from shuffle_sim.playing.players.launch import (
    as_deviations,
    perturb,
    shot_normals,
    stance_point,
    start_is_free,
)

#: Rows of the contact log kept per shot (C-20a reads it); events beyond are still simulated.
LOG_ROWS = 1024
#: Event bound per shot.
MAX_EVENTS = 10_000
#: Slide to spare (m) of the rollout plan's take-outs: the expected-value player's firmer one, which
#: sends a disc struck in the 10 into the 10-off area (the fixed plan's 2 m leaves it in the 7s).
ROLLOUT_TAKEOUT_EXTRA = 3.0


@jit.kernel
def _one_shot(
    law,
    motion,
    ja,
    prep,
    bx,
    by,
    colour_of,
    value,
    n,
    sx,
    sy,
    vx,
    vy,
    w,
    colour,
    ev,
    no_seg,
    max_events,
    keep_x,
    keep_y,
    keep_on,
):
    """Run one launched disc among the ``n`` resting discs under the court's motion law
    (``_board_shot``), apply the removals and C-20a; the board arrays are updated in place. Returns
    (new n, C-20a happened). ``keep_*`` (n + 1 long) receive every disc's rest position and whether it
    is still in play (before compaction)."""
    m = n + 1
    ist, final, n_ev = run_board_shot(law, motion, n, bx, by, sx, sy, vx, vy, w, ev, no_seg, max_events)
    bx[n] = sx
    by[n] = sy
    colour_of[n] = colour
    c20a = False
    for e in range(n_ev):
        if ev[e, 1] == DISC_DISC and (ev[e, 4] != 0.0) != (ev[e, 5] != 0.0):
            c20a = True
            break
    kept = 0
    for i in range(m):
        x = final[i, 0]
        y = final[i, 1]
        keep_x[i] = x
        keep_y[i] = y
        keep_on[i] = False
        if ist[STATUS, i] == STATUS_FALLEN or ist[DEAD, i] != 0:
            continue
        if i == n or ist[TOUCHED, i] != 0:
            v, dead = value_and_dead(x, y, ja, prep)
            if dead:
                continue
            bx[kept] = x
            by[kept] = y
            value[kept] = v
        else:
            bx[kept] = bx[i]
            by[kept] = by[i]
            value[kept] = value[i]
        colour_of[kept] = colour_of[i]
        keep_on[i] = True
        kept += 1
    return kept, c20a


@jit.inline
def _plan_launch(stance, numbers, spots, reads, bx, by, colour_of, value, reach, n, colour, sign):
    """The rollout plan's launch (start parameter, vx, vy, spin) for ``colour`` on the board: the plan's
    read launch (``_deck_plan.plan_aim``), without spin."""
    t, vx, vy = plan_aim(stance, bx, by, colour_of, value, reach, n, colour, sign, spots, numbers, reads)
    return t, vx, vy, 0.0


@jit.inline
def _copy_board(board, bx, by, colour_of, value):
    """The resting discs (``board``: x, y, colour, value) into the sample's board arrays; their number."""
    board_x, board_y, board_colour, board_value = board
    n = board_x.shape[0]
    for i in range(n):
        bx[i] = board_x[i]
        by[i] = board_y[i]
        colour_of[i] = board_colour[i]
        value[i] = board_value[i]
    return n


@jit.inline
def _executed(stance, t, vx, vy, w, sd, k0, k1, game_index, counter, sample, bx, by, reach):
    """A launch as executed: the side's errors drawn from the search stream's slot (``counter``,
    ``sample``) added to it, and its start (x, y) on the stance, the planned one if the perturbed one
    is not free of the resting discs. Returns (x, y, vx, vy, spin)."""
    z0, z1, z2, z3 = shot_normals(
        k0, k1, np.uint64(game_index), np.uint64(STREAM_SEARCH), np.uint64(counter), np.uint64(sample)
    )
    t2, vx, vy, w = perturb(stance, t, vx, vy, w, z0, z1, z2, z3, sd[0], sd[1], sd[2], sd[3], sd[4])
    if not start_is_free(stance, t2, bx, by, reach):
        t2 = t
    sx, sy = stance_point(stance, t2)
    return sx, sy, vx, vy, w


@jit.inline
def _side_points(n, colour_of, value):
    """The yellow and black sides' points: the values of their discs in play."""
    yellow = 0
    black = 0
    for i in range(n):
        if colour_of[i] == 0:
            yellow += value[i]
        else:
            black += value[i]
    return yellow, black


@jit.inline
def _sample_scratch():
    """A share's scratch for its samples: the event log, the empty segment table, the board's arrays
    and the rest positions kept (the root shot's and the last later shot's)."""
    ev = np.empty((LOG_ROWS, EV_COLUMNS))
    no_seg = np.empty((0, SEG_COLUMNS))
    bx = np.empty(DISCS + 1)
    by = np.empty(DISCS + 1)
    colour_of = np.empty(DISCS + 1, np.int64)
    value = np.empty(DISCS + 1, np.int64)
    keep_x = np.empty(2 * (DISCS + 1))
    keep_y = np.empty(2 * (DISCS + 1))
    keep_on = np.empty(2 * (DISCS + 1), np.bool_)
    return ev, no_seg, bx, by, colour_of, value, keep_x, keep_y, keep_on


@jit.kernel
def _rollout(
    law,
    motion,
    ja,
    prep,
    numbers,
    spots,
    reads,
    board,
    root_sign,
    root_colour,
    launch,
    sd_self,
    sd_opp,
    later,
    k0,
    k1,
    game_index,
    counter,
    sample,
    max_events,
    scratch,
):
    """One sample: the root ``launch`` (start parameter, vx, vy, spin) under the shooter's errors, then
    ``later`` plan shots. ``board``: the resting discs (x, y, colour, value); ``scratch`` as
    ``_sample_scratch``. Returns (yellow
    points, black points, C-20a colour or -1, the C-20a shot was the last of the half-round)."""
    ev, no_seg, bx, by, colour_of, value, keep_x, keep_y, keep_on = scratch
    n = _copy_board(board, bx, by, colour_of, value)
    reach = np.full(DISCS + 1, 2.0 * numbers[6])
    penalty = -1
    last = False
    for depth in range(later + 1):
        if depth == 0:
            colour = root_colour
            sign = root_sign
            stance = _stance_array(float(sign), numbers)
            t, vx, vy, w = launch
            sd = sd_self
        else:
            colour = root_colour if depth % 2 == 0 else 1 - root_colour
            sign = root_sign if colour == root_colour else -root_sign
            sd = sd_self if colour == root_colour else sd_opp
            stance = _stance_array(float(sign), numbers)
            t, vx, vy, w = _plan_launch(stance, numbers, spots, reads, bx, by, colour_of, value, reach, n, colour, sign)
        sx, sy, vx, vy, w = _executed(
            stance, t, vx, vy, w, sd, k0, k1, game_index, counter + depth, sample, bx[:n], by[:n], reach[:n]
        )
        # The root shot's rest positions go to the first half of ``keep_*``, every later one's to the second.
        kept = 0 if depth == 0 else DISCS + 1
        n, c20a = _one_shot(
            law,
            motion,
            ja,
            prep,
            bx,
            by,
            colour_of,
            value,
            n,
            sx,
            sy,
            vx,
            vy,
            w,
            colour,
            ev,
            no_seg,
            max_events,
            keep_x[kept:],
            keep_y[kept:],
            keep_on[kept:],
        )
        if c20a:
            penalty = colour
            last = depth == later
            break
    yellow = black = 0
    if penalty < 0:
        yellow, black = _side_points(n, colour_of, value)
    return yellow, black, penalty, last


@jit.shares
def _rollouts(
    lo,
    hi,
    law,
    motion,
    ja,
    prep,
    numbers,
    spots,
    reads,
    board,
    root_sign,
    root_colour,
    launches,
    sd_self,
    sd_opp,
    later,
    seed_words,
    game_index,
    counter,
    sample_ids,
    max_events,
    outs,
):
    """Samples ``lo`` to ``hi - 1``, one share of the samples (``threads.run_shares``) with its own
    scratch: ``board`` the resting discs (x, y, colour, value), ``seed_words`` the stream's key,
    ``outs`` the output arrays (points, penalty, last, x, y, in play) of ``deck_rollouts``."""
    k0, k1 = seed_words
    out_points, out_penalty, out_last, out_x, out_y, out_on = outs
    scratch = _sample_scratch()
    keep_x, keep_y, keep_on = scratch[6], scratch[7], scratch[8]
    for s in range(lo, hi):
        yellow, black, penalty, last = _rollout(
            law,
            motion,
            ja,
            prep,
            numbers,
            spots,
            reads,
            board,
            root_sign,
            root_colour,
            (launches[s, 0], launches[s, 1], launches[s, 2], launches[s, 3]),
            sd_self,
            sd_opp,
            later,
            k0,
            k1,
            game_index,
            counter,
            sample_ids[s],
            max_events,
            scratch,
        )
        out_points[s, 0] = yellow
        out_points[s, 1] = black
        out_penalty[s] = penalty
        out_last[s] = last
        for i in range(out_x.shape[1]):
            out_x[s, i] = keep_x[i]
            out_y[s, i] = keep_y[i]
            out_on[s, i] = keep_on[i]


def deck_rollouts(
    court: Court,
    board_x,
    board_y,
    board_colour,
    root_sign: int,
    root_colour: int,
    launches: np.ndarray,
    sd_self: np.ndarray,
    sd_opp: np.ndarray,
    later: int,
    seed: int,
    game_index: int,
    shot: int,
    sample_ids=None,
    read_density: int = 1,
) -> dict:
    """Roll out ``launches`` (S, 4: stance parameter, vx, vy, omega; noise-free as aimed) from a
    canonical deck board (colour codes 0 yellow, 1 black) with ``later`` shots left in the half-round
    after this one. ``shot`` (the shot's number in the game) and ``sample_ids`` (default 0, 1, ...)
    place the draws. On a court that is not flat, or under a friction of speed, the plan's launches are
    read from the court's read table (``_deck_setup.deck_reads``, its nodes ``read_density`` times as
    fine as the plans' own).
    Returns arrays: ``points`` (S, 2) by colour code, ``penalty`` (S,) C-20a colour or -1, ``last``
    (S,) that C-20a ended the half-round, and the root shot's rest ``x``, ``y``, ``in_play`` (S, n + 1)."""
    setup = deck_setup(court)
    foot = setup.court
    ja = judge_arrays(foot)
    bx = np.ascontiguousarray(board_x, dtype=np.float64)
    by = np.ascontiguousarray(board_y, dtype=np.float64)
    colours = np.ascontiguousarray(board_colour, dtype=np.int64)
    n = bx.size
    if n + 1 + later > max(DISCS, n + 1) or n + 1 > DISCS + 1:
        raise ValueError(
            f"later: a half-round has {DISCS} discs; {n} on the board and {later} to come after this shot is too many"
        )
    values = np.zeros(n, dtype=np.int64)
    from shuffle_sim.playing.deck_engine import canonical_values

    prepared = judge_prepare(ja)
    canonical_values(bx, by, n, ja, prepared, values)
    launches = np.ascontiguousarray(launches, dtype=np.float64)
    s = launches.shape[0]
    out = {
        "points": np.empty((s, 2), np.int64),
        "penalty": np.empty(s, np.int64),
        "last": np.empty(s, np.bool_),
        "x": np.empty((s, n + 1)),
        "y": np.empty((s, n + 1)),
        "in_play": np.empty((s, n + 1), np.bool_),
    }
    numbers = setup_numbers(setup)
    numbers[5] = ROLLOUT_TAKEOUT_EXTRA
    run_shares(
        _rollouts,
        s,
        court_law(foot),
        court_motion(foot),
        ja,
        prepared,
        numbers,
        setup.spots,
        deck_reads(setup, foot, ROLLOUT_TAKEOUT_EXTRA, read_density),
        (bx, by, colours, values),
        int(root_sign),
        int(root_colour),
        launches,
        as_deviations(sd_self),
        as_deviations(sd_opp),
        int(later),
        seed_key(seed),
        int(game_index),
        int(shot) * SEARCH_DEPTHS,
        _ids(sample_ids, launches.shape[0]),
        MAX_EVENTS,
        tuple(out.values()),
    )
    return out


def _ids(sample_ids, n: int) -> np.ndarray:
    """Each row's sample number in the search stream (rows of equal number share their draws)."""
    if sample_ids is None:
        return np.arange(n, dtype=np.int64)
    ids = np.ascontiguousarray(sample_ids, dtype=np.int64)
    if ids.shape != (n,):
        raise ValueError(f"sample_ids must have one entry per launch ({n}), got shape {ids.shape}")
    return ids
