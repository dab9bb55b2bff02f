"""The dense output of a Dormand-Prince 8(5,3) step: the seventh-order interpolant of a curved motion
over its step (``dop853``, Hairer, Norsett and Wanner, section II.10), as a loop over the method's
coefficient tables (numba).

The step itself is unrolled (``step``, its stages calling the equations compiled once); the dense
output is wanted far more rarely (an event search on a step, a path drawn) and is a loop: it repeats
the step's stages, adds the three stages of the continuous extension, and writes the interpolant's
coefficients. Every sum runs over a stage row's non-zero coefficients in order, the first term
starting it, so the coefficients are those the unrolled form would give, bit for bit.
"""

from __future__ import annotations

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.physics.laws.integrated.dop853 import N_STAGES, N_STAGES_EXTENDED, A, D
from shuffle_sim.physics.laws.integrated.motion import derivatives

#: Rows of ``dense``'s scratch ``out``: the interpolant's coefficients (7), then the stages (16).
DENSE_ROWS = 7
STAGE_ROW = DENSE_ROWS
OUT_ROWS = DENSE_ROWS + N_STAGES_EXTENDED


@jit.kernel
def _combination(coefficients, out, stages, component):
    """The sum over j < ``stages`` of coefficients[j] times stage j's ``component`` (rows of ``out``
    from ``STAGE_ROW``), over the non-zero coefficients in order."""
    total = 0.0
    started = False
    for j in range(stages):
        a = coefficients[j]
        if a != 0.0:
            term = a * out[STAGE_ROW + j, component]
            if started:
                total = total + term
            else:
                total = term
                started = True
    return total


@jit.no_refcount
def dense(surface, c, members, ride, y, f, h, out):
    """Write the dense output of the step of h from the state y and its derivatives f (6-tuples) into
    ``out[:7]``; ``out`` is (``OUT_ROWS``, 6), its further rows the stages."""
    y0, y1, y2, y3, y4, y5 = y
    for k in range(6):
        out[STAGE_ROW, k] = f[k]
    for s in range(1, N_STAGES_EXTENDED):
        a0 = y0 + h * _combination(A[s], out, s, np.int64(0))
        a1 = y1 + h * _combination(A[s], out, s, np.int64(1))
        a2 = y2 + h * _combination(A[s], out, s, np.int64(2))
        a3 = y3 + h * _combination(A[s], out, s, np.int64(3))
        a4 = y4 + h * _combination(A[s], out, s, np.int64(4))
        if s == N_STAGES:  # the new state, where the stage is the next step's first
            a5 = y5 + h * _combination(A[s], out, s, np.int64(5))
            new = (a0, a1, a2, a3, a4, a5)
            for k in range(6):
                out[0, k] = new[k] - y[k]
        d = derivatives(surface, c, members, ride, a0, a1, a2, a3, a4)
        for k in range(6):
            out[STAGE_ROW + s, k] = d[k]
    for k in range(6):
        out[1, k] = h * f[k] - out[0, k]
        out[2, k] = 2.0 * out[0, k] - h * (out[STAGE_ROW + N_STAGES, k] + f[k])
        for r in range(D.shape[0]):
            out[3 + r, k] = h * _combination(D[r], out, np.int64(N_STAGES_EXTENDED), k)
