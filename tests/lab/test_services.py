"""The shot lab's Python side without a browser: board edits, shots, noisy copies, files, starts, CLI,
and the page's document driven as the browser drives it (gesture rows, button events)."""

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
from shuffle_sim.lab.copies import SCORED_COPIES, launches, noisy_copies
from shuffle_sim.lab.files import board_json, parse_text, parse_upload, scene_json
from shuffle_sim.lab.shots import Aim, max_speed, play_shot
from shuffle_sim.lab.starts import legal_starts
from shuffle_sim.noise import NoiseModel, skill_preset
from shuffle_sim.physics import simulate
from shuffle_sim.physics.scene import Scene
from shuffle_sim.rules import score_board
from shuffle_sim.rules.board_file import board_from_dict

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
        assert not CROKINOLE.on_surface(x, y) or (board.discs == [] and _blocked(x, y))
        return
    assert board.judgement() == judge_batch(CROKINOLE, [x], [y]).records()
    frame = board.frame_score()
    expected = score_board(
        "crokinole", board_from_dict({"discs": [{"x": x, "y": y, "team": "light"}]}, "crokinole", "crokinole")
    )
    assert frame.scores == expected.scores


def _blocked(x, y) -> bool:
    r = CROKINOLE.disc_radius
    return (
        any(math.hypot(x - p.x, y - p.y) < r + p.radius for p in CROKINOLE.pegs)
        or any(
            c.kind == "circle" and math.hypot(x - c.geom[0], y - c.geom[1]) > c.geom[2] - r for c in CROKINOLE.cushions
        )
        or any(math.hypot(x - h.x, y - h.y) <= h.capture_radius for h in CROKINOLE.holes)
    )


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


def test_noisy_copies_are_the_batch_api_under_the_preset_and_the_ruled_ones_are_its_shots():
    from shuffle_sim.playing.players import Launch
    from shuffle_sim.playing.shooting import shoot
    from shuffle_sim.shots import simulate_shots

    board = LabBoard(DECK)
    board.place(0.0, 12.0, "black")
    x, y = legal_starts(DECK)[0].point(0.5)
    aim = Aim(x, y, 1.85, 92.0, 0.0, "yellow")
    noise = skill_preset("deck", "average")
    copies = noisy_copies(board, aim, noise, 700, seed=3)
    again = noisy_copies(board, aim, noise, 700, seed=3)
    np.testing.assert_array_equal(copies.rest_x, again.rest_x)
    assert copies.played == 700 and copies.scored == SCORED_COPIES
    assert sum(copies.outcome.values()) == pytest.approx(1.0) and sum(copies.scores.values()) == pytest.approx(1.0)
    # The copies the rules judge are played again one by one: the same rest positions as the batch.
    shots = launches(aim, noise, 700, seed=3)
    batch = simulate_shots(
        DECK,
        shots.x,
        shots.y,
        shots.vx,
        shots.vy,
        shots.omega,
        board=Scene(
            court=DECK, x=board.xs, y=board.ys, vx=np.zeros(1), vy=np.zeros(1), omega=np.zeros(1), team=board.teams
        ),
    )
    for k in range(0, SCORED_COPIES, 50):
        one = shoot(
            DECK, board.xs, board.ys, Launch(0.0, shots.x[k], shots.y[k], shots.vx[k], shots.vy[k], shots.omega[k])
        )
        np.testing.assert_array_equal(one.result.x, batch.x[k])
        np.testing.assert_array_equal(one.result.y, batch.y[k])
    exact = noisy_copies(board, aim, NoiseModel(), 4)
    one = play_shot(board, aim)
    assert np.all(exact.rest_x == one.result.x[-1]) and np.all(exact.rest_y == one.result.y[-1])
    with pytest.raises(LabError, match="noisy copies must be a whole number"):
        noisy_copies(board, aim, noise, 0)


def test_the_outcome_of_copies_that_miss_on_a_crokinole_board_is_the_hit_rule():
    board = LabBoard(CROKINOLE)
    board.place(0.2, 0.15, "dark")
    x, y = legal_starts(CROKINOLE)[0].point(0.5)
    aim = Aim(x, y, 0.85, 90.0, 0.0, "light")  # straight at the centre, the dark disc well aside
    copies = noisy_copies(board, aim, NoiseModel(speed=0.01), 50)
    assert copies.outcome == {"removed: the shot hit no opponent disc: removed": 1.0}
    assert copies.scores == {"dark 5": 1.0}


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


def test_a_frame_round_trips_with_its_twenties_and_half_and_old_holed_discs_read_as_twenties():
    from shuffle_sim.lab.board import FrameState

    board = LabBoard(CROKINOLE, FrameState((Disc(0.1, 0.0, "dark"),), twenties=(("light", 2), ("dark", 0))))
    loaded = parse_text("b.json", board_json(board), DECK)
    assert loaded.state.discs == board.state.discs and loaded.state.twenties == (("light", 2),)
    ricochet = LabBoard(load_court("ricochet"), FrameState((Disc(0.2, 0.3, "blue"),), half="right"))
    assert parse_text("r.json", board_json(ricochet), DECK).state.half == "right"
    old = {"court": "crokinole", "discs": [{"x": 0.0, "y": 0.0, "team": "light"}, {"x": 0.1, "y": 0.0, "team": "dark"}]}
    loaded = parse_text("old.json", json.dumps(old), DECK)
    assert loaded.state.twenties == (("light", 1),) and [d.team for d in loaded.discs] == ["dark"]
    assert "1 disc lying in the 20 hole read as 20s set aside" in loaded.note
    with pytest.raises(LabError, match="half: not a key of a crokinole board"):
        parse_text("x.json", json.dumps({**old, "half": "left"}), DECK)
    with pytest.raises(LabError, match=r"twenties\.light: must be a whole number"):
        parse_text("x.json", json.dumps({**old, "twenties": {"light": -1}}), DECK)


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"discs": [', "bad.json: not valid JSON"),
        ("[1, 2]", "bad.json: a board or scene must be a JSON object"),
        ('{"discs": [{"x": 0.5, "y": 0}]}', r"bad.json: discs\[0\] at x=.*0\.5.* is off the surface"),
        ('{"discs": [{"x": 0, "y": 0.1}, {"x": 0, "y": 0.11}]}', r"discs\[0\] and discs\[1\] overlap"),
        ('{"discs": [{"x": 0, "y": 0.1, "vy": 1}, {"x": 0, "y": -0.2, "vy": 1}]}', "one moving disc"),
        ('{"court": "nowhere", "discs": []}', "nowhere"),
        ('{"discs": [{"x": "a", "y": 0}]}', r"discs\[0\]\.x: must be a number"),
    ],
)
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


@pytest.mark.parametrize(
    "args, message",
    [
        (["--court", "no-such-court"], "no-such-court"),
        (["--end", "middle"], "has no end 'middle'"),
        (["--port", "70000"], "--port must be from 1 to 65535"),
    ],
)
def test_lab_command_refuses_bad_options_before_listening(capsys, args, message):
    assert main(["lab", "--no-browser", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shuffle-sim: error:") and message in err and len(err.splitlines()) == 1


class Page:
    """The lab's document driven as the page drives it: gesture rows and button events."""

    def __init__(self, court: str = "crokinole", end: str | None = None):
        from bokeh.document import Document

        from shuffle_sim.lab.app import LabOptions, make_document
        from shuffle_sim.lab.warmup import WarmUp

        ready = WarmUp(lambda: {}, cold=False).start()
        ready.ready.wait()
        self.doc = Document()
        make_document(LabOptions(court=court, end=end, warmup=ready))(self.doc)
        self.seq = 0

    def model(self, name: str):
        return self.doc.get_model_by_name(name)

    def gesture(self, kind: str, i: int = -1, x: float = 0.0, y: float = 0.0, x0: float = 0.0, y0: float = 0.0):
        self.seq += 1
        self.model("gesture").data = dict(kind=[kind], i=[i], x=[x], y=[y], x0=[x0], y0=[y0], seq=[self.seq])

    def on_disc(self, kind: str, i: int, **kw):
        d = self.model("discs").data
        self.gesture(kind, i, x0=d["x"][i], y0=d["y"][i], **kw)

    def click(self, name: str) -> None:
        from bokeh.events import ButtonClick

        self.doc.callbacks.trigger_event(ButtonClick(self.model(name)))  # as the server gets it

    def status(self) -> str:
        import html
        import re

        return html.unescape(re.sub(r"<[^>]+>", " ", self.model("message").text))


def test_the_page_places_drags_and_deletes_discs_and_says_why_not():
    page = Page()
    page.gesture("place", x=0.0, y=0.05)
    assert page.model("labels").data["text"] == ["15"]
    page.gesture("place", x=0.0, y=-0.2)
    assert page.model("labels").data["number"] == ["0", "1"]  # each disc's number, as messages and advice say it
    assert page.model("disc_numbers").glyph.text == "number"
    page.click("undo")
    page.gesture("place", x=0.5, y=0.0)
    assert "off the surface" in page.status() and list(page.model("discs").data["x"]) == [0.0]
    page.gesture("place", x=0.0, y=-0.2)
    page.on_disc("move", 1, x=0.0, y=0.055)  # dropped on disc 0
    assert "lies on disc 0" in page.status() and "put back" in page.status()
    assert list(page.model("discs").data["y"]) == [0.05, -0.2]
    page.gesture("move", 1, x=0.0, y=0.2, x0=0.0, y0=-0.19)  # the page saw another board
    assert "the board changed under the pointer" in page.status()
    page.on_disc("probe", 0, x=0.0, y=-0.13)
    assert page.model("labels").data["text"][0] == "10" and list(page.model("discs").data["y"]) == [0.05, -0.2]
    page.click("delete")
    assert "select a disc first" in page.status()
    page.on_disc("select", 1)
    assert page.model("discs").selected.indices == [1]
    page.click("delete")
    assert "select a disc first" not in page.status() and "disc 1 (light) deleted" in page.status()
    page.gesture("delete")
    assert "select a disc first" in page.status()
    page.on_disc("delete", 0)
    assert list(page.model("discs").data["x"]) == [] and "select a disc first" not in page.status()


def test_the_page_checks_fields_as_typed_and_clears_the_message_once_fixed():
    page = Page()
    speed = page.model("speed")
    speed.value_input = "99"
    assert "speed must be above 0.00, up to 1.97 m/s (got '99')" in page.status()
    assert speed.css_classes == ["lab-invalid"] and page.model("tip").data["x"] == []
    speed.value_input = "-1"
    assert "(got '-1')" in page.status() and page.model("aim_line").data["x1"] == []
    speed.value_input = "0.9"
    assert "speed" not in page.status() and speed.css_classes == [] and len(page.model("tip").data["x"]) == 1
    page.model("copies_n").value_input = "2.5"
    assert "noisy copies must be a whole number, 1 to 200,000 (got '2.5')" in page.status()
    page.model("copies_n").value_input = "300"
    assert "2.5" not in page.status()
    page.click("run_copies")
    assert "300 noisy copies played" in page.status() and "np." not in page.status()


def test_the_aim_keeps_its_tip_when_the_start_changes():
    page = Page()
    start = page.model("start_select")
    tip = dict(page.model("tip").data)
    assert tip["x"][0] == pytest.approx(0.0, abs=1e-9) and tip["y"][0] == pytest.approx(0.0, abs=1e-9)
    start.value = start.options[2]  # the north seat: the arrow still ends at the centre
    assert page.model("tip").data["x"][0] == pytest.approx(0.0, abs=1e-9)
    assert float(page.model("direction").value) == pytest.approx(-90.0)
    page.gesture("aim", x=0.05, y=0.1)
    page.model("start_slider").value = 0.2
    assert page.model("tip").data["x"][0] == pytest.approx(0.05) and page.model("tip").data["y"][0] == pytest.approx(
        0.1
    )
    page.gesture("aim", x=0.0, y=-5.0)  # beyond the longest slide: the arrow stops there, and says so
    assert "the arrow stops at the longest slide" in page.status()
    assert float(page.model("speed").value) == pytest.approx(max_speed(CROKINOLE), rel=1e-4)


def test_a_shot_shows_its_outcome_when_the_page_has_drawn_it_and_undo_and_clear_are_safe_meanwhile():
    page = Page()
    page.gesture("place", x=0.2, y=0.15)
    page.model("team_select").value = "dark"
    page.gesture("place", x=-0.2, y=0.15)
    page.model("team_select").value = "light"
    page.click("shoot")
    shot = page.model("anim").data["id"][0]
    assert page.model("shoot").disabled and "shot playing" in page.status()
    assert len(page.model("discs").data["x"]) == 2 and page.model("ghosts").data["x"] == []  # not yet
    page.click("shoot")
    assert "a shot is still playing" in page.status()
    page.gesture("shot_done", i=shot)
    assert not page.model("shoot").disabled and "the shot hit no opponent disc" in page.status()
    assert "shot played: 1 event, at rest after" in page.status()  # one event: the drop into the hole
    # The shot disc dropped into the 20 hole, but the hit rule removed it: it is not marked holed.
    assert page.model("ghosts").data["text"] == ["removed"] and len(page.model("paths").data["xs"]) == 3
    assert "20s set aside" not in page.model("score").text
    assert "holed" not in page.model("marks").data["kind"] and "into the hole" in page.model("marks").data["kind"]
    page.click("shoot")
    page.click("undo")  # during the animation
    assert not page.model("shoot").disabled and list(page.model("anim").data["t"]) == []
    assert page.model("marks").data["x"] == [] and page.model("paths").data["xs"] == []
    page.gesture("shot_done", i=page.model("anim").data["id"][0] if page.model("anim").data["id"] else 0)
    assert len(page.model("discs").data["x"]) == 2
    page.click("shoot")
    page.click("clear")
    assert list(page.model("discs").data["x"]) == [] and page.model("ghosts").data["x"] == []
    assert "20s set aside" not in page.model("score").text


def test_a_mode_is_always_on():
    page = Page()
    mode = page.model("mode")
    mode.active = None
    assert mode.active == 0 and "one mode is always on" in page.status()
    mode.active = 1
    page.gesture("empty", x=0.0, y=0.1)
    assert "clicks on empty court add nothing" in page.status() and page.model("discs").data["x"] == []


def test_a_saved_file_is_one_the_lab_reads_back():
    page = Page()
    page.gesture("place", x=0.1, y=0.0)
    page.click("save_board")
    saved = page.model("download").data
    assert saved["name"] == ["board.json"]
    assert parse_text("board.json", saved["text"][0], CROKINOLE).discs == [Disc(0.1, 0.0, "light")]
    page.click("save_board")
    assert page.model("download").data["n"] == [2]  # a second save is a second download
    page.model("speed").value_input = "x"
    page.click("save_scene")
    assert "cannot save the scene: speed must be a number" in page.status()


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


def test_advice_in_the_lab_is_the_shot_advisors_ranking_and_aim_this_loads_a_shot_exactly():
    """The lab's advice table ranks the shots as ``shuffle-sim advise`` does for the same board,
    shooter, position and skill preset; "Aim this" loads the row's launch."""
    from shuffle_sim.noise import skill_presets
    from shuffle_sim.playing.advisor import advise
    from shuffle_sim.playing.players import ExpectedValue, Player
    from shuffle_sim.rules.common import Board

    page = Page()
    page.model("team_select").value = "dark"
    page.gesture("place", x=0.02, y=0.06)
    page.gesture("place", x=-0.1, y=0.12)
    page.model("team_select").value = "light"
    skill = page.model("skill").value
    page.click("advise")
    table = page.model("advice_table").source.data
    preset = skill_presets("crokinole")[skill]
    board = Board(CROKINOLE, [0.02, -0.1], [0.06, 0.12], ("dark", "dark"))
    _, expected = advise(
        "crokinole", board, Player(preset.name, preset, ExpectedValue()), shooter="light", position="south"
    )
    assert "for light from south" in page.model("advice").text
    assert table["shot"] == [a.intent.label for a in expected[: len(table["shot"])]]
    assert table["expected"] == [f"{a.expected:+.2f}" for a in expected[: len(table["shot"])]]
    headings = [c.title for c in page.model("advice_table").columns]
    assert headings[:3] == ["#", "shot", "kind"] and "as meant" in headings
    assert "expected frame value" in page.model("advice_help").text
    page.model("advice_table").source.selected.indices = [1]
    page.click("aim_advised")
    launch = expected[1].launch
    assert "aimed: " + expected[1].intent.label in page.status()
    page.click("save_scene")  # the scene holds the aim the lab now plays: the launch, not its rounded text
    shot = json.loads(page.model("download").data["text"][0])["discs"][-1]
    assert (shot["x"], shot["y"], shot["omega"]) == (launch.x, launch.y, launch.omega)
    assert shot["vx"] == pytest.approx(launch.vx, rel=1e-12, abs=1e-15)
    assert shot["vy"] == pytest.approx(launch.vy, rel=1e-12, abs=1e-15)


def test_advice_columns_are_whatever_the_advisor_returns():
    from shuffle_sim.lab.advice import columns_of, format_value, meanings_html, table_data

    rows = [
        {
            "shot": "draw",
            "expected": 1.234,
            "success": 0.5,
            "win_probability": 0.61,
            "success_interval": [0.4, 0.6],
            "samples": 2000,
            "launch": {"x": 0.0},
        }
    ]
    cols = columns_of(rows)
    assert [c.key for c in cols] == ["shot", "expected", "success", "win_probability", "success_interval", "samples"]
    data = table_data(rows, cols)
    assert data == {
        "rank": ["1"],
        "shot": ["draw"],
        "expected": ["+1.23"],
        "success": ["50%"],
        "win_probability": ["0.61"],
        "success_interval": ["0.4-0.6"],
        "samples": ["2,000"],
    }
    assert "win probability" in meanings_html(cols) and "no description yet" in meanings_html(cols)
    assert format_value(None) == "-" and format_value(float("nan"), "percent") == "nan"


def test_every_column_the_advisor_returns_is_described_and_empty_ones_are_left_out():
    """The advisor's own rows: each key has a heading and a meaning in the lab's column table, and
    the win columns (None without a score) are not shown as a column of dashes."""
    from shuffle_sim.lab.advice import columns_of, known_columns
    from shuffle_sim.playing.advisor import Advice
    from shuffle_sim.playing.players import Launch, Open20

    row = Advice(Open20(), Launch(0.0, 0.0, -0.3, 0.0, 1.0), -1.0, 0.5, 0.2, 0.0, 100, 0.4, 0.6).to_dict()
    assert set(row) <= set(known_columns())
    shown = [c.key for c in columns_of([row])]
    assert "success_low" in shown and "win" not in shown and "launch" not in shown
    assert "win_samples" not in shown  # no column that is always 0 (no rollouts without a score)
    with_score = columns_of([{**row, "win": 0.55, "win_low": 0.5, "win_high": 0.6, "win_samples": 64}])
    assert {"win", "win_low", "win_high", "win_samples"} <= {c.key for c in with_score}


def test_the_shot_discs_outcome_is_what_it_scores_in_the_frame():
    """A ricochet bank that stays: the copies' outcome is what the frame score gives the shot disc
    (found by where it rests), the same for the exact copies as for the shot."""
    from shuffle_sim.lab.copies import shot_outcome
    from shuffle_sim.lab.referee import frame_score
    from shuffle_sim.playing.advisor import advice_context
    from shuffle_sim.rules.common import Board

    court = load_court("ricochet")
    board = LabBoard(court)
    for x, y, team in ((0.15, 0.45, "red"), (0.25, 0.12, "blue")):  # blue holds the round: a bank to the 3
        board.place(x, y, team)
    ctx = advice_context("ricochet", Board(court, board.xs, board.ys, tuple(board.teams)), "blue", "left")
    launch = ctx.tactics.plan(ctx).aim(ctx)
    aim = Aim(
        launch.x,
        launch.y,
        math.hypot(launch.vx, launch.vy),
        math.degrees(math.atan2(launch.vy, launch.vx)),
        launch.omega,
        "blue",
    )
    played = play_shot(board, aim)
    frame = frame_score(court, played.after.discs, played.after)
    rest = played.after.discs[-1]
    worth = next(d.value for d in frame.discs if (d.x, d.y) == (rest.x, rest.y))
    assert 2 not in played.ruling.why and shot_outcome(played.ruling, frame, 2) == f"stays, scores {worth}"
    assert noisy_copies(board, aim, NoiseModel(), 3).outcome == {f"stays, scores {worth}": 1.0}


def test_an_advised_deck_shot_at_the_head_end_is_turned_to_the_head():
    """The advisor plans deck shots toward the foot; at the head end "Aim this" turns them round: the
    shot starts on the foot 10-off area and runs toward the head."""
    page = Page("deck", end="head")
    page.gesture("place", x=0.0, y=4.6)
    page.model("team_select").value = "black"
    page.click("advise")
    assert page.model("advice_table").source.data["shot"]
    page.model("advice_table").source.selected.indices = [0]
    page.click("aim_advised")
    page.click("save_scene")
    shot = json.loads(page.model("download").data["text"][0])["discs"][-1]
    head = load_court("deck").for_end("head")
    assert any(
        math.hypot(*(a - b for a, b in zip(s.point(s.nearest(shot["x"], shot["y"])), (shot["x"], shot["y"])))) < 1e-9
        for s in legal_starts(head)
    )
    assert shot["y"] > 10.0 and shot["vy"] < 0.0


def test_another_end_keeps_the_frame_and_another_court_starts_afresh():
    page = Page("deck")
    page.gesture("place", x=0.0, y=12.0)
    page.model("end_select").value = "head"
    assert page.model("court").title.text.endswith("(scoring end: head)")
    assert list(page.model("discs").data["y"]) == [12.0] and page.model("view_select").value == "head end"
    page.model("court_select").value = "crokinole"
    assert page.model("court").title.text.startswith("Crokinole") and list(page.model("discs").data["x"]) == []


def test_a_message_and_its_fields_outline_agree_and_go_together():
    """A refusal caused by a field stays while the field is bad, across other actions, and goes with
    the field's red outline the moment the field is fixed."""
    page = Page()
    speed = page.model("speed")
    speed.value_input = "99"
    page.click("shoot")
    assert "fix the shot first: speed must be" in page.status()
    page.gesture("place", x=0.0, y=0.1)  # another action succeeds: the speed is still bad
    assert "fix the shot first" in page.status() and speed.css_classes == ["lab-invalid"]
    speed.value_input = "0.9"
    assert "speed" not in page.status() and speed.css_classes == []
    copies = page.model("copies_n")
    copies.value_input = "0"
    page.click("run_copies")
    page.gesture("place", x=0.0, y=-0.1)
    assert "noisy copies must be" in page.status() and copies.css_classes == ["lab-invalid"]
    copies.value_input = "20"
    assert "noisy copies must be" not in page.status() and copies.css_classes == []


def test_a_bad_surface_field_stays_red_with_its_message_until_fixed():
    page = Page("deck")
    grade = page.model("grade_x")
    grade.value = "steep"
    assert "grade x must be a grade" in page.status() and grade.css_classes == ["lab-invalid"]
    page.gesture("place", x=0.0, y=12.0)  # the next action: the field is still bad, and says so
    assert "grade x must be a grade" in page.status() and grade.css_classes == ["lab-invalid"]
    crown = page.model("crown")
    crown.value = "a lot"
    assert "crown" in page.status() and crown.css_classes == ["lab-invalid"]
    crown.value = ""
    assert "crown" not in page.status() and crown.css_classes == [] and grade.css_classes == ["lab-invalid"]
    grade.value = ""
    assert "grade x" not in page.status() and grade.css_classes == []


def test_the_density_map_goes_when_the_aim_changes():
    page = Page()
    page.model("copies_n").value_input = "200"
    page.click("run_copies")
    assert page.model("density").data["image"] and page.model("density_legend").visible
    page.model("direction").value_input = "95"
    assert not page.model("density").data["image"] and not page.model("density_legend").visible
    assert "the aim changed" in page.model("copies").text
