"""The shot lab: ``lab`` serves an interactive court in the browser."""

from __future__ import annotations

import argparse

from shuffle_sim.cli._common import UsageError, positive_int


def cmd_lab(args: argparse.Namespace) -> int:
    """Serve the shot lab (an interactive court in the browser) until interrupted."""
    try:
        from shuffle_sim.lab.server import serve
    except ImportError as exc:
        raise UsageError(f"lab: needs the optional extra: pip install 'shuffle_sim[lab]' ({exc})") from None
    if not 1 <= args.port <= 65535:
        raise UsageError(f"lab: --port must be from 1 to 65535 (got {args.port})")
    try:
        serve(court=args.court, end=args.end, port=args.port, host=args.host, open_browser=not args.no_browser)
    except OSError as exc:
        raise UsageError(f"lab: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})") from None
    return 0


def register(sub) -> None:
    """Add this module's subcommand to the parser's subparsers ``sub``."""
    p = sub.add_parser("lab", help="serve the shot lab: place discs, aim, shoot and see noisy copies in the browser")
    p.add_argument("--court", default="deck", metavar="NAME|PATH", help="court name or court file (default deck)")
    p.add_argument("--end", default=None, help="scoring end, for courts with two (deck: foot or head)")
    p.add_argument("--port", type=positive_int, default=5006, help="port to listen on (default 5006)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open the page in the default browser")
    p.set_defaults(func=cmd_lab)
