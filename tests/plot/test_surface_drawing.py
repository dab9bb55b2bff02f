"""Drawings of surfaces that are not flat: shaded heights, grade arrows, friction contours; flat
courts drawn exactly as before (nothing of the relief reaches them)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.image import AxesImage
from matplotlib.quiver import Quiver

from shuffle_sim.court import list_courts, load_court
from shuffle_sim.court.shapes import surface_relief
from shuffle_sim.plot import court_figure, draw_court, plot_court
from shuffle_sim.plot import surface as surface_module

HORSE_COLLAR = load_court("horse-collar")


def _drawn(court):
    x0, y0, x1, y1 = court.bounds
    fig = court_figure(x1 - x0, y1 - y0)
    ax = fig.add_subplot()
    draw_court(ax, court)
    fig.canvas.draw()
    return fig, ax


def _pixel(fig, ax, x: float, y: float) -> np.ndarray:
    """The RGB (0-255) drawn at court point (x, y)."""
    rgba = np.asarray(fig.canvas.buffer_rgba())
    px, py = ax.transData.transform((x, y))
    return rgba[round(float(rgba.shape[0] - py)), round(float(px)), :3].astype(int)


@pytest.mark.parametrize("name", [n for n in list_courts() if load_court(n).surface_shape.flat])
def test_a_flat_court_is_drawn_as_before(name, monkeypatch, tmp_path):
    court = load_court(name)
    assert surface_relief(court) is None

    def refuse(*args):
        raise AssertionError("a flat court drew a relief")

    monkeypatch.setattr(surface_module, "draw_surface", refuse)
    fig, ax = _drawn(court)
    assert len(fig.axes) == 1 and not any(isinstance(a, (AxesImage, Quiver)) for a in ax.get_children())
    # Given as explicit zeros, the flat shape draws the very same pixels as the court file's.
    plain, zeros = io.BytesIO(), io.BytesIO()
    for out, shown in ((plain, court), (zeros, court.with_params(slope=[0.0, 0.0], crown=0.0))):
        plot_court(shown, tmp_path / "c.png")
        out.write((tmp_path / "c.png").read_bytes())
    assert plain.getvalue() == zeros.getvalue()


def test_a_crowned_table_is_shaded_low_in_the_middle_and_high_at_the_sides():
    court = HORSE_COLLAR.with_params(crown="1 mm")
    fig, ax = _drawn(court)
    x0, _, x1, _ = court.bounds
    y = 3.0  # open table between the lines
    middle = _pixel(fig, ax, 0.5 * (x0 + x1), y)
    sides = [_pixel(fig, ax, x0 + 0.06 * (x1 - x0), y), _pixel(fig, ax, x1 - 0.06 * (x1 - x0), y)]
    flat_fig, flat_ax = _drawn(HORSE_COLLAR)
    plain = _pixel(flat_fig, flat_ax, 0.5 * (x0 + x1), y)
    assert middle[2] - middle[0] > plain[2] - plain[0] + 10  # bluer: lower
    for side in sides:
        assert side[0] - side[2] > plain[0] - plain[2] + 10  # redder: higher
    images = [a for a in ax.get_children() if isinstance(a, AxesImage)]
    assert len(images) == 1 and len(fig.axes) == 2  # the shading and its colour bar
    assert "mm" in fig.axes[1].get_ylabel()


@pytest.mark.parametrize("slope", [(0.002, 0.0), (-0.001, 0.0), (0.0, -0.002), (0.0015, 0.0015)])
def test_the_grade_arrows_point_the_way_discs_drift(slope):
    court = HORSE_COLLAR.with_params(slope=list(slope))
    _, ax = _drawn(court)
    (quiver,) = [a for a in ax.get_children() if isinstance(a, Quiver)]
    u, v = np.asarray(quiver.U), np.asarray(quiver.V)
    assert len(u) > 10
    np.testing.assert_allclose(u, slope[0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(v, slope[1], rtol=1e-12, atol=1e-15)
    key = 1 / surface_relief(court).key_in
    assert 0.5 * np.hypot(*slope) <= key <= 2.5 * np.hypot(*slope)


def test_a_dome_sends_the_arrows_outward_from_the_middle():
    court = load_court("crokinole").with_params(crown="-1 mm")
    arrows = surface_relief(court).arrows
    outward = arrows[:, 0] * arrows[:, 2] + arrows[:, 1] * arrows[:, 3]
    assert len(arrows) > 20 and np.all(outward > 0)


def test_a_friction_map_is_drawn_as_contours(tmp_path):
    x0, y0, x1, y1 = HORSE_COLLAR.bounds
    ys = np.linspace(y0, y1, 5)
    grid = np.array([[1.0, 0.9, 0.8, 0.9, 1.0] for _ in ys])
    np.savetxt(tmp_path / "mu.csv", grid, delimiter=",")
    court = HORSE_COLLAR.with_params(friction_map={"file": str(tmp_path / "mu.csv"), "extent": [[x0, y0], [x1, y1]]})
    _fig, ax = _drawn(court)
    labels = [t.get_text() for t in ax.texts if t.get_text().startswith("mu x")]
    assert labels, "the friction contours are labelled"
    assert not any(isinstance(a, (AxesImage, Quiver)) for a in ax.get_children())  # no heights, no grade
