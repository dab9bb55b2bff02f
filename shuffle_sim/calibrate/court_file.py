"""The fitted court as a court file: the original file with its friction law (and grade) replaced.

The text is edited line by line, so that the file keeps its comments, sources and layout: the
``mu`` (or ``speed``) line of ``[materials]`` becomes the fitted ``mu``, with its standard error and
speed in a comment; under the speed law a ``mu_speed`` line follows it (replacing the file's own,
which a Coulomb fit sets to 0); ``name`` and ``title`` say that the court is calibrated, and a
source names the measurements. A fitted grade goes into ``[surface]`` as ``slope = [gx, gy]`` (the
section is added when the file has none; a slope line of an earlier calibration is replaced). The
result is parsed before it is returned: what is written always loads.
"""

from __future__ import annotations

import re
import tomllib
from typing import Protocol

from shuffle_sim.calibrate.shots_csv import CalibrationError
from shuffle_sim.court import CourtError, parse_court
from shuffle_sim.court.speed import format_speed


class FittedFriction(Protocol):
    """What a court file takes from a fit (``fit.CourtFit``, ``command.TrackCourt``)."""

    law: str
    mu: float
    mu_sd: float
    mu_speed: float
    mu_speed_sd: float | None
    speed: float | None
    speed_sd: float | None
    slope: tuple[float, float] | None
    slope_sd: tuple[float | None, float | None] | None


_SECTION = re.compile(r"^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$")


def _sections(lines: list[str]) -> list[str | None]:
    """The section each line belongs to (None: the top level, before the first table)."""
    out, current = [], None
    for line in lines:
        match = _SECTION.match(line)
        if match:
            current = match.group(1).strip()
        out.append(current)
    return out


def _slope_line(fit: FittedFriction) -> str:
    assert fit.slope is not None and fit.slope_sd is not None, "only a fitted grade has a slope line"
    sd = ", ".join("held at 0" if v is None else f"{v:.2g}" for v in fit.slope_sd)
    return f"slope = [{fit.slope[0]:.6g}, {fit.slope[1]:.6g}]  # calibrated: sd [{sd}]"


def _mu_speed_line(fit: FittedFriction, source: str) -> str:
    if fit.law != "speed":
        return f"mu_speed = 0  # calibrated from {source}: Coulomb (a constant mu) fits best"
    return f"mu_speed = {fit.mu_speed:.6g}  # calibrated from {source}: sd {fit.mu_speed_sd:.2g} s/m"


def fitted_court_text(
    text: str, fit: FittedFriction, shots_source: str, path: str = "<court>", kind: str = "shots"
) -> str:
    """The court file ``text`` with the fit's law (and grade) in it, the measurements being ``kind``
    ("shots" or "tracks") read from ``shots_source``; ``CalibrationError`` if the result would not
    load or would not read back as fitted."""
    lines = text.splitlines()
    sections = _sections(lines)
    out = []
    mu_written = False
    has_mu_speed = any(
        section == "materials" and re.match(r"^\s*mu_speed\s*=", line) for line, section in zip(lines, sections)
    )
    speed = "" if fit.speed is None else f", speed {format_speed(fit.speed)} (sd {fit.speed_sd:.2g} s)"
    law = " under mu + mu_speed v" if fit.law == "speed" else ""
    for line, section in zip(lines, sections):
        if section is None and re.match(r"^\s*name\s*=", line):
            name = tomllib.loads(line)["name"]
            line = f'name = "{name}-calibrated"'
        elif section is None and re.match(r"^\s*title\s*=", line):
            title = tomllib.loads(line)["title"]
            line = f"title = {_toml_string(title + ' (calibrated)')}"
        elif section == "materials" and re.match(r"^\s*mu_speed\s*=", line):
            line = _mu_speed_line(fit, shots_source)
        elif section == "materials" and re.match(r"^\s*(mu|speed)\s*=", line):
            if mu_written:
                continue
            line = f"mu = {fit.mu:.6g}  # calibrated from {shots_source}: sd {fit.mu_sd:.2g}{speed}{law}"
            mu_written = True
            if fit.law == "speed" and not has_mu_speed:
                out.append(line)
                line = _mu_speed_line(fit, shots_source)
        elif section == "surface" and re.match(r"^\s*#?\s*slope\s*=", line):
            continue  # a slope line of an earlier calibration: replaced below
        out.append(line)
        if _SECTION.match(line) and section == "surface" and fit.slope is not None:
            out.append(_slope_line(fit))
    if fit.slope is not None and "surface" not in sections:
        out += ["", "[surface]", _slope_line(fit)]
    result = "\n".join(_with_source(out, shots_source, kind)) + "\n"
    try:
        parsed = parse_court(tomllib.loads(result), path)
    except CourtError as exc:
        raise CalibrationError(f"{path}: the fitted court does not load: {exc}") from None
    if abs(parsed.params["mu"] - float(f"{fit.mu:.6g}")) > 0:
        raise CalibrationError(f"{path}: the fitted court's mu reads back as {parsed.params['mu']!r}")
    if abs(parsed.params["mu_speed"] - float(f"{fit.mu_speed:.6g}")) > 0:
        raise CalibrationError(f"{path}: the fitted court's mu_speed reads back as {parsed.params['mu_speed']!r}")
    return result


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _with_source(lines: list[str], shots_source: str, kind: str = "shots") -> list[str]:
    """``sources`` with a line naming the calibration (added when the file has no ``sources``)."""
    if kind == "shots":
        note = f"shuffle-sim calibrate: mu (and grade) fitted to the shots of {shots_source}"
    else:
        note = f"shuffle-sim calibrate: the friction law fitted to the tracks of {shots_source}"
    for k, line in enumerate(lines):
        if re.match(r"^\s*sources\s*=\s*\[", line):
            end = k
            while "]" not in lines[end].split("#")[0]:
                end += 1
            if end == k:  # sources = ["...", "..."] on one line
                body = lines[k].split("#")[0].rstrip()
                lines[k] = body[:-1].rstrip() + f", {_toml_string(note)}]"
            else:
                body = lines[end - 1].split("#")[0].rstrip()
                if body and not body.endswith((",", "[")):
                    lines[end - 1] = body + "," + lines[end - 1][len(body) :]
                lines.insert(end, f"    {_toml_string(note)},")
            return lines
    # No sources: put one after the title (or the name).
    at = next(
        (k + 1 for k, line in enumerate(lines) if re.match(r"^\s*title\s*=", line)),
        next(k + 1 for k, line in enumerate(lines) if re.match(r"^\s*name\s*=", line)),
    )
    lines.insert(at, f"sources = [{_toml_string(note)}]")
    return lines
