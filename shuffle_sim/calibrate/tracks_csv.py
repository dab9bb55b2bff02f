"""Measured tracks for ``shuffle-sim calibrate``: a CSV file of tracked positions, read and checked.

The file has a header row ``time,track,x,y`` (in any order) and one tracked position per row, in
seconds and metres in the court's frame (``courts/README.md``, "Units and frame"):

=======  ===========================================================================
column   meaning
=======  ===========================================================================
time     seconds, on any clock: each track's own first time is its start
track    the track's name (any text): the rows of one track need not be adjacent
x, y     the disc's centre
=======  ===========================================================================

Any frame rate, even an uneven one. Each track is one disc sliding freely without spin, to rest or
the free part of a slide (cut before a contact, an edge or a hand), as a video tracker gives it.
A file that cannot be fitted is an error that names the row and the field: a value that is not a
finite number, a time that does not increase along its track, a track of fewer than ``MIN_POINTS``
points. The shots CSV (``shots_csv``) is told apart by its header: ``is_tracks_header``.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from shuffle_sim.calibrate.shots_csv import CalibrationError, csv_number

COLUMNS = ("time", "track", "x", "y")
#: The fewest points a track may have: its start (position, direction, speed) takes four numbers,
#: so five points (ten coordinates) leave the law something to measure.
MIN_POINTS = 5


def is_tracks_header(header: list[str]) -> bool:
    """Whether a CSV header row is a tracks file's (it names a ``track`` column)."""
    return "track" in {h.strip().lstrip("\ufeff") for h in header}


@dataclass(frozen=True)
class MeasuredTracks:
    """Tracked positions read from a CSV file (SI), ordered by track and then by time."""

    source: str
    names: tuple[str, ...]  # each track's name, in the order of first appearance in the file
    track: np.ndarray  # per point: the index of its track in ``names``
    time: np.ndarray  # per point: seconds since its track's first point
    x: np.ndarray
    y: np.ndarray
    rows: np.ndarray  # per point: the CSV's row number (1 for the first row after the header)

    def __len__(self) -> int:
        return len(self.names)

    @property
    def points(self) -> int:
        return self.time.size

    def counts(self) -> np.ndarray:
        """The number of points of each track."""
        return np.bincount(self.track, minlength=len(self.names))

    def subset(self, keep: np.ndarray) -> MeasuredTracks:
        """The tracks whose indices are in ``keep`` (in that order), renumbered from 0."""
        keep = np.asarray(keep, dtype=np.int64)
        where = np.concatenate([np.flatnonzero(self.track == k) for k in keep])
        renumber = np.full(len(self.names), -1, dtype=np.int64)
        renumber[keep] = np.arange(keep.size)
        return MeasuredTracks(
            self.source,
            tuple(self.names[k] for k in keep),
            renumber[self.track[where]],
            self.time[where],
            self.x[where],
            self.y[where],
            self.rows[where],
        )


def read_tracks(path: str | os.PathLike) -> MeasuredTracks:
    """The tracks of a CSV file, checked (``CalibrationError`` naming the file, row and field)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read the tracks ({exc.strerror})") from None
    reader = csv.reader(text.splitlines())
    columns = [h.strip() for h in next(reader, [])]
    for name in columns:
        if name not in COLUMNS:
            raise CalibrationError(f"{path}: header: unknown column {name!r} (columns: {', '.join(COLUMNS)})")
    if len(set(columns)) != len(columns):
        raise CalibrationError(f"{path}: header: a column repeats ({', '.join(columns)})")
    for name in COLUMNS:
        if name not in columns:
            raise CalibrationError(f"{path}: header: missing column {name!r} (columns: {', '.join(COLUMNS)})")
    names: dict[str, int] = {}
    track, time, xs, ys, rows = [], [], [], [], []
    for row_number, cells in enumerate(reader, start=1):
        if not any(c.strip() for c in cells):
            continue
        where = f"{path}: row {row_number}"
        if len(cells) != len(columns):
            raise CalibrationError(f"{where}: {len(cells)} fields, the header has {len(columns)}")
        cell = dict(zip(columns, cells))
        name = cell["track"].strip()
        if not name:
            raise CalibrationError(f"{where}: track: missing (a required column)")
        t = csv_number(cell["time"], f"{where}: time")
        k = names.setdefault(name, len(names))
        track.append(k)
        time.append(t)
        xs.append(csv_number(cell["x"], f"{where}: x"))
        ys.append(csv_number(cell["y"], f"{where}: y"))
        rows.append(row_number)
    if not rows:
        raise CalibrationError(f"{path}: no tracked points after the header")
    return _ordered(str(path), tuple(names), np.array(track), np.array(time), np.array(xs), np.array(ys), rows)


def _ordered(source: str, names: tuple[str, ...], track, time, x, y, rows) -> MeasuredTracks:
    """The points grouped by track in file order; ``CalibrationError`` for a time that does not
    increase along its track or a track too short to fit."""
    rows = np.array(rows, dtype=np.int64)
    order = np.argsort(track, kind="stable")
    track, time, x, y, rows = track[order], time[order], x[order], y[order], rows[order]
    for k, name in enumerate(names):
        mine = np.flatnonzero(track == k)
        steps = np.diff(time[mine])
        if np.any(steps <= 0.0):
            bad = mine[1 + int(np.flatnonzero(steps <= 0.0)[0])]
            before = time[mine[int(np.flatnonzero(steps <= 0.0)[0])]]
            raise CalibrationError(
                f"{source}: row {rows[bad]}: time: track {name!r} goes back or stands still in time "
                f"({time[bad]:g} s after {before:g} s); a track's times must increase"
            )
        if mine.size < MIN_POINTS:
            raise CalibrationError(
                f"{source}: row {rows[mine[0]]}: track: track {name!r} has {mine.size} point"
                f"{'s' if mine.size != 1 else ''}, fewer than the {MIN_POINTS} a track needs (its start "
                "alone takes four numbers)"
            )
        time[mine] -= time[mine[0]]
    return MeasuredTracks(source, names, track, time, x, y, rows)
