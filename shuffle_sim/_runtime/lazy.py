"""A package face that imports on first use: ``module.__getattr__`` and ``__dir__`` (PEP 562) over a map
of public name -> defining module, so that importing a package costs nothing until a name is used
(``shuffle-sim --version`` imports neither NumPy nor numba)."""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_face(package: str, face: dict[str, str], namespace: dict) -> tuple[Callable, Callable]:
    """(``__getattr__``, ``__dir__``) for ``package`` whose public names ``face`` maps to the modules that
    define them; a name is imported on first use and kept in ``namespace`` (the package's globals)."""

    def __getattr__(name: str):
        module = face.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(face))

    return __getattr__, __dir__


def face_of(modules: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """The map ``lazy_face`` takes (public name -> the module that defines it) from each module and
    the public names it defines."""
    return {name: module for module, names in modules.items() for name in names}
