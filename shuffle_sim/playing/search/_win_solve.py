"""Win probability from any score by dynamic programming over one frame's outcome distribution.

The value of a state is the outcome-weighted value of the states the frame leads to, a finished game
worth 1 won, 0 lost, 1/2 tied; the states and game flows per game are in ``win_tables``'s docstring
(which re-exports these functions). The deck and pair sweeps run in numba until the values settle.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit

#: Score margins beyond the game point (and below zero) the tables span; scores beyond are clamped.
DECK_BELOW, DECK_ABOVE = 60, 60
POINTS_ABOVE = 60
#: Leads the deck's D-4 extension and fixed-frame tables span; leads beyond are clamped.
EXTENSION_SPAN = 80
FRAMES_SPAN = 200
#: Value iteration stops when no value changed by more than this in a sweep, or after MAX_SWEEPS.
TOLERANCE = 1e-10
MAX_SWEEPS = 2000


@jit.kernel
def _extension_sweeps(outcomes, probs, ext, tolerance, max_sweeps):
    """Value iteration for the D-4 extension of a deck game: E2[d], E1[d], the lead side's win
    probability before the first and the second half-round of the extension, ``d`` its lead;
    ``outcomes`` rows (lead, hammer, replayed). It does not depend on how the game got there."""
    e2 = np.full(2 * ext + 1, 0.5)
    e1 = np.full(2 * ext + 1, 0.5)
    for _ in range(max_sweeps):
        change = 0.0
        for d in range(-ext, ext + 1):
            a2 = 0.0
            a1 = 0.0
            for k in range(outcomes.shape[0]):
                nd = min(max(d + outcomes[k, 0] - outcomes[k, 1], -ext), ext)
                if outcomes[k, 2] != 0:
                    a2 += probs[k] * e2[nd + ext]
                    a1 += probs[k] * e1[nd + ext]
                else:
                    a2 += probs[k] * (1.0 - e1[-nd + ext])
                    if nd > 0:
                        a1 += probs[k]
                    elif nd == 0:
                        a1 += probs[k] * (1.0 - e2[ext])
            change = max(change, abs(a2 - e2[d + ext]), abs(a1 - e1[d + ext]))
            e2[d + ext] = a2
            e1[d + ext] = a1
        if change < tolerance:
            break
    return e2, e1


@jit.kernel
def _deck_sweeps(outcomes, probs, game_point, lo, n, tied, tolerance, max_sweeps):
    """Value iteration for a deck game to ``game_point``: V[l, h], the lead side's win probability
    before a half-round with scores l + lo (lead) and h + lo (hammer); ``tied``: the lead side's
    win probability before an extension begun level (E2[0])."""
    v = np.full((n, n), 0.5)
    for _ in range(max_sweeps):
        change = 0.0
        for i in range(n - 1, -1, -1):
            for j in range(n - 1, -1, -1):
                total = 0.0
                for k in range(outcomes.shape[0]):
                    li = min(max(i + outcomes[k, 0], 0), n - 1)
                    hj = min(max(j + outcomes[k, 1], 0), n - 1)
                    if outcomes[k, 2] != 0:
                        total += probs[k] * v[li, hj]
                        continue
                    ls = li + lo
                    hs = hj + lo
                    if ls >= game_point or hs >= game_point:
                        if ls > hs:
                            total += probs[k]
                        elif ls == hs:
                            total += probs[k] * (1.0 - tied)
                    else:
                        total += probs[k] * (1.0 - v[hj, li])
                change = max(change, abs(total - v[i, j]))
                v[i, j] = total
        if change < tolerance:
            break
    return v


@jit.kernel
def _frames_sweeps(outcomes, probs, frames, switch_at, span, tied, tolerance, max_sweeps):
    """Value iteration for a deck game of ``frames`` half-rounds: V[k, d + span], the win probability
    of the side leading half-round k (0-based) with a lead of d, by backward induction over k (a
    replay, C-20a, plays half-round k again: iterated to its fixed point). After half-round
    ``switch_at`` - 1 the sides switch colours (C-1) and the same side leads again (-1: never);
    after the last, a tie plays the D-4 extension led by the last hammer (``tied``: E2[0])."""
    v = np.full((frames, 2 * span + 1), 0.5)
    for f in range(frames - 1, -1, -1):
        for _ in range(max_sweeps):
            change = 0.0
            for d in range(-span, span + 1):
                total = 0.0
                for k in range(outcomes.shape[0]):
                    nd = min(max(d + outcomes[k, 0] - outcomes[k, 1], -span), span)
                    if outcomes[k, 2] != 0:
                        total += probs[k] * v[f, nd + span]
                    elif f + 1 == frames:
                        if nd > 0:
                            total += probs[k]
                        elif nd == 0:
                            total += probs[k] * (1.0 - tied)
                    elif f + 1 == switch_at:
                        total += probs[k] * v[f + 1, nd + span]
                    else:
                        total += probs[k] * (1.0 - v[f + 1, -nd + span])
                change = max(change, abs(total - v[f, d + span]))
                v[f, d + span] = total
            if change < tolerance:
                break
    return v


def _extension(outcomes: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return _extension_sweeps(
        np.ascontiguousarray(outcomes, dtype=np.int64),
        np.ascontiguousarray(probs, dtype=np.float64),
        EXTENSION_SPAN,
        TOLERANCE,
        MAX_SWEEPS,
    )


def deck_table(outcomes: np.ndarray, probs: np.ndarray, game_point: int) -> dict:
    """The deck tables for a game to ``game_point`` from half-round outcomes (rows: lead points,
    hammer points, replayed) and their probabilities."""
    lo = -DECK_BELOW
    n = game_point + DECK_ABOVE - lo + 1
    e2, e1 = _extension(outcomes, probs)
    v = _deck_sweeps(
        np.ascontiguousarray(outcomes, dtype=np.int64),
        np.ascontiguousarray(probs, dtype=np.float64),
        int(game_point),
        lo,
        n,
        float(e2[EXTENSION_SPAN]),
        TOLERANCE,
        MAX_SWEEPS,
    )
    return {
        "game_point": int(game_point),
        "lo": lo,
        "lead": v,
        "extension_first": e2,
        "extension_second": e1,
        "extension_span": EXTENSION_SPAN,
    }


def deck_frames_table(outcomes: np.ndarray, probs: np.ndarray, frames: int, switch: bool) -> dict:
    """The deck table for a game of ``frames`` half-rounds (MSA C-1; ``switch``: the sides switch
    colours at half way, so the side that led the last half-round before it leads the first after
    it), from half-round outcomes as ``deck_table`` takes them: ``lead[k, d + span]``, the win
    probability of the side leading half-round k with a lead of d, and the D-4 extension's tables."""
    e2, e1 = _extension(outcomes, probs)
    v = _frames_sweeps(
        np.ascontiguousarray(outcomes, dtype=np.int64),
        np.ascontiguousarray(probs, dtype=np.float64),
        int(frames),
        frames // 2 if switch else -1,
        FRAMES_SPAN,
        float(e2[EXTENSION_SPAN]),
        TOLERANCE,
        MAX_SWEEPS,
    )
    return {
        "frames": int(frames),
        "switch": bool(switch),
        "span": FRAMES_SPAN,
        "lead": v,
        "extension_first": e2,
        "extension_second": e1,
        "extension_span": EXTENSION_SPAN,
    }


def crokinole_table(probs: np.ndarray, rounds: int, championship: bool = False) -> dict:
    """V[d + 2 rounds, r, h]: the win probability of a side ``d`` round points ahead with ``r`` rounds
    left, ``h`` = 1 when it has the hammer in the next round. ``probs``: the hammer side's round won,
    tied, lost. A game level after its rounds is a tie (1/2), or in a championship game (crokinole
    tournament rules: "a 5th round will be played") goes to one more round, and another while tied,
    the hammer alternating: with the hammer, X = (won + tied lost) / (1 - tied^2), without it 1 - X."""
    span = 2 * rounds
    v = np.zeros((2 * span + 1, rounds + 1, 2))
    for d in range(-span, span + 1):
        v[d + span, 0, :] = 1.0 if d > 0 else (0.5 if d == 0 else 0.0)
    won, tied, lost = (float(p) for p in probs)
    if championship and tied < 1.0:
        sudden_death = (won + tied * lost) / (1.0 - tied * tied)
        v[span, 0, :] = (1.0 - sudden_death, sudden_death)
    gain = {1: (2, 1, 0), 0: (0, 1, 2)}  # own points for hammer won / tied / lost, with and without it
    for r in range(1, rounds + 1):
        for h in (0, 1):
            for d in range(-span, span + 1):
                total = 0.0
                for p, g in zip(probs, gain[h]):
                    nd = min(max(d + g - (2 - g), -span), span)
                    total += p * v[nd + span, r - 1, 1 - h]
                v[d + span, r, h] = total
    return {"rounds": int(rounds), "span": span, "values": v}


@jit.kernel
def _pair_sweeps(points, probs, game_point, n, tolerance, max_sweeps):
    """Horse collar: V[a, b], the first thrower's win probability before a pair of frames, and
    W[a, b], the same after the first thrower's frame (before the hammer's)."""
    v = np.full((n, n), 0.5)
    w = np.full((n, n), 0.5)
    for _ in range(max_sweeps):
        change = 0.0
        for a in range(n - 1, -1, -1):
            for b in range(n - 1, -1, -1):
                total = 0.0
                for k in range(points.shape[0]):
                    nb = min(b + points[k], n - 1)
                    if (a >= game_point or nb >= game_point) and a != nb:
                        total += probs[k] * (1.0 if a > nb else 0.0)
                    else:
                        total += probs[k] * v[a, nb]
                change = max(change, abs(total - w[a, b]))
                w[a, b] = total
        for a in range(n - 1, -1, -1):
            for b in range(n - 1, -1, -1):
                total = 0.0
                for k in range(points.shape[0]):
                    total += probs[k] * w[min(a + points[k], n - 1), b]
                change = max(change, abs(total - v[a, b]))
                v[a, b] = total
        if change < tolerance:
            break
    return v, w


def horse_collar_table(points: np.ndarray, probs: np.ndarray, game_point: int) -> dict:
    n = game_point + POINTS_ABOVE + 1
    v, w = _pair_sweeps(
        np.ascontiguousarray(points, dtype=np.int64),
        np.ascontiguousarray(probs, dtype=np.float64),
        int(game_point),
        n,
        TOLERANCE,
        MAX_SWEEPS,
    )
    return {"game_point": int(game_point), "first": v, "after_first": w}


def ricochet_table(outcomes: np.ndarray, probs: np.ndarray, game_point: int) -> dict:
    """V[s, o]: the next round's starter's win probability with scores (s, o) below ``game_point``.
    ``outcomes`` rows: (starter's points, other's points), one of them zero; the scorer starts next."""
    n = game_point
    v = np.zeros((n, n))
    stay = float(sum(p for (a, b), p in zip(outcomes, probs) if a == 0 and b == 0))
    for total in range(2 * n - 2, -1, -1):
        for s in range(max(0, total - n + 1), min(n - 1, total) + 1):
            o = total - s
            acc = 0.0
            for (a, b), p in zip(outcomes, probs):
                if a > 0:
                    acc += p * (1.0 if s + a >= game_point else v[s + a, o])
                elif b > 0:
                    acc += p * (0.0 if o + b >= game_point else 1.0 - v[o + b, s])
            v[s, o] = acc / (1.0 - stay) if stay < 1.0 else 0.5
    return {"game_point": int(game_point), "starter": v}
