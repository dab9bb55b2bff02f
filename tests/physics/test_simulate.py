"""Bad input to the simulator: clear errors in Python, exit status 2 and one line on the command line;
and the ``simulate`` subcommand's output."""

import json
import math

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.court import CourtError, load_court
from shuffle_sim.physics import simulate
from shuffle_sim.physics.scene import Scene, SceneError

DECK = load_court("deck")


def deck_scene(**changes):
    discs = {"x": [0.0, 0.3], "y": [1.0, 8.0], "vx": [0.0, 0.0], "vy": [1.5, 0.0], "omega": [0.0, 0.0]}
    for key, (k, value) in changes.items():
        discs[key][k] = value
    return Scene(court=DECK, **{k: np.array(v, dtype=float) for k, v in discs.items()})


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"vx": (0, math.nan)}, r"discs\[0\]\.vx must be finite"),
        ({"vy": (1, math.inf)}, r"discs\[1\]\.vy must be finite"),
        ({"omega": (0, -math.inf)}, r"discs\[0\]\.omega must be finite"),
        ({"x": (1, 0.05), "y": (1, 1.0)}, r"discs\[0\] and discs\[1\] overlap at the start"),
        ({"x": (1, 2.0)}, r"discs\[1\] .* is off the surface"),
    ],
)
def test_bad_scenes_raise_errors_naming_the_disc(changes, message):
    with pytest.raises(SceneError, match=message):
        simulate(deck_scene(**changes))


def test_disc_overlapping_a_cushion_or_peg_is_rejected():
    rail = load_court("ricochet")
    scene = Scene(court=rail, x=np.array([0.005]), y=np.array([0.3]), vx=np.zeros(1), vy=np.zeros(1), omega=np.zeros(1))
    with pytest.raises(SceneError, match=r"discs\[0\] .* overlaps the cushion 'centre rail'"):
        simulate(scene)
    board = load_court("crokinole")
    peg = board.pegs[5]
    scene = Scene(
        court=board, x=np.array([peg.x + 0.01]), y=np.array([peg.y]), vx=np.zeros(1), vy=np.zeros(1), omega=np.zeros(1)
    )
    with pytest.raises(SceneError, match=r"overlaps the peg 'pegs 6'"):
        simulate(scene)


def test_disc_touching_a_cushion_is_fine():
    rail = load_court("ricochet")
    r = rail.disc_radius
    scene = Scene(
        court=rail,
        x=np.array([0.75 * 0.0254 / 2 + r]),
        y=np.array([0.3]),
        vx=np.zeros(1),
        vy=np.zeros(1),
        omega=np.zeros(1),
    )
    assert simulate(scene).ok


@pytest.mark.parametrize(
    "param, value", [("mu", -0.01), ("disc_restitution", 1.5), ("cushion_friction", -1.0), ("gravity", 0.0)]
)
def test_bad_parameters_are_rejected(param, value):
    with pytest.raises(CourtError, match=param):
        DECK.with_params(**{param: value})


@pytest.mark.parametrize("bad", [0, -5, 2.5, True])
def test_bad_event_bound_is_rejected(bad):
    with pytest.raises(ValueError, match="max_events"):
        simulate(deck_scene(), max_events=bad)


# ---- the command line --------------------------------------------------------------------------------

GOOD = {
    "court": "deck",
    "discs": [
        {"x": 0.0, "y": 2.0, "vx": 0.0, "vy": 2.2, "omega": 1.0, "team": "yellow"},
        {"x": 0.02, "y": 11.0, "team": "black"},
    ],
}


def test_simulate_json_output(write_file, tmp_path, capsys):
    assert main(["simulate", write_file("scene.json", GOOD), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"discs", "events", "judging"}
    assert [set(d) >= {"x", "y", "vx", "vy", "omega", "status"} for d in out["discs"]] == [True, True]
    assert {d["status"] for d in out["discs"]} <= {"rest", "fallen", "holed"}
    assert out["judging"]["court"] == "deck" and len(out["judging"]["discs"]) == 2
    kinds = [e["kind"] for e in out["events"]]
    assert "disc" in kinds and "stop" in kinds
    hit = out["events"][kinds.index("disc")]
    assert (hit["a"], hit["b"]) == (0, 1) and hit["t"] > 0
    # The same as the Python API.
    result = simulate(Scene.from_json(write_file("scene.json", GOOD)))
    assert out == json.loads(json.dumps(result.to_json()))


def test_simulate_text_output(write_file, tmp_path, capsys):
    assert main(["simulate", write_file("scene.json", GOOD)]) == 0
    out = capsys.readouterr().out
    assert "disc 0 (yellow)" in out and "disc 1 (black)" in out


def test_simulate_stops_at_the_event_bound_with_status_1(write_file, tmp_path, capsys):
    data = {
        "court": "deck",
        "params": {"mu": 0.0, "cushion_restitution": 1.0},
        "discs": [{"x": 0.0, "y": 5.0, "vy": 3.0}],
    }
    assert main(["simulate", write_file("scene.json", data), "--json", "--max-events", "30"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["discs"][0]["status"] == "moving"
    assert "event bound" in captured.err


@pytest.mark.parametrize(
    "data, message",
    [
        ('{"court": "deck", "discs": [{"x": 0.0, "y": 2.0, "vx": NaN}]}', r"discs\[0\]\.vx must be finite"),
        ('{"court": "deck", "discs": [{"x": 0.0, "y": 2.0, "vy": Infinity}]}', r"discs\[0\]\.vy must be finite"),
        ({"court": "deck", "discs": [{"x": 0.0, "y": 2.0}, {"x": 0.1, "y": 2.0}]}, "overlap at the start"),
        ({"court": "deck", "discs": [{"x": 5.0, "y": 2.0}]}, "off the surface"),
        ({"court": "deck", "params": {"mu": -0.1}, "discs": [{"x": 0.0, "y": 2.0}]}, "mu"),
        ({"court": "ricochet", "discs": [{"x": 0.0, "y": 0.3}]}, "overlaps the cushion 'centre rail'"),
        ({"court": "nowhere", "discs": []}, "unknown court"),
        ("{not json", "not valid JSON"),
    ],
)
def test_simulate_bad_input_exits_2_with_one_line(write_file, tmp_path, capsys, data, message):
    assert main(["simulate", write_file("scene.json", data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shuffle-sim: error: ") and err.count("\n") == 1
    assert __import__("re").search(message, err)


def test_simulate_missing_file_exits_2(tmp_path, capsys):
    assert main(["simulate", str(tmp_path / "missing.json")]) == 2
    assert "cannot read scene file" in capsys.readouterr().err


def test_simulate_plot_writes_an_image_of_the_trajectories(write_file, tmp_path, capsys):
    out = tmp_path / "shot.png"
    assert main(["simulate", write_file("scene.json", GOOD), "--plot", str(out), "--frames", "40"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
