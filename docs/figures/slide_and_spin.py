"""A disc launched with r omega = v on the deck court: speed and spin in time, coupled and decoupled."""

import matplotlib.pyplot as plt
import numpy as np

from shuffle_sim import load_court
from shuffle_sim.physics import slide_and_spin, terminal_ratio

deck = load_court("deck")
r, mu = deck.disc_radius, deck.params["mu"]
v0 = 1.0
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
for coupled, style in ((True, "-"), (False, "--")):
    motion = slide_and_spin(v0, v0 / r, radius=r, mu=mu, coupled=coupled)
    times = np.linspace(0.0, 1.25 * motion.stop_time if coupled else 9.0, 400)
    distance, speed, spin = motion.at(times)
    name = "coupled" if coupled else "decoupled"
    left.plot(times, speed, style, color="tab:blue", label=f"speed v, {name}")
    left.plot(times, r * spin, style, color="tab:orange", label=rf"$r\omega$, {name}")
    right.plot(times, distance, style, color="tab:green", label=f"{name}: stops after {motion.stop_distance:.2f} m")
left.set_xlabel("time (s)")
left.set_ylabel("m/s")
left.set_title(r"launched with $v_0 = r\omega_0$ = 1 m/s, deck court", fontsize=9)
left.legend(fontsize=7)
right.set_xlabel("time (s)")
right.set_ylabel("distance slid (m)")
right.set_title(f"coupled: v / (r omega) tends to {terminal_ratio():.3f}; both stop together", fontsize=9)
right.legend(fontsize=7)
