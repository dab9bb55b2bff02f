"""Batch shot experiments: sweeps of intended shots x noise samples, run in chunks through the batch
API, stored on disk and drawn as heatmaps.

``run_experiment`` runs an experiment file (or an ``Experiment`` that ``load_experiment`` read) into
a results folder and returns a ``RunSummary``; ``run_file`` does what ``shuffle-sim run`` does (the
folder's lock, Dask, the plots). An experiment that cannot be run raises ``ExperimentError`` naming
the file, the key and the value. The file format and the results are described in
``experiments/README.md`` and the documentation's results page.

===================  =======================================================================
module               what it holds
===================  =======================================================================
``spec``             experiment files (TOML), read and checked into an ``Experiment``
``errors``           ``ExperimentError``
``store``            the results folder: chunk files, the netCDF grid, Parquet records, provenance
``pairing``          paired axes: common random numbers, and the sums of paired differences
``heatmaps``         outcome maps beside the court (``plot_metric``, ``save_plots``)
``views``            a plot's view of the grid: axes, selections, averages, combined outcomes
``difference_maps``  a paired or unpaired difference drawn with its standard error
===================  =======================================================================

The run itself (chunks, numba kernels, workers and Dask, assembly of the results) is private to the
package; each of its modules says how it works.

Inside the package: the experiment's model (``_model``), its grid axes (``_axes``, ``_court_axes``)
and file sections (``_sections``); a run (``_run_file``, ``_runner``, ``_lock``, ``_warmup``,
``_plan``), its chunks (``_chunks``, ``_chunk_kernels``; on an empty board ``_lone_chunk`` and
``_lone_kernels``), Dask's lost workers (``_dask_watch``), the results' assembly (``_assembly``,
``_grid_file``); the plots' axes and panels (``_axis_display``, ``_panels``) and the plot helper
process (``_plot_helper``). The names below load their module on first use, so
that importing one module of the package (the plots, say) does not import the runner and the numba
kernels with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shuffle_sim._runtime.lazy import lazy_face

#: Public name -> the module that defines it.
_FACE = {
    "Experiment": "shuffle_sim.experiment.spec",
    "ExperimentError": "shuffle_sim.experiment.spec",
    "load_experiment": "shuffle_sim.experiment.spec",
    "RunSummary": "shuffle_sim.experiment._runner",
    "run_experiment": "shuffle_sim.experiment._runner",
    "run_file": "shuffle_sim.experiment._run_file",
    "compute_chunk": "shuffle_sim.experiment._chunks",
}

__all__ = [
    "Experiment",
    "ExperimentError",
    "RunSummary",
    "compute_chunk",
    "load_experiment",
    "run_experiment",
    "run_file",
]


__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())

if TYPE_CHECKING:  # the same names, imported outright, for type checkers and editors
    from shuffle_sim.experiment._chunks import compute_chunk
    from shuffle_sim.experiment._run_file import run_file
    from shuffle_sim.experiment._runner import RunSummary, run_experiment
    from shuffle_sim.experiment.spec import Experiment, ExperimentError, load_experiment
