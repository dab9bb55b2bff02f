"""The lab's court parameters: the court's speed and its surface (grade and crown).

Four text fields, one more row of the court controls (``controls``): the court speed as players
rate it (``"14 s"``, docs/court-speed.md; empty: the court file's mu), the grade across (x) and
along (y) the court (``"1 in 1000"``, a per mille ``"1‰"`` or a plain dimensionless number; + drifts
discs toward +x or +y; empty: none) and the crown (a length, ``"1/32 in"`` or ``"0.8 mm"``: the middle
lies that much below the long sides, negative above; empty: none). A field changed (Enter, or leaving
it) builds the court again through ``Court.with_params`` and the page takes it in place
(``LabApp.apply_params``: the relief redrawn, the frame and the aim kept); a value the court
refuses (not a number, a grade steeper than the friction, a speed the court cannot take) outlines
its field in red and is the status area's message until the field is fixed, and the court stays as
it was.
"""

from __future__ import annotations

import math
import re

from bokeh.models import InlineStyleSheet
from bokeh.models.widgets import TextInput

from shuffle_sim.court import Court
from shuffle_sim.court.surface_shape import read_crown
from shuffle_sim.lab.controls import FIELD_CSS, INVALID
from shuffle_sim.messages import shown
from shuffle_sim.units import METRE_PER

MM = METRE_PER["mm"]

#: The fields: the widget's name, its title (short enough for the field's width), the example
#: an empty field shows, and the ``params`` key it sets. Their meaning is in the page's help.
FIELDS = {
    "court_speed": ("Court speed", "14 s", "speed"),
    "grade_x": ("Grade x (+ to +x)", "1 in 1000", "slope"),
    "grade_y": ("Grade y (+ to +y)", "1 in 1000", "slope"),
    "crown": ("Crown (- a dome)", "1/32 in", "crown"),
}
FIELD_WIDTH = 128
_ONE_IN = re.compile(r"^\s*([+-]?)\s*1\s+in\s+([0-9.eE+]+)\s*$")
_PER_MILLE = re.compile(r"^\s*([+-]?[0-9.eE+-]+)\s*(‰|per\s*mille)\s*$")


def parse_grade(text: str, name: str) -> float:
    """A grade from ``"1 in 1000"`` (``"-1 in 500"``), ``"1‰"`` (per mille) or a plain number; ``""`` is 0.

    ``ValueError`` naming the field ``name`` and the text for anything else, or a grade that is not finite.
    """
    text = text.strip()
    if not text:
        return 0.0
    try:
        one_in = _ONE_IN.match(text)
        per_mille = _PER_MILLE.match(text)
        if one_in:
            n = float(one_in.group(2))
            if not n > 0.0:
                raise ValueError
            grade = (-1.0 if one_in.group(1) == "-" else 1.0) / n
        elif per_mille:
            grade = float(per_mille.group(1)) / 1000.0
        else:
            grade = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a grade such as '1 in 1000', '1‰' or 0.001 (got {shown(text)})") from None
    if not math.isfinite(grade):
        raise ValueError(f"{name} must be a finite grade (got {shown(text)})")
    return grade + 0.0


def grade_text(grade: float) -> str:
    """A grade as a field shows it: ``"1 in N"`` when N is a whole number, else the number; ``""`` for 0."""
    if grade == 0.0:
        return ""
    n = 1.0 / abs(grade)
    if abs(n - round(n)) < 1e-9 * n:
        return f"{'-' if grade < 0 else ''}1 in {round(n)}"
    return repr(grade)


def surface_widgets(court: Court, params: dict) -> dict[str, TextInput]:
    """The four fields, showing ``court``'s speed as ``params`` gave it and its surface's grade and crown."""
    gx, gy = court.surface_shape.slope
    crown = court.surface_shape.crown
    texts = {
        "court_speed": str(params.get("speed", "")),
        "grade_x": grade_text(gx),
        "grade_y": grade_text(gy),
        "crown": str(params["crown"]) if "crown" in params else (f"{crown / MM:g} mm" if crown else ""),
    }
    return {
        name: TextInput(title=title, value=texts[name], placeholder=example, name=name, width=FIELD_WIDTH)
        for name, (title, example, _) in FIELDS.items()
    }


def field_label(name: str) -> str:
    """A field's name in a message ("grade x")."""
    return FIELDS[name][0].split(" (")[0].lower()


def params_from(widgets: dict[str, TextInput], court: Court, params: dict) -> dict:
    """``params`` with the speed, slope and crown the fields give: an empty speed is the court file's;
    an empty grade or crown is none (given as zero only where ``court`` has one to take away)."""
    out = {k: v for k, v in params.items() if k not in ("speed", "slope", "crown")}
    speed = widgets["court_speed"].value.strip()
    if speed:
        out["speed"] = speed
    slope = [parse_grade(widgets[n].value, field_label(n)) for n in ("grade_x", "grade_y")]
    if slope != [0.0, 0.0] or court.surface_shape.slope != (0.0, 0.0):
        out["slope"] = slope
    crown = widgets["crown"].value.strip()
    if crown:
        out["crown"] = crown
    elif court.surface_shape.crown != 0.0:
        out["crown"] = 0.0
    return out


class SurfaceEditing:
    """The fields' callbacks for one ``LabApp``: a change builds the court again with the new parameters.

    Each field is checked on its own every time one changes: a bad one is outlined in red and its
    message stays in the status area until it is fixed (``status``: the message and the outline
    agree). The court is built again only when every field is good; a value the court refuses as a
    whole (a grade steeper than the friction) is the message of the field just changed."""

    def __init__(self, app, widgets: dict[str, TextInput]):
        self.app = app
        self.widgets = widgets
        for name, widget in widgets.items():
            widget.stylesheets = [InlineStyleSheet(css=FIELD_CSS)]
            app.listen(widget, "value", self.changer(name), f"the {field_label(name)} field")

    def changer(self, name: str):
        def changed(attr, old, new) -> None:
            """Check every field, then build the court again with the fields' parameters."""
            if not self.all_good():
                return
            try:
                params = params_from(self.widgets, self.app.court, self.app.params)
                if params != self.app.params:
                    self.app.apply_params(params)
                    self.app.status.succeeded("court parameters applied")
            except ValueError as exc:
                self.mark(name, str(exc).splitlines()[0])

        changed.__name__ = f"changed_{name}"
        return changed

    def all_good(self) -> bool:
        """Check each field alone, outline the bad ones and give each its message (or take it away)."""
        good = True
        for name in self.widgets:
            problem = self.field_problem(name)
            self.mark(name, problem)
            good = good and problem is None
        return good

    def field_problem(self, name: str) -> str | None:
        """What is wrong with one field's text on its own, or None."""
        text = self.widgets[name].value.strip()
        try:
            if name in ("grade_x", "grade_y"):
                parse_grade(text, field_label(name))
            elif text and name == "crown":
                read_crown(text, "crown", "the crown field")
            elif text and name == "court_speed":
                self.app.court.with_params(speed=text)
        except ValueError as exc:
            return str(exc).splitlines()[0]
        return None

    def mark(self, name: str, problem: str | None) -> None:
        """Outline the field and give its message while it has a problem; neither once it has none."""
        self.widgets[name].css_classes = [INVALID] if problem else []
        if problem:
            self.app.status.problem(name, problem)
        else:
            self.app.status.solved(name)
