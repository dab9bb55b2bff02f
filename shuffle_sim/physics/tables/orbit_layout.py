"""The layout of the coupled model's packed tables (``orbit_tables``): each orbit's columns, the
header's entries, the interval coefficients and the lookup bins; built by ``orbit_tables`` and read
by the closed-form law (``laws.closed_form.coupled``)."""

from __future__ import annotations

# Columns of an orbit table.
C_SIGMA = 0
C_FV = 1
C_FU = 2
C_G = 3
C_D1 = 4  # first derivatives of f_v, f_u, g: columns 4, 5, 6
C_D2 = 7  # second derivatives: columns 7, 8, 9
C_EPS = 10
N_COLUMNS = 11

#: Spacing of the table's nodes in sigma, away from the graded stretches.
NODE_STEP = 1.0 / 32.0
#: eps - eps* at the first node of each orbit (the linearised solution is exact to its square).
START_OFFSET = 1e-9
#: The orbits end at these eps; beyond them, the pure-slide and pure-spin limits.
EPS_MIN = 1e-10
EPS_MAX = 1e10

# Entries of the header ``meta``.
M_ETA = 0
M_K = 1
M_EPS_STAR = 2
M_RATE = 3  # p: eps - eps* ~ exp(p sigma) near the stop
M_FV_STAR = 4
M_FU_STAR = 5
M_G_STAR = 6
M_UP_FV = 7  # the upper orbit's linear term at sigma = 0: f_v - f_v* = coefficient * exp(p sigma)
M_UP_FU = 8
M_UP_G = 9
M_LO_FV = 10  # the lower orbit's
M_LO_FU = 11
M_LO_G = 12
M_UP_ROWS = 13  # rows of the upper orbit in ``tab`` (it starts at row 0), then the lower orbit's
M_LO_ROWS = 14
M_Q_SLIDE = 15  # pure-slide limit: u ~ v^q
M_Q_SPIN = 16  # pure-spin limit: v ~ u^q
M_SPIN_RATE = 17  # T(0) / k: pure spin's deceleration of the rim speed over a
M_BIN_LO = 18  # where each orbit's lookup bins start (sigma): upper, lower
M_BIN_LO2 = 19
M_UP_BINS = 20  # offset of the upper orbit's bins in ``bins`` is 0, the lower's is this
M_BINS_ROW = 21  # the row of the packed tables where the bins start
N_META = 22
#: Rows of the packed tables taken by the header; the orbits' rows follow, then each orbit row's
#: interval coefficients (``COEFFICIENT_ROWS`` rows each), then the lookup bins.
META_ROWS = 2
COEFFICIENT_ROWS = 2
# Places in an interval's coefficient block: start sigma, 1 / width, then 6 coefficients per column.
K_START = 0
K_INV_WIDTH = 1
K_COEFFICIENTS = 2
