"""A lab server whose warm-up ends just after a page has asked for the lab (a page whose address
names a court), instead of when the kernels are compiled: that page's session starts on the waiting
page and the lab replaces it as the page loads. Takes ``shuffle-sim lab``'s ``--court``, ``--port``
and ``--no-browser``."""

from __future__ import annotations

import argparse
import threading

from shuffle_sim.lab import server
from shuffle_sim.lab.warmup import BOARD, WarmUp


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--court", default="crokinole")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    asked = threading.Event()
    warmup = WarmUp(lambda: {BOARD: [("a page's request", lambda: asked.wait(60))]}, say=print, cold=True)
    make_document = server.make_document

    def noting_the_request(options):
        modify_doc = make_document(options)

        def modify(doc) -> None:
            modify_doc(doc)
            request = getattr(doc.session_context, "request", None)
            if "court" in (getattr(request, "arguments", None) or {}):
                asked.set()

        return modify

    server.make_document = noting_the_request
    lab = server.make_server(args.court, None, args.port, "127.0.0.1", warmup)
    warmup.start()
    lab.io_loop.start()


if __name__ == "__main__":
    main()
