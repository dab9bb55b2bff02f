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

from shuffle_sim._runtime.lazy import lazy_face
from shuffle_sim._version import __version__

#: Public name -> the module that defines it.
_FACE = {
    "Court": "shuffle_sim.court",
    "CourtError": "shuffle_sim.court",
    "list_courts": "shuffle_sim.court",
    "load_court": "shuffle_sim.court",
    "Judgement": "shuffle_sim.judging",
    "judge": "shuffle_sim.judging",
    "judge_batch": "shuffle_sim.judging",
    "Scene": "shuffle_sim.physics",
    "simulate": "shuffle_sim.physics",
    "simulate_shots": "shuffle_sim.shots",
    "play": "shuffle_sim.playing",
    "run_experiment": "shuffle_sim.experiment",
    "load_experiment": "shuffle_sim.experiment",
}

__all__ = [
    "Court",
    "CourtError",
    "Judgement",
    "Scene",
    "__version__",
    "judge",
    "judge_batch",
    "list_courts",
    "load_court",
    "load_experiment",
    "play",
    "run_experiment",
    "simulate",
    "simulate_shots",
]

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())

if TYPE_CHECKING:  # the same names, imported outright, for type checkers and editors
    from shuffle_sim.court import Court, CourtError, list_courts, load_court
    from shuffle_sim.experiment import load_experiment, run_experiment
    from shuffle_sim.judging import Judgement, judge, judge_batch
    from shuffle_sim.physics import Scene, simulate
    from shuffle_sim.playing import play
    from shuffle_sim.shots import simulate_shots
