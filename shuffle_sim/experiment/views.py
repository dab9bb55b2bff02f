"""What a plot of experiment results shows: a metric over one or two grid axes, the other axes selected
or averaged, or the difference between two values of an axis with its standard error.

Every outcome of ``grid.nc`` is an integer sum over a cell's finished shots divided by their number
(``experiment.runner.build_grid``), so the sums come back exactly as ``rint(metric * shots)``; a view
works on those sums, and reproduces the stored values bit for bit where it only selects:

* a **combined outcome** adds counts: ``p_value:20,15`` is (shots worth 20 + shots worth 15) / shots,
  as if it had been counted so (values of one shot exclude each other; board discs' removals do not,
  so ``p_removed`` takes one name);
* **averaging** an axis pools its cells: the sums over the shots of every averaged cell, over their
  number (the metric as if the averaged axes were drawn uniformly, each cell weighing its shots);
* a **difference** ``--diff AXIS=A,B`` is the view at ``AXIS = A`` minus the view at ``AXIS = B``.

Standard errors (of a difference; in a pooled view each cell is a stratum): a cell's variance comes
from its own counts, ``(sum of squares - sum^2 / n) / (n - 1)``, and a pooled mean's squared error is
``sum over cells of n_c var_c / (sum of n_c)^2``. For two values of an *unpaired* axis the two sides
are independent draws and their squared errors add, with each side's variance from its counts (the
value counts give an expected value's; a probability's is Bernoulli; the frame scores' second moments
are not kept, so their differences get no standard error without pairing). For two values of a
*paired* axis (``experiment.pairing``) the error is that of the per-draw difference, from the sums of
the differences and of their squares over the draws both of whose shots finished: the comparison
common random numbers make exact. Averaging over another paired axis would pool correlated cells,
and is refused for a paired difference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shuffle_sim.experiment._axis_display import read_value
from shuffle_sim.experiment.errors import ExperimentError

#: Metrics that are probabilities of a per-shot 0/1 quantity, and that quantity's name in the paired sums.
FLAG_METRICS = {"p_dead": "dead", "p_hanger": "hanger", "p_corner_hanger": "corner_hanger", "p_holed": "holed"}
#: Metrics whose paired differences are summed directly, by the name of their per-shot quantity.
SCORE_METRICS = {"expected_score": "score", "expected_opponent_score": "opponent_score", "expected_margin": "margin"}
#: The extra dimension of metrics that take a label.
LABELLED = {"p_value": "value", "p_removed": "board_disc"}


@dataclass(frozen=True)
class View:
    """A metric over the plotted axes ``dims`` (x, then y if any): ``values`` and, for a difference,
    ``stderr`` (None when the results cannot give it: ``stderr_note`` says why), shaped like the axes
    in that order. ``fixed`` holds the value each selected axis was taken at, ``averaged`` the axes
    pooled, ``diff`` the compared axis and its two values."""

    metric: str
    dims: tuple[str, ...]
    values: np.ndarray
    stderr: np.ndarray | None = None
    stderr_note: str = ""
    fixed: dict = field(default_factory=dict)
    averaged: tuple[str, ...] = ()
    diff: tuple[str, Any, Any] | None = None


# ---- metric names ------------------------------------------------------------------------------------


def parse_metric(ds, metric: str) -> tuple[str, str | None, list]:
    """``(name, extra dimension or None, labels)`` of a metric name of results ``ds`` (a ``GridResults``):
    ``p_value:10`` -> ("p_value", "value", [10]); ``p_value:20,15`` -> two labels; ``p_removed:NAME``
    -> one name. Raises ``ExperimentError`` naming what is wrong and what there is."""
    name, _, label = metric.partition(":")
    if name not in ds.data_vars or name.startswith("pair_"):
        known = [v for v in ds.data_vars if v not in ("shots", "failed") and not v.startswith("pair_")]
        raise ExperimentError(
            f"no metric {name!r} in these results (metrics: {', '.join(known)}; "
            "p_value and p_removed take a label, e.g. p_value:10, p_value:20,15)"
        )
    extra = [d for d in ds[name].dims if d in ("value", "board_disc")]
    if extra and not label:
        labels = ", ".join(f"{name}:{v}" for v in ds[extra[0]].values.tolist())
        raise ExperimentError(f"metric {name!r} needs a label: one of {labels}")
    if label and not extra:
        raise ExperimentError(f"metric {name!r} takes no ':' label (got {metric!r})")
    if not extra:
        return name, None, []
    dim = extra[0]
    present = ds[dim].values.tolist()
    keys: list[str | int]
    if dim == "board_disc":
        keys = [label]
    else:
        keys = []
        for part in label.split(","):
            try:
                keys.append(int(part))
            except ValueError:
                raise ExperimentError(
                    f"metric {metric!r}: the values after ':' must be integers separated by commas"
                ) from None
        if len(set(keys)) != len(keys):
            raise ExperimentError(f"metric {metric!r}: a value is named twice")
    for key in keys:
        if key not in present:
            shown = key if isinstance(key, str) else part_of(label, key)
            raise ExperimentError(f"metric {metric!r}: no {dim} {shown!r} (choose from {', '.join(map(str, present))})")
    return name, dim, keys


def part_of(label: str, key: int) -> str:
    """The text in ``label`` that named ``key`` (for messages)."""
    return next((p for p in label.split(",") if p.strip() and int(p) == key), str(key))


def metric_long_name(ds, metric: str) -> str:
    """The quantity's name and unit for a colour bar or an axis, e.g. 'probability the shot disc is worth 10'."""
    name, _dim, keys = parse_metric(ds, metric)
    attrs = ds[name].attrs
    text = attrs.get("long_name", name)
    if name == "p_value":
        worth = " or ".join(str(k) for k in keys)
        text = f"probability the shot disc is worth {worth}"
    elif name == "p_removed":
        text = f"probability that board disc '{keys[0]}' is removed"
    unit = attrs.get("units", "")
    return f"{text} ({unit})" if unit and unit != "1" else text


# ---- per-cell sums ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Sums:
    """A metric's per-cell sum, shot count and sum of squares (None when not kept), over ``dims``."""

    dims: tuple[str, ...]
    total: np.ndarray
    shots: np.ndarray
    squares: np.ndarray | None


def _counts(values: np.ndarray, shots: np.ndarray) -> np.ndarray:
    """The integer sums behind a stored metric (``metric = sum / shots``): exact, as float64."""
    with np.errstate(invalid="ignore"):
        return np.where(shots > 0, np.rint(np.nan_to_num(values) * shots), 0.0)


def metric_sums(ds, metric: str) -> _Sums:
    """A metric's per-cell sums over the grid axes (module docstring)."""
    name, dim, keys = parse_metric(ds, metric)
    shots_var = ds["shots"]
    dims = tuple(shots_var.dims)
    shots = np.asarray(shots_var.values, dtype=np.float64)
    var = ds[name]
    if dim is None:
        total = _counts(var.ordered(*dims), shots)
    else:
        present = ds[dim].values.tolist()
        data = var.ordered(*dims, dim)
        per = _counts(data, shots[..., None])
        chosen = [present.index(k) for k in keys]
        total = per[..., chosen].sum(axis=-1)
    if name in FLAG_METRICS or name in LABELLED:
        squares = total  # a 0/1 quantity is its own square
    elif name == "expected_value" and "p_value" in ds.data_vars:
        values = np.asarray(ds["value"].values, dtype=np.float64)
        squares = (_counts(ds["p_value"].ordered(*dims, "value"), shots[..., None]) * values**2).sum(axis=-1)
    else:
        squares = None
    return _Sums(dims, total, shots, squares)


# ---- choosing the cells ------------------------------------------------------------------------------


def _position(ds, dim: str, value) -> tuple[int, Any]:
    """The index on grid axis ``dim`` of ``value`` (nearest for numbers, read with their units as the
    experiment file reads them: ``_axis_display.read_value``) and the grid value there."""
    coord = np.asarray(ds[dim].values)
    if coord.dtype.kind in "fi":
        number = read_value(ds, dim, value)
        position = int(np.argmin(np.abs(coord - number)))
    else:
        names = coord.astype(str).tolist()
        if str(value) not in names:
            raise ExperimentError(f"no {dim} {value!r} in these results (choose from {', '.join(names)})")
        position = names.index(str(value))
    found = coord[position]
    return position, found.item() if hasattr(found, "item") else found


@dataclass(frozen=True)
class _Plan:
    """Where each grid axis goes: plotted (``keep``), taken at an index (``take``) or pooled (``pool``)."""

    keep: tuple[str, ...]
    take: dict
    pool: tuple[str, ...]

    def apply(self, dims: tuple[str, ...], arrays: list[np.ndarray], extra: int = 0) -> list[np.ndarray]:
        """Each of ``arrays`` (axes ``dims`` then ``extra`` trailing ones) taken and summed to the
        axes ``keep`` (in that order, among ``dims``), trailing ones kept."""
        out = []
        for a in arrays:
            names = list(dims)
            for dim, index in self.take.items():
                if dim in names:
                    a = np.take(a, index, axis=names.index(dim))
                    names.remove(dim)
            pooled = tuple(names.index(d) for d in self.pool if d in names)
            if pooled:
                a = a.sum(axis=pooled)
                names = [n for n in names if n not in self.pool]
            kept = [names.index(d) for d in self.keep if d in names]
            a = np.transpose(a, kept + list(range(len(names), len(names) + extra)))
            out.append(a)
        return out


def _pooled(plan: _Plan, s: _Sums) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Value and squared standard error of ``s`` pooled by ``plan`` (the error None without squares)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = None
        if s.squares is not None:
            # n_c var_c of each cell: its squared deviations, times n_c / (n_c - 1).
            deviations = np.maximum(s.squares - np.where(s.shots > 0, s.total**2 / s.shots, 0.0), 0.0)
            spread = np.where(s.shots > 1, deviations * s.shots / (s.shots - 1), np.nan)
        arrays = [s.total, s.shots] + ([spread] if spread is not None else [])
        pooled = plan.apply(s.dims, arrays)
        total, shots = pooled[0], pooled[1]
        value = total / shots
        error = pooled[2] / shots**2 if spread is not None else None
    return value, shots, error


def _paired_error(ds, metric: str, plan: _Plan, axis: str, a_index: int, b_index: int, keep_positions) -> np.ndarray:
    """Squared standard error of the paired difference between positions ``a_index`` and ``b_index`` of
    the paired ``axis``, per cell of the view, from the pair sums. ``keep_positions`` maps each view
    cell's paired-axis positions (plotted or fixed paired axes) -> the view's index."""
    name, _dim, keys = parse_metric(ds, metric)
    paired = ds.attrs["paired_axes"].split(",")
    pair_dims = [d for d in ds["pair_shots"].dims if d != "pair"]
    n = np.asarray(ds["pair_shots"].ordered(*pair_dims, "pair"), dtype=np.float64)
    if name in ("p_value", "expected_value"):
        joint = np.asarray(ds["pair_value_counts"].ordered(*pair_dims, "pair", "value_a", "value_b"), np.float64)
        values = np.asarray(ds["value"].values, dtype=np.float64)
        if name == "p_value":
            chosen = np.isin(ds["value"].values, keys).astype(np.float64)
            d = chosen[:, None] - chosen[None, :]
        else:
            d = values[:, None] - values[None, :]
        s1 = (joint * d).sum(axis=(-2, -1))
        s2 = (joint * d * d).sum(axis=(-2, -1))
    else:
        quantity = FLAG_METRICS.get(name) or SCORE_METRICS.get(name) or f"removed:{keys[0]}"
        labels = ds["pair_quantity"].values.astype(str).tolist()
        q = labels.index(quantity)
        s1 = np.asarray(ds["pair_diff_sum"].ordered(*pair_dims, "pair", "pair_quantity"), np.float64)[..., q]
        s2 = np.asarray(ds["pair_diff_sumsq"].ordered(*pair_dims, "pair", "pair_quantity"), np.float64)[..., q]
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = np.where(n > 1, np.maximum(s2 - np.where(n > 0, s1**2 / n, 0.0), 0.0) * n / (n - 1), np.nan)
    # The pair of each view cell: its two combinations of the paired axes' values.
    ends = {end: [ds[f"{p}_{end}"].values.astype(str).tolist() for p in paired] for end in ("a", "b")}
    coords = {p: np.asarray(ds[p].values).astype(str).tolist() for p in paired}
    pair_of = {}
    for k in range(n.shape[-1]):
        pair_of[
            tuple(ends["a"][i][k] for i in range(len(paired))), tuple(ends["b"][i][k] for i in range(len(paired)))
        ] = k
    unpaired_plan = _Plan(
        tuple(d for d in plan.keep if d in pair_dims),
        {d: i for d, i in plan.take.items() if d in pair_dims},
        tuple(d for d in plan.pool if d in pair_dims),
    )
    shape = tuple(len(ds[d].values) for d in plan.keep)
    out = np.full(shape, np.nan)
    for positions, index in keep_positions:
        combo_a = tuple(coords[p][a_index if p == axis else positions[p]] for p in paired)
        combo_b = tuple(coords[p][b_index if p == axis else positions[p]] for p in paired)
        pair = pair_of.get((combo_a, combo_b), pair_of.get((combo_b, combo_a)))
        assert pair is not None, "every cell of a paired view has its pair"
        pooled_n, pooled_spread = unpaired_plan.apply(tuple(pair_dims), [n[..., pair], spread[..., pair]])
        with np.errstate(invalid="ignore", divide="ignore"):
            error = pooled_spread / pooled_n**2
        # The view's cells along the plotted unpaired axes, at this combination of paired positions.
        target = tuple(slice(None) if d in unpaired_plan.keep else index[d] for d in plan.keep)
        out[target] = error
    return out


def build_view(
    ds,
    metric: str,
    x: str | None = None,
    y: str | None = None,
    select: dict | None = None,
    average=(),
    diff: tuple[str, Any, Any] | None = None,
) -> View:
    """The view of ``metric`` over grid axes ``x`` (and ``y``) of results ``ds`` (``GridResults``).

    ``select`` maps other axes to a value (nearest grid value for numbers), ``average`` names axes to
    pool, ``diff = (AXIS, A, B)`` asks for the view at ``AXIS = A`` minus at ``AXIS = B`` with its
    standard error. Axes given none of these are taken at their first value (named in ``fixed``).
    """
    grid_dims = tuple(ds["shots"].dims)
    if not grid_dims:
        raise ExperimentError(f"metric {metric!r} has no grid axis to plot over")
    select = dict(select or {})
    average = tuple(average or ())
    x = x or grid_dims[0]
    keep = (x,) if y is None else (x, y)
    roles = _axis_roles(grid_dims, keep, select, average, diff)
    take, fixed = _taken_positions(ds, grid_dims, roles, select)
    sums = metric_sums(ds, metric)
    if diff is None:
        value, _, _ = _pooled(_Plan(keep, take, average), sums)
        return View(metric, keep, value, fixed=fixed, averaged=average)
    return _difference_view(ds, metric, sums, keep, take, fixed, average, diff)


def _axis_roles(grid_dims: tuple, keep: tuple, select: dict, average: tuple, diff) -> dict[str, str]:
    """Each named axis's one role in a view (plotted, selected, averaged or compared); an axis that is
    not a grid axis, or named twice, raises ``ExperimentError`` naming it."""
    roles: dict[str, str] = {}
    for role, names in (
        ("plotted", keep),
        ("selected", tuple(select)),
        ("averaged", average),
        ("compared", (diff[0],) if diff else ()),
    ):
        for name in names:
            if name not in grid_dims:
                raise ExperimentError(f"{name!r} is not a grid axis of these results ({', '.join(grid_dims)})")
            if name in roles:
                raise ExperimentError(f"axis {name!r} is both {roles[name]} and {role}")
            roles[name] = role
    return roles


def _taken_positions(ds, grid_dims: tuple, roles: dict[str, str], select: dict) -> tuple[dict, dict]:
    """The grid position and value of each axis a view takes at one value: its ``select``ed value
    (nearest grid value), or its first when it has no role."""
    take, fixed = {}, {}
    for dim in grid_dims:
        if dim in roles and roles[dim] != "selected":
            continue
        position, value = (
            _position(ds, dim, select[dim]) if dim in select else (0, _position(ds, dim, ds[dim].values[0])[1])
        )
        take[dim] = position
        fixed[dim] = value
    return take, fixed


def _difference_view(ds, metric: str, sums, keep: tuple, take: dict, fixed: dict, average: tuple, diff) -> View:
    """The view at ``AXIS = A`` minus at ``AXIS = B`` (``diff``) with its standard error: from the pairs'
    own sums for a paired axis, else from the two views' errors, or a note saying why there is none."""
    axis, a, b = diff
    a_index, a_value = _position(ds, axis, a)
    b_index, b_value = _position(ds, axis, b)
    if a_index == b_index:
        raise ExperimentError(f"--diff {axis}: {a!r} and {b!r} are the same grid value ({a_value!r})")
    value_a, _, error_a = _pooled(_Plan(keep, dict(take, **{axis: a_index}), average), sums)
    value_b, _, error_b = _pooled(_Plan(keep, dict(take, **{axis: b_index}), average), sums)
    paired = [p for p in ds.attrs.get("paired_axes", "").split(",") if p]
    note = ""
    if axis in paired:
        pooled_paired = [p for p in average if p in paired]
        if pooled_paired:
            raise ExperimentError(
                f"--diff {axis}: cannot average over {', '.join(pooled_paired)}, which is paired "
                f"with {axis} (its cells share their random draws); select a value instead"
            )
        plan = _Plan(keep, take, average)
        plotted_paired = [p for p in keep if p in paired]
        sizes = [len(ds[p].values) for p in plotted_paired]
        keep_positions = []
        for combo in np.ndindex(*sizes) if sizes else [()]:
            positions = dict(zip(plotted_paired, combo))
            positions.update({p: take[p] for p in paired if p in take})
            index = {p: positions[p] for p in plotted_paired}
            keep_positions.append((positions, index))
        error = _paired_error(ds, metric, plan, axis, a_index, b_index, keep_positions)
    elif error_a is None or error_b is None:
        error = None
        note = (
            f"no standard error: the results keep no second moments of {metric.partition(':')[0]} "
            "(pair the axis, or collect p_value for an expected value)"
        )
    elif any(p in average for p in paired):
        error = None
        note = "no standard error: the averaged paired axes share their random draws"
    else:
        error = error_a + error_b
    with np.errstate(invalid="ignore"):
        stderr = None if error is None else np.sqrt(error)
    return View(metric, keep, value_a - value_b, stderr, note, fixed, average, (axis, a_value, b_value))


def parse_assignments(items, option: str) -> dict:
    """``["skill=expert", "spin=0"]`` -> {"skill": "expert", "spin": "0"}; a malformed item raises
    ``ExperimentError`` naming the option and the item."""
    out = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ExperimentError(f"{option}: expected AXIS=VALUE, got {item!r}")
        out[name.strip()] = value.strip()
    return out


def parse_diff(text: str | None) -> tuple[str, str, str] | None:
    """``"spin=20,0"`` -> ("spin", "20", "0"): the compared axis and its two values."""
    if text is None:
        return None
    name, sep, values = text.partition("=")
    parts = [v.strip() for v in values.split(",")]
    if not sep or not name.strip() or len(parts) != 2 or not all(parts):
        raise ExperimentError(f"--diff: expected AXIS=A,B (two values of one grid axis), got {text!r}")
    return name.strip(), parts[0], parts[1]


def describe_value(value) -> str:
    """A grid value as a plot's title shows it (numbers with up to 4 significant digits)."""
    if isinstance(value, float) and math.isfinite(value):
        return f"{value:.4g}"
    return str(value)
