"""A motion law as a value whose numba type chooses the compiled code: ``CLOSED_FORM`` and ``INTEGRATED``.

The event loop, the lone-disc runs and the batch faces are written once and take the law as their
first argument. numba types each law as a type of its own (``LawType``), so a kernel is compiled
once per law it meets, and the law's operations (``laws.ops``) pick that law's functions while
compiling: a flat court's kernels contain nothing of the integrated law, and choosing costs nothing
when they run. The value itself carries no data (the law's arrays are passed beside it).

Passing the law from Python costs a few microseconds per call (numba types the object); inside
numba code the two laws are constants.
"""

from __future__ import annotations

from numba.core import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, register_model, typeof_impl, unbox


class Law:
    """A motion law between events: ``CLOSED_FORM`` (planes, Coulomb friction) or ``INTEGRATED``
    (the equations of motion integrated step by step)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Law({self.name!r})"

    def __reduce__(self):
        return (_law_named, (self.name,))


class LawType(types.Type):
    """numba's type of a ``Law``: one type per law, named after it."""

    def __init__(self, name: str) -> None:
        self.law = name
        super().__init__(name=f"Law({name})")


@typeof_impl.register(Law)
def _typeof_law(value: Law, context) -> LawType:
    return LawType(value.name)


register_model(LawType)(models.OpaqueModel)


@unbox(LawType)
def _unbox_law(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_constant(LawType)
def _constant_law(context, builder, typ, value):
    return context.get_dummy_value()


#: Closed-form motion on planes: sliding under Coulomb friction, with or without coupled spin.
CLOSED_FORM = Law("closed_form")
#: Motion integrated step by step: courts that are not flat.
INTEGRATED = Law("integrated")

_LAWS = {law.name: law for law in (CLOSED_FORM, INTEGRATED)}


def _law_named(name: str) -> Law:
    return _LAWS[name]
