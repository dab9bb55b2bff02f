"""The physics kernel: discs sliding, colliding, bouncing, falling and dropping into holes, exactly.

The model, in plain words
-------------------------
* **Sliding.** A disc slides under kinetic Coulomb friction along a straight line. Without spin it
  slows at ``mu g`` and stops after v^2 / (2 mu g) metres and v / (mu g) seconds. Between events
  everything is exact, so where a disc comes to rest never depends on a time step.
* **Sliding and spinning, coupled** (``spin_model = "coupled"``, the default). Every element of the
  contact face rubs against its own velocity, so a spinning disc brakes less, its spin slows less
  than pure spin would, and both motions stop at the same instant, with v / (r omega) tending to
  0.653 for a uniform disc on its whole face (Farkas, Bartels, Unger and Wolf, Phys. Rev. Lett. 90,
  248302, 2003). The force and torque are mu m g F(eps) and mu m g r T(eps), eps = v / (r omega),
  in closed form for a contact annulus of inner radius ``contact_inner_ratio`` (``face_friction``); the
  motion from any start comes from one dimensionless tabulation per annulus and inertia ratio
  ``inertia_ratio`` (``laws.closed_form.coupled``). A disc launched with r omega = v slides 27 % farther than
  without spin, with r omega = 2 v 97 % farther. The path stays straight. The inertia ratio must lie
  in Weidman and Malhotra's window, (1 + eta^2)/4 < k < 2 (1 + eta + eta^2)/3, where both motions
  end together at a finite ratio.
* **Spin without sliding** decays at mu g T(0) / (k r), (4/3) mu g / r for a uniform disc on its whole
  face, and ends with a ``spin_stop`` event. In the decoupled model (``spin_model = "decoupled"``,
  kept for comparison and for the pymunk cross-checks) spin always decays so, independently of the
  slide: spin never changes a slide, and the two stop separately.
* **Impacts** are instantaneous: a normal impulse with restitution ``e`` plus a friction impulse
  capped by Coulomb's law that changes the spins (``contacts.impulses``). Momentum is conserved and kinetic
  energy never increases. A material pair's restitution may fall with the normal impact speed
  above a yield speed, as (v_y / v)^(1/4) (Johnson's plastic-impact scaling, ``contacts.restitution``);
  by default it is a constant.
* **Cushions and bumpers** are segments with a thickness (capsules) or circles hit from inside;
  **pegs** are fixed circles; each has its own restitution and friction. A cushion may *kill*: the
  disc that touches it becomes dead (deck backstop, MSA C-20) and slides on.
* **Edges.** A disc falls, and leaves play, when its centre crosses an edge; until then it may hang
  over. **Holes** take a disc whose centre is within the capture radius while it is no faster than
  the capture speed; it ends at the hole's centre, out of play.
* **Kill lines** change a disc's standing without touching its motion: a deck disc entirely past the
  far baseline is dead (C-21) but still slides and can still hit live discs (C-20a).
* **Surfaces that are not flat** (a court's ``[surface]`` slope, crown, height map and friction
  map: ``court.surface_shape``). In the small-slope model a disc feels the in-plane gravity
  -g grad h(x, y) and Coulomb friction mu m(x, y) with the normal force m g (m the friction map's
  multiplier), against its velocity, times F(eps) with the torque T(eps) while coupled spin lasts.
  The path curves and drifts downhill: the drift grows as 1 / mu at equal length of slide, so fast
  courts drift more, and a spinning disc, braked less, drifts farther. A surface steeper than its
  friction anywhere is refused at load (a disc there would never rest).

How it is computed
------------------
One event loop (``loop``) over two motion laws (``laws``). The loop takes the earliest of all
predicted events (each body's own next event, each disc's kill-line crossing and spin stop, each
pair's impact), logs it, applies it, and predicts again only what it changed; the rules of contacts,
impacts, storms, kills and logs are written there once. A motion law says how discs move between
events and predicts their events:

* **closed form** (``laws.closed_form``), flat courts with Coulomb friction: times of impact are
  exact (``toi``): linear and quadratic equations in arc length for a disc against anything fixed
  (the path is straight in both spin models, so only the conversion of arc length to time depends
  on the model: closed form, or Newton on the coupled tables), a quartic with isolated, polished
  roots for two sliding discs without spin, and a conservative advancement for two sliding discs
  when one spins in the coupled model: each disc's deceleration is bounded by F at its present
  ratio and at its terminal ratio (F is monotone), so the true separation stays within a known
  margin of the mean parabolas' quartic, and no contact is ever stepped over. A lone disc (a shot
  at an empty board) runs the same rules with its state in local variables (``lone``);
* **integrated** (``laws.integrated``), courts that are not flat: every body advances by an
  adaptive Dormand-Prince 8(5,3) with dense output (``dop853``, ``step``) in a regularised
  variable in which the stop is approached smoothly (``motion``), to a tolerance per step that
  keeps rest positions within 1e-7 m and stop times within 1e-7 relative of a brute-force
  reference (``reference.surface_motion``, scipy's DOP853 at 1e-13), and impacts within 1e-6 m.
  Events are found by root-finding on the dense output, over a bound of how far the path can leave
  its chord in a step (the surface's bounds of acceleration and friction), so no contact is stepped
  over (``shapes``, ``pairs``); predictions hold up to the end of each body's present step. A
  spin-free disc on a stretch of uniform grade ends in the closed form of the classical hodograph
  of a body sliding on a rough incline.

The court chooses the law (``laws.choice``), and every face is written once for both: ``simulate``
and ``sample_positions`` (``faces.simulate``), the scene batch (``faces.scene_batch``) and the
batch API's kernels (``faces.shot_kernels``). A law is a value whose numba type picks its code while
compiling (``laws.law``, ``laws.ops``), so a flat court's kernels hold nothing of the integrated law.

The house
---------
The parts of the package, from the bottom; imports flow one way, down this list:

``events``
    event and status codes
``face_friction``
    the coupled model's F(eps) and T(eps) over the contact face (Farkas et al.)
``tables``
    the court, its surface and the coupled model's tables packed for the kernels
``state``
    the discs' state rows every law shares, the event log, the earliest event
``contacts``
    impulses, restitution, bounces, discs pushed together and storms, contact tolerances
``laws``
    the motion laws (closed form, integrated), their one interface, the court's choice
``loop``
    the event loop
``scene``
    a scene to run: the court and its discs (``Scene``)
``faces``
    ``simulate``, the scene batch and the batch API's kernels
``numba_api``
    what other packages' numba code may call

Limits
------
* Uniform pressure over the contact annulus: no curl from uneven pressure, no rolling; on a flat
  court the path between events is straight in both models.
* Surfaces: small slopes only. The normal force is taken as m g and the in-plane gravity as
  -g grad h, which errs by the order of the square of the grade (1e-6 for a 1-in-1000 grade); the disc is a
  point on the surface (its face does not follow the curvature under it); a disc at rest stays at
  rest (static friction exceeds the grade, which loading checks). A height map is a bicubic spline
  through its grid (the grade continuous, its curvature jumping from cell to cell), and its
  motion is integrated to a tighter tolerance, about a tenth of the speed of a slope and crown.
  A disc pressed against a cushion or peg by the grade rides it without contact friction, and so
  does a group of discs pressed together that meets one slowly (through the disc that touches it).
  A disc the grade presses against a rider, bouncing off it rather than moving on with it, can
  still start a sequence of impacts without end, which stops at the event bound (``ok`` False):
  seen on a domed ricochet table.
  Curved courts run at a few per cent of the flat kernel's speed (``shuffle-sim bench``'s
  ``surface`` entry).
* Impacts are pairwise and instantaneous: simultaneous impacts become a quick sequence of pairwise
  impulses, so a perfectly symmetric triple collision may come out slightly asymmetric.
* Discs left touching and pushed together by their friction (both sliding, barely separating)
  move on as one, with any sliding discs touching them: a stand-in for the sustained contact force
  real discs exchange, which this impulse model does not have (``contacts.pushing``). In the coupled model
  they also share their spin, so they share one deceleration and stay exactly together.
* The coupled pair search gives up, claiming no contact, after ``pair_predict.PAIR_SEARCH_STEPS`` steps
  (two discs grazing side by side for a long time, never seen in the tests).
* Contacts have tolerances of 1e-9 m and 1e-9 m/s, and a pushed contact may overlap by 1e-10 m
  before it is resolved again (``contacts.tolerances``).
* A disc pinched between touching discs with little restitution can need thousands of pairwise
  impulses at one instant; after 256 impacts at one instant the touching group moves on as one,
  as a pushed group does, and a disc meets a cushion or peg with restitution 0 (``contacts.pushing``).
* Fallen discs leave play at the edge; gutters, alleys and ditches are not simulated beyond that.
* Every court has one disc size, mass and inertia ratio.

The public names below load their module on first use; kernel internals that other packages'
numba loops call are declared in ``numba_api`` and imported from there only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shuffle_sim._runtime.lazy import lazy_face

#: Public name -> the module that defines it.
_FACE = {
    "DISC_CUSHION": "shuffle_sim.physics.events",
    "DISC_DISC": "shuffle_sim.physics.events",
    "DISC_PEG": "shuffle_sim.physics.events",
    "EVENT_NAMES": "shuffle_sim.physics.events",
    "FALL": "shuffle_sim.physics.events",
    "HOLED": "shuffle_sim.physics.events",
    "KILLED": "shuffle_sim.physics.events",
    "SPIN_STOP": "shuffle_sim.physics.events",
    "STATUS_FALLEN": "shuffle_sim.physics.events",
    "STATUS_HOLED": "shuffle_sim.physics.events",
    "STATUS_MOVING": "shuffle_sim.physics.events",
    "STATUS_NAMES": "shuffle_sim.physics.events",
    "STATUS_REST": "shuffle_sim.physics.events",
    "STOP": "shuffle_sim.physics.events",
    "EventLog": "shuffle_sim.physics.faces.simulate",
    "SimResult": "shuffle_sim.physics.faces.simulate",
    "Trajectories": "shuffle_sim.physics.faces.simulate",
    "check_max_events": "shuffle_sim.physics.faces.simulate",
    "check_obstacles": "shuffle_sim.physics.faces.simulate",
    "obstacle_at_start": "shuffle_sim.physics.faces.simulate",
    "sample_positions": "shuffle_sim.physics.faces.simulate",
    "simulate": "shuffle_sim.physics.faces.simulate",
    "Scene": "shuffle_sim.physics.scene",
    "SceneError": "shuffle_sim.physics.scene",
    "speed_for_distance": "shuffle_sim.physics.laws.closed_form.slide",
    "restitution_at": "shuffle_sim.physics.contacts.restitution",
    "SlideSpin": "shuffle_sim.physics.laws.closed_form.lone_motion",
    "slide_and_spin": "shuffle_sim.physics.laws.closed_form.lone_motion",
    "terminal_ratio": "shuffle_sim.physics.laws.closed_form.lone_motion",
}

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
    "Scene",
    "SceneError",
    "SimResult",
    "SlideSpin",
    "Trajectories",
    "check_max_events",
    "check_obstacles",
    "obstacle_at_start",
    "restitution_at",
    "sample_positions",
    "simulate",
    "slide_and_spin",
    "speed_for_distance",
    "terminal_ratio",
]

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())

if TYPE_CHECKING:  # the same names, imported outright, for type checkers and editors
    from shuffle_sim.physics.contacts.restitution import restitution_at
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
    from shuffle_sim.physics.faces.simulate import (
        EventLog,
        SimResult,
        Trajectories,
        check_max_events,
        check_obstacles,
        obstacle_at_start,
        sample_positions,
        simulate,
    )
    from shuffle_sim.physics.laws.closed_form.lone_motion import SlideSpin, slide_and_spin, terminal_ratio
    from shuffle_sim.physics.laws.closed_form.slide import speed_for_distance
    from shuffle_sim.physics.scene import Scene, SceneError
