"""The shape of a playing surface: its grade, crown, height map and friction map (``[surface]``).

Real courts and tables are not planes: deck courts drift and wear, tournament tables are set
slightly concave, crokinole boards warp (docs/design.md, 6). A surface may carry, beside its outline:

* ``slope = [gx, gy]``: a uniform grade, dimensionless: the in-plane gravity is g (gx, gy), so
  gx > 0 drifts discs toward +x; the heights fall as h = -(gx x + gy y).
* ``crown``: a length. Rectangular surfaces get a parabolic cross-section about the long centre
  line of the outline's bounding box, h = -crown (1 - ((u - uc) / w)^2) with u the coordinate across
  it, uc its middle and w its half-width: the middle lies ``crown`` below the long sides (negative:
  above). A round surface gets the same parabola in the radius (a dish, or a dome).
* ``height_map``: heights on a regular grid, read as a bicubic spline (``grid_spline``: the grade is
  continuous), for the breaks of a real court.
* ``friction_map``: a multiplier of mu on a regular grid, for worn centres and slow edges.

The model (small slopes): with heights h(x, y) and grades far below 1, a disc feels the in-plane
acceleration -g grad h and the normal force m g; friction is mu(x, y) = mu m(x, y) times that.
A surface steeper than its friction anywhere is refused (``steepness.check_steepness``): a disc
there would never come to rest.

Everything here is NumPy, for the court's checks and for drawings (``surface_grid``); the physics
packs the shape for its kernels (``physics.ground``).
"""

from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from shuffle_sim import units
from shuffle_sim.court import grid_spline
from shuffle_sim.court.errors import CourtError

#: The surface keys of ``[surface]`` and of ``params`` that shape it (the outline is not a parameter).
SHAPE_KEYS = ("slope", "crown", "height_map", "friction_map")
MAP_KEYS = {"file", "extent", "unit"}
#: Samples per map cell, along each axis, of the checks that the friction stays positive and above
#: the grade everywhere.
CHECK_SAMPLES = 8
#: A map covers the surface if its extent reaches the surface's bounding box to within this (m): a
#: map written with the outline's numbers in other units (0.9144 for "3 ft") must not be refused.
COVER_SLACK = 1e-9
#: Map files: comma-separated text (one grid row a line) or NumPy's .npy.
MAP_SUFFIXES = (".csv", ".txt", ".npy")


@dataclass(frozen=True)
class GridMap:
    """Values at the nodes of a regular grid over ``extent`` (xmin, ymin, xmax, ymax), SI, and the
    bicubic spline through them. Row j of ``values`` lies at y = ymin + j dy, column i at x = xmin + i dx."""

    values: np.ndarray  # (ny, nx), SI (heights in metres; friction multipliers)
    extent: tuple[float, float, float, float]
    source: str  # the file, as an absolute path
    unit: str  # the unit of the file's numbers ("m", "mm", ...; "1" for a friction map)

    @property
    def coefficients(self) -> np.ndarray:
        """(ny - 1, nx - 1, 4, 4): the spline's polynomial on each cell (``grid_spline.cell_coefficients``)."""
        found = self.__dict__.get("_coefficients")
        if found is None:
            ny, nx = self.values.shape
            xmin, ymin, xmax, ymax = self.extent
            found = grid_spline.cell_coefficients(self.values, (xmax - xmin) / (nx - 1), (ymax - ymin) / (ny - 1))
            self.__dict__["_coefficients"] = found
        return found

    @property
    def cell_size(self) -> tuple[float, float]:
        ny, nx = self.values.shape
        xmin, ymin, xmax, ymax = self.extent
        return (xmax - xmin) / (nx - 1), (ymax - ymin) / (ny - 1)

    def evaluate(self, x, y):
        """(value, d/dx, d/dy) of the spline at points (x, y)."""
        return grid_spline.evaluate(self.coefficients, self.extent, x, y)

    def bounds(self) -> tuple[float, float]:
        """Upper bounds, over the whole map, of |value| and of |grad value| (``grid_spline.cell_bounds``)."""
        dx, dy = self.cell_size
        value, grade = grid_spline.cell_bounds(self.coefficients, dx, dy)
        return float(value.max()), float(grade.max())

    def as_param(self) -> dict:
        """The map as a ``params`` entry (scene files): its file, extent (m) and unit."""
        xmin, ymin, xmax, ymax = self.extent
        return {"file": self.source, "extent": [[xmin, ymin], [xmax, ymax]], "unit": self.unit}

    def digest(self) -> str:
        """SHA-256 of the map's values and extent (an experiment's fingerprint includes it)."""
        h = hashlib.sha256(np.ascontiguousarray(self.values).tobytes())
        h.update(np.array(self.extent).tobytes())
        return h.hexdigest()


@dataclass(frozen=True)
class SurfaceShape:
    """Grade, crown, height map and friction map of a surface, SI (module docstring).

    ``crown_axis`` says what the crown's parabola runs across: 0 for x (a surface longer in y),
    1 for y, 2 for the radius of a round surface; (uc, vc) is the middle of the outline and
    ``crown_width`` the half-width w (the radius R of a round surface).
    """

    slope: tuple[float, float] = (0.0, 0.0)
    crown: float = 0.0
    height_map: GridMap | None = None
    friction_map: GridMap | None = None
    crown_axis: int = 0
    crown_centre: tuple[float, float] = (0.0, 0.0)
    crown_width: float = 1.0

    @property
    def flat(self) -> bool:
        """No grade, no crown, no maps: the ideal plane every flat-court kernel assumes."""
        return self.slope == (0.0, 0.0) and self.crown == 0.0 and self.height_map is None and self.friction_map is None

    def heights(self, x, y):
        """(h, dh/dx, dh/dy) at points (x, y), metres and dimensionless; h is relative to the frame's
        origin for the slope, to the long sides (or the rim) for the crown, to zero for the map."""
        x = np.asarray(x, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        gx, gy = self.slope
        h = -(gx * x + gy * y)
        hx = np.full(np.broadcast(x, y).shape, -gx)
        hy = np.full(hx.shape, -gy)
        if self.crown != 0.0:
            cx, cy = self.crown_centre
            w2 = self.crown_width**2
            du = x - cx
            dv = y - cy
            if self.crown_axis == 0:
                h = h - self.crown * (1.0 - du * du / w2)
                hx = hx + 2.0 * self.crown * du / w2
            elif self.crown_axis == 1:
                h = h - self.crown * (1.0 - dv * dv / w2)
                hy = hy + 2.0 * self.crown * dv / w2
            else:
                h = h - self.crown * (1.0 - (du * du + dv * dv) / w2)
                hx = hx + 2.0 * self.crown * du / w2
                hy = hy + 2.0 * self.crown * dv / w2
        if self.height_map is not None:
            mh, mx, my = self.height_map.evaluate(x, y)
            h, hx, hy = h + mh, hx + mx, hy + my
        return h, hx, hy

    def friction(self, x, y) -> np.ndarray:
        """The multiplier of mu at points (x, y): 1 without a friction map."""
        if self.friction_map is None:
            return np.ones(np.broadcast(np.asarray(x), np.asarray(y)).shape)
        return self.friction_map.evaluate(x, y)[0]

    def grade_bound(self, bounds: tuple[float, float, float, float]) -> float:
        """An upper bound of |grad h| over the rectangle ``bounds`` (xmin, ymin, xmax, ymax)."""
        corners_x = np.array([bounds[0], bounds[2], bounds[0], bounds[2]])
        corners_y = np.array([bounds[1], bounds[1], bounds[3], bounds[3]])
        flat = SurfaceShape(
            slope=self.slope,
            crown=self.crown,
            crown_axis=self.crown_axis,
            crown_centre=self.crown_centre,
            crown_width=self.crown_width,
        )
        _, hx, hy = flat.heights(corners_x, corners_y)
        # Slope and crown: the grade is affine in x and y, so its largest size is at a corner.
        bound = float(np.max(np.hypot(hx, hy)))
        if self.height_map is not None:
            bound += self.height_map.bounds()[1]
        return bound

    def friction_bound(self) -> float:
        """An upper bound of the friction multiplier over the surface."""
        return 1.0 if self.friction_map is None else self.friction_map.bounds()[0]

    def params(self) -> dict[str, Any]:
        """The shape as ``params`` entries (scene files), only the keys that are not flat."""
        out: dict[str, Any] = {}
        if self.slope != (0.0, 0.0):
            out["slope"] = list(self.slope)
        if self.crown != 0.0:
            out["crown"] = self.crown
        if self.height_map is not None:
            out["height_map"] = self.height_map.as_param()
        if self.friction_map is not None:
            out["friction_map"] = self.friction_map.as_param()
        return out

    def digest(self) -> str:
        """A hash of everything that shapes the surface (maps by content)."""
        h = hashlib.sha256(
            repr((self.slope, self.crown, self.crown_axis, self.crown_centre, self.crown_width)).encode()
        )
        for grid in (self.height_map, self.friction_map):
            h.update((grid.digest() if grid is not None else "-").encode())
        return h.hexdigest()


FLAT = SurfaceShape()


# --------------------------------------------------------------------------------------------------
# Reading


def crown_geometry(kind: str, polygon: np.ndarray | None, circle) -> dict:
    """The crown's axis, middle and half-width from the surface outline (``SurfaceShape``)."""
    if kind == "circle":
        cx, cy, radius = circle
        return {"crown_axis": 2, "crown_centre": (float(cx), float(cy)), "crown_width": float(radius)}
    assert polygon is not None  # a surface is a circle or a polygon
    xmin, ymin = polygon.min(axis=0)
    xmax, ymax = polygon.max(axis=0)
    centre = (0.5 * float(xmin + xmax), 0.5 * float(ymin + ymax))
    if ymax - ymin >= xmax - xmin:  # long in y: the parabola runs across x
        return {"crown_axis": 0, "crown_centre": centre, "crown_width": 0.5 * float(xmax - xmin)}
    return {"crown_axis": 1, "crown_centre": centre, "crown_width": 0.5 * float(ymax - ymin)}


def _fail(where: str, key: str, message: str, value: Any = None, show: bool = True):
    shown = f" (got {value!r})" if show else ""
    raise CourtError(f"{where}: {key}: {message}{shown}")


def read_slope(value: Any, key: str, where: str) -> tuple[float, float]:
    """A grade [gx, gy]: two finite numbers."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        _fail(where, key, "must be a grade [gx, gy] of two numbers (dimensionless)", value)
    gx, gy = float(value[0]), float(value[1])
    if not (math.isfinite(gx) and math.isfinite(gy)):
        _fail(where, key, "must be finite", value)
    return gx + 0.0, gy + 0.0  # (-0.0 counts as no grade)


def read_crown(value: Any, key: str, where: str) -> float:
    """A crown: a length with a unit or a number of metres; negative is a dome."""
    try:
        metres = units.length(value)
    except units.UnitError as exc:
        _fail(where, key, str(exc), show=False)
    if not math.isfinite(metres):
        _fail(where, key, "must be finite", value)
    return metres + 0.0


def _read_map_file(path: Path, key: str, where: str) -> np.ndarray:
    """The grid of a map file: .npy (a 2-D array) or comma-separated text (one grid row a line, '#'
    starts a comment); an empty cell is a hole."""
    if path.suffix.lower() not in MAP_SUFFIXES:
        _fail(where, f"{key}.file", "must be a .csv, .txt or .npy file", str(path))
    if not path.is_file():
        _fail(where, f"{key}.file", "no such file", str(path))
    if path.suffix.lower() == ".npy":
        try:
            grid = np.load(path, allow_pickle=False)
        except (ValueError, OSError) as exc:
            _fail(where, f"{key}.file", f"cannot read the .npy file ({exc})", str(path))
        if grid.ndim != 2 or not np.issubdtype(grid.dtype, np.number):
            _fail(where, f"{key}.file", f"must hold a 2-D array of numbers (got {grid.dtype} {grid.shape})", str(path))
        return grid.astype(np.float64)
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        row = []
        for cell in text.split(","):
            cell = cell.strip()
            try:
                row.append(float(cell) if cell else math.nan)
            except ValueError:
                _fail(where, f"{key}.file", f"line {number}: not a number: {cell!r}", str(path))
        rows.append(row)
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        widths = sorted({len(r) for r in rows})
        _fail(
            where, f"{key}.file", f"every row of the grid must have the same number of values (got {widths})", str(path)
        )
    return np.array(rows, dtype=np.float64)


def read_map(
    value: Any,
    key: str,
    where: str,
    base_dir: str | os.PathLike | None,
    friction: bool,
    bounds: tuple[float, float, float, float],
) -> GridMap:
    """A ``height_map`` or ``friction_map`` table {file, extent, unit}: the grid, checked for holes, for
    its size, and for covering the surface's bounding box ``bounds``."""
    if isinstance(value, GridMap):
        return value
    if not isinstance(value, dict):
        _fail(where, key, "must be a table {file, extent[, unit]}", value)
    unknown = sorted(set(value) - MAP_KEYS)
    if unknown:
        _fail(where, f"{key}.{unknown[0]}", f"unknown key (allowed: {', '.join(sorted(MAP_KEYS))})", value[unknown[0]])
    for required in ("file", "extent"):
        if required not in value:
            _fail(where, f"{key}.{required}", f"missing required key in {key}", value)
    file = value["file"]
    if not isinstance(file, str) or not file:
        _fail(where, f"{key}.file", "must be a file name", file)
    path = Path(file)
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    path = path.resolve()
    extent = value["extent"]
    if not isinstance(extent, list) or len(extent) != 2 or not all(isinstance(p, list) and len(p) == 2 for p in extent):
        _fail(where, f"{key}.extent", "must be two corners [[xmin, ymin], [xmax, ymax]]", extent)
    try:
        (xmin, ymin), (xmax, ymax) = ((units.length(a), units.length(b)) for a, b in extent)
    except units.UnitError as exc:
        _fail(where, f"{key}.extent", str(exc), show=False)
    if not all(math.isfinite(v) for v in (xmin, ymin, xmax, ymax)) or not (xmax > xmin and ymax > ymin):
        _fail(where, f"{key}.extent", "must be finite corners with xmax > xmin and ymax > ymin", extent)
    unit = "1" if friction else value.get("unit", "m")
    if friction and "unit" in value:
        _fail(where, f"{key}.unit", "a friction map holds multipliers of mu, without a unit", value["unit"])
    if not friction and (not isinstance(unit, str) or unit not in units.METRE_PER):
        _fail(where, f"{key}.unit", f"must be a length unit ({', '.join(units.METRE_PER)})", unit)
    grid = _read_map_file(path, key, where)
    ny, nx = grid.shape
    if ny < grid_spline.MIN_NODES or nx < grid_spline.MIN_NODES:
        _fail(
            where,
            f"{key}.file",
            f"needs at least {grid_spline.MIN_NODES} x {grid_spline.MIN_NODES} values (got {ny} rows of {nx})",
            str(path),
        )
    holes = np.argwhere(~np.isfinite(grid))
    if holes.size:
        j, i = (int(v) for v in holes[0])
        _fail(
            where, key, f"the map has holes: no value at row {j + 1}, column {i + 1} ({len(holes)} missing)", str(path)
        )
    if friction and (grid <= 0.0).any():
        j, i = (int(v) for v in np.argwhere(grid <= 0.0)[0])
        _fail(
            where,
            key,
            f"friction multipliers must be positive: {float(grid[j, i])!r} at row {j + 1}, column {i + 1}",
            str(path),
        )
    sxmin, symin, sxmax, symax = bounds
    slack = COVER_SLACK
    if xmin > sxmin + slack or ymin > symin + slack or xmax < sxmax - slack or ymax < symax - slack:
        _fail(
            where,
            f"{key}.extent",
            f"the map must cover the surface, x from {sxmin:.6g} to {sxmax:.6g} m and "
            f"y from {symin:.6g} to {symax:.6g} m",
            extent,
        )
    scale = 1.0 if friction else units.METRE_PER[unit]
    return GridMap(values=grid * scale, extent=(xmin, ymin, xmax, ymax), source=str(path), unit=unit)


def read_shape(entries: dict, where: str, prefix: str, base: SurfaceShape, bounds, base_dir=None) -> SurfaceShape:
    """``base`` with the shape keys of ``entries`` (``SHAPE_KEYS``) read and replaced (None: not given);
    errors name ``where`` and ``prefix.key``; map files are read relative to ``base_dir``."""
    changes: dict[str, Any] = {}
    for key in SHAPE_KEYS:
        value = entries.get(key)
        if value is None:
            continue
        name = f"{prefix}.{key}"
        if key == "slope":
            changes[key] = read_slope(value, name, where)
        elif key == "crown":
            changes[key] = read_crown(value, name, where)
        else:
            changes[key] = read_map(value, name, where, base_dir, key == "friction_map", bounds)
    return replace(base, **changes) if changes else base


# --------------------------------------------------------------------------------------------------
# The public face


@dataclass(frozen=True)
class SurfaceGrid:
    """Heights, grade and friction of a court's surface on a regular grid (for drawings).

    ``x`` (nx,) and ``y`` (ny,) are the grid's coordinates (m); ``height`` (ny, nx) in metres,
    relative to the frame's origin for the slope and to the sides for the crown; ``grade_x``,
    ``grade_y`` the in-plane gravity over g, -grad h (a disc drifts along it); ``mu`` the friction
    coefficient there; ``on_surface`` whether each point lies on the playing surface.
    """

    x: np.ndarray
    y: np.ndarray
    height: np.ndarray
    grade_x: np.ndarray
    grade_y: np.ndarray
    mu: np.ndarray
    on_surface: np.ndarray


def surface_grid(court, nx: int = 64, ny: int | None = None) -> SurfaceGrid:
    """Heights, grade and friction of ``court``'s surface on an nx x ny grid over its bounding box
    (``ny`` defaults to keeping the cells square). A flat court gives zeros and its mu."""
    if isinstance(nx, bool) or not isinstance(nx, int) or nx < 2:
        raise ValueError(f"nx must be an integer of at least 2 (got {nx!r})")
    xmin, ymin, xmax, ymax = court.bounds
    if ny is None:
        ny = max(2, round((nx - 1) * (ymax - ymin) / (xmax - xmin)) + 1)
    if isinstance(ny, bool) or not isinstance(ny, int) or ny < 2:
        raise ValueError(f"ny must be an integer of at least 2 (got {ny!r})")
    x = np.linspace(xmin, xmax, nx)
    y = np.linspace(ymin, ymax, ny)
    gx, gy = np.meshgrid(x, y)
    shape = court.surface_shape
    h, hx, hy = shape.heights(gx, gy)
    inside = np.vectorize(court.on_surface)(gx, gy) if gx.size else np.zeros(gx.shape, bool)
    return SurfaceGrid(
        x=x,
        y=y,
        height=h,
        grade_x=-hx,
        grade_y=-hy,
        mu=court.params["mu"] * shape.friction(gx, gy),
        on_surface=inside.astype(bool),
    )


def is_flat(court) -> bool:
    """Whether ``court`` is an ideal plane of uniform friction (no slope, crown or maps): its shots take
    the flat kernels' closed forms; any other court takes the curved-motion path."""
    return court.surface_shape.flat
