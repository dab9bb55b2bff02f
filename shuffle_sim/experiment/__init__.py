"""Batch shot experiments: sweeps of intended shots x noise samples, run in chunks through the batch
API, stored on disk and drawn as heatmaps.

===================  =======================================================================
module               what it does
===================  =======================================================================
``spec``             experiment files (TOML): validated into an ``Experiment``
``_model``           the data model: shot parameters, outcomes, axes, plots, ``Experiment``
``_sections``        one reader per section of an experiment file
``errors``           ``ExperimentError``: the file, the key and the value of what is wrong
``_plan``            a run's shots as flat arrays, and which path (lone shots or a board) they take
``_chunk_kernels``   numba kernels: noisy shots from a grid cell, outcome reductions
``_lone_kernels``    one numba call per chunk on an empty board: build, play, judge and sum
``_lone_chunk``      that call's arguments, its compile before a first run, its sums per chunk
``_warmup``          a run's kernels compiled (or loaded) before its first chunk
``_chunks``          one chunk's shots, played and judged in one call, reduced to sums per cell
``pairing``          paired axes: common random numbers, and the sums of paired differences
``_assembly``        the chunks' sums added, the grid outcomes and the per-shot records
``_runner``          ``run_experiment``: chunks, local workers or Dask, resume, progress
``_dask_watch``      the chunks a Dask run computes again after losing a worker
``_grid_file``       the grid outcomes in memory and their netCDF file (no xarray needed)
``store``            the results folder: chunk files, netCDF grid, Parquet records, provenance
``_lock``            one run at a time per results folder
``_run_file``        a run as the command line starts it: lock, Dask, run, plots
``heatmaps``         outcome heatmaps beside the court (``save_plots``)
``views``            a plot's view of the grid: axes, selections, averages, combined outcomes
``difference_maps``  a paired or unpaired difference drawn with its standard error
``_plot_helper``     the command line's plots, drawn in a second process while the run computes
``calibration``      fitting noise presets to observed rates (crokinole open 20s)
===================  =======================================================================

The names below load their module on first use, so that importing one module of the package (the
plots, say) does not import the runner and the numba kernels with it.
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
