"""The judge's grid cells: a cell may only skip what cannot matter anywhere in it.

A large batch is judged on a fine grid whose cells say which lines, zones, holes and edges their
discs can meet (``judge.judge_cells``); a batch of fewer than ``GRID_MIN_CELLS * GRID_DISCS_PER_CELL``
discs gets no grid and every disc takes the full procedure. The same centres judged both ways must
agree in every field. The centres crowd where the masks matter: tangent to every line and a hair
either side of tangency, on and near the lines' ends, the zones' corners and the edges.
"""

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.court.geometry import TOUCH_TOLERANCE
from shuffle_sim.judging import judge_batch
from shuffle_sim.judging.cell_grid import GRID_DISCS_PER_CELL, GRID_MAX_CELLS, GRID_MIN_CELLS, _cell_entry, judge_cells
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import CELL_CODE, CELL_COLUMNS, CELL_LINES, CELL_ZONES, MIXED, judge_prepare
from shuffle_sim.testing import touching_point

COURT_ENDS = [("deck", "foot"), ("deck", "head"), ("horse-collar", None), ("ricochet", None), ("crokinole", None)]
FIELDS = ("value", "zone", "touching", "dead", "hanger", "fallen", "holed")
GAPS = (0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3)
#: Big enough for the finest grid the judge lays.
BIG = GRID_MAX_CELLS * GRID_DISCS_PER_CELL
#: Small enough for no grid at all.
SMALL = GRID_MIN_CELLS * GRID_DISCS_PER_CELL - 1


def court_params():
    return [pytest.param(load_court(n, end=e), id=f"{n}-{e or 'default'}") for n, e in COURT_ENDS]


def _tangent_points(court, line, rng, frame):
    """Centres whose discs are tangent to ``line`` (a hair either way: ``GAPS``), on both sides: at
    random along it, and where the tangent paths cross the grid's cell borders, where a cell's mask
    would first leave the line out."""
    x0, y0, size, nx, ny = frame
    r = court.disc_radius
    reach = line.width / 2 + r
    grid_x = x0 + size * np.arange(nx + 1)
    grid_y = y0 + size * np.arange(ny + 1)
    xs, ys = [], []
    if line.kind == "segment":
        ax, ay, bx, by = line.geom
        length = math.hypot(bx - ax, by - ay)
        normal = np.array([-(by - ay), bx - ax]) / length
        for side in (1.0, -1.0):
            ox, oy = side * reach * normal
            ts = [rng.uniform(0.0, 1.0, 2000)]
            if bx != ax:
                ts.append((grid_x - ax - ox) / (bx - ax))
            if by != ay:
                ts.append((grid_y - ay - oy) / (by - ay))
            t = np.concatenate(ts)
            t = t[(t >= 0.0) & (t <= 1.0)]
            gap = rng.choice(GAPS, t.size) * side
            xs.append(ax + t * (bx - ax) + ox + gap * normal[0])
            ys.append(ay + t * (by - ay) + oy + gap * normal[1])
    else:
        cx, cy, radius = line.geom[:3]
        for rho in (radius + reach, radius - reach):
            if rho <= 0.0:
                continue
            angles = [rng.uniform(0.0, 2.0 * math.pi, 2000)]
            for offsets, cos_or_sin in ((grid_x - cx, np.arccos), (grid_y - cy, np.arcsin)):
                inside = np.abs(offsets) <= rho
                base = cos_or_sin(offsets[inside] / rho)
                angles += [
                    base,
                    (math.pi if cos_or_sin is np.arcsin else 0.0) - base,
                    -base if cos_or_sin is np.arccos else base,
                ]
            angle = np.concatenate(angles)
            distance = rho + rng.choice(GAPS, angle.size)
            xs.append(cx + distance * np.cos(angle))
            ys.append(cy + distance * np.sin(angle))
    return np.concatenate(xs), np.concatenate(ys)


def crowded_points(court, seed):
    """About ``BIG`` centres: tangent to the judged lines and a hair either side, around every vertex
    of the zones, the surface and the holes, and spread over the court."""
    rng = np.random.default_rng(seed)
    a = judge_arrays(court)
    frame = judge_cells(a, judge_prepare(a), GRID_MAX_CELLS)[:5]
    xs, ys = [], []
    for line in court.judged_lines:
        tx, ty = _tangent_points(court, line, rng, frame)
        xs.extend(tx)
        ys.extend(ty)
    for _name in ("along", "end"):
        for line in court.judged_lines[:3]:
            for along in (0.0, 1.0, 0.5):
                x, y = touching_point(court, line.name, along, 1, 0.0)
                xs.append(x)
                ys.append(y)
    corners = [p for z in court.zones if z.kind == "polygon" for p in z.polygon]
    if court.surface_polygon is not None:
        corners += list(court.surface_polygon)
    corners += [(h.x, h.y) for h in court.holes]
    r = court.disc_radius
    for cx, cy in corners:
        angle = rng.uniform(0.0, 2.0 * math.pi, 60)
        reach = rng.choice([0.0, r, 2.0 * r]) + rng.uniform(-0.02, 0.02, 60)
        xs.extend(cx + reach * np.cos(angle))
        ys.extend(cy + reach * np.sin(angle))
    assert len(xs) < BIG
    xmin, ymin, xmax, ymax = court.bounds
    rest = BIG - len(xs)
    xs.extend(rng.uniform(xmin - 2 * r, xmax + 2 * r, rest))
    ys.extend(rng.uniform(ymin - 2 * r, ymax + 2 * r, rest))
    return np.array(xs), np.array(ys)


@pytest.mark.parametrize("court", court_params())
def test_fine_grid_and_no_grid_judge_alike(court):
    xs, ys = crowded_points(court, seed=5)
    fine = judge_batch(court, xs, ys)
    chunks = [judge_batch(court, xs[s : s + SMALL], ys[s : s + SMALL]) for s in range(0, xs.size, SMALL)]
    for f in FIELDS:
        assert np.array_equal(getattr(fine, f), np.concatenate([getattr(c, f) for c in chunks])), f


@pytest.mark.parametrize("court", court_params())
def test_the_fine_grid_has_plain_cells_and_tight_masks(court):
    # The shortcuts are in use: plain cells, and mixed cells that name only some lines and zones.
    a = judge_arrays(court)
    cells = judge_cells(a, judge_prepare(a), GRID_MAX_CELLS)[5]
    mixed = cells[cells[:, CELL_CODE] == MIXED]
    assert (cells[:, CELL_CODE] != MIXED).any() and mixed.size
    all_lines = (1 << len(court.judged_lines)) - 1
    assert (mixed[:, CELL_LINES] != all_lines).all()
    if len(court.zones) > 1:
        assert (mixed[:, CELL_ZONES] == 0).any()


def _box_at(px, py, away_x, away_y, size=1e-8):
    """A small box with corner (px, py) stretching away along the signs of (away_x, away_y): its
    nearest point to the line is (px, py), to within its size."""
    x1 = px + math.copysign(size, away_x)
    y1 = py + math.copysign(size, away_y)
    return min(px, x1), min(py, y1), max(px, x1), max(py, y1)


@pytest.mark.parametrize("court", court_params())
def test_a_cell_names_every_line_a_disc_in_it_can_touch(court):
    # Boxes whose nearest point lies a hair inside the touching reach of a line must name the line;
    # boxes clearly beyond it need not (the masks are tight to a micrometre).
    a = judge_arrays(court)
    prepared = judge_prepare(a)
    cells = np.zeros((1, CELL_COLUMNS), np.int64)
    rng = np.random.default_rng(6)
    for i, line in enumerate(court.judged_lines):
        reach = line.width / 2 + court.disc_radius + TOUCH_TOLERANCE
        for _ in range(40):
            if line.kind == "segment":
                ax, ay, bx, by = line.geom
                length = math.hypot(bx - ax, by - ay)
                t = rng.uniform(0.05, 0.95)
                side = rng.choice([-1.0, 1.0])
                nx, ny = side * -(by - ay) / length, side * (bx - ax) / length
                foot = (ax + t * (bx - ax), ay + t * (by - ay))

                def place(d, foot=foot, nx=nx, ny=ny):
                    return (foot[0] + d * nx, foot[1] + d * ny, nx, ny)

            else:
                cx, cy, radius = line.geom[:3]
                angle = rng.uniform(0.0, 2.0 * math.pi)
                ux, uy = math.cos(angle), math.sin(angle)
                outside = radius - reach <= 0.0 or rng.uniform() < 0.5
                sign = 1.0 if outside else -1.0

                def place(d, cx=cx, cy=cy, radius=radius, sign=sign, ux=ux, uy=uy):
                    return (cx + (radius + sign * d) * ux, cy + (radius + sign * d) * uy, sign * ux, sign * uy)

            for inside in (1e-7, 1e-9, 1e-11):
                px, py, away_x, away_y = place(reach - inside)
                _cell_entry(a, prepared, *_box_at(px, py, away_x, away_y), cells, 0)
                assert cells[0, CELL_LINES] >> i & 1, (line.name, inside)
            px, py, away_x, away_y = place(reach + 1e-6)
            _cell_entry(a, prepared, *_box_at(px, py, away_x, away_y), cells, 0)
            assert not cells[0, CELL_LINES] >> i & 1, line.name
