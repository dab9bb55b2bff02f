"""The ``shuffle-sim`` command line.

Each subcommand is a small function ``cmd_NAME(args) -> int`` in the module of its group, which also
registers its parser (``register``). Bad input (a malformed court or scene file, a bad coordinate, a
negative parameter) ends with exit status 2 and a one-line message on standard error; nothing
already written is removed.

==================  =======================================================================
module              subcommands
==================  =======================================================================
``courts``          ``courts``, ``judge``, ``score``, ``draw``, ``calibrate``
``scenes``          ``simulate``
``experiments``     ``run``, ``plot``
``playing``         ``play``, ``advise``
``serving``         ``serve``, ``replay``
``lab``             ``lab``
``compiling``       ``compile`` (its tasks: ``_compile_tasks``)
``bench``           ``bench``, ``bench-judge``, ``bench-games``, ``bench-players``,
                    ``bench-experiments``, ``bench-startup``
==================  =======================================================================

Inside the package: ``__main__`` runs the command (``python -m shuffle_sim.cli``); ``_common`` holds
what the subcommands share (the usage error, argument types, signal handling).
"""

from __future__ import annotations

import argparse
import os
import sys

from shuffle_sim._version import __version__
from shuffle_sim.cli import bench, compiling, courts, experiments, lab, playing, scenes, serving
from shuffle_sim.cli._common import UsageError

#: The command modules, in the order their subcommands are listed in ``--help``.
COMMAND_MODULES = (courts, experiments, scenes, playing, serving, lab, compiling, bench)

#: Commands that never compile, or show their compiling their own way: ``compile`` and ``lab`` with
#: progress of their own, the benchmarks by timing it. Every other command says so when it compiles.
_QUIET_COMPILERS = ("courts", "plot", "compile", "lab")


def compile_key(args: argparse.Namespace) -> str:
    """The record of a command's expected compile time (``_runtime.compile_notice``): the command, the
    game for ``play`` and ``advise``, ``score`` for an advice by the chance to win, the experiment
    file's name for ``run`` (``simulate`` names flat or sloped itself, once it has read its scene)."""
    parts = [args.command]
    if args.command in ("play", "advise"):
        parts.append(args.game)
    if args.command == "advise" and getattr(args, "score", None):
        parts.append("score")
    if args.command == "run":
        parts.append(os.path.splitext(os.path.basename(args.experiment))[0])
    return "_".join(parts)


#: Options whose value is a point: "--disc -0.2,0.3" must read as a value, not as an option.
_POINT_OPTIONS = ("--disc",)


def build_parser() -> argparse.ArgumentParser:
    """The whole parser: every command module's subcommands."""
    parser = argparse.ArgumentParser(prog="shuffle-sim", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def _attach_negative_points(argv: list[str]) -> list[str]:
    """Turn ``--disc -0.2,0.3`` into ``--disc=-0.2,0.3`` (argparse takes "-0.2,0.3" for an option)."""
    out: list[str] = []
    for token in argv:
        if out and out[-1] in _POINT_OPTIONS and token[:1] == "-" and (token[1:2].isdigit() or token[1:2] == "."):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def main(argv: list[str] | None = None, notice: bool = False) -> int:
    """Run the command line with ``argv`` (default: this process's arguments); returns the exit status.

    With ``notice`` (the ``shuffle-sim`` command), a command that compiles kernels says so on standard
    error (``_runtime.compile_notice``); a program calling ``main`` itself gets its output only."""
    if os.environ.get("SHUFFLE_SIM_COMPILE_LOG"):
        from shuffle_sim._runtime.compile_log import install_from_environment

        install_from_environment()
    parser = build_parser()
    args = parser.parse_args(_attach_negative_points(list(sys.argv[1:] if argv is None else argv)))
    watching = notice and args.command not in _QUIET_COMPILERS and not args.command.startswith("bench")
    if watching:
        from shuffle_sim._runtime import compile_notice
        from shuffle_sim._runtime.compile_ahead import start_plan

        compile_notice.watch(compile_key(args), what=f"shuffle-sim {args.command}")
        start_plan(compile_key(args))
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
    finally:
        if watching:
            compile_notice.finish()


def console() -> None:
    """The ``shuffle-sim`` command: ``main``, then out of the process at once (``quick_exit``)."""
    from shuffle_sim._runtime.quick_exit import exit_now

    exit_now(main(notice=True))


__all__ = ["UsageError", "build_parser", "console", "main"]
