"""What a pymunk reference run returns: its final state and its events, arranged like the kernel's."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class ReferenceEvent:
    """Something that happened in a pymunk run, at the end of the step that found it.

    ``kind`` uses the kernel's event names (``physics.EVENT_NAMES``): ``"disc"`` (discs ``i`` and
    ``j`` began touching), ``"cushion"`` (disc ``i`` and cushion ``j``, index into
    ``court.cushions``), ``"peg"`` (peg ``j``), ``"fall"`` (edge ``j``), ``"holed"`` (hole ``j``) or
    ``"killed"`` (disc ``i`` became dead: past kill line ``j``, or ``j`` = -1 off a killing cushion).
    """

    time: float
    kind: str
    i: int
    j: int


@dataclass
class ReferenceResult:
    """Final state of a pymunk run, arranged like the kernel's ``SimResult``.

    As in the kernel, a fallen or holed disc is out of play with zero velocity and spin: a fallen
    disc where its centre was at the end of the step that found it past the edge (within one
    step's travel of the crossing), a holed disc at the hole's centre. ``ok`` is False when the run
    hit ``max_time`` with discs still moving.
    """

    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    omega: np.ndarray
    status: np.ndarray  # int8, STATUS_*
    dead: np.ndarray  # bool
    ok: bool
    time: float  # simulated seconds until everything rested (or max_time)
    steps: int
    dt: float
    events: list[ReferenceEvent] = field(default_factory=list)

    @property
    def n_discs(self) -> int:
        return len(self.x)
