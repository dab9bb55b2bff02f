"""The experiment's data model: shot parameters, outcomes, grid axes, distributions, plots, and the
``Experiment`` itself (validated by ``spec``'s readers, run by the runner)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from shuffle_sim._version import __version__
from shuffle_sim.court import Court
from shuffle_sim.experiment._axes import Axis
from shuffle_sim.experiment._court_axes import COURT_AXES, build_courts
from shuffle_sim.experiment.errors import ExperimentError
from shuffle_sim.noise import EXACT, NoiseModel, skill_preset
from shuffle_sim.physics.scene import Scene

#: Parameters that only a grid may sweep: they index a table (skills, courts) built once per value.
GRID_ONLY = frozenset({"skill", *COURT_AXES})

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


def skill_model(game: str, name: str) -> NoiseModel:
    """A skill preset of the game by name, or the exact (noise-free) model for ``exact``."""
    if name == "exact":
        return EXACT
    return skill_preset(game, name)


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
        return build_courts(self.court, self.axes)

    def courts(self) -> tuple[Court, ...]:
        """The court of each combination of the court axes' values (``_court_axes``: court speed,
        grade, crown), in court-index order, or the experiment's court alone when there is none;
        built once per experiment."""
        return self._courts

    def skill_models(self) -> list[NoiseModel]:
        """The noise model of each value on the skill axis (or the single model when there is none)."""
        for axis in self.axes:
            if axis.name == "skill":
                return [skill_model(self.court.game, str(s)) for s in axis.values]
        return [self.noise]


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
        raise ExperimentError(
            f"{where}: metric {metric!r}: no board disc named {label!r} (board discs: {', '.join(board_names)})"
        )
    if name not in ("p_value", "p_removed") and label is not None:
        raise ExperimentError(f"{where}: metric {metric!r}: only p_value and p_removed take a ':' label")


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
