"""The grid outcomes of an experiment in memory, and their netCDF file, without xarray.

A run assembles its outcomes as a ``GridResults``: named variables (dimension names, a NumPy array,
attributes), split into coordinates and data variables, plus the file's global attributes, the same
content as an ``xarray.Dataset`` holds. The run writes it straight to netCDF-4 (HDF5) with
``h5netcdf``, and the plots are drawn from it. xarray (with pandas, and Dask when installed) is not
imported on that path: importing it and building a ``Dataset`` took longer than computing a
million shots. Users read the file as before, ``xarray.open_dataset("grid.nc")`` or
``store.open_results``; the layout written here is the one xarray writes (dimension coordinates as
dimension scales, ``_FillValue`` NaN on floating-point variables, other coordinates named in each
data variable's ``coordinates`` attribute, text as variable-length UTF-8 strings), so the dataset
read back is the same whichever wrote it (``tests/experiment/test_grid_file.py`` compares).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class GridVariable:
    """One variable: its dimension names, values and attributes (as ``xarray.Variable``)."""

    dims: tuple[str, ...]
    values: np.ndarray
    attrs: dict = field(default_factory=dict)

    def take(self, dim: str, index: int) -> GridVariable:
        """The variable at position ``index`` along ``dim`` (that dimension dropped)."""
        axis = self.dims.index(dim)
        return GridVariable(
            self.dims[:axis] + self.dims[axis + 1 :], np.take(self.values, index, axis=axis), self.attrs
        )

    def ordered(self, *dims: str) -> np.ndarray:
        """The values with their axes in the order ``dims`` (all of the variable's dimensions)."""
        return np.transpose(self.values, [self.dims.index(d) for d in dims])


@dataclass
class GridResults:
    """Coordinates, data variables and global attributes of an experiment's grid outcomes."""

    coords: dict[str, GridVariable]
    data_vars: dict[str, GridVariable]
    attrs: dict

    def __getitem__(self, name: str) -> GridVariable:
        return self.coords[name] if name in self.coords else self.data_vars[name]

    @classmethod
    def from_xarray(cls, dataset) -> GridResults:
        """The same content taken from an ``xarray.Dataset`` (for example one ``open_results`` read)."""

        def plain(variable) -> GridVariable:
            values = np.asarray(variable.values)
            if values.dtype == object:  # text read back from a file
                values = values.astype(str)
            return GridVariable(tuple(variable.dims), values, dict(variable.attrs))

        return cls(
            {k: plain(v.variable) for k, v in dataset.coords.items()},
            {k: plain(v.variable) for k, v in dataset.data_vars.items()},
            dict(dataset.attrs),
        )

    def to_xarray(self):
        """The same content as an ``xarray.Dataset``."""
        import xarray as xr

        def variable(v: GridVariable):
            return xr.Variable(v.dims, v.values, dict(v.attrs))

        return xr.Dataset(
            {k: variable(v) for k, v in self.data_vars.items()},
            coords={k: variable(v) for k, v in self.coords.items()},
            attrs=dict(self.attrs),
        )

    def write_netcdf(self, path) -> None:
        """Write a netCDF-4 file that ``xarray.open_dataset`` reads back as ``to_xarray()``."""
        import h5netcdf

        dimension_coords = {k for k, v in self.coords.items() if v.dims == (k,)}
        other_coords = [k for k in self.coords if k not in dimension_coords]
        sizes: dict[str, int] = {}
        for v in list(self.coords.values()) + list(self.data_vars.values()):
            sizes.update(zip(v.dims, v.values.shape))
        named = set()
        with h5netcdf.File(path, "w") as f:
            f.dimensions = sizes
            for name, v in list(self.coords.items()) + list(self.data_vars.items()):
                attrs = dict(v.attrs)
                if name in self.data_vars:
                    mine = [k for k in other_coords if set(self.coords[k].dims) <= set(v.dims)]
                    if mine:
                        attrs["coordinates"] = " ".join(mine)
                        named.update(mine)
                _write_variable(f, name, v, attrs)
            leftover = [k for k in other_coords if k not in named]
            attrs = dict(self.attrs)
            if leftover:
                attrs["coordinates"] = " ".join(leftover)
            for key, value in attrs.items():
                f.attrs[key] = value


def _write_variable(f, name: str, v: GridVariable, attrs: dict) -> None:
    values = v.values
    if values.dtype.kind in "US":
        import h5py

        variable = f.create_variable(name, v.dims, dtype=h5py.string_dtype())
        variable[...] = values.astype(object)
    elif values.dtype.kind == "f":
        variable = f.create_variable(name, v.dims, data=values, fillvalue=np.nan)
    else:
        variable = f.create_variable(name, v.dims, data=values)
    for key, value in attrs.items():
        variable.attrs[key] = value
