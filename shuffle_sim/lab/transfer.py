"""Files in and out of the lab: loading a board or scene, saving the board or the scene.

A file is only ever offered for download after the lab has read it back itself (``files.parse_text``)
and found the same frame and shot, so the lab never writes a file it cannot load; the download
itself is done by the page (``browser_code.DOWNLOAD``). A loaded file rebuilds the page on its court
and end, with its frame (discs, 20s set aside, scoring half) and its shot.
"""

from __future__ import annotations

from shuffle_sim.lab.board import LabError
from shuffle_sim.lab.files import board_json, parse_text, parse_upload, scene_json
from shuffle_sim.messages import counted


class Transfer:
    """Loading and saving for one ``LabApp`` (module docstring)."""

    def __init__(self, app):
        self.app = app
        c = app.controls
        self.last_upload: tuple[str, str] | None = None
        self.saved = 0
        app.listen(c.upload, "value", self.uploaded, "loading a file")
        app.listen(c.upload, "filename", self.uploaded, "loading a file")
        app.on_click(c.save_board, self.save_board)
        app.on_click(c.save_scene, self.save_scene)

    def uploaded(self, attr, old, new) -> None:
        """A file arrived: its content and its name come as two changes, in either order; read it
        once both are here."""
        upload = self.app.controls.upload
        try:
            name, content = upload.filename, upload.value
        except ValueError:  # the other half has not arrived yet (Bokeh's "unset value")
            return
        if not content or not name or (name, content) == self.last_upload:
            return
        self.last_upload = (name, content)
        loaded = parse_upload(name, content, self.app.court)
        what = "scene (board and shot)" if loaded.aim is not None else "board"
        note = f"; {loaded.note}" if loaded.note else ""
        self.app.rebuild(
            court=str(loaded.court.source_path),
            end=loaded.court.end,
            state=loaded.state,
            aim=loaded.aim,
            message=f"loaded {what} from {name}: {counted(len(loaded.discs), 'resting disc')}{note}",
        )

    def offer(self, filename: str, text: str, aim=None) -> None:
        """Offer ``text`` for download once it reads back as this frame (and shot)."""
        app = self.app
        loaded = parse_text(filename, text, app.court)
        state = app.board.state
        same = list(loaded.state.discs) == list(state.discs)
        if aim is None:
            same = (
                same
                and loaded.state.twenties == tuple((s, n) for s, n in state.twenties if n)
                and loaded.state.half == state.half
            )
        else:
            same = same and loaded.aim is not None
        if not same:
            raise LabError(f"{filename}: the file would not read back as this board; not saved")
        self.saved += 1  # a new row each time, so the same file can be saved twice
        app.write(app.download, dict(name=[filename], text=[text], n=[self.saved]))
        app.status.succeeded(f"{filename} saved (your browser's download)")

    def save_board(self) -> None:
        self.app.playing.settle()
        self.offer("board.json", board_json(self.app.board))

    def save_scene(self) -> None:
        self.app.playing.settle()
        try:
            aim = self.app.aiming.aim()
        except ValueError as exc:
            raise LabError(f"cannot save the scene: {exc}", getattr(exc, "field", None)) from None
        self.offer("scene.json", scene_json(self.app.board, aim), aim)
