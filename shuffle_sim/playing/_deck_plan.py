"""The deck fixed-plan player, compiled: its choice of shot on a board and its next launch.

``deck_plan``: if the opponent has a disc that scores (7, 8 or 10), take out the best one (the first in
board order on a tie) with ``takeout_extra`` metres of slide to spare; otherwise draw to the first free
spot of: the 10, the 8 on the shooter's side, the other 8, the 7 on the shooter's side, the other 7 (a
spot is free when no disc's centre lies within a disc diameter of it); with none free, draw to the 10
anyway. ``plan_launch`` turns the plan into a launch as meant, read for the court from its read table
(``players.read_tables``; a flat court's launch is the straight one), ``_planned_shot`` into one with
the side's execution errors, in the canonical frame (``_deck_setup``); the win search's deck
rollouts (``search.deck_rollout``) plan their later shots with ``plan_launch`` too.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.judging.procedure import judge_one_call
from shuffle_sim.noise import STREAM_PLAY
from shuffle_sim.playing.players import clearest_start, executed_launch, shot_normals, straight_launch
from shuffle_sim.playing.players.read_tables import read_correction

PLAN_DRAW = 0
PLAN_TAKEOUT = 1


@jit.kernel
def deck_plan(bx, by, colour_of, value, n, colour, spots, takeout_extra, radius):
    """The fixed plan's shot for ``colour`` on a canonical board (the first ``n`` discs of bx, by).

    ``value``: each disc's judged value at the foot end (``canonical_values``). Returns (kind:
    PLAN_DRAW or PLAN_TAKEOUT, aim x, aim y, extra slide, the disc aimed at or -1).
    """
    best = -1
    best_value = 0
    for i in range(n):
        if colour_of[i] != colour and value[i] > best_value:
            best = i
            best_value = value[i]
    if best >= 0:
        return PLAN_TAKEOUT, bx[best], by[best], takeout_extra, best
    free_radius = 2.0 * radius
    for k in range(spots.shape[0]):
        free = True
        for i in range(n):
            if (bx[i] - spots[k, 0]) ** 2 + (by[i] - spots[k, 1]) ** 2 < free_radius * free_radius:
                free = False
                break
        if free:
            return PLAN_DRAW, spots[k, 0], spots[k, 1], 0.0, -1
    return PLAN_DRAW, spots[0, 0], spots[0, 1], 0.0, -1


@jit.kernel
def value_and_dead(x, y, ja, prepared):
    """A resting disc's judged value and dead standing (the judge compiled once, ``judge_one_call``)."""
    judged = judge_one_call(x, y, ja, prepared)
    return judged[0], judged[3]


@jit.kernel
def canonical_values(bx, by, n, ja, prepared, out):
    """Judged value of each of the first ``n`` discs of a canonical board (foot end) into ``out``."""
    for i in range(n):
        out[i] = value_and_dead(bx[i], by[i], ja, prepared)[0]


@jit.kernel
def _stance_array(sign, setup_numbers):
    y, lo, hi = setup_numbers[0], setup_numbers[1], setup_numbers[2]
    out = np.zeros(6)
    out[1] = sign * lo
    out[2] = y
    out[3] = sign * hi
    out[4] = y
    return out


@jit.inline
def plan_launch(stance, numbers, spots, reads, board, n, colour, sign):
    """The fixed plan's launch for ``colour`` from ``stance`` (the shooter's half, ``sign``) on a
    canonical board (``board``: x, y, colour, value and reach of its first ``n`` discs), as meant: the
    plan's aim (``deck_plan``, with the take-out's slide of ``numbers``, ``setup_numbers``), the
    clearest start of the stance and a straight launch without spin, read for the court (``reads``,
    ``players.read_tables``: a draw by its spot's entry, a take-out by its target's place on the
    grid). Returns (start parameter, vx, vy)."""
    bx, by, colour_of, value, reach = board
    side_spots = spots[0 if sign > 0 else 1]
    kind, ax, ay, extra, exclude = deck_plan(bx, by, colour_of, value, n, colour, side_spots, numbers[5], numbers[6])
    t = clearest_start(stance, numbers[3], np.int64(numbers[4]), ax, ay, bx[:n], by[:n], reach[:n], exclude)
    _, _, vx, vy = straight_launch(stance, t, ax, ay, extra, numbers[7])
    slot = -1
    if kind == PLAN_DRAW:
        for k in range(side_spots.shape[0]):
            if side_spots[k, 0] == ax and side_spots[k, 1] == ay:
                slot = k
                break
    vx, vy = read_correction(reads, 0 if sign > 0 else 1, t, slot, ax, ay, vx, vy)
    return t, vx, vy


@jit.inline
def _planned_shot(board, n, colour, sign, plan, stream, shot_counter):
    """The launch (x, y, vx, vy, omega) of the fixed plan's next shot for ``colour`` on a canonical
    board (as ``plan_launch``; from the head toward the foot), with the side's execution errors drawn
    from its Philox slot (``stream``: the seed's key words and the game index; ``plan``: the setup's
    numbers, its spots, its read table and the sides' deviations, side 0 playing yellow), the planned
    start kept if the perturbed one is not free."""
    numbers, spots, reads, sd = plan
    k0, k1, game_index = stream
    stance = _stance_array(sign, numbers)
    t, vx, vy = plan_launch(stance, numbers, spots, reads, board, n, colour, sign)
    z = shot_normals(k0, k1, np.uint64(game_index), np.uint64(STREAM_PLAY), np.uint64(shot_counter), np.uint64(0))
    bx, by, _, _, reach = board
    _, sx, sy, vx, vy, w = executed_launch(stance, t, vx, vy, 0.0, z, sd[colour], bx[:n], by[:n], reach[:n])
    return sx, sy, vx, vy, w
