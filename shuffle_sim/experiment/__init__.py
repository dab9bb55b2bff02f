"""Batch shot experiments: sweeps of intended shots x noise samples, run in chunks through the batch
API, stored on disk and drawn as heatmaps.

==================  =======================================================================
module              what it does
==================  =======================================================================
``spec``            experiment files (TOML): validated into an ``Experiment``
``kernels``         numba kernels: noisy shots from a grid cell, outcome reductions
``runner``          ``run_experiment``: chunks, local workers or Dask, resume, progress
``store``           the results folder: chunk files, netCDF grid, Parquet records, provenance
``heatmaps``        outcome heatmaps beside the court (``save_plots``)
``calibration``     fitting noise presets to observed rates (crokinole open 20s)
==================  =======================================================================
"""

from shuffle_sim.experiment.runner import RunSummary, run_experiment
from shuffle_sim.experiment.spec import Experiment, ExperimentError, load_experiment

__all__ = ["Experiment", "ExperimentError", "RunSummary", "load_experiment", "run_experiment"]
