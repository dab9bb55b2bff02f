"""The shot lab's Bokeh document: one ``LabApp`` per browser session.

``LabApp(doc, court, session)`` builds the page from its parts (``figure.CourtFigure``,
``controls.Controls``, ``status.Status``) and hands the callbacks to the parts' controllers: board
edits and the court's gestures (``editing``), the aim (``aiming``), shots and their animation
(``playing``), noisy copies and advice (``analysis``), files (``transfer``). Every callback runs
Python on the server, through the session (``listen``, ``on_click``: ``session.Session``, which
runs them in order, waits for the kernels they need and runs the long ones beside the page); the
browser only reads the pointer and animates (``browser_code``). Any ``ValueError`` a callback meets
(``LabError``, a field, court, scene or rules error) becomes a message in the status area and the
session goes on; nothing is ever shown as a traceback. Another court, scoring end or loaded file
builds a new page on the same session; other court parameters are taken in place
(``apply_params``).

Until the board's kernels are compiled or loaded (``warmup``), a session shows a ``WaitingPage`` that
says so, with progress, and becomes the lab when they are ready.

Models the page's tests look up by name: ``court`` (the figure), ``discs``, ``labels``, ``ghosts``,
``anim``, ``marks``, ``density``, ``gesture`` (sources), ``message`` (the status area), ``score``,
``judgement``, ``copies``, ``advice`` (result texts), and the widgets of ``controls``.
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bokeh.events import DocumentReady
from bokeh.layouts import row
from bokeh.models import ColumnDataSource, CustomJS
from bokeh.models.widgets import Div

from shuffle_sim.court import Court, list_courts, load_court
from shuffle_sim.lab import browser_code
from shuffle_sim.lab.aiming import Aiming
from shuffle_sim.lab.analysis import Analysis
from shuffle_sim.lab.board import Disc, FrameState, LabBoard, court_reference, team_names
from shuffle_sim.lab.controls import Controls
from shuffle_sim.lab.copies import MAX_COPIES
from shuffle_sim.lab.editing import Editing
from shuffle_sim.lab.fields import copies_field, shot_fields
from shuffle_sim.lab.figure import CourtFigure, view_names
from shuffle_sim.lab.playing import Playing
from shuffle_sim.lab.session import Action
from shuffle_sim.lab.shots import Aim

if TYPE_CHECKING:
    from shuffle_sim.lab.session import Session
    from shuffle_sim.lab.warmup import WarmUp
from shuffle_sim.lab.starts import legal_starts
from shuffle_sim.lab.status import Status
from shuffle_sim.lab.surface_controls import SurfaceEditing, surface_widgets
from shuffle_sim.lab.transfer import Transfer
from shuffle_sim.lab.view import ghost_rows, judgement_html, label_rows, score_html
from shuffle_sim.noise import NoiseError, skill_presets
from shuffle_sim.plot import team_colours

DEFAULT_COPIES = 10_000


@dataclass
class LabOptions:
    """What the command line gives every session: the court (name or path), the scoring end, and the
    warm-up to wait for (None: the process's shared one, started on first use)."""

    court: str = "deck"
    end: str | None = None
    warmup: WarmUp | None = field(default=None, repr=False)


class LabApp:
    """One session's page (see the module docstring)."""

    def __init__(
        self,
        doc,
        court: Court,
        session: Session,
        state: FrameState | None = None,
        aim: Aim | None = None,
        message: str = "",
        params: dict | None = None,
    ):
        self.doc = doc
        self.session = session
        self.handlers: dict[tuple[str, str], Callable] = {}
        self.court = court
        self.params = dict(params or {})
        self.board = LabBoard(court)
        self.board.set_state(state or FrameState(), remember=False)
        self.starts = legal_starts(court)
        self.teams = list(team_names(court))
        self.syncing = False
        self.build()
        # Callbacks before the models join the document: Bokeh subscribes a model to the page's
        # events (button clicks) when it joins, not later.
        self.editing, self.aiming, self.playing = Editing(self), Aiming(self), Playing(self)
        self.analysis, self.transfer = Analysis(self), Transfer(self)
        self.surface_editing = SurfaceEditing(self, self.surface_widgets)
        c = self.controls
        self.listen(c.court_select, "value", lambda attr, old, new: self.rebuild(court=new), "another court")
        self.listen(c.end_select, "value", lambda attr, old, new: self.rebuild(end=new), "another scoring end")
        self.listen(c.view_select, "value", lambda attr, old, new: self.figure.show_view(new), "another view")
        session.attach(self)
        self.aiming.start(aim)
        self.refresh_board()
        self.status.succeeded(message or None)
        self.attach()

    # ---- page -------------------------------------------------------------------------------------
    def build(self) -> None:
        court = self.court
        title = court.title + (f" (scoring end: {court.end})" if len(court.ends) > 1 else "")
        self.figure = CourtFigure(court, self.starts, title)
        ref = court_reference(court)
        choices = list_courts() + ([ref] if ref not in list_courts() else [])
        self.controls = Controls(
            court,
            choices,
            ref,
            view_names(court),
            self.figure.view,
            self.teams,
            [s.name for s in self.starts],
            shot_fields(court),
            copies_field(MAX_COPIES),
            list(self.presets()),
            DEFAULT_COPIES,
        )
        self.status = Status(self.controls.status)
        self.surface_widgets = surface_widgets(court, self.params)
        self.controls.court_controls += list(self.surface_widgets.values())
        self.gesture = ColumnDataSource(name="gesture", data=dict(kind=[], i=[], x=[], y=[], x0=[], y0=[], seq=[]))
        self.anim = ColumnDataSource(name="anim", data=dict(t=[], n=[], colour=[], id=[]))
        self.download = ColumnDataSource(name="download", data=dict(name=[], text=[], n=[]))
        fig = self.figure
        self.anim.js_on_change(
            "data",
            CustomJS(
                args=dict(
                    anim=self.anim,
                    marks=fig.marks,
                    speed=self.controls.playback,
                    board=fig.board_renderer,
                    labels=fig.labels_renderer,
                    numbers=fig.numbers_renderer,
                    ghosts=fig.ghosts_renderer,
                    moving=fig.moving_renderer,
                    plot=fig.fig,
                    extent=fig.extent,
                ),
                code=browser_code.ANIMATE,
            ),
        )
        self.download.js_on_change("data", CustomJS(args=dict(download=self.download), code=browser_code.DOWNLOAD))
        fig.density.js_on_change("data", CustomJS(args=dict(name="labDensityReceived"), code=browser_code.TIMESTAMP))
        fig.labels.js_on_change("data", CustomJS(args=dict(name="labLabelsReceived"), code=browser_code.TIMESTAMP))
        fig.aim_path.js_on_change("data", CustomJS(args=dict(name="labPathReceived"), code=browser_code.TIMESTAMP))

    def attach(self) -> None:
        """Put the page into the document."""
        self.doc.title = "shuffle-sim shot lab"
        self.doc.add_root(row(self.figure.fig, self.controls.layout(), name="lab"))
        for source in (self.gesture, self.anim, self.download):  # referenced by no glyph: roots of their own
            self.doc.add_root(source)
        install_gestures(self.doc, self.gesture)

    def presets(self) -> dict:
        try:
            return skill_presets(self.court.game)
        except NoiseError:
            return {}

    # ---- callbacks --------------------------------------------------------------------------------
    def run(self, callback, *args, action: bool = True) -> None:
        """Run a callback with every ``ValueError`` (bad input) turned into a message in the status area
        and anything else reported as an internal error in one line (the session goes on). An
        ``action`` clears the last action's failure and note first; a quiet callback (a live drag, a
        keystroke) leaves them."""
        if self.syncing:
            return
        try:
            if action:
                self.status.succeeded("")
            callback(*args)
        except ValueError as exc:
            text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.status.failed(text, getattr(exc, "field", None))
        except Exception as exc:
            traceback.print_exc()
            self.status.failed(f"internal error: {type(exc).__name__}: {exc}")

    def listen(
        self,
        model,
        prop: str,
        callback,
        label: str = "",
        needs: Callable[[LabApp], tuple[str, ...]] | None = None,
        action: bool = True,
        merge: bool = False,
        key: str | None = None,
    ) -> None:
        """Run ``callback(attr, old, new)`` when ``model``'s ``prop`` changes on the page, through the
        session (``session.Session.submit``: in order, after what it waits for, never lost);
        ``key`` names the model if it has no name of its own."""
        self._register(
            model, prop, callback, label or f"the {getattr(model, 'title', '') or key} field", needs, action, merge, key
        )

    def on_click(self, button, callback, needs: Callable[[LabApp], tuple[str, ...]] | None = None) -> None:
        """Run ``callback()`` when ``button`` is clicked, through the session (as ``listen``)."""
        self._register(button, "click", callback, button.label, needs, True, False, None)

    def _register(self, model, prop, callback, label, needs, action, merge, key) -> None:
        name = key or model.name
        self.handlers[(name, prop)] = callback

        def submit(args: tuple) -> None:
            if not self.syncing:
                action_ = Action(self, (name, prop), callback, args, label, needs or (lambda app: ()), action, merge)
                self.session.submit(action_)

        if prop == "click":
            model.on_click(lambda: submit(()))
        else:
            model.on_change(prop, lambda attr, old, new: submit((attr, old, new)))

    def retarget(self, action: Action):
        """The callback on this page for an action made on an earlier one (another court since, say):
        the same widget's (by name), which first takes the value typed; None if this page has none."""
        name, prop = action.key
        if name == "gesture":
            return self.editing.handlers.get(prop)
        callback = self.handlers.get(action.key)
        widget = self.doc.get_model_by_name(name)
        if callback is not None and prop != "click" and widget is not None and len(action.args) == 3:
            self.set_quietly(widget, **{prop: action.args[2]})
        return callback

    def kernels_ready(self) -> None:
        """More of the lab's kernels are ready (``warmup``): what waited for them is drawn."""
        self.aiming.kernels_ready()

    def write(self, source: ColumnDataSource, data: dict) -> None:
        """Set a source's data without running this session's own change callbacks."""
        self.syncing = True
        try:
            source.data = data
        finally:
            self.syncing = False

    def set_quietly(self, widget, **values) -> None:
        """Set widget properties without running this session's own change callbacks."""
        self.syncing = True
        try:
            for key, value in values.items():
                setattr(widget, key, value)
        finally:
            self.syncing = False

    # ---- the board on the page --------------------------------------------------------------------
    def refresh_board(self, probe: tuple[int, float, float] | None = None) -> None:
        """Show the board: discs, their value labels, the judgement table, the frame panel and the
        marks of the discs the last shot's rules removed.

        ``probe`` (disc, x, y): a disc being dragged, judged where it is now (the discs are left alone)."""
        discs = list(self.board.discs)
        state = self.board.state
        if probe is None:
            colours = team_colours(self.court, [d.team for d in discs]) if discs else []
            self.stamp = getattr(self, "stamp", 0) + 1
            self.write(
                self.figure.discs,
                dict(
                    x=[d.x for d in discs],
                    y=[d.y for d in discs],
                    team=[d.team for d in discs],
                    colour=colours,
                    stamp=[self.stamp] * len(discs),
                ),
            )
        else:
            k, x, y = probe
            discs[k] = Disc(x, y, discs[k].team)
        view = LabBoard(self.court, FrameState(tuple(discs), state.twenties, state.half, state.shots, state.notes))
        records = view.judgement()
        self.write(self.figure.labels, label_rows(self.court, discs, records))
        self.controls.judgement.text = judgement_html(discs, records)
        try:
            self.controls.frame_div.text = score_html(self.court, view.frame_score(), state)
        except ValueError as exc:
            self.controls.frame_div.text = score_html(self.court, None, state, problem=str(exc))

    def show_removed(self, removed) -> None:
        self.write(self.figure.ghosts, ghost_rows(removed))

    # ---- another court ----------------------------------------------------------------------------
    def rebuild(
        self,
        court: str | None = None,
        end: str | None = None,
        state: FrameState | None = None,
        aim: Aim | None = None,
        message: str = "",
        params: dict | None = None,
    ) -> None:
        """A new page for another court, scoring end or court parameters (the frame kept across an end
        or parameter change, checked on the new court; another court starts from its own parameters)."""
        params = dict((self.params if court is None else {}) if params is None else params)
        if court is None:
            new_court = load_court(self.court.source_path).with_params(**params).for_end(end or self.court.end)
            state = self.board.state if state is None else state
        else:
            new_court = load_court(court, end=end)
            if params:
                new_court = new_court.with_params(**params)
        state = state or FrameState()
        LabBoard(new_court).checked(list(state.discs))
        self.playing.stop()
        self.doc.clear()
        LabApp(self.doc, new_court, self.session, state=state, aim=aim, message=message, params=params)

    def apply_params(self, params: dict) -> None:
        """The same court with other parameters (court speed, grade, crown), in place: every model of
        the page stays (nothing typed or clicked meanwhile is lost), the frame and the aim are kept,
        and the relief, the fields' ranges and the discs' values follow the new court."""
        court = load_court(self.court.source_path).with_params(**params).for_end(self.court.end)
        self.playing.settle()
        self.court, self.params = court, dict(params)
        self.board.court = court
        self.figure.show_court(court)
        self.analysis.clear_copies()
        self.aiming.court_changed()
        self.refresh_board()


def install_gestures(doc, anchor) -> None:
    """The page's pointer and key script (``browser_code.GESTURES``), run once when the page has
    loaded; it finds every court the session builds later by itself (``anchor``: any model of the
    document, for the script to find the document; when the anchor has left the document by the time
    the page is ready, as a waiting page's does when the lab replaces it meanwhile, the script takes
    the page's own document)."""
    if not doc.callbacks.js_event_callbacks.get(DocumentReady.event_name):
        doc.js_on_event(DocumentReady, CustomJS(args=dict(anchor=anchor), code=browser_code.GESTURES))


class WaitingPage:
    """A session opened before the board's kernels are ready: says so, with progress, then becomes
    the lab."""

    def __init__(self, doc, warmup, build):
        self.doc, self.warmup, self.build = doc, warmup, build
        self.div = Div(name="message", text="", width=640)
        doc.title = "shuffle-sim shot lab"
        doc.add_root(self.div)
        install_gestures(doc, self.div)
        self.callback = None
        self.tick()
        if not self.warmup.page_ready.is_set():
            self.callback = doc.add_periodic_callback(self.tick, 500)

    def tick(self) -> None:
        if self.warmup.page_ready.is_set():
            if self.callback is not None:
                self.doc.remove_periodic_callback(self.callback)
                self.callback = None
            self.doc.clear()
            self.build()
            return
        self.div.text = (
            f'<h3>shuffle-sim shot lab</h3><div class="lab-progress" style="color:#0d47a1">'
            f"{html.escape(self.warmup.text())}</div><p>The page becomes the lab as soon as it can judge "
            f"discs; the rest compiles in the background. numba keeps the kernels, so later runs start in "
            f"a second.</p>"
        )


def make_document(options: LabOptions):
    """The ``modify_doc`` function Bokeh calls for every new session (server or notebook)."""
    from shuffle_sim.lab.session import Session
    from shuffle_sim.lab.warmup import shared_warm_up

    def modify_doc(doc) -> None:
        court_ref, end = options.court, options.end
        request = getattr(doc.session_context, "request", None) if doc.session_context else None
        arguments = getattr(request, "arguments", None) or {}
        if "court" in arguments:
            court_ref = arguments["court"][0].decode()
        if "end" in arguments:
            end = arguments["end"][0].decode()

        def build() -> None:
            message = ""
            try:
                court = load_court(court_ref, end=end)
            except ValueError as exc:
                message = f"{exc}; showing court {options.court!r}"
                court = load_court(options.court, end=options.end)
            if warmup.error:
                message = f"the warm-up failed ({warmup.error}); {message}".rstrip("; ")
            LabApp(doc, court, session, message=message)

        warmup = options.warmup or shared_warm_up(options.court, options.end)
        session = Session(doc, warmup)
        if warmup.page_ready.is_set():
            build()
        else:
            WaitingPage(doc, warmup, build)

    return modify_doc
