"""A video-tracked horse collar table as calibration tracks: the clip's free slides in the court's frame.

The clip (``data/sources.toml``, ``clip``: one video of a 22 ft table at 30 frames a second, every
puck's centre mapped to table inches through a homography) gives per row a ``frame``, a
``track_id`` and the puck's ``x`` and ``y`` in inches: ``y`` from the far (scoring) end, ``x``
across the 20 in surface from one gutter, its centre at ``CLIP_CENTRE_X``. The homography's
reference lines reach ``CALIBRATED_REACH`` from the far end; beyond, positions are extrapolated and
are not used.

A delivery is a track that enters beyond ``DELIVERY_ENTRY`` (a puck thrown from the shooter's end).
Its free part runs from its first frame until a contact, the first frame at which another puck on
the table moves ``CONTACT_STEP`` or more in one frame (a resting puck's tracked centre jitters a few
hundredths of an inch), or until the clip loses the puck, less ``CONTACT_MARGIN`` frames: the hit
puck shows its motion a frame or two after the touch, and a lost puck's last frames blur. Of that
free part the points in the calibrated part, at least ``tracks_csv.MIN_POINTS`` of them, are the
delivery's calibration track: ``free_slides``.

The court's frame (``courts/horse-collar.toml``) has its origin at the centre of the shooter's end,
x to the shooter's right and y toward the far end, in metres: x = (x_clip - CLIP_CENTRE_X) inches,
y = length - y_clip inches, the image's x running to the shooter's right as the camera looks down
the table from the shooter's end.
"""

from __future__ import annotations

import csv
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from shuffle_sim.calibrate.tracks_csv import MIN_POINTS
from shuffle_sim.units import length

INCH = length("1 in")
#: The clip's frame rate (frames a second).
FRAME_RATE = 30.0
#: The clip's x of the surface's centre line: its pucks run from x = 3 in to x = 23 in.
CLIP_CENTRE_X = 13.0 * INCH
#: How far from the far end the homography's reference lines reach: the calibrated part of the table.
CALIBRATED_REACH = 94.0 * INCH
#: A delivery enters the picture at least this far from the far end (the shooter's half of the table).
DELIVERY_ENTRY = 140.0 * INCH
#: A puck moved at least this far in one frame is moving: a contact, when it is not the delivery.
CONTACT_STEP = 0.2 * INCH
#: Frames cut before the first frame at which a hit puck moves.
CONTACT_MARGIN = 3


@dataclass(frozen=True)
class ClipPoints:
    """The clip's tracked points (SI, the clip's own axes): frame, track and position."""

    frame: np.ndarray
    track: np.ndarray
    x: np.ndarray  # m across the table from the clip's x = 0
    y: np.ndarray  # m from the far end


@dataclass(frozen=True)
class FreeSlide:
    """A delivery's free part in the calibrated part of the table, in the court's frame."""

    name: str
    frames: np.ndarray
    x: np.ndarray
    y: np.ndarray
    ends_in: str  # "contact", or "track end" when the clip loses the puck first

    @property
    def time(self) -> np.ndarray:
        return self.frames / FRAME_RATE


def read_clip(path: str | os.PathLike) -> ClipPoints:
    """The tracked points of the clip's CSV file (columns ``frame``, ``track_id``, ``x``, ``y`` in
    inches), in metres; ``ValueError`` naming the file and the missing column."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for column in ("frame", "track_id", "x", "y"):
        if not rows or column not in rows[0]:
            raise ValueError(f"{path}: the tracked clip has no column {column!r}")
    frame = np.array([int(float(r["frame"])) for r in rows])
    track = np.array([int(float(r["track_id"])) for r in rows])
    x = np.array([float(r["x"]) for r in rows]) * INCH
    y = np.array([float(r["y"]) for r in rows]) * INCH
    order = np.lexsort((frame, track))
    return ClipPoints(frame[order], track[order], x[order], y[order])


def _first_contact(points: ClipPoints, delivery: int, frames: np.ndarray) -> int | None:
    """The first of ``frames`` at which a puck other than ``delivery`` moves ``CONTACT_STEP`` or more
    since the frame before; None when none does."""
    others = points.track != delivery
    first = None
    for k in np.unique(points.track[others]):
        mine = np.flatnonzero(points.track == k)
        f = points.frame[mine]
        step = np.hypot(np.diff(points.x[mine]), np.diff(points.y[mine]))
        consecutive = np.diff(f) == 1
        moving = f[1:][consecutive & (step >= CONTACT_STEP)]
        moving = moving[(moving >= frames[0]) & (moving <= frames[-1])]
        if moving.size and (first is None or moving[0] < first):
            first = int(moving[0])
    return first


def free_slides(points: ClipPoints, far_end: float) -> list[FreeSlide]:
    """Every delivery's free part in the calibrated part of the table, in the court's frame (``far_end``:
    the court's y of the far end, m), in the order the deliveries start; deliveries with fewer than
    ``MIN_POINTS`` free points there are left out."""
    slides = []
    starts = sorted((int(points.frame[points.track == k][0]), int(k)) for k in np.unique(points.track))
    for _, k in starts:
        mine = np.flatnonzero(points.track == k)
        if points.y[mine[0]] < DELIVERY_ENTRY:
            continue
        frames = points.frame[mine]
        contact = _first_contact(points, k, frames)
        ends_in = "track end" if contact is None else "contact"
        end = contact if contact is not None else int(frames[-1]) + 1
        free = frames < end - CONTACT_MARGIN
        keep = mine[free & (points.y[mine] <= CALIBRATED_REACH)]
        if keep.size < MIN_POINTS:
            continue
        slides.append(
            FreeSlide(
                name=f"track {k}",
                frames=points.frame[keep],
                x=points.x[keep] - CLIP_CENTRE_X,
                y=far_end - points.y[keep],
                ends_in=ends_in,
            )
        )
    return slides


def write_tracks(slides: list[FreeSlide], path: str | os.PathLike) -> Path:
    """The slides as a tracks CSV (``time,track,x,y``, seconds and metres) for ``shuffle-sim calibrate``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["time", "track", "x", "y"])
        for slide in slides:
            for t, x, y in zip(slide.time, slide.x, slide.y):
                out.writerow([f"{t:.6f}", slide.name, f"{x:.6f}", f"{y:.6f}"])
    return path


def main(argv: list[str] | None = None) -> int:
    """``python -m shuffle_sim.validation.tracked_clip CLIP.csv TRACKS.csv``: the clip's free slides as
    a tracks CSV for ``shuffle-sim calibrate horse-collar TRACKS.csv``."""
    import argparse

    from shuffle_sim.court import load_court

    parser = argparse.ArgumentParser(prog="python -m shuffle_sim.validation.tracked_clip", description=main.__doc__)
    parser.add_argument("clip", help="the tracked clip's CSV file (frame, track_id, x, y in table inches)")
    parser.add_argument("tracks", help="the tracks CSV to write (time, track, x, y in the court's frame)")
    parser.add_argument("--court", default="horse-collar", help="the court whose frame the tracks take")
    args = parser.parse_args(argv)
    try:
        points = read_clip(args.clip)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    slides = free_slides(points, load_court(args.court).bounds[3])
    path = write_tracks(slides, args.tracks)
    n = len(slides)
    print(f"wrote {path}: {n} track{'' if n == 1 else 's'}, {sum(s.frames.size for s in slides)} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
