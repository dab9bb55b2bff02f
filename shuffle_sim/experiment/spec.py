"""Experiment files (``experiments/*.toml``): load, validate, and describe a batch of shots.

An experiment file names a court, an optional fixed board of resting discs, the intended shot, the
parameters swept on a grid and/or drawn from distributions, an execution-noise model with a number of
samples per grid cell, the outcomes to collect and the plots to draw. The format is documented in
``experiments/README.md``. Errors name the file, the key and the value (``ExperimentError``), like
the court files' errors.

Shot parameters and their units (SI inside; lengths in files may carry units such as "36 ft"):

=========  ==========================================================================
speed      launch speed, m/s
direction  degrees from the court's +y axis, positive turning toward +x
spin       rad/s, counter-clockwise seen from above
start_x/y  start position of the shot disc (length)
target_x/y aim point (length): sets the direction from the start, and, unless a speed
           is given, the speed that stops the disc there plus ``overshoot``
skill      (grid only) names of the game's skill presets (``shuffle_sim/noise/skills.toml``)
           or ``exact``: the noise model per grid cell
court_speed (grid only) the court's speed as players rate it, a time ("5 s", "14 s":
           ``court.speed``): mu per grid cell, the court's own mu elsewhere
=========  ==========================================================================

``speed`` is the launch speed; the court's speed is ``court_speed`` on a grid and ``speed`` in
``[params]`` (a time there, never m/s).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from shuffle_sim._version import __version__
from shuffle_sim.court import Court, CourtError, court_path, load_court
from shuffle_sim.court.speed import mu_for_speed, parse_speed
from shuffle_sim.noise import EXACT, NoiseError, NoiseModel, parse_noise, skill_preset
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.court.toml_reader import TomlReader
from shuffle_sim.experiment.errors import ExperimentError


#: Parameter name -> (kind, unit shown on axes). Kinds: number (SI as written), angle (degrees in
#: files and coordinates, radians inside), length (units allowed), category (names).
PARAMETERS = {
    "speed": ("number", "m/s"),
    "direction": ("angle", "deg"),
    "spin": ("number", "rad/s"),
    "start_x": ("length", "m"),
    "start_y": ("length", "m"),
    "target_x": ("length", "m"),
    "target_y": ("length", "m"),
    "skill": ("category", ""),
    "court_speed": ("duration", "s"),
}
LONG_NAMES = {
    "speed": "launch speed",
    "direction": "direction (from +y toward +x)",
    "spin": "spin",
    "start_x": "start x",
    "start_y": "start y",
    "target_x": "aim point x",
    "target_y": "aim point y",
    "skill": "skill",
    "court_speed": "court speed (sliding time over the court's speed course)",
}

#: Outcomes: name -> (needs a board, long name for colour bars).
OUTCOMES = {
    "expected_value": (False, "expected value of the shot disc"),
    "p_value": (False, "probability of value"),
    "p_dead": (False, "probability the shot disc is dead or off"),
    "p_hanger": (False, "probability of a hanger"),
    "p_corner_hanger": (False, "probability of a corner hanger"),
    "p_holed": (False, "probability the shot disc is holed"),
    "expected_score": (True, "expected frame score of the shooter"),
    "expected_opponent_score": (True, "expected frame score of the opponent"),
    "expected_margin": (True, "expected frame margin (shooter - opponent)"),
    "p_removed": (True, "probability the board disc is removed"),
}
#: Outcomes computed as each side's sum of judged values: a frame score only in games where every
#: disc of both sides scores on its own (deck, docs/rules.md). Horse collar ("a 3 before anything
#: counts"), ricochet (closest weights only) and crokinole (the hit rule) need their rules layer.
FRAME_SCORE_OUTCOMES = ("expected_score", "expected_opponent_score", "expected_margin")
FRAME_SCORE_GAMES = frozenset({"deck"})
DEFAULT_OUTCOMES = ("expected_value", "p_value", "p_dead", "p_hanger", "p_holed")

DEFAULT_CHUNK_SIZE = 65536
MAX_SHOTS = 2**40
MAX_BOARD_DISCS = 63
#: Paired axes: at most this many combinations of their values (each pair of them keeps joint counts).
MAX_PAIRED_COMBINATIONS = 16
_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_TOP_KEYS = {"name", "title", "court", "end", "seed", "samples", "chunk_size", "params", "shot", "grid",
             "distributions", "noise", "board", "collect", "plots", "description", "paired"}
_SHOT_KEYS = {"speed", "direction", "spin", "start", "target", "overshoot", "team"}


@dataclass(frozen=True)
class Axis:
    """One grid axis: its parameter name and its values (SI, except direction in degrees; skill names)."""

    name: str
    values: np.ndarray  # float64, or object array of skill names

    @property
    def size(self) -> int:
        return len(self.values)

    @property
    def unit(self) -> str:
        return PARAMETERS[self.name][1]


@dataclass(frozen=True)
class Distribution:
    """A shot parameter drawn per shot: uniform on [a, b] or normal(mean a, sd b); SI (direction in rad)."""

    name: str
    kind: str  # "uniform" or "normal"
    a: float
    b: float


@dataclass(frozen=True)
class PlotSpec:
    """A plot to draw from the results: metric (``NAME`` or ``NAME:LABEL``) over one or two grid axes."""

    metric: str
    x: str
    y: str | None = None
    select: dict[str, Any] = field(default_factory=dict)
    file: str | None = None
    average: list[str] | None = None  # grid axes pooled (``experiment.views``)
    diff: list | None = None  # [AXIS, A, B]: the metric at AXIS = A minus at AXIS = B, with its standard error


@dataclass(frozen=True)
class Experiment:
    """A validated experiment: everything the runner needs, in SI."""

    name: str
    title: str
    source_path: str
    text: str  # the experiment file as written
    court: Court  # with the file's params applied, at the judged end
    court_text: str  # the court file as written (stored beside the results)
    end: str | None
    seed: int
    samples: int
    chunk_size: int
    shot: dict[str, Any]  # nominal speed, direction (rad), spin, start_x, start_y, target_x, target_y, overshoot
    team: str
    axes: tuple[Axis, ...]
    distributions: tuple[Distribution, ...]
    noise: NoiseModel
    board: Scene | None
    board_names: tuple[str, ...]
    outcomes: tuple[str, ...]
    records: bool
    plots: tuple[PlotSpec, ...]
    #: Grid axes compared with common random numbers: every value of these axes replays the same
    #: random executions (``experiment.pairing``); empty for an experiment without pairing.
    paired: tuple[str, ...] = ()

    @property
    def grid_shape(self) -> tuple[int, ...]:
        return tuple(a.size for a in self.axes)

    @property
    def pair_count(self) -> int:
        """How many combinations of the paired axes' values replay each random execution (1 unpaired)."""
        return int(np.prod([a.size for a in self.axes if a.name in self.paired], dtype=np.int64))

    def aligned_chunk_size(self, chunk_size: int) -> int:
        """``chunk_size`` rounded up to a whole number of paired executions (unchanged when unpaired):
        a chunk holds every combination of an execution, so that it can add up their differences."""
        count = self.pair_count
        return -(-chunk_size // count) * count

    @property
    def n_cells(self) -> int:
        return int(np.prod(self.grid_shape, dtype=np.int64)) if self.axes else 1

    @property
    def n_shots(self) -> int:
        return self.n_cells * self.samples

    def n_chunks(self, chunk_size: int | None = None) -> int:
        size = chunk_size or self.chunk_size
        return -(-self.n_shots // size)

    @property
    def uses_target(self) -> bool:
        names = {a.name for a in self.axes} | {d.name for d in self.distributions}
        return self.shot["target_x"] is not None or bool(names & {"target_x", "target_y"})

    @property
    def speed_given(self) -> bool:
        names = {a.name for a in self.axes} | {d.name for d in self.distributions}
        return self.shot["speed"] is not None or "speed" in names

    @cached_property
    def fingerprint(self) -> str:
        """A hash of everything that decides the results (experiment and court text, package version);
        taken once (every chunk of a run names it)."""
        h = hashlib.sha256()
        for part in (self.text, self.court_text, __version__):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    @cached_property
    def _courts(self) -> tuple[Court, ...]:
        for axis in self.axes:
            if axis.name == "court_speed":
                course, gravity = self.court.speed_course, self.court.params["gravity"]
                return tuple(self.court.with_params(mu=mu_for_speed(float(t), course.length, gravity))
                             for t in axis.values)
        return (self.court,)

    def courts(self) -> tuple[Court, ...]:
        """The court of each value on the court-speed axis, in its order (the court with its mu set by
        that speed), or the experiment's court alone when there is none; built once per experiment."""
        return self._courts

    def skill_models(self) -> list[NoiseModel]:
        """The noise model of each value on the skill axis (or the single model when there is none)."""
        for axis in self.axes:
            if axis.name == "skill":
                return [_skill_model(self.court.game, str(s)) for s in axis.values]
        return [self.noise]


def _skill_model(game: str, name: str) -> NoiseModel:
    if name == "exact":
        return EXACT
    return skill_preset(game, name)


class _Reader(TomlReader):
    """Reads one experiment file and raises ``ExperimentError`` naming the file, the key and the value."""

    def __init__(self, path: str):
        super().__init__(path, ExperimentError)

    def parameter(self, name: str, value: Any, key: str) -> float:
        """One value of a numeric shot parameter, in SI (direction in degrees: converted by the caller)."""
        kind = PARAMETERS[name][0]
        if kind == "length":
            return self.length(value, key)
        if kind == "duration":
            try:
                return parse_speed(value, self.path, key)
            except CourtError as exc:
                raise ExperimentError(str(exc)) from None
        number = self.number(value, key)
        if name == "speed" and number < 0:
            self.fail(key, "a speed must not be negative", value)
        return number


def _axis(r: _Reader, name: str, spec: Any, game: str) -> Axis:
    key = f"grid.{name}"
    if name not in PARAMETERS:
        r.fail(key, f"unknown shot parameter (allowed: {', '.join(PARAMETERS)})", show_value=False)
    kind = PARAMETERS[name][0]
    if kind == "category":
        if not isinstance(spec, list) or not spec or not all(isinstance(s, str) for s in spec):
            r.fail(key, "must be a non-empty list of skill names", spec)
        if len(set(spec)) != len(spec):
            r.fail(key, "skill names must not repeat", spec)
        for i, s in enumerate(spec):
            try:
                _skill_model(game, s)
            except NoiseError as exc:
                r.fail(f"{key}[{i}]", str(exc), show_value=False)
        return Axis(name, np.array(spec, dtype=object))
    if isinstance(spec, list):
        if not spec:
            r.fail(key, "needs at least one value", spec)
        values = [r.parameter(name, v, f"{key}[{i}]") for i, v in enumerate(spec)]
    else:
        spec = r.table(spec, key)
        r.keys(spec, key, {"from", "to", "steps", "values"})
        if "values" in spec:
            if set(spec) != {"values"}:
                r.fail(key, "give either values or from, to and steps", spec)
            return _axis(r, name, spec["values"], game)
        r.keys(spec, key, {"from", "to", "steps"}, {"from", "to", "steps"})
        lo = r.parameter(name, spec["from"], f"{key}.from")
        hi = r.parameter(name, spec["to"], f"{key}.to")
        steps = r.integer(spec["steps"], f"{key}.steps", 1)
        if steps == 1 and lo != hi:
            r.fail(f"{key}.steps", "one step needs from == to", steps)
        values = list(np.linspace(lo, hi, steps))
    arr = np.array(values, dtype=np.float64)
    if len(np.unique(arr)) != len(arr):
        r.fail(key, "values must not repeat", spec)
    return Axis(name, arr)


def _distribution(r: _Reader, name: str, spec: Any) -> Distribution:
    key = f"distributions.{name}"
    if name not in PARAMETERS or PARAMETERS[name][0] in ("category", "duration"):
        allowed = [p for p, (k, _) in PARAMETERS.items() if k not in ("category", "duration")]
        r.fail(key, f"unknown shot parameter (allowed: {', '.join(allowed)})", show_value=False)
    spec = r.table(spec, key)
    r.keys(spec, key, {"uniform", "normal"})
    if len(spec) != 1:
        r.fail(key, "needs exactly one of uniform = [low, high] or normal = [mean, sd]", spec)
    kind, pair = next(iter(spec.items()))
    if not isinstance(pair, list) or len(pair) != 2:
        r.fail(f"{key}.{kind}", "must be a pair [a, b]", pair)
    a = r.parameter(name, pair[0], f"{key}.{kind}[0]") if name != "speed" else r.number(pair[0], f"{key}.{kind}[0]")
    b = r.parameter(name, pair[1], f"{key}.{kind}[1]") if name != "speed" else r.number(pair[1], f"{key}.{kind}[1]")
    if kind == "uniform" and not b > a:
        r.fail(f"{key}.uniform", "needs low < high", pair)
    if kind == "normal" and not b >= 0:
        r.fail(f"{key}.normal", "needs a non-negative standard deviation", pair)
    if PARAMETERS[name][0] == "angle":
        a, b = math.radians(a), math.radians(b)
    return Distribution(name, kind, a, b)


def _paired(r: _Reader, spec: Any, axes: tuple[Axis, ...]) -> tuple[str, ...]:
    """The ``paired`` axes: grid axes, each once, with two to ``MAX_PAIRED_COMBINATIONS`` value combinations."""
    names = [a.name for a in axes]
    if not isinstance(spec, list) or not all(isinstance(s, str) for s in spec):
        r.fail("paired", "must be a list of grid axis names", spec)
    for i, name in enumerate(spec):
        if name not in names:
            r.fail(f"paired[{i}]", f"must name a grid axis ({', '.join(names) or 'the grid has none'})", name)
    if len(set(spec)) != len(spec):
        r.fail("paired", "axis names must not repeat", spec)
    if spec:
        count = int(np.prod([a.size for a in axes if a.name in spec], dtype=np.int64))
        if count < 2:
            r.fail("paired", "the paired axes need at least two values to compare", spec)
        if count > MAX_PAIRED_COMBINATIONS:
            r.fail("paired", f"the paired axes have {count} combinations of values, more than "
                             f"{MAX_PAIRED_COMBINATIONS} (each pair of them keeps joint counts)", spec)
    # In grid order, whatever order the file lists them in.
    return tuple(n for n in names if n in spec)


def _plot_average_and_diff(r: _Reader, p: dict, key: str, axes: tuple[Axis, ...], plotted: tuple,
                           select: dict) -> tuple[list[str], list | None]:
    """A ``[[plots]]`` table's ``average`` (grid axes pooled) and ``diff`` (``{ AXIS = [A, B] }``: two
    values of a grid axis to compare), checked against the grid and the plot's other axes."""
    by_name = {a.name: a for a in axes}
    average = p.get("average", [])
    if not isinstance(average, list) or not all(isinstance(a, str) for a in average):
        r.fail(f"{key}.average", "must be a list of grid axis names", average)
    for i, name in enumerate(average):
        if name not in by_name or name in plotted or name in select:
            r.fail(f"{key}.average[{i}]", "must name a grid axis that is neither plotted nor selected", name)
    if "diff" not in p:
        return list(average), None
    diff = r.table(p["diff"], f"{key}.diff")
    if len(diff) != 1:
        r.fail(f"{key}.diff", "must name one grid axis and two of its values, e.g. { spin = [20, 0] }", diff)
    name, pair = next(iter(diff.items()))
    where = f"{key}.diff.{name}"
    if name not in by_name or name in plotted or name in select or name in average:
        r.fail(where, "must name a grid axis that is not plotted, selected or averaged", pair)
    if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
        r.fail(where, "must be two different values of the axis [A, B]", pair)
    known = by_name[name].values.tolist()
    values = []
    for i, value in enumerate(pair):
        if name != "skill":  # numbers in the file's units (lengths may carry theirs), matched in SI
            value = r.parameter(name, value, f"{where}[{i}]")
            value = next((k for k in known if math.isclose(value, k, rel_tol=1e-12, abs_tol=1e-12)), value)
        if value not in known:
            r.fail(where, f"{value!r} is not a value of grid axis {name} ({', '.join(map(str, known))})", pair)
        values.append(value)
    return list(average), [name, *values]


def _metric_parts(metric: str) -> tuple[str, str | None]:
    name, _, label = metric.partition(":")
    return name, (label or None)


def check_metric(metric: str, outcomes: tuple[str, ...], board_names: tuple[str, ...], where: str) -> None:
    """Raise ``ExperimentError`` unless ``metric`` names a collected outcome (``p_value:10``, ``p_removed:target``)."""
    name, label = _metric_parts(metric)
    if name not in outcomes:
        raise ExperimentError(f"{where}: metric {metric!r} is not collected (outcomes: {', '.join(outcomes)})")
    if name in ("p_value", "p_removed") and label is None:
        hint = "p_value:10" if name == "p_value" else f"p_removed:{board_names[0] if board_names else 'NAME'}"
        raise ExperimentError(f"{where}: metric {name!r} needs a label, e.g. {hint!r}")
    if name == "p_value" and label is not None:
        try:
            int(label)
        except ValueError:
            raise ExperimentError(f"{where}: metric {metric!r}: the value after ':' must be an integer") from None
    if name == "p_removed" and label not in board_names:
        raise ExperimentError(f"{where}: metric {metric!r}: no board disc named {label!r} "
                              f"(board discs: {', '.join(board_names)})")
    if name not in ("p_value", "p_removed") and label is not None:
        raise ExperimentError(f"{where}: metric {metric!r}: only p_value and p_removed take a ':' label")


def load_experiment(path: str | os.PathLike) -> Experiment:
    """Load and validate an experiment file; raises ``ExperimentError`` naming the file, key and value."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise ExperimentError(f"{path}: cannot read experiment file ({exc.strerror})") from None
    return parse_experiment(text, str(path), base_dir=path.parent)


def parse_experiment(text: str, path: str = "<experiment>", base_dir: str | os.PathLike | None = None) -> Experiment:
    """Build an ``Experiment`` from the text of an experiment file (court paths relative to ``base_dir``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"{path}: not valid TOML: {exc}") from None
    r = _Reader(path)
    r.keys(data, "", _TOP_KEYS, {"name", "court"})

    name = r.string(data["name"], "name")
    if not _NAME_PATTERN.match(name):
        r.fail("name", "must be letters, digits, '-', '_' or '.' (it names the results folder)", name)
    title = data.get("title", name)
    if not isinstance(title, str):
        r.fail("title", "must be a string", title)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        r.fail("seed", "must be an integer in [0, 2**64)", seed)
    samples = r.integer(data.get("samples", 1), "samples", 1)
    chunk_size = r.integer(data.get("chunk_size", DEFAULT_CHUNK_SIZE), "chunk_size", 1)

    # ---- court ------------------------------------------------------------------------------------
    court_ref = r.string(data["court"], "court")
    if base_dir is not None and (court_ref.endswith(".toml") or os.sep in court_ref):
        candidate = Path(base_dir) / court_ref
        if candidate.is_file():
            court_ref = str(candidate)
    end = data.get("end")
    if end is not None:
        end = r.string(end, "end")
    try:
        cpath = court_path(court_ref)
        court = load_court(cpath, end=end)
        params = r.table(data.get("params", {}), "params")
        court = court.with_params(**params)
        court_text = Path(cpath).read_text()
    except CourtError as exc:
        raise ExperimentError(f"{path}: court: {exc}") from None

    # ---- intended shot ----------------------------------------------------------------------------
    shot_table = r.table(data.get("shot", {}), "shot")
    r.keys(shot_table, "shot", _SHOT_KEYS, {"start"})
    start_x, start_y = r.point(shot_table["start"], "shot.start")
    target_x = target_y = None
    if "target" in shot_table:
        target_x, target_y = r.point(shot_table["target"], "shot.target")
    shot = {
        "speed": r.parameter("speed", shot_table["speed"], "shot.speed") if "speed" in shot_table else None,
        "direction": math.radians(r.number(shot_table["direction"], "shot.direction")) if "direction" in shot_table else None,
        "spin": r.number(shot_table.get("spin", 0.0), "shot.spin"),
        "start_x": start_x,
        "start_y": start_y,
        "target_x": target_x,
        "target_y": target_y,
        "overshoot": r.length(shot_table.get("overshoot", 0.0), "shot.overshoot"),
    }
    team = r.string(shot_table.get("team", "A"), "shot.team")

    # ---- grid and distributions -------------------------------------------------------------------
    grid = r.table(data.get("grid", {}), "grid")
    axes = tuple(_axis(r, k, v, court.game) for k, v in grid.items())
    if "court_speed" in grid:
        if court.speed_course is None:
            r.fail("grid.court_speed", f"court {court.name!r} has no [speed_course], so its speed in seconds means "
                                       "nothing", show_value=False)
        for key in ("speed", "mu"):
            if key in params:
                r.fail(f"params.{key}", "the grid's court_speed axis sets the court's speed per cell; remove "
                                        f"params.{key} or the axis", params[key])
    dists_table = r.table(data.get("distributions", {}), "distributions")
    distributions = tuple(_distribution(r, k, v) for k, v in dists_table.items())
    for d in distributions:
        if d.name in grid:
            r.fail(f"distributions.{d.name}", "is also a grid axis; a parameter is either swept or drawn", show_value=False)
    swept = set(grid) | set(dists_table)
    targeted = shot["target_x"] is not None or bool(swept & {"target_x", "target_y"})
    if targeted and shot["target_x"] is None:
        r.fail("shot.target", "a grid or distribution over target_x/target_y needs a nominal shot.target", show_value=False)
    directed = shot["direction"] is not None or "direction" in swept
    if targeted and directed:
        r.fail("shot.direction", "give a direction or a target, not both", show_value=False)
    if not targeted and not directed:
        r.fail("shot.direction", "missing: give shot.direction (or a grid/distribution over it) or shot.target",
               show_value=False)
    if not targeted and shot["speed"] is None and "speed" not in swept:
        r.fail("shot.speed", "missing: give shot.speed (or a grid/distribution over it), or a target to stop at",
               show_value=False)
    if shot["direction"] is None:
        shot["direction"] = 0.0
    n_cells = int(np.prod([a.size for a in axes], dtype=np.int64)) if axes else 1
    if n_cells * samples > MAX_SHOTS:
        r.fail("samples", f"grid cells x samples = {n_cells * samples} shots, more than the limit {MAX_SHOTS}", samples)

    paired = _paired(r, data.get("paired", []), axes)

    # ---- noise ------------------------------------------------------------------------------------
    noise_table = r.table(data.get("noise", {}), "noise")
    if "skill" in grid and noise_table:
        r.fail("noise", "the grid has a skill axis, which sets the noise per cell; remove [noise]", show_value=False)
    if "preset" in noise_table:
        if set(noise_table) != {"preset"}:
            r.fail("noise", "give either preset or the standard deviations, not both", noise_table)
        preset = r.string(noise_table["preset"], "noise.preset")
        try:
            noise = _skill_model(court.game, preset)
        except NoiseError as exc:
            r.fail("noise.preset", str(exc), show_value=False)
    else:
        try:
            noise = parse_noise(noise_table, f"{path}: noise")
        except NoiseError as exc:
            raise ExperimentError(str(exc)) from None

    # ---- board ------------------------------------------------------------------------------------
    board = None
    board_names: tuple[str, ...] = ()
    if "board" in data:
        board_table = r.table(data["board"], "board")
        r.keys(board_table, "board", {"discs"}, {"discs"})
        discs = board_table["discs"]
        if not isinstance(discs, list) or not discs:
            r.fail("board.discs", "must be a non-empty array of discs", discs)
        if len(discs) > MAX_BOARD_DISCS:
            r.fail("board.discs", f"at most {MAX_BOARD_DISCS} discs", len(discs))
        xs, ys, teams, names = [], [], [], []
        for i, disc in enumerate(discs):
            key = f"board.discs[{i}]"
            disc = r.table(disc, key)
            r.keys(disc, key, {"x", "y", "team", "name"}, {"x", "y"})
            xs.append(r.length(disc["x"], f"{key}.x"))
            ys.append(r.length(disc["y"], f"{key}.y"))
            teams.append(r.string(disc.get("team", "B"), f"{key}.team"))
            names.append(r.string(disc.get("name", f"disc {i}"), f"{key}.name"))
        if len(set(names)) != len(names):
            r.fail("board.discs", "disc names must not repeat", names)
        try:
            board = Scene(court=court, x=np.array(xs), y=np.array(ys), vx=np.zeros(len(xs)), vy=np.zeros(len(xs)),
                          omega=np.zeros(len(xs)), team=teams, source=f"{path}: board").validate()
        except SceneError as exc:
            raise ExperimentError(str(exc)) from None
        board_names = tuple(names)
        gap = np.hypot(np.array(xs) - start_x, np.array(ys) - start_y)
        if np.any(gap < 2 * court.disc_radius):
            k = int(np.argmin(gap))
            r.fail("shot.start", f"the shot disc overlaps board.discs[{k}] at the start", shot_table["start"])
    if not court.on_surface(start_x, start_y):
        r.fail("shot.start", f"is off the surface of court {court.name!r}", shot_table["start"])

    # ---- outcomes and plots -----------------------------------------------------------------------
    collect = r.table(data.get("collect", {}), "collect")
    r.keys(collect, "collect", {"outcomes", "records"})
    outcomes = collect.get("outcomes", list(DEFAULT_OUTCOMES))
    if not isinstance(outcomes, list) or not outcomes or not all(isinstance(o, str) for o in outcomes):
        r.fail("collect.outcomes", "must be a non-empty list of outcome names", outcomes)
    for i, o in enumerate(outcomes):
        if o not in OUTCOMES:
            r.fail(f"collect.outcomes[{i}]", f"unknown outcome (known: {', '.join(OUTCOMES)})", o)
        if OUTCOMES[o][0] and board is None:
            r.fail(f"collect.outcomes[{i}]", "needs a [board] of resting discs", o)
        if o in FRAME_SCORE_OUTCOMES and court.game not in FRAME_SCORE_GAMES:
            r.fail(f"collect.outcomes[{i}]",
                   f"frame scores are each side's sum of judged values, which is the frame score under "
                   f"{', '.join(sorted(FRAME_SCORE_GAMES))} rules only, not {court.game!r}", o)
    records = collect.get("records", False)
    if not isinstance(records, bool):
        r.fail("collect.records", "must be true or false", records)

    plots = []
    plots_table = data.get("plots", [])
    if not isinstance(plots_table, list):
        r.fail("plots", "must be an array of tables ([[plots]])", plots_table)
    axis_names = [a.name for a in axes]
    for i, p in enumerate(plots_table):
        key = f"plots[{i}]"
        p = r.table(p, key)
        r.keys(p, key, {"metric", "x", "y", "select", "file", "average", "diff"}, {"metric"})
        metric = r.string(p["metric"], f"{key}.metric")
        check_metric(metric, tuple(outcomes), board_names, f"{path}: {key}.metric")
        default_axes = axis_names[:2]
        x = r.string(p.get("x", default_axes[0] if default_axes else ""), f"{key}.x")
        y = p.get("y", default_axes[1] if len(default_axes) > 1 and "x" not in p else None)
        for k, v in (("x", x), ("y", y)):
            if v is not None and v not in axis_names:
                r.fail(f"{key}.{k}", f"must name a grid axis ({', '.join(axis_names)})", v)
        if y is not None and y == x:
            r.fail(f"{key}.y", "must differ from x", y)
        select = dict(r.table(p.get("select", {}), f"{key}.select"))
        for k in select:
            if k not in axis_names or k in (x, y):
                r.fail(f"{key}.select.{k}", "must name a grid axis that is not plotted", select[k])
            if PARAMETERS[k][0] == "duration":  # "5 s" as the axis holds it, in seconds
                select[k] = r.parameter(k, select[k], f"{key}.select.{k}")
        average, diff = _plot_average_and_diff(r, p, key, axes, (x, y), select)
        rest = [a for a in axis_names if a not in (x, y) and a not in select and a not in average
                and (diff is None or a != diff[0])]
        if rest:
            r.fail(f"{key}.select", f"choose a value for every axis not plotted, or average it ({', '.join(rest)})",
                   select)
        file = p.get("file")
        if file is not None and (not isinstance(file, str) or not file.endswith(".png") or "/" in file):
            r.fail(f"{key}.file", "must be a file name ending in .png", file)
        plots.append(PlotSpec(metric, x, y, dict(select), file, average or None, diff))

    return Experiment(
        name=name, title=title, source_path=path, text=text, court=court, court_text=court_text, end=end,
        seed=seed, samples=samples, chunk_size=chunk_size, shot=shot, team=team, axes=axes,
        distributions=distributions, noise=noise, board=board, board_names=board_names,
        outcomes=tuple(outcomes), records=records, plots=tuple(plots), paired=paired,
    )


def possible_values(court: Court) -> np.ndarray:
    """Every value a judged disc can take on ``court``, sorted (the ``value`` axis of ``p_value``)."""
    values = {0}
    values.update(z.value for z in court.zones)
    values.update(h.value for h in court.holes)
    values.update(ln.touch_value for ln in court.lines if ln.touch_value is not None)
    for v in (court.hanger_end_value, court.hanger_corner_value):
        if v is not None:
            values.add(v)
    return np.array(sorted(values), dtype=np.int64)
