"""Serve the shot lab: a Bokeh server on this machine, one document per browser session.

``serve(court, port, host, open_browser)`` listens on 127.0.0.1 unless another host is given (the
lab runs the user's physics on request, so it is not exposed to the network by default), checks the
court before listening, and runs until interrupted. It listens at once and compiles (or loads from
numba's cache) the kernels in the background (``warmup.WarmUp``): when numba must compile, the
terminal says so, naming numba's cache folder, and a page opened meanwhile shows the progress; the
page becomes the lab as soon as it can judge discs, and what needs kernels still compiling waits for
them in order, saying so (``session``). The page is at ``http://HOST:PORT/lab``;
``?court=NAME&end=END`` opens another court.
"""

from __future__ import annotations

import webbrowser

from shuffle_sim.court import load_court
from shuffle_sim.lab.app import LabOptions, make_document
from shuffle_sim.lab.warmup import WarmUp, lab_warm_up

PATH = "/lab"


def make_server(
    court: str = "deck", end: str | None = None, port: int = 5006, host: str = "127.0.0.1", warmup: WarmUp | None = None
):
    """A started-but-not-running Bokeh ``Server`` for the lab (``server.io_loop.start()`` runs it);
    its sessions wait for ``warmup`` (by default the process's shared one)."""
    from bokeh.application import Application
    from bokeh.application.handlers.function import FunctionHandler
    from bokeh.server.server import Server

    load_court(court, end=end)  # a bad court or end fails here, with the court's message
    app = Application(FunctionHandler(make_document(LabOptions(court=court, end=end, warmup=warmup))))
    origins = [f"{host}:{port}", f"localhost:{port}", f"127.0.0.1:{port}"]
    server = Server(
        {PATH: app},
        port=port,
        address=host,
        allow_websocket_origin=origins,
        websocket_max_message_size=64 * 1024 * 1024,
    )
    server.start()
    return server


def serve(
    court: str = "deck", end: str | None = None, port: int = 5006, host: str = "127.0.0.1", open_browser: bool = True
) -> None:
    """Run the lab until interrupted (Ctrl-C)."""
    warmup = lab_warm_up(court, end, say=lambda line: print(line, flush=True))
    server = make_server(court, end, port, host, warmup)
    url = f"http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{server.port}{PATH}"
    print(f"shot lab: {url} (Ctrl-C stops it)", flush=True)
    warmup.start()
    if open_browser:
        server.io_loop.add_callback(lambda: webbrowser.open(url))
    try:
        server.io_loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        warmup.stop()
        server.stop()
