"""``python -m shuffle_sim.cli``: the ``shuffle-sim`` command."""

from shuffle_sim.cli import console

console()
