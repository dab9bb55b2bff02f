"""Benchmarks: ``bench``, ``bench-judge``, ``bench-games``, ``bench-players``, ``bench-envs``,
``bench-experiments``, ``bench-startup``. Each prints rates and ratios measured side by side in one run
(``shuffle_sim.bench``)."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from shuffle_sim.cli._common import UsageError, positive_int
from shuffle_sim.games import game_names


def _print_report(args: argparse.Namespace, report: dict, format_report) -> int:
    """Print a benchmark's report: JSON with --json, else as ``format_report`` writes it."""
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def _sizes(args: argparse.Namespace, quick, full, **options: str):
    """A benchmark's sizes: ``quick`` with --quick, else ``full``, each size named in ``options``
    (size field -> option) set from its option where given."""
    given = {size: getattr(args, option) for size, option in options.items() if getattr(args, option) is not None}
    return replace(quick if args.quick else full, **given)


def cmd_bench(args: argparse.Namespace) -> int:
    """Benchmark the physics kernel beside pymunk: single shots, half-rounds, JIT warm-up."""
    from shuffle_sim.bench.physics import FULL, QUICK, format_table, run_bench

    return _print_report(args, run_bench(QUICK if args.quick else FULL), format_table)


def cmd_bench_judge(args: argparse.Namespace) -> int:
    """Benchmark judge_batch on the deck court: discs per second on one thread and on all."""
    from shuffle_sim.bench.judging import format_report, run_bench

    return _print_report(args, run_bench(n=args.n, repeats=args.repeats), format_report)


def cmd_bench_games(args: argparse.Namespace) -> int:
    """Benchmark whole simulated deck games to 75 (numba engine) beside the rules-layer driver."""
    from shuffle_sim.bench.games import FULL, QUICK, format_report, run_bench

    return _print_report(args, run_bench(QUICK if args.quick else FULL), format_report)


def cmd_bench_players(args: argparse.Namespace) -> int:
    """Play a few games per game type and preset; report shot mix and success rates by intent."""
    from shuffle_sim.bench.players import FULL, QUICK, format_report, run_bench

    if args.budget is not None and args.players is not None:
        raise UsageError("--budget sets the default win player's budget; with --players name it there (expert-win3000)")
    sizes = _sizes(
        args,
        QUICK,
        FULL,
        games="games",
        head_to_head_games="head_to_head",
        head_to_head_workers="workers",
        head_to_head_budget="budget",
    )
    if args.players is not None:
        from shuffle_sim.playing.player_names import parse_players

        # each game's players are checked before any game is played (the names are the same for all)
        pairs = [parse_players(game, args.players) for game in args.game or game_names()]
        sizes = replace(sizes, head_to_head_players=(pairs[0][0].name, pairs[0][1].name))
    report = run_bench(sizes, tuple(args.game) if args.game else None, seed=args.seed)
    return _print_report(args, report, format_report)


def cmd_bench_envs(args: argparse.Namespace) -> int:
    """Random-agent steps per second in the game environments, against plan and ev opponents."""
    from shuffle_sim.bench.envs import FULL, QUICK, format_report, run_bench

    sizes = _sizes(args, QUICK, FULL, workers="workers", plan_steps="steps")
    report = run_bench(sizes, tuple(args.game) if args.game else None, seed=args.seed)
    return _print_report(args, report, format_report)


def cmd_bench_experiments(args: argparse.Namespace) -> int:
    """Benchmark batch experiments (after JIT warm-up) and print the timings and ratios."""
    from shuffle_sim.bench.experiments import run_benchmarks

    run_benchmarks(as_json=args.json, quick=args.quick)
    return 0


def cmd_bench_startup(args: argparse.Namespace) -> int:
    """Benchmark what a user waits for: the main job warm and cold, the runner, --version, the plots."""
    from shuffle_sim.bench.startup import run_benchmarks

    run_benchmarks(as_json=args.json, quick=args.quick, record=args.record, only_first_use=args.first_use)
    return 0


def _json_and_quick(p, quick: str) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quick", action="store_true", help=quick)


def register(sub) -> None:
    """Add this module's subcommands to the parser's subparsers ``sub``."""
    p = sub.add_parser("bench", help="benchmark the physics kernel beside pymunk (shots, half-rounds, JIT)")
    _json_and_quick(p, "tiny sizes and no JIT probe (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("bench-judge", help="benchmark judge_batch on the deck court (discs per second)")
    p.add_argument("--n", type=positive_int, default=4_000_000, help="discs per run (default 4,000,000)")
    p.add_argument("--repeats", type=positive_int, default=5, help="runs per thread count; the best counts")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_bench_judge)

    p = sub.add_parser("bench-games", help="benchmark whole simulated deck games to 75 per second (numba engine)")
    _json_and_quick(p, "small sizes (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench_games)

    p = sub.add_parser(
        "bench-players", help="play games per game type and preset; shot mix and success by intent, win against ev"
    )
    _json_and_quick(p, "one short game per preset (a smoke run)")
    p.add_argument("--games", type=positive_int, default=None, metavar="N", help="games per preset (default 5)")
    p.add_argument("--game", action="append", choices=game_names(), help="only this game (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (game g uses seed + g)")
    p.add_argument(
        "--head-to-head",
        type=int,
        default=None,
        metavar="N",
        help="games of the win player against the ev player per game type (default 200; 0: none)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="processes playing the head-to-head games (default 2)",
    )
    p.add_argument(
        "--budget",
        type=positive_int,
        default=None,
        metavar="N",
        help="the win player's simulated shots per decision (default deck and crokinole 24000, others 6000)",
    )
    p.add_argument(
        "--players",
        default=None,
        metavar="A,B",
        help="the head-to-head players, the one measured first (default SKILL-win,SKILL-ev of the game's "
        "preset); for example top-competitive-ev,average-competitive-ev: what a skill level is worth",
    )
    p.set_defaults(func=cmd_bench_players)

    p = sub.add_parser(
        "bench-envs", help="benchmark the game environments: random-agent steps per second, physics share"
    )
    _json_and_quick(p, "few steps (a smoke run, not the benchmark)")
    p.add_argument("--game", action="append", choices=game_names(), help="only this game (repeatable)")
    p.add_argument(
        "--workers", type=positive_int, default=None, metavar="N", help="processes at once (default 2: one per core)"
    )
    p.add_argument(
        "--steps", type=positive_int, default=None, metavar="N", help="steps per worker against the plan opponent"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first worker's games (worker k: seed + k)")
    p.set_defaults(func=cmd_bench_envs)

    p = sub.add_parser("bench-experiments", help="benchmark batch experiments and Dask scale-out")
    _json_and_quick(p, "smaller sizes (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench_experiments)

    p = sub.add_parser(
        "bench-startup",
        help="benchmark start-up: main job warm vs bare imports, first run, runner, each command's first use",
    )
    _json_and_quick(p, "one run each, no first run, the first use of judge only (a smoke run, not the benchmark)")
    p.add_argument("--first-use", action="store_true", help="only each command's first use (empty cache) and again")
    p.add_argument(
        "--record", action="store_true", help="record each command's compile seconds per kernel (the compile notice's)"
    )
    p.set_defaults(func=cmd_bench_startup)
