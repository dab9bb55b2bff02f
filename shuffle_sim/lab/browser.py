"""Headless Chromium for the lab's browser tests and screenshots, driven by Playwright.

Playwright's own browser download is not used: the system's Chromium (Debian's ``chromium``
package, ``/usr/bin/chromium``) is launched, headless and without background network traffic.
``lab_server`` runs ``shuffle-sim lab`` in a child process on a free loopback port and stops it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

CHROMIUM = os.environ.get("SHUFFLE_SIM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Seconds to wait for the server to answer (it imports numba and warms the kernels up first).
START_TIMEOUT = 120.0


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
def lab_server(court: str = "deck", port: int | None = None):
    """Run ``shuffle-sim lab --no-browser`` on a free port; yield the page's URL; stop it after."""
    port = port or free_port()
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.Popen([sys.executable, "-m", "shuffle_sim.cli", "lab", "--court", court, "--port", str(port),
                             "--no-browser"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/lab"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the lab server exited early:\n{proc.stdout.read()}")
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the lab server did not answer at {url} within {START_TIMEOUT:.0f} s")
            time.sleep(0.2)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


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
