"""Screenshots of the lab on each of the four courts, for the documentation (``docs/lab/``).

Each court's page is opened in headless Chromium (the deck and the horse collar table open on their
scoring end), a few discs are placed by clicking the court (in the game's best zones, alternating
teams where both sides play in a frame), the board and the shot an expert's fixed plan plays on it
(the game's tactics, as ``shuffle-sim play`` plays it) are loaded as a scene file, noisy copies of
the shot are run at the game's most skilled preset, then the shot is played once, so the picture
shows the shot's path and what the rules did, the judged discs after it, the aim arrow, where the
copies came to rest (the density map with its colour bar) and their outcomes beside the court.

``python -m shuffle_sim.lab.screenshots [OUT_DIR]`` writes ``lab-COURT.png`` (default ``docs/lab``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from shuffle_sim.court import load_court
from shuffle_sim.lab.board import LabBoard, LabError
from shuffle_sim.lab.browser import LabPage, chromium, lab_server

COURTS = ("deck", "horse-collar", "ricochet", "crokinole")
#: Discs placed on each screenshot, at most.
DISCS = 4
#: Noisy copies drawn on each screenshot.
COPIES = 10_000
#: Games where one side throws every puck of a frame (horse collar): the discs get one team.
ONE_SIDE_FRAMES = {"horse-collar"}


def disc_spots(court_name: str, n: int = DISCS) -> list[tuple[float, float]]:
    """Up to ``n`` resting spots in the court's best scoring zones that a board accepts together."""
    from shuffle_sim.playing.players import zone_spot

    court = load_court(court_name)
    zones = sorted({z.name: z for z in court.zones if not z.dead and z.value > 0}.values(), key=lambda z: -z.value)
    board = LabBoard(court)
    spots: list[tuple[float, float]] = []
    for zone in zones:
        x, y, _ = zone_spot(court, zone.name)
        for dx in (0.0, 2.5 * court.disc_radius, -2.5 * court.disc_radius):
            try:
                board.place(x + dx, y, "A")
            except LabError:
                continue
            spots.append((x + dx, y))
            break
        if len(spots) >= n:
            break
    return spots


def planned_scene(court_name: str, discs: dict, shooter: str) -> dict:
    """A scene of the page's board (``discs``: the ``discs`` source's columns) and the shot the game's
    fixed plan plays on it for ``shooter`` from the game's first position."""
    from shuffle_sim.playing.advisor import advice_context
    from shuffle_sim.rules.common import Board

    court = load_court(court_name)
    board = Board(court, discs["x"], discs["y"], tuple(discs["team"]))
    ctx = advice_context(court.game, board, shooter)
    launch = ctx.tactics.plan(ctx).aim(ctx)
    rows = [{"x": x, "y": y, "team": t} for x, y, t in zip(discs["x"], discs["y"], discs["team"])]
    rows.append(
        {"x": launch.x, "y": launch.y, "vx": launch.vx, "vy": launch.vy, "omega": launch.omega, "team": shooter}
    )
    return {"court": court_name, "discs": rows}


def make_screenshots(
    out_dir: str | Path, courts=COURTS, copies: int = COPIES, browser=None, url: str | None = None
) -> list[Path]:
    """Write one PNG per court into ``out_dir``; return their paths. ``browser`` and ``url``: a
    Playwright browser and a running lab to use (by default both are started here and stopped)."""
    if browser is None or url is None:
        with lab_server(courts[0]) as (own_url, _), chromium() as own_browser:
            return make_screenshots(out_dir, courts, copies, own_browser, own_url)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in courts:
        page = LabPage(browser, url, court=name)
        try:
            teams = page.model("team_select", "options")
            for k, (x, y) in enumerate(disc_spots(name)):
                page.set_value("team_select", teams[0 if name in ONE_SIDE_FRAMES else k % 2])
                page.settle(0.1)
                page.click_at(x, y)
            with tempfile.TemporaryDirectory() as folder:
                scene = Path(folder) / f"{name}-plan.json"
                scene.write_text(json.dumps(planned_scene(name, page.model("discs", "data"), teams[0])))
                before = page.court_id()
                page.page.locator("input[type=file]").set_input_files(str(scene))
                page.wait_rebuilt(before)
            page.set_value("skill", page.model("skill", "options")[-1])  # the most skilled preset
            page.set_value("copies_n", str(copies))
            page.page.evaluate("() => { window.labDensityReceived = null; }")
            page.click_button("Run noisy copies")  # the copies of the shot on this board first,
            page.wait_for("window.labDensityReceived != null", timeout=120)
            page.set_value("playback", "8")
            page.settle(0.1)
            page.click_button("Shoot")  # then the shot itself, once: its path and what the rules did
            page.wait_for("(window.labAnimationsDone || 0) >= 1")
            page.wait_for("!labModel('shoot').disabled")
            page.page.evaluate("() => { labModel('results').active = 2; }")  # the copies' outcomes in front
            page.settle(0.5)
            path = out / f"lab-{name}.png"
            page.page.screenshot(path=str(path))
            if page.errors:
                raise RuntimeError(f"{name}: the page logged errors: {page.errors}")
        finally:
            page.close()
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/lab", help="folder for the PNG files (default docs/lab)")
    args = parser.parse_args(argv)
    for path in make_screenshots(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
