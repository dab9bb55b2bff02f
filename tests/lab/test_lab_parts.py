"""The lab's small parts: fields checked at their boundaries, the status area's rules, the starts'
nearest point, and the warm-up's progress (terminal and waiting page)."""

from __future__ import annotations

import math
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.lab.fields import FieldError, NumberField, copies_field, shot_fields
from shuffle_sim.lab.shots import max_speed
from shuffle_sim.lab.starts import legal_starts
from shuffle_sim.lab.status import Status

CROKINOLE = load_court("crokinole")


def test_the_speed_field_takes_exactly_the_speeds_a_shot_takes():
    speed = shot_fields(CROKINOLE)["speed"]
    top = max_speed(CROKINOLE)
    assert speed.check(repr(top)) == top
    assert speed.check("5e-324") == 5e-324
    for text in ("0", "0.0", "-1", repr(math.nextafter(top, math.inf)), "99", "nan", "inf", "", "fast"):
        with pytest.raises(FieldError, match=r"^speed must be"):
            speed.check(text)
    assert speed.title == f"Speed, m/s (up to {top:.2f})"


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_a_field_accepts_a_number_exactly_when_it_is_in_range(value):
    field = NumberField("spin", "Spin", "rad/s", low=-50.0, high=50.0)
    inside = math.isfinite(value) and -50.0 <= value <= 50.0
    try:
        assert field.check(repr(value)) == value and inside
    except FieldError as exc:
        assert not inside and f"(got {repr(value)!r})" in str(exc)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.integers(-10, 300_000), st.floats(0.5, 300_000.0)))
def test_the_copies_field_takes_whole_numbers_in_range(value):
    field = copies_field(200_000)
    ok = float(value) == int(value) and 1 <= value <= 200_000
    try:
        got = field.check(str(value))
    except FieldError as exc:
        assert not ok and str(exc).startswith("noisy copies must be a whole number, 1 to 200,000")
    else:
        assert ok and got == int(value) and isinstance(got, int)


class _Div:
    text = ""


def test_the_status_area_keeps_problems_until_fixed_and_failures_until_the_next_success():
    status = Status(_Div())
    status.problem("speed", "speed must be a number")
    status.failed("select a disc first")
    assert status.text().splitlines() == ["select a disc first", "speed must be a number"]
    status.succeeded("disc 0 deleted")  # an action succeeded: its failure goes, the field's problem stays
    assert status.text().splitlines() == ["speed must be a number", "disc 0 deleted"]
    status.solved("speed")
    assert status.text() == "disc 0 deleted"
    status.succeeded("")
    assert status.text() == "" and status.div.text == ""
    status.failed("a <b> & c")
    assert "a &lt;b&gt; &amp; c" in status.div.text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["deck", "horse-collar", "ricochet", "crokinole"]), st.integers(0, 7), st.floats(0.0, 1.0))
def test_the_nearest_point_of_a_start_is_the_point_itself(court, k, t):
    starts = legal_starts(load_court(court))
    start = starts[k % len(starts)]
    x, y = start.point(t)
    px, py = start.point(start.nearest(x, y))
    assert math.hypot(px - x, py - y) < 1e-12


def test_the_page_becomes_the_lab_once_it_can_judge_and_the_rest_compiles_behind_it():
    """The waiting page says how far the board's kernels are, then becomes the lab while the other
    groups are still being made ready; an action that needs one of them waits, says so, and runs
    when it is ready."""
    from bokeh.document import Document
    from bokeh.events import ButtonClick

    from shuffle_sim.lab.app import LabOptions, make_document
    from shuffle_sim.lab.session import session_of
    from shuffle_sim.lab.warmup import BOARD, COMPILING, SHOTS, WarmUp

    board_held, shots_held = threading.Event(), threading.Event()
    lines: list[str] = []
    groups = {BOARD: [("judging a disc", board_held.wait)], SHOTS: [("a shot", shots_held.wait)]}
    warmup = WarmUp(lambda: groups, say=lines.append, cold=True).start()
    doc = Document()
    make_document(LabOptions(court="crokinole", warmup=warmup))(doc)
    for _ in range(200):
        if warmup.current:
            break
        threading.Event().wait(0.01)
    text = warmup.text()
    assert text.startswith(f"{COMPILING}: 0 of 2 groups ready (judging a disc)") and "s so far" in text
    page = doc.get_model_by_name("message")
    assert doc.get_model_by_name("court") is None
    waiting = next(iter(doc.session_callbacks))
    waiting.callback()  # the page's next tick
    assert COMPILING in page.text and "judging a disc" in page.text
    board_held.set()
    warmup.page_ready.wait(5)
    waiting.callback()
    assert doc.get_model_by_name("court") is not None and not warmup.ready.is_set()  # shots still compile
    doc.callbacks.trigger_event(ButtonClick(doc.get_model_by_name("shoot")))
    status = doc.get_model_by_name("message").text
    assert "Shoot waits for the kernels of shots" in status and not doc.get_model_by_name("anim").data["t"]
    shots_held.set()
    warmup.thread.join(5)
    session_of(doc).tick()  # the session's next tick: the shot runs now, in the order it came
    assert len(doc.get_model_by_name("anim").data["t"]) > 1 and "waits" not in doc.get_model_by_name("message").text
    assert lines[0].startswith(f"shot lab: {COMPILING}") and any("ready for judging and scoring" in x for x in lines)
    assert lines[-1].startswith("shot lab: all kernels ready after")


def test_a_warm_cache_says_nothing_of_compiling_and_a_compile_is_told_with_numbas_cache_folder():
    import os
    import subprocess
    import sys

    from numba import njit

    from shuffle_sim.lab.warmup import BOARD, COMPILING, WarmUp, cache_folder

    lines: list[str] = []
    warmup = WarmUp(lambda: {BOARD: [("x", lambda: None)]}, say=lines.append).start()
    warmup.thread.join(5)
    assert lines == [] and warmup.text() == "kernels ready"  # nothing compiled: nothing said

    fresh = njit(lambda x: x + 1)  # never compiled, never cached: numba compiles it here
    warmup = WarmUp(lambda: {BOARD: [("a new kernel", lambda: fresh(1))]}, say=lines.append).start()
    warmup.thread.join(60)
    assert lines[0].startswith(f"shot lab: {COMPILING}: not in numba's cache ({cache_folder()})")
    assert lines[-1].startswith("shot lab: all kernels ready after")

    code = "from shuffle_sim.lab.warmup import cache_folder; print(cache_folder())"
    with __import__("tempfile").TemporaryDirectory() as folder:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "NUMBA_CACHE_DIR": folder},
        )
        assert done.stdout.strip() == str(__import__("pathlib").Path(folder).resolve())  # the folder numba uses


def test_a_helper_process_reports_each_group_it_has_made_ready():
    import subprocess

    from shuffle_sim._runtime.helper_process import module_command

    argv, env = module_command("shuffle_sim.lab.warmup", "--court", "crokinole", "board")
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True, timeout=600)
    assert done.stdout.splitlines()[-1] == "ready board"


def test_the_labs_own_warm_up_says_nothing_of_compiling_once_numba_has_the_kernels():
    """The lab's warm-up as ``shuffle-sim lab`` runs it (its helper processes too): the second start
    finds every kernel in numba's cache and says nothing (the first may compile, on a new cache)."""
    from shuffle_sim.lab.warmup import ORDER, lab_warm_up

    for _start in ("first", "second"):
        lines: list[str] = []
        warmup = lab_warm_up("crokinole", None, say=lines.append).start()
        assert warmup.ready.wait(3600)
        assert warmup.ready_groups == set(ORDER) and warmup.error is None
    assert lines == [], lines  # the second start
