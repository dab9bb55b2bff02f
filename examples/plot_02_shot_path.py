"""
A shot's path
=============

A scene is a court, any overrides of its materials and discs with their initial motion
(:doc:`/formats/scenes`). :func:`shuffle_sim.physics.simulate` runs it to rest exactly: the kernel
jumps from event to event (impacts, stops, falls), so where a disc comes to rest never depends on a
time step. Here a yellow disc is shot from the head's 10-off area to cut a black disc out of the far 10,
with another black disc resting in the 8 beside it. The command line's ``shuffle-sim simulate scene.json --plot
paths.png`` does the same from a scene file.
"""

import math

from shuffle_sim import Scene, load_court, simulate
from shuffle_sim.physics import sample_positions, speed_for_distance
from shuffle_sim.plot import plot_trajectories
from shuffle_sim.units import length

court = load_court("deck")
start = (length("9 in"), length("7 ft 3 in"))
target = (length("1 in"), length("36 ft 6 in"))
other = (length("-1 ft 3 in"), length("39 ft 9 in"))

# Aim half a disc radius right of the target's centre (a cut: the target leaves to the left), hard
# enough to slide 10 ft past it on an empty court: v = sqrt(2 a d) at the deceleration a = mu g of
# Coulomb friction.
aim = (target[0] + 0.5 * court.disc_radius, target[1])
dx, dy = aim[0] - start[0], aim[1] - start[1]
distance = math.hypot(dx, dy)
speed = speed_for_distance(distance + length("10 ft"), court.params["mu"] * court.params["gravity"])
print(f"launch speed {speed:.3f} m/s over {distance:.2f} m")

scene = Scene.from_dict(
    {
        "court": "deck",
        "discs": [
            {"x": target[0], "y": target[1], "team": "black"},
            {"x": other[0], "y": other[1], "team": "black"},
            {"x": start[0], "y": start[1], "vx": speed * dx / distance, "vy": speed * dy / distance, "team": "yellow"},
        ],
    }
)
result = simulate(scene)

# %%
# Every event, in time order: who touched whom, and each disc's standing at the time (a dead disc
# that touches a live one matters to MSA rule C-20a).
for event in result.events.records():
    print(f"t = {event['t']:6.3f} s  {event['kind']:<10s} disc {event['a']}  other {event['b']}")

for k, judged in enumerate(result.judging()):
    print(f"disc {k} ({scene.team[k]}): value {judged['value']}, dead {judged['dead']}")

# %%
# The exact paths, sampled at 400 instants for the drawing, with the discs where they came to rest,
# labelled with their judged values.
times, positions = sample_positions(result, 400)
plot_trajectories(court, times, positions, scene.team, "take-out.png", zoom="foot")
