"""Batch experiments: ``run`` an experiment file, ``plot`` saved results."""

from __future__ import annotations

import argparse

from shuffle_sim.cli._common import positive_int


def cmd_run(args: argparse.Namespace) -> int:
    """Run an experiment file: chunks in parallel, results (netCDF, Parquet) and plots on disk."""
    from shuffle_sim.experiment import run_file

    experiment, summary, plots = run_file(
        args.experiment,
        args.out,
        resume=args.resume,
        workers=args.workers,
        dask=args.dask,
        chunk_size=args.chunk_size,
        plots=not args.no_plots,
        progress=not args.quiet,
    )
    print(
        f"{experiment.name}: {summary.n_shots:,} shots in {summary.n_chunks} chunks "
        f"({summary.computed} computed, {summary.reused} reused) in {summary.seconds:.2f} s "
        f"({summary.shots_per_second:,.0f} shots/s)"
    )
    if summary.failed:
        print(
            f"left out: {summary.failed:,} shots not played (sampled start off the surface or on a disc) or not "
            f"finished (event bound); per cell in the variable 'failed'"
        )
    if summary.retried:
        print(
            f"retried: chunk{'s' if len(summary.retried) > 1 else ''} {', '.join(map(str, summary.retried))} "
            "(computed again after their Dask worker was lost)"
        )
    print(f"results: {summary.grid_path}" + (f" and {summary.records_path}" if summary.records_path else ""))
    for path in plots:
        print(f"plot: {path}")
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    """Redraw the plots of saved experiment results, or new ones: other axes, selected or averaged
    axes, combined outcomes, the difference between two values of an axis."""
    from shuffle_sim.experiment.heatmaps import save_plots
    from shuffle_sim.experiment.views import parse_assignments, parse_diff

    select = parse_assignments(args.select, "--select")
    for path in save_plots(
        args.results,
        metrics=args.metric,
        out_dir=args.out,
        x=args.x,
        y=args.y,
        select=select,
        average=args.average,
        diff=parse_diff(args.diff),
    ):
        print(f"plot: {path}")
    return 0


def register(sub) -> None:
    """Add this module's subcommands to the parser's subparsers ``sub``."""
    p = sub.add_parser("run", help="run a batch shot experiment (experiments/*.toml)")
    p.add_argument("experiment", help="experiment file, e.g. experiments/deck-draw.toml")
    p.add_argument("--out", default=None, help="results folder (default: results/NAME)")
    p.add_argument("--resume", action="store_true", help="keep the finished chunks of an interrupted run")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        help="local worker processes, one numba thread each (default 1: this process, all threads)",
    )
    where.add_argument("--dask", metavar="ADDRESS", default=None, help="Dask scheduler address, e.g. tcp://host:8786")
    p.add_argument(
        "--chunk-size", type=positive_int, default=None, help="shots per chunk (default: the file's, or 65536)"
    )
    p.add_argument("--no-plots", action="store_true", help="write results only")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("plot", help="redraw the plots of saved experiment results")
    p.add_argument("results", help="results folder (or its grid.nc)")
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        help="metric to draw, e.g. expected_value, p_value:10, p_value:20,15 (either value), "
        "p_removed:target (repeatable; default: the experiment's plots)",
    )
    p.add_argument("--x", default=None, metavar="AXIS", help="grid axis across (default: the experiment's plot's)")
    p.add_argument("--y", default=None, metavar="AXIS", help="grid axis up (default: the experiment's plot's)")
    p.add_argument(
        "--select",
        action="append",
        default=None,
        metavar="AXIS=VALUE",
        help="take another axis at a value, e.g. skill=expert (repeatable; otherwise its first value)",
    )
    p.add_argument(
        "--average", action="append", default=None, metavar="AXIS", help="pool the cells of another axis (repeatable)"
    )
    p.add_argument(
        "--diff",
        default=None,
        metavar="AXIS=A,B",
        help="draw the metric at AXIS=A minus at AXIS=B, with its standard error (e.g. spin=20,0)",
    )
    p.add_argument("--out", default=None, help="folder for the PNG files (default: the results folder)")
    p.set_defaults(func=cmd_plot)
