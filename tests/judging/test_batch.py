"""The batch judge: same answers as one disc at a time, whatever the threads, chunks or grid."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from shuffle_sim import judge, judge_batch, load_court
from shuffle_sim.judging.cell_grid import GRID_DISCS_PER_CELL, judge_grid
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import MIXED, NO_ZONE, judge_one, judge_one_prepared, judge_prepare

COURT_ENDS = [("deck", "foot"), ("deck", "head"), ("horse-collar", None), ("ricochet", None), ("crokinole", None)]
FIELDS = ("value", "zone", "touching", "dead", "hanger", "fallen", "holed")


def court_params():
    return [pytest.param(load_court(n, end=e), id=f"{n}-{e or 'default'}") for n, e in COURT_ENDS]


def random_points(court, n, seed):
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = court.bounds
    pad = 2 * court.disc_radius
    return rng.uniform(x0 - pad, x1 + pad, n), rng.uniform(y0 - pad, y1 + pad, n)


def one_by_one(court, xs, ys):
    a = judge_arrays(court)
    rows = [judge_one(x, y, a) for x, y in zip(xs, ys)]
    return {f: np.array([row[k] for row in rows]) for k, f in enumerate(FIELDS)}


def cell_edge_points(court, n_discs, count, seed):
    """Centres on the lines and corners of the grid a batch of ``n_discs`` gets, and a hair off them."""
    a = judge_arrays(court)
    x0, y0, size, nx, ny, _ = judge_grid(a, judge_prepare(a), n_discs // GRID_DISCS_PER_CELL)
    assert nx > 0 and ny > 0
    rng = np.random.default_rng(seed)
    i = rng.integers(0, nx + 1, count)
    j = rng.integers(0, ny + 1, count)
    wobble = rng.choice([0.0, 1e-12, -1e-12, 1e-9, -1e-9], (2, count))
    along_x = rng.uniform(0, 1, count) < 0.5
    xs = x0 + i * size + wobble[0] + np.where(along_x, 0.0, rng.uniform(0, size, count))
    ys = y0 + j * size + wobble[1] + np.where(along_x, rng.uniform(0, size, count), 0.0)
    return xs, ys


@pytest.mark.parametrize("court", court_params())
def test_batch_equals_one_disc_at_a_time(court):
    xs, ys = random_points(court, 12000, seed=1)
    ex, ey = cell_edge_points(court, 24000, 12000, seed=2)
    xs, ys = np.concatenate([xs, ex]), np.concatenate([ys, ey])
    batch = judge_batch(court, xs, ys)
    single = one_by_one(court, xs, ys)
    for f in FIELDS:
        assert np.array_equal(getattr(batch, f), single[f]), f
    # The grid was in use and both kinds of cell were met.
    a = judge_arrays(court)
    codes = judge_grid(a, judge_prepare(a), len(xs) // GRID_DISCS_PER_CELL)[5]
    assert (codes == MIXED).any() and (codes != MIXED).any()


@pytest.mark.parametrize("court", court_params())
def test_plain_cells_are_plain(court):
    # Every plain cell: its corners (grown by the margin) and centre judge alike, touching nothing.
    a = judge_arrays(court)
    prepared = judge_prepare(a)
    x0, y0, size, nx, _ny, codes = judge_grid(a, prepared, 4096)
    rng = np.random.default_rng(3)
    plain = np.flatnonzero(codes != MIXED)
    for k in rng.choice(plain, min(400, plain.size), replace=False):
        j, i = divmod(int(k), nx)
        code = codes[k]
        for fx, fy in [(0, 0), (1, 0), (0, 1), (1, 1), (0.5, 0.5), (rng.uniform(), rng.uniform())]:
            x = x0 + (i + fx) * size
            y = y0 + (j + fy) * size
            value, zone, touching, dead, hanger, fallen, holed = judge_one_prepared(x, y, a, prepared)
            assert zone == code and touching == 0 and hanger == 0 and not fallen and not holed
            if code != NO_ZONE:
                assert dead == court.zones[code].dead
                assert value == (0 if dead else court.zones[code].value)
            else:
                assert value == 0 and not dead


@pytest.mark.parametrize("court", court_params())
def test_same_results_on_any_thread_count_and_chunking(court):
    xs, ys = random_points(court, 200000, seed=4)
    previous = numba.get_num_threads()
    try:
        runs = []
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            runs.append(judge_batch(court, xs, ys))
    finally:
        numba.set_num_threads(previous)
    # Chunks of different sizes get different grids (or none): same answers.
    chunks = [judge_batch(court, xs[s:e], ys[s:e]) for s, e in [(0, 7), (7, 5000), (5000, 200000)]]
    for f in FIELDS:
        reference = getattr(runs[0], f)
        for run in runs[1:]:
            assert np.array_equal(getattr(run, f), reference), f
        assert np.array_equal(np.concatenate([getattr(c, f) for c in chunks]), reference), f


def test_empty_and_scalar_batches():
    court = load_court("deck")
    empty = judge_batch(court, [], [])
    assert len(empty) == 0 and empty.records() == []
    assert judge_batch(court, 0.0, 11.3).records() == [judge(court, 0.0, 11.3)]


@pytest.mark.parametrize(
    "xs, ys, message",
    [
        ([0.0, float("nan")], [1.0, 2.0], r"x\[1\] must be a finite coordinate"),
        ([0.0], [float("inf")], r"y\[0\] must be a finite coordinate"),
        ([0.0, 1.0], [1.0], "same length"),
    ],
)
def test_bad_coordinates_are_named(xs, ys, message):
    with pytest.raises(ValueError, match=message):
        judge_batch(load_court("deck"), xs, ys)


def test_records_name_zones_lines_and_holes():
    board = load_court("crokinole")
    holed = judge(board, 0.0, 0.0)
    assert holed == {"x": 0.0, "y": 0.0, "value": 20, "zone": "20", "touching": [], "dead": False, "hanger": None}
    result = judge_batch(board, [0.0], [4 * 0.0254])
    assert result.zone_name(0) in ("15", "10") and result.touching_names(0) == ["15 line"]
    assert result.holed.dtype == bool and result.touching.dtype == np.uint64
