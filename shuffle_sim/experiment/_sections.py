"""The sections of an experiment file, one reader each (the format is documented in
``experiments/README.md``).

Every reader takes the file's ``ExperimentReader``, so that an error names the file, the key and the
value (``ExperimentError``), and returns the model's records (``_model``).
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from shuffle_sim.court import Court, CourtError, court_path, load_court
from shuffle_sim.court.speed import parse_speed
from shuffle_sim.court.toml_reader import TomlReader
from shuffle_sim.experiment._axes import PARAMETERS, Axis, written_unit
from shuffle_sim.experiment._court_axes import check_court_axes
from shuffle_sim.experiment._model import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_OUTCOMES,
    FRAME_SCORE_GAMES,
    FRAME_SCORE_OUTCOMES,
    GRID_ONLY,
    MAX_BOARD_DISCS,
    MAX_PAIRED_COMBINATIONS,
    MAX_SHOTS,
    OUTCOMES,
    Distribution,
    PlotSpec,
    check_metric,
    skill_model,
)
from shuffle_sim.experiment.errors import ExperimentError
from shuffle_sim.noise import NoiseError, NoiseModel, parse_noise
from shuffle_sim.physics.scene import Scene, SceneError

_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_TOP_KEYS = {
    "name",
    "title",
    "court",
    "end",
    "seed",
    "samples",
    "chunk_size",
    "params",
    "shot",
    "grid",
    "distributions",
    "noise",
    "board",
    "collect",
    "plots",
    "description",
    "paired",
}
_SHOT_KEYS = {"speed", "direction", "spin", "start", "target", "overshoot", "team"}


class ExperimentReader(TomlReader):
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


def _axis(r: ExperimentReader, name: str, spec: Any, game: str) -> Axis:
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
                skill_model(game, s)
            except NoiseError as exc:
                r.fail(f"{key}[{i}]", str(exc), show_value=False)
        return Axis(name, np.array(spec, dtype=object))
    if isinstance(spec, list):
        if not spec:
            r.fail(key, "needs at least one value", spec)
        values = [r.parameter(name, v, f"{key}[{i}]") for i, v in enumerate(spec)]
        written = list(spec)
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
        written = [spec["from"], spec["to"]]
    arr = np.array(values, dtype=np.float64)
    if len(np.unique(arr)) != len(arr):
        r.fail(key, "values must not repeat", spec)
    return Axis(name, arr, written_unit(written) if kind == "length" else None)


def _distribution(r: ExperimentReader, name: str, spec: Any) -> Distribution:
    key = f"distributions.{name}"
    if name not in PARAMETERS or name in GRID_ONLY:
        allowed = [p for p in PARAMETERS if p not in GRID_ONLY]
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


def _paired(r: ExperimentReader, spec: Any, axes: tuple[Axis, ...]) -> tuple[str, ...]:
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
            r.fail(
                "paired",
                f"the paired axes have {count} combinations of values, more than "
                f"{MAX_PAIRED_COMBINATIONS} (each pair of them keeps joint counts)",
                spec,
            )
    # In grid order, whatever order the file lists them in.
    return tuple(n for n in names if n in spec)


def _plot_average_and_diff(
    r: ExperimentReader, p: dict, key: str, axes: tuple[Axis, ...], plotted: tuple, select: dict
) -> tuple[list[str], list | None]:
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


def read_header(r: ExperimentReader, data: dict) -> tuple[str, str, int, int, int]:
    """(name, title, seed, samples, chunk_size): the top-level keys."""
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
    return name, title, seed, samples, chunk_size


def read_court(r: ExperimentReader, data: dict, base_dir) -> tuple[Court, str | None, dict, str]:
    """(court with the file's params, end, the params table, the court file's text): ``court``,
    ``end`` and ``[params]``; a court path is taken relative to ``base_dir``."""
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
        raise ExperimentError(f"{r.path}: court: {exc}") from None
    return court, end, params, court_text


def read_shot(r: ExperimentReader, data: dict) -> tuple[dict[str, Any], str, Any]:
    """(nominal shot, team, the start as written): ``[shot]``."""
    shot_table = r.table(data.get("shot", {}), "shot")
    r.keys(shot_table, "shot", _SHOT_KEYS, {"start"})
    start_x, start_y = r.point(shot_table["start"], "shot.start")
    target_x = target_y = None
    if "target" in shot_table:
        target_x, target_y = r.point(shot_table["target"], "shot.target")
    direction = shot_table.get("direction")
    shot = {
        "speed": r.parameter("speed", shot_table["speed"], "shot.speed") if "speed" in shot_table else None,
        "direction": math.radians(r.number(direction, "shot.direction")) if direction is not None else None,
        "spin": r.number(shot_table.get("spin", 0.0), "shot.spin"),
        "start_x": start_x,
        "start_y": start_y,
        "target_x": target_x,
        "target_y": target_y,
        "overshoot": r.length(shot_table.get("overshoot", 0.0), "shot.overshoot"),
    }
    return shot, r.string(shot_table.get("team", "A"), "shot.team"), shot_table["start"]


def read_grid(
    r: ExperimentReader, data: dict, court: Court, params: dict, shot: dict, samples: int
) -> tuple[tuple[Axis, ...], tuple[Distribution, ...]]:
    """(axes, distributions): ``[grid]`` and ``[distributions]``, checked against the nominal shot
    (whose missing direction becomes 0 once a target or an axis gives it)."""
    grid = r.table(data.get("grid", {}), "grid")
    axes = tuple(_axis(r, k, v, court.game) for k, v in grid.items())
    if "court_speed" in grid:
        if court.speed_course is None:
            r.fail(
                "grid.court_speed",
                f"court {court.name!r} has no [speed_course], so its speed in seconds means nothing",
                show_value=False,
            )
        for key in ("speed", "mu"):
            if key in params:
                r.fail(
                    f"params.{key}",
                    f"the grid's court_speed axis sets the court's speed per cell; remove params.{key} or the axis",
                    params[key],
                )
    check_court_axes(r, axes, court, params)
    dists_table = r.table(data.get("distributions", {}), "distributions")
    distributions = tuple(_distribution(r, k, v) for k, v in dists_table.items())
    for d in distributions:
        if d.name in grid:
            r.fail(
                f"distributions.{d.name}", "is also a grid axis; a parameter is either swept or drawn", show_value=False
            )
    _check_shot_is_given(r, shot, set(grid) | set(dists_table))
    n_cells = int(np.prod([a.size for a in axes], dtype=np.int64)) if axes else 1
    if n_cells * samples > MAX_SHOTS:
        r.fail("samples", f"grid cells x samples = {n_cells * samples} shots, more than the limit {MAX_SHOTS}", samples)
    return axes, distributions


def _check_shot_is_given(r: ExperimentReader, shot: dict, swept: set[str]) -> None:
    """A direction or a target, and a speed or a target, from the shot, the grid or the distributions."""
    targeted = shot["target_x"] is not None or bool(swept & {"target_x", "target_y"})
    if targeted and shot["target_x"] is None:
        r.fail(
            "shot.target", "a grid or distribution over target_x/target_y needs a nominal shot.target", show_value=False
        )
    directed = shot["direction"] is not None or "direction" in swept
    if targeted and directed:
        r.fail("shot.direction", "give a direction or a target, not both", show_value=False)
    if not targeted and not directed:
        r.fail(
            "shot.direction",
            "missing: give shot.direction (or a grid/distribution over it) or shot.target",
            show_value=False,
        )
    if not targeted and shot["speed"] is None and "speed" not in swept:
        r.fail(
            "shot.speed",
            "missing: give shot.speed (or a grid/distribution over it), or a target to stop at",
            show_value=False,
        )
    if shot["direction"] is None:
        shot["direction"] = 0.0


def read_noise(r: ExperimentReader, data: dict, court: Court) -> NoiseModel:
    """``[noise]``: a preset by name, or the standard deviations."""
    noise_table = r.table(data.get("noise", {}), "noise")
    if "skill" in r.table(data.get("grid", {}), "grid") and noise_table:
        r.fail("noise", "the grid has a skill axis, which sets the noise per cell; remove [noise]", show_value=False)
    if "preset" in noise_table:
        if set(noise_table) != {"preset"}:
            r.fail("noise", "give either preset or the standard deviations, not both", noise_table)
        preset = r.string(noise_table["preset"], "noise.preset")
        try:
            return skill_model(court.game, preset)
        except NoiseError as exc:
            r.fail("noise.preset", str(exc), show_value=False)
    try:
        return parse_noise(noise_table, f"{r.path}: noise")
    except NoiseError as exc:
        raise ExperimentError(str(exc)) from None


def read_board(
    r: ExperimentReader, data: dict, court: Court, shot: dict, start_text: Any
) -> tuple[Scene | None, tuple[str, ...]]:
    """(board of resting discs or None, their names): ``[board]``, clear of the shot's start, which
    must lie on the surface."""
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
            board = Scene(
                court=court,
                x=np.array(xs),
                y=np.array(ys),
                vx=np.zeros(len(xs)),
                vy=np.zeros(len(xs)),
                omega=np.zeros(len(xs)),
                team=teams,
                source=f"{r.path}: board",
            ).validate()
        except SceneError as exc:
            raise ExperimentError(str(exc)) from None
        board_names = tuple(names)
        gap = np.hypot(np.array(xs) - shot["start_x"], np.array(ys) - shot["start_y"])
        if np.any(gap < 2 * court.disc_radius):
            k = int(np.argmin(gap))
            r.fail("shot.start", f"the shot disc overlaps board.discs[{k}] at the start", start_text)
    if not court.on_surface(shot["start_x"], shot["start_y"]):
        r.fail("shot.start", f"is off the surface of court {court.name!r}", start_text)
    return board, board_names


def read_outcomes(r: ExperimentReader, data: dict, court: Court, board: Scene | None) -> tuple[tuple[str, ...], bool]:
    """(outcomes, whether to keep per-shot records): ``[collect]``."""
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
            r.fail(
                f"collect.outcomes[{i}]",
                f"frame scores are each side's sum of judged values, which is the frame score under "
                f"{', '.join(sorted(FRAME_SCORE_GAMES))} rules only, not {court.game!r}",
                o,
            )
    records = collect.get("records", False)
    if not isinstance(records, bool):
        r.fail("collect.records", "must be true or false", records)
    return tuple(outcomes), records


def read_plots(
    r: ExperimentReader, data: dict, axes: tuple[Axis, ...], outcomes: tuple[str, ...], board_names: tuple[str, ...]
) -> tuple[PlotSpec, ...]:
    """``[[plots]]``: each a metric over one or two grid axes, every other axis selected, averaged or
    compared."""
    plots_table = data.get("plots", [])
    if not isinstance(plots_table, list):
        r.fail("plots", "must be an array of tables ([[plots]])", plots_table)
    return tuple(_plot(r, f"plots[{i}]", p, axes, outcomes, board_names) for i, p in enumerate(plots_table))


def _plot(
    r: ExperimentReader,
    key: str,
    p: Any,
    axes: tuple[Axis, ...],
    outcomes: tuple[str, ...],
    board_names: tuple[str, ...],
) -> PlotSpec:
    axis_names = [a.name for a in axes]
    # An axis of one value is taken at it: it needs no select, and is plotted only when named.
    single = {a.name for a in axes if a.size == 1}
    p = r.table(p, key)
    r.keys(p, key, {"metric", "x", "y", "select", "file", "average", "diff"}, {"metric"})
    metric = r.string(p["metric"], f"{key}.metric")
    check_metric(metric, outcomes, board_names, f"{r.path}: {key}.metric")
    default_axes = ([a for a in axis_names if a not in single] or axis_names)[:2]
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
        if PARAMETERS[k][0] in ("duration", "length"):  # "5 s", "1/16 in" as the axis holds them, in SI
            select[k] = r.parameter(k, select[k], f"{key}.select.{k}")
    average, diff = _plot_average_and_diff(r, p, key, axes, (x, y), select)
    rest = [
        a
        for a in axis_names
        if a not in (x, y)
        and a not in select
        and a not in average
        and (diff is None or a != diff[0])
        and a not in single
    ]
    if rest:
        r.fail(f"{key}.select", f"choose a value for every axis not plotted, or average it ({', '.join(rest)})", select)
    file = p.get("file")
    if file is not None and (not isinstance(file, str) or not file.endswith(".png") or "/" in file):
        r.fail(f"{key}.file", "must be a file name ending in .png", file)
    return PlotSpec(metric, x, y, dict(select), file, average or None, diff)


def read_paired(r: ExperimentReader, data: dict, axes: tuple[Axis, ...]) -> tuple[str, ...]:
    """``paired``: the grid axes compared with common random numbers."""
    return _paired(r, data.get("paired", []), axes)
