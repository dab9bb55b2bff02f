"""The shot lab's Bokeh document: the court, the discs and the controls, wired to the lab's services.

``LabApp(doc, court)`` builds one browser session's page. Every callback runs Python on the server:
placing, dragging and deleting discs (Bokeh's point-drawing tool) is checked by ``board.LabBoard``
and judged by the judge and the game's rules; "Shoot" runs ``shots.play_shot`` (the exact kernel) and
"Noisy copies" ``shots.noisy_copies`` (the batch API). The browser only animates (``browser_code``).
Any ``ValueError`` a callback meets (``LabError``, a court or scene error) becomes a message on the
page and the session goes on; nothing is ever shown as a traceback.

Models the page's tests look up by name: ``court`` (the figure), ``discs``, ``labels``, ``anim``,
``marks``, ``density`` (sources), ``message``, ``judgement``, ``score``, ``copies`` (text).
"""

from __future__ import annotations

import math
import traceback
from dataclasses import dataclass

import numpy as np
from bokeh.layouts import column, row
from bokeh.models import (
    Button,
    ColumnDataSource,
    CustomJS,
    Div,
    FileInput,
    LinearColorMapper,
    PointDrawTool,
    Select,
    Slider,
    TextInput,
)
from bokeh.plotting import figure

from shuffle_sim.court import Court, list_courts, load_court
from shuffle_sim.lab import browser_code
from shuffle_sim.lab.board import Disc, LabBoard, LabError, court_reference, team_names
from shuffle_sim.lab.court_glyphs import court_extent, draw_court
from shuffle_sim.lab.files import board_json, parse_upload, scene_json
from shuffle_sim.lab.shots import Aim, advise_board, max_speed, noisy_copies, play_shot
from shuffle_sim.lab.starts import legal_starts
from shuffle_sim.lab.view import (
    advice_html,
    copies_html,
    density_image,
    judgement_html,
    label_rows,
    score_html,
)
from shuffle_sim.noise import NoiseError, skill_presets
from shuffle_sim.plot import team_colours, zoom_box

PLAYBACK_SPEEDS = ["0.5", "1", "2", "4", "8"]
DEFAULT_COPIES = 10_000
#: The court's frame on the page (CSS pixels); its ranges always keep this aspect, so metres are
#: as long across as along and discs stay round.
FRAME_HEIGHT = 640
FRAME_WIDTH = 560
FIGURE_WIDTH = 640
#: The density map: light yellow and faint where few copies rest, to opaque dark red at the most.
DENSITY_PALETTE = [
    "#%02x%02x%02x%02x" % (round(255 + f * (189 - 255)), round(237 + f * (0 - 237)), round(160 + f * (38 - 160)),
                           round(70 + f * (240 - 70)))
    for f in (k / 255 for k in range(256))
]


def to_aspect(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``box`` (xmin, ymin, xmax, ymax) widened about its centre to the frame's aspect."""
    x0, y0, x1, y1 = box
    scale = max((x1 - x0) / FRAME_WIDTH, (y1 - y0) / FRAME_HEIGHT)
    cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    hw, hh = 0.5 * scale * FRAME_WIDTH, 0.5 * scale * FRAME_HEIGHT
    return cx - hw, cy - hh, cx + hw, cy + hh


@dataclass
class LabOptions:
    """What the command line gives every session: the court (name or path) and the scoring end."""

    court: str = "deck"
    end: str | None = None


class LabApp:
    """One session's page (see the module docstring)."""

    def __init__(self, doc, court: Court, discs: list[Disc] | None = None, aim: Aim | None = None,
                 message: str = ""):
        self.doc = doc
        self.court = court
        self.board = LabBoard(court)
        self.board.replace(discs or [], remember=False)
        self.starts = legal_starts(court)
        self.teams = list(team_names(court))
        self.syncing = False
        self.build()
        if aim is not None:
            self.set_aim(aim)
        else:
            self.start_moved()
        self.refresh_board()
        self.say(message)

    # ---- page -------------------------------------------------------------------------------------
    def build(self) -> None:
        court = self.court
        x0, y0, x1, y1 = to_aspect(court_extent(court))
        fig = figure(name="court", frame_height=FRAME_HEIGHT, frame_width=FRAME_WIDTH,
                     x_range=(x0, x1), y_range=(y0, y1), tools="pan,wheel_zoom,reset,save",
                     active_scroll="wheel_zoom",
                     title=court.title + (f" (scoring end: {court.end})" if len(court.ends) > 1 else ""),
                     x_axis_label="x (m)", y_axis_label="y (m)", output_backend="canvas")
        fig.grid.visible = False
        fig.background_fill_color = "#fafafa"
        draw_court(fig, court)
        self.fig = fig
        r = court.disc_radius

        self.density = ColumnDataSource(name="density", data=dict(image=[], x=[], y=[], dw=[], dh=[]))
        mapper = LinearColorMapper(palette=DENSITY_PALETTE, low=0.0, high=1.0, nan_color=(0, 0, 0, 0))
        fig.image(image="image", x="x", y="y", dw="dw", dh="dh", source=self.density, color_mapper=mapper,
                  global_alpha=0.85)
        self.starts_source = ColumnDataSource(data=dict(xs=[s.polyline()[0] for s in self.starts],
                                                        ys=[s.polyline()[1] for s in self.starts]))
        fig.multi_line("xs", "ys", source=self.starts_source, line_color="#2e7d32", line_width=3, line_alpha=0.6)
        self.paths = ColumnDataSource(name="paths", data=dict(xs=[], ys=[], colour=[]))
        fig.multi_line("xs", "ys", source=self.paths, line_color="colour", line_width=1.5, line_alpha=0.7,
                       line_dash="dotted")

        self.discs = ColumnDataSource(name="discs", data=dict(x=[], y=[], team=[], colour=[]))
        self.board_renderer = fig.ellipse("x", "y", width=2 * r, height=2 * r, source=self.discs, fill_color="colour",
                                          line_color="black", line_width=1.2, fill_alpha=0.95, name="board")
        self.labels = ColumnDataSource(name="labels", data=dict(x=[], y=[], text=[], text_color=[]))
        self.labels_renderer = fig.text("x", "y", text="text", source=self.labels, text_color="text_color",
                                        text_align="center", text_baseline="middle", text_font_size="10px",
                                        text_font_style="bold")
        self.moving = ColumnDataSource(data=dict(x=[], y=[], colour=[]))
        self.moving_renderer = fig.ellipse("x", "y", width=2 * r, height=2 * r, source=self.moving,
                                           fill_color="colour", line_color="black", visible=False)
        self.marks = ColumnDataSource(name="marks", data=dict(x=[], y=[], t=[], kind=[], alpha=[]))
        fig.scatter("x", "y", source=self.marks, marker="x", size=11, line_width=2, line_color="#d50000",
                    alpha="alpha")
        fig.text("x", "y", text="kind", source=self.marks, text_alpha="alpha", text_font_size="9px",
                 x_offset=6, y_offset=-6, text_color="#b71c1c")

        self.aim_line = ColumnDataSource(data=dict(x0=[], y0=[], x1=[], y1=[]))
        fig.segment("x0", "y0", "x1", "y1", source=self.aim_line, line_color="#1b5e20", line_width=2.5)
        self.start_point = ColumnDataSource(data=dict(x=[], y=[]))
        fig.scatter("x", "y", source=self.start_point, marker="circle_cross", size=14, fill_alpha=0.0,
                    line_color="#1b5e20", line_width=2)
        self.tip = ColumnDataSource(name="tip", data=dict(x=[], y=[]))
        tip_renderer = fig.scatter("x", "y", source=self.tip, marker="triangle", size=14, fill_color="#1b5e20",
                                   line_color="white")

        self.disc_tool = PointDrawTool(renderers=[self.board_renderer], add=True, drag=True,
                                       description="Discs: click to place, drag to move, Backspace deletes")
        self.aim_tool = PointDrawTool(renderers=[tip_renderer], add=True, drag=True, num_objects=1,
                                      description="Aim: click or drag the arrow's tip (it marks where the disc "
                                                  "would stop on an empty court)")
        fig.add_tools(self.disc_tool, self.aim_tool)
        fig.toolbar.active_tap = self.disc_tool
        fig.toolbar.active_drag = self.disc_tool

        self.probe = ColumnDataSource(name="probe", data=dict(i=[], x=[], y=[]))
        self.discs.js_on_change("change", CustomJS(args=dict(source=self.discs, probe=self.probe),
                                                   code=browser_code.DRAG_PROBE))
        self.discs.on_change("data", self.guarded(self.discs_edited))
        self.probe.on_change("data", self.guarded(self.disc_dragged))
        self.tip.on_change("data", self.guarded(self.tip_moved))

        # Controls.
        ref = court_reference(court)
        courts = list_courts() + ([ref] if ref not in list_courts() else [])
        self.court_select = Select(title="Court", value=ref, options=courts, name="court_select")
        self.court_select.on_change("value", self.guarded(lambda a, o, n: self.rebuild(court=n)))
        ends = list(court.ends) or [court.end]
        self.end_select = Select(title="Scoring end", value=court.end, options=ends, disabled=len(ends) < 2,
                                 name="end_select")
        self.end_select.on_change("value", self.guarded(lambda a, o, n: self.rebuild(end=n)))
        views = ["whole court"] + [f"{end} end" for end in court.ends]
        self.view_select = Select(title="View", value="whole court", options=views, name="view_select")
        self.view_select.on_change("value", self.guarded(self.view_changed))
        self.team_select = Select(title="Team of new discs and of the shot", value=self.teams[0],
                                  options=self.teams, name="team_select")
        self.team_select.on_change("value", self.guarded(lambda a, o, n: self.team_changed()))
        self.team_changed()
        delete = Button(label="Delete selected disc", name="delete")
        delete.on_click(self.guarded(self.delete_selected))
        clear = Button(label="Clear board", name="clear")
        clear.on_click(self.guarded(self.clear_board))
        undo = Button(label="Undo", name="undo")
        undo.on_click(self.guarded(self.undo))

        self.start_select = Select(title="Start (legal for the game)", value=self.starts[0].name,
                                   options=[s.name for s in self.starts], name="start_select")
        self.start_slider = Slider(title="Along the start", start=0.0, end=1.0, step=0.005, value=0.5,
                                   name="start_slider")
        self.start_select.on_change("value", self.guarded(lambda a, o, n: self.start_moved()))
        self.start_slider.on_change("value_throttled", self.guarded(lambda a, o, n: self.start_moved()))
        top = max_speed(court)
        self.speed_input = TextInput(title=f"Speed (m/s, up to {top:.2f})", value="", name="speed")
        self.direction_input = TextInput(title="Direction (degrees from +x)", value="", name="direction")
        self.spin_input = TextInput(title="Spin (rad/s, counter-clockwise)", value="0", name="spin")
        for widget in (self.speed_input, self.direction_input, self.spin_input):
            widget.on_change("value", self.guarded(lambda a, o, n: self.inputs_changed()))
        shoot = Button(label="Shoot", button_type="primary", name="shoot")
        shoot.on_click(self.guarded(self.shoot))
        self.playback = Select(title="Playback speed-up", value="1", options=PLAYBACK_SPEEDS, name="playback")

        presets = self.presets()
        self.skill_select = Select(title="Skill preset", value=next(iter(presets), ""), options=list(presets),
                                   name="skill", disabled=not presets)
        self.copies_input = TextInput(title="Noisy copies", value=str(DEFAULT_COPIES), name="copies_n")
        run_copies = Button(label="Run noisy copies", button_type="success", name="run_copies",
                            disabled=not presets)
        run_copies.on_click(self.guarded(self.run_copies))
        clear_copies = Button(label="Clear density", name="clear_copies")
        clear_copies.on_click(self.guarded(self.clear_copies))
        advise = Button(label="Advise: rank the shots", name="advise", disabled=not presets)
        advise.on_click(self.guarded(self.run_advice))

        self.upload = FileInput(accept=".json,application/json", name="upload")
        self.last_upload: tuple[str, str] | None = None
        self.upload.on_change("value", self.guarded(self.uploaded))
        self.upload.on_change("filename", self.guarded(self.uploaded))
        self.files = ColumnDataSource(name="files", data=dict(board=[""], scene=[""], board_why=[""],
                                                              scene_why=[""]))
        self.message = Div(name="message", text="", width=FIGURE_WIDTH)
        save_board = Button(label="Save board (JSON)", name="save_board")
        save_board.js_on_click(CustomJS(args=dict(files=self.files, key="board", filename="board.json",
                                                  message=self.message), code=browser_code.DOWNLOAD))
        save_scene = Button(label="Save scene (JSON)", name="save_scene")
        save_scene.js_on_click(CustomJS(args=dict(files=self.files, key="scene", filename="scene.json",
                                                  message=self.message), code=browser_code.DOWNLOAD))

        self.anim = ColumnDataSource(name="anim", data=dict(t=[], n=[], colour=[]))
        self.anim.js_on_change("data", CustomJS(
            args=dict(anim=self.anim, marks=self.marks, speed=self.playback, board=self.board_renderer,
                      labels=self.labels_renderer, moving=self.moving_renderer), code=browser_code.ANIMATE))
        self.density.js_on_change("data", CustomJS(args=dict(name="labDensityReceived"),
                                                   code=browser_code.TIMESTAMP))

        self.judgement = Div(name="judgement", text="", width=520)
        self.score = Div(name="score", text="", width=520)
        self.copies_div = Div(name="copies", text="", width=520)
        self.advice_div = Div(name="advice", text="", width=520)
        help_text = Div(text="<b>Shot lab</b>: click the court to place a disc (toolbar: point-draw tool), drag "
                             "to move, select and press Backspace or <i>Delete selected</i> to remove. Aim with the "
                             "arrow tool (drag its tip) or type the speed and direction. The toolbar's save "
                             "button exports a PNG.", width=520)
        controls = column(
            help_text,
            row(self.court_select, self.end_select, self.view_select),
            row(self.team_select),
            row(delete, clear, undo),
            row(self.start_select, self.start_slider),
            row(self.speed_input, self.direction_input, self.spin_input),
            row(shoot, self.playback),
            row(self.skill_select, self.copies_input),
            row(run_copies, clear_copies, advise),
            row(Div(text="Load a board or scene:"), self.upload),
            row(save_board, save_scene),
            self.score,
            self.judgement,
            self.copies_div,
            self.advice_div,
        )
        self.doc.title = "shuffle-sim shot lab"
        self.doc.add_root(row(column(fig, self.message), controls, name="lab"))
        self.doc.add_root(self.anim)  # referenced by no glyph: a root of its own, so the browser has it

    # ---- error handling ---------------------------------------------------------------------------
    def guarded(self, callback):
        """``callback`` for Bokeh, with every ``ValueError`` (bad input) turned into a message on the
        page and anything else reported as an internal error in one line (the server goes on)."""

        def call(*args):
            if self.syncing:
                return
            try:
                callback(*args)
            except ValueError as exc:
                self.say(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, error=True)
            except Exception as exc:  # noqa: BLE001 - a session must survive whatever a callback meets
                traceback.print_exc()
                self.say(f"internal error: {type(exc).__name__}: {exc}", error=True)

        def on_change(attr, old, new):
            call(attr, old, new)

        def on_click():
            call()

        return on_change if callback.__code__.co_argcount - hasattr(callback, "__self__") == 3 else on_click

    def say(self, text: str, error: bool = False) -> None:
        if not text:
            self.message.text = ""
            return
        colour = "#b71c1c" if error else "#1b5e20"
        self.message.text = f'<div class="lab-{"error" if error else "info"}" style="color:{colour}">{_escape(text)}</div>'

    def write(self, source: ColumnDataSource, data: dict) -> None:
        """Set a source's data without running this session's own change callbacks."""
        self.syncing = True
        try:
            source.data = data
        finally:
            self.syncing = False

    # ---- discs ------------------------------------------------------------------------------------
    def team_changed(self) -> None:
        team = self.team_select.value
        colour = team_colours(self.court, self.teams + [team])[-1]
        self.disc_tool.default_overrides = {"team": team, "colour": colour}

    def refresh_board(self, probe: tuple[int, float, float] | None = None) -> None:
        """Show the board: discs, their value labels, the judgement table, the frame score, the files.

        ``probe`` (disc, x, y): a disc being dragged, judged where it is now (the source is left alone)."""
        discs = list(self.board.discs)
        if probe is None:
            colours = team_colours(self.court, [d.team for d in discs]) if discs else []
            self.write(self.discs, dict(x=[d.x for d in discs], y=[d.y for d in discs], team=[d.team for d in discs],
                                        colour=colours))
        else:
            k, x, y = probe
            discs[k] = Disc(x, y, discs[k].team)
        view = LabBoard(self.board.court, discs)
        records = view.judgement()
        self.write(self.labels, label_rows(self.court, discs, records))
        self.judgement.text = judgement_html(discs, records)
        try:
            frame = view.frame_score()
            self.score.text = score_html(self.court, frame)
        except ValueError as exc:
            self.score.text = f"<b>Frame score</b>: {_escape(str(exc))}"
        if probe is None:
            self.update_files()

    def discs_edited(self, attr, old, new) -> None:
        """The drawing tool added, moved or deleted discs: keep the edit if valid, else put them back."""
        xs, ys, teams = list(new.get("x", [])), list(new.get("y", [])), list(new.get("team", []))
        discs = []
        for k, (x, y) in enumerate(zip(xs, ys)):
            team = teams[k] if k < len(teams) and teams[k] else self.team_select.value
            discs.append(Disc(float(x), float(y), str(team)))
        try:
            self.board.replace(discs)
        except LabError as exc:
            self.refresh_board()
            raise LabError(f"{exc}: put back") from None
        self.say("")
        self.refresh_board()

    def disc_dragged(self, attr, old, new) -> None:
        if not new.get("i"):
            return
        k, x, y = int(new["i"][0]), float(new["x"][0]), float(new["y"][0])
        if 0 <= k < len(self.board.discs):
            self.refresh_board(probe=(k, x, y))

    def delete_selected(self) -> None:
        indices = list(self.discs.selected.indices)
        if not indices:
            raise LabError("select a disc first (click it with the disc tool), then delete")
        self.board.delete(indices)
        self.discs.selected.indices = []
        self.refresh_board()

    def clear_board(self) -> None:
        self.board.replace([])
        self.refresh_board()

    def undo(self) -> None:
        if not self.board.undo():
            raise LabError("nothing to undo")
        self.write(self.paths, dict(xs=[], ys=[], colour=[]))
        self.write(self.marks, dict(x=[], y=[], t=[], kind=[], alpha=[]))
        self.refresh_board()
        self.say("board restored")

    # ---- aim --------------------------------------------------------------------------------------
    def start(self):
        return next(s for s in self.starts if s.name == self.start_select.value)

    def start_xy(self) -> tuple[float, float]:
        return self.start().point(self.start_slider.value)

    def decel(self) -> float:
        return self.court.params["mu"] * self.court.params["gravity"]

    def start_moved(self) -> None:
        """A new start: keep the typed speed and direction if any, else aim at the middle of the
        scoring diagram: its centre on a round board, straight down the court from the start on others."""
        sx, sy = self.start_xy()
        self.write(self.start_point, dict(x=[sx], y=[sy]))
        if not self.speed_input.value or not self.direction_input.value:
            zx0, zy0, zx1, zy1 = zoom_box(self.court, self.court.end) if self.court.ends else self.court.bounds
            tx, ty = 0.5 * (zx0 + zx1), 0.5 * (zy0 + zy1)
            if self.court.surface_kind != "circle":
                tx = sx
            distance = math.hypot(tx - sx, ty - sy)
            self.syncing = True
            try:
                self.speed_input.value = f"{math.sqrt(2 * self.decel() * distance):.4f}"
                self.direction_input.value = f"{math.degrees(math.atan2(ty - sy, tx - sx)):.3f}"
            finally:
                self.syncing = False
        self.inputs_changed()

    def aim(self) -> Aim:
        """The shot the inputs describe (``LabError`` naming the input that is not a number)."""
        values = {}
        for name, widget in (("speed", self.speed_input), ("direction", self.direction_input),
                             ("spin", self.spin_input)):
            try:
                values[name] = float(widget.value)
            except ValueError:
                raise LabError(f"shot {name} must be a number (got {widget.value!r})") from None
        sx, sy = self.start_xy()
        return Aim(sx, sy, values["speed"], values["direction"], values["spin"], self.team_select.value)

    def inputs_changed(self) -> None:
        """Draw the arrow from the start to where the disc would stop on an empty court."""
        sx, sy = self.start_xy()
        try:
            aim = self.aim()
        except LabError:
            self.write(self.aim_line, dict(x0=[], y0=[], x1=[], y1=[]))
            self.update_files()
            raise
        length = aim.speed ** 2 / (2 * self.decel()) if math.isfinite(aim.speed) else 0.0
        vx, vy = math.cos(math.radians(aim.direction)), math.sin(math.radians(aim.direction))
        tx, ty = sx + length * vx, sy + length * vy
        self.write(self.aim_line, dict(x0=[sx], y0=[sy], x1=[tx], y1=[ty]))
        self.write(self.tip, dict(x=[tx], y=[ty]))
        self.update_files()

    def tip_moved(self, attr, old, new) -> None:
        """The arrow's tip was dragged: its length sets the speed (it marks the slide's end), its
        bearing the direction."""
        if not new.get("x"):
            return
        tx, ty = float(new["x"][-1]), float(new["y"][-1])
        sx, sy = self.start_xy()
        distance = math.hypot(tx - sx, ty - sy)
        self.syncing = True
        try:
            self.speed_input.value = f"{math.sqrt(2 * self.decel() * distance):.4f}"
            self.direction_input.value = f"{math.degrees(math.atan2(ty - sy, tx - sx)):.3f}"
        finally:
            self.syncing = False
        self.inputs_changed()

    def set_aim(self, aim: Aim) -> None:
        """Take a loaded shot: the nearest legal start point is not forced; the shot's own start is
        kept by choosing the start and position nearest to it."""
        best = None
        for start in self.starts:
            for k in range(201):
                px, py = start.point(k / 200)
                d = math.hypot(px - aim.x, py - aim.y)
                if best is None or d < best[0]:
                    best = (d, start.name, k / 200)
        self.syncing = True
        try:
            self.start_select.value = best[1]
            self.start_slider.value = best[2]
            self.speed_input.value = f"{aim.speed:.6g}"
            self.direction_input.value = f"{aim.direction:.6g}"
            self.spin_input.value = f"{aim.spin:.6g}"
            if aim.team in self.teams:
                self.team_select.value = aim.team
        finally:
            self.syncing = False
        self.start_moved()

    def view_changed(self, attr, old, new) -> None:
        box = court_extent(self.court) if new == "whole court" else zoom_box(self.court, new.removesuffix(" end"))
        box = to_aspect(box)
        self.fig.x_range.start, self.fig.x_range.end = box[0], box[2]
        self.fig.y_range.start, self.fig.y_range.end = box[1], box[3]

    # ---- shots ------------------------------------------------------------------------------------
    def shoot(self) -> None:
        aim = self.aim()
        played = play_shot(self.board, aim)
        scene = played.scene
        colours = team_colours(self.court, scene.team)
        self.board.replace(played.board_after)
        data = {"t": played.times, "n": [scene.n_discs] + [0] * (len(played.times) - 1),
                "colour": (colours + [""] * len(played.times))[:len(played.times)]}
        for i in range(scene.n_discs):
            data[f"x{i}"] = played.positions[:, i, 0]
            data[f"y{i}"] = played.positions[:, i, 1]
        marks = played.marks
        self.write(self.marks, dict(x=[m["x"] for m in marks], y=[m["y"] for m in marks], t=[m["t"] for m in marks],
                                    kind=[m["kind"] for m in marks], alpha=[0.0] * len(marks)))
        self.write(self.anim, data)  # first to the page: the animation starts as soon as it arrives
        finite = np.isfinite(played.positions[:, :, 0])
        self.write(self.paths, dict(xs=[played.positions[finite[:, i], i, 0] for i in range(scene.n_discs)],
                                    ys=[played.positions[finite[:, i], i, 1] for i in range(scene.n_discs)],
                                    colour=colours))
        self.refresh_board()
        gone = len(played.removed)
        self.say(f"shot played: {len(played.result.events)} events, at rest after {played.result.t_end:.2f} s"
                 + (f"; {gone} disc{'s' if gone > 1 else ''} fell or died and left the board" if gone else ""))

    def presets(self) -> dict:
        try:
            return skill_presets(self.court.game)
        except NoiseError:
            return {}

    def run_copies(self) -> None:
        presets = self.presets()
        if self.skill_select.value not in presets:
            raise LabError(f"no skill presets for game {self.court.game!r}")
        try:
            n = int(self.copies_input.value)
        except ValueError:
            raise LabError(f"noisy copies must be a whole number (got {self.copies_input.value!r})") from None
        copies = noisy_copies(self.board, self.aim(), presets[self.skill_select.value], n)
        self.write(self.density, density_image(self.court, copies))
        self.copies_div.text = copies_html(copies, self.skill_select.value)

    def run_advice(self) -> None:
        """Rank the candidate shots for the board as ``shuffle-sim advise`` does, for the team chosen
        in the team control shooting from the selected start, under the selected skill preset."""
        presets = self.presets()
        if self.skill_select.value not in presets:
            raise LabError(f"no skill presets for game {self.court.game!r}")
        position = self.start().position
        if position is None:
            raise LabError(f"no shot advisor for game {self.court.game!r}")
        advice = advise_board(self.board, presets[self.skill_select.value], self.team_select.value, position)
        self.advice_div.text = advice_html(advice, self.skill_select.value, self.team_select.value, position)

    def clear_copies(self) -> None:
        self.write(self.density, dict(image=[], x=[], y=[], dw=[], dh=[]))
        self.copies_div.text = ""

    # ---- files ------------------------------------------------------------------------------------
    def update_files(self) -> None:
        board = board_json(self.board)
        try:
            scene, why = scene_json(self.board, self.aim()), ""
        except LabError as exc:
            scene, why = "", f"cannot save the scene: {exc}"
        self.write(self.files, dict(board=[board], scene=[scene], board_why=[""], scene_why=[why]))

    def uploaded(self, attr, old, new) -> None:
        """A file arrived: its content and its name come as two changes, in either order; read it
        once both are here."""
        try:
            name, content = self.upload.filename, self.upload.value
        except ValueError:  # the other half has not arrived yet (Bokeh's "unset value")
            return
        if not content or not name or (name, content) == self.last_upload:
            return
        self.last_upload = (name, content)
        loaded = parse_upload(name, content, self.court)
        what = "scene (board and shot)" if loaded.aim is not None else "board"
        self.rebuild(court=str(loaded.court.source_path), end=loaded.court.end, discs=loaded.discs, aim=loaded.aim,
                     message=f"loaded {what} from {name}: {len(loaded.discs)} resting disc(s)")

    def rebuild(self, court: str | None = None, end: str | None = None, discs: list[Disc] | None = None,
                aim: Aim | None = None, message: str = "") -> None:
        """A new page for another court or scoring end (the discs kept across an end change)."""
        if court is None:
            new_court = load_court(self.court.source_path).with_params(**self.court.params).for_end(end)
            discs = list(self.board.discs) if discs is None else discs
        else:
            new_court = load_court(court, end=end)
        LabBoard(new_court).checked(list(discs or []))
        self.doc.clear()
        LabApp(self.doc, new_court, discs=discs, aim=aim, message=message)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def make_document(options: LabOptions):
    """The ``modify_doc`` function Bokeh calls for every new session (server or notebook)."""

    def modify_doc(doc) -> None:
        court_ref, end = options.court, options.end
        request = getattr(doc.session_context, "request", None) if doc.session_context else None
        arguments = getattr(request, "arguments", None) or {}
        message = ""
        if "court" in arguments:
            court_ref = arguments["court"][0].decode()
        if "end" in arguments:
            end = arguments["end"][0].decode()
        try:
            court = load_court(court_ref, end=end)
        except ValueError as exc:
            message = f"{exc}; showing court {options.court!r}"
            court = load_court(options.court, end=options.end)
        LabApp(doc, court, message=message)

    return modify_doc
