"""One half-round of the deck engine in numba: the eight shots, the removals, C-20a, the score.

Each shot is planned in the canonical frame (``_deck_plan``), launched, run by the physics kernel's
own functions, and followed at once by the removal of dead, fallen and short discs (judged with
``judge.judge_one_prepared``); a dead disc touching a live one (MSA C-20a, from the kernel's contact
log) ends the half-round with its penalty. ``deck_engine`` loops over half-rounds.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.numba_api import (
    DEAD,
    DISC_DISC,
    N_FLOAT_ROWS,
    N_INT_ROWS,
    STATUS,
    STATUS_FALLEN,
    TOUCHED,
    place_disc,
    run_table,
    state_at,
)
from shuffle_sim.playing._deck_plan import _planned_shot, value_and_dead
from shuffle_sim.playing.players import half_turn
from shuffle_sim.playing.players.read_tables import no_reads

YELLOW_CODE = 0
DISCS = 8
#: Columns of a scoreboard entry: number, shooting end (0 head, 1 foot), lead colour code, points of
#: side 0 (yellow in game), points of side 1, points off side 0, points off side 1, replayed.
ENTRY_COLUMNS = 8
C20A_POINTS = 10


@jit.inline
def _keep_live_discs(
    table,
    orbit_tables,
    st,
    ist,
    m,
    n,
    t_end,
    head_target,
    px,
    py,
    bx,
    by,
    value,
    colour_of,
    ja_foot,
    prep_foot,
    ja_head,
    prep_head,
):
    """Remove at once what a shot left fallen, dead by the kernel (backstop, past the baseline) or
    judged dead, packing the live discs' positions, values and colours to the front; returns their
    number. A disc nothing touched has not moved: its standing and value stand as judged before."""
    kept = 0
    for i in range(m):
        if ist[STATUS, i] == STATUS_FALLEN or ist[DEAD, i] != 0:
            continue
        moved = i == n or ist[TOUCHED, i] != 0
        if moved:
            x, y, _, _, _ = state_at(table, orbit_tables, st, ist, i, t_end)
            if head_target:
                dead = value_and_dead(x, y, ja_head, prep_head)[1]
                qx, qy = half_turn(px, py, x, y)
            else:
                dead = value_and_dead(x, y, ja_foot, prep_foot)[1]
                qx, qy = x, y
            if dead:
                continue
            bx[kept] = x
            by[kept] = y
            value[kept] = value_and_dead(qx, qy, ja_foot, prep_foot)[0]
        else:
            bx[kept] = bx[i]
            by[kept] = by[i]
            value[kept] = value[i]
        colour_of[kept] = colour_of[i]
        kept += 1
    return kept


@jit.inline
def _half_round_points(n, bx, by, colour_of, ja, prep):
    """Each side's points for the half-round: the judged values of its discs at the target end."""
    points = np.zeros(2, np.int64)
    for i in range(n):
        points[colour_of[i]] += value_and_dead(bx[i], by[i], ja, prep)[0]
    return points


@jit.inline
def _to_canonical(n, head_target, px, py, bx, by, cx, cy):
    """The board's first ``n`` discs in the canonical frame into ``cx``, ``cy``: turned half a turn
    about (px, py) for a half-round shot toward the head, as they are toward the foot."""
    for i in range(n):
        if head_target:
            cx[i], cy[i] = half_turn(px, py, bx[i], by[i])
        else:
            cx[i] = bx[i]
            cy[i] = by[i]


@jit.inline
def _run_shot(table, orbit_tables, n, bx, by, sx, sy, vx, vy, w, ev, no_seg, max_events):
    """Run a disc launched from (sx, sy) among the ``n`` resting discs; returns the kernel's state,
    the number of events logged in ``ev`` and the time everything came to rest."""
    m = n + 1
    st = np.empty((N_FLOAT_ROWS, m))
    ist = np.empty((N_INT_ROWS, m), np.int64)
    pair_t = np.full((m, m), np.inf)
    for i in range(n):
        place_disc(table, orbit_tables, st, ist, i, bx[i], by[i], 0.0, 0.0, 0.0)
    place_disc(table, orbit_tables, st, ist, n, sx, sy, vx, vy, w)
    n_ev, _, _, t_end, _ = run_table(table, orbit_tables, st, ist, pair_t, ev, no_seg, max_events)
    return st, ist, n_ev, t_end


@jit.inline
def _dead_touched_live(ev, n_ev):
    """MSA C-20a: whether a dead disc touched a live one during the shot (the kernel's contact log)."""
    touched = False
    for e in range(n_ev):
        if ev[e, 1] == DISC_DISC and (ev[e, 4] != 0.0) != (ev[e, 5] != 0.0):
            touched = True
            break
    return touched


@jit.inline
def _score_half_round(row, completed, head_target, lead, penalty_side, ended_at_eight, n, board, ja, prep, scores):
    """Fill a half-round's scoreboard row and add its points (or C-20a's penalty) to ``scores``;
    returns whether it is replayed (C-20a before the eighth disc: same end, same lead)."""
    bx, by, colour_of = board[0], board[1], board[2]
    row[0] = completed
    row[1] = 1 if head_target else 0
    row[2] = lead
    for c in range(3, ENTRY_COLUMNS):
        row[c] = 0
    if penalty_side >= 0:
        row[5 + penalty_side] = C20A_POINTS
        scores[penalty_side] -= C20A_POINTS
        if not ended_at_eight:
            row[7] = 1
            return True
    else:
        points = _half_round_points(n, bx, by, colour_of, ja, prep)
        row[3] = points[0]
        row[4] = points[1]
        scores[0] += points[0]
        scores[1] += points[1]
    return False


@jit.inline
def _play_half_round(
    table,
    orbit_tables,
    head_target,
    lead,
    px,
    py,
    board,
    spots,
    setup_numbers,
    sd,
    k0,
    k1,
    game_index,
    shot_counter,
    ev,
    no_seg,
    max_events,
    ja_foot,
    prep_foot,
    ja_head,
    prep_head,
):
    """Shoot the half-round's eight discs, removing what each shot leaves dead at once; stop early on
    a C-20a replay. ``board``: the game's board arrays (``deck_engine._game_board``). Returns (discs
    left, the side that caused a replay or -1, whether that was the eighth disc, the shot counter)."""
    bx, by, colour_of, cx, cy, value, reach = board
    reads = no_reads()  # the engine runs closed-form courts only (``flat_only``)
    n = 0
    penalty_side = -1
    ended_at_eight = False
    for k in range(DISCS):
        colour = lead if k % 2 == 0 else 1 - lead
        # Yellow on +x of the court: +x of the canonical frame from the head, -x from the foot.
        sign = 1.0 if (colour == YELLOW_CODE) != head_target else -1.0
        _to_canonical(n, head_target, px, py, bx, by, cx, cy)
        sx, sy, vx, vy, w = _planned_shot(
            cx,
            cy,
            colour_of,
            value,
            reach,
            n,
            colour,
            sign,
            spots,
            setup_numbers,
            reads,
            sd,
            k0,
            k1,
            game_index,
            shot_counter,
        )
        shot_counter += 1
        if head_target:
            sx, sy = half_turn(px, py, sx, sy)
            vx = -vx
            vy = -vy
        m = n + 1
        st, ist, n_ev, t_end = _run_shot(table, orbit_tables, n, bx, by, sx, sy, vx, vy, w, ev, no_seg, max_events)
        bx[n] = sx
        by[n] = sy
        colour_of[n] = colour
        if _dead_touched_live(ev, n_ev):
            penalty_side = colour
            ended_at_eight = k == DISCS - 1
            break
        n = _keep_live_discs(
            table,
            orbit_tables,
            st,
            ist,
            m,
            n,
            t_end,
            head_target,
            px,
            py,
            bx,
            by,
            value,
            colour_of,
            ja_foot,
            prep_foot,
            ja_head,
            prep_head,
        )
    return n, penalty_side, ended_at_eight, shot_counter
