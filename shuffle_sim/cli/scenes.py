"""Scenes: ``simulate`` runs a scene file to rest and judges it."""

from __future__ import annotations

import argparse
import json
import sys

from shuffle_sim.cli._common import positive_int


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a scene file to rest; print the final discs, the contact log and the judging.

    Exit status 1 (with the results printed) when the scene hits its event bound.
    """
    from shuffle_sim._runtime import compile_notice
    from shuffle_sim.physics import STATUS_NAMES, Scene, sample_positions, simulate
    from shuffle_sim.physics.numba_api import closed_form_court

    scene = Scene.from_json(args.scene)
    compile_notice.expect("simulate_flat" if closed_form_court(scene.court) else "simulate_sloped")
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
            print(
                f"  disc {i} ({scene.team[i]}): ({result.x[i]:.4f}, {result.y[i]:.4f}) m  {status:6s} "
                f"{standing}  value {rec['value']}  zone {rec['zone'] or '-'}"
            )
    if not result.ok:
        print(f"shuffle-sim: simulate: stopped at the event bound ({args.max_events} events)", file=sys.stderr)
        return 1
    return 0


def register(sub) -> None:
    """Add this module's subcommand to the parser's subparsers ``sub``."""
    p = sub.add_parser("simulate", help="run a scene file (JSON) to rest and judge it")
    p.add_argument("scene", help='scene JSON: {"court": ..., "discs": [{"x", "y", "vx", "vy", "omega", "team"}]}')
    p.add_argument("--json", action="store_true", help="print JSON: discs, events and judging")
    p.add_argument("--max-events", type=positive_int, default=10_000, help="event bound (default 10,000)")
    p.add_argument("--plot", default=None, metavar="OUT.png", help="draw the trajectories to an image file")
    p.add_argument("--animate", default=None, metavar="OUT.gif", help="animate the trajectories to a GIF")
    p.add_argument("--frames", type=positive_int, default=200, help="frames for --plot/--animate (default 200)")
    p.set_defaults(func=cmd_simulate)
