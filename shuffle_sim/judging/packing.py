"""A court's judging geometry packed into flat arrays for the numba judging kernels.

``judge_arrays(court)`` packs once per court object and remembers the result on it, so that every
batch, player and benchmark on the same court shares one packing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from shuffle_sim.court import Court, CourtError
from shuffle_sim.court.materials import OVERHANG_KINDS

#: Marker in ``line_touch_value`` for a line that does not change a touching disc's value.
NO_TOUCH_VALUE = np.iinfo(np.int64).max
#: Marker for a court without a hanger value.
NO_HANGER_VALUE = np.iinfo(np.int64).max


class JudgeArrays(NamedTuple):
    """A court's judging geometry for one end, packed for numba (see ``shuffle_sim.judging``)."""

    disc_radius: float
    surface_kind: int  # 0 polygon, 1 circle
    surface_polygon: np.ndarray  # (n, 2)
    surface_circle: np.ndarray  # (3,) cx, cy, R
    zone_kind: np.ndarray  # (Z,) int64: 0 polygon, 1 annulus
    zone_value: np.ndarray  # (Z,) int64
    zone_dead: np.ndarray  # (Z,) bool
    zone_start: np.ndarray  # (Z + 1,) int64 offsets into zone_vertices
    zone_vertices: np.ndarray  # (V, 2)
    zone_annulus: np.ndarray  # (Z, 4)
    line_kind: np.ndarray  # (L,) int64: 0 segment, 1 circle
    line_geom: np.ndarray  # (L, 4)
    line_half_width: np.ndarray  # (L,)
    line_touch_value: np.ndarray  # (L,) int64, NO_TOUCH_VALUE where none
    line_touch_dead: np.ndarray  # (L,) bool
    line_touch_alive: np.ndarray  # (L,) bool
    edge_kind: np.ndarray  # (E,) int64: 0 segment, 1 circle
    edge_geom: np.ndarray  # (E, 4)
    edge_overhang: np.ndarray  # (E,) int64: 0 none, 1 end, 2 side
    hole_geom: np.ndarray  # (H, 3) cx, cy, capture radius
    hole_value: np.ndarray  # (H,) int64
    hanger_end_value: int
    hanger_corner_value: int


def judge_arrays(court: Court) -> JudgeArrays:
    """The judging arrays of ``court`` at its current end, packed on first use and kept on the court."""
    return court.memo("judge_arrays", pack_judge_arrays)


def pack_judge_arrays(court: Court) -> JudgeArrays:
    """Pack the judging geometry of ``court`` (at its current end) into flat arrays (see ``judge_arrays``)."""
    zones = court.zones
    zone_kind = np.array([0 if z.kind == "polygon" else 1 for z in zones], dtype=np.int64)
    zone_value = np.array([z.value for z in zones], dtype=np.int64)
    zone_dead = np.array([z.dead for z in zones], dtype=np.bool_)
    starts = [0]
    verts: list[np.ndarray] = []
    annuli = np.zeros((len(zones), 4))
    for i, z in enumerate(zones):
        if z.kind == "polygon":
            assert z.polygon is not None
            verts.append(z.polygon)
            starts.append(starts[-1] + len(z.polygon))
        else:
            assert z.annulus is not None
            annuli[i] = z.annulus
            starts.append(starts[-1])
    zone_vertices = np.vstack(verts) if verts else np.zeros((0, 2))
    lines = court.judged_lines
    if len(lines) > 64:
        raise CourtError(f"{court.source_path}: at most 64 judged lines are supported, got {len(lines)}")
    line_kind = np.array([0 if ln.kind == "segment" else 1 for ln in lines], dtype=np.int64)
    line_geom = np.array([ln.geom for ln in lines], dtype=np.float64).reshape(-1, 4)
    line_half_width = np.array([ln.width / 2 for ln in lines], dtype=np.float64)
    line_touch_value = np.array(
        [NO_TOUCH_VALUE if ln.touch_value is None else ln.touch_value for ln in lines], dtype=np.int64
    )
    edges = court.edges
    surface_polygon = court.surface_polygon if court.surface_polygon is not None else np.zeros((0, 2))
    surface_circle = np.array(court.surface_circle if court.surface_circle else (0.0, 0.0, 0.0))
    return JudgeArrays(
        disc_radius=court.disc_radius,
        surface_kind=0 if court.surface_kind == "polygon" else 1,
        surface_polygon=np.ascontiguousarray(surface_polygon, dtype=np.float64),
        surface_circle=surface_circle.astype(np.float64),
        zone_kind=zone_kind,
        zone_value=zone_value,
        zone_dead=zone_dead,
        zone_start=np.array(starts, dtype=np.int64),
        zone_vertices=np.ascontiguousarray(zone_vertices, dtype=np.float64),
        zone_annulus=annuli,
        line_kind=line_kind,
        line_geom=np.ascontiguousarray(line_geom),
        line_half_width=line_half_width,
        line_touch_value=line_touch_value,
        line_touch_dead=np.array([ln.touch_dead for ln in lines], dtype=np.bool_),
        line_touch_alive=np.array([ln.touch_alive for ln in lines], dtype=np.bool_),
        edge_kind=np.array([0 if e.kind == "segment" else 1 for e in edges], dtype=np.int64),
        edge_geom=np.array([e.geom for e in edges], dtype=np.float64).reshape(-1, 4),
        edge_overhang=np.array([OVERHANG_KINDS[e.overhang] for e in edges], dtype=np.int64),
        hole_geom=np.array([(h.x, h.y, h.capture_radius) for h in court.holes], dtype=np.float64).reshape(-1, 3),
        hole_value=np.array([h.value for h in court.holes], dtype=np.int64),
        hanger_end_value=NO_HANGER_VALUE if court.hanger_end_value is None else court.hanger_end_value,
        hanger_corner_value=NO_HANGER_VALUE if court.hanger_corner_value is None else court.hanger_corner_value,
    )
