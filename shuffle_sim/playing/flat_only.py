"""What still runs the closed form only: the deck game engine and crokinole's rollouts.

The deck game engine (``deck_engine.run_deck_games``) and the crokinole rollouts of the win search
(``search.crokinole_rollout``) play whole frames inside one numba loop with the closed-form motion
law and plans aimed by the flat closed form. On a court whose straight launches miss
(``players.reading.needs_reading``: graded, crowned or mapped, or a friction that changes with
speed) they would plan on the wrong physics, so they stop with an error naming the court and its
surface or law. The deck's rollouts run the court's own motion law with their plan read for the
court (``search.deck_rollout``, ``players.read_tables``), so the deck's ``win`` players and
``advise --score`` take any court; horse collar and ricochet have no rollout.
"""

from __future__ import annotations

from shuffle_sim import units
from shuffle_sim.court import Court
from shuffle_sim.court.friction_law import friction_law
from shuffle_sim.playing.players.context import PlayerError
from shuffle_sim.playing.players.reading import needs_reading

#: Games whose win search rolls frames out with closed-form plans only.
CLOSED_FORM_SEARCH = ("crokinole",)


def surface_words(court: Court) -> str:
    """The court's surface shape as its ``params`` keys: "slope [0.001, 0.0], crown 1/32 in" (a crown
    in inches, as crowns are measured), and a friction law that is not Coulomb's."""
    parts = []
    for key, value in court.surface_shape.params().items():
        parts.append(f"{key} {units.describe_length(value, 'in')}" if key == "crown" else f"{key} {value}")
    if friction_law(court.params) != "coulomb":
        parts.append(f"mu_speed {court.params['mu_speed']} s/m")
    return ", ".join(parts)


def require_closed_form(court: Court, what: str) -> None:
    """Raise ``PlayerError`` if a straight launch's closed form misses on ``court`` (module
    docstring): ``what`` plans and runs with the closed form only."""
    if needs_reading(court):
        shape = "flat" if court.surface_shape.flat else "not flat"
        raise PlayerError(
            f"{what}: court {court.name!r} is {shape} ({surface_words(court)}); {what} runs flat courts "
            "under Coulomb friction only (plan and ev players, and the deck's win players, read any court)"
        )


def require_win_search(game: str, court: Court, what: str) -> None:
    """Raise ``PlayerError`` if ``game``'s win search cannot roll out frames on ``court``."""
    if game in CLOSED_FORM_SEARCH:
        require_closed_form(court, what)
