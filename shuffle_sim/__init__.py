"""shuffle_sim: exact event-driven simulation and rule judging for the shuffleboard family.

Four games: deck shuffleboard (MSA rules), horse collar table shuffleboard, ricochet shuffleboard
and crokinole. SI units everywhere inside; feet and inches only in court files and displays.

The public face (each name loads its subpackage on first use, so that ``import shuffle_sim`` and
the command line's help stay quick):

==========================  ================================================================
name                        what it does
==========================  ================================================================
``load_court``              a court by name (``deck``, ...) or path (``shuffle_sim.court``)
``judge``, ``judge_batch``  judge resting discs: value, zone, lines, hanger, dead (``judge``)
``simulate``                run a scene of discs to rest, exactly (``physics``)
``simulate_shots``          many independent shots, simulated and judged in one call (``shots``)
``play``                    a simulated game or match of any registered game (``play``)
``run_experiment``          a batch shot experiment to results on disk (``experiment``)
==========================  ================================================================

The layers, from the bottom: ``lazy`` (the import-on-use faces), ``units``, ``geometry``, ``games`` (the game registry) -> ``court`` ->
``judge`` -> ``physics`` -> ``scene``, ``shots`` -> ``rules`` -> ``play`` -> ``experiment`` ->
``bench``, ``plot``, ``cli``. Imports flow one way, down this list.
"""

from __future__ import annotations

import sys
import types

from shuffle_sim.lazy import lazy_face

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_FACE = {
    "Court": "shuffle_sim.court",
    "CourtError": "shuffle_sim.court",
    "list_courts": "shuffle_sim.court",
    "load_court": "shuffle_sim.court",
    "Judgement": "shuffle_sim.judge",
    "judge": "shuffle_sim.judge",
    "judge_batch": "shuffle_sim.judge",
    "Scene": "shuffle_sim.scene",
    "simulate": "shuffle_sim.physics",
    "simulate_shots": "shuffle_sim.shots",
    "play": "shuffle_sim.play",
    "run_experiment": "shuffle_sim.experiment",
    "load_experiment": "shuffle_sim.experiment",
}

__all__ = [*_FACE, "__version__"]
#: Face functions named like a subpackage (``shuffle_sim.judge``, ``shuffle_sim.play``): the package's
#: attribute is the function, as it has always been; the subpackage is imported by its dotted path.
_SHADOWED = {"judge", "play"}


__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())


class _Package(types.ModuleType):
    """The package module: importing a subpackage named like a face function keeps the function."""

    def __setattr__(self, name: str, value) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
