"""A run's numba kernels, compiled (or loaded from numba's cache) before its first chunk.

numba compiles a kernel on its first call and caches the machine code beside the sources, so only a
first run compiles. ``warm_up`` makes that step explicit, so that the progress display can say
"compiling kernels: first run only" instead of showing a shot rate that is really a compile time,
and so that it compiles exactly the kernels the job uses, by computing the job's first shot alone
(chunk 0 in a layout of one-shot chunks, whose result is thrown away).

On an empty numba cache an experiment on an empty board compiles its two large independent pieces
side by side on two cores: a second Python process compiles the one-call chunk kernel
(``experiment.lone.play_lone_chunk``) and writes it to the cache, while this one builds the judge's
grid of cells (``judge.judge_index``, compiling it). numba's compiler holds a lock per process, so
two threads would take turns; two processes do not. If the second process fails, this one compiles
the kernel itself: the outcome is the same, only slower.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
import time

from shuffle_sim._runtime.compile_ahead import cache_index
from shuffle_sim.experiment._plan import shot_plan, takes_lone_path
from shuffle_sim._runtime.helper_process import module_command
from shuffle_sim.judging.packing import judge_arrays

#: How long to wait for the helper process before compiling here anyway (s).
HELPER_TIMEOUT = 900.0


def job_kernels(experiment) -> list:
    """The numba dispatchers a run of ``experiment`` calls per chunk (besides the judge's grid)."""
    if takes_lone_path(experiment):
        from shuffle_sim.experiment._lone_chunk import play_lone_chunk

        return [play_lone_chunk]
    from shuffle_sim.experiment._chunk_kernels import build_shots, reduce_chunk
    from shuffle_sim.shots import play_board_shots, play_lone_shots

    return [build_shots, play_lone_shots if experiment.board is None else play_board_shots, reduce_chunk]


def kernels_cached(dispatchers) -> bool:
    """Whether numba's cache holds compiled code, current with its source, for every dispatcher.

    Reads numba's cache index (the same check numba makes before loading); a cache numba cannot
    tell about counts as missing.
    """
    return all(cache_index(dispatcher) for dispatcher in dispatchers)


def _start_helper(experiment) -> subprocess.Popen | None:
    """A second Python process that compiles the one-call chunk kernel into numba's cache (this
    module's ``main``, handed the experiment through its standard input)."""
    argv, env = module_command(__name__)
    try:
        payload = pickle.dumps(experiment)
        helper = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env=env)
        helper.stdin.write(payload)
        helper.stdin.close()
        return helper
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return None


class _CompilingNotice:
    """The progress display while kernels compile: what is happening and for how long, no shot rate."""

    def __init__(self, name: str, enabled: bool):
        self.bar = None
        self.stop = threading.Event()
        if not enabled:
            return
        from tqdm import tqdm

        self.bar = tqdm(total=None, desc=name, bar_format="{desc}: compiling kernels: first run only [{elapsed}]")
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def _tick(self) -> None:
        while not self.stop.wait(0.5):
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.stop.set()
            self.ticker.join()
            self.bar.close()


def warm_up(experiment, chunk_size: int, compute_chunk, progress: bool = False) -> float | None:
    """Compile or load every kernel a run of ``experiment`` in chunks of ``chunk_size`` uses.

    ``compute_chunk`` is the runner's (``experiment.runner.compute_chunk``), which computes the job's
    first shot alone. Returns the seconds spent compiling, or None if numba's cache already held
    every kernel (then loading them takes a fraction of a second). With ``progress``, a compiling run
    says so on the progress display while it compiles.
    """
    from shuffle_sim.judging.batch import cached_judge_index
    from shuffle_sim.judging.cell_grid import judge_index
    from shuffle_sim.judging.procedure import judge_prepare

    kernels = job_kernels(experiment)
    cold = not kernels_cached(kernels + [judge_prepare, judge_index])
    began = time.perf_counter()
    notice = _CompilingNotice(experiment.name, progress and cold)
    helper = None
    try:
        helper = _start_helper(experiment) if cold and takes_lone_path(experiment) else None
        # The judge's grid for the run's batches (kept for its chunks), compiled here meanwhile.
        court = experiment.court.for_end(experiment.end)
        cached_judge_index(judge_arrays(court), chunk_size)
        if helper is not None:
            try:
                helper.wait(HELPER_TIMEOUT)
            except subprocess.TimeoutExpired:
                helper.kill()
                helper.wait()
        compute_chunk(experiment, 0, 1)  # everything else the job calls, with the argument types of its chunks
    finally:
        if helper is not None and helper.poll() is None:  # interrupted: the helper goes too
            helper.kill()
            helper.wait()
        notice.close()
    return time.perf_counter() - began if cold else None


def main() -> int:
    """The helper process: compile the chunk kernel for the experiment on standard input."""
    from shuffle_sim.experiment._lone_chunk import compile_lone_kernel

    compile_lone_kernel(pickle.load(sys.stdin.buffer), shot_plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
