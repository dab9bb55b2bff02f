"""
Judge a disc on a line
======================

Lines have width, and a disc that touches one is judged by the line: on the deck court it scores
nothing (MSA rule D-2), on the crokinole board it counts the lower of the two values. The judging
layer decides this geometrically from the court file (:doc:`/formats/courts`), for one disc
(:func:`shuffle_sim.judge`) or millions (:func:`shuffle_sim.judge_batch`) in one numba call.
:mod:`shuffle_sim.testing` states such boundaries in a test suite of your own.
"""

import matplotlib.pyplot as plt
import numpy as np

from shuffle_sim import judge, judge_batch, load_court
from shuffle_sim.plot import plot_court
from shuffle_sim.testing import probe_line, touching_point

deck = load_court("deck")
print(judge(deck, 0.0, 11.0))

# %%
# Three discs at the same place on the foot end's 11 ft line (between the 8s and the 7s): exactly
# tangent to the line's band, a nanometre into it, and a nanometre clear of it on the 8 side.
probe = probe_line(deck, "11 ft line", along=0.35, side=-1, hair=1e-9)
for name in ("touching", "inside", "clear"):
    print(f"{name:>8s}: value {getattr(probe, name)['value']}")

# %%
# The judged value of a disc slid across that line, centre by centre (one :func:`judge_batch` call
# for 2,001 centres): a 7 on one side, an 8 on the other, and 0 wherever the disc touches the 1 in
# band, a strip of the line's width plus a disc diameter.
line = next(ln for ln in deck.lines if ln.name == "11 ft line")
line_y = line.geom[1]  # a straight line runs from (x0, y0) to (x1, y1); this one across the court
offsets = np.linspace(-0.15, 0.15, 2001)
values = judge_batch(deck, np.full_like(offsets, 0.3), line_y + offsets).value

fig, ax = plt.subplots(figsize=(7, 3), layout="constrained")
ax.axvspan(
    -500 * line.width - 1000 * deck.disc_radius,
    500 * line.width + 1000 * deck.disc_radius,
    color="0.2",
    alpha=0.12,
    label="centres of discs touching the line",
)
ax.axvspan(-500 * line.width, 500 * line.width, color="0.2", alpha=0.35, label="the line's band (1 in)")
ax.step(offsets * 1000, values, where="mid", color="#1f4e79", linewidth=2)
ax.set_xlabel("disc centre from the line's centre, toward the foot (mm)")
ax.set_ylabel("judged value")
ax.set_yticks([0, 7, 8])
ax.legend(loc="center left", fontsize=8)
fig.savefig("value-across-a-line.png", dpi=100)
plt.close(fig)

# %%
# The same three positions drawn to scale: clear on the 8 side, tangent, and clear on the 7 side.
discs = [
    (*touching_point(deck, "11 ft line", along=0.35, side=-1, gap=0.02), "yellow"),
    (*touching_point(deck, "11 ft line", along=0.6, side=+1, gap=0.0), "black"),
    (*touching_point(deck, "11 ft line", along=0.85, side=+1, gap=0.02), "yellow"),
]
x0, y0 = discs[1][0], discs[1][1]
plot_court(deck, "on-the-line.png", discs=discs, zoom=(x0 - 0.9, y0 - 0.45, x0 + 0.9, y0 + 0.45))

# %%
# On the crokinole board a disc touching the 15 line counts 10, the lower value; a hair inside it,
# 15; touching the 5 line (the shooting line) it is dead.
board = load_court("crokinole")
for line, side in (("15 line", -1), ("5 line", -1)):
    p = probe_line(board, line, along=0.1, side=side)
    print(f"{line}: touching {p.touching['value']} (dead {p.touching['dead']}), clear inside {p.clear['value']}")
