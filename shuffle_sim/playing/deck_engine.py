"""Deck shuffleboard games in numba: the fixed-plan player and the whole game loop, many games at once.

Two pieces that the Python driver (``shuffle_sim.playing.deck``) shares with the fast engine here,
re-exported from their own modules: ``DeckSetup`` (``_deck_setup``: where a deck player stands and
aims, from the court file, in the canonical frame from the head toward the foot diagram) and
``deck_plan`` (``_deck_plan``: the fixed plan, compiled).

``deck_games_kernel`` (``run_deck_games`` from Python) plays whole singles games to a game point, one game per
``prange`` iteration,
Python never called per shot: each half-round's eight shots (plan -> launch
(``players.straight_launch``) -> execution errors from the game's counter-based stream
(``players.shot_normals``) -> the physics kernel's own functions -> removal of dead, fallen and
short discs (judged with ``judge.judge_one_prepared``) -> the dead-disc rule C-20a from the
kernel's contact log), then the half-round's score, the end and colour alternation (C-3c), the end
of the game at game point and ahead, all discs of a half-round played (D-3), and the tie rule D-4
(one more round while tied). It plays exactly what the Python driver plays through the rules layer
(``shuffle_sim.rules.deck_game``), which is its oracle: the tests compare the two scoreboards,
half-round by half-round.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.court import Court
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import judge_prepare
from shuffle_sim.physics.numba_api import CLOSED_FORM, EV_COLUMNS, SEG_COLUMNS, court_table, kernel_arrays
from shuffle_sim.playing._deck_half_round import DISCS, ENTRY_COLUMNS, YELLOW_CODE, _play_half_round, _score_half_round
from shuffle_sim.playing._deck_plan import PLAN_DRAW, PLAN_TAKEOUT, canonical_values, deck_plan, value_and_dead
from shuffle_sim.playing._deck_setup import SPOT_ZONES, TAKEOUT_EXTRA, DeckSetup, deck_setup, setup_numbers
from shuffle_sim.playing.flat_only import require_closed_form
from shuffle_sim.playing.players.read_tables import no_reads
from shuffle_sim.rules.deck import BLACK, YELLOW

__all__ = [
    "BLACK_CODE",
    "COLOUR_CODES",
    "DISCS",
    "ENTRY_COLUMNS",
    "MAX_EVENTS",
    "MAX_HALF_ROUNDS",
    "PLAN_DRAW",
    "PLAN_TAKEOUT",
    "SPOT_ZONES",
    "TAKEOUT_EXTRA",
    "YELLOW_CODE",
    "DeckGames",
    "DeckSetup",
    "canonical_values",
    "deck_game_kernel",
    "deck_games_kernel",
    "deck_plan",
    "deck_setup",
    "run_deck_games",
    "setup_numbers",
    "value_and_dead",
]

BLACK_CODE = 1
#: The engines' code of each colour (the rules' names).
COLOUR_CODES = {YELLOW: YELLOW_CODE, BLACK: BLACK_CODE}
#: Event bound per shot (as ``physics.simulate``'s default).
MAX_EVENTS = 10_000
#: A game still going after this many half-rounds (replays included) stops unfinished.
MAX_HALF_ROUNDS = 400
TIE_EXTENSION_SINGLES = 2


# --------------------------------------------------------------------------------------------------
# The game loop


@jit.inline
def _game_board(radius):
    """A game's board arrays: positions, colours, canonical copies of the positions, values, reach,
    and whether each disc stayed in play after the last shot."""
    bx = np.empty(DISCS)
    by = np.empty(DISCS)
    colour_of = np.empty(DISCS, np.int64)
    cx = np.empty(DISCS)
    cy = np.empty(DISCS)
    value = np.zeros(DISCS, np.int64)  # canonical (foot-end) value of each disc, for the plan
    reach = np.full(DISCS, 2.0 * radius)
    in_play = np.empty(DISCS, np.bool_)
    return bx, by, colour_of, cx, cy, value, reach, in_play


@jit.inline
def _after_half_round(completed, extension_until, scores, game_point):
    """The winner once the game is decided (-1 while it goes on) and the half-round a tie's extension
    runs to (-1 without one): at game point and ahead (D-3), or one more round while tied (D-4)."""
    if extension_until >= 0:
        decide = completed >= extension_until
    else:
        decide = max(scores[0], scores[1]) >= game_point
    if decide:
        if scores[0] != scores[1]:
            return (0 if scores[0] > scores[1] else 1), extension_until
        extension_until = completed + TIE_EXTENSION_SINGLES
    return -1, extension_until


@jit.kernel
def deck_game_kernel(courts, ja_foot, ja_head, plan, key, game_index, game_point, max_half_rounds, max_events, entries):
    """Play one singles game, side 0 on yellow; fill ``entries`` (scoreboard rows, ``ENTRY_COLUMNS``).

    ``courts``: the foot end's and the head end's packed tables and the orbit tables; ``ja_foot``,
    ``ja_head``: the judge's arrays at the foot and at the head (``judge_arrays``; apart, as numba's
    parallel loop takes no tuple of them); ``plan``: ``setup_numbers`` (stance y, stance |x| inner
    and outer, preferred parameter, samples, take-out extra, disc radius, deceleration mu g, pivot x,
    pivot y), the spots (2, 5, 2) as ``DeckSetup`` and each side's execution-noise deviations (2, 5:
    speed, direction, spin, start, speed floor); ``key``: the seed's key words. Returns (entries
    used, score of side 0, score of side 1, winner 0 or 1 or -1 if unfinished, shots).
    """
    foot_table, head_table, orbit_tables = courts
    setup_numbers, spots, sd = plan
    # The engine runs courts the closed form aims on (``flat_only``): its plan reads nothing.
    half_round_plan = (setup_numbers, spots, no_reads(), sd)
    prep_foot = judge_prepare(ja_foot)
    prep_head = judge_prepare(ja_head)
    judges = (ja_foot, prep_foot, ja_head, prep_head)
    stream = (key[0], key[1], game_index)
    px = setup_numbers[8]
    py = setup_numbers[9]
    board = _game_board(setup_numbers[6])
    logs = (np.empty((2 * max_events + DISCS + 1, EV_COLUMNS)), np.empty((0, SEG_COLUMNS)))
    scores = np.zeros(2, np.int64)
    completed = 0
    n_entries = 0
    extension_until = -1
    shot_counter = 0
    winner = -1
    while n_entries < max_half_rounds:
        head_target = completed % 2 == 1  # the first half-round is shot from the head to the foot
        motion = (head_table if head_target else foot_table, orbit_tables)
        lead = completed % 2  # singles: the lead changes every half-round (C-3c)
        n, penalty_side, ended_at_eight, shot_counter = _play_half_round(
            CLOSED_FORM,
            motion,
            (head_target, px, py),
            lead,
            board,
            half_round_plan,
            stream,
            shot_counter,
            logs,
            max_events,
            judges,
        )
        ja = ja_head if head_target else ja_foot
        prep = prep_head if head_target else prep_foot
        replayed = _score_half_round(
            entries[n_entries], completed, head_target, lead, penalty_side, ended_at_eight, n, board, ja, prep, scores
        )
        n_entries += 1
        if replayed:
            continue
        completed += 1
        winner, extension_until = _after_half_round(completed, extension_until, scores, game_point)
        if winner >= 0:
            break
    return n_entries, scores[0], scores[1], winner, shot_counter


@jit.kernel
def _play_game_into(courts, ja_foot, ja_head, plan, key, first_game, g, game_point, max_half_rounds, max_events, outs):
    """Play game ``g`` of a batch (game index ``first_game + g``) into row ``g`` of ``outs``."""
    entries, n_entries, scores, winners, shots = outs
    used, a, b, w, s = deck_game_kernel(
        courts, ja_foot, ja_head, plan, key, first_game + g, game_point, max_half_rounds, max_events, entries[g]
    )
    n_entries[g] = used
    scores[g, 0] = a
    scores[g, 1] = b
    winners[g] = w
    shots[g] = s


@jit.parallel
def deck_games_kernel(courts, ja_foot, ja_head, plan, key, first_game, game_point, max_half_rounds, max_events, outs):
    """Play ``winners.size`` independent games (game indices first_game, first_game + 1, ...) in
    parallel; ``outs``: the arrays of ``DeckGames`` (entries, entries used, scores, winners, shots)."""
    for g in prange(outs[0].shape[0]):
        _play_game_into(
            courts, ja_foot, ja_head, plan, key, first_game, g, game_point, max_half_rounds, max_events, outs
        )


@dataclass
class DeckGames:
    """Results of ``run_deck_games``: G games, side 0 (yellow) and side 1 (black)."""

    entries: np.ndarray  # (G, max_half_rounds, ENTRY_COLUMNS) int64 scoreboard rows
    n_entries: np.ndarray  # (G,)
    scores: np.ndarray  # (G, 2)
    winners: np.ndarray  # (G,): 0, 1, or -1 for a game stopped unfinished
    shots: np.ndarray  # (G,)

    def scoreboard(self, g: int) -> np.ndarray:
        return self.entries[g, : self.n_entries[g]]


def run_deck_games(
    court: Court,
    noise: np.ndarray,
    seed: int,
    n_games: int,
    first_game: int = 0,
    game_point: int = 75,
    max_half_rounds: int = MAX_HALF_ROUNDS,
    setup: DeckSetup | None = None,
) -> DeckGames:
    """Play ``n_games`` singles deck games between two fixed-plan players in one numba call.

    ``noise`` (2, 5): the execution-noise deviations of side 0 (yellow) and side 1 (black), as
    ``players.noise_vector``. Game g uses the noise stream of game index ``first_game + g``.
    ``setup`` overrides the court's ``DeckSetup`` (a plan with another take-out speed, say).
    """
    from shuffle_sim.noise import seed_key

    require_closed_form(court, "the deck game engine")
    setup = deck_setup(court) if setup is None else setup
    foot = setup.court
    head = foot.for_end("head")
    noise = np.ascontiguousarray(noise, dtype=np.float64)
    if noise.shape != (2, 5):
        raise ValueError(f"noise must have shape (2, 5), got {noise.shape}")
    out = DeckGames(
        entries=np.zeros((n_games, max_half_rounds, ENTRY_COLUMNS), np.int64),
        n_entries=np.zeros(n_games, np.int64),
        scores=np.zeros((n_games, 2), np.int64),
        winners=np.zeros(n_games, np.int64),
        shots=np.zeros(n_games, np.int64),
    )
    deck_games_kernel(
        (court_table(foot), court_table(head), kernel_arrays(foot).orbit_tables),
        judge_arrays(foot),
        judge_arrays(head),
        (setup_numbers(setup), setup.spots, noise),
        seed_key(seed),
        int(first_game),
        int(game_point),
        int(max_half_rounds),
        MAX_EVENTS,
        (out.entries, out.n_entries, out.scores, out.winners, out.shots),
    )
    return out
