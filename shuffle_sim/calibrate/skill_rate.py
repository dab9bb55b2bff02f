"""Calibrate a skill preset by simulation: scale its noise until a shot is made at a published rate.

Used for the crokinole presets: tournament players make about 55 % ("average competitive") and 65 %
("top competitive") of open 20s. Keeping the preset's proportions between speed and direction errors,
one factor scales all its standard deviations; the make rate falls as the factor grows, so a bisection
on the factor (on a log scale, with the same random draws at every step: common random numbers) finds
the factor that gives the rate::

    python -m shuffle_sim.calibrate.skill_rate experiments/crokinole-open20.toml \\
        --skill "average competitive" --rate 0.55
    python -m shuffle_sim.calibrate.skill_rate experiments/crokinole-open20.toml --check
    python -m shuffle_sim.calibrate.skill_rate experiments/crokinole-open20.toml --check --spin-model decoupled

The first prints the calibrated standard deviations (to copy into ``shuffle_sim/noise/skills.toml``); the
second prints the make rate of every preset on the experiment's skill axis. All simulate on the
experiment's court with its materials, the spin model included (``spin_model``: "coupled", every
court's default, Farkas et al. 2003, docs/design.md 3; the experiment's ``[params]`` or, as in the
third, ``--spin-model`` may choose "decoupled"), and print the court and the spin model with the
rates: a rate belongs to the model it was simulated under. Under the coupled model a preset's spin
error matters (a disc launched with a twist brakes less and slides farther); under the decoupled one
it cannot change a lone disc's path.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace

from shuffle_sim.court.materials import SPIN_MODELS
from shuffle_sim.experiment import compute_chunk
from shuffle_sim.experiment.spec import Experiment, load_experiment
from shuffle_sim.messages import shown
from shuffle_sim.noise import NoiseModel

OUTCOME_FIELDS = {"holed": "holed", "hanger": "hanger", "dead": "dead"}
VARY_FIELDS = ("speed", "direction", "spin", "start")


def make_rate(experiment: Experiment, model: NoiseModel, shots: int, outcome: str = "holed") -> float:
    """Fraction of ``shots`` noisy repetitions of the experiment's nominal shot that end ``outcome``.

    The experiment's grid is dropped: every shot is its nominal shot played with ``model``.
    """
    single = replace(experiment, axes=(), distributions=(), noise=model, samples=shots, records=False)
    sums = compute_chunk(single, 0, shots)
    judged = int(sums["shots"].sum())
    return int(sums[OUTCOME_FIELDS[outcome]].sum()) / judged if judged else float("nan")


def spin_model(experiment: Experiment) -> str:
    """The spin model the experiment's shots are simulated under (its court's, after its ``[params]``)."""
    return experiment.court.params["spin_model"]


def scaled(base: NoiseModel, factor: float, vary: str | None = None) -> NoiseModel:
    """``base`` with every standard deviation times ``factor``, or only the one named by ``vary``
    ("speed" scales the whole speed error: its proportional part and its absolute floor alike, so
    that their split, which one rate cannot tell, stays the preset's)."""
    if vary is None:
        return base.scaled(factor)
    if vary not in VARY_FIELDS:
        raise ValueError(f"vary must be one of {', '.join(VARY_FIELDS)} (got {vary!r})")
    if vary == "speed":
        return replace(base, speed=base.speed * factor, speed_floor=base.speed_floor * factor)
    return replace(base, **{vary: getattr(base, vary) * factor})


def calibrate_scale(
    experiment: Experiment,
    base: NoiseModel,
    rate: float,
    shots: int = 20000,
    outcome: str = "holed",
    tolerance: float = 0.002,
    low: float = 1e-2,
    high: float = 1e2,
    max_steps: int = 40,
    vary: str | None = None,
) -> tuple[float, float]:
    """The factor ``s`` for which ``base.scaled(s)`` makes ``outcome`` at ``rate``; returns (s, rate found).
    With ``vary`` ("speed", "direction", ...) only that standard deviation is scaled: the others are
    fixed by other figures (crokinole: direction by take-out accuracy, docs/players/skills.md)."""
    if not 0.0 < rate < 1.0:
        raise ValueError(f"rate must lie strictly between 0 and 1 (got {shown(rate)})")
    lo, hi = math.log(low), math.log(high)
    rate_lo = make_rate(experiment, scaled(base, low, vary), shots, outcome)
    rate_hi = make_rate(experiment, scaled(base, high, vary), shots, outcome)
    if not rate_hi <= rate <= rate_lo:
        raise ValueError(
            f"rate {rate} is not between {rate_hi:.4f} (noise x{high:g}) and {rate_lo:.4f} (noise x{low:g})"
        )
    mid_rate = rate_lo
    for _ in range(max_steps):
        mid = (lo + hi) / 2
        mid_rate = make_rate(experiment, scaled(base, math.exp(mid), vary), shots, outcome)
        if abs(mid_rate - rate) <= tolerance:
            break
        if mid_rate > rate:
            lo = mid
        else:
            hi = mid
    return math.exp(mid), mid_rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m shuffle_sim.calibrate.skill_rate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("experiment", help="experiment file whose nominal shot is calibrated on")
    parser.add_argument("--skill", help="skill preset to calibrate (its proportions are kept)")
    parser.add_argument("--rate", type=float, help="make rate to reach, e.g. 0.55")
    parser.add_argument("--outcome", choices=sorted(OUTCOME_FIELDS), default="holed")
    parser.add_argument("--shots", type=int, default=20000, help="shots per evaluation (default 20000)")
    parser.add_argument("--check", action="store_true", help="print the rate of every preset on the skill axis")
    parser.add_argument(
        "--vary",
        choices=VARY_FIELDS,
        default=None,
        help="scale only this standard deviation (the others kept as the preset gives them)",
    )
    parser.add_argument(
        "--spin-model",
        choices=SPIN_MODELS,
        default=None,
        help="simulate under this spin model instead of the court's (default: the court's, coupled)",
    )
    args = parser.parse_args(argv)
    experiment = load_experiment(args.experiment)
    if args.spin_model is not None:
        experiment = replace(experiment, court=experiment.court.with_params(spin_model=args.spin_model))
    skills = {m.name: m for m in experiment.skill_models()}
    print(f"{experiment.name}: court {experiment.court.name}, spin model {spin_model(experiment)}")
    if args.check:
        for name, model in skills.items():
            rate = make_rate(experiment, model, args.shots, args.outcome)
            print(f"{name:22s} {args.outcome} rate {rate:.4f} over {args.shots} shots")
        return 0
    if args.skill not in skills or args.rate is None:
        parser.error(f"give --skill (one of: {', '.join(skills)}) and --rate, or --check")
    base = skills[args.skill]
    scale, found = calibrate_scale(experiment, base, args.rate, args.shots, args.outcome, vary=args.vary)
    model = scaled(base, scale, args.vary)
    print(
        f"{args.skill}: {args.vary or 'noise'} x{scale:.4f} gives {args.outcome} rate {found:.4f} "
        f"(goal {args.rate}) over {args.shots} shots"
    )
    print(
        f"  speed = {model.speed:.4f}"
        + (f"\n  speed_floor = {model.speed_floor:.4f}" if model.speed_floor else "")
        + f"\n  direction = {math.degrees(model.direction):.4f}"
        + (f"\n  spin = {model.spin:.4f}" if model.spin else "")
        + (f'\n  start = "{model.start:.5f} m"' if model.start else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
