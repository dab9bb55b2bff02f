"""Serve the shot lab: a Bokeh server on this machine, one document per browser session.

``serve(court, port, host, open_browser)`` listens on 127.0.0.1 unless another host is given (the
lab runs the user's physics on request, so it is not exposed to the network by default), checks the
court before listening, warms the kernels up so that the first shot is as quick as the next ones,
and runs until interrupted. The page is at ``http://HOST:PORT/lab``; ``?court=NAME&end=END`` opens
another court.
"""

from __future__ import annotations

import webbrowser

from shuffle_sim.court import load_court
from shuffle_sim.lab.app import LabOptions, make_document

PATH = "/lab"


def warm_up(court_ref: str, end: str | None) -> None:
    """Compile (or load from numba's cache) the kernels a shot and noisy copies use, on a tiny case."""
    from shuffle_sim.lab.board import LabBoard, LabError
    from shuffle_sim.lab.shots import Aim, noisy_copies, play_shot
    from shuffle_sim.lab.starts import legal_starts
    from shuffle_sim.noise import NoiseModel

    court = load_court(court_ref, end=end)
    start = legal_starts(court)[0]
    x, y = start.point(0.5)
    cx, cy = court_centre(court)
    aim = Aim(x, y, 0.1, start.toward(cx, cy), 0.0, "A")
    for fraction in (0.5, 0.3, 0.7, 0.9):  # a resting disc somewhere clear, for the board path
        board = LabBoard(court)
        try:
            board.place(x + fraction * (cx - x), y + fraction * (cy - y), "B")
            break
        except LabError:
            continue
    for board in (LabBoard(court), board):
        play_shot(board, aim)
        noisy_copies(board, aim, NoiseModel(speed=0.01), 8)
        board.judgement()
        board.frame_score()


def court_centre(court) -> tuple[float, float]:
    x0, y0, x1, y1 = court.bounds
    return 0.5 * (x0 + x1), 0.5 * (y0 + y1)


def make_server(court: str = "deck", end: str | None = None, port: int = 5006, host: str = "127.0.0.1"):
    """A started-but-not-running Bokeh ``Server`` for the lab (``server.io_loop.start()`` runs it)."""
    from bokeh.application import Application
    from bokeh.application.handlers.function import FunctionHandler
    from bokeh.server.server import Server

    load_court(court, end=end)  # a bad court or end fails here, with the court's message
    app = Application(FunctionHandler(make_document(LabOptions(court=court, end=end))))
    origins = [f"{host}:{port}", f"localhost:{port}", f"127.0.0.1:{port}"]
    server = Server({PATH: app}, port=port, address=host, allow_websocket_origin=origins,
                    websocket_max_message_size=64 * 1024 * 1024)
    server.start()
    return server


def serve(court: str = "deck", end: str | None = None, port: int = 5006, host: str = "127.0.0.1",
          open_browser: bool = True, warm: bool = True) -> None:
    """Run the lab until interrupted (Ctrl-C)."""
    server = make_server(court, end, port, host)
    if warm:
        warm_up(court, end)
    url = f"http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{server.port}{PATH}"
    print(f"shot lab: {url} (Ctrl-C stops it)", flush=True)
    if open_browser:
        server.io_loop.add_callback(lambda: webbrowser.open(url))
    try:
        server.io_loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
