"""The motion laws' one interface: what the event loop, the lone-disc runs and the batch faces ask of a
law, each operation dispatched on the law's numba type while compiling (``law``).

Every operation takes the law first, then the law's *motion* (the arrays its motion needs) and
*state* (the discs' arrays), both tuples whose layout is the law's own:

=================  ==================================  =========================================
law                motion                              state
=================  ==================================  =========================================
``CLOSED_FORM``    (table, orbit_tables)               (st, ist, pair_t)
``INTEGRATED``     (table, orbit_tables, surface)      (st, ist, pair_t, pair_rho, scratch)
=================  ==================================  =========================================

``table`` is the packed court (``tables.court_table``), ``orbit_tables`` the coupled model's packed
tables (no rows for the decoupled model), ``surface`` the packed surface (``tables.surface``); the
state's first rows are every law's (``physics.state``). The operations:

``with_table(law, motion, table)``
    the motion with another packed court (a scene's own materials)
``new_state(law, n)``
    the state of n discs, every pair cleared
``clear(law, state)``
    before a new scene is placed into a state already used
``place(law, motion, state, i, x, y, vx, vy, w)``
    disc i launched at time 0; False if its motion could not be started
``state_at(law, motion, state, i, t)``
    (x, y, vx, vy, w) of disc i at t (at or after the last event)
``begin``, ``refresh``, ``horizon``, ``advance``, ``exact_time``, ``end_ride``, ``apply_event``,
``start_pending``
    the event loop's steps (``loop``)
``run_lone(law, motion, x, y, vx, vy, w, max_events, scratch)``
    one disc alone on the court run to rest: (x, y, vx, vy, w, status, dead, ok, t_end, processed);
    a call of the law's lone run compiled on its own (the closed form's ``run_lone``), not its
    loop inlined into the caller: inlined, the batch API's lone chunk took about 45 s to compile
``storms_at_bodies(law)``
    whether impacts on cushions and pegs count toward a storm and end it (``contacts.pushing``)
``lone_scratch(law)``
    the scratch ``run_lone`` needs
``no_log(law)``
    a trajectory log with no rows (batches record nothing)
``sample(law, motion, seg, n_discs, times, out)``
    every disc's centre at each of ``times`` from a trajectory log
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba.extending import overload

from shuffle_sim._runtime import jit
from shuffle_sim.physics.laws import law as _law
from shuffle_sim.physics.laws.closed_form import disc_state as closed_discs
from shuffle_sim.physics.laws.closed_form import lone as closed_lone
from shuffle_sim.physics.laws.closed_form import loop_steps as closed_steps
from shuffle_sim.physics.laws.closed_form import paths as closed_paths
from shuffle_sim.physics.laws.integrated import bodies as integrated_bodies
from shuffle_sim.physics.laws.integrated import lone as integrated_lone
from shuffle_sim.physics.laws.integrated import loop_steps as integrated_steps
from shuffle_sim.physics.laws.integrated import sampling as integrated_sampling
from shuffle_sim.physics.laws.integrated.bodies import BODY_SEG_COLUMNS
from shuffle_sim.physics.laws.integrated.dense import OUT_ROWS
from shuffle_sim.physics.state import SEG_COLUMNS

#: Every operation is inlined where it is called: it only picks its law's function, and a separate
#: compile of each would cost more than it does.
_INLINED: dict[str, Any] = {"jit_options": dict(jit.COMMON), "inline": "always"}


def _closed(law) -> bool:
    """Whether ``law`` is the closed-form law's numba type (else the integrated law's)."""
    if not isinstance(law, _law.LawType):
        raise TypeError(f"expected a motion law, got {law}")
    return law.law == _law.CLOSED_FORM.name


def with_table(law, motion, table):
    """``motion`` with the packed court ``table`` in place of its own."""


@overload(with_table, **_INLINED)
def _with_table(law, motion, table):
    if _closed(law):
        return lambda law, motion, table: (table, motion[1])
    return lambda law, motion, table: (table, motion[1], motion[2])


def new_state(law, n):
    """The state of ``n`` discs (module docstring)."""


@overload(new_state, **_INLINED)
def _new_state(law, n):
    if _closed(law):
        return lambda law, n: closed_steps.new_state(n)
    return lambda law, n: integrated_steps.new_state(n)


def clear(law, state):
    """Make a used state ready for a new scene's discs."""


@overload(clear, **_INLINED)
def _clear(law, state):
    if _closed(law):
        return lambda law, state: None  # placing a disc sets every row; every pair is predicted at the start

    def integrated(law, state):
        integrated_bodies.clear_discs(state[0], state[1])
        integrated_steps.clear_pairs(state[2], state[3])

    return integrated


def place(law, motion, state, i, x, y, vx, vy, w):
    """Put disc ``i`` at (x, y) with its launch velocity and spin at time 0, alive; False if its motion
    could not be started."""


@overload(place, **_INLINED)
def _place(law, motion, state, i, x, y, vx, vy, w):
    if _closed(law):

        def closed(law, motion, state, i, x, y, vx, vy, w):
            closed_discs.place_disc(motion[0], motion[1], state[0], state[1], i, x, y, vx, vy, w)
            return True

        return closed

    def integrated(law, motion, state, i, x, y, vx, vy, w):
        buf, out = state[4][0], state[4][1]
        return integrated_bodies.place_disc(
            motion[0], motion[1], motion[2], state[0], state[1], i, x, y, vx, vy, w, buf, out
        )

    return integrated


def state_at(law, motion, state, i, t):
    """(x, y, vx, vy, w) of disc ``i`` at time ``t`` (at or after the last event)."""


@overload(state_at, **_INLINED)
def _state_at(law, motion, state, i, t):
    if _closed(law):
        return lambda law, motion, state, i, t: closed_discs.state_at(motion[0], motion[1], state[0], state[1], i, t)

    def integrated(law, motion, state, i, t):
        buf, out = state[4][0], state[4][1]
        return integrated_bodies.disc_state_at(motion[0], motion[1], motion[2], state[0], state[1], i, t, buf, out)

    return integrated


def begin(law, motion, state):
    """Ready the state for the first event."""


@overload(begin, **_INLINED)
def _begin(law, motion, state):
    if _closed(law):
        return lambda law, motion, state: closed_steps.begin(state[0], state[1])
    return lambda law, motion, state: integrated_steps.begin(state[0], state[4])


def refresh(law, motion, state, seg, n_seg, now, event_row):
    """Log the moved discs' segments and predict again what the last event changed; the trajectory
    log's next free row."""


@overload(refresh, **_INLINED)
def _refresh(law, motion, state, seg, n_seg, now, event_row):
    if _closed(law):

        def closed(law, motion, state, seg, n_seg, now, event_row):
            return closed_steps.refresh(motion[0], motion[1], state[0], state[1], state[2], seg, n_seg, now, event_row)

        return closed

    def integrated(law, motion, state, seg, n_seg, now, event_row):
        return integrated_steps.refresh(
            motion[0],
            motion[1],
            motion[2],
            state[0],
            state[1],
            state[2],
            state[3],
            state[4],
            seg,
            n_seg,
            now,
            event_row,
        )

    return integrated


def horizon(law, state):
    """(t, body): the earliest end of a present step and its body; (inf, -1) when no step ends."""


@overload(horizon, **_INLINED)
def _horizon(law, state):
    if _closed(law):
        return lambda law, state: (np.inf, -1)
    return lambda law, state: integrated_steps.horizon(state[0], state[1])


def advance(law, motion, state, lead, t):
    """Body ``lead`` takes its next step, its step having ended at t; False if it could not."""


@overload(advance, **_INLINED)
def _advance(law, motion, state, lead, t):
    if _closed(law):
        return lambda law, motion, state, lead, t: True  # no step ever ends

    def integrated(law, motion, state, lead, t):
        return integrated_steps.advance(
            motion[0], motion[1], motion[2], state[0], state[1], state[2], state[3], state[4], lead, t
        )

    return integrated


def exact_time(law, motion, state, kind, a, b, t, now):
    """The time of the event (kind, a, b) predicted at t, made exact where the law must."""


@overload(exact_time, **_INLINED)
def _exact_time(law, motion, state, kind, a, b, t, now):
    if _closed(law):
        return lambda law, motion, state, kind, a, b, t, now: t  # exact as predicted

    def integrated(law, motion, state, kind, a, b, t, now):
        return integrated_steps.exact_time(
            motion[0], motion[1], motion[2], state[0], state[1], state[3], state[4], kind, a, b, t, now
        )

    return integrated


def end_ride(law, motion, state, a, now):
    """Disc a's body leaves the cushion or peg it rode (not an event of the log)."""


@overload(end_ride, **_INLINED)
def _end_ride(law, motion, state, a, now):
    if _closed(law):
        return lambda law, motion, state, a, now: True  # nothing rides a plane

    def integrated(law, motion, state, a, now):
        return integrated_steps.end_ride(motion[0], motion[1], motion[2], state[0], state[1], state[4], a, now)

    return integrated


def apply_event(law, motion, state, ev, n_ev, now, kind, a, b, storm):
    """Apply a logged event: (the event log's next free row, ok, whether a cushion a hit kills it)."""


@overload(apply_event, **_INLINED)
def _apply_event(law, motion, state, ev, n_ev, now, kind, a, b, storm):
    if _closed(law):

        def closed(law, motion, state, ev, n_ev, now, kind, a, b, storm):
            kills = closed_steps.apply_event(motion[0], motion[1], state[0], state[1], now, kind, a, b, storm)
            return n_ev, True, kills

        return closed

    def integrated(law, motion, state, ev, n_ev, now, kind, a, b, storm):
        return integrated_steps.apply_event(
            motion[0], motion[1], motion[2], state[0], state[1], state[3], state[4], ev, n_ev, now, kind, a, b, storm
        )

    return integrated


def start_pending(law, motion, state, now):
    """Start the discs an event left pending; False if a motion could not be started."""


@overload(start_pending, **_INLINED)
def _start_pending(law, motion, state, now):
    if _closed(law):
        return lambda law, motion, state, now: True  # every disc restarts as its event is applied

    def integrated(law, motion, state, now):
        return integrated_steps.start_pending(motion[0], motion[1], motion[2], state[0], state[1], state[4], now)

    return integrated


def storms_at_bodies(law):
    """Whether impacts on cushions and pegs count toward a storm of impacts at one instant, and a storm
    ends against them too (``contacts.pushing``): under the integrated law, whose grade can press discs
    into a body; the closed-form law counts disc-disc impacts only."""


@overload(storms_at_bodies, **_INLINED)
def _storms_at_bodies(law):
    if _closed(law):
        return lambda law: False
    return lambda law: True


def lone_scratch(law):
    """The scratch arrays ``run_lone`` needs (none in the closed-form law)."""


@overload(lone_scratch, **_INLINED)
def _lone_scratch(law):
    if _closed(law):
        return lambda law: (np.empty((0, 0)), np.empty((0, 0)))
    return lambda law: (np.empty((OUT_ROWS, 6)), np.empty((0, 2)))


def run_lone(law, motion, x, y, vx, vy, w, max_events, scratch):
    """One disc launched at (x, y) with (vx, vy, w) at time 0 on an empty court, run to rest or out of
    play: (x, y, vx, vy, w, status, dead, ok, t_end, processed), as the event loop gives them for a
    scene of this one disc."""


@overload(run_lone, **_INLINED)
def _run_lone(law, motion, x, y, vx, vy, w, max_events, scratch):
    if _closed(law):

        def closed(law, motion, x, y, vx, vy, w, max_events, scratch):
            return closed_lone.run_lone(motion[0], motion[1], x, y, vx, vy, w, max_events)

        return closed

    def integrated(law, motion, x, y, vx, vy, w, max_events, scratch):
        return integrated_lone.run_lone(
            motion[0], motion[1], motion[2], x, y, vx, vy, w, max_events, scratch[0], scratch[1]
        )

    return integrated


def no_log(law):
    """A trajectory log with no rows, for runs that record nothing."""


@overload(no_log, **_INLINED)
def _no_log(law):
    columns = SEG_COLUMNS if _closed(law) else BODY_SEG_COLUMNS
    return lambda law: np.empty((0, columns))


def sample(law, motion, seg, n_discs, times, out):
    """Every disc's centre at each of ``times`` (sorted) into ``out`` (T, N, 2), from the trajectory log
    ``seg``; NaN before a disc's first segment and once it has left play."""


@overload(sample, **_INLINED)
def _sample(law, motion, seg, n_discs, times, out):
    if _closed(law):

        def closed(law, motion, seg, n_discs, times, out):
            closed_paths.sample_paths(motion[0], motion[1], seg, n_discs, times, out)

        return closed

    def integrated(law, motion, seg, n_discs, times, out):
        integrated_sampling.sample_paths(motion[0], motion[1], motion[2], seg, n_discs, times, out)

    return integrated
