"""The kernel's faces, written once for both motion laws: a scene run from Python, many scenes, and
the batch API's kernels.

``simulate``
    ``simulate(scene) -> SimResult``, its event log and trajectories, positions at any instants
``scene_batch``
    many multi-disc scenes, each with its own materials, in one numba call
``shot_kernels``
    many independent shots simulated and judged in one numba call (``shots.simulate_shots``)
``shot_rows``
    the rows of one shot of a batch: why it cannot be played, the verdict where a disc ended
"""
