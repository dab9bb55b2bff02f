"""Noisy copies and advice in the lab: what a shot does under a player's errors, and which shot to play.

"Run noisy copies" plays N executions of the aim under the chosen skill preset (``copies``) and draws
where the shot disc came to rest as a violet density map with its colour bar (the share of the
copies resting in each cell), with the outcome tables in the "Noisy copies" tab. "Advise" ranks the
game's candidate shots for the team shooting from the chosen start (``advice``) in a table of the
advisor's own columns, each explained under it; "Aim this" loads the selected row's shot into the
aim, exactly.
"""

from __future__ import annotations

from html import escape

from bokeh.models.widgets import TableColumn

from shuffle_sim.lab.advice import (
    ROWS,
    advise_board,
    advised_aim,
    column_width,
    columns_of,
    meanings_html,
    table_data,
)
from shuffle_sim.lab.board import LabError
from shuffle_sim.lab.copies import MAX_COPIES, noisy_copies
from shuffle_sim.lab.fields import copies_field
from shuffle_sim.lab.figure import EMPTY_DENSITY
from shuffle_sim.lab.view import copies_html, density_image
from shuffle_sim.lab.warmup import ADVICE, COPIES, SURFACE_COPIES
from shuffle_sim.messages import counted


def copies_needs(app) -> tuple[str, ...]:
    """The kernel groups noisy copies need (``warmup``): a flat court's, or a graded or crowned one's."""
    return (COPIES,) if app.court.surface_shape.flat else (SURFACE_COPIES,)


def advice_needs(app) -> tuple[str, ...]:
    """The kernel groups the advice needs (``warmup``)."""
    return (ADVICE,) if app.court.surface_shape.flat else (ADVICE, SURFACE_COPIES)


class Analysis:
    """Noisy copies and advice for one ``LabApp`` (module docstring)."""

    def __init__(self, app):
        self.app = app
        c = app.controls
        self.copies_spec = copies_field(MAX_COPIES)
        self.copies_text = c.copies_input.value
        self.advice_rows: list[dict] = []
        self.planned_on = None
        self.copies_aim = None  # the aim the density map shows the copies of
        app.on_click(c.run_copies, self.run_copies, copies_needs)
        app.on_click(c.clear_copies, self.clear_copies)
        app.on_click(c.advise, self.run_advice, advice_needs)
        app.on_click(c.aim_advised, self.aim_advised)
        for prop in ("value_input", "value"):
            app.listen(c.copies_input, prop, self.copies_typed, action=False, merge=True)
        self.table_source = c.advice_table.source
        app.listen(self.table_source.selected, "indices", self.row_chosen, "choosing a row", False, key="advice_rows")

    def preset(self):
        presets = self.app.presets()
        name = self.app.controls.skill_select.value
        if name not in presets:
            raise LabError(f"no skill presets for game {self.app.court.game!r}")
        return name, presets[name]

    # ---- noisy copies -----------------------------------------------------------------------------
    def copies_typed(self, attr, old, new) -> None:
        self.copies_text = new
        try:
            self.copies_spec.check(new)
        except ValueError as exc:
            self.app.controls.mark(self.copies_spec.name, False)
            self.app.status.problem(self.copies_spec.name, str(exc))
        else:
            self.app.controls.mark(self.copies_spec.name, True)
            self.app.status.solved(self.copies_spec.name)

    def run_copies(self) -> None:
        """Play the copies in a worker thread (``session``), then draw them."""
        app = self.app
        app.playing.settle()
        name, preset = self.preset()
        n = self.copies_spec.check(self.copies_text)
        aim, board = app.aiming.require(), app.board
        app.session.start_job(
            "running the noisy copies",
            lambda: noisy_copies(board, aim, preset, n),
            lambda copies: self.show_copies(copies, aim, name),
            app.controls.run_copies,
        )

    def show_copies(self, copies, aim, name: str) -> None:
        app = self.app
        self.copies_aim = aim
        image, top = density_image(app.court, copies)
        app.figure.mapper.update(low=min(1.0 / max(copies.played, 1), top), high=max(top, 1e-9))
        app.figure.colour_bar.visible = True
        app.write(app.figure.density, image)
        app.controls.copies_div.text = copies_html(copies, name)
        app.controls.show_result("copies")
        app.status.succeeded(
            f"{counted(copies.n, 'noisy copy', 'noisy copies')} played ({name}); the violet map shows where "
            f"the shot disc came to rest"
        )

    def clear_copies(self) -> None:
        self.copies_aim = None
        self.app.write(self.app.figure.density, dict(EMPTY_DENSITY))
        self.app.figure.colour_bar.visible = False
        self.app.controls.copies_div.text = ""

    def aim_changed(self, aim) -> None:
        """The aim is now ``aim`` (None: a field holds a bad value): the density map and the copies'
        tables of another aim are taken away (they no longer describe the shot the arrow shows)."""
        if self.copies_aim is not None and aim != self.copies_aim:
            self.clear_copies()
            self.app.controls.copies_div.text = "<b>Noisy copies</b>: the aim changed; run them again for this aim."

    # ---- advice -----------------------------------------------------------------------------------
    def run_advice(self) -> None:
        """Rank the candidate shots for the board as ``shuffle-sim advise`` does, for the team chosen in
        the team control shooting from the selected start, under the selected skill preset: in a
        worker thread (``session``: the page says it is working), then the table."""
        app = self.app
        app.playing.settle()
        name, preset = self.preset()
        start = app.aiming.current_start()
        if start.position is None:
            raise LabError(f"no shot advisor for game {app.court.game!r}")
        shooter, board = app.controls.team_select.value, app.board
        app.session.start_job(
            "ranking the candidate shots",
            lambda: advise_board(board, preset, shooter, start.position),
            lambda ranked: self.show_advice(ranked, shooter, start.position, name),
            app.controls.advise,
        )

    def show_advice(self, ranked, shooter: str, position: str, name: str) -> None:
        from shuffle_sim.playing.advisor import unreached_line

        app = self.app
        ctx, advice = ranked
        rows = [a.to_dict() for a in advice[:ROWS]]
        self.advice_rows, self.planned_on = rows, ctx.court
        columns = columns_of(rows)
        c = app.controls
        data = table_data(rows, columns)
        headings = {"rank": "#", **{col.key: col.heading for col in columns}}
        c.advice_table.columns = [
            TableColumn(field=key, title=heading, width=column_width(heading, data[key]))
            for key, heading in headings.items()
        ]
        app.write(self.table_source, data)
        self.table_source.selected.indices = []
        c.advice_table.visible = bool(rows)
        c.aim_advised.disabled = True
        unreached = unreached_line(ctx, advice)
        if not advice and unreached:
            c.advice_div.text = f"<b>Advice</b> for {shooter} from {position} ({name}): {escape(unreached)}."
        else:
            c.advice_div.text = (
                f"<b>Advice</b> for {shooter} from {position} ({name}): "
                f"{counted(len(advice), 'candidate shot')}, best first"
                + (f" (the first {ROWS} shown)" if len(advice) > ROWS else "")
                + ". Select a row, then <i>Aim this</i>."
                + (f" {escape(unreached[0].upper() + unreached[1:])}." if unreached else "")
            )
        c.advice_help.text = "<b>The columns</b>" + meanings_html(columns)
        c.show_result("advice")
        app.status.succeeded(f"advice ready: {counted(len(advice), 'candidate shot')} ranked")

    def row_chosen(self, attr, old, new) -> None:
        self.app.controls.aim_advised.disabled = not new

    def aim_advised(self) -> None:
        indices = list(self.table_source.selected.indices)
        if not indices or indices[0] >= len(self.advice_rows):
            raise LabError("select a row of the advice first, then Aim this")
        row = self.advice_rows[indices[0]]
        app = self.app
        app.aiming.set_aim(advised_aim(app.court, self.planned_on, row, app.controls.team_select.value))
        app.status.succeeded(f"aimed: {row.get('shot', 'the advised shot')} (from the advice); Shoot plays it")
