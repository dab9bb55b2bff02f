"""The units a plot shows a grid axis in, where SI would read badly: a grade of 0.00075 reads as
0.75 per 1000, a crown of 0.0016 m as 1/16 in. The results (``grid.nc``) keep SI; only the drawing
scales its coordinates and names the unit on the axis."""

from __future__ import annotations

from shuffle_sim import units

#: Grid axis -> (unit shown, factor from the SI value to the shown one).
AXIS_DISPLAY = {
    "slope_x": ("per 1000", 1000.0),
    "slope_y": ("per 1000", 1000.0),
    "crown": ("in", 1.0 / units.METRE_PER["in"]),
}


def display_unit(dim: str, si_unit: str | None) -> tuple[str | None, float]:
    """(unit shown, factor) of grid axis ``dim`` whose values are in ``si_unit``."""
    return AXIS_DISPLAY.get(dim, (si_unit, 1.0))
