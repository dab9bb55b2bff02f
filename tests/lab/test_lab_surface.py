"""The lab on surfaces that are not flat: the court speed, grade and crown fields (checked, applied
through ``Court.with_params``), the relief drawn, and shots and the aim's path that curve and rest
where ``simulate`` says."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.lab.board import LabBoard
from shuffle_sim.lab.shots import Aim, play_shot, predicted_path
from shuffle_sim.lab.surface_controls import grade_text, parse_grade
from shuffle_sim.physics import simulate
from shuffle_sim.physics.scene import Scene

from .test_services import Page

DECK = load_court("deck")


def test_grades_are_read_as_players_give_them():
    assert parse_grade("1 in 1000", "grade x") == 0.001
    assert parse_grade(" -1 in 500 ", "grade x") == -0.002
    assert parse_grade("2‰", "grade x") == 0.002
    assert parse_grade("0.0015", "grade x") == 0.0015
    assert parse_grade("", "grade x") == 0.0
    for text in ("steep", "1 in 0", "1 in -5", "nan", "inf", "1 in"):
        with pytest.raises(ValueError, match=r"^grade x must be a"):
            parse_grade(text, "grade x")


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10**7), st.booleans())
def test_a_grade_shown_reads_back_exactly(n, negative):
    grade = (-1.0 if negative else 1.0) / n
    assert parse_grade(grade_text(grade), "grade y") == grade


def test_the_grade_field_draws_the_relief_and_a_bad_value_is_a_message():
    page = Page("deck")
    court = page.model("court")
    assert page.model("relief").data["image"] == [] and page.model("grade_arrows").data["gx"] == []  # flat
    page.model("grade_x").value = "1 in 500"
    assert page.model("court") is court  # the page took the new court in place
    assert "court parameters applied" in page.status()
    arrows = page.model("grade_arrows").data
    assert len(arrows["gx"]) > 10 and all(g == 0.002 for g in arrows["gx"]) and all(g == 0.0 for g in arrows["gy"])
    assert all(x1 > x0 for x0, x1 in zip(arrows["x0"], arrows["x1"]))  # drawn pointing to +x
    image = np.asarray(page.model("relief").data["image"][0])
    assert np.nanmean(image[:, : image.shape[1] // 3]) > 0 > np.nanmean(image[:, -image.shape[1] // 3 :])
    assert page.model("grade_x").value == "1 in 500"
    page.model("grade_y").value = "steep"
    assert "grade y must be a grade such as '1 in 1000'" in page.status()
    assert page.model("grade_y").css_classes == ["lab-invalid"]
    page.model("grade_y").value = "1 in 10"
    assert "steeper than its friction" in page.status() and "Traceback" not in page.status()
    assert page.model("grade_arrows").data["gy"][0] == 0.0  # the court stayed as it was
    page.model("grade_y").value = ""
    page.model("court_speed").value = "14 s"
    page.model("crown").value = "1/32 in"
    assert "court parameters applied" in page.status()
    assert page.model("court_speed").value == "14 s" and page.model("crown").value == "1/32 in"
    page.model("court_speed").value = "fast"
    assert "speed" in page.status() and "fast" in page.status()


def test_the_aim_path_on_a_graded_court_curves_and_rests_where_simulate_says():
    page = Page("deck")
    assert page.model("aim_path").data["x"] == []  # flat: the arrow is the path
    page.model("grade_x").value = "1 in 2000"
    path = page.model("aim_path").data
    xs, ys = np.asarray(path["x"]), np.asarray(path["y"])
    assert len(xs) > 50
    start = page.model("start_point").data
    speed, direction = float(page.model("speed").value), float(page.model("direction").value)
    a = math.radians(direction)
    court = DECK.with_params(slope=[0.0005, 0.0])
    scene = Scene(
        court=court,
        x=np.array(start["x"]),
        y=np.array(start["y"]),
        vx=np.array([speed * math.cos(a)]),
        vy=np.array([speed * math.sin(a)]),
        omega=np.zeros(1),
    )
    rest = simulate(scene)
    assert abs(xs[-1] - rest.x[0]) < 1e-3 and abs(ys[-1] - rest.y[0]) < 1e-3  # fields round the aim shown
    chord = np.abs((xs - xs[0]) * (ys[-1] - ys[0]) - (ys - ys[0]) * (xs[-1] - xs[0])) / math.hypot(
        xs[-1] - xs[0], ys[-1] - ys[0]
    )
    assert chord.max() > 0.01  # a curve, not its chord


def test_a_shot_on_a_graded_court_rests_where_simulate_says_along_a_curved_path():
    court = DECK.with_params(slope=[0.001, 0.0], crown="1/32 in")
    board = LabBoard(court)
    aim = Aim(0.3, 2.2, 1.7, 90.0, 0.0, "yellow")
    played = play_shot(board, aim)
    vx, vy = aim.velocity
    scene = Scene(
        court=court,
        x=np.array([aim.x]),
        y=np.array([aim.y]),
        vx=np.array([vx]),
        vy=np.array([vy]),
        omega=np.zeros(1),
        team=["yellow"],
    )
    result = simulate(scene)
    assert played.positions[-1, 0, 0] == result.x[0] and played.positions[-1, 0, 1] == result.y[0]
    track = played.positions[:, 0, :]
    assert np.all(np.isfinite(track))
    drift = track[:, 0] - aim.x
    assert drift[-1] > 0.05 and np.all(np.diff(drift) >= -1e-12)  # drifts steadily toward +x
    mid = len(track) // 2  # the middle of the path lies off the straight chord from start to rest
    t = (track[mid, 1] - track[0, 1]) / (track[-1, 1] - track[0, 1])
    assert abs(track[mid, 0] - (track[0, 0] + t * (track[-1, 0] - track[0, 0]))) > 0.01
    px, py = predicted_path(court, aim)
    assert px[-1] == result.x[0] and py[-1] == result.y[0]
