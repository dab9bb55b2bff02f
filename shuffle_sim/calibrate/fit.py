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
* Under the speed law mu + mu_speed v (``law="speed"``, ``court.friction_law``) a shot of time T
  no longer slides g mu T^2 / 2: shots of different lengths tell mu_speed from mu, shots all of one
  length cannot (a singular fit, said so). A graded slide under that law has no closed
  form, so its grade is held at 0 and the fit says so; its model is the flat court's
  (``forward.slide_distance``, ``forward.stop_times``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from shuffle_sim.calibrate.forward import rest_and_time, slide_distance, stop_times
from shuffle_sim.calibrate.least_squares import covariance, levenberg_marquardt
from shuffle_sim.calibrate.shots_csv import CalibrationError, MeasuredShots
from shuffle_sim.court.speed import speed_for_mu

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
    law: str = "coulomb"  # or "speed": mu + mu_speed v
    mu_speed: float = 0.0  # s/m
    mu_speed_sd: float | None = None  # None under Coulomb (held at 0)
    chi2: float = math.nan  # of the residuals divided by the stated errors
    dof: int = 0
    residuals: tuple[tuple[int, float, float, float], ...] = ()  # per shot: row, rest dx, dy (m), time (s; NaN untimed)

    @property
    def chi2_dof(self) -> float:
        return self.chi2 / self.dof if self.dof > 0 else math.nan

    def to_dict(self) -> dict:
        """The fit as JSON data: the law, mu, mu_sd, mu_speed, mu_speed_sd, speed, speed_sd, chi2_dof,
        the residuals per shot and, when a grade was fitted, slope and slope_sd."""
        out: dict[str, object] = {
            "law": self.law,
            "mu": self.mu,
            "mu_sd": self.mu_sd,
            "mu_speed": self.mu_speed,
            "mu_speed_sd": self.mu_speed_sd,
            "speed": self.speed,
            "speed_sd": self.speed_sd,
        }
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
            chi2_dof=None if math.isnan(self.chi2_dof) else self.chi2_dof,
            residuals=[
                {"row": row, "rest_dx": dx, "rest_dy": dy, "time": None if math.isnan(dt) else dt}
                for row, dx, dy, dt in self.residuals
            ],
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
        speed_law: bool = False,
    ):
        self.shots = shots
        self.speed_law = speed_law
        self.n_law = 2 if speed_law else 1  # mu, and mu_speed under the speed law
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
        k = self.n_law
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

    def mu_speed(self, p: np.ndarray) -> float:
        return float(p[1]) if self.speed_law else 0.0

    def residuals(self, p: np.ndarray) -> np.ndarray:
        mu, slope, v0, direction = self.split(p)
        s = self.shots
        if self.speed_law:
            rx, ry, t = flat_rest_and_time(s.start_x, s.start_y, direction, v0, mu, self.mu_speed(p), self.gravity)
        else:
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
        law = [mu0, 0.0] if self.speed_law else [mu0]
        return np.concatenate([law, np.zeros(self.n_slope), v0, rest_direction[self.free_direction]])

    def steps(self, p: np.ndarray) -> np.ndarray:
        """Finite-difference steps per parameter: relative to its scale."""
        mu = abs(p[0])
        h = np.empty_like(p)
        h[0] = 1e-6 * mu
        if self.speed_law:
            h[1] = 1e-6 * (abs(p[1]) + mu)  # mu_speed's scale: mu per 1 m/s
        first = self.n_law
        h[first : first + self.n_slope] = 1e-6 * mu
        n = len(self.shots)
        first += self.n_slope
        h[first : first + n] = 1e-7 * np.maximum(np.abs(p[first : first + n]), 1e-3)
        h[first + n :] = 1e-7
        return h


def flat_rest_and_time(start_x, start_y, direction, v0, mu: float, mu_speed: float, gravity: float):
    """Rest and sliding time of discs without spin on a flat court under mu + ``mu_speed`` v: the
    slide's stop (``forward.stop_times``, ``forward.slide_distance``) along ``direction``; NaN for a
    friction that is not positive."""
    if not mu > 0:
        nan = np.full(np.shape(start_x), np.nan)
        return nan, nan.copy(), nan.copy()
    c, k = mu * gravity, mu_speed * gravity
    time = stop_times(v0, c, k)
    reach = slide_distance(time, v0, c, k)
    return start_x + reach * np.sin(direction), start_y + reach * np.cos(direction), time


def fit_court(
    shots: MeasuredShots,
    gravity: float,
    course_length: float | None = None,
    position_sd: float = POSITION_SD,
    time_sd: float = TIME_SD,
    law: str = "coulomb",
    grade: bool = True,
) -> CourtFit:
    """Fit mu (and mu_speed under ``law="speed"``), the speed over a course of ``course_length``
    metres (None: no speed) and, with ``grade``, the grade to ``shots``; ``CalibrationError`` when
    no shot has a time (nothing fixes mu)."""
    _check_fit_input(shots, position_sd, time_sd)
    if law not in ("coulomb", "speed"):
        raise CalibrationError(f"friction: unknown law {law!r} (laws: coulomb, speed, or auto)")
    speed_law = law == "speed"
    axis, along, across, notes = _grade_components(shots)
    if not grade:
        along = across = False
        notes = ["the grade is held at 0 (not asked for)"]
    elif speed_law and (along or across):
        along = across = False
        notes.append(
            "under the speed law a graded slide has no closed form, so the grade is held at 0 (fit it under coulomb)"
        )
    model, p, r, cov, along, across = _fit_resolved(
        shots, gravity, axis, along, across, position_sd, time_sd, notes, speed_law
    )
    if cov is None:
        what = "mu and mu_speed (their lengths span too little to tell them apart)" if speed_law else "mu"
        raise CalibrationError(f"{shots.source}: the shots cannot fix {what} (their fit is singular)")
    mu, slope, _, _ = model.split(p)
    if not mu > 0:
        raise CalibrationError(f"{shots.source}: the fit gives mu = {mu:.4g}, not a sliding friction")
    mu_sd = math.sqrt(cov[0, 0])
    mu_speed = model.mu_speed(p)
    speed = speed_sd = None
    if course_length is not None and not speed_law:
        speed = math.sqrt(2.0 * course_length / (mu * gravity))
        speed_sd = speed * mu_sd / (2.0 * mu)
    elif course_length is not None:
        speed, speed_sd = law_speed(mu, mu_speed, cov[:2, :2], course_length, gravity)
    slope_out, slope_sd = _grade_in_court_frame(model, cov, slope, along, across)
    n = len(shots)
    position_res = r[: 2 * n] * position_sd
    time_res = r[2 * n :] * time_sd
    time_per_shot = np.full(n, np.nan)
    time_per_shot[shots.timed] = time_res
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
        law=law,
        mu_speed=mu_speed,
        mu_speed_sd=math.sqrt(cov[1, 1]) if speed_law else None,
        chi2=float(r @ r),
        dof=int(r.size - p.size),
        residuals=tuple(
            (int(row), float(dx), float(dy), float(dt))
            for row, dx, dy, dt in zip(shots.rows, position_res[:n], position_res[n:], time_per_shot)
        ),
    )


def law_speed(mu: float, mu_speed: float, cov: np.ndarray, length: float, gravity: float) -> tuple[float, float]:
    """A court's speed in seconds over a course of ``length`` metres under mu + mu_speed v, and its
    standard error by the delta method from the covariance of (mu, mu_speed) (the gradient by
    central differences)."""
    speed = speed_for_mu(mu, length, gravity, mu_speed)
    h_mu, h_speed = 1e-6 * mu, 1e-6 * (abs(mu_speed) + mu)

    def at(m: float, s: float) -> float:
        return speed_for_mu(m, length, gravity, s)

    grad = np.array(
        [
            (at(mu + h_mu, mu_speed) - at(mu - h_mu, mu_speed)) / (2 * h_mu),
            (at(mu, mu_speed + h_speed) - at(mu, mu_speed - h_speed)) / (2 * h_speed),
        ]
    )
    return speed, math.sqrt(max(float(grad @ cov @ grad), 0.0))


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


def _fit_resolved(
    shots: MeasuredShots,
    gravity: float,
    axis: np.ndarray,
    along: bool,
    across: bool,
    position_sd: float,
    time_sd: float,
    notes: list[str],
    speed_law: bool = False,
) -> tuple:
    """The least-squares fit with the grade components the data can resolve: a component whose fit is
    singular is held at 0 (across first) and a note says so. Returns the model, its parameters, the
    residuals, their covariance (None when mu itself is not fixed) and the components fitted."""
    while True:
        model = _Model(shots, gravity, axis, along, across, position_sd, time_sd, speed_law)
        p, jac = levenberg_marquardt(model, model.start())
        r = model.residuals(p)
        cov = covariance(jac, r, p.size)
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
        first = model.n_law
        block = cov[first : first + model.n_slope, first : first + model.n_slope]
        frame_cov = basis @ block @ basis.T
        slope_out = (float(slope[0]), float(slope[1]))
        touched = np.any(basis != 0.0, axis=1)  # court components the fitted ones move
        sd_along, sd_across = (math.sqrt(max(frame_cov[i, i], 0.0)) if touched[i] else None for i in range(2))
        slope_sd = (sd_along, sd_across)
    return slope_out, slope_sd
