"""Board edits in the lab: the court's gestures, Delete, Clear board, Undo, and the press mode.

The page reads the pointer itself (``browser_code.GESTURES``) and sends each gesture as one row of
the ``gesture`` source; ``Editing.on_gesture`` does what it says or says why not, in the status
area. A gesture on a disc names the disc by its index and by where the page saw it, so a gesture
made on a board that has changed since (a shot's result or an undo arrived meanwhile) is refused
with that reason, never applied to another disc.

The mode (``Place discs``, ``Move discs``, ``Aim``) is a set of radio buttons: one is always on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shuffle_sim.lab.board import LabError
from shuffle_sim.lab.controls import MODES
from shuffle_sim.lab.session import Action

#: How far (m) a disc may be from where the page saw it and still be the disc the gesture meant.
SAME_PLACE = 1e-9
#: A gesture's name in a message that says it waits.
GESTURE_LABELS = {
    "place": "placing a disc",
    "select": "selecting a disc",
    "move": "moving a disc",
    "probe": "dragging a disc",
    "empty": "a click on the court",
    "delete": "deleting a disc",
    "aim": "aiming",
    "shot_done": "the end of the shot",
    "skip": "the end of the shot",
}
MODE_NOTES = {
    "place": "Place discs: click the court to put down a disc; press a disc to drag it",
    "move": "Move discs: press a disc and drag it; clicks on empty court add nothing",
    "aim": "Aim: press or drag on the court to put the arrow's tip there",
}


@dataclass(frozen=True)
class Gesture:
    """One gesture from the page: its kind, a disc index (-1: none), a point, where the disc was seen."""

    kind: str
    i: int
    x: float
    y: float
    x0: float
    y0: float


class Editing:
    """The board's edits for one ``LabApp`` (module docstring)."""

    #: Gestures that do not count as an action (they leave the last failure and note in place).
    QUIET = ("probe", "aim")

    def __init__(self, app):
        self.app = app
        c = app.controls
        app.gesture.on_change("data", self.on_gesture)
        app.on_click(c.delete, self.delete_selected)
        app.on_click(c.clear, self.clear_board)
        app.on_click(c.undo, self.undo)
        app.listen(c.mode, "active", self.mode_changed, "another mode")
        self.handlers = {
            "place": self.place,
            "select": self.select,
            "move": self.move,
            "probe": self.probe,
            "empty": self.empty,
            "delete": self.delete,
            "aim": self.aim,
            "shot_done": self.shot_done,
            "skip": self.shot_done,
        }

    # ---- gestures ---------------------------------------------------------------------------------
    def on_gesture(self, attr, old, new) -> None:
        if self.app.syncing or not new.get("kind"):
            return
        g = Gesture(
            str(new["kind"][0]),
            int(new["i"][0]),
            float(new["x"][0]),
            float(new["y"][0]),
            float(new["x0"][0]),
            float(new["y0"][0]),
        )
        handler = self.handlers.get(g.kind)
        if handler is not None:
            self.app.session.submit(
                Action(
                    self.app,
                    ("gesture", g.kind),
                    handler,
                    (g,),
                    GESTURE_LABELS.get(g.kind, g.kind),
                    counts=g.kind not in self.QUIET,
                    merge=g.kind in self.QUIET,
                )
            )

    def meant(self, g: Gesture) -> int:
        """The disc a gesture meant; ``LabError`` when the board changed under the pointer."""
        discs = self.app.board.discs
        if not 0 <= g.i < len(discs) or math.hypot(discs[g.i].x - g.x0, discs[g.i].y - g.y0) > SAME_PLACE:
            self.app.refresh_board()
            raise LabError("the board changed under the pointer (a shot or an undo arrived): press the disc again")
        return g.i

    def place(self, g: Gesture) -> None:
        self.app.board.place(g.x, g.y, self.app.controls.team_select.value)
        self.select_disc(None)
        self.app.refresh_board()

    def select(self, g: Gesture) -> None:
        self.select_disc(None if g.i < 0 else self.meant(g))

    def move(self, g: Gesture) -> None:
        k = self.meant(g)
        try:
            self.app.board.move(k, g.x, g.y)
        except LabError as exc:
            self.app.refresh_board()
            raise LabError(f"{exc}: put back") from None
        self.select_disc(k)
        self.app.refresh_board()

    def probe(self, g: Gesture) -> None:
        discs = self.app.board.discs
        if 0 <= g.i < len(discs) and math.hypot(discs[g.i].x - g.x0, discs[g.i].y - g.y0) <= SAME_PLACE:
            self.app.refresh_board(probe=(g.i, g.x, g.y))

    def empty(self, g: Gesture) -> None:
        self.select_disc(None)
        self.app.status.succeeded(f"{MODE_NOTES['move']} (choose Place discs to add one)")

    def delete(self, g: Gesture) -> None:
        if g.i < 0:
            raise LabError("select a disc first (click it), then press Delete or Backspace")
        self.delete_disc(self.meant(g))

    def aim(self, g: Gesture) -> None:
        self.app.aiming.tip_moved(g.x, g.y)

    def shot_done(self, g: Gesture) -> None:
        self.app.playing.finish(g.i, skipped=g.kind == "skip")

    # ---- buttons and modes ------------------------------------------------------------------------
    def select_disc(self, k: int | None) -> None:
        self.app.figure.discs.selected.indices = [] if k is None else [k]

    def delete_selected(self) -> None:
        indices = list(self.app.figure.discs.selected.indices)
        if not indices:
            raise LabError("select a disc first (click it), then delete")
        self.delete_disc(int(indices[0]))

    def delete_disc(self, k: int) -> None:
        self.app.playing.settle()
        disc = self.app.board.discs[k]
        self.app.board.delete([k])
        self.select_disc(None)
        self.app.refresh_board()
        self.app.status.succeeded(f"disc {k} ({disc.team}) deleted")

    def clear_board(self) -> None:
        self.app.playing.stop()
        self.app.board.clear()
        self.forget_shot()
        self.app.analysis.clear_copies()
        self.app.refresh_board()
        self.app.status.succeeded("board cleared: a new frame (Undo brings the last one back)")

    def undo(self) -> None:
        self.app.playing.stop()
        if not self.app.board.undo():
            raise LabError("nothing to undo")
        self.forget_shot()
        self.app.refresh_board()
        self.app.status.succeeded("board restored")

    def forget_shot(self) -> None:
        """Take the last shot's paths, event marks and removed discs off the court."""
        fig = self.app.figure
        self.select_disc(None)
        self.app.write(fig.paths, dict(xs=[], ys=[], colour=[]))
        self.app.write(fig.marks, dict(x=[], y=[], t=[], kind=[], alpha=[]))
        self.app.show_removed([])

    def mode_changed(self, attr, old, new) -> None:
        if new is None:  # a radio group cannot be switched off: the mode stays
            self.app.set_quietly(self.app.controls.mode, active=old)
            raise LabError("one mode is always on: Place discs, Move discs or Aim")
        self.select_disc(None)
        self.app.status.succeeded(MODE_NOTES[MODES[new]])
