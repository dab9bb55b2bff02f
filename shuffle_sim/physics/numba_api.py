"""The kernel's interface for other packages' numba code: what batch shots, game engines and
benchmarks may call from their own numba loops, so that Python is never called per shot, and the
packers that give them a court's arrays.

Everything here is a re-export; the definitions stay in the modules that own them. Code outside
``physics`` imports kernel internals from here and nowhere else, so that the kernel can change its
insides without breaking its callers.

``court_law``, ``court_motion``
    a court's motion law and the arrays its kernels take (``laws.choice``)
``CLOSED_FORM``, ``INTEGRATED``
    the two motion laws (``laws.law``)
``court_table``
    a court's packed table, kept on the court (``tables.packing``)
``court_surface``
    a court's surface shape packed for the integrated law (empty: flat)
``kernel_arrays``
    a court's geometry and materials as named arrays (``tables.packing``)
``pack_court``
    the court as the kernel's one-array table (``tables.court_table``)
``H_RADIUS``
    the table's header column of the disc radius
``obstacle_overlap``
    a start on a peg or cushion (numba)
``place_disc``, ``state_at``
    writing a disc into the closed-form law's state arrays, reading it back
``disc_state``, ``load_disc``
    the same for one disc, as plain numbers
``run_events``, ``run_from_start``
    the event loop under either law (``loop``), a whole scene from its start
``run_table``
    the event loop of the closed-form law on a packed table (flat courts' game engines)
``run_lone``
    the closed-form law's lone disc (a shot at an empty flat court), compiled as a function of its own
``run_lone_call``
    the same kernel under a second name
``LONE_CALLEES``
    its callees, for a first compile shared between processes
``play_shots``
    the batch API's play and judging of a batch, from Python: the share kernels ``play_lone_chunks``
    and ``play_board_chunks`` on threads (``faces.shot_kernels``)
``play_lone_shots``, ``play_board_shots``
    the same in one parallel numba call, for numba code
``new_state``
    the state arrays of n discs under a law, for ``run_from_start`` called from Python
``sample_paths``
    every disc's centre at given times from a trajectory log, under either law (``faces.simulate``)
``speed_for_distance``
    the launch speed that slides a distance: sqrt(2 a d)
``EV_COLUMNS``, ``SEG_COLUMNS``
    columns of the event log and of the closed-form law's path segments
``DEAD``, ``STATUS``, ...
    rows of the structure-of-arrays disc state (``state``): ``TOUCHED``; ``N_FLOAT_ROWS`` and
    ``N_INT_ROWS``, the closed-form law's row counts
``STATUS_*``, ``DISC_DISC``
    status and event codes (``events``)
``shot_problem``, ...
    the rows of one shot of a batch (``faces.shot_rows``): ``judge_rest``, ``fill_unplayed``,
    ``CHUNK``, ``NOT_FINITE``, ``OFF_SURFACE``, ``ON_BOARD_DISC``
``force``, ``torque``
    the coupled model's F(eps) and T(eps) for an annulus (``face_friction``)
``disc_disc_impulse``, ``fixed_body_impulse``
     the impulses of an impact (``contacts.impulses``)
``APPROACH_TOL``, ``CONTACT_GAP``, ``EDGE_TOL``, ``OVERLAP_SLACK``
     the contact rules' tolerances (``contacts.tolerances``)
"""

from shuffle_sim.physics.contacts.impulses import disc_disc_impulse, fixed_body_impulse
from shuffle_sim.physics.contacts.tolerances import APPROACH_TOL, CONTACT_GAP, EDGE_TOL, OVERLAP_SLACK
from shuffle_sim.physics.events import DISC_DISC, STATUS_FALLEN, STATUS_HOLED, STATUS_MOVING, STATUS_REST
from shuffle_sim.physics.face_friction import force, torque
from shuffle_sim.physics.faces.shot_kernels import (
    play_board_chunks,
    play_board_shots,
    play_lone_chunks,
    play_lone_shots,
    play_shots,
)
from shuffle_sim.physics.faces.shot_rows import (
    CHUNK,
    NOT_FINITE,
    OFF_SURFACE,
    ON_BOARD_DISC,
    fill_unplayed,
    judge_rest,
    shot_problem,
)
from shuffle_sim.physics.faces.simulate import new_state, sample_paths
from shuffle_sim.physics.laws.choice import court_law, court_motion
from shuffle_sim.physics.laws.closed_form.disc_state import disc_state, load_disc, place_disc, state_at
from shuffle_sim.physics.laws.closed_form.lone import LONE_CALLEES, run_lone, run_lone_call
from shuffle_sim.physics.laws.closed_form.slide import N_FLOAT_ROWS, N_INT_ROWS, speed_for_distance
from shuffle_sim.physics.laws.law import CLOSED_FORM, INTEGRATED
from shuffle_sim.physics.loop import run_events, run_from_start, run_table
from shuffle_sim.physics.state import DEAD, EV_COLUMNS, SEG_COLUMNS, STATUS, TOUCHED
from shuffle_sim.physics.tables.court_table import H_RADIUS, obstacle_overlap, pack_court
from shuffle_sim.physics.tables.packing import closed_form_court, court_surface, court_table, kernel_arrays

__all__ = [
    "APPROACH_TOL",
    "CHUNK",
    "CLOSED_FORM",
    "CONTACT_GAP",
    "DEAD",
    "DISC_DISC",
    "EDGE_TOL",
    "EV_COLUMNS",
    "H_RADIUS",
    "INTEGRATED",
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
    "closed_form_court",
    "court_law",
    "court_motion",
    "court_surface",
    "court_table",
    "disc_disc_impulse",
    "disc_state",
    "fill_unplayed",
    "fixed_body_impulse",
    "force",
    "judge_rest",
    "kernel_arrays",
    "load_disc",
    "new_state",
    "obstacle_overlap",
    "pack_court",
    "place_disc",
    "play_board_chunks",
    "play_board_shots",
    "play_lone_chunks",
    "play_lone_shots",
    "play_shots",
    "run_events",
    "run_from_start",
    "run_lone",
    "run_lone_call",
    "run_table",
    "sample_paths",
    "shot_problem",
    "speed_for_distance",
    "state_at",
    "torque",
]
