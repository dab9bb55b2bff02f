"""How long the lab's answers take to reach the page, measured in the browser.

From the click on "Shoot" to the shot's samples arriving in the page (``window.labShotReceived``,
set as the animation starts), and from the click on "Run noisy copies" to the density map arriving
(``window.labDensityReceived``): each the round trip through the server, the kernel and the
websocket, as a user sees it. Warm: one shot and one batch of copies are played first (the kernels
are compiled or loaded from numba's cache by then). The board is crokinole's with three discs; each
shot is undone before the next.

``python -m shuffle_sim.lab.latency [--shots N] [--copies N] [--n-copies N]`` prints the medians and
the worst; the issue's targets are 100 ms for a shot and 1 s for 10,000 copies.
"""

from __future__ import annotations

import argparse
import json
import statistics

from shuffle_sim.lab.browser import LabPage, chromium, lab_server

COURT = "crokinole"
BOARD = ((0.0, 0.1), (0.15, 0.02), (-0.06, -0.14))
SHOT = {"speed": "1.1", "direction": "92", "spin": "0"}


def _timed_click(page: LabPage, label: str, clock: str, done: str | None = None) -> float:
    page.page.evaluate(f"() => {{ window.{clock} = null; }}")
    page.click_button(label)
    page.wait_for(f"window.{clock} != null && window.labClickAt != null")
    elapsed = page.page.evaluate(f"() => window.{clock} - window.labClickAt")
    if done:
        page.wait_for(done)
    return float(elapsed) / 1000.0


def measure(page: LabPage, shots: int = 5, copies: int = 3, n_copies: int = 10_000) -> dict:
    """Latencies (seconds) on an open lab page showing the crokinole court."""
    for x, y in BOARD:
        page.click_at(x, y)
    for name, value in SHOT.items():
        page.set_value(name, value)
    page.set_value("playback", "8")
    page.set_value("copies_n", str(n_copies))
    page.settle()

    def one_shot() -> float:
        before = page.page.evaluate("() => window.labAnimationsDone || 0")
        elapsed = _timed_click(page, "Shoot", "labShotReceived", f"(window.labAnimationsDone || 0) > {before}")
        page.click_button("Undo")
        page.settle()
        return elapsed

    one_shot()  # warm
    shot_times = [one_shot() for _ in range(shots)]
    _timed_click(page, "Run noisy copies", "labDensityReceived")  # warm
    copy_times = [_timed_click(page, "Run noisy copies", "labDensityReceived") for _ in range(copies)]
    return {"shot_median_s": statistics.median(shot_times), "shot_max_s": max(shot_times),
            "copies_n": n_copies, "copies_median_s": statistics.median(copy_times), "copies_max_s": max(copy_times),
            "shots": len(shot_times), "copy_runs": len(copy_times)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=10)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--n-copies", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with lab_server(COURT) as (url, _), chromium() as browser:
        page = LabPage(browser, url, court=COURT)
        result = measure(page, args.shots, args.copies, args.n_copies)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"shot result reaches the page: median {result['shot_median_s'] * 1000:.1f} ms, worst "
              f"{result['shot_max_s'] * 1000:.1f} ms over {result['shots']} warm shots (target 100 ms)")
        print(f"{result['copies_n']:,} noisy copies reach the page: median {result['copies_median_s'] * 1000:.0f} ms, "
              f"worst {result['copies_max_s'] * 1000:.0f} ms over {result['copy_runs']} warm runs (target 1 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
