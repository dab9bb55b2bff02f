"""Bad surface shapes (``[surface]``'s slope, crown and maps) exit 2 with one line naming the field."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shuffle_sim.cli import main
from tests.conftest import ROOT

OUTLINE = 'polygon = [["-3 ft", "0 ft"], ["3 ft", "0 ft"], ["3 ft", "52 ft"], ["-3 ft", "52 ft"], ["-3 ft", "0 ft"]]\n'
COVER = '[["-3 ft", "0 ft"], ["3 ft", "52 ft"]]'
GRID = "\n".join(",".join(["0"] * 4) for _ in range(4)) + "\n"


def deck_with(tmp_path, surface: str, files: dict | None = None) -> str:
    """The deck court's file with ``surface`` added to its ``[surface]``, and map files beside it."""
    text = (ROOT / "courts" / "deck.toml").read_text()
    assert OUTLINE in text
    path = tmp_path / "court.toml"
    path.write_text(text.replace(OUTLINE, OUTLINE + surface + "\n"))
    for name, content in (files or {}).items():
        if isinstance(content, np.ndarray):
            np.save(tmp_path / name, content)
        else:
            (tmp_path / name).write_text(content)
    return str(path)


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


HILL = np.zeros((6, 6))
HILL[2:4, 2:4] = 0.05  # 5 cm over a cell of about 0.37 m x 3.2 m: a grade of about 0.3 beside it


@pytest.mark.parametrize(
    ("surface", "files", "message"),
    [
        ("slope = [nan, 0.0]", None, "surface.slope: must be finite"),
        ("slope = [0.001]", None, "surface.slope: must be a grade [gx, gy]"),
        ('crown = "nan in"', None, "surface.crown"),
        ("slope = [0.02, 0.0]", None, "surface.slope: the surface is steeper than its friction"),
        ('crown = "1 in"', None, "surface.crown: the surface is steeper than its friction"),
        (
            f'height_map = {{ file = "holes.csv", extent = {COVER}, unit = "mm" }}',
            {"holes.csv": "0,0,0,0\n0,,0,0\n0,0,0,0\n0,0,0,0\n"},
            "surface.height_map: the map has holes: no value at row 2, column 2",
        ),
        (
            f'height_map = {{ file = "nan.npy", extent = {COVER} }}',
            {"nan.npy": np.where(np.eye(5) > 0, np.nan, 0.0)},
            "surface.height_map: the map has holes",
        ),
        (
            'height_map = { file = "small.csv", extent = [["-3 ft", "0 ft"], ["3 ft", "50 ft"]] }',
            {"small.csv": GRID},
            "surface.height_map.extent: the map must cover the surface",
        ),
        (
            f'height_map = {{ file = "hill.npy", extent = {COVER} }}',
            {"hill.npy": HILL},
            "surface.height_map: the surface is steeper than its friction",
        ),
        (
            f'friction_map = {{ file = "negative.csv", extent = {COVER} }}',
            {"negative.csv": "1,1,1,1\n1,-0.5,1,1\n1,1,1,1\n1,1,1,1\n"},
            "surface.friction_map: friction multipliers must be positive: -0.5 at row 2, column 2",
        ),
        (
            f'friction_map = {{ file = "missing.csv", extent = {COVER} }}',
            None,
            "surface.friction_map.file: no such file",
        ),
    ],
)
@pytest.mark.parametrize("command", ["judge", "draw"])
def test_a_bad_surface_exits_2_naming_the_field(tmp_path, capsys, command, surface, files, message):
    court = deck_with(tmp_path, surface, files)
    argv = (
        ["judge", court, "--disc", "0,5"] if command == "judge" else ["draw", court, "-o", str(tmp_path / "court.png")]
    )
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_a_good_surface_loads(tmp_path, capsys):
    court = deck_with(tmp_path, 'slope = [0.001, 0.0]\ncrown = "1/32 in"')
    assert run(capsys, "judge", court, "--disc", "0,5")[0] == 0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"slope": [0.0, 0.03]}, "params.slope: the surface is steeper than its friction"),
        ({"slope": "steep"}, "params.slope: must be a grade [gx, gy]"),
        ({"mu": 0.0005, "slope": [0.001, 0.0]}, "params.slope: the surface is steeper than its friction"),
    ],
)
def test_a_scene_with_a_bad_surface_exits_2(tmp_path, capsys, params, message):
    scene = tmp_path / "scene.json"
    scene.write_text(json.dumps({"court": "deck", "params": params, "discs": [{"x": 0.0, "y": 1.0, "vy": 1.0}]}))
    status, out, err = run(capsys, "simulate", str(scene))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
