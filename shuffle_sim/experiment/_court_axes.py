"""The grid axes that change the court itself: its speed and the shape of its surface.

A cell of an experiment with such axes is played on its own court: the experiment's court (with the
file's ``params``) with the cell's values set. The axes, their meaning and their units (SI inside):

===========  ==========================================================================
court_speed  the court's speed as players rate it, a time ("14 s", ``court.speed``): mu
slope_x      the grade's x component gx, dimensionless (0.001 is 1 in 1000): the in-plane
             gravity is g (gx, gy), so gx > 0 drifts discs toward +x
slope_y      the grade's y component gy, likewise (gy > 0 drifts discs toward +y)
crown        a length ("1/16 in"): the middle of the surface lies this far below its long
             sides (negative: above; ``court.surface_shape``)
===========  ==========================================================================

A uniform grade is a vector, and a grid axis is a line of scalars; the grade is therefore swept by
component. A cross-court grade is one axis (``slope_x`` on a deck court, whose length runs along y),
a grade along the court another, and the two together make a grid of grade vectors whose heat map
reads as the grade itself. The component an experiment does not sweep keeps the court's value (its
``[surface]`` slope, or ``params.slope``).

Every cell's court is built once, when the experiment is read, through ``Court.with_params``: the
court's own checks apply, among them the refusal of a surface steeper than its friction
(``court.surface_shape.check_steepness``), which therefore sees each cell's grade together with the
cell's court speed. The courts are the product of the court axes' values in C order over those axes
in grid order; a cell's court index is the matching mixed-radix number of its positions on them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from shuffle_sim import units
from shuffle_sim.court import Court, CourtError
from shuffle_sim.court.speed import mu_for_speed
from shuffle_sim.court.toml_reader import TomlReader
from shuffle_sim.experiment._axes import Axis

#: The grid axes that set the court of a cell, rather than the shot.
COURT_AXES = ("court_speed", "slope_x", "slope_y", "crown")
#: The axes that shape the surface.
SURFACE_AXES = ("slope_x", "slope_y", "crown")


def court_axis_positions(axes: Sequence[Axis]) -> list[int]:
    """Where the court axes stand among ``axes`` (grid order)."""
    return [k for k, axis in enumerate(axes) if axis.name in COURT_AXES]


def court_strides(axes: Sequence[Axis]) -> dict[int, int]:
    """Grid position of each court axis -> the step its index makes in the court index (C order)."""
    positions = court_axis_positions(axes)
    strides: dict[int, int] = {}
    step = 1
    for k in reversed(positions):
        strides[k] = step
        step *= axes[k].size
    return strides


def court_values(court: Court, axes: Sequence[Axis], index: Sequence[int]) -> dict:
    """The ``Court.with_params`` arguments of one combination ``index`` of the court axes' positions
    (in the order of ``court_axis_positions``)."""
    changes: dict = {}
    gx, gy = court.surface_shape.slope
    slope_swept = False
    for k, i in zip(court_axis_positions(axes), index):
        axis = axes[k]
        value = float(axis.values[i])
        if axis.name == "court_speed":
            changes["mu"] = speed_mu(court, value)
        elif axis.name == "slope_x":
            gx, slope_swept = value, True
        elif axis.name == "slope_y":
            gy, slope_swept = value, True
        else:
            changes["crown"] = value
    if slope_swept:
        changes["slope"] = [gx, gy]
    return changes


def speed_mu(court: Court, seconds: float) -> float:
    """The mu that makes ``court`` a court of speed ``seconds`` (``court.speed``) under its friction law."""
    course = court.speed_course
    assert course is not None, "a court_speed axis needs the court's speed course (checked on reading)"
    return mu_for_speed(float(seconds), course.length, court.params["gravity"], court.params["mu_speed"])


def combinations(axes: Sequence[Axis]) -> list[tuple[int, ...]]:
    """Every combination of the court axes' positions, in court-index order."""
    return list(itertools.product(*(range(axes[k].size) for k in court_axis_positions(axes))))


def build_courts(court: Court, axes: Sequence[Axis]) -> tuple[Court, ...]:
    """The court of every combination of the court axes' values, in court-index order (``court``
    alone when the grid has no court axis). Raises ``CourtError`` from ``Court.with_params``."""
    if not court_axis_positions(axes):
        return (court,)
    return tuple(court.with_params(**court_values(court, axes, index)) for index in combinations(axes))


def court_index(axes: Sequence[Axis], grid_shape: tuple[int, ...], cells: np.ndarray) -> np.ndarray:
    """The court index (into ``build_courts``'s courts) of each grid cell in ``cells`` (int64)."""
    index = np.zeros(len(cells), dtype=np.int64)
    strides = court_strides(axes)
    if not strides:
        return index
    positions = np.unravel_index(np.asarray(cells, dtype=np.int64), grid_shape)
    for k, stride in strides.items():
        index += positions[k].astype(np.int64) * stride
    return index


def check_court_axes(r: TomlReader, axes: tuple[Axis, ...], court: Court, params: dict) -> None:
    """Refuse a crown axis beside ``params.crown``, then build every cell's court (as ``build_courts`` does) so
    that the court's own checks (a surface steeper than its friction, ``Court.with_params``) name the
    grid axis, its value and the cell's other court values."""
    names = [a.name for a in axes]
    if "crown" in names and params.get("crown") is not None:
        r.fail(
            "params.crown",
            "the grid's crown axis sets the crown per cell; remove params.crown or the axis",
            params["crown"],
        )
    if not set(names) & set(SURFACE_AXES):
        return
    positions = court_axis_positions(axes)
    for index in combinations(axes):
        try:
            court.with_params(**court_values(court, axes, index))
        except CourtError as exc:
            cell = {axes[k].name: _shown(axes[k], axes[k].values[i]) for k, i in zip(positions, index)}
            k, i = next((k, i) for k, i in zip(positions, index) if axes[k].name in SURFACE_AXES)
            where = ", ".join(f"{n} = {v}" for n, v in cell.items())
            reason = re.sub(r" \(got .*\)$", "", re.sub(r"^parameters: params\.\w+: ", "", str(exc)))
            r.fail(f"grid.{axes[k].name}[{i}]", f"the cell {where}: {reason}", cell[axes[k].name])


def _shown(axis: Axis, value: float) -> Any:
    """A court axis's value as an error shows it: a crown in the unit the file wrote it in (metres for
    plain numbers), a court speed in seconds, a grade as the number it is."""
    if axis.name == "crown":
        return units.describe_length(float(value), axis.written_unit or "m")
    return f"{value:.6g} s" if axis.name == "court_speed" else float(value)
