"""Fit a court's friction law to measured tracks: each track's start and the shared law by least squares.

Unknowns: the law (``mu`` under Coulomb; ``mu`` and ``mu_speed`` under the speed law mu + mu_speed v,
``court.friction_law``) and, per track, where it starts (x0, y0), which way it goes (a direction,
radians from +y toward +x, as shots are aimed) and how fast (v0). Data: every tracked position. The
model is a free slide without spin on the flat court (``forward.slide_distance``): the disc moves
along a straight line and has slid s(t) after t seconds, s(t) = v0 t - c t^2 / 2 under Coulomb and
(v0 + c/k)(1 - exp(-k t))/k - (c/k) t under the speed law (c = g mu, k = g mu_speed), until it stops.
Each coordinate's residual is divided by the stated measurement error ``position_sd`` and the sum of
squares minimised by Levenberg-Marquardt (``least_squares``); standard errors follow the residuals'
scatter (chi^2 / dof), and ``chi2_dof`` says how that scatter compares with the stated error.

``fit_tracks`` fits every track; ``fit_held_out`` fits the law without one track and then only that
track's start under it, so that the track's residuals measure how well the law predicts a slide it
never saw (``law_choice``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from shuffle_sim.calibrate.forward import slide_distance
from shuffle_sim.calibrate.law_choice import MIN_ITEMS, LawChoice, choose_law
from shuffle_sim.calibrate.least_squares import covariance, levenberg_marquardt
from shuffle_sim.calibrate.shots_csv import CalibrationError
from shuffle_sim.calibrate.tracks_csv import MeasuredTracks

#: Default measurement error of a tracked position (m): a video tracker on a table seen through a
#: homography places a moving disc's centre to a millimetre or two.
TRACK_SD = 0.002
LAWS = ("coulomb", "speed")
#: Finite-difference steps: relative to a parameter's size, with these floors (m, m/s, rad).
_STEP = 1e-7


@dataclass(frozen=True)
class TrackStart:
    """A track's fitted start and how far its points lie from the fitted slide."""

    name: str
    points: int
    x0: float
    y0: float
    direction: float  # radians from +y toward +x
    v0: float  # m/s
    rms: float  # m: the root mean square of the point's distances from the model (both coordinates)
    largest: float  # m: the largest distance of a point from the model


@dataclass(frozen=True)
class TrackFit:
    """A friction law fitted to tracks: the law, its standard errors and every track's start."""

    law: str  # "coulomb" or "speed"
    mu: float
    mu_sd: float
    mu_speed: float  # s/m; 0 under Coulomb
    mu_speed_sd: float | None  # None under Coulomb (held at 0)
    covariance: tuple[tuple[float, float], tuple[float, float]]  # of (mu, mu_speed); zeros for the held one
    chi2: float
    dof: int
    position_sd: float
    starts: tuple[TrackStart, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def chi2_dof(self) -> float:
        return self.chi2 / self.dof if self.dof > 0 else math.nan

    @property
    def rms(self) -> float:
        """The root mean square distance (m) of every point from its fitted slide."""
        points = sum(s.points for s in self.starts)
        return math.sqrt(sum(s.rms**2 * s.points for s in self.starts) / points)

    @property
    def points(self) -> int:
        return sum(s.points for s in self.starts)

    @property
    def n_params(self) -> int:
        return (2 if self.law == "speed" else 1) + 4 * len(self.starts)

    def deceleration(self, speed, gravity: float):
        """The fitted law's sliding deceleration (m/s^2) at ``speed`` (m/s): g (mu + mu_speed v)."""
        return gravity * (self.mu + self.mu_speed * np.asarray(speed, dtype=np.float64))

    def residuals_table(self) -> list[dict]:
        """Per track: its name, points, rms and largest distance from the model (m), and its start."""
        return [
            {
                "track": s.name,
                "points": s.points,
                "rms": s.rms,
                "largest": s.largest,
                "start": [s.x0, s.y0],
                "direction": s.direction,
                "v0": s.v0,
            }
            for s in self.starts
        ]


class _TrackModel:
    """Parameters and weighted residuals of tracks under one law: [law..., (x0, y0, direction, v0) per
    track], or the starts alone under a ``fixed`` law (mu, mu_speed)."""

    def __init__(self, tracks: MeasuredTracks, gravity: float, law: str, position_sd: float, fixed=None):
        self.tracks = tracks
        self.gravity = gravity
        self.law = law
        self.position_sd = position_sd
        self.fixed = fixed
        self.n_law = 0 if fixed is not None else (2 if law == "speed" else 1)
        self.n_tracks = len(tracks)

    def split(self, p: np.ndarray) -> tuple[float, float, np.ndarray]:
        if self.fixed is not None:
            mu, mu_speed = self.fixed
        else:
            mu = float(p[0])
            mu_speed = float(p[1]) if self.law == "speed" else 0.0
        return mu, mu_speed, p[self.n_law :].reshape(self.n_tracks, 4)

    def model_positions(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mu, mu_speed, starts = self.split(p)
        tr = self.tracks
        x0, y0, direction, v0 = (starts[tr.track, j] for j in range(4))
        s = slide_distance(tr.time, v0, mu * self.gravity, mu_speed * self.gravity)
        return x0 + s * np.sin(direction), y0 + s * np.cos(direction)

    def residuals(self, p: np.ndarray) -> np.ndarray:
        mu, _, _ = self.split(p)
        if not mu > 0.0:
            return np.full(2 * self.tracks.points, np.inf)
        mx, my = self.model_positions(p)
        return np.concatenate([(mx - self.tracks.x) / self.position_sd, (my - self.tracks.y) / self.position_sd])

    def steps(self, p: np.ndarray) -> np.ndarray:
        h = np.empty_like(p)
        if self.n_law:
            h[0] = 1e-6 * abs(p[0])
            if self.n_law == 2:
                h[1] = 1e-6 * (abs(p[1]) + abs(p[0]))  # mu_speed's scale: mu per 1 m/s
        h[self.n_law :] = _STEP * np.maximum(np.abs(p[self.n_law :]), 1.0)
        return h

    def jacobian(self, p: np.ndarray) -> np.ndarray:
        """Central differences; a track's four numbers move only its own points, so each of the four
        is stepped on every track at once (six evaluations in all, whatever the number of tracks)."""
        h = self.steps(p)
        rows = np.concatenate([self.tracks.track, self.tracks.track])  # the track of every residual
        jac = np.zeros((rows.size, p.size))
        for j in range(self.n_law):
            up, down = p.copy(), p.copy()
            up[j] += h[j]
            down[j] -= h[j]
            jac[:, j] = (self.residuals(up) - self.residuals(down)) / (2.0 * h[j])
        for slot in range(4):
            columns = self.n_law + 4 * np.arange(self.n_tracks) + slot
            up, down = p.copy(), p.copy()
            up[columns] += h[columns]
            down[columns] -= h[columns]
            diff = (self.residuals(up) - self.residuals(down)) / (2.0 * h[columns][rows])
            jac[np.arange(rows.size), columns[rows]] = diff
        return jac

    def start(self, mu0: float | None = None) -> np.ndarray:
        """Starting values: each track's first point, its chord's direction, and v0 and the
        deceleration of a parabola s = v0 t - a t^2 / 2 through its distances along the chord."""
        tr = self.tracks
        starts, decelerations = [], []
        for k in range(self.n_tracks):
            mine = tr.track == k
            x, y, t = tr.x[mine], tr.y[mine], tr.time[mine]
            direction = math.atan2(x[-1] - x[0], y[-1] - y[0])
            along = (x - x[0]) * math.sin(direction) + (y - y[0]) * math.cos(direction)
            v0, half_a = np.linalg.lstsq(np.column_stack([t, -t * t]), along, rcond=None)[0]
            starts.append([x[0], y[0], direction, max(v0, along[-1] / max(t[-1], 1e-9))])
            decelerations.append(2.0 * half_a)
        law = []
        if self.fixed is None:
            mu = mu0 if mu0 is not None else float(np.median(decelerations)) / self.gravity
            law = [max(mu, 1e-3)] + ([0.0] if self.law == "speed" else [])
        return np.concatenate([law, np.ravel(starts)])


def _check(tracks: MeasuredTracks, law: str, position_sd: float) -> None:
    if law not in LAWS:
        raise CalibrationError(f"friction: unknown law {law!r} (laws: {', '.join(LAWS)}, or auto)")
    if not (math.isfinite(position_sd) and position_sd > 0):
        raise CalibrationError(f"position_sd: must be a positive number (got {position_sd!r})")


def fit_tracks(tracks: MeasuredTracks, gravity: float, law: str = "coulomb", position_sd: float = TRACK_SD) -> TrackFit:
    """Fit ``law`` ("coulomb" or "speed") and every track's start to ``tracks``; ``CalibrationError``
    when the tracks cannot fix the law (a singular fit, or a friction that is not positive)."""
    _check(tracks, law, position_sd)
    model = _TrackModel(tracks, gravity, law, position_sd)
    p, jac = levenberg_marquardt(model, model.start())
    r = model.residuals(p)
    cov = covariance(jac, r, p.size)
    if cov is None or not np.all(np.isfinite(r)):
        what = "mu and mu_speed (their speeds span too little to tell them apart)" if law == "speed" else "mu"
        raise CalibrationError(f"{tracks.source}: the tracks cannot fix {what}: their fit is singular")
    mu, mu_speed, _ = model.split(p)
    if not mu > 0:
        raise CalibrationError(f"{tracks.source}: the fit gives mu = {mu:.4g}, not a sliding friction")
    law_cov = np.zeros((2, 2))
    law_cov[: model.n_law, : model.n_law] = cov[: model.n_law, : model.n_law]
    return TrackFit(
        law=law,
        mu=mu,
        mu_sd=math.sqrt(cov[0, 0]),
        mu_speed=mu_speed,
        mu_speed_sd=math.sqrt(cov[1, 1]) if law == "speed" else None,
        covariance=((law_cov[0, 0], law_cov[0, 1]), (law_cov[1, 0], law_cov[1, 1])),
        chi2=float(r @ r),
        dof=int(r.size - p.size),
        position_sd=position_sd,
        starts=_starts(model, p),
    )


def fit_starts(tracks: MeasuredTracks, gravity: float, mu: float, mu_speed: float, position_sd: float) -> np.ndarray:
    """Every track's start fitted under a given law; returns the tracks' weighted residuals (x then y)."""
    law = "coulomb" if mu_speed == 0.0 else "speed"
    model = _TrackModel(tracks, gravity, law, position_sd, fixed=(mu, mu_speed))
    p, _ = levenberg_marquardt(model, model.start())
    return model.residuals(p)


def fit_held_out(
    tracks: MeasuredTracks, gravity: float, law: str, position_sd: float, held: int
) -> tuple[TrackFit, np.ndarray]:
    """The law fitted without track ``held``, and that track's distances (m) from the slide its start
    fits under that law: how well the law predicts a track it never saw."""
    others = np.array([k for k in range(len(tracks)) if k != held])
    fit = fit_tracks(tracks.subset(others), gravity, law, position_sd)
    alone = tracks.subset(np.array([held]))
    r = fit_starts(alone, gravity, fit.mu, fit.mu_speed, position_sd) * position_sd
    n = alone.points
    return fit, np.hypot(r[:n], r[n:])


def _starts(model: _TrackModel, p: np.ndarray) -> tuple[TrackStart, ...]:
    _, _, starts = model.split(p)
    mx, my = model.model_positions(p)
    tr = model.tracks
    distance = np.hypot(mx - tr.x, my - tr.y)
    out = []
    for k, name in enumerate(tr.names):
        mine = tr.track == k
        d = distance[mine]
        x0, y0, direction, v0 = (float(v) for v in starts[k])
        rms = float(np.sqrt(np.mean(d * d)))
        out.append(TrackStart(name, int(mine.sum()), x0, y0, direction, v0, rms, float(d.max())))
    return tuple(out)


def choose_track_law(
    tracks: MeasuredTracks, gravity: float, position_sd: float = TRACK_SD
) -> tuple[LawChoice, dict[str, TrackFit]]:
    """The law the tracks favour, holding out one track at a time (``law_choice``), and both laws
    fitted to every track; ``CalibrationError`` with fewer than ``MIN_ITEMS`` tracks."""
    if len(tracks) < MIN_ITEMS:
        raise CalibrationError(
            f"{tracks.source}: friction auto: {len(tracks)} tracks, fewer than the {MIN_ITEMS} it holds "
            "out one at a time; choose coulomb or speed"
        )
    fits = {law: fit_tracks(tracks, gravity, law, position_sd) for law in LAWS}

    def held_out(law: str, k: int) -> np.ndarray:
        return fit_held_out(tracks, gravity, law, position_sd, k)[1]

    criteria = {law: (f.chi2, 2 * f.points, f.n_params) for law, f in fits.items()}
    return choose_law(tracks.names, held_out, criteria, kind="track"), fits
