"""Reference engines for cross-validation only: the same scenes in pymunk (Chipmunk2D), brute-force
integrators of the friction over the contact face and of the motion on surfaces, and the physics fuzz.

Nothing in the library's normal flow uses this package; tests and ``shuffle-sim bench`` do. See
``pymunk_engine`` for how a court becomes a pymunk space (joint friction, material products,
centre-crossing sensors) and why its error shrinks in proportion to the time step.

``pymunk_engine``
    the same scenes in pymunk
``face_friction``
    a brute-force reference for coupled sliding and spinning friction over the contact face
``surface_motion``
    a brute-force reference for discs on a surface that is not flat: its run
``surface_model``
    its model: the forces, the rides and the court's features
``fuzz``
    random multi-disc scenes through the scene batch, checked for invariants

Inside the package: ``_pymunk_circles`` (circles as straight pieces in pymunk) and
``_pymunk_results`` (what a pymunk run returns, arranged like the kernel's).
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
