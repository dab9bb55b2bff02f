"""The shot lab as players use it, in Chromium: every gesture does what it shows or says why not,
the game's rules apply after every shot, messages go when their cause is fixed, results stay in view.

Fixtures (one lab server, one browser, a page per test) are in ``conftest``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from shuffle_sim.lab.browser import LabPage

from .conftest import crowded_board


def _press(lab, x, y):
    lab.page.mouse.move(*lab.to_page(x, y))
    lab.page.mouse.down()


def _shot_done(lab, before: int) -> None:
    lab.wait_for(f"(window.labAnimationsDone || 0) > {before}")
    lab.wait_for("!labModel('shoot').disabled")
    lab.settle()


def _shoot(lab) -> None:
    before = lab.page.evaluate("() => window.labAnimationsDone || 0")
    lab.click_button("Shoot")
    _shot_done(lab, before)


def test_a_quick_second_click_places_a_second_disc_and_a_click_on_a_disc_selects_it(page):
    lab = page("crokinole")
    spots = ((0.0, 0.05), (0.0, 0.14), (0.0, -0.24), (0.17, 0.0))
    for x, y in spots:  # 80 ms apart: inside Bokeh's 300 ms "double tap"
        lab.page.mouse.click(*lab.to_page(x, y))
        lab.page.wait_for_timeout(80)
    lab.wait_for("labModel('discs').data.x.length == 4")
    lab.page.mouse.click(*lab.to_page(0.0, 0.14))
    lab.page.wait_for_timeout(80)
    lab.page.mouse.click(*lab.to_page(0.0, 0.14))
    lab.wait_for("labModel('discs').selected.indices.length == 1")
    lab.settle(0.5)
    assert len(lab.model("discs", "data")["x"]) == 4 and lab.page.evaluate(
        "() => Array.from(labModel('discs').selected.indices)"
    ) == [1]
    assert lab.model("labels", "data")["text"] == ["15", "10", "5", "10"]


def test_a_disc_pressed_and_held_before_the_drag_moves_with_its_value_live(page):
    lab = page("crokinole")
    lab.click_at(0.0, -0.13)  # the 10 ring
    (px, py), (qx, qy) = lab.to_page(0.0, -0.13), lab.to_page(0.0, -0.04)
    mouse = lab.page.mouse
    mouse.move(px, py)
    mouse.down()
    lab.page.wait_for_timeout(600)  # held longer than Bokeh's 300 ms "press"
    seen = []
    for k in range(1, 13):
        mouse.move(px + (qx - px) * k / 12, py + (qy - py) * k / 12)
        lab.page.wait_for_timeout(60)
        seen.append(lab.model("labels", "data")["text"][0])
    mouse.up()
    lab.wait_for("labModel('labels').data.text[0] == '15' && labModel('discs').data.y[0] > -0.05")
    assert lab.model("discs", "data")["y"] == pytest.approx([-0.04], abs=0.004)
    assert lab.model("labels", "data")["text"] == ["15"] and "15" in seen and "10" in seen
    assert "error" not in lab.message()


def test_delete_and_backspace_delete_the_selected_disc_and_say_why_when_none_is(page):
    lab = page("crokinole")
    for x, y in ((0.0, 0.05), (0.0, -0.14), (0.15, 0.0)):
        lab.click_at(x, y)
    lab.click_at(0.0, -0.14)  # selects it
    lab.page.keyboard.press("Delete")
    lab.wait_for("labModel('discs').data.x.length == 2")
    lab.click_at(0.15, 0.0)
    lab.page.keyboard.press("Backspace")
    lab.wait_for("labModel('discs').data.x.length == 1")
    assert "disc 1 (light) deleted" in lab.wait_message(
        "disc 1 (light) deleted"
    )  # the board and the status arrive apart
    lab.page.keyboard.press("Delete")
    assert "select a disc first" in lab.wait_message("select a disc first")
    lab.click_at(0.0, 0.05)
    lab.click_button("Delete disc")
    said = lab.wait_message("disc 0 (light) deleted")
    lab.wait_for("labModel('discs').data.x.length == 0")
    assert "select a disc first" not in said  # no stale message


def test_the_mode_cannot_be_switched_off_and_each_mode_does_what_it_says(page):
    lab = page("crokinole")
    buttons = lab.page.get_by_role("button", name="Place discs", exact=True)
    buttons.click()
    buttons.click()  # clicking the active mode leaves it on
    lab.settle()
    assert lab.model("mode", "active") == 0
    lab.page.get_by_role("button", name="Move discs", exact=True).click()
    lab.wait_message("Move discs:")
    lab.click_at(0.0, 0.1)
    assert "clicks on empty court add nothing" in lab.wait_message("add nothing")
    assert lab.model("discs", "data")["x"] == []
    lab.page.get_by_role("button", name="Aim", exact=True).click()
    lab.wait_message("Aim: press or drag")
    lab.drag((0.0, 0.0), (0.05, 0.1))
    lab.wait_for("Math.abs(labModel('tip').data.x[0] - 0.05) < 0.004")
    tip = lab.model("tip", "data")
    assert tip["x"] == pytest.approx([0.05], abs=0.004) and tip["y"] == pytest.approx([0.1], abs=0.004)
    start = lab.model("start_point", "data")
    assert float(lab.model("direction", "value")) == pytest.approx(
        __import__("math").degrees(__import__("math").atan2(0.1 - start["y"][0], 0.05 - start["x"][0])), abs=0.5
    )
    assert lab.model("discs", "data")["x"] == []  # the aim moves no disc


def test_fields_are_checked_as_typed_and_the_message_goes_when_fixed(page):
    lab = page("crokinole")
    field = lab.page.get_by_label("Speed, m/s (up to 1.97)")
    field.fill("")
    field.type("99")
    assert "speed must be above 0.00, up to 1.97 m/s (got '99')" in lab.wait_message("(got '99')")
    assert lab.model("speed", "css_classes") == ["lab-invalid"] and lab.model("aim_line", "data")["x1"] == []
    field.fill("-1")
    lab.wait_message("(got '-1')")
    assert lab.model("tip", "data")["x"] == []
    field.fill("0.9")
    said = lab.wait_message("speed must", present=False)
    assert "speed" not in said and lab.model("speed", "css_classes") == []
    assert len(lab.model("aim_line", "data")["x1"]) == 1
    copies = lab.page.get_by_label("Noisy copies (1-200,000)")
    copies.fill("2.5")
    assert "(got '2.5')" in lab.wait_message("(got '2.5')")
    copies.fill("2000")
    lab.wait_message("2.5", present=False)
    lab.page.evaluate("() => { window.labDensityReceived = null; }")
    lab.click_button("Run noisy copies")
    lab.wait_for("window.labDensityReceived != null")
    said = lab.wait_message("2,000 noisy copies played")
    assert "2.5" not in said and "np." not in said


def _open_twenty_page(lab):
    lab.set_value("playback", "8")
    lab.settle()


def test_two_twenties_in_a_row_are_set_aside_counted_and_saved_as_a_board_that_reads_back(page, tmp_path):
    lab = page("crokinole")
    lab.click_at(0.15, 0.0)
    _open_twenty_page(lab)
    for k in (1, 2):
        _shoot(lab)  # the lab's first aim: straight to the 20 hole
        assert f"20s set aside: light {k}" in lab.model("score", "text")
        assert lab.model("ghosts", "data")["text"] == ["holed"]
        assert len(lab.model("discs", "data")["x"]) == 1  # no disc left on the 20
        assert "in the 20 hole: 20, removed at once" in lab.message()
    assert "light 50" in lab.model("score", "text")
    with lab.page.expect_download() as download:
        lab.click_button("Save board")
    path = tmp_path / "board.json"
    download.value.save_as(path)
    assert json.loads(path.read_text())["twenties"] == {"light": 2}
    scored = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "score", "crokinole", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert json.loads(scored.stdout)["scores"] == {"light": 50}
    before = lab.court_id()
    lab.page.locator("input[type=file]").set_input_files(str(path))
    lab.wait_rebuilt(before)
    assert "loaded board" in lab.message()
    assert "20s set aside: light 2" in lab.model("score", "text") and "light 50" in lab.model("score", "text")


def test_the_hit_rule_takes_off_a_miss_on_a_crowded_board_and_says_why(page):
    lab = page("crokinole")
    crowded_board(lab)
    _open_twenty_page(lab)
    _shoot(lab)  # straight up the middle: through the light disc at (0, -0.16), nowhere near the dark one
    said = lab.message()
    assert "the shot hit no opponent disc: removed" in said
    assert "moved by a shot that hit no opponent disc: removed" in said
    score = lab.model("score", "text")
    assert "What the rules did" in score and "foul: hit no opponent disc" in score
    discs = lab.model("discs", "data")
    assert sorted(discs["team"]) == ["dark", "light", "light"] and len(lab.model("ghosts", "data")["x"]) == 2


def test_shoot_is_disabled_while_a_shot_plays_and_undo_and_clear_are_safe_meanwhile(page):
    lab = page("deck")
    lab.click_at(0.0, 11.2)
    lab.set_value("playback", "0.5")
    lab.settle()
    lab.click_button("Shoot")
    lab.wait_for("window.shuffleLab.playing")
    assert lab.model("shoot", "disabled")  # it reaches the page before the animation does
    shot = lab.model("anim", "data")["id"][0]
    lab.page.get_by_role("button", name="Shoot", exact=True).click(force=True)  # a disabled button: nothing
    lab.settle(0.5)
    assert lab.model("anim", "data")["id"][0] == shot and lab.page.evaluate("() => window.shuffleLab.playing")
    assert lab.model("discs", "data")["y"] == pytest.approx([11.2], abs=0.01)  # the board before the shot, still
    lab.click_button("Undo")
    lab.wait_message("board restored")
    assert not lab.page.evaluate("() => window.shuffleLab.playing") and not lab.model("shoot", "disabled")
    assert lab.model("marks", "data")["x"] == [] and lab.model("paths", "data")["xs"] == []
    assert lab.model("discs", "data")["y"] == pytest.approx([11.2], abs=0.01)
    lab.page.wait_for_timeout(400)  # an old animation would still be writing marks now
    assert lab.page.evaluate("() => window.shuffleLab.playing") is False
    lab.click_button("Shoot")
    lab.wait_for("window.shuffleLab.playing")
    lab.click_button("Clear board")
    lab.wait_message("board cleared")
    assert not lab.page.evaluate("() => window.shuffleLab.playing") and lab.model("discs", "data")["x"] == []
    assert lab.model("marks", "data")["x"] == [] and lab.model("ghosts", "data")["x"] == []
    assert not lab.model("shoot", "disabled")
    before = lab.page.evaluate("() => window.labAnimationsDone || 0")
    lab.set_value("playback", "8")
    lab.settle()
    lab.click_button("Shoot")  # and a shot plays to its end as usual
    _shot_done(lab, before)


def test_the_deck_opens_on_its_scoring_end_and_the_view_follows_a_shot(page):
    lab = page("deck")
    assert lab.model("view_select", "value") == "foot end"
    (ax, _), (bx, _) = lab.to_page(0.0, 12.0), lab.to_page(0.1524, 12.0)
    assert bx - ax >= 16  # a disc is at least 16 px across
    home = lab.page.evaluate("() => [labModel('court').y_range.start, labModel('court').y_range.end]")
    lab.set_value("playback", "2")
    lab.settle()
    lab.click_button("Shoot")
    lab.wait_for("window.shuffleLab.playing")
    lab.page.wait_for_timeout(700)
    during = lab.page.evaluate("() => labModel('court').y_range.start")
    assert during < home[0] - 3.0  # the view went up the court with the disc
    lab.wait_for("(window.labAnimationsDone || 0) >= 1")
    lab.settle()
    assert lab.page.evaluate("() => [labModel('court').y_range.start, labModel('court').y_range.end]") == pytest.approx(
        home
    )


def test_results_and_advice_sit_beside_the_court_in_a_1000_px_window(page):
    lab = page("crokinole", width=1000, height=900)
    assert lab.page.evaluate("() => document.documentElement.scrollWidth") <= 1000
    box = (
        "(name) => { const r = Bokeh.index.find_one(labModel(name)).el.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top}; }"
    )
    figure, results, shoot = (lab.page.evaluate(box, name) for name in ("court", "results", "shoot"))
    assert results["left"] >= figure["right"] - 1 and results["top"] < 800  # beside the court, in view
    assert shoot["right"] <= 1000 and shoot["left"] >= figure["right"] - 1
    lab.set_value("team_select", "dark")
    lab.settle()
    lab.click_at(0.02, 0.06)
    lab.set_value("team_select", "light")
    lab.settle()
    lab.click_button("Advise: rank the shots")
    lab.wait_for("labModel('advice_table').visible", timeout=120)
    lab.settle()
    help_text = lab.model("advice_help", "text")
    for column in ("expected", "success", "spread", "as meant"):
        assert f"<b>{column}</b>" in help_text
    shots = lab.page.evaluate(
        "() => { const d = labModel('advice_table').source.data;"
        " return Array.from(d instanceof Map ? d.get('shot') : d.shot); }"
    )
    lab.page.get_by_text(shots[0], exact=True).click()
    lab.wait_for("!labModel('aim_advised').disabled")
    lab.click_button("Aim this (selected row)")
    assert f"aimed: {shots[0]}" in lab.wait_message("aimed:")


def test_the_page_says_compiling_with_progress_until_the_kernels_are_ready(browser):
    """A server whose warm-up is held at its second step: the page says so, then becomes the lab."""
    from shuffle_sim.lab.browser import thread_server
    from shuffle_sim.lab.warmup import BOARD, COMPILING, WarmUp

    release = threading.Event()
    steps = [("judging a disc", lambda: None), ("a shot", release.wait)]
    warmup = WarmUp(lambda: {BOARD: steps}, say=lambda line: None, cold=True)
    with thread_server("crokinole", warmup) as url:
        page = browser.new_page()
        try:
            warmup.start()
            page.goto(url)
            said = (
                "() => { const m = window.Bokeh && Bokeh.documents.length ? Bokeh.documents[0]"
                ".get_model_by_name('message') : null; return m == null ? '' : m.text; }"
            )
            page.wait_for_function(f"() => ({said})().includes('(a shot)')", timeout=60_000)
            text = page.evaluate(said)
            assert COMPILING in text and "0 of 1 groups ready (a shot)" in text and "s so far" in text
            release.set()
            page.wait_for_function(
                "() => window.Bokeh && Bokeh.documents.length > 0"
                " && Bokeh.documents[0].get_model_by_name('court') != null",
                timeout=60_000,
            )
        finally:
            release.set()
            page.close()


def test_every_court_fits_a_1000_px_wide_window(server, browser):
    for court in ("deck", "horse-collar", "ricochet"):
        lab = LabPage(browser, server[0], court=court, width=1000, height=900)
        try:
            assert lab.page.evaluate("() => document.documentElement.scrollWidth") <= 1000, court
            assert not lab.errors
        finally:
            lab.close()
