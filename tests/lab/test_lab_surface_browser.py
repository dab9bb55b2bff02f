"""The shot lab in a real browser on a graded court: the grade field rebuilds the court with its
relief drawn, and a shot's path on the page curves with the grade (fixtures in ``conftest``)."""

from __future__ import annotations

import math


def test_a_grade_draws_the_surface_and_the_shot_curves(page):
    lab = page("deck")
    old = lab.court_id()
    lab.set_value("grade_x", "1 in 1000")
    lab.wait_rebuilt(old)
    assert "court parameters applied" in lab.message()
    assert lab.page.evaluate("() => labModel('relief') != null")
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
