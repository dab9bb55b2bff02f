"""What ``shuffle-sim compile`` runs: the package's public entry points called on tiny cases.

numba compiles a kernel for the argument types it is first called with and keeps the machine code in
its cache, whatever the values. So calling each entry point once, on the smallest case that takes the
same path as a real command (a two-disc scene, one noisy shot per cell, a single frame of a game),
compiles what that command would compile, and only that. The tasks call the entry points themselves,
never lists of kernel names, so they follow the package's kernels wherever they move.

The kernels do not depend on the court (a court is arrays of one type), so the physics and the judge
are compiled on the deck court once for all games; what differs by game are its players, its frame
rules and its search (``play``, ``advise``) and where its experiments start (``run``).
"""

from __future__ import annotations

import contextlib
import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from shuffle_sim.games import game_names, get_game

#: The grade of the graded court of the ``--all`` tasks (a deck court that drifts; docs/formats/scenes.md).
GRADE = [0.0005, 0.0002]


@dataclass(frozen=True)
class Task:
    """One compile task: ``run()`` calls the entry points; ``after`` names the tasks whose kernels it
    would otherwise compile a second time in another process at the same moment."""

    name: str
    run: Callable[[], object]
    after: tuple[str, ...] = ()


def _deck_scene(params: dict | None = None):
    """A yellow disc shot at a black disc in the far 10 (docs/formats/scenes.md), on ``params``."""
    from shuffle_sim.physics import Scene

    return Scene.from_dict(
        {
            "court": "deck",
            "params": params or {},
            "discs": [
                {"x": 0.0, "y": 11.2, "team": "black"},
                {"x": 0.2286, "y": 2.2098, "vx": -0.025, "vy": 2.02, "omega": 0.5, "team": "yellow"},
            ],
        },
        "compile",
    )


def judge_and_score() -> None:
    """``judge`` and ``score``: a disc on every game's court, judged, and a frame scored."""
    from shuffle_sim.court import load_court
    from shuffle_sim.judging import judge_batch
    from shuffle_sim.rules import Board, default_court, score_board

    for game in game_names():
        court = load_court(default_court(game))
        x0, y0, x1, y1 = court.bounds
        x, y = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
        judge_batch(court, [x], [y])
        score_board(game, Board(court, np.array([x]), np.array([y]), (get_game(game).sides[0],)))


def simulate_scene(graded: bool = False) -> None:
    """``simulate``: a two-disc scene to rest, judged, on a flat or a graded deck court."""
    from shuffle_sim.physics import simulate

    simulate(_deck_scene({"slope": GRADE} if graded else None)).judging()


def shots(graded: bool = False) -> None:
    """``simulate_shots``: a few shots on an empty board and among discs, on a flat or graded court."""
    from shuffle_sim.shots import simulate_shots

    scene = _deck_scene({"slope": GRADE} if graded else None)
    court = scene.court
    x, y, vx, vy, w = (np.full(2, v) for v in (0.2286, 2.2098, -0.025, 2.02, 0.5))
    simulate_shots(court, x, y, vx, vy, w)
    board = scene.__class__(
        court=court,
        x=scene.x[:1],
        y=scene.y[:1],
        vx=np.zeros(1),
        vy=np.zeros(1),
        omega=np.zeros(1),
        team=["black"],
        source="board",
    )
    simulate_shots(court, x, y, vx, vy, w, board=board)


#: Frames a ``play`` task plays: the second is played from the other end (deck: the half turn).
FRAMES = 2


class _Enough(Exception):
    """Raised after a game's first frames: ``play`` has then compiled what a whole game compiles."""


def play_frames(game: str) -> None:
    """``play``: the first ``FRAMES`` frames of a game between the game's default players."""
    from shuffle_sim.playing import play

    def stop(number, frame) -> None:
        if frame.number >= FRAMES:
            raise _Enough

    with contextlib.suppress(_Enough):
        play(game, seed=1, on_frame=stop)


def _start_and_target(game: str):
    """The game's court, a start in the middle of its first stance and the surface's centre."""
    from shuffle_sim.court import load_court
    from shuffle_sim.rules import default_court

    court = load_court(default_court(game))
    stance = get_game(game).play_module().named_stances(court)[0][2]
    sx, sy = stance.point(stance.preferred)
    x0, y0, x1, y1 = court.bounds
    return court, (sx, sy), (0.5 * (x0 + x1), 0.5 * (y0 + y1))


def advise_shot(game: str) -> None:
    """``advise``: the candidate shots for a board of one disc, by frame value and by the chance to win."""
    from shuffle_sim.playing.advisor import advise
    from shuffle_sim.playing.player_names import parse_player
    from shuffle_sim.rules import Board

    court, (sx, sy), (cx, cy) = _start_and_target(game)
    entry = get_game(game)
    board = Board(court, np.array([sx + 0.6 * (cx - sx)]), np.array([sy + 0.6 * (cy - sy)]), (entry.sides[1],))
    player = parse_player(game, entry.default_players.split(",")[0])
    advise(game, board, player, samples=2)
    advise(game, board, player, samples=2, score=(0, 0), hammer=True)


def _experiment_text(game: str, board: bool) -> str:
    """A tiny experiment from the game's start toward the surface's centre: 2 x 2 cells of 2 shots."""
    court, (sx, sy), (cx, cy) = _start_and_target(game)
    distance = math.hypot(cx - sx, cy - sy)
    speed = math.sqrt(2.0 * court.params["mu"] * court.params["gravity"] * distance)
    direction = math.degrees(math.atan2(cx - sx, cy - sy))
    sides = get_game(game).sides
    lines = [
        f'name = "compile-{game}"',
        f'court = "{court.name}"',
        "samples = 2",
        "[shot]",
        f'start = ["{sx:.6f} m", "{sy:.6f} m"]',
        f'team = "{sides[0]}"',
        "[grid]",
        f"speed = {{ from = {0.9 * speed}, to = {speed}, steps = 2 }}",
        f"direction = {{ from = {direction - 0.5}, to = {direction + 0.5}, steps = 2 }}",
    ]
    if board:
        bx, by = sx + 0.7 * (cx - sx), sy + 0.7 * (cy - sy)
        lines += ["[board]", f'discs = [{{ team = "{sides[1]}", x = "{bx:.6f} m", y = "{by:.6f} m" }}]']
    return "\n".join(lines) + "\n"


def run_experiments(game: str) -> None:
    """``run``: a tiny experiment on an empty board and one among discs, results on disk, no plots."""
    from shuffle_sim.experiment import run_experiment
    from shuffle_sim.experiment.spec import parse_experiment

    with tempfile.TemporaryDirectory(prefix="shuffle-sim-compile-") as tmp:
        for board in (False, True):
            experiment = parse_experiment(_experiment_text(game, board))
            run_experiment(experiment, Path(tmp) / str(board), progress=False, plots=False)


def tasks(games: list[str], graded: bool) -> list[Task]:
    """The tasks for ``games``' commands, first those others wait for; with ``graded``, the graded
    court's physics too (``simulate`` and batches of shots on a court with a slope or a crown)."""
    out = [
        Task("judging", judge_and_score),
        Task("simulate", simulate_scene),
        Task("batches of shots", shots, ("simulate", "judging")),
    ]
    if graded:
        out += [
            Task("simulate on a graded court", partial(simulate_scene, graded=True)),
            Task("batches of shots on a graded court", partial(shots, graded=True), ("simulate on a graded court",)),
        ]
    basics = ("batches of shots",)
    for game in games:
        # Every game's experiments run the same chunk kernels: the first game's run compiles them.
        run_after = basics if game == games[0] else (*basics, f"run {games[0]}")
        out += [
            Task(f"play {game}", partial(play_frames, game), basics),
            Task(f"advise {game}", partial(advise_shot, game), (*basics, f"play {game}")),
            Task(f"run {game}", partial(run_experiments, game), run_after),
        ]
    return out


__all__ = [
    "GRADE",
    "Task",
    "advise_shot",
    "judge_and_score",
    "play_frames",
    "run_experiments",
    "shots",
    "simulate_scene",
    "tasks",
]
