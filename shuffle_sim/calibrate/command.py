"""``shuffle-sim calibrate COURT SHOTS.csv [--json] [--out FILE]``: a court fitted from measured shots.

Reads the shots (``shots_csv``), fits mu, the court's speed and, where the shots allow, its grade
(``fit``), prints the fitted court (or, with ``--json``, ``mu``, ``mu_sd``, ``speed``, ``speed_sd``
and, when fitted, ``slope`` and ``slope_sd``), and with ``--out`` writes the fitted court file
(``court_file``), which loads like any other.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from shuffle_sim.calibrate.court_file import fitted_court_text
from shuffle_sim.calibrate.fit import POSITION_SD, TIME_SD, CourtFit, fit_court
from shuffle_sim.calibrate.shots_csv import read_shots
from shuffle_sim.court import load_court
from shuffle_sim.court.speed import format_speed


def calibrate(
    court_ref: str,
    shots_path: str,
    as_json: bool = False,
    out: str | None = None,
    position_sd: float = POSITION_SD,
    time_sd: float = TIME_SD,
) -> str:
    """The command's output for a court (name or path) and a shots CSV; writes ``out`` if given."""
    court = load_court(court_ref)
    gravity = court.params["gravity"]
    shots = read_shots(shots_path, gravity)
    course = court.speed_course
    fit = fit_court(shots, gravity, course.length if course is not None else None, position_sd, time_sd)
    text = fitted_court_text(
        Path(court.source_path).read_text(),
        fit,
        os.fspath(shots_path),
        path=os.fspath(out) if out else "<fitted court>",
    )
    if out:
        target = Path(out)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.tmp")
        partial.write_text(text)
        os.replace(partial, target)
    if as_json:
        data = fit.to_dict()
        data.update(
            court=court.name,
            court_file=court.source_path,
            shots_file=os.fspath(shots_path),
            out=os.fspath(out) if out else None,
        )
        return json.dumps(data)
    return describe(fit, court, os.fspath(shots_path), out)


def describe(fit: CourtFit, court, shots_path: str, out: str | None) -> str:
    """The fit in words: the fitted court, what could not be fitted and why, the residuals."""
    lines = [
        f"court {court.name} ({court.source_path}), {fit.shots} shots from {shots_path}: "
        f"{fit.timed} timed, {fit.aimed} aimed"
    ]
    lines.append(f"  mu     = {fit.mu:.5g} +- {fit.mu_sd:.2g}")
    if fit.speed is not None:
        lines.append(
            f"  speed  = {format_speed(fit.speed)} +- {fit.speed_sd:.2g} s  ({court.speed_course.description})"
        )
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
    was = court.params["mu"]
    lines.append(
        f"fitted court: mu = {fit.mu:.6g} (the file's: {was:.6g}"
        + ("" if court.speed is None else f", {format_speed(court.speed)}")
        + ")"
        + (f"; slope = [{fit.slope[0]:.6g}, {fit.slope[1]:.6g}]" if fit.slope is not None else "")
    )
    if out:
        lines.append(f"wrote {out}")
    return "\n".join(lines)
