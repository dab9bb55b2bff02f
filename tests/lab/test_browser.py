"""The shot lab in a real browser: Debian's Chromium driven by Playwright, against ``shuffle-sim lab``
(fixtures in ``conftest``). What the page shows is checked against the command line: disc values
against ``shuffle-sim judge``, a shot's rest positions against ``shuffle-sim simulate``, a saved
board against ``shuffle-sim score``.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shuffle_sim.lab.browser import LabPage, lab_server


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shuffle_sim.cli", *args], capture_output=True, text=True, check=False)


def test_page_loads_without_console_errors(page):
    for court in ("crokinole", "deck"):
        lab = page(court)
        title = lab.page.evaluate("() => labModel('court').title.text")
        assert title.startswith(("Crokinole", "Deck"))
        assert "Frame score" in lab.model("score", "text")
        assert lab.errors == []


def test_clicked_discs_show_the_values_shuffle_sim_judge_gives(page):
    lab = page("crokinole")
    for x, y in ((0.0, 0.05), (0.0, 0.14), (0.0, -0.24), (0.17, 0.0)):
        lab.click_at(x, y)
    lab.wait_for("labModel('labels').data.text.length == 4")
    discs = lab.model("discs", "data")
    labels = lab.model("labels", "data")["text"]
    assert len(discs["x"]) == 4
    args = [arg for x, y in zip(discs["x"], discs["y"]) for arg in ("--disc", f"{x!r},{y!r}")]
    judged = json.loads(cli("judge", "crokinole", "--json", *args).stdout)["discs"]
    expected = ["dead" if r["dead"] else f"{r['value']}{' H' if r['hanger'] else ''}" for r in judged]
    assert labels == expected
    assert sorted({r["value"] for r in judged}) == [5, 10, 15]  # the clicks landed in three zones
    table = lab.model("judgement", "text")
    for k, r in enumerate(judged):
        assert f'data-index="{k}" data-value="{r["value"]}"' in table


def test_dragging_a_disc_across_a_line_changes_its_value_live(page):
    lab = page("crokinole")
    lab.click_at(0.0, -0.11)  # the 10 ring
    lab.wait_for("labModel('labels').data.text.length == 1")
    assert lab.model("labels", "data")["text"] == ["10"]
    seen = []
    lab.drag((0.0, -0.11), (0.0, -0.05), during=lambda k: seen.append(lab.model("labels", "data")["text"][0]))
    lab.wait_for("labModel('discs').data.y[0] > -0.07")  # the move, judged by the server
    assert lab.model("labels", "data")["text"] == ["15"]
    assert "15" in seen  # the label changed while the mouse button was still down
    y = lab.model("discs", "data")["y"][0]
    assert y == pytest.approx(-0.05, abs=0.01)
    assert "crokinole rules" in lab.model("score", "text") and "15" in lab.model("score", "text")


def test_shot_animation_ends_at_the_rest_positions_of_shuffle_sim_simulate(page, tmp_path):
    lab = page("crokinole")
    lab.click_at(0.0, 0.06)
    lab.click_at(0.05, 0.17)
    lab.set_value("speed", "1.3")
    lab.set_value("direction", "91")
    lab.set_value("spin", "2")
    lab.set_value("playback", "8")
    lab.settle()
    with lab.page.expect_download() as download:
        lab.click_button("Save scene")
    path = tmp_path / "scene.json"
    download.value.save_as(path)
    scene = path.read_text()
    simulated = json.loads(cli("simulate", str(path), "--json").stdout)
    lab.click_button("Shoot")
    lab.wait_for("(window.labAnimationsDone || 0) >= 1")
    rest = lab.page.evaluate("() => window.labLastRest")
    assert len(rest["x"]) == len(simulated["discs"]) == 3
    for k, disc in enumerate(simulated["discs"]):
        assert rest["x"][k] == pytest.approx(disc["x"], abs=1e-12)
        assert rest["y"][k] == pytest.approx(disc["y"], abs=1e-12)
    before = json.loads(scene)["discs"][0]
    after = simulated["discs"][0]
    assert math.hypot(after["x"] - before["x"], after["y"] - before["y"]) > 0.01  # the shot hit the first disc
    marks = lab.model("marks", "data")
    assert "impact" in marks["kind"] and all(a == 1.0 for a in marks["alpha"])
    lab.click_button("Undo")
    lab.wait_message("board restored")
    assert len(lab.model("discs", "data")["x"]) == 2


def test_noisy_copies_draw_the_density_and_the_outcomes(page):
    lab = page("crokinole")
    lab.click_at(0.0, 0.1)
    lab.page.evaluate("() => { window.labDensityReceived = null; }")
    lab.click_button("Run noisy copies")
    lab.wait_for("window.labDensityReceived != null")
    image = lab.page.evaluate("() => Array.from(labModel('density').data.image[0])")
    cells = [v for v in image if v == v]  # NaN where no copy rested: each cell's share of the copies
    # Copies that fell or dropped into the 20 hole rest nowhere on the map: a few in 10,000 here.
    assert cells and 0.99 < sum(cells) <= 1.0 + 1e-9 and len(cells) > 20
    assert lab.model("density_legend", "visible") and lab.page.evaluate(
        "() => labModel('density_legend').color_mapper.high"
    ) == pytest.approx(max(cells))
    text = lab.model("copies", "text")
    assert "10,000</span> copies" in text and "frame score after the shot" in text
    assert lab.page.evaluate("() => labModel('results').active") == 2  # the copies' tab is in front


def test_bad_input_shows_a_message_and_the_server_keeps_running(page, server, tmp_path):
    lab = page("crokinole")
    bad = tmp_path / "board.json"
    bad.write_text('{"court": "crokinole", "discs": [{"x": 0.0, "y": ')
    lab.page.locator("input[type=file]").set_input_files(str(bad))
    lab.wait_for("labModel('message').text.includes('not valid JSON')")
    assert "board.json" in lab.message() and "Traceback" not in lab.message()

    lab.click_at(0.36, 0.36)  # beyond the ditch: off the surface
    assert "not valid JSON" not in lab.wait_message("off the surface")
    assert lab.model("discs", "data")["x"] == []

    lab.click_at(0.0, 0.1)
    lab.click_at(0.0, -0.2)
    lab.drag((0.0, -0.2), (0.0, 0.11))  # dropped on the first disc
    said = lab.wait_message("put back")
    assert "disc 1" in said and "lies on disc 0" in said
    assert lab.model("discs", "data")["y"] == pytest.approx([0.1, -0.2], abs=0.003)

    lab.set_value("speed", "500")
    assert "speed must be above 0.00, up to 1.97 m/s (got '500')" in lab.wait_message("(got '500')")
    lab.click_button("Shoot")
    assert "fix the shot first: speed must be" in lab.wait_message("fix the shot first")

    assert server[1].poll() is None  # the server runs on
    lab.click_at(0.15, 0.0)
    lab.wait_for("labModel('discs').data.x.length == 3")


def test_upload_of_a_scene_restores_the_board_and_the_shot(page, tmp_path):
    lab = page("crokinole")
    scene = {
        "court": "crokinole",
        "discs": [{"x": 0.0, "y": 0.12, "team": "dark"}, {"x": 0.0, "y": -0.3048, "vy": 1.2, "team": "light"}],
    }
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    before = lab.court_id()
    lab.page.locator("input[type=file]").set_input_files(str(path))
    lab.wait_rebuilt(before)
    assert lab.message().endswith("loaded scene (board and shot) from scene.json: 1 resting disc")
    assert lab.model("discs", "data")["y"] == [0.12]
    assert float(lab.model("speed", "value")) == pytest.approx(1.2)
    assert float(lab.model("direction", "value")) == pytest.approx(90.0)


def test_latency_is_measured_from_the_browser(server, browser):
    from shuffle_sim.lab.latency import measure

    lab = LabPage(browser, server[0], court="crokinole")
    try:
        result = measure(lab, values=2, shots=2, copies=1, n_copies=10_000, grades=1)
    finally:
        lab.close()
    print(f"\nlab latency: {result}")
    assert 0 < result["value_median_s"] < 30 and 0 < result["shot_median_s"] < 30
    assert 0 < result["copies_median_s"] < 30 and 0 < result["grade_median_s"] < 30


def test_screenshot_script_writes_one_picture_per_court(server, browser, tmp_path):
    from shuffle_sim.lab.screenshots import COURTS, make_screenshots

    paths = make_screenshots(tmp_path, copies=2000, browser=browser, url=server[0])
    assert [p.name for p in paths] == [f"lab-{c}.png" for c in COURTS]
    for p in paths:
        data = p.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_saved_board_is_read_by_shuffle_sim_score(page, tmp_path):
    lab = page("crokinole")
    lab.click_at(0.0, 0.05)
    lab.click_at(0.0, -0.14)
    with lab.page.expect_download() as download:
        lab.click_button("Save board")
    path = tmp_path / "board.json"
    download.value.save_as(path)
    scored = cli("score", "crokinole", str(path), "--json")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["scores"] == {"light": 25}
    assert "light 25" in lab.model("score", "text")


def test_the_other_scoring_end_is_judged_as_shuffle_sim_judge_judges_it(page):
    lab = page("deck")
    before = lab.court_id()
    lab.set_value("end_select", "head")
    lab.wait_rebuilt(before)
    assert "scoring end: head" in lab.page.evaluate("() => labModel('court').title.text")
    assert lab.model("view_select", "value") == "head end"  # the deck opens on the end being shot at
    for x, y in ((0.0, 4.5), (-0.2, 3.6)):
        lab.click_at(x, y)
    lab.wait_for("labModel('labels').data.text.length == 2")
    discs = lab.model("discs", "data")
    args = [arg for x, y in zip(discs["x"], discs["y"]) for arg in ("--disc", f"{x!r},{y!r}")]
    judged = json.loads(cli("judge", "deck", "--end", "head", "--json", *args).stdout)["discs"]
    assert lab.model("labels", "data")["text"] == [str(r["value"]) for r in judged]
    assert [r["value"] for r in judged] == [10, 8]
    assert lab.model("start_select", "value").startswith("foot 10-off")


def test_a_selected_disc_is_deleted_and_undo_brings_it_back(page):
    lab = page("crokinole")
    lab.click_at(0.0, 0.05)
    lab.click_at(0.0, -0.14)
    lab.click_at(0.0, -0.14)  # a click on a disc selects it
    lab.wait_for("labModel('discs').selected.indices.length == 1")
    lab.click_button("Delete disc")
    lab.wait_message("disc 1 (light) deleted")
    assert lab.model("discs", "data")["y"] == pytest.approx([0.05], abs=0.003)
    assert lab.model("labels", "data")["text"] == ["15"]
    lab.click_button("Undo")
    lab.wait_message("board restored")
    assert lab.model("discs", "data")["y"] == pytest.approx([0.05, -0.14], abs=0.003)


def test_a_page_the_lab_replaces_as_it_loads_still_takes_the_pointer(browser):
    """The page's session starts on the waiting page; the warm-up ends at once and the lab replaces
    it while the page's scripts are held back, so the page's first view of its document is the lab
    (without the waiting page's models). The court must still answer the pointer."""

    def hold_scripts(page):
        def held(route):
            time.sleep(2.0)
            route.continue_()

        page.route("**/static/js/bokeh.min.js*", held)

    waiting_server = [sys.executable, str(Path(__file__).with_name("waiting_server.py"))]
    with lab_server("crokinole", command=waiting_server) as (url, _):
        lab = LabPage(browser, url, court="crokinole", before_load=hold_scripts, ready_timeout=60)
        lab.click_at(0.0, 0.05)
        lab.wait_for("labModel('labels').data.text.length == 1")
        assert lab.errors == []
        lab.close()
