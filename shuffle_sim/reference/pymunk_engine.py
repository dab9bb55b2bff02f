"""The same scenes in pymunk (Chipmunk2D), a time-stepped engine used only to cross-validate the kernel.

The exact kernel (``shuffle_sim.physics``) advances from event to event in closed form; pymunk steps
time with a fixed ``dt`` and resolves contacts with an iterative impulse solver. Agreement between
two engines built so differently is the second line of validation in docs/design.md, 4. Validation. Pymunk's
rest positions approach the exact ones as ``dt`` shrinks, to first order: a lone disc overshoots
its stopping distance v0^2 / (2 mu g) by v0 dt / 2, because Chipmunk moves positions with the
velocity from before the step's friction impulse.

How each part of a court is set up (all SI, the court's own frame, seen from above, no gravity in
the plane):

- Floor friction, with the joint-friction technique: a ``PivotJoint`` from each disc's centre to the
  static body with ``max_bias = 0`` (it only resists velocity, never corrects position) and
  ``max_force = mu m g``, which caps the friction impulse per step at mu m g dt in any direction:
  kinetic Coulomb friction, deceleration mu g opposite the velocity (docs/design.md, 3. Physics model). Spin: a
  ``GearJoint`` to the static body with ``max_force`` = the friction torque of a uniform contact
  disc, (2/3) mu m g r, so spin decays at (4/3) mu g / r. As in the kernel's basic model, spin and
  translation are decoupled on the floor; they meet only in contacts.
- Discs: circles of mass m and moment k m r^2 (the court's ``inertia_ratio`` k, 1/2 for a uniform
  disc). Cushions: segments whose radius is half the
  cushion's thickness (a capsule); a circular cushion hit from inside (crokinole rail) is a ring of
  ``RAIL_SEGMENTS`` smooth segments tangent to the circle. Pegs: static circles.
- Materials: Chipmunk MULTIPLIES the two shapes' elasticities and frictions. Disc shapes get
  sqrt(e_disc) and sqrt(mu_disc); every other shape gets its wanted value divided by that, so each
  pair's product is the court's value. A court with a zero disc restitution or contact friction
  cannot be written as products; then the disc shapes carry 1 and a disc-disc ``pre_solve``
  handler sets the pair's value.
- Edges, kill lines and holes are checks on the disc's centre, not walls: each disc carries a
  zero-radius sensor circle at its centre, which meets sensor regions on the static body: the half
  plane beyond an edge (a disc whose centre crosses it falls and is removed), the half plane beyond
  a kill line (the disc becomes dead and keeps moving), a hole's capture circle (a disc over it
  slower than the capture speed drops in and is removed). Touching a cushion marked ``kills`` makes
  a disc dead (MSA C-20). All of these are collision callbacks, so Python runs once per event (or
  per step only while a disc is over a hole), never per body per step.
- Collision slop 1e-4 m instead of Chipmunk's default 0.1 m, which would let 6 in discs sink a
  tenth of a metre into each other. Sleeping is on: a disc at rest costs nothing until touched.
  The rest check runs every ``rest_check_every`` steps.

Status codes and the ``dead`` flag follow the kernel: 0 moving, 1 at rest, 2 fallen, 3 holed.
"""

from __future__ import annotations

import math

import numpy as np
import pymunk

from shuffle_sim.court import Court
from shuffle_sim.messages import shown
from shuffle_sim.physics.events import STATUS_FALLEN, STATUS_HOLED, STATUS_MOVING, STATUS_REST
from shuffle_sim.physics.numba_api import kernel_arrays
from shuffle_sim.physics.scene import Scene
from shuffle_sim.reference._pymunk_circles import EDGE_SEGMENTS, RAIL_SEGMENTS, outside_of_circle, ring_segments
from shuffle_sim.reference._pymunk_results import ReferenceEvent, ReferenceResult

__all__ = [
    "DEFAULT_COLLISION_SLOP",
    "DEFAULT_ITERATIONS",
    "EDGE_SEGMENTS",
    "RAIL_SEGMENTS",
    "REST_SPEED",
    "STATUS_FALLEN",
    "STATUS_HOLED",
    "STATUS_MOVING",
    "STATUS_REST",
    "PymunkCourt",
    "ReferenceEvent",
    "ReferenceResult",
    "simulate_reference",
]

#: Chipmunk lets contacts overlap this much (m) before pushing them apart (its default is 0.1).
DEFAULT_COLLISION_SLOP = 1e-4
#: Solver iterations per step (Chipmunk's default).
DEFAULT_ITERATIONS = 10
#: A disc slower than this (m/s, and rad/s for spin) counts as at rest. The friction joints stop a
#: disc exactly, so this only absorbs rounding.
REST_SPEED = 1e-9

# Collision types.
_DISC, _CUSHION, _KILL_CUSHION, _PEG, _CENTRE, _FALL, _KILL_REGION, _HOLE = range(1, 9)
# Filter categories: discs meet discs and walls; a disc's centre sensor meets only the regions.
_CAT_DISC, _CAT_WALL, _CAT_CENTRE, _CAT_REGION = 1, 2, 4, 8
_DISC_FILTER = pymunk.ShapeFilter(categories=_CAT_DISC, mask=_CAT_DISC | _CAT_WALL)
_WALL_FILTER = pymunk.ShapeFilter(categories=_CAT_WALL, mask=_CAT_DISC)
_CENTRE_FILTER = pymunk.ShapeFilter(categories=_CAT_CENTRE, mask=_CAT_REGION)
_REGION_FILTER = pymunk.ShapeFilter(categories=_CAT_REGION, mask=_CAT_CENTRE)


def _check_positive(name: str, value: float) -> float:
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"reference engine: {name} must be a positive number (got {shown(value)})")
    return value


class PymunkCourt:
    """A court in a pymunk space, to which discs are added and which runs until everything rests.

    Discs stay in the space between runs, so a half-round is: add the first shot, ``run()``, add the
    next shot among the resting discs, ``run()``, and so on. Disc indices count up in the order the
    discs were added.
    """

    def __init__(
        self,
        court: Court,
        dt: float = 1e-3,
        *,
        collision_slop: float = DEFAULT_COLLISION_SLOP,
        iterations: int = DEFAULT_ITERATIONS,
        sleep: bool = True,
        rest_check_every: int = 10,
        record_events: bool = True,
    ) -> None:
        self.court = court
        self.dt = _check_positive("dt", dt)
        if int(rest_check_every) < 1:
            raise ValueError(f"reference engine: rest_check_every must be at least 1 (got {shown(rest_check_every)})")
        if int(iterations) < 1:
            raise ValueError(f"reference engine: iterations must be at least 1 (got {shown(iterations)})")
        self.rest_check_every = int(rest_check_every)
        self.record_events = record_events
        self.steps = 0
        self.events: list[ReferenceEvent] = []

        p = court.params
        self.radius = court.disc_radius
        self.mass = court.disc_mass
        self.moment = p["inertia_ratio"] * self.mass * self.radius**2
        self.friction_force = p["mu"] * self.mass * p["gravity"]
        # The mean lever arm over the contact annulus (radii eta r to r), as the kernel's pure spin.
        eta = p["contact_inner_ratio"]
        lever = 2.0 / 3.0 * (1.0 + eta + eta * eta) / (1.0 + eta)
        self.friction_torque = lever * p["mu"] * self.mass * p["gravity"] * self.radius

        space = pymunk.Space()
        space.gravity = (0.0, 0.0)
        space.collision_slop = _check_positive("collision_slop", collision_slop)
        space.iterations = int(iterations)
        if sleep:
            space.idle_speed_threshold = REST_SPEED
            space.sleep_time_threshold = 5.0 * self.dt
        self.space = space

        # Chipmunk multiplies the two shapes' values; discs carry the square roots (see module doc).
        e_disc, f_disc = p["disc_restitution"], p["disc_friction"]
        self._disc_elasticity = math.sqrt(e_disc) if e_disc > 0 else 1.0
        self._disc_friction = math.sqrt(f_disc) if f_disc > 0 else 1.0
        self._disc_pair_override = e_disc == 0 or f_disc == 0

        self._bodies: list[pymunk.Body] = []
        self._shapes: list[tuple[pymunk.Shape, ...]] = []
        self._joints: list[tuple[pymunk.Constraint, ...]] = []
        self._index: dict[pymunk.Body, int] = {}
        self._status: list[int] = []
        self._dead: list[bool] = []
        self._final: dict[int, tuple[float, float, float, float, float]] = {}
        self._in_space: list[bool] = []
        self._hole_of: dict[int, int] = {}
        self._removals: list[int] = []  # fallen or holed discs to take out after the step

        self._wall_index: dict[pymunk.Shape, int] = {}
        self._build_walls()
        self._build_regions()
        self._install_handlers()

    # ---- construction ----------------------------------------------------------------------------
    def _wall_material(self, shape: pymunk.Shape, restitution: float, friction: float) -> None:
        shape.elasticity = restitution / self._disc_elasticity
        shape.friction = friction / self._disc_friction
        shape.filter = _WALL_FILTER

    def _build_walls(self) -> None:
        static = self.space.static_body
        for k, cushion in enumerate(self.court.cushions):
            kind = _KILL_CUSHION if cushion.kills else _CUSHION
            if cushion.kind == "segment":
                x0, y0, x1, y1 = cushion.geom
                shapes = [pymunk.Segment(static, (x0, y0), (x1, y1), cushion.thickness / 2)]
            else:
                cx, cy, radius, _ = cushion.geom
                shapes = ring_segments(static, cx, cy, radius)
            for shape in shapes:
                self._wall_material(shape, cushion.restitution, cushion.friction)
                shape.collision_type = kind
                self._wall_index[shape] = k
            self.space.add(*shapes)
        for k, peg in enumerate(self.court.pegs):
            peg_shape = pymunk.Circle(static, peg.radius, (peg.x, peg.y))
            self._wall_material(peg_shape, peg.restitution, peg.friction)
            peg_shape.collision_type = _PEG
            self._wall_index[peg_shape] = k
            self.space.add(peg_shape)

    def _build_regions(self) -> None:
        """Sensor regions that a disc's centre enters when it falls, dies past a kill line or is holed."""
        static = self.space.static_body
        xmin, ymin, xmax, ymax = self.court.bounds
        reach = 4.0 * math.hypot(xmax - xmin, ymax - ymin) + 1.0  # far beyond the court

        regions: list[tuple[pymunk.Shape, int, int]] = []
        for k, edge in enumerate(self.court.edges):
            if edge.kind == "segment":
                x0, y0, x1, y1 = edge.geom
                nx, ny = edge.inward_normal()
                ox, oy = -nx * reach, -ny * reach
                quad = [(x0, y0), (x1, y1), (x1 + ox, y1 + oy), (x0 + ox, y0 + oy)]
                regions.append((pymunk.Poly(static, quad, radius=0.0), _FALL, k))
            else:
                cx, cy, radius, _ = edge.geom
                for quad in outside_of_circle(cx, cy, radius, reach):
                    regions.append((pymunk.Poly(static, quad, radius=0.0), _FALL, k))
        kernel = kernel_arrays(self.court)
        for k, (px, py, nx, ny) in enumerate(kernel.kill_lines):
            tx, ty = -ny * reach, nx * reach
            quad = [
                (px - tx, py - ty),
                (px + tx, py + ty),
                (px + tx + nx * reach, py + ty + ny * reach),
                (px - tx + nx * reach, py - ty + ny * reach),
            ]
            regions.append((pymunk.Poly(static, quad, radius=0.0), _KILL_REGION, k))
        self._hole_speed: dict[pymunk.Shape, float] = {}
        for k, hole in enumerate(self.court.holes):
            shape = pymunk.Circle(static, hole.capture_radius, (hole.x, hole.y))
            regions.append((shape, _HOLE, k))
            self._hole_speed[shape] = hole.capture_speed
        for region, kind, k in regions:
            region.sensor = True
            region.collision_type = kind
            region.filter = _REGION_FILTER
            self._wall_index[region] = k
            self.space.add(region)

    def _install_handlers(self) -> None:
        space = self.space

        def disc_of(shape: pymunk.Shape) -> int:
            assert shape.body is not None, "a disc's shape is on its body"
            return self._index[shape.body]

        def kill_cushion(arbiter, _space, _data):
            disc, wall = arbiter.shapes
            i = disc_of(disc)
            self._note("cushion", i, self._wall_index[wall])
            self._make_dead(i, -1)

        def kill_region(arbiter, _space, _data):
            centre, region = arbiter.shapes
            self._make_dead(disc_of(centre), self._wall_index[region])

        def fall(arbiter, _space, _data):
            centre, region = arbiter.shapes
            i = disc_of(centre)
            if self._status[i] < STATUS_FALLEN:
                self._note("fall", i, self._wall_index[region])
                self._status[i] = STATUS_FALLEN
                self._removals.append(i)

        def over_hole(arbiter, _space, _data):
            centre, region = arbiter.shapes
            i = disc_of(centre)
            if self._status[i] < STATUS_FALLEN and centre.body.velocity.length < self._hole_speed[region]:
                self._note("holed", i, self._wall_index[region])
                self._status[i] = STATUS_HOLED
                self._hole_of[i] = self._wall_index[region]
                self._removals.append(i)

        space.on_collision(_DISC, _KILL_CUSHION, begin=kill_cushion)
        space.on_collision(_CENTRE, _KILL_REGION, begin=kill_region)
        space.on_collision(_CENTRE, _FALL, begin=fall)
        space.on_collision(_CENTRE, _HOLE, pre_solve=over_hole)

        disc_pair = {}
        if self._disc_pair_override:
            e_disc, f_disc = self.court.params["disc_restitution"], self.court.params["disc_friction"]

            def set_disc_pair(arbiter, _space, _data):
                arbiter.restitution = e_disc
                arbiter.friction = f_disc

            disc_pair["pre_solve"] = set_disc_pair
        if self.record_events:

            def disc_disc(arbiter, _space, _data):
                a, b = arbiter.shapes
                i, j = sorted((disc_of(a), disc_of(b)))
                self._note("disc", i, j)

            def disc_wall(kind):
                def note(arbiter, _space, _data):
                    disc, wall = arbiter.shapes
                    self._note(kind, disc_of(disc), self._wall_index[wall])

                return note

            disc_pair["begin"] = disc_disc
            space.on_collision(_DISC, _CUSHION, begin=disc_wall("cushion"))
            space.on_collision(_DISC, _PEG, begin=disc_wall("peg"))
        if disc_pair:
            space.on_collision(_DISC, _DISC, **disc_pair)

    # ---- events and state ------------------------------------------------------------------------
    @property
    def time(self) -> float:
        """Simulated time since the table was built (s)."""
        return self.steps * self.dt

    @property
    def n_discs(self) -> int:
        return len(self._bodies)

    def _note(self, kind: str, i: int, j: int) -> None:
        if self.record_events:
            event = ReferenceEvent((self.steps + 1) * self.dt, kind, i, j)  # called during a step
            # A disc meeting two segments of one ring cushion in one step is one event.
            if not self.events or self.events[-1] != event:
                self.events.append(event)

    def _make_dead(self, i: int, cause: int) -> None:
        if not self._dead[i]:
            self._dead[i] = True
            self._note("killed", i, cause)

    def add_disc(self, x: float, y: float, vx: float = 0.0, vy: float = 0.0, omega: float = 0.0) -> int:
        """Put a disc on the court with the given centre (m), velocity (m/s) and spin (rad/s, CCW)."""
        for name, value in (("x", x), ("y", y), ("vx", vx), ("vy", vy), ("omega", omega)):
            if not math.isfinite(float(value)):
                raise ValueError(f"reference engine: disc {self.n_discs}: {name} must be finite (got {shown(value)})")
        body = pymunk.Body(self.mass, self.moment)
        body.position = (float(x), float(y))
        body.velocity = (float(vx), float(vy))
        body.angular_velocity = float(omega)
        disc = pymunk.Circle(body, self.radius)
        disc.elasticity = self._disc_elasticity
        disc.friction = self._disc_friction
        disc.collision_type = _DISC
        disc.filter = _DISC_FILTER
        centre = pymunk.Circle(body, 0.0)
        centre.sensor = True
        centre.collision_type = _CENTRE
        centre.filter = _CENTRE_FILTER
        slide = pymunk.PivotJoint(self.space.static_body, body, (float(x), float(y)), (0.0, 0.0))
        slide.max_bias = 0.0
        slide.max_force = self.friction_force
        spin = pymunk.GearJoint(self.space.static_body, body, 0.0, 1.0)
        spin.max_bias = 0.0
        spin.max_force = self.friction_torque
        index = len(self._bodies)
        self._index[body] = index
        self._bodies.append(body)
        self._shapes.append((disc, centre))
        self._joints.append((slide, spin))
        self._status.append(STATUS_MOVING)
        self._dead.append(False)
        self._in_space.append(True)
        self.space.add(body, disc, centre, slide, spin)
        return index

    def _remove_pending(self) -> None:
        for i in self._removals:
            body = self._bodies[i]
            x, y = body.position
            if self._status[i] == STATUS_HOLED:  # into the hole: it ends at the hole's centre
                hole = self.court.holes[self._hole_of[i]]
                x, y = hole.x, hole.y
            self._final[i] = (x, y, 0.0, 0.0, 0.0)
            self.space.remove(body, *self._shapes[i], *self._joints[i])
            self._in_space[i] = False
        self._removals.clear()

    def _all_resting(self) -> bool:
        for i, body in enumerate(self._bodies):
            if not self._in_space[i] or body.is_sleeping:
                continue
            vx, vy = body.velocity
            if abs(vx) > REST_SPEED or abs(vy) > REST_SPEED or abs(body.angular_velocity) > REST_SPEED:
                return False
        return True

    def run(self, max_time: float = 300.0) -> bool:
        """Step until every disc in play rests (checked every ``rest_check_every`` steps) or
        ``max_time`` more seconds pass. Returns True when everything came to rest."""
        max_steps = self.steps + math.ceil(_check_positive("max_time", max_time) / self.dt)
        step = self.space.step
        dt = self.dt
        check_every = self.rest_check_every
        settled = False
        while self.steps < max_steps:
            step(dt)
            self.steps += 1
            if self._removals:
                self._remove_pending()
            if self.steps % check_every == 0 and self._all_resting():
                settled = True
                break
        for i, body in enumerate(self._bodies):
            if self._in_space[i]:
                resting = settled or (body.velocity.length <= REST_SPEED and abs(body.angular_velocity) <= REST_SPEED)
                self._status[i] = STATUS_REST if resting else STATUS_MOVING
        return settled

    def result(self) -> ReferenceResult:
        """The state of every disc added so far."""
        n = self.n_discs
        state = np.zeros((5, n))
        for i, body in enumerate(self._bodies):
            if self._in_space[i]:
                state[:, i] = (
                    body.position.x,
                    body.position.y,
                    body.velocity.x,
                    body.velocity.y,
                    body.angular_velocity,
                )
            else:
                state[:, i] = self._final[i]
        status = np.array(self._status, dtype=np.int8)
        return ReferenceResult(
            x=state[0],
            y=state[1],
            vx=state[2],
            vy=state[3],
            omega=state[4],
            status=status,
            dead=np.array(self._dead, dtype=bool),
            ok=bool(np.all(status != STATUS_MOVING)),
            time=self.time,
            steps=self.steps,
            dt=self.dt,
            events=list(self.events),
        )


def simulate_reference(
    scene: Scene,
    dt: float = 1e-3,
    *,
    max_time: float = 300.0,
    collision_slop: float = DEFAULT_COLLISION_SLOP,
    iterations: int = DEFAULT_ITERATIONS,
    sleep: bool = True,
    rest_check_every: int = 10,
    record_events: bool = True,
) -> ReferenceResult:
    """Run a scene in pymunk with time step ``dt`` (s) until every disc rests, falls or is holed.

    All discs start at once with their scene velocities and spins. ``max_time`` bounds the run; a
    scene still moving then ends with ``ok = False`` and those discs' status 0 (moving). The scene is
    validated first (``SceneError`` for non-finite values, discs off the surface or overlapping).
    """
    scene.validate()
    table = PymunkCourt(
        scene.court,
        dt,
        collision_slop=collision_slop,
        iterations=iterations,
        sleep=sleep,
        rest_check_every=rest_check_every,
        record_events=record_events,
    )
    for k in range(scene.n_discs):
        table.add_disc(scene.x[k], scene.y[k], scene.vx[k], scene.vy[k], scene.omega[k])
    table.run(max_time)
    return table.result()
