"""The shot lab in a real browser on a graded court: the grade field builds the court again, taken
in place with its relief drawn, and a shot's path on the page curves with the grade; on a first run the grade waits for
its kernels, saying so, and loses nothing typed or clicked meanwhile (fixtures in ``conftest``)."""

from __future__ import annotations

import math
import threading


def test_a_grade_draws_the_surface_and_the_shot_curves(page):
    lab = page("deck")
    old = lab.court_id()
    lab.set_value("grade_x", "1 in 1000")
    lab.wait_message("court parameters applied")
    assert lab.court_id() == old  # the same page, its court taken in place
    assert lab.page.evaluate("() => labModel('relief').data.image.length") == 1
    arrows = lab.model("grade_arrows", "data")
    assert len(arrows["gx"]) > 10 and all(x1 > x0 for x0, x1 in zip(arrows["x0"], arrows["x1"]))
    aim = lab.model("aim_path", "data")
    assert len(aim["x"]) > 50
    lab.set_value("playback", "8")
    lab.settle()
    lab.click_button("Shoot")
    lab.wait_for("(window.labAnimationsDone || 0) >= 1")
    lab.wait_for("(labModel('paths').data.xs || []).length >= 1")
    paths = lab.model("paths", "data")
    xs, ys = paths["xs"][-1], paths["ys"][-1]  # the shot disc is the last
    rest = lab.page.evaluate("() => window.labLastRest")
    assert (xs[-1], ys[-1]) == (rest["x"][-1], rest["y"][-1])
    span = math.hypot(xs[-1] - xs[0], ys[-1] - ys[0])
    off_chord = max(abs((x - xs[0]) * (ys[-1] - ys[0]) - (y - ys[0]) * (xs[-1] - xs[0])) / span for x, y in zip(xs, ys))
    assert xs[-1] > xs[0] and off_chord > 0.005  # drifted toward +x along a curve
    assert aim["x"][-1] == rest["x"][-1] and aim["y"][-1] == rest["y"][-1]  # the aim's path foretold it


def test_a_grade_waits_for_its_kernels_saying_so_and_nothing_typed_or_clicked_meanwhile_is_lost(browser):
    """The surface kernels held back as on a first run: the grade is drawn at once and its predicted
    path says it waits; Shoot, then a crown typed, wait in order and both happen once the kernels
    are ready (the shot on the graded court, then the crown)."""
    from shuffle_sim.lab.browser import LabPage, thread_server
    from shuffle_sim.lab.warmup import SURFACE, WarmUp, lab_groups

    release = threading.Event()

    def groups():
        steps = lab_groups("deck", None)
        steps[SURFACE] = [("held back by the test", release.wait), *steps[SURFACE]]
        return steps

    warmup = WarmUp(groups, say=lambda line: None)
    with thread_server("deck", warmup) as url:
        warmup.start()
        try:
            lab = LabPage(browser, url, court="deck")
            lab.set_value("grade_x", "1 in 1000")
            lab.wait_message("the predicted path waits for the kernels of a graded or crowned court")
            assert len(lab.model("grade_arrows", "data")["gx"]) > 10 and lab.model("aim_path", "data")["x"] == []
            lab.set_value("playback", "8")
            lab.settle()
            lab.click_button("Shoot")
            lab.wait_message("Shoot waits for the kernels of a graded or crowned court")
            lab.set_value("crown", "1/32 in")
            lab.wait_message("1 more action after it")
            release.set()
            lab.wait_message("waits", present=False, timeout=300)
            # The shot played first (its animation cut short by the crown that came next, as a press on
            # the court during an animation does), then the crown.
            lab.wait_for("labModel('paths').data.xs.length == 1")
            assert lab.model("crown", "value") == "1/32 in" and lab.model("grade_x", "value") == "1 in 1000"
            assert "height above the mean" in lab.page.evaluate("() => labModel('relief_legend').title")
            lab.wait_for("labModel('aim_path').data.x.length > 50", 120)
            assert "shots this frame: 1" in lab.model("score", "text")
            assert not lab.errors
            lab.close()
        finally:
            release.set()
