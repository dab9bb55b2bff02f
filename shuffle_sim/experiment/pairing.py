"""Paired axes: compared values of a grid axis that replay the same random executions.

An experiment that lists grid axes in ``paired`` (``paired = ["spin"]``) compares their values with
common random numbers: every combination of the paired axes' values plays the same random draws
(execution noise and parameter distributions), so a difference between two of them is the effect of
the change alone, not of different luck. That is what makes "spin against no spin" a clean map.

Random draws are a pure function of (seed, counter) (``shuffle_sim.noise``). Without pairing the
counter of shot ``i`` is ``i`` itself, shot ``i`` being sample ``i % samples`` of grid cell
``i // samples``. With pairing the counter is the shot's *draw index*,
``unpaired cell * samples + sample``, where the unpaired cell numbers the combinations of the other
(unpaired) axes in C order, as a grid of those axes alone would. So the draws of any one combination
of the paired values are bit for bit those of a separate run with the same seed, the unpaired axes
as its grid and the paired values as its nominal shot (a test checks this over 100,000 shots a cell).

Layout: the paired combinations of one draw are neighbours, ``shot = draw * pair_count + combination``
(combinations in C order over the paired axes), and a chunk holds whole draws
(``Experiment.aligned_chunk_size``). So each chunk adds, besides the per-cell sums of any experiment,
the sums that the standard error of a paired difference needs (the per-draw difference's variance):
for each unpaired cell and each pair (a, b) of combinations, over the draws both of which finished,

* ``pair_shots``: how many such draws;
* ``pair_diff_sum`` and ``pair_diff_sumsq``: the sum of ``q_a - q_b`` and of its square for each
  per-shot quantity ``q`` of ``PAIR_QUANTITIES`` (the judged value, the 0/1 flags dead, hanger,
  corner hanger and holed, and with a board the frame scores and each board disc's removal);
* ``pair_value_counts``: the joint counts of the two shots' judged values, from which the
  difference of any combined outcome (``p_value:20,15``) follows exactly.

All are integer sums, exact in any order, like the rest (``experiment.runner``). Paired experiments
take the general chunk path (``simulate_shots``; the fused lone-shot kernel serves unpaired ones).
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim.experiment._cell_sums import reduced_sums
from shuffle_sim.experiment._chunk_kernels import STATUS_FALLEN, STATUS_HOLED, put_shot, reduce_rows

#: Per-shot quantities whose paired differences are summed (board ones only with a board).
PAIR_QUANTITIES = ("value", "dead", "hanger", "corner_hanger", "holed")
BOARD_PAIR_QUANTITIES = ("score", "opponent_score", "margin")

RNG_PAIRED = (
    "Philox4x64-10 (as numpy.random.Philox), key = seed, counter = (draw index, stream, block, 0); "
    "stream 0: execution noise (normals: speed, direction, spin, start x, start y), "
    "stream 1: parameter distributions; draw index = unpaired cell index * samples + sample (the cell "
    "of the unpaired axes alone, in C order); shot index = draw index * pair count + combination of the "
    "paired axes' values (C order): every combination replays the draw's random numbers"
)


def pair_quantities(experiment) -> tuple[str, ...]:
    """The names of the per-shot quantities whose paired differences an experiment's runs sum."""
    if experiment.board is None:
        return PAIR_QUANTITIES
    return PAIR_QUANTITIES + BOARD_PAIR_QUANTITIES + tuple(f"removed:{n}" for n in experiment.board_names)


def pairs(experiment) -> tuple[np.ndarray, np.ndarray]:
    """The compared pairs (a, b), a < b, of combinations of the paired axes' values (C order)."""
    both = list(itertools.combinations(range(experiment.pair_count), 2))
    return (np.array([a for a, _ in both], dtype=np.int64), np.array([b for _, b in both], dtype=np.int64))


def _split_shape(experiment) -> tuple[list[int], list[int]]:
    unpaired = [a.size for a in experiment.axes if a.name not in experiment.paired]
    paired = [a.size for a in experiment.axes if a.name in experiment.paired]
    return unpaired, paired


def unpaired_cells(experiment) -> int:
    """How many cells the unpaired axes alone make (1 when every axis is paired)."""
    return int(np.prod(_split_shape(experiment)[0], dtype=np.int64))


def combination_values(experiment, combination: int) -> dict:
    """The paired axes' values of one combination (its index in C order over the paired axes)."""
    paired = [a for a in experiment.axes if a.name in experiment.paired]
    index = np.unravel_index(combination, [a.size for a in paired])
    return {a.name: a.values[int(i)] for a, i in zip(paired, index)}


def shot_cells(experiment, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For shots ``start .. stop - 1`` of a paired experiment: each one's grid cell (C order over all
    axes), draw index (its random counter) and unpaired cell (module docstring), as int64 arrays."""
    shots = np.arange(start, stop, dtype=np.int64)
    count = experiment.pair_count
    draws = shots // count
    combination = shots % count
    ucells = draws // experiment.samples
    unpaired_shape, paired_shape = _split_shape(experiment)
    unpaired_index = iter(np.unravel_index(ucells, unpaired_shape)) if unpaired_shape else iter(())
    paired_index = iter(np.unravel_index(combination, paired_shape))
    index = [next(paired_index) if a.name in experiment.paired else next(unpaired_index) for a in experiment.axes]
    cells = np.ravel_multi_index(index, experiment.grid_shape).astype(np.int64)
    return cells, draws, ucells


@jit.parallel
def build_drawn_shots(cells, draws, grid, variation, with_noise, outs):
    """``_chunk_kernels.build_shots`` with each shot's grid cell and random counter given
    (``shot_cells``): shot ``i`` is the intended shot of cell ``cells[i]`` played with the draws of
    ``draws[i]``."""
    for i in prange(cells.shape[0]):
        put_shot(np.int64(i), np.uint64(cells[i]), np.uint64(draws[i]), grid, variation, with_noise, outs)


@jit.kernel
def add_pair_sums(
    count, draw_row, ok, slot, quantities, pair_a, pair_b, pair_shots, diff_sum, diff_sumsq, value_counts
):
    """Add the paired differences of a chunk's draws into the rows ``draw_row`` (one per draw) of the
    sums: shots ``d * count .. d * count + count - 1`` are the combinations of draw ``d``; ``slot``
    is each shot's judged value's place among the court's values, ``quantities`` (shots x Q) its
    per-shot quantities. A pair counts when both its shots finished (``ok``)."""
    for d in range(draw_row.shape[0]):
        r = draw_row[d]
        base = d * count
        for k in range(pair_a.shape[0]):
            a = base + pair_a[k]
            b = base + pair_b[k]
            if not (ok[a] and ok[b]):
                continue
            pair_shots[r, k] += 1
            value_counts[r, k, slot[a], slot[b]] += 1
            for q in range(quantities.shape[1]):
                diff = quantities[a, q] - quantities[b, q]
                diff_sum[r, k, q] += diff
                diff_sumsq[r, k, q] += diff * diff


def empty_pair_sums(experiment, n_values: int, rows: int | None = None) -> dict[str, np.ndarray]:
    """Zero paired sums for ``rows`` unpaired cells (default: all of the experiment's)."""
    rows = unpaired_cells(experiment) if rows is None else rows
    n_pairs = len(pairs(experiment)[0])
    q = len(pair_quantities(experiment))
    return {
        "pair_shots": np.zeros((rows, n_pairs), np.int64),
        "pair_diff_sum": np.zeros((rows, n_pairs, q), np.int64),
        "pair_diff_sumsq": np.zeros((rows, n_pairs, q), np.int64),
        "pair_value_counts": np.zeros((rows, n_pairs, n_values, n_values), np.int64),
    }


def shot_quantities(experiment, batch, shooter: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each shot's value slot among ``values`` and its per-shot quantities (``pair_quantities``), from
    a chunk's ``ShotBatch`` (the shot disc last), as ``reduce_chunk`` counts them."""
    value = batch.value.astype(np.int64)
    shot_value = value[:, -1]
    status = batch.status[:, -1]
    columns = [
        shot_value,
        np.asarray(batch.dead[:, -1], bool) | (status == STATUS_FALLEN),
        batch.hanger[:, -1] > 0,
        batch.hanger[:, -1] == 2,
        status == STATUS_HOLED,
    ]
    if experiment.board is not None:
        score = value[:, shooter].sum(axis=1)
        opponent = value[:, ~shooter].sum(axis=1)
        columns += [score, opponent, score - opponent]
        removed = np.asarray(batch.dead[:, :-1], bool) | (batch.status[:, :-1] == STATUS_FALLEN)
        columns += list(removed.T)
    quantities = np.ascontiguousarray(np.stack([np.asarray(c, dtype=np.int64) for c in columns], axis=1))
    slot = np.clip(np.searchsorted(values, shot_value), 0, len(values) - 1).astype(np.int64)
    return slot, quantities


def paired_chunk_sums(
    experiment,
    start: int,
    stop: int,
    batch,
    values: np.ndarray,
    shooter: np.ndarray,
    cells: np.ndarray,
    ucells: np.ndarray,
) -> dict[str, np.ndarray]:
    """The sums of a paired experiment's chunk (shots ``start .. stop - 1``, whole draws): per grid
    cell present (``cells``: each shot's) the sums of ``_chunks.compute_chunk`` and their cells as
    ``cells``, and per unpaired cell present (``pair_cells``) the paired sums; a judged value outside
    ``values`` raises ``RuntimeError`` naming the shot."""
    count = experiment.pair_count
    if start % count or (stop - start) % count:
        raise ValueError(
            f"a chunk of a paired experiment must hold whole draws of {count} shots (got shots {start} to {stop - 1})"
        )
    present, rows = np.unique(cells, return_inverse=True)
    rows = rows.astype(np.int64)

    def reduce(*args):
        return reduce_rows(rows, *args)

    out = reduced_sums(experiment, start, batch, values, shooter, len(present), reduce)
    out["cells"] = present.astype(np.int64)
    out.update(_pair_sums(experiment, batch, values, shooter, ucells))
    return out


def _pair_sums(experiment, batch, values: np.ndarray, shooter: np.ndarray, ucells: np.ndarray) -> dict[str, np.ndarray]:
    """Per unpaired cell present (``ucells``: each shot's; one per draw counts) the paired sums, and the
    cells as ``pair_cells``."""
    count = experiment.pair_count
    draw_ucells = ucells[::count]
    pair_cells, draw_row = np.unique(draw_ucells, return_inverse=True)
    sums = empty_pair_sums(experiment, len(values), len(pair_cells))
    slot, quantities = shot_quantities(experiment, batch, shooter, values)
    pair_a, pair_b = pairs(experiment)
    add_pair_sums(
        count,
        draw_row.astype(np.int64),
        np.asarray(batch.ok, dtype=np.bool_),
        slot,
        quantities,
        pair_a,
        pair_b,
        sums["pair_shots"],
        sums["pair_diff_sum"],
        sums["pair_diff_sumsq"],
        sums["pair_value_counts"],
    )
    sums["pair_cells"] = pair_cells.astype(np.int64)
    return sums


def paired_variables(experiment, sums: dict, values: np.ndarray, coords: dict, data_vars: dict, attrs: dict) -> None:
    """Add a paired experiment's sums to its grid outcomes (``runner.build_grid``): the variables of the
    module docstring over the unpaired axes and ``pair``, each pair's two values of every paired axis
    as coordinates ``AXIS_a`` and ``AXIS_b``, and the attributes ``paired_axes`` and ``rng``."""
    from shuffle_sim.experiment._grid_file import GridVariable

    unpaired = [a for a in experiment.axes if a.name not in experiment.paired]
    dims = tuple(a.name for a in unpaired)
    shape = tuple(a.size for a in unpaired)
    pair_a, pair_b = pairs(experiment)
    for axis in experiment.axes:
        if axis.name in experiment.paired:
            for end, combos in (("a", pair_a), ("b", pair_b)):
                picked = np.array(
                    [combination_values(experiment, int(c))[axis.name] for c in combos],
                    dtype=str if axis.name == "skill" else np.float64,
                )
                attrs_axis = dict(coords[axis.name].attrs)
                attrs_axis["long_name"] = (
                    f"{attrs_axis.get('long_name', axis.name)}, {'first' if end == 'a' else 'second'} of the pair"
                )
                coords[f"{axis.name}_{end}"] = GridVariable(("pair",), picked, attrs_axis)
    quantities = pair_quantities(experiment)
    coords["pair_quantity"] = GridVariable(
        ("pair_quantity",),
        np.array(quantities, dtype=str),
        {"long_name": "per-shot quantity whose paired differences are summed"},
    )
    for end in ("a", "b"):
        coords[f"value_{end}"] = GridVariable(
            (f"value_{end}",),
            values,
            {
                "long_name": f"judged value of the {'first' if end == 'a' else 'second'} shot of the pair",
                "units": "points",
            },
        )
    n_pairs = len(pair_a)
    n_q = len(quantities)
    n_v = len(values)
    data_vars["pair_shots"] = GridVariable(
        (*dims, "pair"),
        sums["pair_shots"].reshape((*shape, n_pairs)),
        {"long_name": "paired draws both of whose shots finished", "units": "1"},
    )
    data_vars["pair_diff_sum"] = GridVariable(
        (*dims, "pair", "pair_quantity"),
        sums["pair_diff_sum"].reshape((*shape, n_pairs, n_q)),
        {"long_name": "sum over paired draws of (first shot's quantity - second's)"},
    )
    data_vars["pair_diff_sumsq"] = GridVariable(
        (*dims, "pair", "pair_quantity"),
        sums["pair_diff_sumsq"].reshape((*shape, n_pairs, n_q)),
        {"long_name": "sum over paired draws of (first shot's quantity - second's) squared"},
    )
    data_vars["pair_value_counts"] = GridVariable(
        (*dims, "pair", "value_a", "value_b"),
        sums["pair_value_counts"].reshape((*shape, n_pairs, n_v, n_v)),
        {"long_name": "paired draws by the judged values of their two shots", "units": "1"},
    )
    attrs["paired_axes"] = ",".join(experiment.paired)
    attrs["rng"] = RNG_PAIRED
