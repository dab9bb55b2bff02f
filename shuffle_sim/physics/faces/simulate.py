"""Run one scene through the kernel from Python: ``simulate(scene) -> SimResult``.

The wrapper converts the scene to arrays once, calls the numba kernel once, and wraps what comes
back: the final state, the contact log (``EventLog``) and the exact piecewise trajectories, from
which ``sample_positions`` gives positions at any instants for plots and animations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.compile_ahead import start_plan
from shuffle_sim.court import Court
from shuffle_sim.messages import shown
from shuffle_sim.physics.events import DISC_CUSHION, DISC_DISC, DISC_PEG, EVENT_NAMES, STATUS_FALLEN, STATUS_NAMES
from shuffle_sim.physics.laws import ops
from shuffle_sim.physics.laws.choice import court_law, court_motion, trajectory_log
from shuffle_sim.physics.laws.law import CLOSED_FORM, Law
from shuffle_sim.physics.loop import (
    run_from_start,
)
from shuffle_sim.physics.scene import OVERLAP_TOLERANCE, Scene, SceneError
from shuffle_sim.physics.state import DEAD, EV_COLUMNS, STATUS
from shuffle_sim.physics.tables.court_table import H_DECEL, obstacle_overlap
from shuffle_sim.physics.tables.packing import court_table


@dataclass(frozen=True)
class EventLog:
    """Everything that happened, in time order: who touched whom and when, with their standing.

    ``kind`` holds ``events`` codes; ``a`` is the disc; ``b`` the other disc, cushion (index in
    ``court.cushions``), peg, hole or kill line, or -1. ``a_dead``/``b_dead`` are the discs' dead
    standing just before the event (``b_dead`` is False when b is not a disc), which is what rules
    such as MSA C-20a (a dead disc touching a live one) need.
    """

    t: np.ndarray  # float64 (E,)
    kind: np.ndarray  # int32
    a: np.ndarray  # int32
    b: np.ndarray  # int32
    a_dead: np.ndarray  # bool
    b_dead: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.t)

    def __iter__(self):
        """The events in time order, one record each (``records``): ``for event in result.events``."""
        return iter(self.records())

    def __repr__(self) -> str:
        kinds = [EVENT_NAMES[int(k)] for k in self.kind]
        counts = ", ".join(f"{kinds.count(name)} {name}" for name in EVENT_NAMES if name in kinds)
        return f"EventLog({len(self)} events{': ' if counts else ''}{counts})"

    def contacts(self) -> EventLog:
        """Only the contacts: disc-disc, disc-cushion and disc-peg events."""
        keep = np.isin(self.kind, (DISC_DISC, DISC_CUSHION, DISC_PEG))
        return EventLog(*(getattr(self, f)[keep] for f in ("t", "kind", "a", "b", "a_dead", "b_dead")))

    def records(self) -> list[dict]:
        """The log as the command line's JSON prints it."""
        return [
            {
                "t": float(self.t[k]),
                "kind": EVENT_NAMES[int(self.kind[k])],
                "a": int(self.a[k]),
                "b": int(self.b[k]),
                "a_dead": bool(self.a_dead[k]),
                "b_dead": bool(self.b_dead[k]),
            }
            for k in range(len(self))
        ]


@dataclass(frozen=True)
class Trajectories:
    """Piecewise motion, exact: the kernel's trajectory log, with the motion law and the arrays its
    motion needs to follow every segment again.

    Row k: from time ``t[k]`` disc ``disc[k]`` moves with status ``status[k]`` from ``state[k]`` =
    (x, y, vx, vy, omega) until its next row; ``event[k]`` is the row of the event log whose event
    started it (-1 for the initial state). Under the closed-form law the path between rows is a
    straight line; under the integrated law it curves, and the log's further columns say how
    (``laws.integrated.bodies.BODY_SEG_COLUMNS``).
    """

    log: np.ndarray  # (S, 9) float64: t, disc, status, x, y, vx, vy, omega, event (integrated: 18 columns)
    law: Law
    motion: tuple  # the law's arrays (``laws.ops``): the packed court first

    @property
    def table(self) -> np.ndarray:
        """The packed court (``tables.court_table``)."""
        return self.motion[0]

    @property
    def orbit_tables(self) -> np.ndarray:
        """The coupled model's packed tables (no rows for the decoupled model)."""
        return self.motion[1]

    @property
    def decel(self) -> float:
        """The court's sliding deceleration mu g (m/s^2)."""
        return float(self.table[0, H_DECEL])

    @property
    def t(self) -> np.ndarray:
        return self.log[:, 0]

    @property
    def disc(self) -> np.ndarray:
        return self.log[:, 1].astype(np.int64)

    @property
    def status(self) -> np.ndarray:
        return self.log[:, 2].astype(np.int64)

    @property
    def state(self) -> np.ndarray:
        return self.log[:, 3:8]

    @property
    def event(self) -> np.ndarray:
        return self.log[:, 8].astype(np.int64)

    def positions(self, n_discs: int, times) -> np.ndarray:
        """Every disc's centre at each of ``times`` (sorted, s), (T, n_discs, 2): the law's exact
        motion between events followed again from the log; NaN before a disc's first segment and once
        it has left play."""
        times = np.ascontiguousarray(times, dtype=np.float64)
        out = np.empty((len(times), int(n_discs), 2))
        sample_paths(self.law, self.motion, self.log, int(n_discs), times, out)
        return out


@dataclass
class SimResult:
    """A scene run to rest: final state, contact log and trajectories.

    Final centres: a disc at rest where it stopped, a fallen disc where its centre crossed the edge,
    a holed disc at the hole's centre. Velocities and spins are zero unless ``ok`` is False.
    """

    scene: Scene
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    omega: np.ndarray
    status: np.ndarray  # int8: events.STATUS_*
    dead: np.ndarray  # bool: dead standing at the end (kill lines, killing cushions)
    ok: bool  # False if the event bound was hit (discs may still be moving)
    events: EventLog
    trajectories: Trajectories
    t_end: float  # time of the last event (s)

    @property
    def status_names(self) -> tuple[str, ...]:
        """Each disc's status by name ("rest", "fallen", "holed"; "moving" only when ``ok`` is False)."""
        return tuple(STATUS_NAMES[int(code)] for code in self.status)

    def __repr__(self) -> str:
        names = self.status_names
        counts = ", ".join(f"{names.count(name)} {name}" for name in STATUS_NAMES if name in names)
        return (
            f"SimResult({len(names)} discs on {self.scene.court.name!r}: {counts}; {len(self.events)} events, "
            f"at rest after {self.t_end:.3f} s{'' if self.ok else ', stopped at the event bound'})"
        )

    def judging(self) -> list[dict]:
        """Judge records of the final positions, with the kernel's standing merged in.

        A fallen disc counts nothing; a disc made dead while moving (kill line, killing cushion) is
        dead and worth 0 wherever it stopped; a holed disc lies at the hole's centre and is judged
        there.
        """
        # Judging sits below physics in the import order; this one method reaches down to it so that
        # a result can print itself the way the command line shows it.
        from shuffle_sim.judging import judge_batch

        records = judge_batch(self.scene.court, self.x, self.y).records()
        for i, rec in enumerate(records):
            if self.status[i] == STATUS_FALLEN:
                rec.update(value=0, zone=None, touching=[], dead=True, hanger=None)
            elif self.dead[i]:
                rec.update(value=0, dead=True)
        return records

    def to_json(self) -> dict:
        """``{"discs": [...], "events": [...], "judging": {...}, "ok": ...}`` as ``simulate --json`` prints."""
        discs = [
            {
                "x": float(self.x[i]),
                "y": float(self.y[i]),
                "vx": float(self.vx[i]),
                "vy": float(self.vy[i]),
                "omega": float(self.omega[i]),
                "status": STATUS_NAMES[int(self.status[i])],
                "dead": bool(self.dead[i]),
            }
            for i in range(self.scene.n_discs)
        ]
        return {
            "discs": discs,
            "events": self.events.records(),
            "judging": {"court": self.scene.court.name, "discs": self.judging()},
            "ok": bool(self.ok),
        }


def obstacle_at_start(court: Court, x: float, y: float) -> str | None:
    """The cushion or peg that a disc at (x, y) overlaps (touching is allowed), as "the peg 'pegs 3'"."""
    kind, index = obstacle_overlap(court_table(court), float(x), float(y), OVERLAP_TOLERANCE)
    if kind < 0:
        return None
    if kind == DISC_CUSHION:
        return f"the cushion {court.cushions[int(_cushion_order(court)[index])].name!r}"
    return f"the peg {court.pegs[index].name!r}"


def check_obstacles(court: Court, xs: np.ndarray, ys: np.ndarray, what: str = "discs", first: int = 0) -> None:
    """Raise ``SceneError`` if a disc overlaps a cushion or a peg at the start (touching is allowed);
    the discs are numbered from ``first`` in the message."""
    for k in range(len(xs)):
        body = obstacle_at_start(court, xs[k], ys[k])
        if body is not None:
            raise SceneError(
                f"{what}[{first + k}] at x={float(xs[k])!r}, y={float(ys[k])!r} overlaps {body} at the start"
            )


def _cushion_order(court: Court) -> np.ndarray:
    """Index in ``court.cushions`` of each kernel cushion (segments first, then circles)."""
    order = [k for k, c in enumerate(court.cushions) if c.kind == "segment"]
    order += [k for k, c in enumerate(court.cushions) if c.kind == "circle"]
    return np.array(order, dtype=np.int32)


def check_max_events(max_events) -> int:
    """The event bound of a run, a positive integer; ``ValueError`` naming the value otherwise."""
    if isinstance(max_events, bool) or not isinstance(max_events, (int, np.integer)) or max_events < 1:
        raise ValueError(f"max_events must be a positive integer (got {shown(max_events)})")
    return int(max_events)


def simulate(scene: Scene, max_events: int = 10_000) -> SimResult:
    """Run ``scene`` until every disc is at rest, fallen or holed (or ``max_events`` events).

    The court chooses the motion law (``laws.choice``): closed form on a flat court, integrated on a
    court that is not flat. Raises ``SceneError`` for a scene that cannot be run: non-finite values,
    discs off the surface, overlapping each other or a cushion or peg at the start; ``ValueError``
    for a bad ``max_events``.
    """
    max_events = check_max_events(max_events)
    scene.validate()
    court = scene.court
    law = court_law(court)
    # The first compile only, shared with a helper process (``compile_ahead``).
    start_plan("simulate_flat" if law is CLOSED_FORM else "simulate_sloped")
    motion = court_motion(court)
    n = scene.n_discs
    start = np.column_stack([scene.x, scene.y, scene.vx, scene.vy, scene.omega]).astype(np.float64)
    state = new_state(law, n)
    # Each processed event logs at most two events.
    ev = np.empty((2 * int(max_events), EV_COLUMNS))
    seg = trajectory_log(law, n, max_events)
    final = np.empty((n, 5))
    bad, n_ev, n_seg, ok, t_end = run_from_start(
        law, motion, start, OVERLAP_TOLERANCE, state, ev, seg, int(max_events), final
    )
    if bad >= 0:
        check_obstacles(court, scene.x[bad : bad + 1], scene.y[bad : bad + 1], f"{scene.source}: discs", first=bad)
    ev = ev[:n_ev]
    kind = ev[:, 1].astype(np.int32)
    b = ev[:, 3].astype(np.int32)
    cushion = kind == DISC_CUSHION
    b[cushion] = _cushion_order(court)[b[cushion]]
    events = EventLog(
        t=ev[:, 0].copy(),
        kind=kind,
        a=ev[:, 2].astype(np.int32),
        b=b,
        a_dead=ev[:, 4] != 0,
        b_dead=ev[:, 5] != 0,
    )
    ist = state[1]
    return SimResult(
        scene=scene,
        x=final[:, 0].copy(),
        y=final[:, 1].copy(),
        vx=final[:, 2].copy(),
        vy=final[:, 3].copy(),
        omega=final[:, 4].copy(),
        status=ist[STATUS].astype(np.int8),
        dead=ist[DEAD].astype(np.bool_),
        ok=bool(ok),
        events=events,
        trajectories=Trajectories(log=seg[:n_seg].copy(), law=law, motion=motion),
        t_end=float(t_end),
    )


@jit.kernel
def new_state(law, n):
    """The state of ``n`` discs under ``law`` (``laws.ops.new_state``), for a run from Python."""
    return ops.new_state(law, n)


def sample_positions(result: SimResult, n_frames: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """``n_frames`` evenly spaced times from 0 to the end, and every disc's centre at each, (T, N, 2).

    Positions follow the motion law's exact motion between events (``Trajectories.positions``); a
    disc is NaN once it has fallen or been holed.
    """
    if isinstance(n_frames, bool) or not isinstance(n_frames, (int, np.integer)) or n_frames < 1:
        raise ValueError(f"n_frames must be a positive integer (got {shown(n_frames)})")
    times = np.linspace(0.0, result.t_end, int(n_frames))
    return times, result.trajectories.positions(result.scene.n_discs, times)


@jit.kernel
def sample_paths(law, motion, seg, n_discs, times, out):
    """``laws.ops.sample`` for a call from Python."""
    ops.sample(law, motion, seg, n_discs, times, out)
