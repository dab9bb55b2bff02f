"""The shot lab's shots: one shot through the exact kernel, judged by the game's rules.

One shot is the board's discs plus the shot disc, run to rest by ``physics.simulate``: the same
call, on the same scene, as ``shuffle-sim simulate``. What comes back for the page: the discs'
positions at evenly spaced instants (for the animation: the closed-form motion on a flat court, the
curved paths on any other), the marks of the event
log (impacts, cushion and peg hits, falls, holes, kills) where they happened, and the frame after
the shot: the game's rules applied as ``shuffle-sim play`` applies them (``referee.rule_shot``:
20s set aside and counted, the hit rule, dead discs, the scoring half), with what they removed and
why.

Noisy copies of a shot are in ``copies``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.court.friction_law import decelerations, launch_speed
from shuffle_sim.lab.board import LabBoard, LabError
from shuffle_sim.lab.referee import FrameState, Ruling, after_ruling, rule_shot
from shuffle_sim.messages import shown
from shuffle_sim.physics import DISC_CUSHION, DISC_DISC, DISC_PEG, FALL, HOLED, KILLED, SimResult, simulate
from shuffle_sim.physics.events import STATUS_REST
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.rules.rulings import outcome_of

#: Animation samples per second of simulated time, and at most this many samples per shot.
FRAMES_PER_SECOND = 60
MAX_FRAMES = 1500
#: Samples of the aim's predicted path on a surface that is not flat.
PATH_SAMPLES = 120
#: A launch that would slide this many times the court's longest side on an empty surface is
#: impossible for a player (and only feeds the event bound).
MAX_SLIDE_COURTS = 3.0
#: Event kinds marked on the page, and their labels: what happened to the disc, in the physics'
#: words (whether a disc that dropped into a hole counts as holed is the rules' word, on its mark).
MARKED_EVENTS = {
    DISC_DISC: "impact",
    DISC_CUSHION: "cushion",
    DISC_PEG: "peg",
    FALL: "fall",
    HOLED: "into the hole",
    KILLED: "killed",
}


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
    longest side on an empty flat surface under the court's friction law (``court.friction_law``:
    Coulomb's sqrt(2 mu g d))."""
    x0, y0, x1, y1 = court.bounds
    d = MAX_SLIDE_COURTS * max(x1 - x0, y1 - y0)
    return launch_speed(d, *decelerations(court.params))


def check_aim(court: Court, aim: Aim) -> None:
    """``LabError`` for a speed, direction or spin that is not a finite number or a speed no player
    could give (not positive, or beyond ``max_speed``)."""
    for name in ("x", "y", "speed", "direction", "spin"):
        value = getattr(aim, name)
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise LabError(f"shot {name} must be a finite number (got {shown(value)})")
    top = max_speed(court)
    if not 0.0 < aim.speed <= top:
        raise LabError(
            f"shot speed {aim.speed:g} m/s is impossible on court {court.name!r}: give a speed above 0 "
            f"and at most {top:.2f} m/s (a slide of {MAX_SLIDE_COURTS:g} court lengths)"
        )


def shot_scene(board: LabBoard, aim: Aim) -> Scene:
    """The scene of the shot: the board's discs at rest, then the shot disc (last)."""
    check_aim(board.court, aim)
    vx, vy = aim.velocity
    n = len(board.discs)
    scene = Scene(
        court=board.court,
        x=np.append(board.xs, aim.x),
        y=np.append(board.ys, aim.y),
        vx=np.append(np.zeros(n), vx),
        vy=np.append(np.zeros(n), vy),
        omega=np.append(np.zeros(n), aim.spin),
        team=[*board.teams, aim.team],
        source="shot",
    )
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
    """A shot played: its scene and result, samples for the animation, event marks, and what the
    rules made of it (``ruling``) with the frame after it (``after``)."""

    scene: Scene
    result: SimResult
    times: np.ndarray  # (T,)
    positions: np.ndarray  # (T, N, 2); NaN once a disc has left the surface, but the last row is the rest state
    marks: list[dict]  # {"t", "x", "y", "kind", "disc"}
    ruling: Ruling
    after: FrameState


def play_shot(board: LabBoard, aim: Aim) -> ShotPlay:
    """Run the shot to rest with the exact kernel (``physics.simulate``), apply the game's rules to
    it (``referee.rule_shot``) and prepare its animation."""
    scene = shot_scene(board, aim)
    result = simulate(scene)
    if not result.ok:
        raise LabError("the shot hit the event bound (10,000 events) before every disc came to rest")
    n_frames = int(min(MAX_FRAMES, max(2, math.ceil(result.t_end * FRAMES_PER_SECOND) + 1)))
    times = np.linspace(0.0, result.t_end, n_frames)
    positions = positions_at(result, times)
    # The last sample is the rest state exactly: fallen discs where they crossed the edge, holed ones
    # at the hole's centre (the samples hide both once they leave the surface).
    positions[-1, :, 0] = result.x
    positions[-1, :, 1] = result.y
    ruling = rule_shot(board.court, list(scene.team), outcome_of(board.court, result), board.state, aim.x)
    return ShotPlay(
        scene, result, times, positions, _event_marks(result, scene.n_discs), ruling, after_ruling(board.state, ruling)
    )


def positions_at(result: SimResult, times: np.ndarray) -> np.ndarray:
    """Every disc's centre at each of ``times`` (sorted), (T, N, 2), NaN once it has left the surface:
    the court's exact motion followed again from the log (``physics.Trajectories.positions``)."""
    return result.trajectories.positions(result.scene.n_discs, times)


def predicted_path(court: Court, aim: Aim, samples: int = PATH_SAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """Where the aim's disc would go alone on ``court`` (``physics.simulate``, curved on a surface that
    is not flat): x and y at ``samples`` evenly spaced instants, the last one its rest; NaN once it
    has left the surface."""
    check_aim(court, aim)
    vx, vy = aim.velocity
    scene = Scene(
        court=court,
        x=np.array([aim.x]),
        y=np.array([aim.y]),
        vx=np.array([vx]),
        vy=np.array([vy]),
        omega=np.array([aim.spin]),
        team=[aim.team],
        source="aim",
    )
    result = simulate(scene)
    xy = positions_at(result, np.linspace(0.0, result.t_end, samples))[:, 0, :]
    if result.status[0] == STATUS_REST:
        xy[-1] = result.x[0], result.y[0]
    return xy[:, 0], xy[:, 1]


def _event_marks(result, n_discs: int) -> list[dict]:
    """Where each marked event of the log happened (disc a's centre at that instant)."""
    ev = result.events
    keep = [k for k in range(len(ev)) if int(ev.kind[k]) in MARKED_EVENTS]
    if not keep:
        return []
    times = np.ascontiguousarray(ev.t[keep], dtype=np.float64)
    order = np.argsort(times, kind="stable")
    at = positions_at(result, times[order])
    marks = []
    for row, k in zip(order, np.array(keep)[order]):
        a = int(ev.a[k])
        kind = int(ev.kind[k])
        x, y = at[list(order).index(row), a]
        if kind in (FALL, HOLED) or not (math.isfinite(x) and math.isfinite(y)):
            x, y = result.x[a], result.y[a]
        marks.append({"t": float(ev.t[k]), "x": float(x), "y": float(y), "kind": MARKED_EVENTS[kind], "disc": a})
    return marks
