"""Finding and loading court files: by name from the courts folders, or by path; validated section
by section (``sections``) into a ``Court``.

A court file is data, not code: surface outline, lines (with widths and what touching them does),
zones (with values), edges where discs fall, cushions, pegs, holes, rule lines, disc size,
materials and the speed course (what the court's speed in seconds means, ``speed``). The format is documented in
``courts/README.md``; every length is a string with a unit
("52 ft", "1 3/8 in", "0.02 m") or a plain number in metres. Errors name the file, the key and the
value (``CourtError``), so a user writing a court file can fix it without reading this module.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from shuffle_sim.court._sections import (
    CourtReader,
    check_materials_law,
    read_cushions,
    read_disc,
    read_edges,
    read_ends,
    read_frame,
    read_hangers,
    read_holes,
    read_kill_lines,
    read_lines,
    read_materials,
    read_pegs,
    read_surface,
    read_surface_shape,
    read_zones,
)
from shuffle_sim.court.errors import CourtError
from shuffle_sim.court.model import Court
from shuffle_sim.court.speed import read_speed_course
from shuffle_sim.games import CUSTOM, game_names

_TOP_KEYS = {
    "name",
    "game",
    "title",
    "sources",
    "frame",
    "disc",
    "materials",
    "surface",
    "edges",
    "cushions",
    "pegs",
    "holes",
    "lines",
    "zones",
    "kill_lines",
    "hangers",
    "ends",
    "speed_course",
}
_REQUIRED_TOP = {"name", "game", "frame", "disc", "materials", "surface"}


def _courts_dirs() -> list[Path]:
    """Where court names are looked up, in order: the folders of ``SHUFFLE_SIM_COURTS``, the project's
    ``courts/`` (a source checkout or an editable install), and ``shuffle_sim/courts`` (a wheel)."""
    dirs: list[Path] = []
    env = os.environ.get("SHUFFLE_SIM_COURTS")
    if env:
        dirs.extend(Path(p) for p in env.split(os.pathsep) if p)
    package = Path(__file__).resolve().parents[1]
    dirs.append(package.parent / "courts")
    dirs.append(package / "courts")
    return dirs


def list_courts() -> list[str]:
    """Names of the courts that ``load_court`` finds by name (files ``courts/NAME.toml``)."""
    names: set[str] = set()
    for d in _courts_dirs():
        if d.is_dir():
            names.update(p.stem for p in d.glob("*.toml"))
    return sorted(names)


def court_path(name_or_path: str | os.PathLike) -> Path:
    """Resolve a court name (``deck``) or a path to a court file."""
    text = os.fspath(name_or_path)
    candidate = Path(text)
    if candidate.suffix == ".toml" or os.sep in text or candidate.exists():
        if not candidate.is_file():
            raise CourtError(f"{text}: no such court file")
        return candidate
    for d in _courts_dirs():
        path = d / f"{text}.toml"
        if path.is_file():
            return path
    raise CourtError(f"unknown court {text!r} (known: {', '.join(list_courts())})")


def load_court(name_or_path: str | os.PathLike, end: str | None = None) -> Court:
    """Load a court by name (``deck``, ``horse-collar``, ``ricochet``, ``crokinole``) or file path.

    ``end`` picks the scoring end for courts with more than one (deck: ``foot``, the default, or
    ``head``). Raises ``CourtError`` naming the file, the key and the value on any problem.
    """
    path = court_path(name_or_path)
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CourtError(f"{path}: not valid TOML: {exc}") from None
    court = parse_court(data, str(path))
    return court.for_end(end)


#: Courts ``as_court`` loaded by name or path, by file and its modification (a few suffice).
_LOADED: dict = {}
_LOADED_SIZE = 8


def as_court(court: Court | str | os.PathLike, end: str | None = None) -> Court:
    """``court`` as a ``Court`` at ``end``: a ``Court`` as it is (at that end), or a court name or file
    path loaded (``load_court``; ``end`` None: the file's default end). Every public function that takes a court takes
    it through this, so
    ``judge("horse-collar", ...)`` and ``judge(load_court("horse-collar"), ...)`` are the same call.

    A court loaded by name or path is kept for the next call while its file is unchanged (the same
    object, so what is packed for the kernels on it is packed once)."""
    if isinstance(court, Court):
        return court.for_end(end)
    if not isinstance(court, (str, os.PathLike)):
        raise CourtError(f"court must be a Court, a court name or a court file path (got {type(court).__name__})")
    path = court_path(court)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, end)
    loaded = _LOADED.pop(key, None)
    if loaded is None:
        loaded = load_court(path, end=end)
    _LOADED[key] = loaded  # most recent last
    while len(_LOADED) > _LOADED_SIZE:
        del _LOADED[next(iter(_LOADED))]
    return loaded


def parse_court(data: dict, path: str = "<court>") -> Court:
    """Build a ``Court`` from the parsed TOML of a court file (see ``load_court``)."""
    r = CourtReader(path)
    r.keys(data, "", _TOP_KEYS, _REQUIRED_TOP)
    name = r.string(data["name"], "name")
    game = r.string(data["game"], "game")
    known = {*game_names(), CUSTOM}
    if game not in known:
        r.fail("game", f"must be one of {', '.join(sorted(known))}", game)
    sources = data.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        r.fail("sources", "must be a list of strings", sources)

    frame = read_frame(r, data)
    disc_radius, disc_thickness, disc_mass = read_disc(r, data)
    speed_course = read_speed_course(r, data)
    params = read_materials(r, data, speed_course)
    surface_kind, surface_polygon, surface_circle = read_surface(r, data)
    check_materials_law(r, params, surface_kind, surface_polygon, surface_circle)
    surface_shape = read_surface_shape(r, data, surface_kind, surface_polygon, surface_circle, params["mu"])

    edges = read_edges(r, data)
    cushions = read_cushions(r, data, params)
    pegs = read_pegs(r, data, params)
    holes = read_holes(r, data, params)
    lines = read_lines(r, data)
    zones = read_zones(r, data)
    kill_lines = read_kill_lines(r, data, lines)
    end_value, corner_value = read_hangers(r, data)
    ends, default_end = read_ends(r, data)
    return Court(
        name=name,
        game=game,
        title=str(data.get("title", name)),
        source_path=path,
        frame=dict(frame),
        sources=tuple(sources),
        disc_radius=disc_radius,
        disc_thickness=disc_thickness,
        disc_mass=disc_mass,
        params=params,
        surface_kind=surface_kind,
        surface_polygon=surface_polygon,
        surface_circle=surface_circle,
        edges=edges,
        cushions=cushions,
        pegs=pegs,
        holes=holes,
        lines=lines,
        zones=zones,
        kill_lines=kill_lines,
        hanger_end_value=end_value,
        hanger_corner_value=corner_value,
        ends=ends,
        end=default_end,
        speed_course=speed_course,
        surface_shape=surface_shape,
    )
