"""The lab's aim: the shot's start, speed, direction and spin, as fields and as an arrow on the court.

The arrow runs from the start to its tip, where the disc would stop on an empty court without spin
(slide length v^2 / (2 mu g)), so its length is the speed and its bearing the direction. The tip is
the aim's anchor: dragging it sets the speed and direction; typing them moves it; choosing another
start (another seat, the other half) keeps it where it is and aims from the new start at it, so the
arrow never ends up pointing where the old start pointed (along the ditch, off the court). On a
surface that is not flat the arrow still shows the launch (its tip the rest on a flat court) and a
dashed line beside it the predicted path, which curves with the grade, to where the disc would rest
on that empty court.

Each field is checked as it is typed (``fields.NumberField``): a bad value outlines the field, says
why in the status area, and hides the arrow until it is fixed. Values the lab sets itself (an
advised or loaded shot, a dragged tip) are kept exactly behind the rounded text shown, as long as
the text is not edited.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim.court.friction_law import decelerations, launch_speed, stop_distance
from shuffle_sim.lab.board import LabError
from shuffle_sim.lab.fields import shot_fields
from shuffle_sim.lab.shots import Aim, max_speed, predicted_path
from shuffle_sim.lab.warmup import SURFACE, WHAT
from shuffle_sim.plot import zoom_box

#: Digits shown in the fields for values the lab sets.
SHOWN = {"speed": "{:.4f}", "direction": "{:.3f}", "spin": "{:.6g}"}


class Aiming:
    """The aim of one ``LabApp`` (module docstring)."""

    def __init__(self, app):
        self.app = app
        c = app.controls
        self.specs = shot_fields(app.court)
        self.texts = {name: w.value for name, w in c.fields.items()}
        self.exact: dict[str, tuple[str, float]] = {}
        self.start_xy: tuple[float, float] | None = None  # a shot's own start, off the slider's points
        self.target: tuple[float, float] | None = None
        app.listen(c.start_select, "value", self.start_changed, "another start")
        app.listen(c.start_slider, "value", self.start_changed, "moving the start", merge=True)
        self.path_waits = False  # the predicted path waits for the surface kernels
        for name, widget in c.fields.items():
            for prop in ("value_input", "value"):
                label = f"the {self.specs[name].label.lower()} field"
                app.listen(widget, prop, self.typer(name), label, action=False, merge=True)

    # ---- where the shot starts --------------------------------------------------------------------
    def start(self, aim: Aim | None = None) -> None:
        """The page's first aim: ``aim`` (a loaded shot), else at the middle of the scoring diagram."""
        if aim is not None:
            self.set_aim(aim)
        else:
            self.aim_at(*self.default_target())

    def current_start(self):
        c = self.app.controls
        return next(s for s in self.app.starts if s.name == c.start_select.value)

    def start_point(self) -> tuple[float, float]:
        if self.start_xy is not None:
            return self.start_xy
        return self.current_start().point(self.app.controls.start_slider.value)

    def default_target(self) -> tuple[float, float]:
        """The middle of the scoring diagram: its centre on a round board, straight down the court
        from the start on the others."""
        court = self.app.court
        zx0, zy0, zx1, zy1 = zoom_box(court, court.end) if court.ends else court.bounds
        tx, ty = 0.5 * (zx0 + zx1), 0.5 * (zy0 + zy1)
        if court.surface_kind != "circle":
            tx = self.start_point()[0]
        return tx, ty

    def start_changed(self, attr, old, new) -> None:
        """Another start: aim from it at the same tip."""
        self.start_xy = None
        self.aim_at(*(self.target or self.default_target()))

    # ---- the aim's numbers --------------------------------------------------------------------------
    def aim_at(self, tx: float, ty: float) -> None:
        """Speed and direction that put the arrow's tip at (tx, ty) from the start: the speed that
        slides there on a flat court under the court's friction law (``court.friction_law``)."""
        sx, sy = self.start_point()
        self.set_field("speed", launch_speed(math.hypot(tx - sx, ty - sy), *decelerations(self.app.court.params)))
        self.set_field("direction", math.degrees(math.atan2(ty - sy, tx - sx)))
        self.redraw()

    def tip_moved(self, x: float, y: float) -> None:
        """The arrow's tip was pressed or dragged to (x, y): aim there, or as far as the lab allows."""
        sx, sy = self.start_point()
        length = math.hypot(x - sx, y - sy)
        longest = stop_distance(max_speed(self.app.court), *decelerations(self.app.court.params))
        if length > longest:
            f = longest / length
            x, y = sx + f * (x - sx), sy + f * (y - sy)
            self.app.status.succeeded(
                f"the arrow stops at the longest slide the lab takes ({max_speed(self.app.court):.2f} m/s)"
            )
        self.aim_at(x, y)

    def set_field(self, name: str, value: float) -> None:
        text = SHOWN[name].format(value)
        self.exact[name] = (text, value)
        self.texts[name] = text
        self.app.set_quietly(self.app.controls.fields[name], value=text, value_input=text)
        self.app.controls.mark(name, True)
        self.app.status.solved(name)

    def typer(self, name: str):
        def typed(attr, old, new) -> None:
            self.texts[name] = new
            self.redraw()

        typed.__name__ = f"typed_{name}"
        return typed

    def value(self, name: str) -> float:
        """A field's value: the exact one the lab set if its text is unchanged, else the text checked."""
        text = self.texts.get(name, "")
        if name in self.exact and self.exact[name][0] == text:
            return self.exact[name][1]
        return self.specs[name].check(text)

    def aim(self) -> Aim:
        """The shot the fields describe (``FieldError``, a ``ValueError``, naming a bad field)."""
        values = {name: self.value(name) for name in ("speed", "direction", "spin")}
        sx, sy = self.start_point()
        return Aim(sx, sy, values["speed"], values["direction"], values["spin"], self.app.controls.team_select.value)

    def redraw(self) -> None:
        """Check every field, mark the bad ones, and draw the start and the arrow (no arrow while a
        field is bad)."""
        app = self.app
        sx, sy = self.start_point()
        app.write(app.figure.start_point, dict(x=[sx], y=[sy]))
        good = {}
        for name in ("speed", "direction", "spin"):
            try:
                good[name] = self.value(name)
            except ValueError as exc:
                app.controls.mark(name, False)
                app.status.problem(name, str(exc))
            else:
                app.controls.mark(name, True)
                app.status.solved(name)
        if len(good) < 3:
            app.write(app.figure.aim_line, dict(x0=[], y0=[], x1=[], y1=[]))
            app.write(app.figure.tip, dict(x=[], y=[]))
            app.write(app.figure.aim_path, dict(x=[], y=[]))
            app.analysis.aim_changed(None)
            return
        length = stop_distance(good["speed"], *decelerations(self.app.court.params))
        a = math.radians(good["direction"])
        tx, ty = sx + length * math.cos(a), sy + length * math.sin(a)
        self.target = (tx, ty)
        app.write(app.figure.aim_line, dict(x0=[sx], y0=[sy], x1=[tx], y1=[ty]))
        app.write(app.figure.tip, dict(x=[tx], y=[ty]))
        aim = Aim(sx, sy, good["speed"], good["direction"], good["spin"], app.controls.team_select.value)
        app.analysis.aim_changed(aim)
        self.draw_path(aim)

    def draw_path(self, aim: Aim) -> None:
        """On a surface that is not flat, the aim's predicted path on an empty court (dashed): it curves
        with the grade and rests where ``simulate`` says; none on a flat court (the arrow is the path).
        Until the kernels of a graded court are ready (``warmup``) the path waits, and says so; it is
        drawn when they are (``kernels_ready``)."""
        app = self.app
        xs: list[float] = []
        ys: list[float] = []
        self.path_waits = not app.court.surface_shape.flat and not app.session.warmup.is_ready(SURFACE)
        if self.path_waits:
            doing = "compiling" if app.session.warmup.cold else "loading"
            app.status.problem(
                "aim_path",
                f"the predicted path waits for the kernels of {WHAT[SURFACE]} ({doing} in the background); "
                f"it shows when they are ready",
            )
        elif not app.court.surface_shape.flat:
            try:
                px, py = predicted_path(app.court, aim)
            except ValueError as exc:
                app.status.problem("aim_path", f"no predicted path: {exc}")
            else:
                app.status.solved("aim_path")
                keep = np.isfinite(px)
                xs, ys = px[keep].tolist(), py[keep].tolist()
        else:
            app.status.solved("aim_path")
        app.write(app.figure.aim_path, dict(x=xs, y=ys))

    def set_aim(self, aim: Aim) -> None:
        """Take a shot as it is (a loaded scene, an advised shot): its own start, exactly, with the
        nearest legal start and point along it chosen in the controls."""
        best = None
        for start in self.app.starts:
            t = start.nearest(aim.x, aim.y)
            px, py = start.point(t)
            d = math.hypot(px - aim.x, py - aim.y)
            if best is None or d < best[0]:
                best = (d, start.name, t)
        assert best is not None, "the lab has at least one start"
        c = self.app.controls
        self.app.set_quietly(c.start_select, value=best[1])
        self.app.set_quietly(c.start_slider, value=best[2])
        self.start_xy = (aim.x, aim.y)
        for name in ("speed", "direction", "spin"):
            self.set_field(name, getattr(aim, name))
        if aim.team in self.app.teams:
            self.app.set_quietly(c.team_select, value=aim.team)
        self.redraw()

    def kernels_ready(self) -> None:
        """More kernels are ready: a predicted path that waited for them is drawn."""
        if self.path_waits and self.app.session.warmup.is_ready(SURFACE):
            self.redraw()

    def court_changed(self) -> None:
        """The court has other parameters (its speed changes the fields' ranges): the fields' titles
        and checks follow it, and the aim is drawn again on it."""
        self.specs = shot_fields(self.app.court)
        for name, widget in self.app.controls.fields.items():
            self.app.set_quietly(widget, title=self.specs[name].title)
        self.redraw()

    def require(self) -> Aim:
        """The aim, or ``LabError`` saying which field to fix first."""
        try:
            return self.aim()
        except ValueError as exc:
            raise LabError(f"fix the shot first: {exc}", getattr(exc, "field", None)) from None
