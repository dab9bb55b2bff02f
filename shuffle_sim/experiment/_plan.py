"""What an experiment's chunks compute from: its shots as flat arrays, and which path they take.

Below the runner and the warm-up, which both need them (``experiment.runner``, ``experiment.warmup``).
"""

from __future__ import annotations

import numpy as np

from shuffle_sim.experiment._chunk_kernels import DIST_NORMAL, DIST_UNIFORM, PARAMETER_CODES
from shuffle_sim.experiment._court_axes import court_strides
from shuffle_sim.experiment.spec import Experiment
from shuffle_sim.noise import seed_key
from shuffle_sim.physics import speed_for_distance
from shuffle_sim.physics.numba_api import closed_form_court
from shuffle_sim.rules import ricochet


def shot_plan(experiment: Experiment) -> dict:
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
    return dict(
        samples=np.uint64(experiment.samples),
        grid_shape=np.array([a.size for a in axes], dtype=np.int64),
        axis_param=np.array([PARAMETER_CODES[a.name] for a in axes], dtype=np.int64),
        axis_values=axis_values,
        nominal=np.array(
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
        dist_param=np.array([PARAMETER_CODES[d.name] for d in dists], dtype=np.int64),
        dist_kind=np.array([DIST_UNIFORM if d.kind == "uniform" else DIST_NORMAL for d in dists], dtype=np.int64),
        dist_a=np.array([d.a for d in dists], dtype=np.float64),
        dist_b=np.array([d.b for d in dists], dtype=np.float64),
        skill_sd=np.array([m.deviations() for m in experiment.skill_models()]),
        uses_target=experiment.uses_target,
        speed_given=experiment.speed_given,
        overshoot=float(nominal["overshoot"]),
        stop_speed_per_root_metre=np.array(
            [speed_for_distance(1.0, c.params["mu"] * c.params["gravity"]) for c in experiment.courts()]
        ),
        k0=k0,
        k1=k1,
    )


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
