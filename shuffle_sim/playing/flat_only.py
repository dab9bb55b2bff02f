"""Whole frames in numba run the flat kernels: on a court that is not flat they are refused.

The deck and crokinole rollouts of the win search (``search.deck_rollout``,
``search.crokinole_rollout``) and the deck game engine (``deck_engine.run_deck_games``) play whole
frames inside one numba loop with the flat event loop; the curved kernels (``physics.laws.integrated``) integrate
every path step by step, so a rollout on them costs about 50 times more a shot and would need the
curved aim (``players.reading``) inside numba for every planned shot too. Rather than plan on the
wrong physics, they stop on a graded, crowned or mapped court with an error naming the surface; the
game drivers (``play``, plan and ev players) and the advisor run every shot through ``simulate``
and ``simulate_shots``, which take the curved kernels there.
"""

from __future__ import annotations

from shuffle_sim import units
from shuffle_sim.court import Court
from shuffle_sim.playing.players.context import PlayerError


def surface_words(court: Court) -> str:
    """The court's surface shape as its ``params`` keys: "slope [0.001, 0.0], crown 1/32 in" (a crown
    in inches, as crowns are measured)."""
    parts = []
    for key, value in court.surface_shape.params().items():
        parts.append(f"{key} {units.describe_length(value, 'in')}" if key == "crown" else f"{key} {value}")
    return ", ".join(parts)


def require_flat(court: Court, what: str) -> None:
    """Raise ``PlayerError`` if ``court`` is not flat: ``what`` plans with the flat kernels only."""
    if not court.surface_shape.flat:
        raise PlayerError(
            f"{what}: court {court.name!r} is not flat ({surface_words(court)}); the search's rollouts "
            "simulate flat courts only (plan and ev players read any court)"
        )
