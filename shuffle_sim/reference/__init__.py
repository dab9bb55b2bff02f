"""Reference engines for cross-validation only: the same scenes in pymunk (Chipmunk2D).

Nothing in the library's normal flow uses this package; tests and ``shuffle-sim bench`` do. See
``pymunk_engine`` for how a court becomes a pymunk space (joint friction, material products,
centre-crossing sensors) and why its error shrinks in proportion to the time step.
"""

from shuffle_sim.reference.pymunk_engine import (
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_MOVING,
    STATUS_REST,
    PymunkCourt,
    ReferenceEvent,
    ReferenceResult,
    simulate_reference,
)

__all__ = [
    "STATUS_FALLEN",
    "STATUS_HOLED",
    "STATUS_MOVING",
    "STATUS_REST",
    "PymunkCourt",
    "ReferenceEvent",
    "ReferenceResult",
    "simulate_reference",
]
