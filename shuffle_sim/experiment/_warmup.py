"""A run's numba kernels, compiled (or loaded from numba's cache) before its first chunk.

numba compiles a kernel on its first call and caches the machine code beside the sources, so only a
first run compiles. ``warm_up`` makes that step explicit, so that the run can say that it compiles
(``_runtime.compile_notice``) instead of showing a shot rate that is really a compile time,
and so that it compiles exactly the kernels the job uses, by computing the job's first shot alone
(chunk 0 in a layout of one-shot chunks, whose result is thrown away; with paired axes, its first
draw: one shot of each paired combination).

On an empty numba cache an experiment on an empty board compiles its one-call chunk kernel
(``experiment.lone.play_lone_chunk``) in two processes side by side on two cores: a second Python
process compiles the lone disc's physics (``physics.laws.closed_form.lone.run_lone``) and then the kernel's
blocks (``lone.play_lone_blocks``), writing them to numba's cache, while this one compiles the
kernel's other pieces (the judging pass, the start check's and the draws' callees, the sums:
``lone.compile_lone_parts``), which the other finds in the cache when its blocks need them; then
this one loads the kernel. numba's compiler holds a lock per process, so two threads would take turns; two processes do
not. If the second process fails, or ``SHUFFLE_SIM_COMPILE_HELPER=0`` says to start none
(``shuffle-sim compile`` runs its own processes), this one compiles the physics itself: the outcome is the same,
only slower. (The judge's grid of cells is built with NumPy, ``judge.grid_build``: nothing to
compile.)
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time

from shuffle_sim._runtime.compile_ahead import ENV_SWITCH, cache_index
from shuffle_sim._runtime.helper_process import module_command
from shuffle_sim.experiment._plan import shot_plan, takes_lone_path
from shuffle_sim.judging.packing import judge_arrays

#: How long to wait for the helper process before compiling here anyway (s).
HELPER_TIMEOUT = 900.0


def job_kernels(experiment) -> list:
    """The numba dispatchers a run of ``experiment`` calls per chunk (besides the judge's grid)."""
    if takes_lone_path(experiment):
        from shuffle_sim.experiment._lone_chunk import play_lone_blocks, sum_lone_rows

        return [play_lone_blocks, sum_lone_rows]
    from shuffle_sim.experiment._chunk_kernels import build_shots, reduce_chunk
    from shuffle_sim.physics.numba_api import play_board_chunks, play_lone_chunks

    play = play_lone_chunks if experiment.board is None else play_board_chunks
    if experiment.paired:
        from shuffle_sim.experiment._chunk_kernels import reduce_rows
        from shuffle_sim.experiment.pairing import add_pair_sums, build_drawn_shots

        return [build_drawn_shots, play, reduce_rows, add_pair_sums]
    return [build_shots, play, reduce_chunk]


def kernels_cached(dispatchers) -> bool:
    """Whether numba's cache holds compiled code, current with its source, for every dispatcher.

    Reads numba's cache index (the same check numba makes before loading); a cache numba cannot
    tell about counts as missing.
    """
    return all(cache_index(dispatcher) for dispatcher in dispatchers)


def _start_helper(experiment) -> subprocess.Popen | None:
    """A second Python process that compiles the lone disc's physics into numba's cache (this
    module's ``main``, handed the experiment through its standard input)."""
    if os.environ.get(ENV_SWITCH, "") == "0":
        return None
    argv, env = module_command(__name__)
    try:
        payload = pickle.dumps(experiment)
        helper = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        assert helper.stdin is not None  # stdin=PIPE
        helper.stdin.write(payload)
        helper.stdin.close()
        return helper
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return None


def warm_up(experiment, chunk_size: int, compute_chunk, progress: bool = False) -> float | None:
    """Compile or load every kernel a run of ``experiment`` in chunks of ``chunk_size`` uses.

    ``compute_chunk`` is the runner's (``experiment.runner.compute_chunk``), which computes the job's
    first shot alone. Returns the seconds spent compiling, or None if numba's cache already held
    every kernel (then loading them takes a fraction of a second). With ``progress``, a compiling run
    says so on the progress display while it compiles.
    """
    from shuffle_sim._runtime import compile_notice
    from shuffle_sim.judging.batch import cached_judge_index

    kernels = job_kernels(experiment)
    cold = not kernels_cached(kernels)
    began = time.perf_counter()
    if progress and cold:
        compile_notice.announce(experiment.name)
    helper = None
    try:
        helper = _start_helper(experiment) if cold and takes_lone_path(experiment) else None
        # The judge's grid for the run's batches (kept for its chunks; NumPy, nothing to compile).
        court = experiment.court.for_end(experiment.end)
        cached_judge_index(judge_arrays(court), chunk_size)
        if helper is not None:
            # Meanwhile here: the chunk kernel's other callees (draws, start check, judge) into the cache.
            from shuffle_sim.experiment._lone_chunk import compile_lone_parts

            compile_lone_parts(experiment, shot_plan)
            try:
                helper.wait(HELPER_TIMEOUT)
            except subprocess.TimeoutExpired:
                helper.kill()
                helper.wait()
        # Everything else the job calls, with the argument types of its chunks (one draw of a paired one).
        compute_chunk(experiment, 0, experiment.pair_count)
    finally:
        if helper is not None and helper.poll() is None:  # interrupted: the helper goes too
            helper.kill()
            helper.wait()
        compile_notice.finish()
    return time.perf_counter() - began if cold else None


def main() -> int:
    """The helper process: compile the lone disc's physics for the experiment on standard input."""
    from shuffle_sim._runtime.compile_log import install_from_environment
    from shuffle_sim.experiment._lone_chunk import compile_lone_physics

    install_from_environment()
    compile_lone_physics(pickle.load(sys.stdin.buffer), shot_plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
