"""Whether a disc can come to rest on a surface: its grade against its friction, checked everywhere.

On a surface of heights h(x, y) a disc at rest feels the in-plane pull g |grad h| and can be held
by friction up to g mu m(x, y) (``surface_shape``: the small-slope model), so it stays at rest only
where the grade |grad h| is below the friction mu m(x, y). A surface steeper than its friction
anywhere is refused (``check_steepness``): a disc there would never come to rest. The checks look
at a grid of sample points over the surface (``CHECK_SAMPLES`` per map cell, at least 64 a side).

A refusal says it as players do: the grade in inches per foot and as "1 in N", where on the court
(feet and inches from the frame's origin), and the steepest grade the court's friction allows there;
then the numbers (grade, mu) and, as every court error does, the field and its value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court.surface_shape import CHECK_SAMPLES, SurfaceShape, _fail
from shuffle_sim.units import format_feet_inches, format_grade


@dataclass(frozen=True)
class SteepestPoint:
    """The sample point where the grade weighs most against the friction: its ``grade`` |grad h|, its
    position (m, the court's frame) and the friction multiplier there. ``grade / multiplier`` is
    the least mu that holds a disc everywhere."""

    grade: float
    x: float
    y: float
    multiplier: float

    @property
    def least_mu(self) -> float:
        return self.grade / self.multiplier


def _sample_points(shape: SurfaceShape, bounds) -> tuple[np.ndarray, np.ndarray]:
    """Points at which the checks look: a grid over the bounding box, CHECK_SAMPLES per map cell (and
    at least 64 a side), with the box's edges and the maps' nodes among them."""
    xmin, ymin, xmax, ymax = bounds
    nx = ny = 64
    for grid in (shape.height_map, shape.friction_map):
        if grid is not None:
            dx, dy = grid.cell_size
            nx = max(nx, math.ceil((xmax - xmin) / dx * CHECK_SAMPLES) + 1)
            ny = max(ny, math.ceil((ymax - ymin) / dy * CHECK_SAMPLES) + 1)
    return np.meshgrid(np.linspace(xmin, xmax, min(nx, 4096)), np.linspace(ymin, ymax, min(ny, 4096)))


def _on_surface_samples(shape: SurfaceShape, bounds, inside) -> tuple[np.ndarray, np.ndarray]:
    x, y = _sample_points(shape, bounds)
    on = inside(x, y)
    return x[on], y[on]


def where_words(x: float, y: float, origin: str | None = None) -> str:
    """A point of a court as players read it: feet and inches from the frame's origin (the court
    file's ``[frame]``: "x -10 in, y 3 ft 4 in from the centre of the head end of the court")."""
    place = f"x {format_feet_inches(x)}, y {format_feet_inches(y)}"
    return f"{place} from the {origin}" if origin else place


def check_steepness(
    shape: SurfaceShape, mu: float, bounds, inside, where: str, prefix: str, origin: str | None = None
) -> None:
    """Refuse a surface on which a disc could not come to rest: the grade |grad h| at least the
    friction mu m(x, y) somewhere on it (``inside(x, y)`` says which points of the bounding box
    ``bounds`` are on the surface), or a friction multiplier that is not positive. ``origin``: the
    frame's origin in words, which the refusal measures from."""
    if shape.flat:
        return
    x, y = _on_surface_samples(shape, bounds, inside)
    friction = mu * shape.friction(x, y)
    if shape.friction_map is not None and (friction <= 0.0).any():
        k = int(np.argmin(friction))
        _fail(
            where,
            f"{prefix}.friction_map",
            f"the interpolated multiplier is {friction[k] / mu:.6g} at {where_words(x[k], y[k], origin)} "
            f"(x={x[k]:.6g}, y={y[k]:.6g} m): friction must stay positive",
            shape.friction_map.source,
        )
    _, hx, hy = shape.heights(x, y)
    grade = np.hypot(hx, hy)
    excess = grade - friction
    k = int(np.argmax(excess))
    if excess[k] >= 0.0:
        culprit = next((key for key in ("height_map", "crown", "slope") if _given(shape, key)), "slope")
        value = {"slope": list(shape.slope), "crown": shape.crown}.get(culprit)
        if value is None:
            value = getattr(shape, culprit).source
        _fail(
            where,
            f"{prefix}.{culprit}",
            f"the surface is steeper than its friction: it falls {format_grade(grade[k])} at "
            f"{where_words(x[k], y[k], origin)}, where the steepest grade its friction allows is "
            f"{format_grade(friction[k])} (grade {grade[k]:.6g} against mu {friction[k]:.6g}): a disc "
            "would never come to rest",
            value,
        )


def steepest_point(shape: SurfaceShape, bounds, inside) -> SteepestPoint:
    """The sample point (``check_steepness``'s) of the largest grade over friction multiplier,
    |grad h| / m(x, y): any mu above ``least_mu`` keeps the surface flatter than its friction
    (a flat surface: grade 0 at the box's corner)."""
    if shape.flat:
        return SteepestPoint(0.0, float(bounds[0]), float(bounds[1]), 1.0)
    x, y = _on_surface_samples(shape, bounds, inside)
    _, hx, hy = shape.heights(x, y)
    multiplier = shape.friction(x, y)
    grade = np.hypot(hx, hy)
    k = int(np.argmax(grade / multiplier))
    return SteepestPoint(float(grade[k]), float(x[k]), float(y[k]), float(multiplier[k]))


def too_little_friction(point: SteepestPoint, mu: float, court: str, origin: str | None = None) -> str:
    """Why ``mu`` leaves the surface of ``court`` (its name) steeper than its friction at its
    ``point``, in players' words."""
    return (
        f"too little friction for court {court!r}: its surface falls {format_grade(point.grade)} at "
        f"{where_words(point.x, point.y, origin)}, where mu {mu:.6g} holds a disc on no grade steeper "
        f"than {format_grade(mu * point.multiplier)}; the court needs mu above {point.least_mu:.6g}: "
        "a disc would never come to rest"
    )


def _given(shape: SurfaceShape, key: str) -> bool:
    if key == "slope":
        return shape.slope != (0.0, 0.0)
    if key == "crown":
        return shape.crown != 0.0
    return getattr(shape, key) is not None
