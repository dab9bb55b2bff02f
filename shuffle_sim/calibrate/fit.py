"""Fit a court's friction, speed and grade to measured shots: least squares with standard errors.

Unknowns: the sliding friction mu, the grade (``slope``, as far as the shots can tell it), and per
shot its launch speed and, for a shot without an aim point, its direction. Data: each shot's rest
(x and y) and, where measured, its sliding time. The model is ``forward.rest_and_time``. The
residuals are weighted by the measurement errors (``position_sd`` m, ``time_sd`` s) and minimised by
Levenberg-Marquardt; the covariance is the Gauss-Newton one at the minimum, (J^T J)^-1 scaled by the
residual variance chi^2 / (n - p) (Bates and Watts, *Nonlinear Regression Analysis*, 1988), and the
standard errors are its diagonal. The speed's follows by the delta method, t = sqrt(2 d / (mu g)):
sd_t = t sd_mu / (2 mu).

What the shots can tell:

* mu needs times: a rest alone fixes v0^2 / mu, not mu. Without any time there is no fit.
* A grade along the shots changes a shot's deceleration to mu - s (down) or mu + s (up): shots all
  one way measure mu + s only. Shots from both ends tell the two apart; otherwise the grade along is
  not fitted (held at 0, so mu absorbs it) and the fit says so.
* A grade across the shots bends them sideways by about s d / mu: only an aim point shows the bend.
  Without one the grade across is not fitted, and the fit says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from shuffle_sim.calibrate.forward import rest_and_time
from shuffle_sim.calibrate.shots_csv import CalibrationError, MeasuredShots

#: Default measurement errors: a rest measured with a tape to about a centimetre, a stopwatch time
#: to about a tenth of a second (a hand's reaction).
POSITION_SD = 0.01
TIME_SD = 0.1
#: |cos| of a timed shot's angle to the shots' axis above which it counts as going one way or the other.
ONE_WAY = 0.5


@dataclass(frozen=True)
class CourtFit:
    """A fitted court: mu, its speed over the court's speed course, and the grade (where fitted)."""

    mu: float
    mu_sd: float
    speed: float | None  # seconds over the court's speed course; None without one
    speed_sd: float | None
    slope: tuple[float, float] | None  # None when no grade was fitted
    slope_sd: tuple[float | None, float | None] | None  # None for a court component held at 0
    axis: tuple[float, float]  # the shots' axis: the grade "along" is along it
    along_fitted: bool
    across_fitted: bool
    shots: int
    timed: int
    aimed: int
    rms_position: float  # m
    rms_time: float  # s (NaN without times)
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        """The fit as JSON data: mu, mu_sd, speed, speed_sd and, when a grade was fitted, slope and slope_sd."""
        out: dict[str, object] = {"mu": self.mu, "mu_sd": self.mu_sd, "speed": self.speed, "speed_sd": self.speed_sd}
        if self.slope is not None:
            assert self.slope_sd is not None, "a fitted grade has its standard deviations"
            out.update(
                slope=list(self.slope),
                slope_sd=list(self.slope_sd),
                slope_fitted={"axis": list(self.axis), "along": self.along_fitted, "across": self.across_fitted},
            )
        out.update(
            shots=self.shots,
            timed=self.timed,
            aimed=self.aimed,
            rms_position=self.rms_position,
            rms_time=None if math.isnan(self.rms_time) else self.rms_time,
            notes=list(self.notes),
        )
        return out


def shot_directions(shots: MeasuredShots) -> np.ndarray:
    """Each shot's direction (radians from +y toward +x): toward its aim point, else toward its rest."""
    toward_x = np.where(shots.aimed, shots.aim_x, shots.rest_x) - shots.start_x
    toward_y = np.where(shots.aimed, shots.aim_y, shots.rest_y) - shots.start_y
    return np.arctan2(toward_x, toward_y)


#: A shots' axis within this angle (radians) of a court axis is taken as that axis, so that the grade
#: along and across are the court frame's components (a deck's shots run along y, give or take aim).
SNAP = math.radians(3.0)


def shots_axis(directions: np.ndarray) -> np.ndarray:
    """The shots' axis: the principal direction of their unit vectors, up to sign (+y-ish first),
    snapped to the court's y or x axis when within ``SNAP`` of it."""
    u = np.column_stack([np.sin(directions), np.cos(directions)])
    values, vectors = np.linalg.eigh(u.T @ u)
    axis = vectors[:, np.argmax(values)]
    if axis[1] < 0 or (axis[1] == 0 and axis[0] < 0):
        axis = -axis
    if abs(axis[0]) <= math.sin(SNAP):
        return np.array([0.0, 1.0])
    if abs(axis[1]) <= math.sin(SNAP):
        return np.array([1.0, 0.0])
    return axis


class _Model:
    """The parameter vector and the weighted residuals of one fit set-up."""

    def __init__(
        self,
        shots: MeasuredShots,
        gravity: float,
        axis: np.ndarray,
        along: bool,
        across: bool,
        position_sd: float,
        time_sd: float,
    ):
        self.shots = shots
        self.gravity = gravity
        self.axis = axis
        self.normal = np.array([-axis[1], axis[0]])
        self.along = along
        self.across = across
        self.position_sd = position_sd
        self.time_sd = time_sd
        self.free_direction = np.flatnonzero(~shots.aimed)
        self.direction = shot_directions(shots)
        self.n_slope = int(along) + int(across)

    def split(self, p: np.ndarray):
        n = len(self.shots)
        mu = p[0]
        k = 1
        s_along = s_across = 0.0
        if self.along:
            s_along = p[k]
            k += 1
        if self.across:
            s_across = p[k]
            k += 1
        v0 = p[k : k + n]
        direction = self.direction.copy()
        direction[self.free_direction] = p[k + n :]
        slope = s_along * self.axis + s_across * self.normal
        return mu, slope, v0, direction

    def residuals(self, p: np.ndarray) -> np.ndarray:
        mu, slope, v0, direction = self.split(p)
        s = self.shots
        rx, ry, t = rest_and_time(s.start_x, s.start_y, direction, v0, mu, slope[0], slope[1], self.gravity)
        timed = s.timed
        return np.concatenate(
            [
                (rx - s.rest_x) / self.position_sd,
                (ry - s.rest_y) / self.position_sd,
                (t[timed] - s.time[timed]) / self.time_sd,
            ]
        )

    def start(self) -> np.ndarray:
        s = self.shots
        timed = s.timed
        mu0 = float(np.median(2.0 * s.distance[timed] / (self.gravity * s.time[timed] ** 2)))
        v0 = np.where(
            timed, 2.0 * s.distance / np.where(timed, s.time, 1.0), np.sqrt(2.0 * mu0 * self.gravity * s.distance)
        )
        rest_direction = np.arctan2(s.rest_x - s.start_x, s.rest_y - s.start_y)
        return np.concatenate([[mu0], np.zeros(self.n_slope), v0, rest_direction[self.free_direction]])

    def steps(self, p: np.ndarray) -> np.ndarray:
        """Finite-difference steps per parameter: relative to its scale."""
        mu = abs(p[0])
        h = np.empty_like(p)
        h[0] = 1e-6 * mu
        h[1 : 1 + self.n_slope] = 1e-6 * mu
        n = len(self.shots)
        h[1 + self.n_slope : 1 + self.n_slope + n] = 1e-7 * np.maximum(
            np.abs(p[1 + self.n_slope : 1 + self.n_slope + n]), 1e-3
        )
        h[1 + self.n_slope + n :] = 1e-7
        return h


def _jacobian(model: _Model, p: np.ndarray) -> np.ndarray:
    h = model.steps(p)
    columns = []
    for j in range(p.size):
        up, down = p.copy(), p.copy()
        up[j] += h[j]
        down[j] -= h[j]
        columns.append((model.residuals(up) - model.residuals(down)) / (2.0 * h[j]))
    return np.column_stack(columns)


def _least_squares(model: _Model, p: np.ndarray, max_iterations: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Levenberg-Marquardt (Marquardt's scaling by the diagonal of J^T J): the minimum and J there."""
    r = model.residuals(p)
    cost = float(r @ r)
    lam = 1e-3
    jac = _jacobian(model, p)
    for _ in range(max_iterations):
        jtj = jac.T @ jac
        grad = jac.T @ r
        diag = np.maximum(np.diag(jtj), 1e-300)
        improved = False
        for _ in range(30):
            try:
                step = np.linalg.solve(jtj + lam * np.diag(diag), -grad)
            except np.linalg.LinAlgError:
                lam *= 10.0
                continue
            trial = p + step
            r_trial = model.residuals(trial)
            cost_trial = float(r_trial @ r_trial) if np.all(np.isfinite(r_trial)) else math.inf
            if cost_trial < cost:
                improved = True
                break
            lam *= 4.0
        if not improved:
            break
        small = np.all(np.abs(step) <= 1e-12 * np.maximum(np.abs(p), model.steps(p) * 1e6))
        done = small or cost - cost_trial <= 1e-14 * cost
        p, r, cost = trial, r_trial, cost_trial
        lam = max(lam / 3.0, 1e-12)
        jac = _jacobian(model, p)
        if done:
            break
    return p, jac


def _covariance(jac: np.ndarray, residuals: np.ndarray, n_params: int) -> np.ndarray | None:
    """(J^T J)^-1 times the residual variance; None when J^T J is singular (a parameter the data
    cannot tell from the others)."""
    scale = np.sqrt(np.sum(jac * jac, axis=0))
    if np.any(scale == 0):
        return None
    scaled = jac / scale
    singular = np.linalg.svd(scaled, compute_uv=False)
    if singular[-1] <= 1e-10 * singular[0]:
        return None
    inverse = np.linalg.inv(scaled.T @ scaled) / np.outer(scale, scale)
    dof = residuals.size - n_params
    variance = float(residuals @ residuals) / dof if dof > 0 else 1.0
    return inverse * variance


def fit_court(
    shots: MeasuredShots,
    gravity: float,
    course_length: float | None = None,
    position_sd: float = POSITION_SD,
    time_sd: float = TIME_SD,
) -> CourtFit:
    """Fit mu, the speed over a course of ``course_length`` metres (None: no speed) and the grade to
    ``shots``; ``CalibrationError`` when no shot has a time (nothing fixes mu)."""
    _check_fit_input(shots, position_sd, time_sd)
    axis, along, across, notes = _grade_components(shots)

    def model_for(along: bool, across: bool) -> _Model:
        return _Model(shots, gravity, axis, along, across, position_sd, time_sd)

    model, p, r, cov, along, across = _fit_resolved(model_for, along, across, notes)
    if cov is None:
        raise CalibrationError(f"{shots.source}: the shots cannot fix mu (their fit is singular)")
    mu, slope, _, _ = model.split(p)
    if not mu > 0:
        raise CalibrationError(f"{shots.source}: the fit gives mu = {mu:.4g}, not a sliding friction")
    mu_sd = math.sqrt(cov[0, 0])
    speed = speed_sd = None
    if course_length is not None:
        speed = math.sqrt(2.0 * course_length / (mu * gravity))
        speed_sd = speed * mu_sd / (2.0 * mu)
    slope_out, slope_sd = _grade_in_court_frame(model, cov, slope, along, across)
    n = len(shots)
    position_res = r[: 2 * n] * position_sd
    time_res = r[2 * n :] * time_sd
    return CourtFit(
        mu=float(mu),
        mu_sd=mu_sd,
        speed=speed,
        speed_sd=speed_sd,
        slope=slope_out,
        slope_sd=slope_sd,
        axis=(float(axis[0]), float(axis[1])),
        along_fitted=along,
        across_fitted=across,
        shots=n,
        timed=int(shots.timed.sum()),
        aimed=int(shots.aimed.sum()),
        rms_position=float(np.sqrt(np.mean(position_res[:n] ** 2 + position_res[n:] ** 2))),
        rms_time=float(np.sqrt(np.mean(time_res**2))) if time_res.size else math.nan,
        notes=tuple(notes),
    )


def _check_fit_input(shots: MeasuredShots, position_sd: float, time_sd: float) -> None:
    """``CalibrationError`` when no shot has a time (nothing fixes mu) or an error scale is not positive."""
    if not shots.timed.any():
        raise CalibrationError(
            f"{shots.source}: time: no shot has a time; start and rest alone do not fix the "
            "launch speed, so mu cannot be fitted (add a time column: the sliding seconds)"
        )
    for name, value in (("position_sd", position_sd), ("time_sd", time_sd)):
        if not (math.isfinite(value) and value > 0):
            raise CalibrationError(f"{name}: must be a positive number (got {value!r})")


def _grade_components(shots: MeasuredShots) -> tuple[np.ndarray, bool, bool, list[str]]:
    """The shots' axis, whether a grade along it and across it can be fitted (timed shots both ways
    along it; aim points across it), and notes saying why a component is not."""
    directions = shot_directions(shots)
    axis = shots_axis(directions)
    notes = []
    along_cos = np.sin(directions) * axis[0] + np.cos(directions) * axis[1]
    timed = shots.timed
    along = bool(np.any(along_cos[timed] > ONE_WAY) and np.any(along_cos[timed] < -ONE_WAY))
    if not along:
        way = "+" if np.all(along_cos[timed] >= 0) else "-"
        notes.append(
            f"all timed shots go one way along the shots' axis ({way}[{axis[0]:.3g}, {axis[1]:.3g}]): a "
            "grade along it cannot be told from friction, so none is fitted and mu includes it; shots "
            "from both ends tell them apart"
        )
    across = bool(shots.aimed.any())
    if not across:
        notes.append(
            "no shot gives an aim point (aim_x, aim_y): the sideways drift, and so a grade across the "
            "shots, cannot be measured; none is fitted"
        )
    return axis, along, across, notes


def _fit_resolved(model_for: Callable[[bool, bool], _Model], along: bool, across: bool, notes: list[str]) -> tuple:
    """The least-squares fit with the grade components the data can resolve (``model_for(along,
    across)``: the fit set-up with those components): a component whose fit is singular is held at 0
    (across first) and a note says so. Returns the model, its parameters, the residuals, their
    covariance (None when mu itself is not fixed) and the components fitted."""
    while True:
        model = model_for(along, across)
        p, jac = _least_squares(model, model.start())
        r = model.residuals(p)
        cov = _covariance(jac, r, p.size)
        if cov is not None or not (along or across):
            break
        # The data cannot separate a grade component from the rest: hold it at 0 and say so.
        if across:
            across = False
            notes.append("the shots cannot tell a grade across them from the launch directions; none is fitted")
        else:
            along = False
            notes.append("the shots cannot tell a grade along them from friction; none is fitted")
    return model, p, r, cov, along, across


def _grade_in_court_frame(model, cov: np.ndarray, slope, along: bool, across: bool) -> tuple:
    """The fitted grade in the court's frame (s_along axis + s_across normal) and its standard
    deviations, the covariance turned with it; None for a component nothing fitted."""
    slope_out: tuple[float, float] | None = None
    slope_sd: tuple[float | None, float | None] | None = None
    if along or across:
        # The grade in the court's frame: s_along axis + s_across normal, its covariance turned with it.
        basis = np.column_stack([b for b, used in ((model.axis, along), (model.normal, across)) if used])
        block = cov[1 : 1 + model.n_slope, 1 : 1 + model.n_slope]
        frame_cov = basis @ block @ basis.T
        slope_out = (float(slope[0]), float(slope[1]))
        touched = np.any(basis != 0.0, axis=1)  # court components the fitted ones move
        sd_along, sd_across = (math.sqrt(max(frame_cov[i, i], 0.0)) if touched[i] else None for i in range(2))
        slope_sd = (sd_along, sd_across)
    return slope_out, slope_sd
