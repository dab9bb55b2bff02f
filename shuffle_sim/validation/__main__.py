"""``python -m shuffle_sim.validation [--refresh]``: write the validation page (``docs/validation.md``).

Without ``--refresh`` the page is written again from the results file (``docs/validation/results.json``),
at no cost. With it every figure is computed again from the sources (``data/sources.toml``; raw
files named with ``--clip``, ``--misses``, ``--competitive``, or downloaded once into ``--cache``):
the tracked table's fits and their pictures, the presets' open-20 rates (``--shots`` each), the
crokinole rounds of ``--games`` simulated games and the court speeds; then the results file and the
page are written. ``--check`` writes nothing and exits 1 when the page does not show the results
file's numbers.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from shuffle_sim.validation.page import RERUN
from shuffle_sim.validation.results import DOCS, PAGE, check_page, refresh, write_page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shuffle_sim.validation", description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="compute every figure again from the sources")
    parser.add_argument("--check", action="store_true", help="exit 1 when the page is not current")
    parser.add_argument("--clip", help="the tracked clip's CSV file (default: downloaded)")
    parser.add_argument("--misses", help="the Pudding's misses.csv (default: downloaded)")
    parser.add_argument("--competitive", help="the Pudding's competitive.csv (default: downloaded)")
    parser.add_argument("--shots", type=int, default=20000, help="simulated open 20s per preset (default 20000)")
    parser.add_argument("--games", type=int, default=40, help="simulated crokinole games of 4 rounds (default 40)")
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "shuffle-sim-validation"))
    parser.add_argument("--docs", default=str(DOCS), help="the documentation folder (default: the checkout's docs/)")
    args = parser.parse_args(argv)
    docs = Path(args.docs)
    if args.check:
        stale = check_page(docs)
        if stale:
            print(f"error: {docs / PAGE} is not current: {stale} (run {RERUN})", file=sys.stderr)
            return 1
        return 0
    if args.refresh:
        for name in ("shots", "games"):
            if getattr(args, name) < 1:
                print(f"error: --{name} must be at least 1 (got {getattr(args, name)})", file=sys.stderr)
                return 2
        refresh(docs, Path(args.cache), args.clip, args.misses, args.competitive, args.shots, args.games)
    print(f"wrote {write_page(docs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
