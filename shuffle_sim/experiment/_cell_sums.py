"""A chunk's per-cell sums: their names, and the reduce kernels' call that fills them.

Both the consecutive cells of an ordinary chunk (``_chunks.compute_chunk``: ``reduce_chunk``) and
the interleaved cells of a paired one (``pairing``: ``reduce_rows``) fill the same sums from a
chunk's ``ShotBatch``, through the same checks.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: Per-cell integer sums a chunk returns; assembled by adding (exact in any order).
CELL_SUMS = ("shots", "failed", "value_sum", "dead", "hanger", "corner_hanger", "holed", "score_sum", "opponent_sum")

#: The order of the sums in the reduce kernels' ``sums`` tuple (``_chunk_kernels.reduce_chunk``).
KERNEL_SUMS = (
    "shots",
    "failed",
    "value_sum",
    "value_counts",
    "dead",
    "hanger",
    "corner_hanger",
    "holed",
    "score_sum",
    "opponent_sum",
    "removed",
)

#: The sums only an experiment with a board keeps.
BOARD_SUMS = ("score_sum", "opponent_sum", "removed")


def reduced_sums(experiment, start: int, batch, values: np.ndarray, shooter: np.ndarray, rows: int, reduce: Callable):
    """The per-cell sums (``CELL_SUMS``, ``value_counts`` and with a board ``removed``) of ``rows``
    cells, filled from a chunk's ``batch`` (shots ``start`` on) by ``reduce(judged, values, shooter,
    sums)``, one of the reduce kernels with its leading arguments bound. ``RuntimeError`` naming the
    shot whose judged value is not one of ``values``."""
    out = {k: np.zeros(rows, dtype=np.int64) for k in CELL_SUMS}
    out["value_counts"] = np.zeros((rows, len(values)), dtype=np.int64)
    out["removed"] = np.zeros((rows, len(experiment.board_names)), dtype=np.int64)
    judged = (batch.value, batch.status, batch.dead, batch.hanger, batch.ok)
    bad = reduce(judged, values, shooter, tuple(out[k] for k in KERNEL_SUMS))
    if bad >= 0:
        raise RuntimeError(
            f"shot {start + bad} was judged {int(batch.value[bad, -1])}, not a value of court "
            f"{experiment.court.name!r} ({values.tolist()})"
        )
    if experiment.board is None:
        for k in BOARD_SUMS:
            del out[k]
    return out
