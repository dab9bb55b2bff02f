"""The coupled friction law the kernel uses: F(eps) and T(eps), for the whole face and a ring."""

import matplotlib.pyplot as plt
import numpy as np

from shuffle_sim.physics._friction import force, terminal_ratio, torque

eps = np.logspace(-2, 2, 400)
fig, ax = plt.subplots(figsize=(6.5, 3.6), layout="constrained")
for eta, style, label in ((0.0, "-", "whole face"), (0.8, "--", "ring, inner radius 0.8 r")):
    ax.semilogx(eps, [force(e, eta) for e in eps], style, color="tab:blue", label=f"F, {label}")
    ax.semilogx(eps, [torque(e, eta) for e in eps], style, color="tab:orange", label=f"T, {label}")
    star = terminal_ratio(eta, 0.5)
    ax.plot([star], [force(star, eta)], "o", color="black", markersize=4)
    ax.annotate(f"{star:.3f}", (star, force(star, eta)), xytext=(6, -10), textcoords="offset points", fontsize=7)
ax.axvline(1.0, color="0.8", linewidth=0.8)
ax.set_xlabel(r"$\epsilon = v / (r\omega)$")
ax.set_ylabel(r"force / $\mu m g$,  torque / $\mu m g r$")
ax.set_title("friction force F and torque T; dots: the terminal ratio for k = 1/2", fontsize=9)
ax.legend(fontsize=7, loc="center right")
