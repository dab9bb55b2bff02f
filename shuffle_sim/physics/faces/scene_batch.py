"""Batch API for whole scenes: many multi-disc scenes, each with its own materials, in one numba call.

``simulate_shots`` plays one moving disc among the same resting discs, shot after shot. Some work
needs whole scenes instead: several discs moving at once, a different number of discs and different
materials in every scene (a physics fuzz, a sensitivity study over restitution and friction).
``simulate_scenes(Scenes(...))`` runs N such scenes on one court through the event loop
(``loop``, under the court's motion law), in a parallel loop over scenes inside numba: Python is called once
per batch, never per scene. Each scene writes only its own rows, so the results are bit-identical
whatever the thread count, and bit-identical to ``physics.simulate`` on ``Scenes.scene(k)``.

Scenes are padded to a common width D: scene k uses its first ``n_discs[k]`` columns; the rest are
ignored on input and come back as NaN positions with status ``PADDING``. A scene's materials
(``MATERIALS``, one column each) override the court's the way ``Court.with_params`` does: a cushion,
peg or disc-pair value applies to every cushion, peg or pair; NaN keeps the court's own value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.court import Court
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import centre_on_surface
from shuffle_sim.messages import shown
from shuffle_sim.physics.faces.simulate import obstacle_at_start
from shuffle_sim.physics.laws import ops
from shuffle_sim.physics.laws.choice import court_law, court_motion
from shuffle_sim.physics.laws.law import INTEGRATED
from shuffle_sim.physics.loop import run_events
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE, Scene, SceneError
from shuffle_sim.physics.state import DEAD, EV_COLUMNS, STATUS
from shuffle_sim.physics.tables import court_table
from shuffle_sim.physics.tables.packing import kernel_arrays

#: Per-scene material columns of ``Scenes.materials``, named as ``Court.with_params`` names them.
MATERIALS = (
    "mu",
    "disc_restitution",
    "disc_friction",
    "cushion_restitution",
    "cushion_friction",
    "peg_restitution",
    "peg_friction",
)
_MU, _DISC_E, _DISC_FRICTION, _CUSHION_E, _CUSHION_FRICTION, _PEG_E, _PEG_FRICTION = range(len(MATERIALS))

#: Status of the unused columns of a padded scene (the kernel's statuses are 0 and up).
PADDING = -1

#: Why a scene cannot be run (``_scene_problem``), with the disc concerned.
NOT_FINITE = 1
_OFF_SURFACE = 2
_ON_DISC = 3
_ON_OBSTACLE = 4


@dataclass
class Scenes:
    """N scenes on one court, padded to D discs: (N, D) starts and (N,) disc counts (SI).

    ``materials`` (N, len(MATERIALS)) holds each scene's overrides of the court's materials, NaN for
    "the court's value"; None means the court's materials for every scene.
    """

    court: Court
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    omega: np.ndarray
    n_discs: np.ndarray
    materials: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.x = np.ascontiguousarray(self.x, dtype=np.float64)
        if self.x.ndim != 2 or self.x.shape[1] < 1:
            raise ValueError(
                f"x must be an array (scenes, discs) with at least one disc column (got shape {self.x.shape})"
            )
        n, d = self.x.shape
        for name in ("y", "vx", "vy", "omega"):
            arr = np.ascontiguousarray(getattr(self, name), dtype=np.float64)
            if arr.shape != (n, d):
                raise ValueError(f"{name} must have the shape of x, {(n, d)} (got {arr.shape})")
            setattr(self, name, arr)
        counts = np.asarray(self.n_discs)
        if counts.shape != (n,) or not np.issubdtype(counts.dtype, np.integer):
            raise ValueError(f"n_discs must be {n} integers, one per scene (got {counts.dtype} {counts.shape})")
        bad = np.flatnonzero((counts < 1) | (counts > d))
        if bad.size:
            k = int(bad[0])
            raise ValueError(f"n_discs[{k}] must lie in 1..{d} (got {int(counts[k])})")
        self.n_discs = np.ascontiguousarray(counts, dtype=np.int64)
        if self.materials is None:
            self.materials = np.full((n, len(MATERIALS)), np.nan)
        self.materials = np.ascontiguousarray(self.materials, dtype=np.float64)
        if self.materials.shape != (n, len(MATERIALS)):
            raise ValueError(
                f"materials must have shape {(n, len(MATERIALS))}, one column per name in "
                f"MATERIALS (got {self.materials.shape})"
            )
        for j, name in enumerate(MATERIALS):
            column = self.materials[:, j]
            given = ~np.isnan(column)
            upper = 1.0 if name.endswith("restitution") else np.inf
            bad = np.flatnonzero(given & ~((column >= 0) & (column <= upper)))
            if bad.size:
                k = int(bad[0])
                allowed = "[0, 1]" if upper == 1.0 else "[0, inf)"
                raise ValueError(f"materials[{k}].{name} must lie in {allowed} (got {float(column[k])!r})")

    def __len__(self) -> int:
        return self.x.shape[0]

    def check_surface(self) -> None:
        """On a court that is not flat, refuse a scene whose friction ``mu`` would leave the surface
        steeper than its friction somewhere (``SceneError`` naming the scene), as ``Court.with_params``
        refuses it for one scene."""
        if self.materials is None:
            return
        mu = self.materials[:, MATERIALS.index("mu")]
        given = np.flatnonzero(~np.isnan(mu))
        if not given.size:
            return
        least = self.court.least_friction()
        low = given[mu[given] <= least]
        if low.size:
            k = int(low[0])
            raise SceneError(f"scene {k}: materials.mu {float(mu[k])!r} is {self.court.friction_refusal(float(mu[k]))}")

    def scene_court(self, k: int) -> Court:
        """The court of scene ``k``: this batch's court with the scene's materials."""
        assert self.materials is not None, "set on construction"
        row = self.materials[k]
        return self.court.with_params(
            **{name: float(row[j]) for j, name in enumerate(MATERIALS) if not math.isnan(row[j])}
        )

    def scene(self, k: int) -> Scene:
        """Scene ``k`` alone, as ``physics.simulate`` and scene files (``Scene.to_dict``) take it."""
        n = int(self.n_discs[k])
        return Scene(
            court=self.scene_court(k),
            x=self.x[k, :n],
            y=self.y[k, :n],
            vx=self.vx[k, :n],
            vy=self.vy[k, :n],
            omega=self.omega[k, :n],
            source=f"scene {k}",
        )


@dataclass
class SceneBatch:
    """Final state of N scenes of D (padded) discs, as ``physics.simulate`` gives it for each."""

    x: np.ndarray  # (N, D) final centres (m); NaN in padding columns
    y: np.ndarray
    vx: np.ndarray  # (N, D) zero for every disc at rest, fallen or holed
    vy: np.ndarray
    omega: np.ndarray
    status: np.ndarray  # (N, D) int8: physics.events.STATUS_*, PADDING for unused columns
    dead: np.ndarray  # (N, D) bool: dead standing at the end (kill lines, killing cushions)
    ok: np.ndarray  # (N,) bool: False if the scene reached the event bound
    events: np.ndarray  # (N,) int64: events processed
    t_end: np.ndarray  # (N,) time of the last event (s)


@jit.inline
def apply_materials(table, row, gravity):
    """Overwrite the packed court ``table`` with one scene's materials ``row`` (``MATERIALS``; NaN
    keeps the court's value): every cushion, every peg and the disc pair take the scene's values.
    The decelerations come from ``decelerations`` exactly as ``pack_court`` computes them."""
    if not math.isnan(row[_MU]):
        decel, spin_decel = court_table.decelerations(
            row[_MU],
            gravity,
            table[0, court_table.H_RADIUS],
            table[0, court_table.H_INNER],
            table[0, court_table.H_INERTIA],
        )
        table[0, court_table.H_DECEL] = decel
        table[0, court_table.H_SPIN_DECEL] = spin_decel
    for r in range(1, table.shape[0]):
        kind = table[r, court_table.F_KIND]
        if kind == court_table.CUSHION_SEGMENT:
            e_col = court_table.F + 5
        elif kind in (court_table.CUSHION_CIRCLE, court_table.PEG):
            e_col = court_table.F + 3
        else:
            continue
        e = row[_PEG_E] if kind == court_table.PEG else row[_CUSHION_E]
        friction = row[_PEG_FRICTION] if kind == court_table.PEG else row[_CUSHION_FRICTION]
        if not math.isnan(e):
            table[r, e_col] = e
        if not math.isnan(friction):
            table[r, e_col + 1] = friction
    if not math.isnan(row[_DISC_E]):
        table[0, court_table.H_RESTITUTION] = row[_DISC_E]
    if not math.isnan(row[_DISC_FRICTION]):
        table[0, court_table.H_FRICTION] = row[_DISC_FRICTION]


@jit.kernel
def _scene_problem(table, ja, xs, ys, vxs, vys, omegas, k, n):
    """(why, disc) scene ``k`` cannot be run: a value not finite, a disc off the surface, on an
    earlier disc or on a cushion or peg (as ``physics.simulate`` refuses them); (0, -1) if it can."""
    limit = 2.0 * table[0, court_table.H_RADIUS] - OVERLAP_TOLERANCE
    for i in range(n):
        if not (
            math.isfinite(xs[k, i])
            and math.isfinite(ys[k, i])
            and math.isfinite(vxs[k, i])
            and math.isfinite(vys[k, i])
            and math.isfinite(omegas[k, i])
        ):
            return NOT_FINITE, i
        if not centre_on_surface(ja, xs[k, i], ys[k, i]):
            return _OFF_SURFACE, i
        for j in range(i):
            if math.hypot(xs[k, i] - xs[k, j], ys[k, i] - ys[k, j]) < limit:
                return _ON_DISC, i
        if court_table.obstacle_overlap(table, xs[k, i], ys[k, i], OVERLAP_TOLERANCE)[0] >= 0:
            return _ON_OBSTACLE, i
    return 0, -1


@jit.kernel
def _run_scene(law, base_motion, ja, gravity, inputs, max_events, k, outs):
    """Run scene ``k`` to rest (or the event bound) and write its rows.

    The scene packs its own copy of the court table with its materials and allocates its own state,
    sized to its discs; nothing is shared between scenes but the read-only inputs. ``inputs`` bundles
    the starts (x, y, vx, vy, omega), the disc counts and the materials; ``outs`` the results'
    arrays (``SceneBatch``'s, then the problem and its disc). (A plain function called from the
    parallel loop: the event loop compiles once, outside the parallel transformation.)
    """
    xs, ys, vxs, vys, omegas, n_discs, materials = inputs
    (
        out_x,
        out_y,
        out_vx,
        out_vy,
        out_omega,
        out_status,
        out_dead,
        out_ok,
        out_events,
        out_t_end,
        problem,
        problem_disc,
    ) = outs
    n = n_discs[k]
    table = base_motion[0].copy()
    apply_materials(table, materials[k], gravity)
    motion = ops.with_table(law, base_motion, table)
    for i in range(xs.shape[1]):
        out_x[k, i] = np.nan
        out_y[k, i] = np.nan
        out_vx[k, i] = np.nan
        out_vy[k, i] = np.nan
        out_omega[k, i] = np.nan
        out_status[k, i] = PADDING
        out_dead[k, i] = False
    why, disc = _scene_problem(table, ja, xs, ys, vxs, vys, omegas, k, n)
    problem[k] = why
    problem_disc[k] = disc
    if why != 0:
        out_ok[k] = False
        out_events[k] = 0
        out_t_end[k] = np.nan
        return
    state = ops.new_state(law, n)
    ops.clear(law, state)
    placed = True
    for i in range(n):
        placed = ops.place(law, motion, state, i, xs[k, i], ys[k, i], vxs[k, i], vys[k, i], omegas[k, i]) and placed
    no_events = np.empty((0, EV_COLUMNS))
    _, _, ok, t_end, processed = run_events(law, motion, state, no_events, ops.no_log(law), max_events)
    out_ok[k] = ok and placed
    out_events[k] = processed
    out_t_end[k] = t_end
    ist = state[1]
    for i in range(n):
        x, y, vx, vy, w = ops.state_at(law, motion, state, i, t_end)
        out_x[k, i] = x
        out_y[k, i] = y
        out_vx[k, i] = vx
        out_vy[k, i] = vy
        out_omega[k, i] = w
        out_status[k, i] = ist[STATUS, i]
        out_dead[k, i] = ist[DEAD, i] != 0


@jit.parallel
def _run_scenes(law, base_motion, ja, gravity, inputs, max_events, outs):
    """Run every scene (``_run_scene``), in parallel over scenes."""
    for k in prange(inputs[0].shape[0]):
        _run_scene(law, base_motion, ja, gravity, inputs, max_events, np.int64(k), outs)


def simulate_scenes(scenes: Scenes, max_events: int = 10_000) -> SceneBatch:
    """Run every scene of ``scenes`` until its discs are at rest, fallen or holed (or ``max_events``
    events, then its ``ok`` is False), in one numba call.

    Raises ``SceneError`` naming the scene and the disc for a scene ``physics.simulate`` would refuse:
    a value not finite, a disc off the surface, overlapping an earlier disc, a cushion or a peg.
    """
    if isinstance(max_events, bool) or not isinstance(max_events, (int, np.integer)) or max_events < 1:
        raise ValueError(f"max_events must be a positive integer (got {shown(max_events)})")
    n, d = scenes.x.shape
    out = SceneBatch(
        x=np.empty((n, d)),
        y=np.empty((n, d)),
        vx=np.empty((n, d)),
        vy=np.empty((n, d)),
        omega=np.empty((n, d)),
        status=np.empty((n, d), np.int8),
        dead=np.empty((n, d), np.bool_),
        ok=np.empty(n, np.bool_),
        events=np.empty(n, np.int64),
        t_end=np.empty(n),
    )
    problem = np.empty(n, np.int8)
    problem_disc = np.empty(n, np.int64)
    court = scenes.court
    law = court_law(court)
    if law is INTEGRATED:
        scenes.check_surface()
    inputs = (scenes.x, scenes.y, scenes.vx, scenes.vy, scenes.omega, scenes.n_discs, scenes.materials)
    outs = (
        out.x,
        out.y,
        out.vx,
        out.vy,
        out.omega,
        out.status,
        out.dead,
        out.ok,
        out.events,
        out.t_end,
        problem,
        problem_disc,
    )
    gravity = float(kernel_arrays(court).gravity)
    _run_scenes(law, court_motion(court), judge_arrays(court), gravity, inputs, int(max_events), outs)
    bad = np.flatnonzero(problem)
    if bad.size:
        k = int(bad[0])
        i = int(problem_disc[k])
        where = f"scene {k}: discs[{i}]"
        if problem[k] == NOT_FINITE:
            for name in ("x", "y", "vx", "vy", "omega"):
                value = float(getattr(scenes, name)[k, i])
                if not math.isfinite(value):
                    raise SceneError(f"{where}.{name} must be finite (got {shown(value)})")
        at = f"at x={float(scenes.x[k, i])!r}, y={float(scenes.y[k, i])!r}"
        if problem[k] == _OFF_SURFACE:
            raise SceneError(f"{where} {at} is off the surface of court {court.name!r}")
        if problem[k] == _ON_DISC:
            raise SceneError(f"{where} {at} overlaps an earlier disc of the scene at the start")
        raise SceneError(
            f"{where} {at} overlaps {obstacle_at_start(scenes.scene_court(k), scenes.x[k, i], scenes.y[k, i])}"
            " at the start"
        )
    return out
