"""Noisy copies of a lab shot: N executions of the intended shot under a skill preset's errors.

The copies perturb the intended shot with the preset's execution errors (``noise``: relative speed,
direction, spin, start; counter-based Philox draws, so a seed gives the same copies on any machine)
and play them all in one ``shots.simulate_shots`` call: where the shot disc comes to rest becomes a
density map (every copy), with the shares that fell or died.

What the shot is worth needs the game's rules after the shot (20s set aside, the hit rule, dead
discs removed, the scoring half, C-20a): the first ``SCORED_COPIES`` played copies are judged by the
rules (``referee.rule_shot``) and scored (``referee.frame_score``), each from the outcome a game's
shot gives the rules (``copy_outcome``: what ``playing.shooting.shoot`` gives for the same shot). That
gives the probabilities of the shot disc's outcome and of the frame score; the page says over how
many copies.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.lab.board import LabBoard, LabError
from shuffle_sim.lab.referee import after_ruling, frame_score, rule_shot
from shuffle_sim.lab.shots import Aim, shot_scene
from shuffle_sim.noise import NoiseModel, normals
from shuffle_sim.physics import STATUS_FALLEN
from shuffle_sim.physics.scene import Scene
from shuffle_sim.playing.players import Launch
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.common import Contact
from shuffle_sim.rules.rulings import RestState, ShotOutcome, into_gutter
from shuffle_sim.shots import simulate_shots

#: Noisy copies at most in one request.
MAX_COPIES = 200_000
#: Copies judged by the rules and scored.
SCORED_COPIES = 500
#: Games whose rules read each contact's dead standings (deck, C-20a): their copies with a dead disc
#: are played again alone for the contact log.
CONTACT_LOG_GAMES = ("deck",)


@dataclass
class Copies:
    """N noisy copies of a shot: where the shot disc rests, and the outcome probabilities."""

    n: int
    played: int  # copies whose start lay on the surface, clear of discs and obstacles
    rest_x: np.ndarray  # shot disc's rest centres, copies that stayed on the surface
    rest_y: np.ndarray
    fell: float  # share of played copies whose shot disc fell
    dead: float  # share of played copies whose shot disc stayed on the surface, dead
    outcome: dict[str, float]  # the shot disc after the rules -> probability over the scored copies
    scores: dict[str, float]  # "yellow 10, black 7" -> probability over the scored copies
    mean_scores: dict[str, float]  # each team's mean frame score over the scored copies
    scored: int  # copies the rules were applied to


@dataclass(frozen=True)
class Launches:
    """The copies' launch states, one row per copy."""

    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    omega: np.ndarray


def launches(aim: Aim, noise: NoiseModel, n: int, seed: int = 0) -> Launches:
    """``n`` executions of ``aim`` under ``noise`` (stream 0 of ``seed``)."""
    z = normals(seed, 0, n, 5)
    # The speed error's proportional part, and its absolute floor (``NoiseModel``) when it has one.
    relative = noise.speed if noise.speed_floor == 0 else noise.speed_sd(aim.speed) / aim.speed
    gain = np.maximum(1.0 + relative * z[:, 0], 0.0)
    angle = math.radians(aim.direction) + noise.direction * z[:, 1]
    return Launches(
        x=aim.x + noise.start * z[:, 3],
        y=aim.y + noise.start * z[:, 4],
        vx=aim.speed * gain * np.cos(angle),
        vy=aim.speed * gain * np.sin(angle),
        omega=aim.spin + noise.spin * z[:, 2],
    )


def noisy_copies(board: LabBoard, aim: Aim, noise: NoiseModel, n: int, seed: int = 0) -> Copies:
    """Play ``n`` copies of ``aim`` under ``noise`` against the board, in one batch call, and rule
    and score the first ``SCORED_COPIES`` of them."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_COPIES:
        raise LabError(f"noisy copies must be a whole number from 1 to {MAX_COPIES:,} (got {n})")
    scene = shot_scene(board, aim)
    court = board.court
    shots = launches(aim, noise, n, seed)
    resting = None
    if scene.n_discs > 1:
        m = scene.n_discs - 1
        resting = Scene(
            court=court,
            x=scene.x[:m],
            y=scene.y[:m],
            vx=np.zeros(m),
            vy=np.zeros(m),
            omega=np.zeros(m),
            team=scene.team[:m],
            source="board",
        )
    batch = simulate_shots(court, shots.x, shots.y, shots.vx, shots.vy, shots.omega, board=resting, bad_starts="skip")
    played = batch.played & batch.ok
    n_played = int(played.sum())
    fallen = batch.status[:, -1] == STATUS_FALLEN
    on_surface = played & ~fallen
    outcome, scores, means, scored = _rule_copies(board, aim, shots, batch, np.flatnonzero(played)[:SCORED_COPIES])
    return Copies(
        n=n,
        played=n_played,
        rest_x=batch.x[on_surface, -1].copy(),
        rest_y=batch.y[on_surface, -1].copy(),
        fell=float((fallen & played).sum()) / max(n_played, 1),
        dead=float((batch.dead[:, -1] & on_surface).sum()) / max(n_played, 1),
        outcome=outcome,
        scores=scores,
        mean_scores=means,
        scored=scored,
    )


def _rule_copies(board: LabBoard, aim: Aim, shots: Launches, batch, rows: np.ndarray):
    """The shot disc's outcome and the frame score over the copies ``rows``: each played as a game
    plays a shot and judged by the game's rules."""
    court = board.court
    teams = [*board.teams, aim.team]
    outcomes: Counter = Counter()
    tally: Counter = Counter()
    sums: dict[str, float] = {}
    with one_numba_thread():
        for k in rows:
            launch = Launch(
                0.0, float(shots.x[k]), float(shots.y[k]), float(shots.vx[k]), float(shots.vy[k]), float(shots.omega[k])
            )
            ruling = rule_shot(court, teams, copy_outcome(board, batch, int(k), launch), board.state, launch.x)
            after = after_ruling(board.state, ruling)
            frame = frame_score(court, after.discs, after)
            outcomes[shot_outcome(ruling, frame, len(teams) - 1)] += 1
            if frame is None:
                continue
            tally[", ".join(f"{team} {points}" for team, points in frame.scores.items()) or "no score"] += 1
            for team, points in frame.scores.items():
                sums[team] = sums.get(team, 0.0) + points
    total = max(len(rows), 1)
    outcome = {key: count / total for key, count in outcomes.most_common()}
    scores = {key: count / total for key, count in tally.most_common()}
    return outcome, scores, {team: s / total for team, s in sums.items()}, len(rows)


def copy_outcome(board: LabBoard, batch, k: int, launch: Launch) -> ShotOutcome:
    """Copy ``k`` of a batch as the rules take a shot (``playing.shooting.shoot``'s outcome): the rest
    state, fallen discs moved into the gutter, and the disc-disc contacts as the shot disc and each
    disc it touched. That chain is the one the contact log gives: the discs at rest never meet, so
    every disc touched was set moving by the shot disc, directly or through others. A copy of a game
    that reads each contact's dead standings (``CONTACT_LOG_GAMES``) with a dead disc is played
    again alone for its log."""
    court = board.court
    if court.game in CONTACT_LOG_GAMES and batch.dead[k].any():
        return shoot(court, board.xs, board.ys, launch)
    x, y = batch.x[k].copy(), batch.y[k].copy()
    fallen = batch.status[k] == STATUS_FALLEN
    for i in np.flatnonzero(fallen):
        x[i], y[i] = into_gutter(court, float(x[i]), float(y[i]))
    shot = len(x) - 1
    contacts = [Contact(shot, int(i), False, False) for i in np.flatnonzero(batch.touched[k]) if i != shot]
    return ShotOutcome(RestState(batch.status[k].copy()), x, y, fallen, batch.dead[k].copy(), contacts, launch.x)


def shot_outcome(ruling, frame, shot: int) -> str:
    """What became of the shot disc (index ``shot`` of the shot's discs): the rules' reason when they
    removed it, else what it scores in the frame (found by where it rests: the game's frame score
    may list the discs in its own order)."""
    if shot in ruling.why:
        return f"removed: {ruling.why[shot]}"
    disc = ruling.kept[-1]  # the shot disc is the last of the discs kept
    scored = next((d for d in (frame.discs if frame is not None else ()) if (d.x, d.y) == (disc.x, disc.y)), None)
    return "stays" if scored is None else f"stays, scores {scored.value}"
