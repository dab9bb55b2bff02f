"""What the win search's sampled shots share: their execution errors from the search stream
(``STREAM_SEARCH``) and the sample numbers that place them in it."""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.noise import STREAM_SEARCH
from shuffle_sim.playing.players.launch import shot_normals


@jit.inline
def search_normals(stream, depth, sample):
    """The four normals (speed, direction, spin, start) of the shot ``depth`` shots after the searched
    one in sample ``sample``: ``stream`` is the seed's key words, the game index and the searched
    shot's counter (its number in the game times ``SEARCH_DEPTHS``)."""
    k0, k1, game_index, counter = stream
    return shot_normals(
        k0, k1, np.uint64(game_index), np.uint64(STREAM_SEARCH), np.uint64(counter + depth), np.uint64(sample)
    )


def sample_numbers(sample_ids, n: int) -> np.ndarray:
    """Each row's sample number in the search stream (rows of equal number share their draws), the
    ``n`` rows' ``sample_ids`` or, for None, 0, 1, ..., n - 1."""
    if sample_ids is None:
        return np.arange(n, dtype=np.int64)
    out = np.ascontiguousarray(sample_ids, dtype=np.int64)
    if out.shape != (n,):
        raise ValueError(f"sample_ids must have one entry per launch ({n}), got shape {out.shape}")
    return out
