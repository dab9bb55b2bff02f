"""One disc alone on a court that is not flat: the lone-disc event loop on curved paths (numba).

The curved counterpart of ``lone.run_lone``, with the same inputs and outputs: a disc launched on an
empty court, run to rest, a fall or a hole, its events taken in time order. Between events the disc
follows its curved motion (``motion``), step after step; in each step every boundary of the
court is searched for an event (``shapes``), from the chord between the step's ends first, on
the step's dense output only when the chord cannot rule the event out. An event's state is reached by
integrating from the step's start to the event (a shorter step), not taken from the interpolant. The
events and their order are the flat loop's: stop, cushion, peg, fall and hole (boundary events), kill
line, spin stop; ties go boundary, kill line, spin stop. Impulses come from ``contacts.bounce.fixed_body_bounce``.

Two things have no counterpart on a flat court. A disc pressed against a cushion or a peg by the
grade *rides* it (``motion``) once an impact leaves it approaching slower than
``kernel.PUSH_MERGE_SPEED``; the ride ends where the body's push falls to zero or the contact runs
off a straight cushion's end (event kind ``RIDE_END``, not logged: it changes nothing but the way the
motion is computed). And a disc that spins in the coupled model is never at rest on a graded spot:
spin without slide feels no friction against the grade (F(0) = 0), so it slides off.
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.events import KILLED, SPIN_STOP, STATUS_FALLEN, STATUS_HOLED, STATUS_MOVING, STATUS_REST
from shuffle_sim.physics.laws.integrated.lone_events import _apply, _finish_clear, _step_event, event_state
from shuffle_sim.physics.laws.integrated.motion import (
    FIRST_STEP,
    MAX_REJECTS,
    NO_RIDE,
    Q_END,
    RIDE_LINE,
    RIDE_NONE,
    closed_end,
    dense_component,
    derivatives,
    hodograph_rest,
    next_step,
    onto_ride,
    speed_scale,
    spin_after,
    spin_stop_time,
)
from shuffle_sim.physics.laws.integrated.rides import RIDE_END, settles, straight_stop
from shuffle_sim.physics.laws.integrated.shapes import start_shape
from shuffle_sim.physics.laws.integrated.state import body_acceleration, constants
from shuffle_sim.physics.laws.integrated.step import step
from shuffle_sim.physics.tables.court_table import (
    F_KIND,
    H_DECEL,
    H_SPIN_DECEL,
    H_SPIN_SPEED_DECEL,
    KILL_LINE,
    event_of_row,
)
from shuffle_sim.physics.tables.surface import surface_at

#: Steps allowed in one motion (a bound: a deck draw takes about 15, a shot that rides a cushion a
#: few dozen).
MAX_STEPS = 20_000


@jit.kernel
def _sign(w):
    """The sign of a spin for the motion's constants (0: no spin)."""
    return 0.0 if w == 0.0 else math.copysign(1.0, w)


@jit.no_refcount
def run_lone(table, orbit_tables, surface, x, y, vx, vy, omega, max_events, out, members):
    """Run one disc launched at (x, y) with (vx, vy, omega) at time 0 on the curved court ``surface``
    until it rests or leaves play; ``lone.run_lone``'s result: (x, y, vx, vy, omega, status, dead, ok,
    t_end, processed).

    ``out`` is a (``dense.OUT_ROWS``, 6) scratch array for the dense output, ``members`` an empty (0, 2) array (a lone
    disc is no group).
    """
    decel = table[0, H_DECEL]
    spin_decel = table[0, H_SPIN_DECEL]
    spin_speed_decel = table[0, H_SPIN_SPEED_DECEL]
    coupled = orbit_tables.shape[0] > 0
    accel = 0.0
    now = 0.0
    processed = np.int64(0)
    ok = np.bool_(True)
    dead = np.bool_(False)
    status = STATUS_MOVING
    vx, vy, omega, moving = settles(surface, coupled, x, y, vx, vy, omega)
    c = constants(table, orbit_tables, surface, _sign(omega))
    ride = NO_RIDE
    ride_row = np.int64(-1)
    # The motion: its state y0..y5 (x, y, vx, vy, omega, t) and derivatives f0..f5, the next step h,
    # and where it started (for the contact rules of its shapes).
    y0, y1, y2, y3, y4, y5 = x, y, vx, vy, omega, 0.0
    f0 = f1 = f2 = f3 = f4 = f5 = 0.0
    h = 0.0
    sx, sy, svx, svy = x, y, vx, vy
    steps = np.int64(0)
    fresh = True  # a motion has just started: check its events at once
    while True:
        if fresh:
            fresh = np.bool_(False)
            steps = np.int64(0)
            if status in (STATUS_FALLEN, STATUS_HOLED):
                break
            if moving:
                status = STATUS_MOVING
                c = constants(table, orbit_tables, surface, _sign(y4))
                accel = body_acceleration(table, surface, y2, y3, y4)
                f0, f1, f2, f3, f4, f5 = derivatives(surface, c, members, ride, y0, y1, y2, y3, y4)
                h = FIRST_STEP / (decel * max(1e-3, surface_at(surface, y0, y1)[2]))
                sx, sy, svx, svy = y0, y1, y2, y3
            else:
                status = STATUS_REST
            # Events due right now (touching and approaching, past a kill line, over a hole).
            kind = np.int64(-1)
            b = np.int64(-1)
            for row in range(1, table.shape[0]):
                if row == ride_row:
                    continue
                shape, at_once = start_shape(table, row, y0, y1, y2, y3, not dead, moving)
                if at_once:
                    f = table[row, F_KIND]
                    if f == KILL_LINE:
                        if kind == -1:
                            kind = KILLED
                            b = row
                    else:
                        kind = event_of_row(f)
                        b = row
                        break
            if kind != -1:
                if processed >= max_events:
                    ok = np.bool_(False)
                    break
                processed += 1
                if kind == KILLED:
                    dead = np.bool_(True)
                    fresh = np.bool_(True)
                    continue
                y0, y1, y2, y3, y4, status, dead, ride, ride_row, moving = _apply(
                    surface, c, members, table, kind, b, y0, y1, y2, y3, y4, status, dead
                )
                fresh = np.bool_(True)
                continue
            if not moving:
                # At rest: only the spin may still stop, in place.
                if y4 == 0.0:
                    break
                m = surface_at(surface, y0, y1)[2]
                t_spin = now + spin_stop_time(y4, spin_decel * m, spin_speed_decel * m)
                if processed >= max_events:
                    ok = np.bool_(False)
                    break
                processed += 1
                now = t_spin
                y4 = 0.0
                break  # nothing else can happen to a disc at rest without spin
        # ---- moving: finish in closed form, or take a step and look for its events -------------
        if steps >= MAX_STEPS:
            ok = np.bool_(False)
            break
        steps += 1
        q = speed_scale(c, y2, y3, y4)
        spinning = c[5] != 0.0 and c[6] != 0.0
        finish = np.bool_(False)
        tau = 0.0
        ex = 0.0
        ey = 0.0
        hodograph = not spinning and (ride[0] == RIDE_NONE or ride[0] == RIDE_LINE)
        if hodograph:
            ax, ay, m = surface_at(surface, y0, y1)
            if ride[0] == RIDE_LINE:
                along = ax * ride[1] + ay * ride[2]
                ax -= along * ride[1]
                ay -= along * ride[2]
            uniform, _ = closed_end(surface, c, m, ax, ay, q)
            if uniform:
                tau, ex, ey = hodograph_rest(ax, ay, c[0] * m, c[8] * m, y2, y3)
                finish = _finish_clear(
                    table, ride, ride_row, dead, y0, y1, q, q * tau, y4, spin_decel * m, spin_speed_decel * m, tau
                )
        if (not hodograph or c[8] != 0.0) and not finish and q < Q_END:
            tau, ex, ey = straight_stop(surface, c, members, ride, y0, y1, y2, y3, y4)
            finish = np.bool_(True)
        if finish:
            if processed >= max_events:
                ok = np.bool_(False)
                break
            processed += 1
            now = y5 + tau
            y0 += ex
            y1 += ey
            if c[5] != 0.0 or y4 == 0.0:
                y4 = 0.0
            else:
                m = surface_at(surface, y0, y1)[2]
                y4 = spin_after(y4, c[6], spin_decel * m, spin_speed_decel * m, tau)
            y2 = 0.0
            y3 = 0.0
            y5 = now
            moving = np.bool_(False)
            ride = NO_RIDE
            ride_row = np.int64(-1)
            fresh = np.bool_(True)
            continue
        # One accepted step.
        rejects = np.int64(0)
        while True:
            n, k, err = step(surface, c, members, ride, (y0, y1, y2, y3, y4, y5), (f0, f1, f2, f3, f4, f5), h)
            if err <= 1.0:
                break
            rejects += 1
            h = next_step(h, err)
            if rejects >= MAX_REJECTS:
                break
        if rejects >= MAX_REJECTS:
            ok = np.bool_(False)
            break
        # Events in this step: the earliest of every shape's, the spin's stop and the ride's end.
        lo = 0.0
        have_dense = np.bool_(False)
        while True:
            theta, kind, b, shape, have_dense = _step_event(
                table,
                surface,
                c,
                members,
                ride,
                ride_row,
                dead,
                (sx, sy, svx, svy),
                accel,
                out,
                have_dense,
                (y0, y1, y2, y3, y4, y5),
                (f0, f1, f2, f3, f4, f5),
                h,
                n,
                lo,
            )
            if kind != KILLED:
                break
            if processed >= max_events:
                break
            processed += 1
            dead = np.bool_(True)
            now = dense_component(out, np.int64(5), y5, theta)
            lo = theta
        if kind == KILLED:  # the event bound, reached at a kill line
            ok = np.bool_(False)
            break
        if kind == -1:
            y0, y1, y2, y3, y4, y5 = n
            f0, f1, f2, f3, f4, f5 = k
            if ride[0] != RIDE_NONE:
                y0, y1, y2, y3 = onto_ride(ride, y0, y1, y2, y3)
                f0, f1, f2, f3, f4, f5 = derivatives(surface, c, members, ride, y0, y1, y2, y3, y4)
            h = next_step(h, err)
            continue
        if processed >= max_events:
            ok = np.bool_(False)
            break
        processed += 1
        # Integrate to the event (its time made exact on the integrated states), then apply it.
        y = (y0, y1, y2, y3, y4, y5)
        f = (f0, f1, f2, f3, f4, f5)
        e = event_state(surface, c, members, ride, shape, kind == RIDE_END, out, y, f, h, theta, lo)
        y0, y1, y2, y3, y4, y5 = e
        now = y5
        if kind == SPIN_STOP:
            y4 = 0.0
            moving = np.bool_(True)
        elif kind == RIDE_END:
            ride = NO_RIDE
            ride_row = np.int64(-1)
            moving = np.bool_(True)
        else:
            y0, y1, y2, y3, y4, status, dead, ride, ride_row, moving = _apply(
                surface, c, members, table, kind, b, y0, y1, y2, y3, y4, status, dead
            )
        fresh = np.bool_(True)
    return (
        y0,
        y1,
        (y2 if status == STATUS_MOVING else 0.0),
        (y3 if status == STATUS_MOVING else 0.0),
        y4,
        status,
        dead,
        ok,
        now,
        processed,
    )
