"""Write the example shots of ``shuffle-sim calibrate``: experiments/deck-speed-shots.csv.

Twelve speed shots on a deck court, six from each end, the way a club takes them: each player slides
a disc from the middle of a 10-off area toward the other one, a helper notes where it was aimed (a
point on the far baseline), times it with a stopwatch from release to rest, and measures where it
stopped. The court: a 14 s court (mu = 0.011893) with a grade of 1 in 1000 that pulls discs toward the
foot (slope = [0, 0.001]). The shots are computed with ``shuffle_sim.calibrate.forward`` (the closed
form of a disc without spin on a uniform grade), then measured with errors: rests to about a
centimetre, times to about a tenth of a second, rounded as written down::

    python experiments/speed_shots_example.py            # writes experiments/deck-speed-shots.csv
    shuffle-sim calibrate deck experiments/deck-speed-shots.csv

(The closed form stands in for the simulator on a graded court until the kernel has one; with it,
the shots would come from ``simulate`` on ``deck`` with ``params = {"speed": "14 s", "slope": [0, 0.001]}``.)
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

import numpy as np

from shuffle_sim.calibrate.forward import rest_and_time
from shuffle_sim.court import load_court
from shuffle_sim.units import FOOT

OUT = Path(__file__).resolve().parent / "deck-speed-shots.csv"
SLOPE = (0.0, 0.001)
SEED = 23


def speed_shots(
    seconds: float = 14.0, slope=SLOPE, n: int = 12, seed: int = SEED, position_sd: float = 0.01, time_sd: float = 0.1
) -> list[dict]:
    """``n`` measured speed shots (half from each end) on the deck at ``seconds`` with a ``slope``."""
    court = load_court("deck").with_params(speed=f"{seconds!r} s")
    mu, g = court.params["mu"], court.params["gravity"]
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(n):
        from_head = k % 2 == 0
        start_x = float(rng.uniform(-0.6, 0.6))
        start_y = 7.25 * FOOT if from_head else 44.75 * FOOT
        aim_y = 45.5 * FOOT if from_head else 6.5 * FOOT  # the far baseline
        aim_x = float(rng.normal(0.0, 0.3))
        direction = math.atan2(aim_x - start_x, aim_y - start_y)
        # A player's weight: meant to stop 37.5 ft on, off by a few percent.
        v0 = math.sqrt(2 * mu * g * 37.5 * FOOT) * float(rng.normal(1.0, 0.03))
        rest_x, rest_y, t = (float(v) for v in rest_and_time(start_x, start_y, direction, v0, mu, *slope, g))
        rows.append(
            {
                "start_x": round(start_x, 3),
                "start_y": round(start_y, 3),
                "aim_x": round(aim_x, 3),
                "aim_y": round(aim_y, 3),
                "rest_x": round(rest_x + float(rng.normal(0, position_sd)), 3),
                "rest_y": round(rest_y + float(rng.normal(0, position_sd)), 3),
                "time": round(t + float(rng.normal(0, time_sd)), 2),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(OUT), help=f"the CSV to write (default {OUT.name})")
    args = parser.parse_args(argv)
    rows = speed_shots()
    with open(args.out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["start_x", "start_y", "rest_x", "rest_y", "aim_x", "aim_y", "time"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.out}: {len(rows)} shots")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
