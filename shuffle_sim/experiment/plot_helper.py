"""The command line's plots, drawn in a second process while this one runs the experiment.

``shuffle-sim run`` starts the helper first thing. While this process loads the numba kernels and
computes, the helper imports matplotlib and the plotting code and lays out its fonts (about half a
second of a warm run); when the grid outcomes are assembled they go to it through a pipe, and it
draws the plots while this process writes ``grid.nc``. The plots are the same files ``save_plots``
draws in this process; on a machine with one core the two processes only take turns.

If the helper cannot start or dies, the plots are drawn here instead (and an error there shows here
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
import traceback
from pathlib import Path

_ERROR_KINDS = ("ExperimentError",)


class PlotHelper:
    """A started helper process: ``draw(out, grid)`` hands it the results, ``paths()`` waits for the
    files (or draws them here if the helper failed); ``close()`` ends it if still running."""

    def __init__(self):
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                                             if p])
        self.sent = None
        try:
            self.process = subprocess.Popen([sys.executable, "-P", "-m", "shuffle_sim.experiment.plot_helper"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                            env=env)
        except OSError:
            self.process = None

    def draw(self, out: Path, grid) -> None:
        """Hand the helper the results folder and the grid outcomes (a ``grid.GridResults``) to draw."""
        self.sent = (Path(out), grid)
        if self.process is None:
            return
        try:
            self.process.stdin.write(pickle.dumps(self.sent))
            self.process.stdin.close()
        except (OSError, pickle.PicklingError):
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
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None and not pipe.closed:
                    pipe.close()
        self.process = None

    def __enter__(self) -> "PlotHelper":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _warm_fonts() -> None:
    """Lay out and render a little text once: loads the font files and matplotlib's font cache."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1, 1))
    FigureCanvasAgg(fig)
    fig.text(0.5, 0.5, "0.1 -2.5 (m/s)", fontsize=10)
    fig.canvas.draw()


def main() -> int:
    from shuffle_sim.experiment.heatmaps import save_plots
    from shuffle_sim.experiment.errors import ExperimentError

    _warm_fonts()
    payload = sys.stdin.buffer.read()
    if not payload:  # the run ended without results: nothing to draw
        return 0
    out, grid = pickle.loads(payload)
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
