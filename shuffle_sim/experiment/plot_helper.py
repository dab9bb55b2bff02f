"""The command line's plots, drawn in a second process while this one runs the experiment.

``shuffle-sim run`` starts the helper first thing. While this process loads the numba kernels and
computes, the helper imports matplotlib and the plotting code and draws the experiment's plots once
from empty results (a process's first figure costs more than the next); when the grid outcomes are
assembled they go to it through a pipe, and it draws the plots while this process writes
``grid.nc``. The plots are the same files ``save_plots``
draws in this process; on a machine with one core the two processes only take turns.

The command line starts it only when a core is free (``core_to_spare``). If the helper cannot start
or dies, the plots are drawn here instead (and an error there shows here
with its traceback; the helper's own error output is not kept). A plot the experiment file
asks for that cannot be drawn (an unknown metric, say) is the same ``ExperimentError`` here as in
the helper.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
import traceback
from pathlib import Path

_ERROR_KINDS = ("ExperimentError",)


def core_to_spare() -> bool:
    """Whether this machine has a core the run does not need: two or more cores, and a load average
    (the last minute's) below one fewer than their number. The helper only helps then: on a machine
    whose other cores are busy it takes CPU from the run instead (measured: 1.9 s in one process, 2.3 s
    with the helper, with one of two cores taken by another job)."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return False
    try:
        return os.getloadavg()[0] <= cores - 1
    except (AttributeError, OSError):  # no load average here (Windows)
        return True


class PlotHelper:
    """A started helper process: ``draw(out, grid)`` hands it the results, ``paths()`` waits for the
    files (or draws them here if the helper failed); ``close()`` ends it if still running."""

    def __init__(self):
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                                             if p])
        self.sent = None
        self.rehearsal = None
        try:
            self.process = subprocess.Popen([sys.executable, "-P", "-m", "shuffle_sim.experiment.plot_helper"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                            env=env)
        except OSError:
            self.process = None

    def rehearse(self, experiment) -> None:
        """Have the helper draw the experiment's plots once from empty results, into nothing: the first
        figure of a process costs more than the next (fonts, the court's shapes, the colour bar), and
        the run is still computing."""
        if self.process is None:
            return
        from shuffle_sim.experiment.runner import _empty_sums, build_grid

        # From a thread: the pipe holds less than the grid, and the helper reads it only once imported.
        self.rehearsal = threading.Thread(target=self._send, daemon=True,
                                          args=(("rehearse", build_grid(experiment, _empty_sums(experiment))), False))
        self.rehearsal.start()

    def draw(self, out: Path, grid) -> None:
        """Hand the helper the results folder and the grid outcomes (a ``grid.GridResults``) to draw."""
        self.sent = (Path(out), grid)
        if self.rehearsal is not None:
            self.rehearsal.join()
        if self.process is not None:
            self._send(("draw", *self.sent), last=True)

    def _send(self, message: tuple, last: bool) -> None:
        process = self.process
        if process is None:
            return
        try:
            process.stdin.write(pickle.dumps(message))
            if last:
                process.stdin.close()
            else:
                process.stdin.flush()
        except (OSError, ValueError, pickle.PicklingError):  # the helper is gone: the plots are drawn here
            if last:
                self.close()

    def paths(self) -> list[Path]:
        """The plot files, once drawn (by the helper, or here if it could not)."""
        if self.sent is None:
            raise RuntimeError("PlotHelper.paths: nothing was handed to the helper to draw")
        if self.process is not None:
            with self.process.stdout:
                stdout = self.process.stdout.read()
            self.process.wait()
            self.process = None
            try:
                answer = json.loads(stdout.decode().strip().splitlines()[-1])
            except (ValueError, IndexError):
                answer = None
            if isinstance(answer, dict) and "paths" in answer:
                return [Path(p) for p in answer["paths"]]
            if isinstance(answer, dict) and answer.get("error") in _ERROR_KINDS:
                from shuffle_sim.experiment.errors import ExperimentError

                raise ExperimentError(answer["message"])
        from shuffle_sim.experiment.heatmaps import save_plots

        out, grid = self.sent
        return save_plots(out, dataset=grid)

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            if self.rehearsal is not None:
                self.rehearsal.join()  # its write fails at once now
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None and not pipe.closed:
                    pipe.close()
        self.process = None

    def __enter__(self) -> PlotHelper:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def main() -> int:
    import tempfile

    from shuffle_sim.experiment.errors import ExperimentError
    from shuffle_sim.experiment.heatmaps import save_plots

    while True:
        try:
            message = pickle.load(sys.stdin.buffer)
        except EOFError:  # the run ended without results: nothing to draw
            return 0
        if message[0] == "rehearse":
            with tempfile.TemporaryDirectory(prefix="shuffle-sim-plots-") as scratch:
                try:
                    save_plots(scratch, dataset=message[1], out_dir=scratch)
                except Exception:  # the real drawing will report it
                    pass
            continue
        _, out, grid = message
        try:
            paths = save_plots(out, dataset=grid)
        except ExperimentError as exc:
            print(json.dumps({"error": "ExperimentError", "message": str(exc)}))
            return 1
        except Exception:
            traceback.print_exc()
            return 1
        print(json.dumps({"paths": [str(p) for p in paths]}))
        return 0


if __name__ == "__main__":
    sys.exit(main())
