"""Material parameters of a court (``[materials]``), their defaults and their validation (SI units)."""

from __future__ import annotations

import math
import numbers
from typing import Any

from shuffle_sim.court.errors import CourtError
from shuffle_sim.messages import shown

OVERHANG_KINDS = {"none": 0, "end": 1, "side": 2}
STANDARD_GRAVITY = 9.80665

PARAM_DEFAULTS = {
    "mu": None,  # required in [materials]
    # The friction law: mu(v) = mu + mu_speed v (s/m, either sign), v the sliding speed; 0, the
    # default: Coulomb friction, a constant mu (``friction_law``).
    "mu_speed": 0.0,
    "disc_restitution": 0.8,
    "disc_friction": 0.1,
    "cushion_restitution": 0.5,
    "cushion_friction": 0.1,
    "peg_restitution": 0.6,
    "peg_friction": 0.1,
    "hole_capture_speed": 0.5,
    "gravity": STANDARD_GRAVITY,
    "contact_inner_ratio": 0.0,  # eta: inner over outer radius of the annulus a disc presses on
    "inertia_ratio": 0.5,  # I / (m r^2): 0.5 for a uniform disc
    "spin_model": "coupled",  # "coupled" (Farkas et al. 2003) or "decoupled" (spin and slide apart)
    # Restitution laws (physics.restitution): the restitution holds up to this normal impact speed
    # (m/s) and falls as (v_y / v)^(1/4) above it; infinite, the default: a constant restitution.
    "disc_yield_speed": math.inf,
    "cushion_yield_speed": math.inf,
    "peg_yield_speed": math.inf,
}
#: Parameters that may be negative.
SIGNED_PARAMS = {"mu_speed"}
#: The values of ``spin_model``.
SPIN_MODELS = ("coupled", "decoupled")
#: Parameters that are probabilities-like ratios and must lie in [0, 1].
UNIT_INTERVAL_PARAMS = {"disc_restitution", "cushion_restitution", "peg_restitution"}
#: Yield speeds of the restitution laws: positive, and infinite for a constant restitution.
YIELD_SPEED_PARAMS = {"disc_yield_speed", "cushion_yield_speed", "peg_yield_speed"}


def check_param(key: str, name: str, value: Any, where: str) -> float | str:
    """A parameter value checked for its kind: a known name, a finite non-negative number, a
    restitution in [0, 1], a positive gravity; the error names ``where`` and ``key``."""
    if name not in PARAM_DEFAULTS:
        raise CourtError(f"{where}: {key}: unknown parameter (allowed: {', '.join(sorted(PARAM_DEFAULTS))})")
    if name == "spin_model":
        if value not in SPIN_MODELS:
            raise CourtError(f"{where}: {key}: must be one of {', '.join(SPIN_MODELS)} (got {shown(value)})")
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # NumPy's numbers are Real too
        raise CourtError(f"{where}: {key}: must be a number (got {shown(value)})")
    value = float(value)
    if name in YIELD_SPEED_PARAMS:
        if math.isnan(value) or value <= 0:
            raise CourtError(
                f"{where}: {key}: a yield speed must be positive, in m/s (inf: a constant restitution) (got {value!r})"
            )
        return value
    if not math.isfinite(value):
        raise CourtError(f"{where}: {key}: must be finite (got {shown(value)})")
    if value < 0 and name not in SIGNED_PARAMS:
        raise CourtError(f"{where}: {key}: must not be negative (got {shown(value)})")
    if name in UNIT_INTERVAL_PARAMS and value > 1:
        raise CourtError(f"{where}: {key}: a restitution must lie in [0, 1] (got {shown(value)})")
    if name == "gravity" and value == 0:
        raise CourtError(f"{where}: {key}: must be positive (got {shown(value)})")
    if name == "contact_inner_ratio" and value >= 1:
        raise CourtError(
            f"{where}: {key}: the contact annulus's inner over outer radius must lie in [0, 1) (got {shown(value)})"
        )
    if name == "inertia_ratio" and not 0 < value <= 1:
        raise CourtError(f"{where}: {key}: I / (m r^2) must lie in (0, 1] (got {shown(value)})")
    return value


def check_number_param(key: str, name: str, value: Any, where: str) -> float:
    """``check_param`` for a parameter whose value is a number (every one but ``spin_model``)."""
    checked = check_param(key, name, value, where)
    assert isinstance(checked, float), f"{name} is not a numeric parameter"
    return checked


def inertia_window(eta: float) -> tuple[float, float]:
    """The inertia ratios k = I / (m r^2) for which speed and spin end together at a finite eps*.

    From the ends of the eps equation: near eps = 0, F ~ eps / (1 + eta) and T -> 2 (1 + eta +
    eta^2) / (3 (1 + eta)); at large eps, F -> 1 and T ~ (1 + eta^2) / (4 eps). Below the window
    eps runs to infinity, above it to zero (Weidman and Malhotra's terminal regimes).
    """
    return (1.0 + eta * eta) / 4.0, 2.0 * (1.0 + eta + eta * eta) / 3.0


def check_spin_params(params: dict, where: str, prefix: str) -> None:
    """The coupled model needs speed and spin to end together: the inertia ratio inside the window of
    Weidman and Malhotra for the contact annulus (``inertia_window``)."""
    if params["spin_model"] != "coupled":
        return
    lo, hi = inertia_window(params["contact_inner_ratio"])
    k = params["inertia_ratio"]
    if not lo < k < hi:
        raise CourtError(
            f"{where}: {prefix}.inertia_ratio: with spin_model 'coupled' and contact_inner_ratio "
            f"{shown(params['contact_inner_ratio'])} it must lie in ({lo:.6g}, {hi:.6g}), where sliding and "
            f"spin end together (got {shown(k)})"
        )
