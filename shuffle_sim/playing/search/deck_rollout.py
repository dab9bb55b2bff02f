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
from shuffle_sim.noise import SEARCH_DEPTHS, seed_key
from shuffle_sim.physics.numba_api import EV_COLUMNS, SEG_COLUMNS, court_law, court_motion
from shuffle_sim.playing._board_shot import dead_touched_live, run_among
from shuffle_sim.playing._deck_half_round import keep_live_discs
from shuffle_sim.playing._deck_plan import _stance_array, plan_launch
from shuffle_sim.playing._deck_setup import deck_reads
from shuffle_sim.playing.deck_engine import COLOUR_CODES, DISCS, canonical_values, deck_setup, setup_numbers
from shuffle_sim.playing.players.context import ShotContext
from shuffle_sim.playing.players.launch import as_deviations, executed_launch
from shuffle_sim.playing.search._draws import sample_numbers, search_normals

#: Rows of the contact log kept per shot (C-20a reads it); events beyond are still simulated.
LOG_ROWS = 1024
#: Event bound per shot.
MAX_EVENTS = 10_000
#: Slide to spare (m) of the rollout plan's take-outs: the expected-value player's firmer one, which
#: sends a disc struck in the 10 into the 10-off area (the fixed plan's 2 m leaves it in the 7s).
ROLLOUT_TAKEOUT_EXTRA = 3.0


@jit.inline
def _copy_board(board, bx, by, colour_of, value):
    """The resting discs (``board``: x, y, colour, value) into the sample's board arrays; their number."""
    n = board[0].shape[0]
    bx[:n] = board[0]
    by[:n] = board[1]
    colour_of[:n] = board[2]
    value[:n] = board[3]
    return n


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
    (x, y, colour, value, reach) and the rest positions and in-play flags kept (the root shot's
    first, then the last later shot's)."""
    logs = (np.empty((LOG_ROWS, EV_COLUMNS)), np.empty((0, SEG_COLUMNS)))
    board = (
        np.empty(DISCS + 1),
        np.empty(DISCS + 1),
        np.empty(DISCS + 1, np.int64),
        np.empty(DISCS + 1, np.int64),
        np.empty(DISCS + 1),
    )
    kept = (np.empty(DISCS + 1), np.empty(DISCS + 1), np.empty(2 * (DISCS + 1), np.bool_))
    return logs, board, kept


@jit.kernel
def _rollout(law, motion, judge, plan, board, root, launch, sds, later, stream, sample, max_events, scratch):
    """One sample: the root ``launch`` (start parameter, vx, vy, spin) by the root's colour from its
    half (``root``: sign, colour) under the shooter's errors, then ``later`` plan shots (``plan``: the
    setup's numbers, its spots, the court's read table), each side with its own deviations (``sds``:
    the shooter's, the opponent's). ``board``: the resting discs (x, y, colour, value); ``law`` and
    ``motion``: the court's motion law and its arrays (``_board_shot``); ``judge``: its judge's
    arrays (``judge_arrays``, ``judge_prepare``); ``stream``: as ``search_normals``; ``scratch`` as
    ``_sample_scratch``. Returns (yellow points, black points, C-20a colour or -1, the C-20a shot was
    the last of the half-round)."""
    logs, (bx, by, colour_of, value, reach), (rest_x, rest_y, in_play) = scratch
    numbers, spots, reads = plan
    root_sign, root_colour = root
    n = _copy_board(board, bx, by, colour_of, value)
    reach[:] = 2.0 * numbers[6]
    judges = (judge[0], judge[1], judge[0], judge[1])
    penalty = -1
    last = False
    for depth in range(later + 1):
        colour = root_colour if depth % 2 == 0 else 1 - root_colour
        sign = root_sign if colour == root_colour else -root_sign
        stance = _stance_array(float(sign), numbers)
        if depth == 0:
            t, vx, vy, w = launch
        else:
            t, vx, vy = plan_launch(stance, numbers, spots, reads, (bx, by, colour_of, value, reach), n, colour, sign)
            w = 0.0
        sd = sds[0] if colour == root_colour else sds[1]
        z = search_normals(stream, depth, sample)
        _, sx, sy, vx, vy, w = executed_launch(stance, t, vx, vy, w, z, sd, bx[:n], by[:n], reach[:n])
        ist, rest, n_ev = run_among(law, motion, (bx, by, colour_of), n, (sx, sy, vx, vy, w), colour, logs, max_events)
        if depth == 0:
            for i in range(n + 1):
                rest_x[i] = rest[i, 0]
                rest_y[i] = rest[i, 1]
        c20a = dead_touched_live(logs[0], n_ev)
        # The root shot's in-play flags go to the first half of ``in_play``, every later one's to the second.
        flags = in_play[0 if depth == 0 else DISCS + 1 :]
        n = keep_live_discs((ist, rest), n, (False, 0.0, 0.0), judges, (bx, by, colour_of, value), flags)
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
    lo, hi, law, motion, judge, plan, board, root, launches, sds, later, stream, sample_ids, max_events, outs
):
    """Samples ``lo`` to ``hi - 1``, one share of the samples (``threads.run_shares``) with its own
    scratch: the arguments as ``_rollout``'s, ``launches`` (S, 4) and ``sample_ids`` (S,) by sample,
    ``outs`` the output arrays (points, penalty, last, x, y, in play) of ``deck_rollouts``."""
    out_points, out_penalty, out_last, out_x, out_y, out_on = outs
    scratch = _sample_scratch()
    rest_x, rest_y, in_play = scratch[2]
    for s in range(lo, hi):
        launch = (launches[s, 0], launches[s, 1], launches[s, 2], launches[s, 3])
        yellow, black, penalty, last = _rollout(
            law, motion, judge, plan, board, root, launch, sds, later, stream, sample_ids[s], max_events, scratch
        )
        out_points[s, 0] = yellow
        out_points[s, 1] = black
        out_penalty[s] = penalty
        out_last[s] = last
        for i in range(out_x.shape[1]):
            out_x[s, i] = rest_x[i]
            out_y[s, i] = rest_y[i]
            out_on[s, i] = in_play[i]


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
    k0, k1 = seed_key(seed)
    run_shares(
        _rollouts,
        s,
        court_law(foot),
        court_motion(foot),
        (ja, prepared),
        (numbers, setup.spots, deck_reads(setup, foot, ROLLOUT_TAKEOUT_EXTRA, read_density)),
        (bx, by, colours, values),
        (int(root_sign), int(root_colour)),
        launches,
        (as_deviations(sd_self), as_deviations(sd_opp)),
        int(later),
        (k0, k1, int(game_index), int(shot) * SEARCH_DEPTHS),
        sample_numbers(sample_ids, s),
        MAX_EVENTS,
        tuple(out.values()),
    )
    return out


def rollouts_from(
    ctx: ShotContext, rows: np.ndarray, sd: np.ndarray, later: int, sample_ids=None, read_density: int = 1
) -> tuple[int, dict]:
    """``deck_rollouts`` of the launch ``rows`` (start parameter, vx, vy, spin) from what a deck
    shooter sees (``ctx``: the canonical board, the shooter's half ``info["sign"]``), both sides
    with the deviations ``sd``, placed in the search stream by ``ctx``'s shot (``read_density`` as
    ``deck_rollouts``). Returns the shooter's colour code and the rollouts' arrays. Colours are the
    engines' codes (``COLOUR_CODES``): a shooter of neither colour plays yellow, a disc of neither
    colour is black's."""
    colour = COLOUR_CODES.get(ctx.shooter, 0)
    board_colour = [COLOUR_CODES.get(t, 1) for t in ctx.board_team]
    return colour, deck_rollouts(
        ctx.court,
        ctx.board_x,
        ctx.board_y,
        board_colour,
        ctx.info["sign"],
        colour,
        rows,
        sd,
        sd,
        later,
        ctx.seed,
        ctx.game_index,
        ctx.shot,
        sample_ids,
        read_density,
    )
