"""Drawings with matplotlib: courts to scale, discs, trajectories and animations.

Everything is drawn in the court's own frame, in metres, with equal aspect: the surface, the
gutters, alleys or ditch beyond its edges, every line with its real width (lines the rules ignore,
such as the deck's separation triangle, dashed), the zones tinted and labelled with their values,
dead areas hatched (for the end being judged), hanger values beside the edges that give them,
cushions, pegs and holes. Courts with two scoring ends (deck) show the diagram at both ends.

==================  =======================================================================
module              what it draws
==================  =======================================================================
``colours``         team, surface, zone and court colours (the shot lab uses them too)
``court``           ``draw_court`` and ``draw_discs`` on an ``Axes`` the caller owns
``figures``         ``plot_court``: a court picture in a file (``plot_courts``: many of one court;
                    ``court_image``: as an RGB array); figure size, axes, ``zoom_box``
``paths``           ``plot_trajectories`` and ``animate_trajectories``
``surface``         ``draw_surface``: a surface's relief (heights, grade arrows, friction map)
==================  =======================================================================

No function here imports ``pyplot``: figures are made with ``matplotlib.figure.Figure`` on an Agg
canvas and written to files, so nothing depends on (or changes) the interactive backend.
"""

from shuffle_sim.plot.colours import TEAM_COLOURS, surface_colour_of, team_colours
from shuffle_sim.plot.court import draw_court, draw_discs
from shuffle_sim.plot.figures import (
    DEFAULT_DPI,
    court_figure,
    court_image,
    court_picture,
    finish_axes,
    plot_court,
    plot_courts,
    zoom_box,
)
from shuffle_sim.plot.paths import MAX_FRAMES, animate_trajectories, plot_trajectories

__all__ = [
    "DEFAULT_DPI",
    "MAX_FRAMES",
    "TEAM_COLOURS",
    "animate_trajectories",
    "court_figure",
    "court_image",
    "court_picture",
    "draw_court",
    "draw_discs",
    "finish_axes",
    "plot_court",
    "plot_courts",
    "plot_trajectories",
    "surface_colour_of",
    "team_colours",
    "zoom_box",
]
