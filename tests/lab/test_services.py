"""The shot lab's Python side without a browser: board edits, shots, noisy copies, files, starts, CLI."""

from __future__ import annotations

import base64
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.judging import judge_batch
from shuffle_sim.lab.board import Disc, LabBoard, LabError
from shuffle_sim.lab.files import board_json, parse_text, parse_upload, scene_json
from shuffle_sim.lab.shots import Aim, max_speed, noisy_copies, play_shot
from shuffle_sim.lab.starts import legal_starts
from shuffle_sim.noise import NoiseModel, skill_preset
from shuffle_sim.physics import simulate
from shuffle_sim.rules import score_board
from shuffle_sim.rules.board_file import board_from_dict
from shuffle_sim.physics.scene import Scene

CROKINOLE = load_court("crokinole")
DECK = load_court("deck")


def test_edits_are_checked_and_undone():
    board = LabBoard(CROKINOLE)
    board.place(0.0, 0.1, "light")
    with pytest.raises(LabError, match=r"disc 1 at \(0\.000, 0\.110\) m lies on disc 0"):
        board.place(0.0, 0.11, "dark")
    with pytest.raises(LabError, match="off the surface of court 'crokinole'"):
        board.place(0.4, 0.0, "dark")
    peg = CROKINOLE.pegs[0]
    with pytest.raises(LabError, match="lies on the peg"):
        board.place(peg.x, peg.y, "dark")
    assert board.discs == [Disc(0.0, 0.1, "light")]
    board.move(0, 0.0, 0.05)
    assert board.undo() and board.discs == [Disc(0.0, 0.1, "light")]
    assert board.undo() and board.discs == []
    assert not board.undo()


@settings(max_examples=40, deadline=None)
@given(st.floats(-0.34, 0.34), st.floats(-0.34, 0.34))
def test_judgement_and_frame_score_are_the_judge_and_the_rules(x, y):
    board = LabBoard(CROKINOLE)
    try:
        board.place(x, y, "light")
    except LabError:
        assert not CROKINOLE.on_surface(x, y) or board.discs == [] and _blocked(x, y)
        return
    assert board.judgement() == judge_batch(CROKINOLE, [x], [y]).records()
    frame = board.frame_score()
    expected = score_board("crokinole", board_from_dict({"discs": [{"x": x, "y": y, "team": "light"}]},
                                                        "crokinole", "crokinole"))
    assert frame.scores == expected.scores


def _blocked(x, y) -> bool:
    r = CROKINOLE.disc_radius
    return any(math.hypot(x - p.x, y - p.y) < r + p.radius for p in CROKINOLE.pegs) or any(
        c.kind == "circle" and math.hypot(x - c.geom[0], y - c.geom[1]) > c.geom[2] - r for c in CROKINOLE.cushions)


def test_a_shot_ends_where_simulate_leaves_the_same_scene():
    board = LabBoard(CROKINOLE)
    board.place(0.0, 0.06, "dark")
    start = legal_starts(CROKINOLE)[0]
    x, y = start.point(0.5)
    aim = Aim(x, y, 1.3, 91.0, 2.0, "light")
    played = play_shot(board, aim)
    scene = Scene.from_dict(json.loads(scene_json(board, aim)))
    result = simulate(scene)
    np.testing.assert_array_equal(played.positions[-1, :, 0], result.x)
    np.testing.assert_array_equal(played.positions[-1, :, 1], result.y)
    assert played.marks and played.marks[0]["kind"] in ("impact", "peg")
    assert played.times[0] == 0.0 and played.times[-1] == result.t_end


@pytest.mark.parametrize("speed", [0.0, -1.0, 1e3, math.nan])
def test_impossible_speeds_are_refused_by_name(speed):
    x, y = legal_starts(DECK)[0].point(0.5)
    with pytest.raises(LabError, match=r"shot speed .* is impossible|shot speed must be a finite number"):
        play_shot(LabBoard(DECK), Aim(x, y, speed, 90.0, 0.0, "yellow"))
    assert max_speed(DECK) < 1e3


def test_a_start_on_a_disc_is_refused():
    board = LabBoard(CROKINOLE)
    x, y = legal_starts(CROKINOLE)[0].point(0.5)
    board.place(x, y + 0.01, "dark")
    with pytest.raises(LabError, match="overlap"):
        play_shot(board, Aim(x, y, 1.0, 90.0, 0.0, "light"))


def test_noisy_copies_are_the_batch_api_under_the_preset():
    board = LabBoard(DECK)
    board.place(0.0, 12.0, "black")
    x, y = legal_starts(DECK)[0].point(0.5)
    aim = Aim(x, y, 1.85, 92.0, 0.0, "yellow")
    noise = skill_preset("deck", "average")
    copies = noisy_copies(board, aim, noise, 500, seed=3)
    again = noisy_copies(board, aim, noise, 500, seed=3)
    np.testing.assert_array_equal(copies.rest_x, again.rest_x)
    assert copies.played == 500 and sum(copies.value.values()) == pytest.approx(1.0)
    assert sum(copies.scores.values()) == pytest.approx(1.0) and copies.scored == 500
    exact = noisy_copies(board, aim, NoiseModel(), 4)
    one = play_shot(board, aim)
    assert np.all(exact.rest_x == one.result.x[-1]) and np.all(exact.rest_y == one.result.y[-1])
    with pytest.raises(LabError, match="noisy copies must be a whole number"):
        noisy_copies(board, aim, noise, 0)


def test_files_round_trip_in_the_command_line_formats():
    board = LabBoard(DECK.for_end("head"))
    board.place(0.1, 3.0, "yellow")
    data = json.loads(board_json(board))
    assert data == {"court": "deck", "end": "head", "discs": [{"x": 0.1, "y": 3.0, "team": "yellow"}]}
    assert board_from_dict(data, "deck", "deck").court.end == "head"
    loaded = parse_text("b.json", board_json(board), CROKINOLE)
    assert loaded.court.end == "head" and loaded.discs == board.discs and loaded.aim is None
    aim = Aim(0.4, 2.2, 2.0, 90.0, 1.5, "black")
    loaded = parse_text("s.json", scene_json(board, aim), CROKINOLE)
    assert loaded.aim.speed == pytest.approx(2.0) and loaded.aim.direction == pytest.approx(90.0)
    assert loaded.aim.spin == 1.5 and loaded.aim.team == "black"


@pytest.mark.parametrize("text, message", [
    ('{"discs": [', "bad.json: not valid JSON"),
    ("[1, 2]", "bad.json: a board or scene must be a JSON object"),
    ('{"discs": [{"x": 0.5, "y": 0}]}', r"bad.json: discs\[0\] at x=.*0\.5.* is off the surface"),
    ('{"discs": [{"x": 0, "y": 0.1}, {"x": 0, "y": 0.11}]}', r"discs\[0\] and discs\[1\] overlap"),
    ('{"discs": [{"x": 0, "y": 0.1, "vy": 1}, {"x": 0, "y": -0.2, "vy": 1}]}', "one moving disc"),
    ('{"court": "nowhere", "discs": []}', "nowhere"),
    ('{"discs": [{"x": "a", "y": 0}]}', r"discs\[0\]\.x: must be a number"),
])
def test_bad_files_give_one_clear_message(text, message):
    with pytest.raises(LabError, match=message):
        parse_text("bad.json", text, CROKINOLE)


def test_uploads_that_are_not_text_are_refused():
    with pytest.raises(LabError, match="not a text file"):
        parse_upload("x.json", base64.b64encode(b"\xff\xfe\x00").decode(), CROKINOLE)
    with pytest.raises(LabError, match="not a text file"):
        parse_upload("x.json", "%%%", CROKINOLE)


@pytest.mark.parametrize("court", ["deck", "horse-collar", "ricochet", "crokinole"])
def test_every_legal_start_lies_on_the_surface(court):
    c = load_court(court)
    for end in c.ends:
        turned = c.for_end(end)
        for start in legal_starts(turned):
            for t in (0.0, 0.5, 1.0):
                assert turned.on_surface(*start.point(t)), (end, start.name, t)


@pytest.mark.parametrize("args, message", [
    (["--court", "no-such-court"], "no-such-court"),
    (["--end", "middle"], "has no end 'middle'"),
    (["--port", "70000"], "--port must be from 1 to 65535"),
])
def test_lab_command_refuses_bad_options_before_listening(capsys, args, message):
    assert main(["lab", "--no-browser", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shuffle-sim: error:") and message in err and len(err.splitlines()) == 1


def test_the_app_builds_outside_a_server_as_in_a_notebook_and_its_callbacks_keep_going():
    from bokeh.document import Document

    from shuffle_sim.lab.app import LabOptions, make_document

    doc = Document()
    make_document(LabOptions(court="crokinole"))(doc)
    app_message = doc.get_model_by_name("message")
    discs = doc.get_model_by_name("discs")
    discs.data = dict(x=[0.0], y=[0.05], team=["light"], colour=["#f3dfb3"])  # as the drawing tool adds one
    assert doc.get_model_by_name("labels").data["text"] == ["15"]
    discs.data = dict(x=[0.0, 0.5], y=[0.05, 0.0], team=["light", "light"], colour=["#f3dfb3"] * 2)
    assert "off the surface" in app_message.text and "put back" in app_message.text
    assert list(discs.data["x"]) == [0.0]
    tip = doc.get_model_by_name("tip")
    speed, direction = doc.get_model_by_name("speed"), doc.get_model_by_name("direction")
    start = legal_starts(CROKINOLE)[0].point(0.5)
    tip.data = dict(x=[start[0]], y=[start[1] + 0.2])  # the arrow dragged 0.2 m straight up
    decel = CROKINOLE.params["mu"] * CROKINOLE.params["gravity"]
    assert float(speed.value) == pytest.approx(math.sqrt(2 * decel * 0.2), rel=1e-4)
    assert float(direction.value) == pytest.approx(90.0)
    speed.value = "fast"
    assert "shot speed must be a number (got 'fast')" in app_message.text


def test_show_lab_displays_the_app_in_a_notebook_cell():
    import nbclient
    import nbformat

    book = nbformat.v4.new_notebook()
    book.cells.append(nbformat.v4.new_code_cell('from shuffle_sim.lab import show_lab\nshow_lab("crokinole")'))
    nbclient.NotebookClient(book, timeout=300, kernel_name="python3").execute()
    outputs = book.cells[0].outputs
    assert not [o for o in outputs if o.get("output_type") == "error"]
    kinds = {key for o in outputs for key in o.get("data", {})}
    assert {"application/vnd.bokehjs_load.v0+json", "application/vnd.bokehjs_exec.v0+json"} <= kinds
    page = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "autoload.js" in page and "bokeh-absolute-url=http://localhost:" in page  # the kernel's server



def test_advice_in_the_lab_is_the_shot_advisors_ranking():
    """The lab's advice panel ranks the shots as ``shuffle-sim advise`` does for the same board,
    shooter, position and skill preset."""
    from bokeh.document import Document
    from bokeh.events import ButtonClick

    from shuffle_sim.lab.app import LabOptions, make_document
    from shuffle_sim.noise import skill_presets
    from shuffle_sim.playing.advisor import advise
    from shuffle_sim.playing.players import ExpectedValue, Player
    from shuffle_sim.rules.common import Board

    doc = Document()
    make_document(LabOptions(court="crokinole"))(doc)
    doc.get_model_by_name("discs").data = dict(x=[0.02, -0.1], y=[0.06, 0.12], team=["dark", "dark"],
                                                colour=["#4e342e"] * 2)
    doc.get_model_by_name("team_select").value = "light"
    skill = doc.get_model_by_name("skill").value
    button = doc.get_model_by_name("advise")
    button._trigger_event(ButtonClick(button))
    page = doc.get_model_by_name("advice").text

    preset = skill_presets("crokinole")[skill]
    board = Board(CROKINOLE, [0.02, -0.1], [0.06, 0.12], ("dark", "dark"))
    _, expected = advise("crokinole", board, Player(preset.name, preset, ExpectedValue()), shooter="light",
                         position="south")
    assert "for light from south" in page
    rows = page.split("<tr>")[2:]  # after the header row
    assert len(rows) == min(8, len(expected))
    for row, advice in zip(rows, expected):
        assert advice.intent.label in row and f"{advice.expected:+.2f}" in row
