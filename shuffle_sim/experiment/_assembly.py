"""Assembling a run's results: the chunks' sums added per grid cell, the grid outcomes (``grid.nc``)
and the per-shot records (``shots.parquet``).

Chunks reduce their shots to integer sums per grid cell (shots, value sum, value counts, dead,
hangers, ...); integer sums add up exactly in any order, so the assembled results are bit-identical
whatever the chunk size, the worker count or the scheduler.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

from shuffle_sim._version import __version__
from shuffle_sim.experiment._chunks import CELL_SUMS
from shuffle_sim.experiment._court_axes import speed_mu
from shuffle_sim.experiment._grid_file import GridResults, GridVariable
from shuffle_sim.experiment.spec import LONG_NAMES, OUTCOMES, Experiment, possible_values
from shuffle_sim.experiment.store import RNG_DESCRIPTION, ResultsDir


def empty_sums(experiment: Experiment) -> dict[str, np.ndarray]:
    cells = experiment.n_cells
    n_values = len(possible_values(experiment.court))
    n_board = len(experiment.board_names)
    sums = {k: np.zeros(cells, dtype=np.int64) for k in CELL_SUMS}
    sums["value_counts"] = np.zeros((cells, n_values), dtype=np.int64)
    sums["removed"] = np.zeros((cells, n_board), dtype=np.int64)
    if experiment.paired:
        from shuffle_sim.experiment.pairing import empty_pair_sums

        sums.update(empty_pair_sums(experiment, n_values))
    return sums


def add_chunk(sums: dict[str, np.ndarray], data: dict[str, np.ndarray]) -> None:
    """Add one chunk's per-cell sums into the experiment's (integer sums: exact in any order)."""
    if "cells" in data:  # a paired experiment's chunk: its cells, and its draws' unpaired cells
        for name in [*list(CELL_SUMS), "value_counts", "removed"]:
            if name in data:
                sums[name][data["cells"]] += data[name]
        for name in ("pair_shots", "pair_diff_sum", "pair_diff_sumsq", "pair_value_counts"):
            sums[name][data["pair_cells"]] += data[name]
        return
    c0 = int(data["cell_start"])
    for name in [*list(CELL_SUMS), "value_counts", "removed"]:
        if name in data:
            part = data[name]
            sums[name][c0 : c0 + len(part)] += part


def build_dataset(experiment: Experiment, sums: dict[str, np.ndarray]):
    """The grid outcomes as an ``xarray.Dataset`` (dims: the grid axes; plus value, board_disc)."""
    return build_grid(experiment, sums).to_xarray()


def build_grid(experiment: Experiment, sums: dict[str, np.ndarray]) -> GridResults:
    """The grid outcomes (dims: the grid axes; plus value, board_disc), as ``grid.nc`` holds them."""
    values = possible_values(experiment.court)
    coords = _coordinates(experiment, values)
    data_vars = {
        k: GridVariable(tuple(d), np.asarray(v), a)
        for k, (d, v, a) in _outcome_variables(experiment, sums, values).items()
    }
    attrs = _attributes(experiment)
    if experiment.paired:
        from shuffle_sim.experiment.pairing import paired_variables

        paired_variables(experiment, sums, values, coords, data_vars, attrs)
    return GridResults(coords, data_vars, attrs)


def _coordinates(experiment: Experiment, values: np.ndarray) -> dict[str, GridVariable]:
    """The grid's axes (with a court-speed axis's mu beside it), the values a disc can take, and the
    board's discs."""
    coords = {}
    for axis in experiment.axes:
        axis_values = axis.values.astype(str) if axis.name == "skill" else axis.values
        attrs = {"long_name": LONG_NAMES[axis.name]}
        if axis.unit:
            attrs["units"] = axis.unit
        if axis.written_unit:
            attrs["display_units"] = axis.written_unit  # plots show the values in it
        coords[axis.name] = GridVariable((axis.name,), np.asarray(axis_values), attrs)
    for axis in experiment.axes:
        if axis.name == "court_speed":
            coords["court_mu"] = GridVariable(
                ("court_speed",),
                np.array([speed_mu(experiment.court, t) for t in axis.values]),
                {"long_name": "sliding friction mu of the court speed", "units": "1"},
            )
    coords["value"] = GridVariable(
        ("value",), values, {"long_name": "judged value of the shot disc", "units": "points"}
    )
    if experiment.board_names:
        board = experiment.board
        assert board is not None, "board names come with a board"
        coords["board_disc"] = GridVariable(
            ("board_disc",), np.array(experiment.board_names, dtype=str), {"long_name": "resting disc of the board"}
        )
        coords["board_team"] = GridVariable(
            ("board_disc",), np.array(board.team, dtype=str), {"long_name": "team of the resting disc"}
        )
        coords["board_x"] = GridVariable(
            ("board_disc",), np.asarray(board.x, dtype=np.float64), {"long_name": "board disc x", "units": "m"}
        )
        coords["board_y"] = GridVariable(
            ("board_disc",), np.asarray(board.y, dtype=np.float64), {"long_name": "board disc y", "units": "m"}
        )
    return coords


def _outcome_variables(experiment: Experiment, sums: dict[str, np.ndarray], values: np.ndarray) -> dict:
    """name -> (dims, values, attributes) of the shot counts and of every outcome collected."""
    dims = [a.name for a in experiment.axes]
    shape = experiment.grid_shape
    shots = sums["shots"].reshape(shape)
    with np.errstate(invalid="ignore", divide="ignore"):

        def mean(name):
            return sums[name].reshape(shape) / shots

        def per(name, extra):
            return sums[name].reshape((*shape, extra)) / shots[..., None]

        variables = {
            "shots": (dims, shots, {"long_name": "shots judged", "units": "1"}),
            "failed": (
                dims,
                sums["failed"].reshape(shape),
                {
                    "long_name": "shots not played (sampled start off the surface or on a disc) or not "
                    "finished within the event bound (excluded)",
                    "units": "1",
                },
            ),
        }
        makers = {
            "expected_value": lambda: mean("value_sum"),
            "p_value": lambda: per("value_counts", len(values)),
            "p_dead": lambda: mean("dead"),
            "p_hanger": lambda: mean("hanger"),
            "p_corner_hanger": lambda: mean("corner_hanger"),
            "p_holed": lambda: mean("holed"),
            "expected_score": lambda: mean("score_sum"),
            "expected_opponent_score": lambda: mean("opponent_sum"),
            "expected_margin": lambda: (sums["score_sum"] - sums["opponent_sum"]).reshape(shape) / shots,
            "p_removed": lambda: per("removed", len(experiment.board_names)),
        }
        for name in experiment.outcomes:
            extra = ["value"] if name == "p_value" else ["board_disc"] if name == "p_removed" else []
            unit = "points" if name.startswith("expected") else "1"
            variables[name] = (dims + extra, makers[name](), {"long_name": OUTCOMES[name][1], "units": unit})
    return variables


def _attributes(experiment: Experiment) -> dict:
    """The provenance ``grid.nc`` carries: the experiment and court files, the shot, the noise, the
    random generator, the package's version and the plots asked for."""
    shot = experiment.shot
    return {
        "title": experiment.title,
        "experiment_name": experiment.name,
        "experiment": experiment.text,
        "court_name": experiment.court.name,
        "court_file": experiment.court_text,
        "court_end": experiment.court.end,
        "game": experiment.court.game,
        "shooter_team": experiment.team,
        "shot_start_x": shot["start_x"],
        "shot_start_y": shot["start_y"],
        "shot_target": "none" if shot["target_x"] is None else f"{shot['target_x']!r} {shot['target_y']!r}",
        "disc_radius": experiment.court.disc_radius,
        "mu": experiment.court.params["mu"],
        "mu_speed": experiment.court.params["mu_speed"],
        "gravity": experiment.court.params["gravity"],
        "package": "shuffle_sim",
        "package_version": __version__,
        "seed": str(experiment.seed),
        "rng": RNG_DESCRIPTION,
        "samples_per_cell": experiment.samples,
        "n_shots": experiment.n_shots,
        "noise": "; ".join(
            f"{m.name}: speed sd {m.speed:g} (relative)"
            + (f" and {m.speed_floor:g} m/s (absolute)" if m.speed_floor else "")
            + f", direction sd {math.degrees(m.direction):g} deg, spin sd {m.spin:g} rad/s, start sd {m.start:g} m"
            for m in experiment.skill_models()
        ),
        "fingerprint": experiment.fingerprint,
        "plots": json.dumps([{k: v for k, v in vars(p).items() if v not in (None, {})} for p in experiment.plots]),
    }


def write_records(experiment: Experiment, results: ResultsDir, n_chunks: int) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = results.path / f".{results.records_path.name}.tmp"
    writer = None
    try:
        for k in range(n_chunks):
            data = results.read_chunk(k)
            columns = {name[len("record_") :]: data[name] for name in sorted(data) if name.startswith("record_")}
            cell = columns["shot"] // experiment.samples
            if experiment.paired:
                from shuffle_sim.experiment.pairing import shot_cells

                cell = shot_cells(experiment, int(columns["shot"][0]), int(columns["shot"][-1]) + 1)[0]
            table = {"shot": columns.pop("shot"), "cell": cell}
            if experiment.axes:
                for axis, idx in zip(experiment.axes, np.unravel_index(cell, experiment.grid_shape)):
                    table[f"grid_{axis.name}"] = (
                        axis.values.astype(str)[idx] if axis.name == "skill" else axis.values[idx]
                    )
            table.update(columns)
            batch = pa.table(table)
            if writer is None:
                metadata = {
                    b"experiment": experiment.text.encode(),
                    b"package_version": __version__.encode(),
                    b"seed": str(experiment.seed).encode(),
                    b"rng": RNG_DESCRIPTION.encode(),
                }
                writer = pq.ParquetWriter(tmp, batch.schema.with_metadata(metadata))
            writer.write_table(batch)
        if writer is not None:
            writer.close()
            writer = None
            os.replace(tmp, results.records_path)
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
    return results.records_path
