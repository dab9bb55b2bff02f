"""Fixtures of the lab's browser tests: one lab server (a child process on a free loopback port) and
one headless Chromium serve every browser test of the session; each test opens its own pages, so
each has its own session, and no page may log a console error. Pages open in a window of 1366 x 768
CSS pixels (``browser.WINDOW``) unless a test asks for another."""

from __future__ import annotations

import pytest

from shuffle_sim.lab.browser import WINDOW, LabPage, chromium, chromium_path, lab_server


@pytest.fixture(scope="session")
def server():
    with lab_server("crokinole") as (url, proc):
        yield url, proc


@pytest.fixture(scope="session")
def browser():
    if chromium_path() is None:
        pytest.fail("Chromium is missing: apt-get install chromium (.ci/run installs it)", pytrace=False)
    with chromium() as b:
        yield b


@pytest.fixture
def page(server, browser):
    pages = []

    def open_page(court: str = "crokinole", width: int = WINDOW[0], height: int = WINDOW[1]) -> LabPage:
        p = LabPage(browser, server[0], court=court, width=width, height=height)
        pages.append(p)
        return p

    yield open_page
    for p in pages:
        assert not p.errors, f"console errors: {p.errors}"
        p.close()


def crowded_board(lab) -> None:
    """A crokinole board where a shot straight up the middle from the south seat (the lab's first aim)
    hits only light discs and misses the one dark disc: the hit rule takes it off, with the light disc
    it moved."""
    lab.set_value("team_select", "dark")
    lab.settle()
    lab.click_at(0.22, 0.12)
    lab.set_value("team_select", "light")
    lab.settle()
    for x, y in ((0.0, -0.16), (-0.2, 0.05), (0.1, -0.2)):
        lab.click_at(x, y)
