"""Event kinds and disc status codes: the shared vocabulary of the kernel, its log and the rules.

The codes are plain integers so that numba kernels, result arrays and JSON all use the same values.
"""

from __future__ import annotations

# ---- event kinds (the contact log's ``kind``) ------------------------------------------------------
DISC_DISC = 0  #: a and b are disc indices
DISC_CUSHION = 1  #: b is the cushion's index in ``court.cushions``
DISC_PEG = 2  #: b is the peg's index in ``court.pegs``
FALL = 3  #: the disc's centre crossed an edge; it left the surface (b = -1)
HOLED = 4  #: the disc dropped into a hole (b = hole index)
STOP = 5  #: the disc stopped sliding (b = -1)
KILLED = 6  #: the disc became dead: past a kill line (b = its index) or off a killing cushion (b = -1)
SPIN_STOP = 7  #: the disc stopped spinning (b = -1)

#: Event names as the command line's JSON prints them, indexed by kind.
EVENT_NAMES = ("disc", "cushion", "peg", "fall", "holed", "stop", "killed", "spin_stop")

# ---- disc status ----------------------------------------------------------------------------------
STATUS_MOVING = 0
STATUS_REST = 1
STATUS_FALLEN = 2
STATUS_HOLED = 3

#: Status names as the command line's JSON prints them, indexed by status code. "moving" only
#: appears when a scene ended on its event bound (``ok`` false).
STATUS_NAMES = ("moving", "rest", "fallen", "holed")
