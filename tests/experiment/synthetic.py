"""Results with known per-cell sums, without a simulation: what the plot and results tests draw from."""

from __future__ import annotations

import numpy as np

from shuffle_sim.experiment.spec import Experiment, possible_values


def cell_sums(experiment: Experiment, counts: np.ndarray, *, failed=None, dead=None, holed=None) -> dict:
    """The per-cell sums a run of ``experiment`` adds up (``_assembly.build_grid`` takes them), for
    ``counts``, the shots of each cell by judged value (cells x the court's values): every shot worth
    0 dead unless ``dead`` says otherwise, none failed or holed unless ``failed`` and ``holed`` say so,
    no hangers, no board."""
    values = possible_values(experiment.court)
    zero = np.zeros(experiment.n_cells, dtype=np.int64)
    return {
        "shots": counts.sum(axis=1),
        "failed": zero if failed is None else failed,
        "value_sum": counts @ values,
        "value_counts": counts,
        "dead": counts[:, list(values).index(0)] if dead is None else dead,
        "hanger": zero,
        "corner_hanger": zero,
        "holed": zero if holed is None else holed,
        "score_sum": zero,
        "opponent_sum": zero,
        "removed": np.zeros((experiment.n_cells, 0), dtype=np.int64),
    }
