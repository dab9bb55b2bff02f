"""The kernel's interface for other packages' numba code: what batch shots, game engines and
benchmarks may call from their own numba loops, so that Python is never called per shot, and the
packers that give them a court's arrays.

Everything here is a re-export; the definitions stay in the modules that own them. Code outside
``physics`` imports kernel internals from here and nowhere else, so that the kernel can change its
insides without breaking its callers.

``court_table``
    a court's packed table, kept on the court (``_packing``)
``court_ground``
    a court's surface shape packed for the curved kernels (empty: flat)
``kernel_arrays``
    a court's geometry and materials as named arrays (``_packing``)
``pack_court``
    the court as the kernel's one-array table (``_court_table``)
``H_RADIUS``
    the table's header column of the disc radius
``obstacle_overlap``
    a start on a peg or cushion (numba)
``place_disc``, ``state_at``
    writing a disc into the state arrays, reading it back
``disc_state``, ``load_disc``
    the same for one disc, as plain numbers
``run_table``, ``run_scene``
    the event loop on a packed table / on packed arrays
``run_from_start``
    a whole scene from its start (``simulate``'s kernel)
``run_lone``
    the event loop of a lone disc (a shot at an empty board)
``run_lone_call``
    the same, compiled as a function of its own
``LONE_CALLEES``
    its callees, for a first compile shared between processes
``sample_trajectories``
    every disc's centre at given times, from a trajectory log
``speed_for_distance``
    the launch speed that slides a distance: sqrt(2 a d)
``EV_COLUMNS``, ``SEG_COLUMNS``
    columns of the event log and of the path segments
``DEAD``, ``STATUS``, ...
    rows of the structure-of-arrays disc state (``_motion``): ``TOUCHED``, ``N_FLOAT_ROWS``,
    ``N_INT_ROWS``
``STATUS_*``, ``DISC_DISC``
    status and event codes (``events``)
``shot_problem``, ...
    the rows of one shot of a batch (``_shot_rows``): ``judge_rest``, ``fill_unplayed``, ``CHUNK``,
    ``NOT_FINITE``, ``OFF_SURFACE``, ``ON_BOARD_DISC``
``force``, ``torque``
    the coupled model's F(eps) and T(eps) for an annulus (``_friction``)
``disc_disc_impulse``, ``fixed_body_impulse``
     the impulses of an impact (``_resolve``)
``APPROACH_TOL``, ``CONTACT_GAP``, ``EDGE_TOL``, ``OVERLAP_SLACK``
     the contact rules' tolerances (``_toi``)
"""

from shuffle_sim.physics._court_table import H_RADIUS, obstacle_overlap, pack_court
from shuffle_sim.physics._disc_state import disc_state, load_disc, place_disc, state_at
from shuffle_sim.physics._event_loop import run_from_start, run_scene, run_table
from shuffle_sim.physics._friction import force, torque
from shuffle_sim.physics._logs import EV_COLUMNS, SEG_COLUMNS, sample_trajectories
from shuffle_sim.physics._lone_loop import LONE_CALLEES, run_lone, run_lone_call
from shuffle_sim.physics._motion import DEAD, N_FLOAT_ROWS, N_INT_ROWS, STATUS, TOUCHED, speed_for_distance
from shuffle_sim.physics._packing import court_ground, court_table, kernel_arrays
from shuffle_sim.physics._resolve import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics._shot_rows import (
    CHUNK,
    NOT_FINITE,
    OFF_SURFACE,
    ON_BOARD_DISC,
    fill_unplayed,
    judge_rest,
    shot_problem,
)
from shuffle_sim.physics._toi import APPROACH_TOL, CONTACT_GAP, EDGE_TOL, OVERLAP_SLACK
from shuffle_sim.physics.events import DISC_DISC, STATUS_FALLEN, STATUS_HOLED, STATUS_MOVING, STATUS_REST

__all__ = [
    "APPROACH_TOL",
    "CHUNK",
    "CONTACT_GAP",
    "DEAD",
    "DISC_DISC",
    "EDGE_TOL",
    "EV_COLUMNS",
    "H_RADIUS",
    "LONE_CALLEES",
    "NOT_FINITE",
    "N_FLOAT_ROWS",
    "N_INT_ROWS",
    "OFF_SURFACE",
    "ON_BOARD_DISC",
    "OVERLAP_SLACK",
    "SEG_COLUMNS",
    "STATUS",
    "STATUS_FALLEN",
    "STATUS_HOLED",
    "STATUS_MOVING",
    "STATUS_REST",
    "TOUCHED",
    "court_ground",
    "court_table",
    "disc_disc_impulse",
    "disc_state",
    "fill_unplayed",
    "fixed_body_impulse",
    "force",
    "judge_rest",
    "kernel_arrays",
    "load_disc",
    "obstacle_overlap",
    "pack_court",
    "place_disc",
    "run_from_start",
    "run_lone",
    "run_lone_call",
    "run_scene",
    "run_table",
    "sample_trajectories",
    "shot_problem",
    "speed_for_distance",
    "state_at",
    "torque",
]
