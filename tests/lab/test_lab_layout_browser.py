"""The lab in a laptop's window (1366 x 768 CSS pixels), in Chromium: what a shot, the noisy copies
and the advice give is in view without scrolling, no title or table text is cut, nothing beside the
court moves while a shot plays, and the view ends where the shot's discs rest (fixtures in
``conftest``)."""

from __future__ import annotations

from shuffle_sim.lab.browser import WINDOW

from .conftest import crowded_board


def _in_view(box: dict) -> bool:
    return box["top"] >= 0 and box["bottom"] <= WINDOW[1] and box["left"] >= 0 and box["right"] <= WINDOW[0]


def _shot_done(lab, before: int) -> None:
    lab.wait_for(f"(window.labAnimationsDone || 0) > {before}")
    lab.wait_for("!labModel('shoot').disabled")
    lab.settle()


def test_rulings_copies_tables_and_first_advice_rows_are_in_view_without_scrolling(page):
    lab = page("crokinole")
    crowded_board(lab)
    lab.set_value("playback", "8")
    lab.settle()
    lab.click_button("Shoot")  # straight up the middle: the hit rule takes off two discs
    _shot_done(lab, 0)
    rulings = lab.boxes("ul.rulings li")
    assert len(rulings) == 3 and all(_in_view(b) for b in rulings), rulings
    assert "hit no opponent disc" in rulings[0]["text"]

    lab.page.evaluate("() => { window.labDensityReceived = null; }")
    lab.click_button("Run noisy copies")
    lab.wait_for("window.labDensityReceived != null && labModel('results').active == 2", 120)
    lab.settle()
    tables = lab.boxes("table.values") + lab.boxes("table.scores")
    assert len(tables) == 2 and all(_in_view(b) for b in tables), tables

    lab.click_button("Advise: rank the shots")
    lab.wait_for("labModel('advice_table').visible", 300)
    lab.settle(0.5)
    rows = lab.boxes(".slick-row")
    assert len(rows) >= 3 and all(r["top"] >= 0 and r["bottom"] <= WINDOW[1] for r in rows[:3]), rows[:3]
    headings, cells = lab.boxes(".slick-header-column"), lab.boxes(".slick-cell")
    assert headings and cells and not [b["text"] for b in headings + cells if b["cut"]]
    assert lab.page.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0]


def test_no_field_title_overlaps_another_or_is_cut(page):
    lab = page("deck")
    labels = [b for b in lab.boxes("label") if b["text"].strip()]
    assert len(labels) >= 12  # the court, surface, team, start and shot fields' titles
    assert not [b["text"] for b in labels if b["cut"]]
    for k, a in enumerate(labels):
        for b in labels[k + 1 :]:
            overlap_x = min(a["right"], b["right"]) - max(a["left"], b["left"])
            overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            assert overlap_x <= 0 or overlap_y <= 0, (a["text"], b["text"])


def test_nothing_beside_the_court_moves_while_a_deck_shot_plays(page):
    lab = page("deck")
    lab.set_value("playback", "2")
    lab.settle()
    lab.click_button("Shoot")
    lab.wait_for("window.shuffleLab.playing")
    lefts = lab.page.evaluate(
        """() => new Promise((done) => {
             const panel = Bokeh.index.find_one(labModel('panel')).el;
             const seen = [], began = performance.now();
             const look = () => {
               seen.push(panel.getBoundingClientRect().left);
               if (performance.now() - began < 20000 && window.shuffleLab.playing) { requestAnimationFrame(look); }
               else { done(seen); }
             };
             requestAnimationFrame(look);
           })"""
    )
    assert len(lefts) > 20 and max(lefts) - min(lefts) < 0.5, (min(lefts), max(lefts))


def test_after_a_short_deck_shot_the_view_shows_where_its_disc_rests(page):
    lab = page("deck")
    view = (
        "() => { const f = labModel('court');"
        " return [f.x_range.start, f.x_range.end, f.y_range.start, f.y_range.end]; }"
    )
    home_x0, home_x1, *home = lab.page.evaluate(view)
    lab.set_value("speed", "1.4")  # stops about 8 m up the court: short of the far dead line
    lab.set_value("playback", "8")
    lab.settle()
    lab.click_button("Shoot")
    _shot_done(lab, 0)
    ghosts = lab.model("ghosts", "data")
    assert len(ghosts["y"]) == 1 and ghosts["y"][0] < home[0]  # removed short, below the scoring end's view
    x0, x1, y0, y1 = lab.page.evaluate(view)
    assert x0 < ghosts["x"][0] < x1 and y0 < ghosts["y"][0] < y1
    assert (x0, x1) == (home_x0, home_x1)  # moved only along the court, as far as it takes
    assert y1 - y0 == __import__("pytest").approx(home[1] - home[0])  # the same size of view


def test_advise_shows_that_it_is_working_until_the_table_comes(page):
    lab = page("crokinole")
    lab.click_at(0.02, 0.06)
    lab.page.evaluate(
        """() => { const b = labModel('advise'); window.adviseStates = [];
             b.properties.label.change.connect(() => window.adviseStates.push([b.label, b.disabled])); }"""
    )
    lab.click_button("Advise: rank the shots")
    lab.wait_for("labModel('advice_table').visible", 300)
    lab.settle()
    labels = [label for label, _ in lab.page.evaluate("() => window.adviseStates")]
    assert labels == ["ranking the candidate shots\u2026", "Advise: rank the shots"]
    assert not lab.model("advise", "disabled")
