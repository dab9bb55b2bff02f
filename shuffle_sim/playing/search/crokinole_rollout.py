"""Crokinole shots and the rest of their round, many sampled executions in one numba call.

``crokinole_rollouts`` plays, for every sample s, one launch from a crokinole board (the shot a
searching player weighs) under the shooter's execution errors, then the round's remaining shots,
the two players taking turns, each by the round's quick plan (``_crokinole_plan``):

- with opponent discs on the board, a straight take-out of the one with the best chance of a hit
  among the ``TARGETS`` nearest the centre, along its clearest line for the shooter's direction
  error (``lines.best_line``), hard enough to send it ``TAKEOUT_EXTRA`` past the ditch's edge
  (``repertoire.strike_speed``'s closed form); with none in reach, the open 20 (which the hit rule
  will then take off);
- with none, the open 20 (``intents.hole_overshoot``: the speed that centres the hole's window).

Each shot runs to rest in the physics kernel and the rules follow it as ``rules.crokinole.judge_shot``
does: with an opponent disc on the board the shot must touch one (a disc touched during a shot on a
board at rest was reached through the chain of discs the shot set moving), otherwise the shot disc
and the shooter's discs it moved are removed (a 20 so made too); on an open board the shot must end
in or touching the 15 line, or in the hole; 20s are set aside and counted at once; fallen and dead
discs (in the ditch, on or beyond the 5 line) are removed. At the end each side's round total is its
20s plus its discs on the board.

Samples run in shares on numba's thread count of threads (``threads.run_shares``; a share compiles
in a fraction of a ``prange`` loop's time), each writing its own rows; errors come from the stream
``STREAM_SEARCH`` of (game index, shot x ``SEARCH_DEPTHS`` + depth, sample): the results do not
depend on the thread count.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import run_shares
from shuffle_sim.court import Court
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import judge_one_call, judge_prepare
from shuffle_sim.noise import SEARCH_DEPTHS, seed_key
from shuffle_sim.physics.numba_api import (
    CLOSED_FORM,
    DEAD,
    EV_COLUMNS,
    SEG_COLUMNS,
    STATUS,
    STATUS_FALLEN,
    STATUS_HOLED,
    TOUCHED,
    court_table,
    kernel_arrays,
)
from shuffle_sim.playing._board_shot import moved, run_among
from shuffle_sim.playing.flat_only import require_closed_form
from shuffle_sim.playing.players.context import fixed_obstacles
from shuffle_sim.playing.players.launch import as_deviations, executed_launch, start_is_free
from shuffle_sim.playing.search._crokinole_plan import (
    LINE_REACH,
    LINE_STARTS,
    OTHER_DISC_WEIGHT,
    TAKEOUT_EXTRA,
    TARGETS,
    _obstacles,
    _plan,
)
from shuffle_sim.playing.search._draws import sample_numbers, search_normals

__all__ = [
    "LINE_REACH",
    "LINE_STARTS",
    "MAX_DISCS",
    "MAX_EVENTS",
    "OTHER_DISC_WEIGHT",
    "TAKEOUT_EXTRA",
    "TARGETS",
    "crokinole_rollouts",
]

#: Discs at most on the board (16 in a singles round, and the one shot).
MAX_DISCS = 17
MAX_EVENTS = 10_000


@jit.inline
def _fouls(shot, n, side, team, opponent_before, hx, hy, fifteen_reach):
    """Which discs the shot (disc ``n``, of ``team``) leaves fouled: with an opponent disc on the board
    the shot must hit one, else it and the shooter's discs it touched are removed; on an empty board
    it must rest within the 15 line or in the 20 hole. ``shot``: the shot's integer state rows and
    rest rows (``_board_shot.run_among``)."""
    ist, rest = shot
    foul = np.zeros(n + 1, np.bool_)
    if opponent_before:
        hit = False
        for i in range(n):
            if side[i] != team and ist[TOUCHED, i] != 0:
                hit = True
        if not hit:
            foul[n] = True
            for i in range(n):
                if side[i] == team and ist[TOUCHED, i] != 0:
                    foul[i] = True
    elif ist[STATUS, n] != STATUS_HOLED and math.hypot(rest[n, 0] - hx, rest[n, 1] - hy) > fifteen_reach:
        foul[n] = True
    return foul


@jit.inline
def _keep_in_play(shot, n, board, foul, twenties, judge):
    """Pack the discs still in play after the shot to the front of the board arrays (``board``: x, y,
    side), counting the 20s into ``twenties`` and leaving out fouled, fallen, dead and ditched discs;
    returns their number. ``shot`` as ``_fouls``."""
    ist, rest = shot
    bx, by, side = board
    ja, prep = judge
    kept = 0
    for i in range(n + 1):
        if foul[i] or ist[STATUS, i] == STATUS_FALLEN:
            continue
        if ist[STATUS, i] == STATUS_HOLED:
            twenties[side[i]] += 1
            continue
        if moved(ist, i, n):
            x = rest[i, 0]
            y = rest[i, 1]
            if ist[DEAD, i] != 0 or judge_one_call(x, y, ja, prep)[3]:
                continue
        else:
            x, y = bx[i], by[i]
        bx[kept] = x
        by[kept] = y
        side[kept] = side[i]
        kept += 1
    return kept


@jit.inline
def _sample_scratch(width):
    """A share's scratch for its samples: the board's arrays (x, y, side), the obstacles' (x, y, reach,
    capture speed, good to hit; ``width`` long: the discs, the pegs and the hole), and the empty
    event log and segment table."""
    board = (np.empty(MAX_DISCS), np.empty(MAX_DISCS), np.empty(MAX_DISCS, np.int64))
    obstacles = (np.empty(width), np.empty(width), np.empty(width), np.empty(width), np.empty(width, np.bool_))
    return board, obstacles, (np.empty((0, EV_COLUMNS)), np.empty((0, SEG_COLUMNS)))


@jit.kernel
def _rollout(motion, judge, numbers, stances, board, launch, sd, later, stream, sample, max_events, fixed, scratch):
    """One sample: the root ``launch`` (start parameter, vx, vy, spin) by side 0, then ``later`` shots
    alternating from side 1, side k from ``stances[k]`` with the deviations ``sd[k]``. ``board``: the
    resting discs (x, y, side); ``motion``: the court's packed table and orbit tables; ``judge``:
    its judge's arrays (``judge_arrays``, ``judge_prepare``); ``numbers``: ``_board_numbers``;
    ``stream``: as ``search_normals``; ``fixed``: the pegs and the hole (``_crokinole_plan._plan``);
    ``scratch`` as ``_sample_scratch``. Returns (side 0's round total, side 1's, side 0's 20s,
    side 1's)."""
    (bx, by, side), obstacles, logs = scratch
    ox, oy, reach, slow, _ = obstacles
    radius = numbers[0]
    fifteen_reach = numbers[10]
    hx, hy = numbers[6], numbers[7]
    n = board[0].shape[0]
    bx[:n] = board[0]
    by[:n] = board[1]
    side[:n] = board[2]
    twenties = np.zeros(2, np.int64)
    for depth in range(later + 1):
        team = depth % 2
        stance = stances[team]
        if depth == 0:
            t, vx, vy, w = launch
        else:
            t, vx, vy = _plan(stance, team, bx, by, side, n, numbers, sd[team, 1], fixed, obstacles)
            w = 0.0
        z = search_normals(stream, depth, sample)
        m = _obstacles(bx, by, n, fixed, radius, ox, oy, reach, slow)
        t2, sx, sy, vx, vy, w = executed_launch(stance, t, vx, vy, w, z, sd[team], ox[:m], oy[:m], reach[:m])
        if not start_is_free(stance, t2, ox[:n], oy[:n], reach[:n]):
            continue  # no room to put the disc down on the arc: the shot is not played
        opponent_before = False
        for i in range(n):
            if side[i] != team:
                opponent_before = True
        ist, rest, _ = run_among(CLOSED_FORM, motion, (bx, by, side), n, (sx, sy, vx, vy, w), team, logs, max_events)
        foul = _fouls((ist, rest), n, side, team, opponent_before, hx, hy, fifteen_reach)
        n = _keep_in_play((ist, rest), n, (bx, by, side), foul, twenties, judge)
    totals = np.zeros(2, np.int64)
    for i in range(n):
        totals[side[i]] += judge_one_call(bx[i], by[i], judge[0], judge[1])[0]
    return totals[0] + 20 * twenties[0], totals[1] + 20 * twenties[1], twenties[0], twenties[1]


@jit.shares
def _rollouts(
    lo, hi, motion, judge, numbers, stances, board, launches, sd, later, stream, sample_ids, max_events, fixed, out
):
    """Samples ``lo`` to ``hi - 1``, one share of the samples (``threads.run_shares``) with its own
    scratch: the arguments as ``_rollout``'s, ``launches`` (S, 4) and ``sample_ids`` (S,) by sample,
    ``out`` the rows of ``crokinole_rollouts``."""
    scratch = _sample_scratch(MAX_DISCS + fixed[0].shape[0])
    for s in range(lo, hi):
        launch = (launches[s, 0], launches[s, 1], launches[s, 2], launches[s, 3])
        a, b, ta, tb = _rollout(
            motion, judge, numbers, stances, board, launch, sd, later, stream, sample_ids[s], max_events, fixed, scratch
        )
        out[s, 0] = a
        out[s, 1] = b
        out[s, 2] = ta
        out[s, 3] = tb


def crokinole_rollouts(
    court: Court,
    own_stance,
    opponent_stance,
    board_x,
    board_y,
    board_own,
    launches: np.ndarray,
    sd_self: np.ndarray,
    sd_opp: np.ndarray,
    later: int,
    seed: int,
    game_index: int,
    shot: int,
    sample_ids=None,
) -> np.ndarray:
    """Roll out ``launches`` (S, 4: stance parameter, vx, vy, omega, as aimed) from a crokinole board
    (``board_own``: True for the shooter's discs), ``later`` shots left in the round after this one,
    the opponent's first; ``shot`` and ``sample_ids`` (default 0, 1, ...) place the draws. Returns
    (S, 4): the shooter's round total, the opponent's, and their 20s."""
    require_closed_form(court, "crokinole rollouts")
    bx = np.ascontiguousarray(board_x, dtype=np.float64)
    by = np.ascontiguousarray(board_y, dtype=np.float64)
    n = bx.size
    if n + 1 + later > MAX_DISCS:
        raise ValueError(f"later: at most {MAX_DISCS} discs in a round (got {n} on the board, {later} to come)")
    sides = np.where(np.asarray(board_own, dtype=bool), 0, 1).astype(np.int64)
    stances = np.ascontiguousarray(np.stack([np.asarray(own_stance.array), np.asarray(opponent_stance.array)]))
    sd = np.ascontiguousarray(np.stack([as_deviations(sd_self), as_deviations(sd_opp)]))
    launches = np.ascontiguousarray(launches, dtype=np.float64)
    out = np.empty((launches.shape[0], 4), np.int64)
    ja = judge_arrays(court)
    k0, k1 = seed_key(seed)
    run_shares(
        _rollouts,
        launches.shape[0],
        (court_table(court), kernel_arrays(court).orbit_tables),
        (ja, judge_prepare(ja)),
        _board_numbers(court),
        stances,
        (bx, by, sides),
        launches,
        sd,
        int(later),
        (k0, k1, int(game_index), int(shot) * SEARCH_DEPTHS),
        sample_numbers(sample_ids, launches.shape[0]),
        MAX_EVENTS,
        fixed_obstacles(court, court.holes[:1]),
        out,
    )
    return out


def _board_numbers(court: Court) -> np.ndarray:
    """What the kernels read of a crokinole board, in order: disc radius, deceleration mu g, disc
    restitution, the ditch's edge (centre x, y, radius), the hole (x, y, capture radius and speed), and
    the farthest a disc's centre may rest from the centre touching the 15 line."""
    hole = court.holes[0]
    edge = next(e for e in court.edges if e.kind == "circle")
    fifteen = court.line("15 line")
    decel = court.params["mu"] * court.params["gravity"]
    return np.array(
        [
            court.disc_radius,
            decel,
            court.params["disc_restitution"],
            edge.geom[0],
            edge.geom[1],
            edge.geom[2],
            hole.x,
            hole.y,
            hole.capture_radius,
            hole.capture_speed,
            fifteen.geom[2] + fifteen.width / 2 + court.disc_radius,
        ]
    )
