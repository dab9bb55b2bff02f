"""Where an experiment's results live on disk, and how they are written so that nothing is lost.

A results folder (``--out DIR``, default ``results/NAME``) holds::

    experiment.toml   the experiment file as run
    court.toml        the court file as run (the results describe themselves without the repository)
    manifest.json     package version, seed, chunk layout, fingerprint, status, timings
    chunks/           one ``chunk-NNNNNNNN.npz`` per finished chunk (written atomically; its arrays
                      packed in one entry, ``ResultsDir.write_chunk``)
    grid.nc           the grid outcomes, netCDF (open with ``xarray.open_dataset``)
    shots.parquet     per-shot records when ``collect.records = true`` (open with ``pandas.read_parquet``)
    *.png             the plots
    .lock             while a run owns the folder: its process id, host and start time (``_lock``)

Each chunk file is written to a temporary name and renamed into place, so a chunk file either holds a
finished chunk or does not exist: an interrupted run resumed with ``--resume`` loses no finished chunk
and repeats none.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from shuffle_sim._version import __version__
from shuffle_sim.experiment.errors import ExperimentError

if TYPE_CHECKING:
    from shuffle_sim.experiment.spec import Experiment

GRID_FILE = "grid.nc"
RECORDS_FILE = "shots.parquet"
MANIFEST_FILE = "manifest.json"
EXPERIMENT_FILE = "experiment.toml"
COURT_FILE = "court.toml"
CHUNKS_DIR = "chunks"
RNG_DESCRIPTION = (
    "Philox4x64-10 (as numpy.random.Philox), key = seed, counter = (shot index, stream, block, 0); "
    "stream 0: execution noise (normals: speed, direction, spin, start x, start y), "
    "stream 1: parameter distributions; shot index = cell index * samples + sample"
)


def _publish(tmp: str | Path, path: Path) -> None:
    """Rename a finished temporary file into place, readable like any file the user writes.

    ``tempfile.mkstemp`` creates files readable by their owner only; results are meant to be shared.
    """
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


#: The two entries of a chunk file that hold its arrays (``_pack_arrays``), and its other entries.
PACKED_LAYOUT = "layout"
PACKED_DATA = "data"
_CHUNK_META = ("fingerprint", "chunk_size", "chunk_index")
_ALIGN = 16


def _pack_arrays(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A chunk's arrays as two entries: their bytes one after the other (each at a multiple of 16),
    and a layout naming each one's dtype, shape and place (JSON)."""
    layout, parts, offset = [], [], 0
    for name, value in arrays.items():
        a = np.asarray(value)
        if a.dtype.hasobject:
            raise TypeError(f"write_chunk: {name!r} holds Python objects, which a chunk file does not store")
        pad = -offset % _ALIGN
        if pad:
            parts.append(np.zeros(pad, np.uint8))
            offset += pad
        layout.append([name, a.dtype.str, list(a.shape), offset])
        parts.append(np.ascontiguousarray(a).reshape(-1).view(np.uint8))
        offset += a.nbytes
    data = np.concatenate(parts) if parts else np.zeros(0, np.uint8)
    return {PACKED_LAYOUT: np.array(json.dumps(layout)), PACKED_DATA: data}


def _unpack_arrays(layout: np.ndarray, data: np.ndarray) -> dict[str, np.ndarray]:
    """The arrays ``_pack_arrays`` packed, each a copy of its own."""
    out = {}
    for name, dtype, shape, offset in json.loads(str(layout)):
        dtype = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        out[name] = np.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(shape).copy()
    return out


def _atomic_write_bytes(path: Path, write, durable: bool = True) -> None:
    """Write a file through ``write(fileobj)`` to a temporary name beside it, then rename it into place.

    ``durable`` also flushes it to the disk before the rename (``fsync``), so that it survives a
    power cut; without it the file still appears whole or not at all to any reader, a killed run
    included."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        _publish(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class ResultsDir:
    """A results folder for one experiment (see the module docstring for its layout)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    @property
    def chunks(self) -> Path:
        return self.path / CHUNKS_DIR

    def chunk_path(self, index: int) -> Path:
        return self.chunks / f"chunk-{index:08d}.npz"

    @property
    def grid_path(self) -> Path:
        return self.path / GRID_FILE

    @property
    def records_path(self) -> Path:
        return self.path / RECORDS_FILE

    # ---- manifest ---------------------------------------------------------------------------------
    def read_manifest(self) -> dict | None:
        try:
            return json.loads((self.path / MANIFEST_FILE).read_text())
        except FileNotFoundError:
            return None
        except json.JSONDecodeError as exc:
            raise ExperimentError(f"{self.path / MANIFEST_FILE}: not valid JSON: {exc}") from None

    def write_manifest(self, manifest: dict) -> None:
        text = json.dumps(manifest, indent=2, sort_keys=True).encode()
        _atomic_write_bytes(self.path / MANIFEST_FILE, lambda fh: fh.write(text))

    # ---- starting and resuming --------------------------------------------------------------------
    def prepare(self, experiment: Experiment, chunk_size: int, resume: bool) -> dict:
        """Create the folder, or check it on ``resume``; returns the manifest to run with.

        A fresh run clears the chunk files and outputs of an earlier run in the same folder. A resumed
        run keeps them, after checking that they come from the same experiment, court, package version
        and chunk layout.
        """
        self.path.mkdir(parents=True, exist_ok=True)
        old = self.read_manifest()
        if resume and old is not None:
            if old.get("fingerprint") != experiment.fingerprint:
                raise ExperimentError(
                    f"{self.path}: cannot resume: the results there come from a different experiment file, "
                    "court file or package version; run without --resume to start afresh"
                )
            if old.get("chunk_size") != chunk_size:
                raise ExperimentError(
                    f"{self.path}: cannot resume with chunk size {chunk_size}: the run there used "
                    f"{old.get('chunk_size')} (omit --chunk-size to reuse it)"
                )
            return old
        if not resume:
            self.clear()
        self.chunks.mkdir(exist_ok=True)
        (self.path / EXPERIMENT_FILE).write_text(experiment.text)
        (self.path / COURT_FILE).write_text(experiment.court_text)
        manifest = {
            "name": experiment.name,
            "title": experiment.title,
            "experiment_source": experiment.source_path,
            "package": "shuffle_sim",
            "package_version": __version__,
            "fingerprint": experiment.fingerprint,
            "seed": experiment.seed,
            "rng": RNG_DESCRIPTION,
            "samples": experiment.samples,
            "n_cells": experiment.n_cells,
            "n_shots": experiment.n_shots,
            "chunk_size": chunk_size,
            "n_chunks": experiment.n_chunks(chunk_size),
            "status": "running",
        }
        self.write_manifest(manifest)
        return manifest

    def clear(self) -> None:
        """Remove what an earlier run wrote here (chunk files, outputs, plots); nothing else."""
        if self.chunks.is_dir():
            shutil.rmtree(self.chunks)
        for name in (GRID_FILE, RECORDS_FILE, MANIFEST_FILE):
            (self.path / name).unlink(missing_ok=True)
        for png in self.path.glob("*.png"):
            png.unlink()

    # ---- chunks -----------------------------------------------------------------------------------
    def finished_chunks(self, fingerprint: str, chunk_size: int) -> set[int]:
        """Indices of the chunk files present and belonging to this experiment and layout."""
        done: set[int] = set()
        if not self.chunks.is_dir():
            return done
        for path in self.chunks.glob("chunk-*.npz"):
            try:
                index = int(path.stem.split("-")[1])
                with np.load(path) as data:
                    if str(data["fingerprint"]) != fingerprint or int(data["chunk_size"]) != chunk_size:
                        continue
                    for name in data.files:  # read every array: a damaged file fails its checksum here
                        data[name]
            except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile):
                continue  # not one of ours, or damaged: it will be computed again
            done.add(index)
        return done

    def write_chunk(self, index: int, arrays: dict[str, np.ndarray], fingerprint: str, chunk_size: int) -> None:
        """Write one finished chunk atomically.

        Not flushed to the disk one by one (``fsync`` cost more than computing a chunk): a chunk file
        lost or damaged by a power cut fails its checks on ``resume`` (``finished_chunks`` reads every
        array, and the zip format checksums each) and is computed again. The chunk's arrays go in
        as one packed entry (``_pack_arrays``): a zip entry each cost more than a quick chunk's
        computing, on a thread beside it."""
        payload = dict(
            _pack_arrays(arrays),
            fingerprint=np.array(fingerprint),
            chunk_size=np.array(chunk_size),
            chunk_index=np.array(index),
        )
        _atomic_write_bytes(self.chunk_path(index), lambda fh: np.savez(fh, **payload), durable=False)  # type: ignore[arg-type]  # numpy's stub takes any ** entry for allow_pickle

    def read_chunk(self, index: int) -> dict[str, np.ndarray]:
        """The arrays ``write_chunk`` wrote (also from a chunk file of an earlier version, one entry each)."""
        with np.load(self.chunk_path(index), allow_pickle=False) as data:
            if PACKED_LAYOUT in data.files:
                return _unpack_arrays(data[PACKED_LAYOUT], data[PACKED_DATA])
            return {k: data[k] for k in data.files if k not in _CHUNK_META}

    # ---- outputs ----------------------------------------------------------------------------------
    def write_grid(self, grid) -> Path:
        """Write the grid outcomes (a ``GridResults`` or an ``xarray.Dataset``) as netCDF, through a
        temporary file, then renamed."""
        fd, tmp = tempfile.mkstemp(prefix=".grid.", suffix=".nc", dir=self.path)
        os.close(fd)
        try:
            if hasattr(grid, "write_netcdf"):
                grid.write_netcdf(tmp)
            else:
                grid.to_netcdf(tmp, engine="h5netcdf")
            _publish(tmp, self.grid_path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return self.grid_path


def open_results(path: str | os.PathLike):
    """The grid outcomes of a results folder (or a ``grid.nc`` file) as an ``xarray.Dataset``, loaded."""
    import xarray as xr

    path = Path(path)
    grid = path / GRID_FILE if path.is_dir() else path
    if not grid.is_file():
        raise ExperimentError(f"{path}: no results here (expected {GRID_FILE}; did the run finish?)")
    with xr.open_dataset(grid, engine="h5netcdf") as ds:
        return ds.load()


def open_records(path: str | os.PathLike):
    """The per-shot records of a results folder as a ``pandas.DataFrame``."""
    import pandas as pd

    path = Path(path)
    records = path / RECORDS_FILE if path.is_dir() else path
    if not records.is_file():
        raise ExperimentError(f"{path}: no per-shot records here (set collect.records = true in the experiment)")
    return pd.read_parquet(records)
