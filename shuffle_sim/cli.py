"""The ``shuffle-sim`` command line.

Each subcommand is a small function ``cmd_NAME(args) -> int`` registered in ``build_parser``. Bad
input (a malformed court or scene file, a bad coordinate, a negative parameter) ends with exit
status 2 and a one-line message on standard error; nothing already written is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading

from shuffle_sim import __version__
from shuffle_sim.games import game_names, games, get_game

# Nothing heavier than the standard library is imported here: each subcommand imports what it uses,
# so ``shuffle-sim --version`` and ``--help`` answer without loading NumPy or numba, and a run loads
# only the kernels of its job.


class UsageError(ValueError):
    """Bad command-line input that the parser could not catch; exit status 2."""


def _point(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in metres, got {text!r}") from None
    return x, y


@contextlib.contextmanager
def _sigterm_unwinds():
    """Within the block, SIGTERM raises SystemExit(143) (so ``finally`` clauses run, as for Ctrl-C)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _exit(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# ---- subcommands ---------------------------------------------------------------------------------

def cmd_courts(args: argparse.Namespace) -> int:
    """List the courts found by name, with their game and title."""
    from shuffle_sim.court import list_courts, load_court

    for name in list_courts():
        court = load_court(name)
        ends = ", ".join(court.ends)
        print(f"{name:14s} {court.game:13s} {court.title} (ends: {ends})")
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge resting discs at the given centres."""
    from shuffle_sim.court import load_court
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


def cmd_score(args: argparse.Namespace) -> int:
    """Score one frame of a game from a board of resting discs, explaining each disc's value."""
    from shuffle_sim.rules import default_court, horse_collar, ricochet, score_board
    from shuffle_sim.rules.board import load_board

    board = load_board(args.board, default_court(args.game), args.game)
    if args.side is not None and args.game != horse_collar.GAME:
        raise UsageError(f"score: --side applies to {horse_collar.GAME} only (got game {args.game!r})")
    if args.half is not None and args.game != ricochet.GAME:
        raise UsageError(f"score: --half applies to {ricochet.GAME} only (got game {args.game!r})")
    half = None
    if args.game == horse_collar.GAME:
        frame = horse_collar.score_frame(board, side=args.side)
    elif args.game == ricochet.GAME:
        half = ricochet.round_half(board, args.half)
        frame = ricochet.score_round(board, half=half)
    else:
        frame = score_board(args.game, board)
    if args.json:
        print(json.dumps(frame.to_dict()))
        return 0
    end = f" (scoring end: {board.court.end})" if len(board.court.ends) > 1 else ""
    end += f" (scoring half: {half})" if half is not None else ""
    print(f"{args.game} on court {board.court.name}{end}")
    for d in frame.discs:
        print(f"  ({d.x:.4f}, {d.y:.4f}) m  {d.team:8s} {d.value:4d}  {d.reason}")
    if frame.void:
        print(f"void: {frame.void}")
    print("scores: " + ", ".join(f"{team} {points}" for team, points in frame.scores.items()))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Run an experiment file: chunks in parallel, results (netCDF, Parquet) and plots on disk."""
    from pathlib import Path

    from shuffle_sim.experiment.plot_helper import PlotHelper
    from shuffle_sim.helper_process import core_to_spare

    # With a core to spare, the plots' process starts first: it imports matplotlib and rehearses the
    # plots while this one loads the kernels and computes.
    with PlotHelper() if not args.no_plots and core_to_spare() else contextlib.nullcontext() as helper:
        from shuffle_sim.experiment import run_experiment
        from shuffle_sim.experiment.lock import folder_lock
        from shuffle_sim.experiment.spec import load_experiment

        experiment = load_experiment(args.experiment)
        if helper is not None:
            helper.rehearse(experiment)
        out = Path(args.out) if args.out else Path("results") / experiment.name
        # The folder's lock is held across the run and its plots, and given back however the command
        # ends: SIGTERM becomes SystemExit here so that it unwinds like Ctrl-C does.
        with _sigterm_unwinds(), folder_lock(out):
            dask = args.dask
            if dask is not None:
                try:
                    from dask.distributed import Client
                except ImportError:
                    raise UsageError("run: --dask needs the optional extra: pip install 'shuffle_sim[dask]'") from None
                try:
                    dask = Client(args.dask, timeout="10s")
                except (OSError, TimeoutError) as exc:
                    raise UsageError(f"run: cannot reach the Dask scheduler at {args.dask!r} ({exc})") from None
            try:
                summary = run_experiment(experiment, out, resume=args.resume, workers=args.workers, dask=dask,
                                         chunk_size=args.chunk_size, progress=not args.quiet,
                                         on_grid=helper.draw if helper is not None else None)
            finally:
                if dask is not None:
                    dask.close()
            if args.no_plots:
                plots = []
            elif helper is not None:
                plots = helper.paths()
            else:
                from shuffle_sim.experiment.heatmaps import save_plots

                plots = save_plots(summary.out, dataset=summary.dataset)
    print(f"{experiment.name}: {summary.n_shots:,} shots in {summary.n_chunks} chunks "
          f"({summary.computed} computed, {summary.reused} reused) in {summary.seconds:.2f} s "
          f"({summary.shots_per_second:,.0f} shots/s)")
    if summary.failed:
        print(f"left out: {summary.failed:,} shots not played (sampled start off the surface or on a disc) or not "
              f"finished (event bound); per cell in the variable 'failed'")
    if summary.retried:
        print(f"retried: chunk{'s' if len(summary.retried) > 1 else ''} {', '.join(map(str, summary.retried))} "
              "(computed again after their Dask worker was lost)")
    print(f"results: {summary.grid_path}" + (f" and {summary.records_path}" if summary.records_path else ""))
    for path in plots:
        print(f"plot: {path}")
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    """Redraw the plots of saved experiment results."""
    from shuffle_sim.experiment.heatmaps import save_plots

    for path in save_plots(args.results, metrics=args.metric, out_dir=args.out):
        print(f"plot: {path}")
    return 0


def cmd_bench_experiments(args: argparse.Namespace) -> int:
    """Benchmark batch experiments (after JIT warm-up) and print the timings and ratios."""
    from shuffle_sim.bench.experiments import run_benchmarks

    run_benchmarks(as_json=args.json, quick=args.quick)
    return 0


def cmd_bench_startup(args: argparse.Namespace) -> int:
    """Benchmark what a user waits for: the main job warm and cold, the runner, --version, the plots."""
    from shuffle_sim.bench.startup import run_benchmarks

    run_benchmarks(as_json=args.json, quick=args.quick)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Benchmark the physics kernel beside pymunk: single shots, half-rounds, JIT warm-up."""
    from shuffle_sim.bench.kernel import FULL, QUICK, format_table, run_bench

    results = run_bench(QUICK if args.quick else FULL)
    print(json.dumps(results) if args.json else format_table(results))
    return 0


def _disc_with_team(text: str) -> tuple[float, float, str | None]:
    parts = [part.strip() for part in text.split(",")]
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y or X,Y,TEAM (metres), got {text!r}") from None
    return x, y, (parts[2] or None) if len(parts) == 3 else None


def _zoom(text: str):
    if "," not in text:
        return text
    try:
        box = tuple(float(v) for v in text.split(","))
    except ValueError:
        box = ()
    if len(box) != 4:
        raise argparse.ArgumentTypeError(f"expected an end's name or XMIN,YMIN,XMAX,YMAX in metres, got {text!r}")
    return box


def cmd_draw(args: argparse.Namespace) -> int:
    """Draw a court to scale into an image file, with discs labelled by their judged value."""
    from pathlib import Path

    from shuffle_sim.court import load_court
    from shuffle_sim.plot import plot_court

    court = load_court(args.court)
    # Discs without a team alternate between the game's two sides, in the order given.
    discs = [(x, y, team or "AB"[k % 2]) for k, (x, y, team) in enumerate(args.disc or [])]
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    plot_court(court, out, discs=discs or None, end=args.end, zoom=args.zoom, dpi=args.dpi)
    print(f"wrote {out}")
    return 0


def cmd_bench_judge(args: argparse.Namespace) -> int:
    """Benchmark judge_batch on the deck court: discs per second on one thread and on all."""
    from shuffle_sim.bench.judge import format_report, run_bench

    report = run_bench(n=args.n, repeats=args.repeats)
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole simulated game or match: the scoreboard frame by frame, then the scorecard on disk."""
    from pathlib import Path

    from shuffle_sim.play import SIDES, check_game_length, check_seed, frame_line, play, players_from, write_scorecard

    players = players_from(args.game, args.players)
    check_game_length(args.game, args.game_length)
    check_seed(args.seed)
    out = Path(args.out) if args.out else Path("results") / f"play-{args.game}-seed{args.seed}"
    what = "match" if args.match else "game"
    print(f"{args.game} {what}, seed {args.seed}: " + ", ".join(f"{s} {p.name}" for s, p in players.items()))

    def on_frame(number: int, frame) -> None:
        if frame.number == 1:
            print(f"game {number}")
        print(frame_line(frame, SIDES))

    def on_game(game) -> None:
        roles = ", ".join(f"{s} {r}" for s, r in game.roles.items())
        totals = ", ".join(f"{s} {game.totals[s]}" for s in game.sides)
        result = f"won by {game.winner}" if game.winner else ("tied" if game.finished else "unfinished")
        print(f"game {game.number} ({roles}): {result}, {totals}")

    record = play(args.game, tuple(players.values()), seed=args.seed, match=args.match,
                  game_length=args.game_length, on_frame=on_frame if not args.quiet else None, on_game=on_game)
    for note in record.notes:
        print(note)
    if args.match:
        wins = ", ".join(f"{s} {n}" for s, n in record.wins.items())
        print(f"match: {'won by ' + record.winner if record.winner else 'no winner'} (games won: {wins})")
    paths = write_scorecard(record, out, pictures=not args.no_pictures)
    print(f"scorecard: {paths[0]} and {paths[1]}" + (f"; {len(paths) - 2} frame pictures in {out}" if len(paths) > 2 else ""))
    return 0


def cmd_bench_games(args: argparse.Namespace) -> int:
    """Benchmark whole simulated deck games to 75 (numba engine) beside the rules-layer driver."""
    from shuffle_sim.bench.games import FULL, QUICK, format_report, run_bench

    report = run_bench(QUICK if args.quick else FULL)
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    """Rank the candidate shots for a board: expected frame value, success probability, spread."""
    from shuffle_sim.play.advisor import advise, plot_advice
    from shuffle_sim.play.players import parse_player
    from shuffle_sim.rules import default_court
    from shuffle_sim.rules.board import load_board

    board = load_board(args.board, default_court(args.game), args.game)
    player = parse_player(args.game, args.player or get_game(args.game).default_players.split(",")[0])
    ctx, advice = advise(args.game, board, player, shooter=args.shooter, position=args.position)
    if args.plot:
        plot_advice(ctx, advice, args.plot, best=args.best)
    if args.json:
        print(json.dumps({"game": args.game, "player": player.name, "shooter": ctx.shooter,
                          "shots": [a.to_dict() for a in advice]}))
        return 0
    print(f"{args.game}: {len(advice)} candidate shots for {ctx.shooter} ({player.name}), best first")
    print(f"  {'shot':48s} {'expected':>8s} {'success':>8s} {'spread':>7s}")
    for a in advice:
        print(f"  {a.intent.label[:48]:48s} {a.expected:+8.2f} {a.success:8.0%} {a.spread:7.2f}")
    if args.plot:
        print(f"picture: {args.plot}")
    return 0


def cmd_bench_players(args: argparse.Namespace) -> int:
    """Play a few games per game type and preset; report shot mix and success rates by intent."""
    from shuffle_sim.bench.players import FULL, QUICK, format_report, run_bench

    sizes = QUICK if args.quick else FULL
    if args.games is not None:
        from dataclasses import replace

        sizes = replace(sizes, games=args.games)
    report = run_bench(sizes, tuple(args.game) if args.game else None, seed=args.seed)
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def _players_help() -> str:
    """The --players help, with each game's skill presets and default players from the data files."""
    import tomllib
    from pathlib import Path

    with open(Path(__file__).resolve().parent / "skills.toml", "rb") as fh:
        skills = tomllib.load(fh)
    by_names: dict[str, list[str]] = {}
    for game in game_names():
        by_names.setdefault(", ".join(n.replace(" ", "-") for n in skills.get(game, {})), []).append(game)
    presets = "; ".join(f"{', '.join(g)}: {names}" for names, g in by_names.items())
    defaults = "; ".join(f"{name}: {entry.default_players}" for name, entry in games().items())
    return ("the two players, sides A and B, as A,B (one name alone plays both sides). Each is SKILL[-STRATEGY]: "
            f"SKILL a skill preset of the game from shuffle_sim/skills.toml ({presets}; any game: exact, no noise); "
            "STRATEGY plan (the fixed plan, the default) or ev (expected value over simulated candidate shots; evN "
            f"weighs each candidate over N sampled errors, default 24). Default: {defaults}")


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a scene file to rest; print the final discs, the contact log and the judging.

    Exit status 1 (with the results printed) when the scene hits its event bound.
    """
    from shuffle_sim.physics import STATUS_NAMES, sample_positions, simulate
    from shuffle_sim.scene import Scene

    scene = Scene.from_json(args.scene)
    result = simulate(scene, max_events=args.max_events)
    if args.plot or args.animate:
        from shuffle_sim import plot

        times, positions = sample_positions(result, args.frames)
        if args.plot:
            plot.plot_trajectories(scene.court, times, positions, scene.team, args.plot)
        if args.animate:
            plot.animate_trajectories(scene.court, times, positions, scene.team, args.animate)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{scene.court.name}: {len(result.events)} events, at rest after {result.t_end:.3f} s")
        for i, rec in enumerate(result.judging()):
            status = STATUS_NAMES[int(result.status[i])]
            standing = "dead" if rec["dead"] else "live"
            print(f"  disc {i} ({scene.team[i]}): ({result.x[i]:.4f}, {result.y[i]:.4f}) m  {status:6s} "
                  f"{standing}  value {rec['value']}  zone {rec['zone'] or '-'}")
    if not result.ok:
        print(f"shuffle-sim: simulate: stopped at the event bound ({args.max_events} events)", file=sys.stderr)
        return 1
    return 0


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


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


# ---- parser and entry point ----------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shuffle-sim", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("courts", help="list the courts and tables")
    p.set_defaults(func=cmd_courts)

    p = sub.add_parser("judge", help="judge resting discs on a court")
    p.add_argument("court", help="court name or path to a court file")
    p.add_argument("--disc", action="append", type=_point, metavar="X,Y", help="disc centre in metres (repeatable)")
    p.add_argument("--end", default=None, help="scoring end, for courts with two (deck: foot, the default, or head)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_judge)

    p = sub.add_parser("score", help="score one frame from a board of resting discs")
    p.add_argument("game", choices=game_names(), help="the game's rules")
    p.add_argument("board", help='board JSON: {"court": ..., "discs": [{"x", "y", "team"}, ...]}; court optional')
    p.add_argument("--side", default=None, help="horse-collar: the throwing side's name (default: the pucks' team)")
    p.add_argument("--half", default=None, choices=["left", "right"],
                   help='ricochet: the half the round scores on, opposite the half the weights are slid from '
                        '(overrides the board\'s "half"; default: the one half the weights in play lie on)')
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("run", help="run a batch shot experiment (experiments/*.toml)")
    p.add_argument("experiment", help="experiment file, e.g. experiments/deck-draw.toml")
    p.add_argument("--out", default=None, help="results folder (default: results/NAME)")
    p.add_argument("--resume", action="store_true", help="keep the finished chunks of an interrupted run")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_positive_int, default=1,
                       help="local worker processes, one numba thread each (default 1: this process, all threads)")
    where.add_argument("--dask", metavar="ADDRESS", default=None, help="Dask scheduler address, e.g. tcp://host:8786")
    p.add_argument("--chunk-size", type=_positive_int, default=None, help="shots per chunk (default: the file's, or 65536)")
    p.add_argument("--no-plots", action="store_true", help="write results only")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("plot", help="redraw the plots of saved experiment results")
    p.add_argument("results", help="results folder (or its grid.nc)")
    p.add_argument("--metric", action="append", default=None,
                   help="metric to draw, e.g. expected_value, p_value:10, p_removed:target (repeatable)")
    p.add_argument("--out", default=None, help="folder for the PNG files (default: the results folder)")
    p.set_defaults(func=cmd_plot)

    p = sub.add_parser("bench-experiments", help="benchmark batch experiments and Dask scale-out")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench_experiments)

    p = sub.add_parser("bench-startup", help="benchmark start-up: main job warm vs bare imports, first run, runner")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quick", action="store_true", help="one run each and no first run (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench_startup)

    p = sub.add_parser("draw", help="draw a court to scale (PNG, SVG or PDF), optionally with judged discs")
    p.add_argument("court", help="court name or path to a court file")
    p.add_argument("-o", "--output", required=True, help="image file to write, e.g. docs/courts/deck.png")
    p.add_argument("--disc", action="append", type=_disc_with_team, metavar="X,Y[,TEAM]",
                   help="a disc centre in metres and its team (repeatable); labelled with its judged value")
    p.add_argument("--end", default=None, help="scoring end the discs are judged at (deck: foot or head)")
    p.add_argument("--zoom", type=_zoom, default=None, metavar="END|XMIN,YMIN,XMAX,YMAX",
                   help="show one scoring end (deck: foot or head; other courts: default) or a box in metres")
    p.add_argument("--dpi", type=_positive_int, default=150, help="resolution of a PNG (default 150)")
    p.set_defaults(func=cmd_draw)

    p = sub.add_parser("bench-judge", help="benchmark judge_batch on the deck court (discs per second)")
    p.add_argument("--n", type=_positive_int, default=4_000_000, help="discs per run (default 4,000,000)")
    p.add_argument("--repeats", type=_positive_int, default=5, help="runs per thread count; the best counts")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_bench_judge)

    p = sub.add_parser("bench", help="benchmark the physics kernel beside pymunk (shots, half-rounds, JIT)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quick", action="store_true", help="tiny sizes and no JIT probe (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("simulate", help="run a scene file (JSON) to rest and judge it")
    p.add_argument("scene", help='scene JSON: {"court": ..., "discs": [{"x", "y", "vx", "vy", "omega", "team"}]}')
    p.add_argument("--json", action="store_true", help="print JSON: discs, events and judging")
    p.add_argument("--max-events", type=_positive_int, default=10_000, help="event bound (default 10,000)")
    p.add_argument("--plot", default=None, metavar="OUT.png", help="draw the trajectories to an image file")
    p.add_argument("--animate", default=None, metavar="OUT.gif", help="animate the trajectories to a GIF")
    p.add_argument("--frames", type=_positive_int, default=200, help="frames for --plot/--animate (default 200)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("play", help="play a whole simulated game or match; write its scorecard and pictures",
                       description="Play a whole simulated game (or match) between two simulated players, print "
                                   "the scoreboard frame by frame, and write scorecard.json, scorecard.csv and a "
                                   "picture of each frame's final board (gameG-frameFF.png) into --out.")
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("--players", default=None, metavar="A,B", help=_players_help())
    p.add_argument("--seed", type=int, default=0, help="seed of the players' execution errors (default 0)")
    p.add_argument("--match", action="store_true",
                   help="play a match: deck best of three (lag for game 3), crokinole the category's games "
                        "(singles 10), horse collar and ricochet best of three")
    p.add_argument("--out", default=None, help="folder for the scorecard and pictures (default results/play-GAME-seedN)")
    p.add_argument("--game-length", type=_positive_int, default=None, metavar="N",
                   help="game point (deck 75, horse-collar 51, ricochet 15 or 21) or rounds (crokinole 4)")
    p.add_argument("--no-pictures", action="store_true", help="write the scorecard only")
    p.add_argument("--quiet", action="store_true", help="print game results only, not every frame")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("bench-games", help="benchmark whole simulated deck games to 75 per second (numba engine)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke run, not the benchmark)")
    p.set_defaults(func=cmd_bench_games)

    p = sub.add_parser("lab", help="serve the shot lab: place discs, aim, shoot and see noisy copies in the browser")
    p.add_argument("--court", default="deck", metavar="NAME|PATH", help="court name or court file (default deck)")
    p.add_argument("--end", default=None, help="scoring end, for courts with two (deck: foot or head)")
    p.add_argument("--port", type=_positive_int, default=5006, help="port to listen on (default 5006)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open the page in the default browser")
    p.set_defaults(func=cmd_lab)

    p = sub.add_parser("advise", help="rank the candidate shots for a board (expected value, success, spread)")
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("board", help="board file (JSON, as for score): the resting discs")
    p.add_argument("--player", default=None, metavar="SKILL[-ev[N]]",
                   help="the shooter's skill preset (default: the game's first default player)")
    p.add_argument("--shooter", default=None, metavar="TEAM",
                   help="the shooter's team label in the board file (default: the game's first side)")
    p.add_argument("--from", dest="position", default=None, metavar="POSITION",
                   help="where the shooter shoots from: crokinole seat (south, west, north, east), ricochet "
                        "half (left, right), deck half of the 10-off area (right, left)")
    p.add_argument("--best", type=_positive_int, default=3, metavar="N", help="shots drawn by --plot (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--plot", default=None, metavar="FILE", help="draw the board and the best shots (PNG, SVG, PDF)")
    p.set_defaults(func=cmd_advise)

    p = sub.add_parser("bench-players", help="play games per game type and preset; shot mix and success by intent")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quick", action="store_true", help="one short game per preset (a smoke run)")
    p.add_argument("--games", type=_positive_int, default=None, metavar="N", help="games per preset (default 5)")
    p.add_argument("--game", action="append", choices=game_names(), help="only this game (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (game g uses seed + g)")
    p.set_defaults(func=cmd_bench_players)

    return parser


#: Options whose value is a point: "--disc -0.2,0.3" must read as a value, not as an option.
_POINT_OPTIONS = ("--disc",)


def _attach_negative_points(argv: list[str]) -> list[str]:
    """Turn ``--disc -0.2,0.3`` into ``--disc=-0.2,0.3`` (argparse takes "-0.2,0.3" for an option)."""
    out: list[str] = []
    for token in argv:
        if out and out[-1] in _POINT_OPTIONS and token[:1] == "-" and (token[1:2].isdigit() or token[1:2] == "."):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(_attach_negative_points(list(sys.argv[1:] if argv is None else argv)))
    try:
        return args.func(args)
    except (UsageError, ValueError, FileNotFoundError) as exc:  # CourtError and ExperimentError are ValueErrors
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"shuffle-sim: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``shuffle-sim courts | head``): stop quietly, as a Unix filter does.
        # Standard output is pointed at /dev/null so that Python's flush at exit raises nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def console() -> None:
    """The ``shuffle-sim`` command: ``main``, then out of the process at once (``quick_exit``)."""
    from shuffle_sim.quick_exit import exit_now

    exit_now(main())


if __name__ == "__main__":
    console()
