"""The ``shuffle-sim`` command line.

Each subcommand is a small function ``cmd_NAME(args) -> int`` registered in ``build_parser``. Bad
input (a malformed court or scene file, a bad coordinate, a negative parameter) ends with exit
status 2 and a one-line message on standard error; nothing already written is removed.
"""

from __future__ import annotations

import argparse
import json
import sys

from shuffle_sim.court import CourtError, list_courts, load_court


class UsageError(ValueError):
    """Bad command-line input that the parser could not catch; exit status 2."""


def _point(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in metres, got {text!r}") from None
    return x, y


# ---- subcommands ---------------------------------------------------------------------------------

def cmd_courts(args: argparse.Namespace) -> int:
    """List the courts found by name, with their game and title."""
    for name in list_courts():
        court = load_court(name)
        ends = ", ".join(court.ends)
        print(f"{name:14s} {court.game:13s} {court.title} (ends: {ends})")
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge resting discs at the given centres."""
    from shuffle_sim.judge import judge_batch

    court = load_court(args.court, end=args.end)
    if not args.disc:
        raise UsageError("judge: give at least one --disc X,Y")
    xs = [p[0] for p in args.disc]
    ys = [p[1] for p in args.disc]
    result = judge_batch(court, xs, ys)
    if args.json:
        print(json.dumps({"court": court.name, "discs": result.records()}))
    else:
        for rec in result.records():
            touching = ", ".join(rec["touching"]) or "-"
            status = "dead" if rec["dead"] else (f"{rec['hanger']} hanger" if rec["hanger"] else "live")
            print(f"({rec['x']:.4f}, {rec['y']:.4f}) m: value {rec['value']:4d}  zone {rec['zone'] or '-'}  "
                  f"touching {touching}  {status}")
    return 0


# ---- parser and entry point ----------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shuffle-sim", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("courts", help="list the courts and tables")
    p.set_defaults(func=cmd_courts)

    p = sub.add_parser("judge", help="judge resting discs on a court")
    p.add_argument("court", help="court name or path to a court file")
    p.add_argument("--disc", action="append", type=_point, metavar="X,Y", help="disc centre in metres (repeatable)")
    p.add_argument("--end", default=None, help="scoring end, for courts with two (deck: foot, the default, or head)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_judge)

    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (CourtError, UsageError, ValueError, FileNotFoundError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"shuffle-sim: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
