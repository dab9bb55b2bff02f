"""Measured shots for ``shuffle-sim calibrate``: a CSV file read and checked row by row.

The file has a header row and one shot per row, in metres in the court's frame (``courts/README.md``,
"Units and frame"):

=================  =====================================================================
column             meaning
=================  =====================================================================
start_x, start_y   where the disc was released (required)
rest_x, rest_y     where it came to rest (required)
aim_x, aim_y       a point the shot was aimed along (optional, both or neither; may be blank
                   in a row): tells the sideways drift, so a grade across the shot
time               the sliding time in seconds, release to rest (optional; may be blank in a
                   row): start and rest alone do not fix the launch speed, so mu needs times
=================  =====================================================================

Shots without spin, as a club takes its speed shots. A row that cannot be fitted is an error that
names the row and the field: a value that is not a finite number, a rest on the start, a rest before
the start along the aim, a time that is not positive or too short for the distance (it would take a
friction above ``MAX_MU``: no game surface).
"""

from __future__ import annotations

import csv
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REQUIRED = ("start_x", "start_y", "rest_x", "rest_y")
OPTIONAL = ("aim_x", "aim_y", "time")
#: The highest sliding friction a shot may imply (2 d / (g t^2)): above it no game surface.
MAX_MU = 1.0


class CalibrationError(ValueError):
    """Shots or a court that cannot be fitted; the message names the file, the row and the field."""


@dataclass(frozen=True)
class MeasuredShots:
    """Shots read from a CSV file (SI): NaN where an optional value is blank or its column absent."""

    source: str
    start_x: np.ndarray
    start_y: np.ndarray
    rest_x: np.ndarray
    rest_y: np.ndarray
    aim_x: np.ndarray
    aim_y: np.ndarray
    time: np.ndarray
    rows: np.ndarray  # the CSV's row number of each shot (1 for the first shot after the header)

    def __len__(self) -> int:
        return len(self.start_x)

    @property
    def aimed(self) -> np.ndarray:
        return ~np.isnan(self.aim_x)

    @property
    def timed(self) -> np.ndarray:
        return ~np.isnan(self.time)

    @property
    def distance(self) -> np.ndarray:
        return np.hypot(self.rest_x - self.start_x, self.rest_y - self.start_y)


def csv_number(text: str, where: str, blank_ok: bool = False) -> float:
    """A CSV cell as a finite number (NaN for a blank when ``blank_ok``); ``CalibrationError`` naming
    ``where`` (file, row and field) otherwise. The shots and the tracks CSV read their cells alike."""
    text = text.strip()
    if not text:
        if blank_ok:
            return math.nan
        raise CalibrationError(f"{where}: missing (a required column)")
    try:
        value = float(text)
    except ValueError:
        raise CalibrationError(f"{where}: not a number (got {text!r})") from None
    if not math.isfinite(value):
        raise CalibrationError(f"{where}: must be finite (got {text!r})")
    return value


def read_shots(path: str | os.PathLike, gravity: float) -> MeasuredShots:
    """The shots of a CSV file, checked (``CalibrationError`` naming the file, row and field).
    ``gravity`` (m/s^2) bounds the friction a shot's time may imply."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a spreadsheet's byte-order mark is no column name
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read the shots ({exc.strerror})") from None
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if not header or not any(h.strip() for h in header):
        raise CalibrationError(f"{path}: no header row (columns: {', '.join(REQUIRED + OPTIONAL)})")
    columns = [h.strip() for h in header]
    for name in columns:
        if name not in REQUIRED + OPTIONAL:
            raise CalibrationError(
                f"{path}: header: unknown column {name!r} (columns: {', '.join(REQUIRED + OPTIONAL)})"
            )
    if len(set(columns)) != len(columns):
        raise CalibrationError(f"{path}: header: a column repeats ({', '.join(columns)})")
    for name in REQUIRED:
        if name not in columns:
            raise CalibrationError(f"{path}: header: missing column {name!r}")
    if ("aim_x" in columns) != ("aim_y" in columns):
        raise CalibrationError(f"{path}: header: give both aim_x and aim_y, or neither")
    values: dict[str, list[float]] = {name: [] for name in REQUIRED + OPTIONAL}
    rows = []
    for row_number, cells in enumerate(reader, start=1):
        if not any(c.strip() for c in cells):
            continue  # a blank line
        where = f"{path}: row {row_number}"
        if len(cells) != len(columns):
            raise CalibrationError(f"{where}: {len(cells)} fields, the header has {len(columns)}")
        cell = dict(zip(columns, cells))
        shot = {
            name: csv_number(cell[name], f"{where}: {name}", blank_ok=name in OPTIONAL) if name in cell else math.nan
            for name in REQUIRED + OPTIONAL
        }
        _check_shot(shot, where, gravity)
        for name in values:
            values[name].append(shot[name])
        rows.append(row_number)
    if not rows:
        raise CalibrationError(f"{path}: no shots after the header")
    arrays = {name: np.array(v, dtype=np.float64) for name, v in values.items()}
    return MeasuredShots(source=str(path), rows=np.array(rows, dtype=np.int64), **arrays)


def _check_shot(shot: dict, where: str, gravity: float) -> None:
    """A row that cannot be fitted names the row and the field."""
    dx, dy = shot["rest_x"] - shot["start_x"], shot["rest_y"] - shot["start_y"]
    distance = math.hypot(dx, dy)
    if distance == 0.0:
        raise CalibrationError(f"{where}: rest_x, rest_y: the rest is the start (the disc did not slide)")
    if math.isnan(shot["aim_x"]) != math.isnan(shot["aim_y"]):
        blank = "aim_x" if math.isnan(shot["aim_x"]) else "aim_y"
        raise CalibrationError(f"{where}: {blank}: blank while the other aim coordinate is given")
    if not math.isnan(shot["aim_x"]):
        ax, ay = shot["aim_x"] - shot["start_x"], shot["aim_y"] - shot["start_y"]
        if ax == 0.0 and ay == 0.0:
            raise CalibrationError(f"{where}: aim_x, aim_y: the aim point is the start (no direction)")
        if dx * ax + dy * ay <= 0.0:
            field = "rest_y" if abs(ay) >= abs(ax) else "rest_x"
            raise CalibrationError(
                f"{where}: {field}: the rest lies before the start along the aim "
                f"(rest {shot['rest_x']:g}, {shot['rest_y']:g}; start {shot['start_x']:g}, "
                f"{shot['start_y']:g}; aim {shot['aim_x']:g}, {shot['aim_y']:g})"
            )
    t = shot["time"]
    if not math.isnan(t):
        if t <= 0.0:
            raise CalibrationError(f"{where}: time: must be positive (got {t:g})")
        mu = 2.0 * distance / (gravity * t * t)
        if mu > MAX_MU:
            raise CalibrationError(
                f"{where}: time: {t:g} s is too short for the {distance:.4g} m slid (it would take "
                f"mu = {mu:.3g}, above {MAX_MU:g}: no game surface)"
            )
