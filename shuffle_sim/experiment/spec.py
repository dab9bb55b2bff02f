"""Experiment files (``experiments/*.toml``): load, validate, and describe a batch of shots.

An experiment file names a court, an optional fixed board of resting discs, the intended shot, the
parameters swept on a grid and/or drawn from distributions, an execution-noise model with a number of
samples per grid cell, the outcomes to collect and the plots to draw. The format is documented in
``experiments/README.md``. Errors name the file, the key and the value (``ExperimentError``), like
the court files' errors.

Shot parameters and their units (SI inside; lengths in files may carry units such as "36 ft"):

===========  ==========================================================================
speed        launch speed, m/s
direction    degrees from the court's +y axis, positive turning toward +x
spin         rad/s, counter-clockwise seen from above
start_x/y    start position of the shot disc (length)
target_x/y   aim point (length): sets the direction from the start, and, unless a speed
             is given, the speed that stops the disc there plus ``overshoot``
skill        (grid only) names of the game's skill presets (``shuffle_sim/noise/skills.toml``)
             or ``exact``: the noise model per grid cell
court_speed  (grid only) the court's speed as players rate it, a time ("5 s", "14 s":
             ``court.speed``): mu per grid cell, the court's own mu elsewhere
slope_x/y    (grid only) a component of the surface's uniform grade, dimensionless (0.001:
             1 in 1000; gx > 0 drifts discs toward +x); the other component is the court's
crown        (grid only) the surface's crown, a length ("1/16 in"; ``court.surface_shape``)
===========  ==========================================================================

Each combination of the court axes' values (court speed, grade, crown) is a court of its own,
built and checked once when the file is read (``_court_axes``).

``speed`` is the launch speed; the court's speed is ``court_speed`` on a grid and ``speed`` in
``[params]`` (a time there, never m/s).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from shuffle_sim.experiment._axes import LONG_NAMES, PARAMETERS, Axis
from shuffle_sim.experiment._model import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_OUTCOMES,
    FRAME_SCORE_GAMES,
    FRAME_SCORE_OUTCOMES,
    MAX_BOARD_DISCS,
    MAX_PAIRED_COMBINATIONS,
    MAX_SHOTS,
    OUTCOMES,
    Distribution,
    Experiment,
    PlotSpec,
    check_metric,
    possible_values,
    skill_model,
)
from shuffle_sim.experiment._sections import (
    _TOP_KEYS,
    ExperimentReader,
    read_board,
    read_court,
    read_grid,
    read_header,
    read_noise,
    read_outcomes,
    read_paired,
    read_plots,
    read_shot,
)
from shuffle_sim.experiment.errors import ExperimentError

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_OUTCOMES",
    "FRAME_SCORE_GAMES",
    "FRAME_SCORE_OUTCOMES",
    "LONG_NAMES",
    "MAX_BOARD_DISCS",
    "MAX_PAIRED_COMBINATIONS",
    "MAX_SHOTS",
    "OUTCOMES",
    "PARAMETERS",
    "Axis",
    "Distribution",
    "Experiment",
    "ExperimentError",
    "PlotSpec",
    "check_metric",
    "load_experiment",
    "parse_experiment",
    "possible_values",
    "skill_model",
]


def load_experiment(path: str | os.PathLike) -> Experiment:
    """Load and validate an experiment file; raises ``ExperimentError`` naming the file, key and value."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise ExperimentError(f"{path}: cannot read experiment file ({exc.strerror})") from None
    return parse_experiment(text, str(path), base_dir=path.parent)


def parse_experiment(text: str, path: str = "<experiment>", base_dir: str | os.PathLike | None = None) -> Experiment:
    """Build an ``Experiment`` from the text of an experiment file (court paths relative to ``base_dir``):
    each section by its reader (``_sections``), in the order later sections need them."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"{path}: not valid TOML: {exc}") from None
    r = ExperimentReader(path)
    r.keys(data, "", _TOP_KEYS, {"name", "court"})
    name, title, seed, samples, chunk_size = read_header(r, data)
    court, end, params, court_text = read_court(r, data, base_dir)
    shot, team, start_text = read_shot(r, data)
    axes, distributions = read_grid(r, data, court, params, shot, samples)
    paired = read_paired(r, data, axes)
    noise = read_noise(r, data, court)
    board, board_names = read_board(r, data, court, shot, start_text)
    outcomes, records = read_outcomes(r, data, court, board)
    plots = read_plots(r, data, axes, outcomes, board_names)
    return Experiment(
        name=name,
        title=title,
        source_path=path,
        text=text,
        court=court,
        court_text=court_text,
        end=end,
        seed=seed,
        samples=samples,
        chunk_size=chunk_size,
        shot=shot,
        team=team,
        axes=axes,
        distributions=distributions,
        noise=noise,
        board=board,
        board_names=board_names,
        outcomes=outcomes,
        records=records,
        plots=plots,
        paired=paired,
    )
