"""Material parameters of a court (``[materials]``), their defaults and their validation (SI units)."""

from __future__ import annotations

import math
from typing import Any

from shuffle_sim.court.errors import CourtError

OVERHANG_KINDS = {"none": 0, "end": 1, "side": 2}
STANDARD_GRAVITY = 9.80665

PARAM_DEFAULTS = {
    "mu": None,  # required in [materials]
    "disc_restitution": 0.8,
    "disc_friction": 0.1,
    "cushion_restitution": 0.5,
    "cushion_friction": 0.1,
    "peg_restitution": 0.6,
    "peg_friction": 0.1,
    "hole_capture_speed": 0.5,
    "gravity": STANDARD_GRAVITY,
}
#: Parameters that are probabilities-like ratios and must lie in [0, 1].
UNIT_INTERVAL_PARAMS = {"disc_restitution", "cushion_restitution", "peg_restitution"}


def check_param(key: str, name: str, value: Any, where: str) -> float:
    """A parameter value checked for its kind: a known name, a finite non-negative number, a
    restitution in [0, 1], a positive gravity; the error names ``where`` and ``key``."""
    if name not in PARAM_DEFAULTS:
        raise CourtError(f"{where}: {key}: unknown parameter (allowed: {', '.join(sorted(PARAM_DEFAULTS))})")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CourtError(f"{where}: {key}: must be a number (got {value!r})")
    value = float(value)
    if not math.isfinite(value):
        raise CourtError(f"{where}: {key}: must be finite (got {value!r})")
    if value < 0:
        raise CourtError(f"{where}: {key}: must not be negative (got {value!r})")
    if name in UNIT_INTERVAL_PARAMS and value > 1:
        raise CourtError(f"{where}: {key}: a restitution must lie in [0, 1] (got {value!r})")
    if name == "gravity" and value == 0:
        raise CourtError(f"{where}: {key}: must be positive (got {value!r})")
    return value

