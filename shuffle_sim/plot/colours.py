"""The colours of every drawing: the teams', the surfaces', the zones' tints and the court's parts.

The matplotlib drawings (this package) and the shot lab's Bokeh drawing take their colours from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from shuffle_sim.court import Court
from shuffle_sim.games import games

#: Disc colours by team name (case-insensitive).
TEAM_COLOURS = {
    "yellow": "#f2c200",
    "black": "#262626",
    "red": "#c62828",
    "blue": "#1565c0",
    "light": "#f3dfb3",
    "dark": "#4e342e",
    "white": "#f5f5f5",
    "green": "#2e7d32",
}
#: Colours after the game's two (a third team, or a court of game "custom").
FALLBACK_COLOURS = ("#00897b", "#8e24aa", "#f4511e", "#3949ab", "#7cb342", "#6d4c41", "#d81b60", "#546e7a")

SURFACE_COLOUR = "#e0e0e0"  # a court of game "custom"
GUTTER_COLOUR = "#5f5f5f"
LINE_COLOUR = "#1b1b1b"
CUSHION_COLOUR = "#6d4c2f"
PEG_COLOUR = "#212121"
DEAD_HATCH_COLOUR = "#7a7a7a"
#: Label colours: a gutter's name, an edge's hanger value, a corner hanger's value, a zone's value.
EDGE_LABEL_COLOUR = "white"
HANGER_LABEL_COLOUR = "#ffe082"
CORNER_LABEL_COLOUR = "#ffab91"
ZONE_LABEL_COLOUR = "#102a43"
DEAD_LABEL_COLOUR = "#444444"
#: A surface's relief (courts that are not flat): the heights' diverging colour map (blue low, red
#: high) and its opacity over the zones' tints, the grade arrows', and the friction contours' colour.
RELIEF_COLOURMAP = "RdBu_r"
RELIEF_ALPHA = 0.45
GRADE_ARROW_COLOUR = "#263238"
FRICTION_COLOUR = "#6a1b9a"


def surface_colour_of(court: Court) -> str:
    """The playing surface's colour: the game's (the registry's ``surface_colour``), else a neutral grey."""
    entry = games().get(court.game)
    return entry.surface_colour if entry is not None else SURFACE_COLOUR


def team_colours(court: Court, teams: Sequence[str]) -> list[str]:
    """One colour per disc: a named colour team keeps its colour, other teams get the game's pair in
    order of first appearance, then ``FALLBACK_COLOURS``."""
    named = {t for t in teams if str(t).lower() in TEAM_COLOURS}
    sides = games()[court.game].sides if court.game in games() else ()
    free = [c for c in sides if c not in {str(t).lower() for t in named}]
    palette = [TEAM_COLOURS[c] for c in free] + list(FALLBACK_COLOURS)
    assigned: dict[str, str] = {}
    out = []
    for team in teams:
        key = str(team)
        if key.lower() in TEAM_COLOURS:
            out.append(TEAM_COLOURS[key.lower()])
            continue
        if key not in assigned:
            assigned[key] = palette[len(assigned) % len(palette)]
        out.append(assigned[key])
    return out


def text_colour(face: str) -> str:
    """Black or white, whichever reads on a disc of colour ``face`` (its luma)."""
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(face)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def zone_colours(court: Court) -> dict[int, tuple[float, float, float, float] | str]:
    """A light tint per zone value: blues to greens by rank for positive values, pink for negative
    ones (10-off), grey for 0; distinct for every value the court has."""
    from matplotlib import colormaps

    positive = sorted({z.value for z in court.zones if z.value > 0})
    tints: dict[int, tuple[float, float, float, float] | str] = {
        v: colormaps["YlGnBu"](0.62 - 0.42 * k / max(len(positive) - 1, 1)) for k, v in enumerate(positive[::-1])
    }
    tints.update({v: "#f4b6b6" for v in {z.value for z in court.zones if z.value < 0}})
    tints[0] = "#ececec"
    return tints
