"""The numba decorator presets of the whole package, in one place.

Every kernel is compiled with ``cache=True`` (machine code cached beside the sources, so a warm run
loads it instead of compiling) and numpy's error model (division by zero gives inf or NaN instead of
raising, which costs a check per division; inputs are validated in Python before any kernel runs).
The presets differ in one thing each:

=================  ======================================================================
preset             what it is for
=================  ======================================================================
``kernel``         a compiled function
``inline``         a small helper numba inlines into its callers (a hot inner step of the
                   closed-form law, the judge, the games): see below for its compile cost
``no_refcount``    a loop over discs or shots that allocates nothing: compiled without numba's
                   reference counting, whose atomic increments per array argument cost more
                   than the work of one disc
``parallel``       a batch loop with ``prange``, run on numba's thread pool; it lets go of
                   Python's lock meanwhile, so that the caller's other threads (writing the
                   last batch's files, say) run beside it
``threaded``       a loop over one share of a batch that allocates nothing, called from several
                   Python threads at once (``threads.run_shares``): lets go of Python's lock,
                   no reference counting. For the one-call experiment kernel, whose
                   ``prange`` took about 6 s of processor time of a first run's compile; the
                   shares' results are the same whatever the thread count
``shares``         the same for a share that allocates its scratch arrays (once per share):
                   lets go of Python's lock, reference counting on. A ``prange`` loop's own
                   compile (numba's parallel lowering) costs seconds of processor time on every
                   first run; a share compiles as an ordinary loop
=================  ======================================================================

One signature per kernel: numba compiles a function once for each set of argument types it meets,
and a constant written at a call site inside a kernel has a type of its own (``Literal[int](0)``,
``Literal[bool](True)``), so ``f(x, 0)`` in one kernel and ``f(x, n)`` in another compile ``f``
twice. A constant handed to a function that is compiled on its own (any preset but ``inline``) is
written with its type: ``np.int64(0)``, ``np.bool_(True)``, ``0.0`` for a float.

Inlined or compiled on its own: numba inlines an ``inline`` helper by copying its intermediate
code into each caller and typing it again there, once per call site, so a helper called from many
places costs compile time at every one of them. A kernel is compiled once, and LLVM still inlines
it where that pays when its caller is optimized. The integrated law, whose helpers (the equations of
motion, the dense output, the event shapes) are called from dozens of sites, uses kernels for all
but one, which returns a view of its caller's array (a caller without reference counting cannot
take an array a call returns). Measured in turn on an empty cache, its graded ``simulate``
compiled in 55 s of processor time instead of 66 s, and its warm rate of curved shots stayed
within 1 %.

The copy itself takes a time that grows with the square of the helper's size, its own inlined
helpers included (each block's copy copies every variable of the function), so a large body is
not inlined, even at a single call site: the closed-form law's lone-disc loop is a kernel of its
own, called once per shot. Inlined into its one caller, it compiled in 7.7 s of a first ``play``'s
processor time, 5 s of it the copy; as a kernel, in 4.4 s, and the rate of lone shots stayed within
2 %. Small hot helpers stay inlined: there the compiler specializes them on their caller's
constants, which a call would lose (the lone shots' path prediction, called, cost 16 % of their
rate).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from numba import njit


class _Options(TypedDict):
    cache: bool
    error_model: Literal["python", "numpy"]


#: The options every preset shares.
COMMON: _Options = {"cache": True, "error_model": "numpy"}

kernel = njit(**COMMON)
inline = njit(**COMMON, inline="always")
no_refcount = njit(**COMMON, _nrt=False)  # type: ignore[call-overload]  # numba's stub omits its _nrt option
parallel = njit(**COMMON, parallel=True, nogil=True)
threaded = njit(**COMMON, _nrt=False, nogil=True)  # type: ignore[call-overload]  # numba's stub omits its _nrt option
shares = njit(**COMMON, nogil=True)

__all__ = ["COMMON", "inline", "kernel", "no_refcount", "parallel", "shares", "threaded"]
