"""How error messages show the values they name: plain Python numbers, lists and names.

Messages name the field and the value that is wrong (``discs[0] at x=-0.25, y=0.25 is off the
surface``). A value that reached the check as a NumPy scalar or array would otherwise print as
NumPy's own repr (``np.float64(-0.25)``), which says more about the code than about the input. Every
message that shows a value shows it through ``shown``.
"""

from __future__ import annotations

from typing import Any


def _from_numpy(value: Any) -> bool:
    # By the type's module, so that this module (below the units and the courts) imports nothing.
    return type(value).__module__.split(".")[0] == "numpy"


def plain(value: Any) -> Any:
    """``value`` with NumPy scalars as Python numbers and arrays as lists, inside tuples, lists and
    dicts too; anything else as it is."""
    if _from_numpy(value) and hasattr(value, "tolist"):
        return value.tolist()  # a scalar's is its Python number, an array's a (nested) list
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value


def shown(value: Any) -> str:
    """The text a message shows for ``value``: the ``repr`` of its ``plain`` form (``-0.25``,
    ``'2 inchs'``, ``[0.1, 0.2]``)."""
    return repr(plain(value))


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular for one (``"1 event"``, ``"3 events"``, ``"10,000 copies"`` with
    ``plural="copies"``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
