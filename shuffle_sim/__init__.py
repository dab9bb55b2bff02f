"""shuffle_sim: exact event-driven simulation and rule judging for the shuffleboard family.

Four games: deck shuffleboard (MSA rules), horse collar table shuffleboard, ricochet shuffleboard
and crokinole. SI units everywhere inside; feet and inches only in court files and displays.

The public face (each name loads its subpackage on first use, so that ``import shuffle_sim`` and
the command line's help stay quick):

==========================  ================================================================
name                        what it does
==========================  ================================================================
``load_court``              a court by name (``deck``, ...) or path (``shuffle_sim.court``)
``judge``, ``judge_batch``  judge resting discs: value, zone, lines, hanger, dead (``judging``)
``simulate``                run a scene of discs to rest, exactly (``physics``)
``simulate_shots``          many independent shots, simulated and judged in one call (``shots``)
``play``                    a simulated game or match of any registered game (``playing``)
``run_experiment``          a batch shot experiment to results on disk (``experiment``)
==========================  ================================================================

The layers, from the bottom: ``_runtime`` (private plumbing: numba presets, import-on-use faces,
helper processes, threads), ``messages``, ``units``, ``games`` (the game registry), ``noise``,
``court``, ``judging``, ``physics``, ``shots``, ``reference``, ``rules``, ``plot``, ``playing``,
``envs``, ``experiment``, ``calibrate``, ``bench``, ``validation``, ``testing``, ``lab``, ``cli``.
Imports flow one way, down this list (a test holds the code to it); a module or name that starts
with an underscore is private to its package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shuffle_sim._runtime.lazy import face_of, lazy_face
from shuffle_sim._version import __version__ as __version__

#: Public name -> the module that defines it.
_FACE = face_of(
    {
        "shuffle_sim.court": ("Court", "CourtError", "list_courts", "load_court"),
        "shuffle_sim.judging": ("Judgement", "judge", "judge_batch"),
        "shuffle_sim.physics": ("Scene", "simulate"),
        "shuffle_sim.shots": ("simulate_shots",),
        "shuffle_sim.playing": ("play",),
        "shuffle_sim.experiment": ("run_experiment", "load_experiment"),
    }
)

__all__ = sorted([*_FACE, "__version__"])

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())

if TYPE_CHECKING:  # the same names, imported outright, for type checkers and editors
    from shuffle_sim.court import Court as Court
    from shuffle_sim.court import CourtError as CourtError
    from shuffle_sim.court import list_courts as list_courts
    from shuffle_sim.court import load_court as load_court
    from shuffle_sim.experiment import load_experiment as load_experiment
    from shuffle_sim.experiment import run_experiment as run_experiment
    from shuffle_sim.judging import Judgement as Judgement
    from shuffle_sim.judging import judge as judge
    from shuffle_sim.judging import judge_batch as judge_batch
    from shuffle_sim.physics import Scene as Scene
    from shuffle_sim.physics import simulate as simulate
    from shuffle_sim.playing import play as play
    from shuffle_sim.shots import simulate_shots as simulate_shots
