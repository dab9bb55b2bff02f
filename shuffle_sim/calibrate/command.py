"""``shuffle-sim calibrate COURT DATA.csv [--friction LAW] [--json] [--out FILE]``: a court fitted
from measurements.

DATA.csv is either measured shots (start, rest, aim, time: ``shots_csv``) or tracks (``time, track,
x, y``: ``tracks_csv``), told apart by the header. The friction law (``--friction``):

* ``coulomb``: a constant mu, today's fit of shots (and their grade, where they tell it);
* ``speed``: mu + mu_speed v (``court.friction_law``), on the flat court;
* ``auto``: the law the data favour, held out one track (or timed shot) at a time (``law_choice``).

The default is ``coulomb`` for shots (a club's speed shots are all about one length, which cannot
tell the laws apart) and ``auto`` for tracks (every track spans a range of speeds).

The command prints the fitted court (or, with ``--json``, ``law``, ``mu``, ``mu_sd``, ``mu_speed``,
``mu_speed_sd``, ``speed``, ``speed_sd``, ``chi2_dof``, the residuals per shot or track, ``warnings``
and, for ``auto``, ``choice``: the law chosen, by how much and why), writes a plain warning to
standard error when the residuals lie far beyond the stated measurement errors
(``least_squares.residual_warning``), and with ``--out`` writes the fitted court file
(``court_file``), which loads like any other.
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from shuffle_sim.calibrate.court_file import fitted_court_text
from shuffle_sim.calibrate.fit import POSITION_SD, TIME_SD, CourtFit, fit_court, law_speed
from shuffle_sim.calibrate.law_choice import LawChoice
from shuffle_sim.calibrate.least_squares import residual_warning
from shuffle_sim.calibrate.shot_choice import choose_shot_law
from shuffle_sim.calibrate.shots_csv import CalibrationError, read_shots
from shuffle_sim.calibrate.track_fit import TRACK_SD, TrackFit, choose_track_law, fit_tracks
from shuffle_sim.calibrate.tracks_csv import is_tracks_header, read_tracks
from shuffle_sim.court import load_court
from shuffle_sim.court.speed import format_speed

FRICTIONS = ("coulomb", "speed", "auto")
#: The law each kind of data is fitted under unless ``--friction`` says otherwise.
DEFAULT_FRICTION = {"shots": "coulomb", "tracks": "auto"}


@dataclass(frozen=True)
class TrackCourt:
    """A law fitted to tracks, with the court's speed under it: what a court file and the output need."""

    fit: TrackFit
    speed: float | None
    speed_sd: float | None
    slope: None = None  # tracks are fitted on the flat court
    slope_sd: None = None

    @property
    def law(self) -> str:
        return self.fit.law

    @property
    def mu(self) -> float:
        return self.fit.mu

    @property
    def mu_sd(self) -> float:
        return self.fit.mu_sd

    @property
    def mu_speed(self) -> float:
        return self.fit.mu_speed

    @property
    def mu_speed_sd(self) -> float | None:
        return self.fit.mu_speed_sd


def data_kind(path: str | os.PathLike) -> str:
    """ "tracks" when the CSV file's header names a ``track`` column, else "shots"."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            header = fh.readline().split(",")
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read the measurements ({exc.strerror})") from None
    return "tracks" if is_tracks_header(header) else "shots"


def calibrate(
    court_ref: str,
    data_path: str,
    as_json: bool = False,
    out: str | None = None,
    position_sd: float | None = None,
    time_sd: float = TIME_SD,
    friction: str | None = None,
    stderr: TextIO | None = None,
) -> str:
    """The command's output for a court (name or path) and a shots or tracks CSV; writes ``out`` if
    given and each warning to ``stderr`` (standard error by default)."""
    court = load_court(court_ref)
    kind = data_kind(data_path)
    law = DEFAULT_FRICTION[kind] if friction is None else friction
    if law not in FRICTIONS:
        raise CalibrationError(f"friction: unknown law {law!r} (laws: {', '.join(FRICTIONS)})")
    if kind == "tracks":
        sd = TRACK_SD if position_sd is None else position_sd
        fitted, choice, warning = _fit_tracks(court, data_path, law, sd)
    else:
        sd = POSITION_SD if position_sd is None else position_sd
        fitted, choice, warning = _fit_shots(court, data_path, law, sd, time_sd)
    warnings = [warning] if warning else []
    try:
        text = fitted_court_text(
            Path(court.source_path).read_text(),
            fitted,
            os.fspath(data_path),
            path=os.fspath(out) if out else "<fitted court>",
            kind=kind,
        )
    except CalibrationError as exc:
        if out:
            raise
        warnings.append(str(exc))
    for line in warnings:
        print(f"warning: {line}", file=stderr if stderr is not None else sys.stderr)
    if out:
        target = Path(out)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.tmp")
        partial.write_text(text)
        os.replace(partial, target)
    if as_json:
        data = fitted.to_dict() if kind == "shots" else _tracks_dict(fitted)
        data.update(
            court=court.name,
            court_file=court.source_path,
            data=kind,
            shots_file=os.fspath(data_path),
            out=os.fspath(out) if out else None,
            warnings=warnings,
        )
        if choice is not None:
            data["choice"] = choice.to_dict()
        return json.dumps(data)
    if kind == "tracks":
        return describe_tracks(fitted, choice, court, os.fspath(data_path), out)
    return describe(fitted, court, os.fspath(data_path), out, choice)


def _fit_shots(court, data_path, law: str, position_sd: float, time_sd: float):
    gravity = court.params["gravity"]
    shots = read_shots(data_path, gravity)
    course = court.speed_course
    length = course.length if course is not None else None
    choice = None
    if law == "auto":
        choice, _ = choose_shot_law(shots, gravity, position_sd, time_sd)
        law = choice.law
    fit = fit_court(shots, gravity, length, position_sd, time_sd, law)
    errors = f"{position_sd:g} m in position, {time_sd:g} s in time"
    return fit, choice, residual_warning(fit.chi2_dof, fit.dof, errors)


def _fit_tracks(court, data_path, law: str, position_sd: float):
    gravity = court.params["gravity"]
    tracks = read_tracks(data_path)
    choice: LawChoice | None = None
    if law == "auto":
        choice, fits = choose_track_law(tracks, gravity, position_sd)
        fit = fits[choice.law]
    else:
        fit = fit_tracks(tracks, gravity, law, position_sd)
    course = court.speed_course
    speed = speed_sd = None
    if course is not None:
        speed, speed_sd = law_speed(fit.mu, fit.mu_speed, np.array(fit.covariance), course.length, gravity)
    fitted = TrackCourt(fit, speed, speed_sd)
    return fitted, choice, residual_warning(fit.chi2_dof, fit.dof, f"{position_sd:g} m in position")


def _tracks_dict(fitted: TrackCourt) -> dict:
    fit = fitted.fit
    return {
        "law": fit.law,
        "mu": fit.mu,
        "mu_sd": fit.mu_sd,
        "mu_speed": fit.mu_speed,
        "mu_speed_sd": fit.mu_speed_sd,
        "speed": fitted.speed,
        "speed_sd": fitted.speed_sd,
        "chi2_dof": None if math.isnan(fit.chi2_dof) else fit.chi2_dof,
        "position_sd": fit.position_sd,
        "tracks": len(fit.starts),
        "points": fit.points,
        "rms": fit.rms,
        "residuals": fit.residuals_table(),
        "notes": list(fit.notes),
    }


def _law_lines(fit, course_description: str | None) -> list[str]:
    lines = [f"  mu     = {fit.mu:.5g} +- {fit.mu_sd:.2g}"]
    if fit.law == "speed":
        lines[0] += "   (law: mu + mu_speed v)"
        lines.append(f"  mu_speed = {fit.mu_speed:.5g} +- {fit.mu_speed_sd:.2g} s/m")
    if fit.speed is not None:
        lines.append(f"  speed  = {format_speed(fit.speed)} +- {fit.speed_sd:.2g} s  ({course_description})")
    return lines


def describe(fit: CourtFit, court, shots_path: str, out: str | None, choice: LawChoice | None = None) -> str:
    """The fit in words: the fitted court, what could not be fitted and why, the residuals."""
    lines = [
        f"court {court.name} ({court.source_path}), {fit.shots} shots from {shots_path}: "
        f"{fit.timed} timed, {fit.aimed} aimed"
    ]
    course = court.speed_course
    lines += _law_lines(fit, course.description if course is not None else None)
    if fit.slope is not None:
        assert fit.slope_sd is not None, "a fitted grade has its standard deviations"
        sd = ", ".join("-" if v is None else f"{v:.2g}" for v in fit.slope_sd)
        lines.append(
            f"  slope  = [{fit.slope[0]:.3g}, {fit.slope[1]:.3g}] +- [{sd}]  (pulls discs along +slope; - : held at 0)"
        )
    lines.append(
        f"  residuals: rest {fit.rms_position:.3g} m rms"
        + ("" if fit.rms_time != fit.rms_time else f", time {fit.rms_time:.3g} s rms")
    )
    for note in fit.notes:
        lines.append(f"  note: {note}")
    if choice is not None:
        lines.append(f"  friction auto: {choice.reason}")
    was = court.params["mu"]
    lines.append(
        f"fitted court: mu = {fit.mu:.6g} (the file's: {was:.6g}"
        + ("" if court.speed is None else f", {format_speed(court.speed)}")
        + ")"
        + (f"; mu_speed = {fit.mu_speed:.6g} s/m" if fit.law == "speed" else "")
        + (f"; slope = [{fit.slope[0]:.6g}, {fit.slope[1]:.6g}]" if fit.slope is not None else "")
    )
    if out:
        lines.append(f"wrote {out}")
    return "\n".join(lines)


def describe_tracks(fitted: TrackCourt, choice: LawChoice | None, court, path: str, out: str | None) -> str:
    """A fit to tracks in words: the law, the residuals per track, and why the law was chosen."""
    fit = fitted.fit
    course = court.speed_course
    lines = [f"court {court.name} ({court.source_path}), {len(fit.starts)} tracks ({fit.points} points) from {path}"]
    lines += _law_lines(fitted, course.description if course is not None else None)
    lines.append(
        f"  residuals: {fit.rms * 1000:.3g} mm rms from the fitted slides (stated error "
        f"{fit.position_sd * 1000:.3g} mm a coordinate: chi2 per degree of freedom {fit.chi2_dof:.3g})"
    )
    per_track = ", ".join(f"{s.name} {s.rms * 1000:.2g}" for s in fit.starts)
    lines.append(f"  per track (mm rms): {per_track}")
    if choice is not None:
        lines.append(f"  friction auto: {choice.reason}")
    lines.append(
        f"fitted court: mu = {fit.mu:.6g}, mu_speed = {fit.mu_speed:.6g} s/m (the file's: {court.params['mu']:.6g}, "
        f"{court.params['mu_speed']:.6g} s/m)"
    )
    if out:
        lines.append(f"wrote {out}")
    return "\n".join(lines)
