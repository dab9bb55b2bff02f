"""How long the lab's answers take to reach the page, measured in the browser.

From a click on the court to the placed disc's value arriving (``window.labLabelsReceived``), from
the click on "Shoot" to the shot's first animation frame drawn (``window.labFirstFrameAt``), from
the click on "Run noisy copies" to the density map arriving (``window.labDensityReceived``), and
from a grade entered to the aim's predicted path on the graded court arriving
(``window.labPathReceived``; the relief comes with it): each the round trip through the server, the
kernel, the rules and the websocket, as a user sees it. Warm: one of each is done first (the kernels
are compiled or loaded from numba's cache by then). The board is crokinole's with three discs; each
placed disc and each shot is undone before the next; the grades alternate between two.

``python -m shuffle_sim.lab.latency [--values N] [--shots N] [--copies N] [--n-copies N] [--grades N]``
prints the medians and the worst; the targets are 0.2 s for a disc's value, 0.2 s for a shot's first
frame, 1 s for 10,000 copies and 2 s for a grade.
"""

from __future__ import annotations

import argparse
import json
import statistics

from shuffle_sim.lab.browser import LabPage, chromium, lab_server

COURT = "crokinole"
BOARD = ((0.0, 0.1), (0.15, 0.02), (-0.06, -0.14))
PROBE = (-0.17, 0.05)
SHOT = {"speed": "1.1", "direction": "92", "spin": "0"}
GRADES = ("1 in 1000", "1 in 2000")
TARGETS = {"value": 0.2, "shot": 0.2, "copies": 1.0, "grade": 2.0}


def _timed(page: LabPage, act, clock: str, done: str | None = None, timeout: float = 60.0) -> float:
    """Seconds from the click ``act`` makes to ``window.<clock>`` being set."""
    page.page.evaluate(f"() => {{ window.{clock} = null; window.labClickAt = null; }}")
    act()
    page.wait_for(f"window.{clock} != null && window.labClickAt != null", timeout)
    elapsed = page.page.evaluate(f"() => window.{clock} - window.labClickAt")
    if done:
        page.wait_for(done)
    return float(elapsed) / 1000.0


def grade_seconds(page: LabPage, grade: str, timeout: float = 60.0) -> float:
    """Seconds from ``grade`` entered as the court's grade across (as a typed grade reaches the
    server: Enter, or leaving the field) to the aim's predicted path on the graded court arriving."""

    def enter() -> None:
        page.page.evaluate(
            "(grade) => { window.labClickAt = performance.now(); labModel('grade_x').value = grade; }", grade
        )

    return _timed(page, enter, "labPathReceived", timeout=timeout)


def measure(
    page: LabPage, values: int = 5, shots: int = 5, copies: int = 3, n_copies: int = 10_000, grades: int = 0
) -> dict:
    """Latencies (seconds) on an open lab page showing the crokinole court."""
    for x, y in BOARD:
        page.click_at(x, y)
    for name, value in SHOT.items():
        page.set_value(name, value)
    page.set_value("playback", "8")
    page.set_value("copies_n", str(n_copies))
    page.settle()

    def one_value() -> float:
        elapsed = _timed(page, lambda: page.page.mouse.click(*page.to_page(*PROBE)), "labLabelsReceived")
        page.settle(0.2)
        page.click_button("Undo")
        page.settle(0.2)
        return elapsed

    def one_shot() -> float:
        before = page.page.evaluate("() => window.labAnimationsDone || 0")
        elapsed = _timed(
            page, lambda: page.click_button("Shoot"), "labFirstFrameAt", f"(window.labAnimationsDone || 0) > {before}"
        )
        page.settle(0.2)
        page.click_button("Undo")
        page.settle(0.2)
        return elapsed

    def one_copies() -> float:
        return _timed(page, lambda: page.click_button("Run noisy copies"), "labDensityReceived")

    def one_grade(k: int) -> float:
        return grade_seconds(page, GRADES[k % len(GRADES)])

    one_value(), one_shot(), one_copies()  # warm
    value_times = [one_value() for _ in range(values)]
    shot_times = [one_shot() for _ in range(shots)]
    copy_times = [one_copies() for _ in range(copies)]
    grade_times = [one_grade(k) for k in range(grades + 1)][1:] if grades else []  # the first: warm
    extra = (
        {"grade_median_s": statistics.median(grade_times), "grade_max_s": max(grade_times), "grades": grades}
        if grades
        else {}
    )
    return extra | {
        "value_median_s": statistics.median(value_times),
        "value_max_s": max(value_times),
        "shot_median_s": statistics.median(shot_times),
        "shot_max_s": max(shot_times),
        "copies_n": n_copies,
        "copies_median_s": statistics.median(copy_times),
        "copies_max_s": max(copy_times),
        "values": len(value_times),
        "shots": len(shot_times),
        "copy_runs": len(copy_times),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=10)
    parser.add_argument("--shots", type=int, default=10)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--n-copies", type=int, default=10_000)
    parser.add_argument("--grades", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with lab_server(COURT) as (url, _), chromium() as browser:
        page = LabPage(browser, url, court=COURT)
        result = measure(page, args.values, args.shots, args.copies, args.n_copies, args.grades)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"a disc's value reaches the page: median {result['value_median_s'] * 1000:.0f} ms, worst "
            f"{result['value_max_s'] * 1000:.0f} ms over {result['values']} warm clicks "
            f"(target {TARGETS['value'] * 1000:.0f} ms)"
        )
        print(
            f"a shot's first frame is drawn: median {result['shot_median_s'] * 1000:.0f} ms, worst "
            f"{result['shot_max_s'] * 1000:.0f} ms over {result['shots']} warm shots "
            f"(target {TARGETS['shot'] * 1000:.0f} ms)"
        )
        print(
            f"{result['copies_n']:,} noisy copies reach the page: median {result['copies_median_s'] * 1000:.0f} ms, "
            f"worst {result['copies_max_s'] * 1000:.0f} ms over {result['copy_runs']} warm runs "
            f"(target {TARGETS['copies']:.0f} s)"
        )
        if args.grades:
            print(
                f"a grade entered is answered (relief and predicted path): median "
                f"{result['grade_median_s'] * 1000:.0f} ms, worst {result['grade_max_s'] * 1000:.0f} ms over "
                f"{result['grades']} warm grades (target {TARGETS['grade']:.0f} s)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
