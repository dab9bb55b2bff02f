"""The courts' speeds beside the published ones: each court file's speed in seconds over its speed
course (``court.speed``, under its friction law), the ranges players publish for its game
(``data/sources.toml``), and, for the horse collar table, the speed of the tracked table's fitted laws.
"""

from __future__ import annotations

from shuffle_sim.court import list_courts, load_court
from shuffle_sim.validation.sources import PublishedSpeed


def court_speed_rows(published: tuple[PublishedSpeed, ...]) -> list[dict]:
    """One row per court: name, game, speed (s; None without a speed course), course, mu, mu_speed,
    and the published ranges for its game with whether the speed lies within each."""
    rows = []
    for name in list_courts():
        court = load_court(name)
        course = court.speed_course
        ranges = [
            {
                "what": p.what,
                "low": p.low,
                "high": p.high,
                "source": p.source,
                "within": court.speed is not None and p.low <= court.speed <= p.high,
            }
            for p in published
            if p.game == court.game
        ]
        rows.append(
            {
                "court": name,
                "game": court.game,
                "speed": court.speed,
                "course": course.description if course is not None else None,
                "mu": court.params["mu"],
                "mu_speed": court.params["mu_speed"],
                "published": ranges,
            }
        )
    return rows
