"""The Python face of judging: ``judge_batch`` (many centres, one numba call), ``judge`` (one), and
``Judgement``, the judged batch with names to read it by."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court, as_court
from shuffle_sim.judging.batch import cached_judge_index, judge_discs
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import HANGER_NAMES


@dataclass(frozen=True)
class Judgement:
    """Judged rest positions for a batch of discs (arrays of equal length), with names to read them."""

    court: Court
    x: np.ndarray
    y: np.ndarray
    value: np.ndarray  # int64
    zone: np.ndarray  # int64 index into court.zone_names, -1 for none
    touching: np.ndarray  # uint64 bit mask over court.judged_lines
    dead: np.ndarray  # bool
    hanger: np.ndarray  # int8: 0 none, 1 end, 2 corner
    fallen: np.ndarray  # bool: centre off the surface
    holed: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.x)

    def zone_name(self, i: int) -> str | None:
        z = int(self.zone[i])
        return None if z < 0 else self.court.zone_names[z]

    def touching_names(self, i: int) -> list[str]:
        mask = int(self.touching[i])
        return [ln.name for k, ln in enumerate(self.court.judged_lines) if mask >> k & 1]

    def record(self, i: int) -> dict:
        """One disc as the command line prints it (x, y in metres in the court's frame)."""
        return {
            "x": float(self.x[i]),
            "y": float(self.y[i]),
            "value": int(self.value[i]),
            "zone": self.zone_name(i),
            "touching": self.touching_names(i),
            "dead": bool(self.dead[i]),
            "hanger": HANGER_NAMES[int(self.hanger[i])],
        }

    def records(self) -> list[dict]:
        return [self.record(i) for i in range(len(self))]


def _as_coords(values, name: str) -> np.ndarray:
    arr = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    bad = ~np.isfinite(arr)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{k}] must be a finite coordinate in metres (got {float(arr[k])!r})")
    return arr


def judge_batch(court: Court | str, xs, ys, end: str | None = None) -> Judgement:
    """Judge many disc centres on ``court`` (a ``Court``, a court name or a file path; at ``end``, for
    courts with two) in one numba call."""
    court = as_court(court, end)
    x = _as_coords(xs, "x")
    y = _as_coords(ys, "y")
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length (got {x.size} and {y.size})")
    n = x.size
    out = dict(
        value=np.empty(n, np.int64),
        zone=np.empty(n, np.int64),
        touching=np.empty(n, np.uint64),
        dead=np.empty(n, np.bool_),
        hanger=np.empty(n, np.int8),
        fallen=np.empty(n, np.bool_),
        holed=np.empty(n, np.bool_),
    )
    a = judge_arrays(court)
    prepared, index = cached_judge_index(a, n)
    judge_discs(
        x,
        y,
        a,
        prepared,
        index,
        out["value"],
        out["zone"],
        out["touching"],
        out["dead"],
        out["hanger"],
        out["fallen"],
        out["holed"],
    )
    return Judgement(court=court, x=x, y=y, **out)


def judge(court: Court | str, x: float, y: float, end: str | None = None) -> dict:
    """Judge one disc centre on ``court`` (a ``Court``, a court name or a file path); returns the
    record the command line prints for it."""
    return judge_batch(court, [x], [y], end=end).record(0)
