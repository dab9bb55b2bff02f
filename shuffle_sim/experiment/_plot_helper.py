"""The command line's plots, drawn in a second process while this one runs the experiment.

``shuffle-sim run`` starts the helper first thing. While this process loads the numba kernels and
computes, the helper imports matplotlib and the plotting code and draws the experiment's plots once
from empty results (a process's first figure costs more than the next), one plot at a time and only
until the results arrive; when the grid outcomes are assembled they go to it through a pipe, and it
draws the plots while this process writes ``grid.nc``. The plots are the same files ``save_plots``
draws in this process; on a machine with one core the two processes only take turns.

The command line starts it only when a core is free (``helper_process.core_to_spare``). If the
helper cannot start or dies, the plots are drawn here instead (and an error there shows here with
its traceback; the helper's own error output is not kept). A plot the experiment file
asks for that cannot be drawn (an unknown metric, say) is the same ``ExperimentError`` here as in
the helper.
"""

from __future__ import annotations

import json
import pickle
import queue
import subprocess
import sys
import threading
import traceback
from pathlib import Path

from shuffle_sim._runtime.helper_process import module_command

_ERROR_KINDS = ("ExperimentError",)


class PlotHelper:
    """A started helper process: ``draw(out, grid)`` hands it the results, ``paths()`` waits for the
    files (or draws them here if the helper failed); ``close()`` ends it if still running."""

    def __init__(self):
        argv, env = module_command("shuffle_sim.experiment._plot_helper")
        self.sent = None
        self.rehearsal = None
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
            )
        except OSError:
            self.process = None

    def rehearse(self, experiment) -> None:
        """Have the helper draw the experiment's plots once from empty results, into nothing: the first
        figure of a process costs more than the next (fonts, the court's shapes, the colour bar), and
        the run is still computing."""
        if self.process is None:
            return
        from shuffle_sim.experiment._assembly import build_grid, empty_sums

        # From a thread: the pipe holds less than the grid, and the helper reads it only once imported.
        self.rehearsal = threading.Thread(
            target=self._send, daemon=True, args=(("rehearse", build_grid(experiment, empty_sums(experiment))), False)
        )
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
        return save_plots(out, grid=grid)

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


def _messages() -> queue.Queue:
    """The messages on standard input, unpickled by a thread as they come (None at the end), so that
    the rehearsal can look between two plots whether the results have arrived."""
    messages: queue.Queue = queue.Queue()

    def read() -> None:
        try:
            while True:
                messages.put(pickle.load(sys.stdin.buffer))
        except (EOFError, OSError, pickle.UnpicklingError):
            messages.put(None)

    threading.Thread(target=read, daemon=True).start()
    return messages


def _rehearse(grid, messages: queue.Queue):
    """Draw the plots once from empty results into memory, one at a time, until the results arrive;
    returns the message that ended the rehearsal (None if it ran to the end first). A warm run's
    results come sooner than both plots' rehearsal would end: then the real plots start at once."""
    import io

    from shuffle_sim.experiment.heatmaps import DPI, draw_plot, grid_results, plot_specs, results_court

    ds = grid_results(grid)
    specs = plot_specs(ds)
    court = results_court(ds)
    for spec in specs:
        if not messages.empty():  # this thread is the queue's only reader
            return messages.get_nowait()
        try:
            fig, _ = draw_plot(ds, spec, court, specs)
            fig.savefig(io.BytesIO(), dpi=DPI)
        except Exception:  # the real drawing will report it
            return None
    return None


def main() -> int:
    from shuffle_sim.experiment.errors import ExperimentError
    from shuffle_sim.experiment.heatmaps import save_plots

    messages = _messages()
    pending = None
    while True:
        message = pending if pending is not None else messages.get()
        pending = None
        if message is None:  # the run ended without results: nothing to draw
            return 0
        if message[0] == "rehearse":
            pending = _rehearse(message[1], messages)
            continue
        _, out, grid = message
        try:
            paths = save_plots(out, grid=grid)
        except ExperimentError as exc:
            print(json.dumps({"error": "ExperimentError", "message": str(exc)}))
            return 1
        except Exception:
            traceback.print_exc()
            return 1
        print(json.dumps({"paths": [str(p) for p in paths]}))
        return 0


if __name__ == "__main__":
    from shuffle_sim._runtime.quick_exit import exit_now

    exit_now(main())
