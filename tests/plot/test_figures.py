"""Court drawings, discs, trajectories and animations (matplotlib, Agg, no pyplot)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from PIL import Image

from shuffle_sim import load_court
from shuffle_sim.cli import main
from shuffle_sim.games import get_game
from shuffle_sim.plot import (
    TEAM_COLOURS,
    animate_trajectories,
    draw_court,
    draw_discs,
    plot_court,
    plot_courts,
    plot_trajectories,
    team_colours,
    zoom_box,
)
from shuffle_sim.units import FOOT as FT
from shuffle_sim.units import INCH as IN


def new_axes():
    fig = Figure(figsize=(4, 8))
    FigureCanvasAgg(fig)
    return fig.add_subplot()


def texts(ax):
    return [t.get_text() for t in ax.texts]


@pytest.mark.parametrize(
    "name, labels",
    [
        ("deck", {"10", "8", "7", "10 OFF", "dead", "left alley", "right alley"}),
        ("horse-collar", {"1", "2", "3", "hanger 13", "26", "dead", "near gutter", "left gutter"}),
        ("ricochet", {"1", "2", "3", "4", "hanger 5", "dead"}),
        ("crokinole", {"15", "10", "5", "20", "dead", "ditch"}),
    ],
)
def test_draw_court_to_scale_with_values(name, labels):
    court = load_court(name)
    ax = new_axes()
    draw_court(ax, court)
    assert labels <= set(texts(ax)), set(texts(ax))
    assert ax.get_aspect() == 1.0
    x0, y0, x1, y1 = court.bounds
    (lx0, lx1), (ly0, ly1) = ax.get_xlim(), ax.get_ylim()
    assert lx0 < x0 and lx1 > x1 and ly0 <= y0 and ly1 > y1
    assert ax.get_xlabel() == "x (m)" and ax.get_ylabel() == "y (m)"
    # Pegs and the hole are circles of their real size.
    circles = sorted(round(p.get_radius(), 6) for p in ax.patches if isinstance(p, Circle))
    expected = sorted(
        [round(g.radius, 6) for g in court.pegs]
        + [round(h.radius, 6) for h in court.holes]
        + ([round(court.surface_circle[2], 6)] if court.surface_kind == "circle" else [])
    )
    assert circles == expected


def test_deck_shows_both_ends_and_lines_with_width():
    court = load_court("deck")
    ax = new_axes()
    draw_court(ax, court)
    # Each scoring value appears at both ends: 10 twice, 8 and 7 four times (left and right).
    labels = texts(ax)
    assert labels.count("10") == 2 and labels.count("8") == 4 and labels.count("7") == 4
    # Every line of both diagrams is drawn as a band of its width (the separation triangles dashed).
    bands = [p for p in ax.patches if p.get_facecolor()[:3] == pytest.approx((27 / 255, 27 / 255, 27 / 255))]
    assert len(bands) == 2 * len(court.judged_lines)
    baseline = next(
        b for b in bands if np.allclose(sorted(set(np.round(b.get_xy()[:, 1], 9)))[0], 45.5 * FT - 0.5 * IN)
    )
    ys = baseline.get_xy()[:, 1]
    assert ys.max() - ys.min() == pytest.approx(1 * IN)


def test_team_colours():
    deck = load_court("deck")
    assert team_colours(deck, ["A", "B", "A"]) == [
        TEAM_COLOURS["yellow"],
        TEAM_COLOURS["black"],
        TEAM_COLOURS["yellow"],
    ]
    assert team_colours(deck, ["black", "me"]) == [TEAM_COLOURS["black"], TEAM_COLOURS["yellow"]]
    hc = load_court("horse-collar")
    assert team_colours(hc, ["home", "away"]) == [TEAM_COLOURS["red"], TEAM_COLOURS["blue"]]
    board = load_court("crokinole")
    three = team_colours(board, ["p1", "p2", "p3"])
    assert three[:2] == [TEAM_COLOURS["light"], TEAM_COLOURS["dark"]] and len(set(three)) == 3


def test_draw_discs_colours_and_labels():
    court = load_court("deck")
    ax = new_axes()
    draw_discs(ax, court, [0.0, 0.1], [11.3, 12.0], ["yellow", "black"], values=[10, "dead"])
    discs = [p for p in ax.patches if isinstance(p, Circle)]
    assert [to_hex(d.get_facecolor()) for d in discs] == [TEAM_COLOURS["yellow"], TEAM_COLOURS["black"]]
    assert all(d.get_radius() == pytest.approx(3 * IN) for d in discs)
    assert texts(ax) == ["10", "dead"]
    with pytest.raises(ValueError, match="same length"):
        draw_discs(ax, court, [0.0], [1.0, 2.0], ["A"])
    with pytest.raises(ValueError, match="one entry per disc"):
        draw_discs(ax, court, [0.0], [1.0], ["A"], values=[1, 2])


def test_zoom_boxes():
    deck = load_court("deck")
    fx0, fy0, fx1, fy1 = zoom_box(deck, "foot")
    assert fy0 == pytest.approx(32 * FT - 6 * IN) and fy1 == pytest.approx(52 * FT + 6 * IN)
    assert fx0 < -3 * FT and fx1 > 3 * FT
    _hx0, hy0, _hx1, hy1 = zoom_box(deck, "head")
    assert hy0 == pytest.approx(-6 * IN) and hy1 == pytest.approx(20 * FT + 6 * IN)
    assert zoom_box(deck, (0, 1, 2, 3)) == (0.0, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="has no end 'middle'"):
        zoom_box(deck, "middle")
    with pytest.raises(ValueError, match="min < max"):
        zoom_box(deck, (0, 1, -2, 3))


def test_plot_court_writes_images(tmp_path):
    deck = load_court("deck")
    whole = tmp_path / "deck.png"
    plot_court(deck, whole)
    zoomed = tmp_path / "deck-foot.png"
    plot_court(deck, zoomed, zoom="foot", discs=[(0.0, 37.2 * FT, "yellow"), (0.0, 47 * FT, "black"), (0.0, 41 * FT)])
    with Image.open(whole) as img:
        w, h = img.size
        assert img.format == "PNG" and h > 2.5 * w  # a tall court drawn tall
    with Image.open(zoomed) as img:
        assert img.format == "PNG" and img.size[1] > img.size[0]
    svg = tmp_path / "board.svg"
    plot_court(load_court("crokinole"), svg, discs=[(0.0, 0.0, "dark")])
    assert svg.read_text().lstrip().startswith("<?xml")


def shot_tracks():
    """Two discs: one slides to rest in the foot's 10, one runs off into the right alley."""
    times = np.linspace(0.0, 2.0, 41)
    s = 1 - (1 - times / 2.0) ** 2  # decelerating to rest
    positions = np.full((41, 2, 2), np.nan)
    positions[:, 0, 0] = 0.0
    positions[:, 0, 1] = 2 * FT + s * (37.2 - 2) * FT
    gone = times > 1.5
    positions[~gone, 1, 0] = s[~gone] * 1.2
    positions[~gone, 1, 1] = 2 * FT + s[~gone] * 30 * FT
    return times, positions


def test_plot_trajectories(tmp_path):
    times, positions = shot_tracks()
    path = tmp_path / "tracks.png"
    plot_trajectories(load_court("deck"), times, positions, ["yellow", "black"], path, zoom=(-1.5, 0, 1.5, 16))
    with Image.open(path) as img:
        assert img.format == "PNG"
    with pytest.raises(ValueError, match=r"shape \(T, N, 2\)"):
        plot_trajectories(load_court("deck"), times, positions[..., 0], ["a", "b"], path)
    with pytest.raises(ValueError, match="teams has 1"):
        plot_trajectories(load_court("deck"), times, positions, ["a"], path)
    with pytest.raises(ValueError, match="non-decreasing"):
        plot_trajectories(load_court("deck"), times[::-1], positions, ["a", "b"], path)


def test_animate_trajectories(tmp_path):
    times, positions = shot_tracks()
    path = tmp_path / "shot.gif"
    animate_trajectories(load_court("deck"), times, positions, ["A", "B"], path, fps=10, zoom="foot")
    with Image.open(path) as img:
        assert img.format == "GIF" and img.n_frames == 21  # 2 s at 10 frames per second, both ends
    with pytest.raises(ValueError, match="fps must be a positive integer"):
        animate_trajectories(load_court("deck"), times, positions, ["A", "B"], path, fps=0)


def test_drawing_never_imports_pyplot(tmp_path):
    code = (
        "import sys, shuffle_sim\n"
        "assert 'matplotlib' not in sys.modules\n"
        "from shuffle_sim import load_court\n"
        "from shuffle_sim.plot import plot_court\n"
        f"plot_court(load_court('ricochet'), {str(tmp_path / 'r.png')!r}, discs=[(0.1, 0.1, 'red')])\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.png").stat().st_size > 1000


def test_cli_draw(tmp_path, capsys):
    out = tmp_path / "sub" / "deck.png"
    argv = [
        "draw",
        "deck",
        "-o",
        str(out),
        "--zoom",
        "foot",
        "--disc",
        f"0,{37.2 * FT},yellow",
        "--disc",
        f"-0.15,{39.5 * FT}",
        "--end",
        "foot",
    ]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    with Image.open(out) as img:
        assert img.format == "PNG"
    assert main(["draw", "deck", "-o", str(tmp_path / "x.png"), "--zoom", "middle"]) == 2
    assert "has no end 'middle'" in capsys.readouterr().err
    assert main(["draw", "deck", "-o", str(tmp_path / "x.png"), "--disc", "0,nan"]) == 2
    assert "finite coordinates" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["draw", "deck", "-o", str(tmp_path / "x.png"), "--zoom", "1,2,3"])
    assert info.value.code == 2


@pytest.mark.parametrize("game", ["deck", "crokinole"])
def test_many_pictures_of_one_court_are_each_the_same_file_as_one_drawn_alone(tmp_path, game):
    """``plot_courts`` draws the court once per end and zoom and only the discs per picture: each
    image is pixel for pixel ``plot_court``'s, whatever discs the pictures before it had (a disc on
    the edge of the drawing, none at all, the other end)."""
    court = load_court(game)
    x0, y0, x1, y1 = court.bounds
    ends = [e for e in court.ends if e != "default"] or [None]
    teams = list(get_game(game).sides)
    rng = np.random.default_rng(7)
    pictures = []
    for k in range(5):
        end = ends[k % len(ends)]
        discs = [(rng.uniform(x0, x1), rng.uniform(y0, y1), teams[j % 2]) for j in range(int(rng.integers(0, 5)))]
        if k == 2:
            discs.append((x1 - 0.001, y1 - 0.001, teams[0]))
        pictures.append((tmp_path / f"many{k}.png", discs, end, end))
    plot_courts(court, pictures, dpi=60)
    for path, discs, end, zoom in pictures:
        alone = tmp_path / f"alone-{path.name}"
        plot_court(court, alone, discs=discs or None, end=end, zoom=zoom, dpi=60)
        assert np.array_equal(np.asarray(Image.open(path)), np.asarray(Image.open(alone))), path.name
