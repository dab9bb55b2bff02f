"""The grid's axes: the shot and court parameters an experiment may sweep, their kinds and units, and
the record of one axis (``Axis``), which the experiment's readers, its court axes and its results share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim import units

#: Parameter name -> (kind, unit shown on axes). Kinds: number (SI as written), angle (degrees in
#: files and coordinates, radians inside), length (units allowed), category (names), duration (a
#: court speed in seconds), grade (a dimensionless number, a component of the surface's grade).
PARAMETERS = {
    "speed": ("number", "m/s"),
    "direction": ("angle", "deg"),
    "spin": ("number", "rad/s"),
    "start_x": ("length", "m"),
    "start_y": ("length", "m"),
    "target_x": ("length", "m"),
    "target_y": ("length", "m"),
    "skill": ("category", ""),
    "court_speed": ("duration", "s"),
    "slope_x": ("grade", "1"),
    "slope_y": ("grade", "1"),
    "crown": ("length", "m"),
}
#: The long name of each parameter, as axes and titles show it.
LONG_NAMES = {
    "speed": "launch speed",
    "direction": "direction (from +y toward +x)",
    "spin": "spin",
    "start_x": "start x",
    "start_y": "start y",
    "target_x": "aim point x",
    "target_y": "aim point y",
    "skill": "skill",
    "court_speed": "court speed (sliding time over the court's speed course)",
    "slope_x": "grade toward +x (gx)",
    "slope_y": "grade toward +y (gy)",
    "crown": "crown (middle below the long sides)",
}


@dataclass(frozen=True)
class Axis:
    """One grid axis: its parameter name and its values (SI, except direction in degrees; skill names),
    and for a length the unit the experiment file wrote them in ("in" for ``["0 in", "1/32 in"]``;
    None for plain numbers, which are metres), which plots show them in."""

    name: str
    values: np.ndarray  # float64, or object array of skill names
    written_unit: str | None = None

    @property
    def size(self) -> int:
        return len(self.values)

    @property
    def unit(self) -> str:
        return PARAMETERS[self.name][1]


def written_unit(values: list) -> str | None:
    """The one unit that ``values`` (as a file writes them: "1/32 in", 0.2, "7 ft") are written in, or
    None when they name none (plain numbers are SI) or more than one (shown in SI then)."""
    named = {units.written_unit(v) for v in values} - {None}
    return named.pop() if len(named) == 1 else None
