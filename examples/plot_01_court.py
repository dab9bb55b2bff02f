"""
Draw a court to scale
=====================

A court is a data file (:doc:`/formats/courts`): its surface, lines with their real width, zones
with their values, and where discs fall. :func:`shuffle_sim.plot.plot_court` draws it to scale, and
judges any discs given with it, labelling each with its value. This is what
``shuffle-sim draw deck --zoom foot --disc X,Y,TEAM`` does on the command line.
"""

from shuffle_sim import load_court
from shuffle_sim.plot import plot_court
from shuffle_sim.units import length

deck = load_court("deck")
print(deck.title)
print(f"{len(deck.lines)} lines, {len(deck.zones)} zones, disc radius {deck.disc_radius * 1000:.1f} mm")

# %%
# The foot end of a deck court, with five discs. Positions are metres in the court's frame
# (origin at the centre of the head end, +y toward the foot); :func:`shuffle_sim.units.length`
# reads feet and inches. A disc on a line scores nothing (MSA rule D-2), one short of the far dead
# line is dead.
discs = [
    (0.0, length("36 ft 6 in"), "yellow"),  # in the 10
    (length("-8 in"), length("39 ft 6 in"), "black"),  # in an 8
    (length("9 in"), length("41 ft"), "yellow"),  # on the 8 / 7 line
    (0.0, length("44.8 ft"), "black"),  # in the 10-off area
    (length("1 ft"), length("31 ft 7 in"), "yellow"),  # short of the far dead line: dead
]
plot_court(deck, "deck-foot.png", discs=discs, zoom="foot")

# %%
# The crokinole board: the 20 hole, the 15, 10 and 5 circles with their values, the eight pegs on
# the 15 line and the ditch. A disc touching a dividing line counts the lower value.
board = load_court("crokinole")
r15 = length("4 in")
plot_court(
    board,
    "crokinole.png",
    discs=[(0.0, 0.0, "light"), (0.05, 0.06, "dark"), (r15, 0.0, "light"), (-0.15, 0.12, "dark")],
)
