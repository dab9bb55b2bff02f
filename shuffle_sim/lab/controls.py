"""The lab's controls: every widget beside the court, and how they are laid out.

The panel beside the court is two columns: the controls, the status area first (``status``), then
one row per task (the court and its view; the mode and the team; board edits; the shot's start; the
shot's numbers; shooting; noisy copies and advice; files); and the results in tabs (the frame, the
discs, the noisy copies, the advice, help), at the top of the window beside the controls where it
is wide enough (1366 px), so that what a shot, the copies or the advice gave is in view without
scrolling, and under the controls in a narrower window (1000 px).

The court rows hold the controls that make the court (``court_controls``, three to a row): the
court, its scoring end and the view. A control of the court's parameters (court speed in seconds,
the surface) is one more widget appended to ``court_controls`` (it gets the next row) whose change
calls ``LabApp.apply_params``: the court is built again with the new parameters and taken in place
(the page's models kept, the frame and the aim with them), and every shot, copy and advice uses it.

Models the page's scripts and tests look up by name are named after their job (``mode``, ``speed``,
``shoot``, ...); see the widget list in ``Controls.__init__``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bokeh.layouts import column, row
from bokeh.models import InlineStyleSheet, TabPanel, Tabs
from bokeh.models.widgets import Button, DataTable, Div, FileInput, RadioButtonGroup, Select, Slider, TextInput

from shuffle_sim.court import Court
from shuffle_sim.lab.fields import NumberField

PANEL_WIDTH = 420
#: The results' tabs (frame, discs, noisy copies, advice, help): beside the controls in a window
#: 1366 px wide, under them in a narrower one.
RESULTS_WIDTH = 380
#: The status area's height (pixels): four lines; more scroll.
STATUS_HEIGHT = 66
PLAYBACK_SPEEDS = ["0.5", "1", "2", "4", "8"]
#: The modes of a press on the court, in the order of the mode buttons.
MODES = ("place", "move", "aim")
MODE_LABELS = ["Place discs", "Move discs", "Aim"]
#: A field whose text is not an allowed value is outlined in red.
INVALID = "lab-invalid"
FIELD_CSS = f":host(.{INVALID}) input {{ border: 2px solid #b71c1c; background: #fff4f4; }}"
RESULT_TABS = ("frame", "discs", "copies", "advice", "help")
HELP = (
    "<b>Shot lab</b><ul>"
    "<li><b>Place discs</b>: click the court to put down a disc of the chosen team; press a disc and drag it "
    "to move it; click a disc to select it, then <i>Delete</i> (or the Delete or Backspace key).</li>"
    "<li><b>Move discs</b>: the same, but a click on empty court adds nothing.</li>"
    "<li><b>Aim</b>: press or drag anywhere to put the arrow's tip there: the tip is where the disc would stop on "
    "an empty court (its length is the speed). Or type the speed, the direction (degrees counter-clockwise "
    "from +x, the court's frame) and the spin (rad/s, + counter-clockwise seen from above); each field shows "
    "what it takes.</li>"
    "<li>Dragging empty court moves the view; the mouse wheel zooms; the toolbar resets the view and saves a PNG."
    "</li><li><b>Shoot</b> plays the shot with the exact kernel; the game's rules then take off what they take "
    "off (crokinole 20s are counted at once), marked on the court and listed under <i>Frame</i>. "
    "<b>Undo</b> restores the board, at any moment.</li></ul>"
)


def _field(field: NumberField, value: str) -> TextInput:
    return TextInput(
        title=field.title,
        value=value,
        value_input=value,
        name=field.name,
        width=128,
        stylesheets=[InlineStyleSheet(css=FIELD_CSS)],
    )


def _options(names: Sequence[str]) -> list[str | tuple[Any, str]]:
    """``names`` as a ``Select``'s options (bokeh types them as a list of values or (value, label) pairs)."""
    return list(names)


class Controls:
    """The widgets of one page (module docstring)."""

    def __init__(
        self,
        court: Court,
        court_choices: list[str],
        court_ref: str,
        views: list[str],
        view: str,
        teams: list[str],
        starts: list[str],
        fields: dict[str, NumberField],
        copies: NumberField,
        presets: list[str],
        default_copies: int,
    ):
        self._add_court_widgets(court, court_choices, court_ref, views, view)
        self._add_board_widgets(teams)
        self._add_shot_widgets(starts, fields)
        self._add_copies_widgets(copies, presets, default_copies)
        self._add_results()

    def _add_court_widgets(
        self, court: Court, court_choices: list[str], court_ref: str, views: list[str], view: str
    ) -> None:
        """The message line, and the court, scoring end and view choices."""
        ends = list(court.ends) or [court.end]
        # A fixed height: a message appearing never moves the buttons under the pointer.
        self.status = Div(
            name="message",
            text="",
            width=PANEL_WIDTH,
            height=STATUS_HEIGHT,
            styles={"overflow-y": "auto", "font-size": "13px", "line-height": "16px"},
        )
        self.court_select = Select(
            title="Court", value=court_ref, options=_options(court_choices), name="court_select", width=140
        )
        self.end_select = Select(
            title="Scoring end",
            value=court.end,
            options=_options(ends),
            disabled=len(ends) < 2,
            name="end_select",
            width=100,
        )
        self.view_select = Select(title="View", value=view, options=_options(views), name="view_select", width=140)
        self.court_controls: list[Any] = [self.court_select, self.end_select, self.view_select]

    def _add_board_widgets(self, teams: list[str]) -> None:
        """The mode (place discs or aim), the team of a new disc, and the board's edit buttons."""
        self.mode = RadioButtonGroup(labels=MODE_LABELS, active=0, name="mode", width=260)
        self.team_select = Select(title="Team", value=teams[0], options=_options(teams), name="team_select", width=130)
        self.delete = Button(label="Delete disc", name="delete", width=110)
        self.clear = Button(label="Clear board", name="clear", width=110)
        self.undo = Button(label="Undo", name="undo", width=110)

    def _add_shot_widgets(self, starts: list[str], fields: dict[str, NumberField]) -> None:
        """The shot: its start, the launch fields, the shoot button and the playback speed."""
        self.start_select = Select(
            title="Start (legal for the game)",
            value=starts[0],
            options=_options(starts),
            name="start_select",
            width=180,
        )
        self.start_slider = Slider(
            title="Along the start", start=0.0, end=1.0, step=0.005, value=0.5, name="start_slider", width=210
        )
        self.fields = {name: _field(f, "") for name, f in fields.items()}
        self.fields["spin"].value = self.fields["spin"].value_input = "0"
        self.shoot = Button(label="Shoot", button_type="primary", name="shoot", width=110)
        self.playback = Select(
            title="Playback speed-up", value="1", options=_options(PLAYBACK_SPEEDS), name="playback", width=120
        )

    def _add_copies_widgets(self, copies: NumberField, presets: list[str], default_copies: int) -> None:
        """The noisy copies and the advisor (a skill preset, the number of copies), and the board's files."""
        self.skill_select = Select(
            title="Skill preset",
            value=presets[0] if presets else "",
            options=_options(presets),
            name="skill",
            disabled=not presets,
            width=125,
        )
        self.copies_input = _field(copies, str(default_copies))
        self.run_copies = Button(
            label="Run noisy copies", button_type="success", name="run_copies", disabled=not presets, width=130
        )
        self.clear_copies = Button(label="Clear density", name="clear_copies", width=110)
        self.advise = Button(label="Advise: rank the shots", name="advise", disabled=not presets, width=180)

        self.upload = FileInput(accept=".json,application/json", name="upload", width=180)
        self.save_board = Button(label="Save board", name="save_board", width=100)
        self.save_scene = Button(label="Save scene", name="save_scene", width=100)

    def _add_results(self) -> None:
        """The result tabs: the frame, the discs, the noisy copies, the advice and the help."""
        inner = RESULTS_WIDTH - 10
        self.frame_div = Div(name="score", text="", width=inner)
        self.judgement = Div(name="judgement", text="", width=inner)
        self.copies_div = Div(name="copies", text="", width=inner)
        self.advice_div = Div(name="advice", text="", width=inner)
        self.advice_table = DataTable(
            name="advice_table",
            columns=[],
            width=inner,
            height=190,
            index_position=None,
            visible=False,
            autosize_mode="none",
        )
        self.advice_help = Div(name="advice_help", text="", width=inner)
        self.aim_advised = Button(label="Aim this (selected row)", name="aim_advised", disabled=True, width=190)
        self.results = Tabs(
            name="results",
            width=RESULTS_WIDTH,
            tabs=[
                TabPanel(title="Frame", child=self.frame_div),
                TabPanel(title="Discs", child=self.judgement),
                TabPanel(title="Noisy copies", child=self.copies_div),
                TabPanel(
                    title="Advice", child=column(self.advice_div, self.advice_table, self.aim_advised, self.advice_help)
                ),
                TabPanel(title="Help", child=Div(text=HELP, width=inner)),
            ],
        )

    def show_result(self, tab: str) -> None:
        """Bring a result tab (``RESULT_TABS``) to the front."""
        self.results.active = RESULT_TABS.index(tab)

    def mark(self, name: str, valid: bool) -> None:
        """Outline a field in red while its text is not an allowed value."""
        widget = self.fields.get(name) or (self.copies_input if name == self.copies_input.name else None)
        if widget is not None:
            widget.css_classes = [] if valid else [INVALID]

    def layout(self):
        """The controls and the results side by side, the results under the controls when the window
        is too narrow for both beside the court (the row wraps)."""
        f = self.fields
        court_rows = [row(*self.court_controls[k : k + 3]) for k in range(0, len(self.court_controls), 3)]
        controls = column(
            self.status,
            *court_rows,
            row(self.mode, self.team_select),
            row(self.delete, self.clear, self.undo),
            row(self.start_select, self.start_slider),
            row(f["speed"], f["direction"], f["spin"]),
            row(self.shoot, self.playback),
            row(self.skill_select, self.copies_input, self.run_copies),
            row(self.advise, self.clear_copies),
            row(self.upload, self.save_board, self.save_scene),
            name="controls",
            width=PANEL_WIDTH,
        )
        return row(
            controls,
            self.results,
            name="panel",
            # Beside the court (which keeps its size), taking the window's width that is left, at
            # least the controls'; the results wrap under the controls when it is too narrow.
            styles={
                "flex": "1 1 0",
                "min-width": f"{PANEL_WIDTH}px",
                "flex-wrap": "wrap",
                "align-content": "flex-start",
            },
        )
