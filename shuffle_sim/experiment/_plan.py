"""What an experiment's chunks compute from: its shots as flat arrays, and which path they take.

Below the runner and the warm-up, which both need them (``experiment.runner``, ``experiment.warmup``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from shuffle_sim.court.friction_law import decelerations
from shuffle_sim.experiment._chunk_kernels import DIST_NORMAL, DIST_UNIFORM, PARAMETER_CODES
from shuffle_sim.experiment._court_axes import court_strides
from shuffle_sim.experiment.spec import Experiment
from shuffle_sim.noise import seed_key
from shuffle_sim.physics.numba_api import closed_form_court
from shuffle_sim.rules import ricochet


class ShotPlan(NamedTuple):
    """An experiment's shots as the chunk kernels take them (``_chunk_kernels.build_shots``): samples per
    grid cell (uint64), the ``grid`` tuple of the grid's intended shots and the ``variation`` tuple of
    how a shot varies from its cell's."""

    samples: np.uint64
    grid: tuple
    variation: tuple


def shot_plan(experiment: Experiment) -> ShotPlan:
    """The experiment's shot description as flat arrays for ``_chunk_kernels.build_shots``."""
    axes = experiment.axes
    longest = max((a.size for a in axes), default=1)
    axis_values = np.zeros((len(axes), longest))
    strides = court_strides(axes)
    for k, axis in enumerate(axes):
        if axis.name == "skill":  # indices into the skills
            axis_values[k, : axis.size] = np.arange(axis.size)
        elif k in strides:  # parts of the court index, which add up (``_court_axes``)
            axis_values[k, : axis.size] = np.arange(axis.size) * strides[k]
        elif axis.name == "direction":
            axis_values[k, : axis.size] = np.radians(axis.values.astype(np.float64))
        else:
            axis_values[k, : axis.size] = axis.values
    nominal = experiment.shot
    k0, k1 = seed_key(experiment.seed)
    dists = experiment.distributions
    grid = (
        np.array([a.size for a in axes], dtype=np.int64),
        np.array([PARAMETER_CODES[a.name] for a in axes], dtype=np.int64),
        axis_values,
        np.array(
            [
                nominal["speed"] or 0.0,
                nominal["direction"],
                nominal["spin"],
                nominal["start_x"],
                nominal["start_y"],
                nominal["target_x"] or 0.0,
                nominal["target_y"] or 0.0,
            ]
        ),
    )
    variation = (
        np.array([PARAMETER_CODES[d.name] for d in dists], dtype=np.int64),
        np.array([DIST_UNIFORM if d.kind == "uniform" else DIST_NORMAL for d in dists], dtype=np.int64),
        np.array([d.a for d in dists], dtype=np.float64),
        np.array([d.b for d in dists], dtype=np.float64),
        np.array([m.deviations() for m in experiment.skill_models()]),
        experiment.uses_target,
        experiment.speed_given,
        float(nominal["overshoot"]),
        np.array([decelerations(c.params) for c in experiment.courts()], dtype=np.float64).reshape(-1, 2),
        k0,
        k1,
    )
    return ShotPlan(np.uint64(experiment.samples), grid, variation)


def takes_lone_path(experiment: Experiment) -> bool:
    """Whether the chunks of ``experiment`` take the fused lone-shot path (``experiment.lone``): shots at
    an empty board, no per-shot records, and a game whose shots score wherever they rest (a ricochet
    shot scores only on the half opposite its start, which the general path applies), and no paired axes
    (``experiment.pairing``: the general path sums their differences), on courts whose motion has
    closed forms only (``physics.numba_api.closed_form_court``: flat and Coulomb; a curved court's
    shots, a grade or crown axis's among them, and those under the friction law of speed take the
    general path, through ``simulate_shots``'s integrated kernels)."""
    return (
        experiment.board is None
        and not experiment.records
        and experiment.court.game != ricochet.GAME
        and not experiment.paired
        and all(closed_form_court(court) for court in experiment.courts())
    )
