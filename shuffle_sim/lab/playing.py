"""Shots in the lab: Shoot plays the aim with the exact kernel, the page animates it, and the board,
the score and what the rules did are shown when the discs stop.

``Playing.shoot`` runs the shot (``shots.play_shot``: the kernel, then the game's rules), keeps the
frame after it on the board at once (so Undo is right at any moment) and sends the animation. While
it plays, Shoot is disabled and the page still shows the board before the shot, so the score never
runs ahead of the discs; the page says ``shot_done`` when the last frame is drawn (or when a press
on the court ends it early), and only then does ``finish`` show the new board, the paths, the marks
of the discs the rules removed and a note of what they did. ``stop`` ends a playing shot without
showing it (Undo, Clear board); ``settle`` ends it showing it (any other action that needs the
board: noisy copies, advice, a save).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim.lab.board import LabError
from shuffle_sim.lab.shots import ShotPlay, play_shot
from shuffle_sim.lab.warmup import SHOTS, SURFACE
from shuffle_sim.messages import counted
from shuffle_sim.plot import team_colours


@dataclass
class Pending:
    """A shot sent to the page and not yet shown as finished."""

    id: int
    played: ShotPlay


def shot_needs(app) -> tuple[str, ...]:
    """The kernel groups a shot needs (``warmup``): a flat court's, or a graded or crowned one's."""
    return (SHOTS,) if app.court.surface_shape.flat else (SURFACE,)


class Playing:
    """The shots of one ``LabApp`` (module docstring)."""

    def __init__(self, app):
        self.app = app
        self.pending: Pending | None = None
        self.count = 0
        app.on_click(app.controls.shoot, self.shoot, shot_needs)

    def shoot(self) -> None:
        """Play the aim: the kernel and the rules in a worker thread (``session``), then the animation."""
        app = self.app
        if self.pending is not None:
            raise LabError("a shot is still playing: wait for the discs to stop, or press Undo")
        aim = app.aiming.require()
        board = app.board
        app.session.start_job("playing the shot", lambda: play_shot(board, aim), self.played)

    def played(self, played: ShotPlay) -> None:
        """The shot is computed: keep the frame after it and send the animation."""
        app = self.app
        app.board.set_state(played.after)
        self.count += 1
        self.pending = Pending(self.count, played)
        marks = played.marks
        app.write(
            app.figure.marks,
            dict(
                x=[m["x"] for m in marks],
                y=[m["y"] for m in marks],
                t=[m["t"] for m in marks],
                kind=[m["kind"] for m in marks],
                alpha=[0.0] * len(marks),
            ),
        )
        app.write(app.figure.paths, dict(xs=[], ys=[], colour=[]))
        app.show_removed([])
        app.controls.shoot.disabled = True  # before the animation: the page gets the changes in order
        app.write(app.anim, self.animation(played))  # the animation starts as soon as this arrives
        app.editing.select_disc(None)
        app.status.succeeded(
            f"shot playing ({app.controls.playback.value}x): the board, the score and what the "
            f"rules did show when the discs stop (press the court to skip to the end)"
        )

    def animation(self, played: ShotPlay) -> dict:
        scene = played.scene
        colours = team_colours(self.app.court, scene.team)
        n_t = len(played.times)
        data = {
            "t": played.times,
            "n": [scene.n_discs] + [0] * (n_t - 1),
            "colour": (colours + [""] * n_t)[:n_t],
            "id": [self.count] * n_t,
        }
        for i in range(scene.n_discs):
            data[f"x{i}"] = played.positions[:, i, 0]
            data[f"y{i}"] = played.positions[:, i, 1]
        return data

    def finish(self, shot_id: int, skipped: bool = False) -> None:
        """The page drew the shot's last frame: show the board, paths, removals and the rules' note."""
        if self.pending is None or self.pending.id != shot_id:
            return
        app, played = self.app, self.pending.played
        self.pending = None
        scene = played.scene
        finite = np.isfinite(played.positions[:, :, 0])
        app.write(
            app.figure.paths,
            dict(
                xs=[played.positions[finite[:, i], i, 0] for i in range(scene.n_discs)],
                ys=[played.positions[finite[:, i], i, 1] for i in range(scene.n_discs)],
                colour=team_colours(app.court, scene.team),
            ),
        )
        app.show_removed(played.ruling.removed)
        app.refresh_board()
        said = played.ruling.sentences()
        app.status.succeeded(
            f"shot played{' (skipped to its end)' if skipped else ''}: "
            f"{counted(len(played.result.events), 'event')}, at rest after {played.result.t_end:.2f} s"
            + (f"; {'; '.join(said)}" if said else "; the rules removed nothing")
        )
        app.controls.show_result("frame")
        app.controls.shoot.disabled = False  # last: a page that sees Shoot back has the whole outcome

    def settle(self) -> None:
        """End a playing shot, showing its outcome (before an action that needs the board)."""
        if self.pending is not None:
            self.app.write(self.app.anim, dict(t=[], n=[], colour=[], id=[]))
            self.finish(self.pending.id)

    def stop(self) -> None:
        """End a playing shot without showing it (Undo, Clear board)."""
        self.app.write(self.app.anim, dict(t=[], n=[], colour=[], id=[]))
        if self.pending is not None:
            self.pending = None
            self.app.controls.shoot.disabled = False
