"""shuffle_sim: exact event-driven simulation and rule judging for the shuffleboard family.

Four games: deck shuffleboard (MSA rules), horse collar table shuffleboard, ricochet shuffleboard
and crokinole. SI units everywhere inside; feet and inches only in court files and displays.

The names below are imported on first use (PEP 562 module ``__getattr__``), so that importing the
package, or running ``shuffle-sim --version`` and ``--help``, loads neither NumPy nor numba.
"""

import sys
import types

__version__ = "0.1.0"

#: Public name -> the module that defines it (imported when the name is first looked up).
_LAZY = {
    "Court": "shuffle_sim.court",
    "CourtError": "shuffle_sim.court",
    "load_court": "shuffle_sim.court",
    "list_courts": "shuffle_sim.court",
    "Judgement": "shuffle_sim.judge",
    "judge": "shuffle_sim.judge",
    "judge_batch": "shuffle_sim.judge",
}

__all__ = [
    "Court",
    "CourtError",
    "Judgement",
    "judge",
    "judge_batch",
    "list_courts",
    "load_court",
    "__version__",
]


class _Package(types.ModuleType):
    """The package module: keeps the function ``judge`` under its name when the submodule
    ``shuffle_sim.judge`` is imported later (the import system then binds the submodule to the
    package's attribute of the same name; the eager import this replaces kept the function)."""

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name) == value.__name__:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'shuffle_sim' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
