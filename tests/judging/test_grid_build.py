"""The judge's per-batch data and grid built with NumPy are, bit for bit, the compiled kernels'."""

from __future__ import annotations

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.judging import grid_build
from shuffle_sim.judging.cell_grid import judge_index
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import judge_prepare

COURTS = [("deck", "foot"), ("deck", "head"), ("horse-collar", None), ("ricochet", None), ("crokinole", None)]


@pytest.mark.parametrize("name, end", COURTS)
@pytest.mark.parametrize("n_discs", [1, 64 * 16 - 1, 64 * 16, 65536, 3_000_000])
def test_numpy_grid_equals_the_compiled_one(name, end, n_discs):
    a = judge_arrays(load_court(name, end=end))
    prepared = grid_build.prepare(a)
    for mine, theirs in zip(prepared, judge_prepare(a)):
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
    mine = grid_build.index(a, prepared, n_discs)
    theirs = judge_index(a, judge_prepare(a), n_discs)
    assert mine[:5] == tuple(theirs[:5])
    assert mine[5].dtype == theirs[5].dtype and mine[5].shape == theirs[5].shape
    np.testing.assert_array_equal(mine[5], theirs[5])


def test_a_court_with_many_zones_and_a_circular_surface_and_slanted_lines(tmp_path):
    """More than 64 zones (every cell then tests all zones) and slanted polygon outlines."""
    zones = "\n".join(
        f'[[zones]]\nname = "z{k}"\nvalue = {k % 5}\n'
        f"annulus = {{ centre = [0, 0], inner = {0.004 * k}, outer = {0.004 * (k + 1)} }}"
        for k in range(70)
    )
    text = f"""
name = "rings"
game = "custom"
[frame]
origin = "centre"
x = "right"
y = "up"
[disc]
diameter = "1 in"
mass = "5 g"
[materials]
mu = 0.1
[surface]
circle = {{ centre = [0, 0], radius = 0.3 }}
[[edges]]
name = "rim"
circle = {{ centre = [0, 0], radius = 0.3 }}
overhang = "end"
[hangers]
end = 9
[[lines]]
name = "slant"
from = [-0.2, -0.1]
to = [0.17, 0.23]
width = 0.003
[[holes]]
name = "hole"
at = [0.01, -0.02]
diameter = 0.02
value = 20
{zones}
"""
    path = tmp_path / "rings.toml"
    path.write_text(text)
    a = judge_arrays(load_court(str(path)))
    prepared = grid_build.prepare(a)
    mine = grid_build.index(a, prepared, 200_000)
    theirs = judge_index(a, judge_prepare(a), 200_000)
    assert mine[:5] == tuple(theirs[:5])
    np.testing.assert_array_equal(mine[5], theirs[5])
