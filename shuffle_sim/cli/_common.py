"""What the command line's subcommands share: the usage error, argument types, signal handling.

Nothing heavier than the standard library is imported here or by the command modules at import
time: each subcommand imports what it uses when it runs, so that ``shuffle-sim --version`` and
``--help`` answer without loading NumPy or numba, and a run loads only the kernels of its job.
"""

from __future__ import annotations

import argparse


class UsageError(ValueError):
    """Bad command-line input that the parser could not catch; exit status 2."""


def point(text: str) -> tuple[float, float]:
    """An ``X,Y`` pair of metres."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in metres, got {text!r}") from None
    return x, y


def disc_with_team(text: str) -> tuple[float, float, str | None]:
    """``X,Y`` or ``X,Y,TEAM``: a disc centre in metres and, optionally, its team."""
    parts = [part.strip() for part in text.split(",")]
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y or X,Y,TEAM (metres), got {text!r}") from None
    return x, y, (parts[2] or None) if len(parts) == 3 else None


def zoom(text: str) -> str | tuple[float, ...]:
    """An end's name, or a box ``XMIN,YMIN,XMAX,YMAX`` in metres."""
    if "," not in text:
        return text
    try:
        box = tuple(float(v) for v in text.split(","))
    except ValueError:
        box = ()
    if len(box) != 4:
        raise argparse.ArgumentTypeError(f"expected an end's name or XMIN,YMIN,XMAX,YMAX in metres, got {text!r}")
    return box


def positive_int(text: str) -> int:
    """An integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value
