"""Headless Chromium for the lab's browser tests and screenshots, driven by Playwright.

Playwright's own browser download is not used: the system's Chromium (Debian's ``chromium``
package, ``/usr/bin/chromium``) is launched, headless and without background network traffic.
``lab_server`` runs ``shuffle-sim lab`` in a child process on a free loopback port and stops it;
``thread_server`` runs a lab server in a thread of this process, with a warm-up of the caller's.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = os.environ.get("SHUFFLE_SIM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The browser window the tests and the screenshots use (CSS pixels): a common laptop screen.
WINDOW = (1366, 768)
#: Seconds to wait for the server to answer (it imports Bokeh and the package first).
START_TIMEOUT = 120.0
#: Seconds to wait for a page to become the lab (on a first run the kernels compile meanwhile).
READY_TIMEOUT = 900.0


def chromium_path() -> str | None:
    """The Chromium executable, or None when it is not installed."""
    if Path(CHROMIUM).is_file():
        return CHROMIUM
    return shutil.which("chromium")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def lab_server(
    court: str = "deck", port: int | None = None, command: list[str] | None = None, env: dict[str, str] | None = None
):
    """Run ``shuffle-sim lab --no-browser`` on a free port; yield the page's URL and the process; stop
    it after.

    ``command`` runs another program in its place (it gets the same ``--court``, ``--port`` and
    ``--no-browser`` arguments): a server set up for one test. ``env``: variables set for the server
    beside this process's (``NUMBA_CACHE_DIR``, say). The server's output goes to a file, never to a
    pipe nobody reads (a full pipe would stop the server at its next line).
    """
    port = port or free_port()
    env = {**os.environ, **(env or {})}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    program = command or [sys.executable, "-m", "shuffle_sim.cli", "lab"]
    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(
            [*program, "--court", court, "--port", str(port), "--no-browser"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        url = f"http://127.0.0.1:{port}/lab"
        try:
            _wait_until_answered(url, proc, log)
            yield url, proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextlib.contextmanager
def thread_server(court: str, warmup):
    """A lab server in a thread of this process (its own event loop: Playwright holds this thread's)
    whose sessions wait for ``warmup``, a ``warmup.WarmUp`` the caller starts; yield the page's URL,
    stop the server after."""
    import asyncio
    import threading

    from shuffle_sim.lab.server import PATH, make_server

    port, started, box = free_port(), threading.Event(), {}

    def serve() -> None:
        asyncio.set_event_loop(asyncio.new_event_loop())
        box["server"] = make_server(court, port=port, warmup=warmup)
        started.set()
        box["server"].io_loop.start()

    loop = threading.Thread(target=serve, name="lab-test-server", daemon=True)
    loop.start()
    if not started.wait(START_TIMEOUT):
        raise RuntimeError(f"the lab server in a thread did not start within {START_TIMEOUT:.0f} s")
    try:
        yield f"http://127.0.0.1:{port}{PATH}"
    finally:
        box["server"].io_loop.add_callback(box["server"].io_loop.stop)
        loop.join(10)


def _wait_until_answered(url: str, proc: subprocess.Popen, log) -> None:
    """Wait for the server's page to answer; raise with the server's output if it exits first."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the lab server exited early:\n{log.read()}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as response:
            if response.status == 200:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the lab server did not answer at {url} within {START_TIMEOUT:.0f} s")
        time.sleep(0.2)


@contextlib.contextmanager
def chromium():
    """A headless Chromium browser (Playwright), closed after."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise RuntimeError(f"Chromium not found at {CHROMIUM} (Debian: apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


#: Where a data point (metres) lies on the page (CSS pixels), through the figure's own scales.
_TO_PAGE = """
([x, y]) => {
  const plot = labModel('court');
  const view = Bokeh.index.find_one(plot);
  const box = view.canvas_view.el.getBoundingClientRect();
  return [box.left + view.frame.x_scale.compute(x), box.top + view.frame.y_scale.compute(y)];
}
"""
_BOXES = """
(selector) => {
  const found = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll(selector)) { found.push(el); }
    for (const el of root.querySelectorAll('*')) { if (el.shadowRoot) { walk(el.shadowRoot); } }
  };
  walk(document);
  const textWidth = (el) => {  // from the first letter to the last, whatever else the element holds
    let left = Infinity, right = -Infinity;
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node != null; node = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (r.width > 0) { left = Math.min(left, r.left); right = Math.max(right, r.right); }
    }
    return right > left ? right - left : 0;
  };
  return found.map((el) => {
    const r = el.getBoundingClientRect();
    const box = el.clientWidth > 0 ? el : el.parentElement;  // an inline element: its container's room
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: el.textContent,
            cut: textWidth(el) > room + 1};
  });
}
"""
_READY = (
    "() => window.Bokeh && Bokeh.documents.length > 0 && labModel('court') != null"
    " && Bokeh.index.find_one(labModel('court')) != null"
)
#: Note when any press happens (capture phase: widgets live in shadow roots; the press, not the
#: click, so that a latency counts from the moment the button goes down), for latencies; and
#: ``labModel(name)``: the model of that name among the page's current roots (after the lab rebuilds
#: its page for another court or a loaded file, the browser may still hold the old models a while).
_INIT_SCRIPT = """
document.addEventListener('pointerdown', () => { window.labClickAt = performance.now(); }, true);
window.labModel = (name) => {
  const doc = Bokeh.documents[0];
  const roots = typeof doc.roots === 'function' ? doc.roots() : doc.roots;
  for (const root of roots) {
    if (root.name === name) { return root; }
    for (const m of root.references()) { if (m.name === name) { return m; } }
  }
  return null;
};
"""


class LabPage:
    """One browser page of the lab, with the few moves its tests and screenshots need.

    ``errors`` collects console errors and uncaught page errors from the moment the page opens.
    ``before_load(page)`` runs before the page is opened (to route its requests, say); a page not
    ready within ``ready_timeout`` seconds raises.
    """

    def __init__(
        self,
        browser,
        url: str,
        court: str | None = None,
        width: int = WINDOW[0],
        height: int = WINDOW[1],
        before_load=None,
        ready_timeout: float = READY_TIMEOUT,
    ):
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.ready_timeout = ready_timeout
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"{m.text} ({m.location})") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(e.stack or str(e)))
        self.page.add_init_script(_INIT_SCRIPT)
        if before_load is not None:
            before_load(self.page)
        # The first page of a fresh install waits for the server while kernels compile.
        self.page.goto(url + (f"?court={court}" if court else ""), timeout=ready_timeout * 1000)
        self.wait_ready()

    def wait_ready(self) -> None:
        """Wait until the page is the lab and its court answers the pointer; a page that never is
        raises with what it logged."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(_READY, timeout=self.ready_timeout * 1000)
            self.page.wait_for_function(
                "() => window.shuffleLab && window.shuffleLab.view != null"
                " && window.shuffleLab.plot === labModel('court')",
                timeout=self.ready_timeout * 1000,
            )
        except PlaywrightTimeout as exc:
            raise RuntimeError(f"the lab page never became ready ({exc}); its errors: {self.errors}") from exc
        self.settle()

    def close(self) -> None:
        self.page.close()

    def settle(self, seconds: float = 0.3) -> None:
        """Let the server's answers to the last moves arrive (the page is otherwise idle)."""
        self.page.wait_for_timeout(int(seconds * 1000))

    def model(self, name: str, attr: str):
        """A property of the page's model called ``name`` (sources' ``data`` come back as plain lists)."""
        return self.page.evaluate(
            """([name, attr]) => {
                 const m = labModel(name);
                 if (m == null) { return null; }
                 const v = m[attr];
                 if (attr != 'data') { return v; }
                 const out = {};
                 for (const [k, col] of (v instanceof Map ? v : Object.entries(v))) { out[k] = Array.from(col); }
                 return out;
               }""",
            [name, attr],
        )

    def set_value(self, name: str, value) -> None:
        """Set a widget's value as typing or choosing it does (the change goes to the server)."""
        self.page.evaluate("([name, value]) => { labModel(name).value = value; }", [name, value])

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        px, py = self.page.evaluate(_TO_PAGE, [x, y])
        return float(px), float(py)

    def click_at(self, x: float, y: float) -> None:
        self.page.mouse.click(*self.to_page(x, y))
        self.settle()

    def drag(
        self, start: tuple[float, float], end: tuple[float, float], steps: int = 12, pause: float = 0.03, during=None
    ) -> None:
        """Drag with the mouse from one court point to another; ``during(k)`` runs after each step."""
        (px, py), (qx, qy) = self.to_page(*start), self.to_page(*end)
        mouse = self.page.mouse
        mouse.move(px, py)
        mouse.down()
        for k in range(1, steps + 1):
            mouse.move(px + (qx - px) * k / steps, py + (qy - py) * k / steps)
            self.page.wait_for_timeout(int(pause * 1000))
            if during is not None:
                during(k)
        mouse.up()
        self.settle()

    def click_button(self, label: str) -> None:
        self.page.get_by_role("button", name=label, exact=True).click()

    def message(self) -> str:
        """The status area's text, as a player reads it (markup taken out)."""
        text = re.sub(r"</div>", "\n", self.model("message", "text") or "")
        return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()

    def wait_message(self, text: str, present: bool = True, timeout: float = 60.0) -> str:
        """Wait until the status area says ``text`` (or, ``present`` False, no longer says it); the
        status text then. ``TimeoutError`` naming what it says instead after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            said = self.message()
            if (text in said) == present:
                return said
            if time.monotonic() > deadline:
                raise TimeoutError(f"the status area {'never said' if present else 'still says'} {text!r}: {said!r}")
            self.page.wait_for_timeout(50)

    def boxes(self, selector: str) -> list[dict]:
        """Every element matching a CSS selector, in the page and inside the widgets' shadow roots:
        its box on the screen (CSS pixels: left, right, top, bottom), its text, and whether its text
        is cut (wider than the room inside the element, or inside its container for an inline one:
        ``cut``)."""
        return self.page.evaluate(_BOXES, selector)

    def court_id(self) -> str | None:
        return self.page.evaluate("() => labModel('court') ? labModel('court').id : null")

    def wait_rebuilt(self, old_court: str | None) -> None:
        """Wait until the page has been built again (another court, a loaded file) and is ready."""
        self.page.wait_for_function(
            f"() => labModel('court') != null && labModel('court').id != {old_court!r}", timeout=READY_TIMEOUT * 1000
        )
        self.wait_ready()

    def wait_for(self, condition: str, timeout: float = 60.0) -> None:
        """Wait until a JavaScript expression is true."""
        self.page.wait_for_function(f"() => {condition}", timeout=int(timeout * 1000))
