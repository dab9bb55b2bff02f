"""How plots show a grid axis and read the values a user names on it.

The results (``grid.nc``) keep SI; a plot shows each axis in the unit a person reads it in: a length
in the unit the experiment file wrote it in (its ``display_units`` attribute: a crown written
``"1/16 in"`` in inches, as a fraction; a start written in feet in feet), a grade per 1000 (0.75 per
1000, not 0.00075), a court speed in seconds. Axis labels, tick values and titles all use that unit.

A value named on the command line (``--select crown="1/32 in"``, ``--diff court_speed=5,14``) is read
as the experiment file reads its values (``shuffle_sim.units``): a length or a duration with its unit,
or a plain number in SI.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim import units
from shuffle_sim.experiment.errors import ExperimentError

#: Grid axes shown scaled whatever the file wrote: a grade of 0.00075 reads as 0.75 per 1000.
SCALED = {"slope_x": ("per 1000", 1000.0), "slope_y": ("per 1000", 1000.0)}
#: The unit a length axis is shown in when its results name none: crowns are measured in inches.
LENGTH_UNIT = {"crown": "in"}
#: How a value in each SI unit of the results is read from text (plain numbers are SI).
READERS = {"m": units.length, "s": units.duration}


def display_unit(ds, dim: str) -> tuple[str | None, float]:
    """(unit shown, factor from the SI value to the shown one) of grid axis ``dim`` of results ``ds``;
    the unit is None for a dimensionless axis or one of names."""
    if dim in SCALED:
        return SCALED[dim]
    attrs = ds[dim].attrs
    si = attrs.get("units")
    if si == "m":
        unit = attrs.get("display_units") or LENGTH_UNIT.get(dim, "m")
        return unit, 1.0 / units.METRE_PER[unit]
    return (si if si and si != "1" else None), 1.0


def axis_label(ds, dim: str, court_frame: bool = False) -> str:
    """The axis's long name and the unit it is shown in: 'crown (middle below the long sides) (in)';
    metres for an axis drawn over the court itself (``court_frame``)."""
    name = ds[dim].attrs.get("long_name", dim)
    unit = "m" if court_frame else display_unit(ds, dim)[0]
    return f"{name} ({unit})" if unit else name


def axis_coordinates(ds, dim: str, court_frame: bool = False) -> tuple[np.ndarray, list[str] | None]:
    """The axis's values where a plot puts them, and their labels for an axis of names (None for
    numbers): numbers in the unit shown, or in metres when drawn over the court itself
    (``court_frame``); names at 0, 1, 2, ..."""
    values = ds[dim].values
    if values.dtype.kind in "US" or values.dtype == object:
        return np.arange(len(values), dtype=np.float64), [str(v) for v in values]
    factor = 1.0 if court_frame else display_unit(ds, dim)[1]
    return values.astype(np.float64) * factor, None


def describe(ds, dim: str, value) -> str:
    """A value of grid axis ``dim`` as a title shows it, with its unit: '1/32 in', '14 s',
    '0.5 per 1000', 'expert' (numbers with up to 4 significant digits)."""
    if not isinstance(value, (int, float, np.number)) or isinstance(value, bool):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    unit, factor = display_unit(ds, dim)
    if ds[dim].attrs.get("units") == "m" and unit is not None:
        return units.describe_length(float(value), unit)
    shown = f"{float(value) * factor:.4g}"
    return f"{shown} {unit}" if unit else shown


def read_value(ds, dim: str, value) -> float | str:
    """A value named for grid axis ``dim`` (text from the command line, or a number) in the axis's own
    terms: SI for numbers (``READERS``: "1/32 in" -> 0.00079375, "14 s" -> 14.0, "0.001" -> 0.001),
    the name for an axis of names. Raises ``ExperimentError`` naming the axis, the value and the
    axis's values as the plots show them."""
    coord = np.asarray(ds[dim].values)
    if coord.dtype.kind not in "fi":
        return str(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    try:
        return float(text)
    except ValueError:
        pass
    reader = READERS.get(ds[dim].attrs.get("units", ""))
    try:
        if reader is None:
            raise units.UnitError("not a number")
        return reader(text)
    except units.UnitError as exc:
        choices = ", ".join(_as_typed(ds, dim, v) for v in coord.tolist())
        raise ExperimentError(f"{dim} {value!r}: {exc} (choose from {choices})") from None


def _as_typed(ds, dim: str, value: float) -> str:
    """A grid value as a user may name it: a length in its unit ("1/32 in"), a time in seconds
    ("14 s"), any other number in SI ("0.0005": a grade is named as the experiment file writes it)."""
    si = ds[dim].attrs.get("units")
    if si in READERS:
        return describe(ds, dim, value)
    return f"{value:g}"


#: An axis of lengths shown in inches with at most this many values gets a tick at each, as a fraction.
MAX_FRACTION_TICKS = 12


def label_ticks(axis, ds, dim: str, where: np.ndarray, names: list[str] | None, court_frame: bool = False) -> None:
    """The ticks of a plotted grid axis (a matplotlib ``Axis``) at ``where``: each name of an axis of
    names; each value of a few lengths shown in inches, as a person writes it ("1/32"); else
    matplotlib's own."""
    if names:
        axis.set_ticks(where, names)
        return
    unit, _ = display_unit(ds, dim)
    values = np.asarray(ds[dim].values, dtype=np.float64)
    if court_frame or unit != "in" or ds[dim].attrs.get("units") != "m" or len(values) > MAX_FRACTION_TICKS:
        return
    axis.set_ticks(where, [units.describe_length(float(v), "in").removesuffix(" in") for v in values])
