"""The shot lab's shots: one shot through the exact kernel, and N noisy copies of it in one batch.

One shot is the board's discs (the holed ones set aside) plus the shot disc, run to rest by
``physics.simulate``: the same call, on the same scene, as ``shuffle-sim simulate``. What comes back
for the page: the discs' positions at evenly spaced instants (closed-form motion, for the
animation), the marks of the event log (impacts, cushion and peg hits, falls, holes, kills) where
they happened, and the board after the shot. Discs that fell or were made dead while moving (past a
kill line, off a killing cushion, MSA C-20, C-21) leave the board, as players take them off.

Noisy copies perturb the intended shot with a skill preset's execution errors (``noise``: relative
speed, direction, spin, start; counter-based Philox draws, so a seed gives the same copies on any
machine) and play them all in one ``shots.simulate_shots`` call. Where the shot disc comes to rest
becomes a density map; its judged value and the frame score after the shot (the game's rules,
``rules.score_board``) become probabilities. Scoring runs the rules in Python, about 0.1 ms a board,
so the frame score is tallied over the first ``SCORED_COPIES`` copies and the page says so; the
shot disc's value and the density use every copy.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.lab.board import Disc, LabBoard, LabError, frame_score, shot_half
from shuffle_sim.noise import NoiseModel, normals
from shuffle_sim.physics import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    FALL,
    HOLED,
    KILLED,
    STATUS_FALLEN,
    simulate,
)
from shuffle_sim.physics.numba_api import sample_trajectories
from shuffle_sim.playing.shooting import one_numba_thread
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.shots import simulate_shots

#: Animation samples per second of simulated time, and at most this many samples per shot.
FRAMES_PER_SECOND = 60
MAX_FRAMES = 1500
#: A launch that would slide this many times the court's longest side on an empty surface is
#: impossible for a player (and only feeds the event bound).
MAX_SLIDE_COURTS = 3.0
#: Noisy copies at most in one request, and how many of them the frame score is tallied over.
MAX_COPIES = 200_000
SCORED_COPIES = 1000
#: Event kinds marked on the page, and their labels.
MARKED_EVENTS = {DISC_DISC: "impact", DISC_CUSHION: "cushion", DISC_PEG: "peg", FALL: "fall", HOLED: "holed",
                 KILLED: "killed"}


@dataclass(frozen=True)
class Aim:
    """An intended shot: start (m), speed (m/s), direction (degrees counter-clockwise from +x), spin
    (rad/s, counter-clockwise seen from above) and the shooter's team."""

    x: float
    y: float
    speed: float
    direction: float
    spin: float
    team: str

    @property
    def velocity(self) -> tuple[float, float]:
        a = math.radians(self.direction)
        return self.speed * math.cos(a), self.speed * math.sin(a)


def max_speed(court: Court) -> float:
    """The fastest launch the lab accepts: one that would slide ``MAX_SLIDE_COURTS`` times the court's
    longest side on an empty surface, sqrt(2 mu g d)."""
    x0, y0, x1, y1 = court.bounds
    d = MAX_SLIDE_COURTS * max(x1 - x0, y1 - y0)
    return math.sqrt(2.0 * court.params["mu"] * court.params["gravity"] * d)


def check_aim(court: Court, aim: Aim) -> None:
    """``LabError`` for a speed, direction or spin that is not a finite number or a speed no player
    could give (not positive, or beyond ``max_speed``)."""
    for name in ("x", "y", "speed", "direction", "spin"):
        value = getattr(aim, name)
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise LabError(f"shot {name} must be a finite number (got {value!r})")
    top = max_speed(court)
    if not 0.0 < aim.speed <= top:
        raise LabError(f"shot speed {aim.speed:g} m/s is impossible on court {court.name!r}: give a speed above 0 "
                       f"and at most {top:.2f} m/s (a slide of {MAX_SLIDE_COURTS:g} court lengths)")


def shot_scene(board: LabBoard, aim: Aim) -> Scene:
    """The scene of the shot: the discs in play at rest, then the shot disc (last)."""
    check_aim(board.court, aim)
    keep = board.in_play()
    vx, vy = aim.velocity
    n = len(keep)
    scene = Scene(court=board.court, x=np.append(board.xs[keep], aim.x), y=np.append(board.ys[keep], aim.y),
                  vx=np.append(np.zeros(n), vx), vy=np.append(np.zeros(n), vy), omega=np.append(np.zeros(n), aim.spin),
                  team=[board.teams[k] for k in keep] + [aim.team], source="shot")
    try:
        scene.validate()
        from shuffle_sim.physics import check_obstacles

        check_obstacles(board.court, scene.x, scene.y, "shot: discs")
    except SceneError as exc:
        raise LabError(_start_message(str(exc), n)) from None
    return scene


def _start_message(message: str, n_board: int) -> str:
    """A scene error about the shot disc (index ``n_board``) named as the shot's start."""
    return message.replace(f"discs[{n_board}]", "the shot's start").replace("shot: ", "")


@dataclass
class ShotPlay:
    """A shot played: its scene and result, samples for the animation, event marks, the new board."""

    scene: Scene
    result: object  # physics.SimResult
    times: np.ndarray  # (T,)
    positions: np.ndarray  # (T, N, 2); NaN once a disc has left the surface, but the last row is the rest state
    marks: list[dict]  # {"t", "x", "y", "kind", "disc"}
    board_after: list[Disc]
    removed: list[int]  # scene discs that left the board (fell or were killed)


def play_shot(board: LabBoard, aim: Aim) -> ShotPlay:
    """Run the shot to rest with the exact kernel (``physics.simulate``) and prepare its animation."""
    scene = shot_scene(board, aim)
    result = simulate(scene)
    if not result.ok:
        raise LabError("the shot hit the event bound (10,000 events) before every disc came to rest")
    n_frames = int(min(MAX_FRAMES, max(2, math.ceil(result.t_end * FRAMES_PER_SECOND) + 1)))
    times = np.linspace(0.0, result.t_end, n_frames)
    positions = np.empty((n_frames, scene.n_discs, 2))
    sample_trajectories(result.trajectories.table, result.trajectories.orbits, result.trajectories.log, scene.n_discs,
                        times, positions)
    # The last sample is the rest state exactly: fallen discs where they crossed the edge, holed ones
    # at the hole's centre (the samples hide both once they leave the surface).
    positions[-1, :, 0] = result.x
    positions[-1, :, 1] = result.y
    marks = _event_marks(result, scene.n_discs)
    removed = [i for i in range(scene.n_discs) if result.status[i] == STATUS_FALLEN or result.dead[i]]
    after = [Disc(float(result.x[i]), float(result.y[i]), scene.team[i]) for i in range(scene.n_discs)
             if i not in removed]
    holed = [board.discs[k] for k in range(len(board.discs)) if k not in board.in_play()]
    return ShotPlay(scene, result, times, positions, marks, holed + after, removed)


def _event_marks(result, n_discs: int) -> list[dict]:
    """Where each marked event of the log happened (disc a's centre at that instant)."""
    ev = result.events
    keep = [k for k in range(len(ev)) if int(ev.kind[k]) in MARKED_EVENTS]
    if not keep:
        return []
    times = np.ascontiguousarray(ev.t[keep], dtype=np.float64)
    order = np.argsort(times, kind="stable")
    at = np.empty((len(keep), n_discs, 2))
    sample_trajectories(result.trajectories.table, result.trajectories.orbits, result.trajectories.log, n_discs,
                        times[order], at)
    marks = []
    for row, k in zip(order, np.array(keep)[order]):
        a = int(ev.a[k])
        kind = int(ev.kind[k])
        x, y = at[list(order).index(row), a]
        if kind in (FALL, HOLED) or not (math.isfinite(x) and math.isfinite(y)):
            x, y = result.x[a], result.y[a]
        marks.append({"t": float(ev.t[k]), "x": float(x), "y": float(y), "kind": MARKED_EVENTS[kind], "disc": a})
    return marks


# ---- noisy copies ---------------------------------------------------------------------------------

@dataclass
class Copies:
    """N noisy copies of a shot: where the shot disc rests, and the outcome probabilities."""

    n: int
    played: int  # copies whose start lay on the surface, clear of discs and obstacles
    rest_x: np.ndarray  # shot disc's rest centres, copies that stayed on the surface
    rest_y: np.ndarray
    fell: float  # share of played copies whose shot disc fell (or was holed: see ``value``)
    dead: float
    value: dict[int, float]  # shot disc's value -> probability over the played copies
    scores: dict[str, float]  # "yellow 10, black 7" -> probability over the scored copies
    mean_scores: dict[str, float]  # each team's mean frame score over the scored copies
    scored: int  # copies the frame score was tallied over


def noisy_copies(board: LabBoard, aim: Aim, noise: NoiseModel, n: int, seed: int = 0) -> Copies:
    """Play ``n`` copies of ``aim`` under ``noise`` against the board, in one batch call."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_COPIES:
        raise LabError(f"noisy copies must be a whole number from 1 to {MAX_COPIES:,} (got {n!r})")
    scene = shot_scene(board, aim)
    court = board.court
    z = normals(seed, 0, n, 5)
    gain = np.maximum(1.0 + noise.speed * z[:, 0], 0.0)
    angle = math.radians(aim.direction) + noise.direction * z[:, 1]
    vx = aim.speed * gain * np.cos(angle)
    vy = aim.speed * gain * np.sin(angle)
    omega = aim.spin + noise.spin * z[:, 2]
    x = aim.x + noise.start * z[:, 3]
    y = aim.y + noise.start * z[:, 4]
    resting = None
    if scene.n_discs > 1:
        m = scene.n_discs - 1
        resting = Scene(court=court, x=scene.x[:m], y=scene.y[:m], vx=np.zeros(m), vy=np.zeros(m),
                        omega=np.zeros(m), team=scene.team[:m], source="board")
    batch = simulate_shots(court, x, y, vx, vy, omega, board=resting, bad_starts="skip")
    played = batch.played & batch.ok
    n_played = int(played.sum())
    shot = -1
    fallen = batch.status[:, shot] == STATUS_FALLEN
    on_surface = played & ~fallen
    values = Counter(batch.value[played, shot].tolist())
    probability = {int(v): c / max(n_played, 1) for v, c in sorted(values.items())}
    scores, means, scored = _score_copies(court, batch, played, scene.team, shot_half(court, aim.x))
    return Copies(n=n, played=n_played, rest_x=batch.x[on_surface, shot].copy(), rest_y=batch.y[on_surface, shot].copy(),
                  fell=float((fallen & played).sum()) / max(n_played, 1),
                  dead=float((batch.dead[played, shot] & ~fallen[played]).sum()) / max(n_played, 1),
                  value=probability, scores=scores, mean_scores=means, scored=scored)


def _score_copies(court: Court, batch, played: np.ndarray, teams: list[str], half: str | None = None):
    """Frame-score probabilities over the first ``SCORED_COPIES`` played copies: each copy's board
    after the shot (fallen and dead discs off) scored by the game's rules."""
    rows = np.flatnonzero(played)[:SCORED_COPIES]
    tally: Counter = Counter()
    sums: dict[str, float] = {}
    with one_numba_thread():
        for k in rows:
            keep = (batch.status[k] != STATUS_FALLEN) & ~batch.dead[k]
            frame = frame_score(court, batch.x[k, keep], batch.y[k, keep], [t for t, o in zip(teams, keep) if o],
                                half)
            if frame is None:
                return {}, {}, 0
            tally[", ".join(f"{team} {points}" for team, points in frame.scores.items()) or "no score"] += 1
            for team, points in frame.scores.items():
                sums[team] = sums.get(team, 0.0) + points
    total = max(len(rows), 1)
    scores = {key: count / total for key, count in tally.most_common()}
    return scores, {team: s / total for team, s in sums.items()}, int(len(rows))


def advise_board(board: LabBoard, skill, shooter: str, position: str) -> list:
    """The candidate shots for the lab's board ranked as ``shuffle-sim advise`` ranks them
    (``play.advisor.advise``): expected frame value, success probability and spread under ``skill``."""
    from shuffle_sim.playing.advisor import advise
    from shuffle_sim.playing.players import ExpectedValue, Player
    from shuffle_sim.rules.common import Board

    rules_board = Board(board.court, board.xs, board.ys, tuple(board.teams))
    with one_numba_thread():
        _, advice = advise(board.court.game, rules_board, Player(skill.name or "preset", skill, ExpectedValue()),
                           shooter=shooter, position=position)
    return advice
