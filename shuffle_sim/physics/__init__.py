"""The physics kernel: discs sliding, colliding, bouncing, falling and dropping into holes, exactly.

The model, in plain words
-------------------------
* **Sliding.** A disc slides under kinetic Coulomb friction: it slows at ``mu g`` along a straight
  line and stops after v^2 / (2 mu g) metres and v / (mu g) seconds. Between events everything is in
  closed form, so where a disc comes to rest never depends on a time step.
* **Spin** slows on its own at (4/3) mu g / r (a uniform disc pressing evenly on its face). Here
  translation and spin are *decoupled*: spin never bends a path and the two do not stop together.
  Real sliding, spinning discs do couple: they stop at the same instant with a fixed ratio of speed
  to spin (Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett. 90, 248302, 2003). Spin matters here
  only through contact friction at impacts, where it is exchanged between discs and cushions.
* **Impacts** are instantaneous: a normal impulse with restitution ``e`` plus a friction impulse
  capped by Coulomb's law that changes the spins (``resolve``). Momentum is conserved and kinetic
  energy never increases.
* **Cushions and bumpers** are segments with a thickness (capsules) or circles hit from inside;
  **pegs** are fixed circles; each has its own restitution and friction. A cushion may *kill*: the
  disc that touches it becomes dead (deck backstop, MSA C-20) and slides on.
* **Edges.** A disc falls, and leaves play, when its centre crosses an edge; until then it may hang
  over. **Holes** take a disc whose centre is within the capture radius while it is no faster than
  the capture speed; it ends at the hole's centre, out of play.
* **Kill lines** change a disc's standing without touching its motion: a deck disc entirely past the
  far baseline is dead (C-21) but still slides and can still hit live discs (C-20a).

How it is computed
------------------
Event-driven (``kernel``): the earliest of all predicted events (``predict``) is applied, and only
what it changed is predicted again. Times of impact are exact (``toi``): linear and quadratic
equations for a disc against anything fixed, a quartic with isolated, polished roots for two
sliding discs. Touching discs that approach are resolved at once, so a Newton's cradle passes its
momentum down the line in one impulse per pair. A lone disc (a shot at an empty board) runs the
same loop with its state in local variables (``lone``). The court reaches the kernel packed in one
array (``table``); ``motion`` holds the closed-form motion and the state layout, ``events`` the codes.

Limits
------
* Translation and spin are decoupled (above); no rolling, no curl, no surface variations.
* Impacts are pairwise and instantaneous: simultaneous impacts become a quick sequence of pairwise
  impulses, so a perfectly symmetric triple collision may come out slightly asymmetric.
* Discs left touching and pushed together by their friction (both sliding, barely separating)
  move on as one, with any sliding discs touching them: a stand-in for the sustained contact force
  real discs exchange, which this impulse model does not have (``kernel``).
* Contacts have tolerances of 1e-9 m and 1e-9 m/s, and a pushed contact may overlap by 1e-10 m
  before it is resolved again (``toi``).
* A disc pinched between touching discs with little restitution can need thousands of pairwise
  impulses at one instant; after 256 impacts at one instant the touching group moves on as one
  (``kernel``), as a pushed group does.
* Fallen discs leave play at the edge; gutters, alleys and ditches are not simulated beyond that.
* Every court has one disc size and mass; discs are uniform (I = m r^2 / 2).
"""

from shuffle_sim.physics.events import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    EVENT_NAMES,
    FALL,
    HOLED,
    KILLED,
    SPIN_STOP,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
    STATUS_NAMES,
    STATUS_REST,
    STOP,
)
from shuffle_sim.physics.simulate import (
    EventLog,
    SimResult,
    Trajectories,
    check_obstacles,
    obstacle_at_start,
    sample_positions,
    simulate,
)

__all__ = [
    "DISC_CUSHION",
    "DISC_DISC",
    "DISC_PEG",
    "EVENT_NAMES",
    "FALL",
    "HOLED",
    "KILLED",
    "SPIN_STOP",
    "STATUS_FALLEN",
    "STATUS_HOLED",
    "STATUS_MOVING",
    "STATUS_NAMES",
    "STATUS_REST",
    "STOP",
    "EventLog",
    "SimResult",
    "Trajectories",
    "check_obstacles",
    "obstacle_at_start",
    "sample_positions",
    "simulate",
]
