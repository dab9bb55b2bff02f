"""What the game environments' tests share: short games of each game, and a scripted agent."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

GAMES = ("deck", "horse-collar", "ricochet", "crokinole")
#: Short games (game point, or crokinole rounds) so that whole games stay quick.
SHORT = {"deck": 15, "horse-collar": 11, "ricochet": 15, "crokinole": 1}
#: The game's best skill with the fixed plan: quick and deterministic opponents.
PLAN = {
    "deck": "expert-plan",
    "horse-collar": "expert-plan",
    "ricochet": "expert-plan",
    "crokinole": "top-competitive-plan",
}


def scripted_actions(low, high, seed: int, n: int = 400) -> list[np.ndarray]:
    """``n`` actions drawn uniformly within the limits, the same for a seed."""
    rng = np.random.default_rng(seed)
    return [rng.uniform(low, high) for _ in range(n)]
