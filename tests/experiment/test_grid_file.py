"""The grid file written without xarray reads back, with xarray, as the dataset xarray would write."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from shuffle_sim.experiment._assembly import build_grid, empty_sums
from shuffle_sim.experiment._grid_file import GridResults
from shuffle_sim.experiment.spec import load_experiment

EXPERIMENTS_DIR = Path(__file__).resolve().parents[2] / "experiments"


def _grid(name: str, seed: int = 0) -> GridResults:
    """The grid outcomes of an experiment file from random per-cell sums (no simulation)."""
    exp = load_experiment(EXPERIMENTS_DIR / f"{name}.toml")
    sums = empty_sums(exp)
    rng = np.random.default_rng(seed)
    for values in sums.values():
        values[...] = rng.integers(0, 5, values.shape)
    for values in sums.values():  # a cell without judged shots: NaN means, as the runner writes them
        values[0] = 0
    return build_grid(exp, sums)


@pytest.mark.parametrize("name", ["deck-draw", "deck-takeout", "horse-collar-hanger", "crokinole-open20"])
def test_written_grid_reads_back_as_xarray_writes_it(name, tmp_path):
    grid = _grid(name)
    ours, theirs = tmp_path / "ours.nc", tmp_path / "theirs.nc"
    grid.write_netcdf(ours)
    grid.to_xarray().to_netcdf(theirs, engine="h5netcdf")
    with xr.open_dataset(ours) as a, xr.open_dataset(theirs) as b:
        a.load()
        b.load()
        xr.testing.assert_identical(a, b)
        xr.testing.assert_identical(a, grid.to_xarray())
        assert np.isnan(a["expected_value"].values.reshape(-1)[0])
        for variable in a.variables:  # stored alike: types and fill values
            assert a[variable].encoding["dtype"] == b[variable].encoding["dtype"], variable
            assert np.isnan(a[variable].encoding.get("_FillValue", 0.0)) == np.isnan(
                b[variable].encoding.get("_FillValue", 0.0)
            ), variable


def test_grid_from_xarray_holds_the_same_arrays_and_attributes():
    grid = _grid("deck-takeout", seed=1)
    back = GridResults.from_xarray(grid.to_xarray())
    assert back.attrs == grid.attrs
    assert list(back.coords) == list(grid.coords) and list(back.data_vars) == list(grid.data_vars)
    for name in list(grid.coords) + list(grid.data_vars):
        assert back[name].dims == grid[name].dims and back[name].attrs == grid[name].attrs
        np.testing.assert_array_equal(back[name].values, grid[name].values)
    p = grid["p_removed"]
    assert p.take("board_disc", 2).dims == p.dims[:2]
    np.testing.assert_array_equal(p.take("board_disc", 2).values, p.values[:, :, 2])
    np.testing.assert_array_equal(p.ordered("board_disc", "direction", "speed"), p.values.transpose(2, 1, 0))
