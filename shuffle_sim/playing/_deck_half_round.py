"""One half-round of the deck engine in numba: the eight shots, the removals, C-20a, the score.

Each shot is planned in the canonical frame (``_deck_plan``), launched, run by the physics kernel's
own functions, and followed at once by the removal of dead, fallen and short discs (judged with
``judge.judge_one_prepared``); a dead disc touching a live one (MSA C-20a, from the kernel's contact
log) ends the half-round with its penalty. ``deck_engine`` loops over half-rounds.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.playing._board_shot import dead_touched_live, moved, out_of_play, run_among
from shuffle_sim.playing._deck_plan import _planned_shot, value_and_dead
from shuffle_sim.playing.players import half_turn

YELLOW_CODE = 0
DISCS = 8
#: Columns of a scoreboard entry: number, shooting end (0 head, 1 foot), lead colour code, points of
#: side 0 (yellow in game), points of side 1, points off side 0, points off side 1, replayed.
ENTRY_COLUMNS = 8
C20A_POINTS = 10


@jit.inline
def keep_live_discs(shot, n, turn, judges, board, in_play):
    """Remove at once what the shot of disc ``n`` left fallen, dead by the kernel (backstop, past the
    baseline) or judged dead at the target end, packing the live discs' positions, canonical values
    and colours (``board``: x, y, colour, value) to the front; returns their number. ``in_play[i]``
    says whether disc i stayed. ``shot``: the shot's integer state rows and rest rows (``run_among``);
    ``turn``: (whether the target is the head end, the pivot of the half
    turn to the canonical frame); ``judges``: the judge's arrays at the foot and at the head (each
    ``judge_arrays`` and ``judge_prepare``). A disc nothing touched has not moved: its standing and
    value stand as judged before."""
    ist, rest = shot
    head_target, px, py = turn
    ja_foot, prep_foot, ja_head, prep_head = judges
    bx, by, colour_of, value = board
    kept = 0
    for i in range(n + 1):
        in_play[i] = False
        if out_of_play(ist, i):
            continue
        if moved(ist, i, n):
            x = rest[i, 0]
            y = rest[i, 1]
            if head_target:
                dead = value_and_dead(x, y, ja_head, prep_head)[1]
                qx, qy = half_turn(px, py, x, y)
                v = value_and_dead(qx, qy, ja_foot, prep_foot)[0]
            else:
                v, dead = value_and_dead(x, y, ja_foot, prep_foot)
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
        in_play[i] = True
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
def _play_half_round(law, motion, turn, lead, board, plan, stream, shot_counter, logs, max_events, judges):
    """Shoot the half-round's eight discs, removing what each shot leaves dead at once; stop early on
    a C-20a replay. ``board``: the game's board arrays (``deck_engine._game_board``); ``plan``: the
    setup's numbers (``setup_numbers``), its spots, its read table (``_deck_setup.deck_reads``) and the
    sides' deviations; ``stream``: the seed's key words and the game index; ``law`` and ``motion``:
    the court's motion law and its arrays at the target end (``_board_shot``); ``turn`` and
    ``judges`` as ``keep_live_discs``. Returns (discs left, the side that caused a replay or -1,
    whether that was the eighth disc, the shot counter)."""
    bx, by, colour_of, cx, cy, value, reach, in_play = board
    head_target, px, py = turn
    n = 0
    penalty_side = -1
    ended_at_eight = False
    for k in range(DISCS):
        colour = lead if k % 2 == 0 else 1 - lead
        # Yellow on +x of the court: +x of the canonical frame from the head, -x from the foot.
        sign = 1.0 if (colour == YELLOW_CODE) != head_target else -1.0
        _to_canonical(n, head_target, px, py, bx, by, cx, cy)
        sx, sy, vx, vy, w = _planned_shot(
            (cx, cy, colour_of, value, reach), n, colour, sign, plan, stream, shot_counter
        )
        shot_counter += 1
        if head_target:
            sx, sy = half_turn(px, py, sx, sy)
            vx = -vx
            vy = -vy
        ist, rest, n_ev = run_among(law, motion, (bx, by, colour_of), n, (sx, sy, vx, vy, w), colour, logs, max_events)
        if dead_touched_live(logs[0], n_ev):
            penalty_side = colour
            ended_at_eight = k == DISCS - 1
            break
        n = keep_live_discs((ist, rest), n, turn, judges, (bx, by, colour_of, value), in_play)
    return n, penalty_side, ended_at_eight, shot_counter
