"""Courts and boards: ``courts``, ``judge``, ``score``, ``draw``."""

from __future__ import annotations

import argparse
import json

from shuffle_sim.cli._common import UsageError, disc_with_team, point, positive_int, zoom
from shuffle_sim.games import game_names


def cmd_courts(args: argparse.Namespace) -> int:
    """List the courts found by name, with their game, friction and speed (seconds), and title."""
    from shuffle_sim.court import list_courts, load_court
    from shuffle_sim.court.speed import speed_label

    for name in list_courts():
        court = load_court(name)
        ends = ", ".join(court.ends)
        print(
            f"{name:14s} {court.game:13s} {speed_label(court.params['mu'], court.speed):18s} {court.title} "
            f"(ends: {ends})"
        )
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge resting discs at the given centres."""
    from shuffle_sim.court import load_court
    from shuffle_sim.judging import judge_batch

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
            print(
                f"({rec['x']:.4f}, {rec['y']:.4f}) m: value {rec['value']:4d}  zone {rec['zone'] or '-'}  "
                f"touching {touching}  {status}"
            )
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """Score one frame of a game from a board of resting discs, explaining each disc's value."""
    from shuffle_sim.rules import default_court, horse_collar, ricochet, score_board
    from shuffle_sim.rules.board_file import load_board

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


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Fit a court's friction law, speed and grade to measured shots or tracks; print it, or write it
    as a court file."""
    from shuffle_sim.calibrate import calibrate

    print(
        calibrate(
            args.court,
            args.data,
            as_json=args.json,
            out=args.out,
            position_sd=args.position_sd,
            time_sd=args.time_sd,
            friction=args.friction,
        )
    )
    return 0


def register(sub) -> None:
    """Add this module's subcommands to the parser's subparsers ``sub``."""
    p = sub.add_parser("courts", help="list the courts and tables")
    p.set_defaults(func=cmd_courts)

    p = sub.add_parser("judge", help="judge resting discs on a court")
    p.add_argument("court", help="court name or path to a court file")
    p.add_argument("--disc", action="append", type=point, metavar="X,Y", help="disc centre in metres (repeatable)")
    p.add_argument("--end", default=None, help="scoring end, for courts with two (deck: foot, the default, or head)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_judge)

    p = sub.add_parser("score", help="score one frame from a board of resting discs")
    p.add_argument("game", choices=game_names(), help="the game's rules")
    p.add_argument("board", help='board JSON: {"court": ..., "discs": [{"x", "y", "team"}, ...]}; court optional')
    p.add_argument("--side", default=None, help="horse-collar: the throwing side's name (default: the pucks' team)")
    p.add_argument(
        "--half",
        default=None,
        choices=["left", "right"],
        help="ricochet: the half the round scores on, opposite the half the weights are slid from "
        '(overrides the board\'s "half"; default: the one half the weights in play lie on)',
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("draw", help="draw a court to scale (PNG, SVG or PDF), optionally with judged discs")
    p.add_argument("court", help="court name or path to a court file")
    p.add_argument("-o", "--output", required=True, help="image file to write, e.g. docs/courts/deck.png")
    p.add_argument(
        "--disc",
        action="append",
        type=disc_with_team,
        metavar="X,Y[,TEAM]",
        help="a disc centre in metres and its team (repeatable); labelled with its judged value",
    )
    p.add_argument("--end", default=None, help="scoring end the discs are judged at (deck: foot or head)")
    p.add_argument(
        "--zoom",
        type=zoom,
        default=None,
        metavar="END|XMIN,YMIN,XMAX,YMAX",
        help="show one scoring end (deck: foot or head; other courts: default) or a box in metres",
    )
    p.add_argument("--dpi", type=positive_int, default=150, help="resolution of a PNG (default 150)")
    p.set_defaults(func=cmd_draw)

    p = sub.add_parser(
        "calibrate",
        help="fit a court's friction law, speed and grade to measured shots or tracks (CSV)",
        description="Fit a court's sliding friction law (and its speed in seconds) and, where shots "
        "allow, its grade, with standard errors. DATA.csv is measured shots, with a header and "
        "columns start_x,start_y,rest_x,rest_y (metres, court frame), optional aim_x,aim_y and time "
        "(sliding seconds; shuffle_sim/calibrate/shots_csv.py), or tracks, with columns "
        "time,track,x,y (seconds; metres, court frame; any frame rate; each track a free slide or "
        "its free part: shuffle_sim/calibrate/tracks_csv.py), told apart by the header.",
    )
    p.add_argument("court", help="court name or path to a court file (its frame, disc and speed course)")
    p.add_argument("data", metavar="DATA.csv", help="the measured shots or tracks")
    p.add_argument(
        "--friction",
        default=None,
        metavar="LAW",
        help="the friction law: coulomb (a constant mu), speed (mu + mu_speed v) or auto (the law the "
        "data favour, each track or timed shot held out in turn); default coulomb for shots, auto "
        "for tracks",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print JSON: law, mu, mu_sd, mu_speed, mu_speed_sd, speed, speed_sd, chi2_dof, the "
        "residuals per shot or track, warnings, slope and slope_sd when a grade is fitted, and "
        "choice (which law and why) for auto",
    )
    p.add_argument("--out", default=None, metavar="FILE", help="write the fitted court file here")
    p.add_argument(
        "--position-sd",
        type=float,
        default=None,
        metavar="M",
        help="measurement error of a position (m; default 0.01 for a shot's rest, 0.002 for a tracked point)",
    )
    p.add_argument(
        "--time-sd", type=float, default=0.1, metavar="S", help="measurement error of a time (s, default 0.1)"
    )
    p.set_defaults(func=cmd_calibrate)
