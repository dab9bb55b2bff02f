"""The lab's court parameters: the court's speed and its surface (grade and crown).

Four text fields, one more row of the court controls (``controls``): the court speed as players
rate it (``"14 s"``, docs/court-speed.md; empty: the court file's mu), the grade across (x) and
along (y) the court (``"1 in 1000"``, a per mille ``"1‰"`` or a plain dimensionless number; + drifts
discs toward +x or +y; empty: none) and the crown (a length, ``"1/32 in"`` or ``"0.8 mm"``: the middle
lies that much below the long sides, negative above; empty: none). A field changed (Enter, or leaving
it) builds the court again through ``Court.with_params`` (``LabApp.rebuild(params=...)``) with the
frame kept; a value the court refuses (not a number, a grade steeper than the friction, a speed the
court cannot take) is the status area's message and the court stays as it was.
"""

from __future__ import annotations

import math
import re

from bokeh.models import InlineStyleSheet
from bokeh.models.widgets import TextInput

from shuffle_sim.court import Court
from shuffle_sim.lab.controls import FIELD_CSS, INVALID
from shuffle_sim.messages import shown
from shuffle_sim.units import METRE_PER

MM = METRE_PER["mm"]

#: The fields: the widget's name, its title, and the ``params`` key it sets.
FIELDS = {
    "court_speed": ("Court speed (e.g. 14 s)", "speed"),
    "grade_x": ("Grade x (1 in N; + drifts to +x)", "slope"),
    "grade_y": ("Grade y (1 in N; + drifts to +y)", "slope"),
    "crown": ("Crown (e.g. 1/32 in; - a dome)", "crown"),
}
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
        name: TextInput(title=title, value=texts[name], name=name, width=128) for name, (title, _) in FIELDS.items()
    }


def params_from(widgets: dict[str, TextInput], court: Court, params: dict) -> dict:
    """``params`` with the speed, slope and crown the fields give: an empty speed is the court file's;
    an empty grade or crown is none (given as zero only where ``court`` has one to take away)."""
    out = {k: v for k, v in params.items() if k not in ("speed", "slope", "crown")}
    speed = widgets["court_speed"].value.strip()
    if speed:
        out["speed"] = speed
    slope = [parse_grade(widgets[n].value, FIELDS[n][0].split(" (")[0].lower()) for n in ("grade_x", "grade_y")]
    if slope != [0.0, 0.0] or court.surface_shape.slope != (0.0, 0.0):
        out["slope"] = slope
    crown = widgets["crown"].value.strip()
    if crown:
        out["crown"] = crown
    elif court.surface_shape.crown != 0.0:
        out["crown"] = 0.0
    return out


class SurfaceEditing:
    """The fields' callbacks for one ``LabApp``: a change builds the court again with the new parameters."""

    def __init__(self, app, widgets: dict[str, TextInput]):
        self.app = app
        self.widgets = widgets
        for name, widget in widgets.items():
            widget.stylesheets = [InlineStyleSheet(css=FIELD_CSS)]
            widget.on_change("value", app.guarded(self.changer(name)))

    def changer(self, name: str):
        def changed(attr, old, new) -> None:
            """Build the court again with the fields' parameters; a refused value outlines its field."""
            try:
                params = params_from(self.widgets, self.app.court, self.app.params)
                if params != self.app.params:
                    self.app.rebuild(params=params, message="court parameters applied")
            except ValueError:
                self.widgets[name].css_classes = [INVALID]
                raise

        changed.__name__ = f"changed_{name}"
        return changed
