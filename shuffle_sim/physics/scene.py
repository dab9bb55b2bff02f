"""Scenes: a court, parameter overrides and discs with their initial motion (the simulator's input).

Scene file (JSON)::

    {"court": "deck",                      # a court name or a path (relative to the scene file)
     "end": "foot",                        # optional: the scoring end, for courts with two
     "params": {"mu": 0.02, ...},          # optional: overrides of the court's materials
     "discs": [{"x": 0.0, "y": 1.2, "vx": 0.0, "vy": 2.1, "omega": 0.0, "team": "yellow"}]}

Every ``params`` key is optional and overrides the court file: ``mu`` or ``speed`` (the court's
speed, "14 s": ``court.speed``; not both), ``disc_restitution``, ``disc_friction``,
``cushion_restitution``, ``cushion_friction``, ``peg_restitution``, ``peg_friction``,
``disc_yield_speed``, ``cushion_yield_speed``, ``peg_yield_speed`` (m/s: the restitution laws,
``physics.restitution``), ``hole_capture_speed``, ``gravity``, ``contact_inner_ratio``,
``inertia_ratio``, ``spin_model``, ``mu_speed`` (s/m: the friction law mu + mu_speed v,
``court.friction_law``). Positions are metres in the court's frame, velocities m/s, spin rad/s
(counter-clockwise seen from above). ``vx``, ``vy``, ``omega`` default to 0 and ``team`` to ``"A"``.

``Scene.validate`` rejects NaN or infinite values, discs off the surface, launches faster than a
friction law falling with speed allows and discs overlapping at the start with an error naming the
disc and the field (``SceneError``).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from shuffle_sim.court import Court, CourtError, court_path, load_court
from shuffle_sim.court.friction_law import launch_refusal
from shuffle_sim.messages import shown

DISC_KEYS = {"x", "y", "vx", "vy", "omega", "team"}
SCENE_KEYS = {"court", "end", "params", "discs"}
#: Discs closer than 2r minus this are overlapping (m); touching discs are allowed.
OVERLAP_TOLERANCE = 1e-9


class SceneError(ValueError):
    """A scene that cannot be simulated; the message names the disc and the field."""


def read_json_file(path: Path, what: str) -> Any:
    """The parsed JSON of a scene or board file; ``SceneError`` naming the file if it cannot be read
    or is not JSON (``what`` says which kind of file, for the message)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise SceneError(f"{path}: cannot read {what} ({exc.strerror})") from None
    try:
        return json.loads(text, parse_constant=lambda c: float(c))
    except json.JSONDecodeError as exc:
        raise SceneError(f"{path}: not valid JSON: {exc}") from None


@dataclass
class Scene:
    """A court and a set of discs with initial positions, velocities and spins (SI)."""

    court: Court
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    omega: np.ndarray
    team: list[str] = field(default_factory=list)
    source: str = "<scene>"

    def __post_init__(self) -> None:
        n = len(np.atleast_1d(self.x))
        for name in ("x", "y", "vx", "vy", "omega"):
            arr = np.ascontiguousarray(np.atleast_1d(getattr(self, name)), dtype=np.float64)
            if arr.shape != (n,):
                raise SceneError(f"{self.source}: {name} must have one entry per disc ({n}), got {arr.shape}")
            setattr(self, name, arr)
        if not self.team:
            self.team = ["A"] * n
        if len(self.team) != n:
            raise SceneError(f"{self.source}: team must have one entry per disc ({n}), got {len(self.team)}")

    @property
    def n_discs(self) -> int:
        return len(self.x)

    def validate(self, allow_off_surface: bool = False) -> Scene:
        """Raise ``SceneError`` for non-finite values, discs off the surface, discs launched faster than
        a friction law falling with speed allows (``friction_law.launch_refusal``) or overlapping discs.

        ``allow_off_surface``: accept discs off the surface (a board of resting discs to score, where a
        disc in an alley, gutter or ditch is legitimate: it has fallen).
        """
        for name in ("x", "y", "vx", "vy", "omega"):
            arr = getattr(self, name)
            bad = np.flatnonzero(~np.isfinite(arr))
            if bad.size:
                k = int(bad[0])
                raise SceneError(f"{self.source}: discs[{k}].{name} must be finite (got {shown(arr[k])})")
        for k in range(0 if allow_off_surface else self.n_discs):
            if not self.court.on_surface(float(self.x[k]), float(self.y[k])):
                raise SceneError(
                    f"{self.source}: discs[{k}] at x={shown(self.x[k])}, y={shown(self.y[k])} is off the surface of "
                    f"court {self.court.name!r}"
                )
        for k in range(self.n_discs):
            why = launch_refusal(
                self.court.params, self.court.disc_radius, math.hypot(self.vx[k], self.vy[k]), float(self.omega[k])
            )
            if why is not None:
                raise SceneError(f"{self.source}: discs[{k}] {why}")
        if self.n_discs > 1:
            dx = self.x[:, None] - self.x[None, :]
            dy = self.y[:, None] - self.y[None, :]
            dist = np.hypot(dx, dy)
            np.fill_diagonal(dist, np.inf)
            limit = 2.0 * self.court.disc_radius - OVERLAP_TOLERANCE
            i, j = np.unravel_index(int(np.argmin(dist)), dist.shape)
            if dist[i, j] < limit:
                a, b = sorted((int(i), int(j)))
                raise SceneError(
                    f"{self.source}: discs[{a}] and discs[{b}] overlap at the start (centres "
                    f"{dist[i, j]:.6g} m apart, at least {2 * self.court.disc_radius:.6g} m needed)"
                )
        return self

    # ---- files -----------------------------------------------------------------------------------
    @classmethod
    def from_dict(
        cls,
        data: Any,
        source: str = "<scene>",
        base_dir: str | os.PathLike | None = None,
        allow_off_surface: bool = False,
    ) -> Scene:
        """Build and validate a scene from the JSON structure documented in this module."""
        if not isinstance(data, dict):
            raise SceneError(f"{source}: a scene must be a JSON object (got {type(data).__name__})")
        for key in data:
            if key not in SCENE_KEYS:
                raise SceneError(f"{source}: {key}: unknown key (allowed: {', '.join(sorted(SCENE_KEYS))})")
        for key in ("court", "discs"):
            if key not in data:
                raise SceneError(f"{source}: {key}: missing required key")
        court_ref = data["court"]
        if not isinstance(court_ref, str):
            raise SceneError(f"{source}: court: must be a court name or path (got {shown(court_ref)})")
        if base_dir is not None and (court_ref.endswith(".toml") or os.sep in court_ref):
            candidate = Path(base_dir) / court_ref
            if candidate.is_file():
                court_ref = str(candidate)
        try:
            court = load_court(court_path(court_ref), end=data.get("end"))
            params = data.get("params", {})
            if not isinstance(params, dict):
                raise SceneError(f"{source}: params: must be an object (got {shown(params)})")
            court = court.with_params(**params)
        except CourtError as exc:
            raise SceneError(f"{source}: {exc}") from None
        discs = data["discs"]
        if not isinstance(discs, list):
            raise SceneError(f"{source}: discs: must be a list (got {shown(discs)})")
        columns: dict[str, list] = {k: [] for k in ("x", "y", "vx", "vy", "omega")}
        teams = []
        for k, disc in enumerate(discs):
            if not isinstance(disc, dict):
                raise SceneError(f"{source}: discs[{k}]: must be an object (got {shown(disc)})")
            for key in disc:
                if key not in DISC_KEYS:
                    raise SceneError(
                        f"{source}: discs[{k}].{key}: unknown key (allowed: {', '.join(sorted(DISC_KEYS))})"
                    )
            for key in ("x", "y", "vx", "vy", "omega"):
                if key in ("x", "y") and key not in disc:
                    raise SceneError(f"{source}: discs[{k}].{key}: missing required key")
                value = disc.get(key, 0.0)
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise SceneError(f"{source}: discs[{k}].{key}: must be a number (got {shown(value)})")
                columns[key].append(float(value))
            teams.append(str(disc.get("team", "A")))
        scene = cls(
            court=court, team=teams, source=source, **{k: np.array(v, dtype=np.float64) for k, v in columns.items()}
        )
        return scene.validate(allow_off_surface=allow_off_surface)

    @classmethod
    def from_json(cls, path: str | os.PathLike) -> Scene:
        """Load and validate a scene file; errors name the file."""
        path = Path(path)
        return cls.from_dict(read_json_file(path, "scene file"), source=str(path), base_dir=path.parent)

    def to_dict(self) -> dict:
        """The scene as JSON data (the court by its file path, params as the court's materials and the
        shape of its surface)."""
        return {
            "court": self.court.source_path,
            "end": self.court.end,
            # An infinite yield speed (a constant restitution, the default) is left out: JSON has no infinity.
            "params": {
                **{k: v for k, v in self.court.params.items() if not (isinstance(v, float) and math.isinf(v))},
                **self.court.surface_shape.params(),
            },
            "discs": [
                {
                    "x": float(self.x[k]),
                    "y": float(self.y[k]),
                    "vx": float(self.vx[k]),
                    "vy": float(self.vy[k]),
                    "omega": float(self.omega[k]),
                    "team": self.team[k],
                }
                for k in range(self.n_discs)
            ],
        }
