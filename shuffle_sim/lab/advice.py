"""The shot advisor in the lab: the candidate shots for the board ranked, as a table whose columns
are whatever the advisor returns, each explained, and an advised shot turned into the lab's aim.

``advise_board`` ranks the shots as ``shuffle-sim advise`` does (``playing.advisor.advise``). The table
takes its columns from the advice rows themselves (``Advice.to_dict``), so a column the advisor
gains shows without a change here; ``data/advice_columns.toml`` gives each known column a heading,
a format and its meaning. ``advised_aim`` turns a row's noise-free launch into an ``Aim`` in the
court's frame (the advisor plans deck shots toward the foot; a court judged at the head end gets
the launch turned half a turn, as the game driver turns it).
"""

from __future__ import annotations

import html
import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from shuffle_sim._runtime.threads import one_numba_thread
from shuffle_sim.court import Court
from shuffle_sim.lab.board import LabBoard, LabError
from shuffle_sim.lab.shots import Aim

if TYPE_CHECKING:
    from shuffle_sim.playing.advisor import Advice
    from shuffle_sim.playing.players import ShotContext

COLUMNS_PATH = Path(__file__).resolve().parent / "data" / "advice_columns.toml"
FORMATS = ("text", "signed", "number", "percent", "integer")
#: The advice table's rows at most (the best first).
ROWS = 12


@dataclass(frozen=True)
class Column:
    """How the table shows one of the advisor's columns."""

    key: str
    heading: str
    format: str = ""
    meaning: str = "no description yet (a column the advisor returns)"
    hidden: bool = False


@lru_cache(maxsize=1)
def known_columns() -> dict[str, Column]:
    """The columns described in ``data/advice_columns.toml``, by key."""
    with open(COLUMNS_PATH, "rb") as fh:
        data = tomllib.load(fh)
    out = {}
    for key, rec in data.items():
        fmt = rec.get("format", "")
        if fmt and fmt not in FORMATS:
            raise ValueError(f"{COLUMNS_PATH}: [{key}].format must be one of {', '.join(FORMATS)} (got {fmt!r})")
        out[key] = Column(
            key, rec.get("heading", key), fmt, rec.get("meaning", Column.meaning), bool(rec.get("hidden", False))
        )
    return out


def columns_of(rows: list[dict]) -> list[Column]:
    """The columns to show for advice rows: every key the rows have, in the advisor's order, the
    hidden ones and those without a value in any row (the win chance when no score is given) left
    out."""
    known = known_columns()
    keys = [key for key in dict.fromkeys(key for r in rows for key in r) if any(r.get(key) is not None for r in rows)]
    cols = [known.get(key, Column(key, key.replace("_", " "))) for key in keys]
    return [c for c in cols if not c.hidden]


def format_value(value, fmt: str = "") -> str:
    """One cell: ``value`` printed by the column's format, or by its type."""
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return "-".join(format_value(v, fmt) for v in value)
        return ", ".join(format_value(v, fmt) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {format_value(v, fmt)}" for k, v in value.items())
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if fmt == "signed":
        return f"{value:+.2f}"
    if fmt == "percent":
        return f"{value:.0%}"
    if fmt == "integer":
        return f"{value:,.0f}"
    if fmt == "number" or isinstance(value, float):
        return f"{value:.2f}" if fmt == "number" else f"{value:.3g}"
    return f"{value:,}"


def table_data(rows: list[dict], columns: list[Column]) -> dict[str, list[str]]:
    """The table's source columns: the rank, then one text column per shown column."""
    data = {"rank": [str(k + 1) for k in range(len(rows))]}
    for c in columns:
        data[c.key] = [format_value(r.get(c.key), c.format) for r in rows]
    return data


#: The advice table's text (the page's table font): pixels per character at most, with the bold
#: headings a little wider, and each cell's padding. Widths are reckoned from the longest text, so
#: no heading or shot name is cut; a table wider than its frame scrolls sideways.
CHARACTER_PIXELS = 7.2
HEADING_PIXELS = 8.0
CELL_PADDING = 16


def column_width(heading: str, cells: list[str]) -> int:
    """A column's width (pixels) that shows its heading and its longest cell whole."""
    longest = max((len(text) for text in cells), default=0)
    return math.ceil(max(len(heading) * HEADING_PIXELS, longest * CHARACTER_PIXELS)) + CELL_PADDING


def meanings_html(columns: list[Column]) -> str:
    """What each column of the table means."""
    body = "".join(
        f"<tr><td><b>{html.escape(c.heading)}</b></td><td>{html.escape(c.meaning)}</td></tr>" for c in columns
    )
    return f'<table class="advice-columns">{body}</table>'


def advise_board(
    board: LabBoard, skill, shooter: str, position: str, samples: int | None = None
) -> tuple[ShotContext, list[Advice]]:
    """The candidate shots for the lab's board ranked as ``shuffle-sim advise`` ranks them
    (``playing.advisor.advise``) for ``shooter`` from ``position`` under ``skill``: (context, advice);
    ``samples`` executions per candidate (None: the advisor's default)."""
    from shuffle_sim.playing.advisor import advise
    from shuffle_sim.playing.players import ExpectedValue, Player
    from shuffle_sim.rules.common import Board

    rules_board = Board(board.court, board.xs, board.ys, tuple(board.teams), half=board.state.half)
    with one_numba_thread():
        return advise(
            board.court.game,
            rules_board,
            Player(skill.name or "preset", skill, ExpectedValue()),
            shooter=shooter,
            position=position,
            samples=samples,
        )


def advised_aim(court: Court, planned_on: Court, row: dict, team: str) -> Aim:
    """The lab's aim for an advice row's launch (``row["launch"]``: x, y, vx, vy, omega in the frame
    of ``planned_on``, the court the advisor planned on), in ``court``'s frame."""
    launch = row.get("launch")
    if not isinstance(launch, dict):
        raise LabError("this advice row has no launch to aim")
    x, y, vx, vy = (float(launch[k]) for k in ("x", "y", "vx", "vy"))
    if planned_on.end != court.end:  # deck: planned toward the foot, judged at the head
        from shuffle_sim.playing.deck_engine import deck_setup

        px, py = deck_setup(court).pivot
        x, y, vx, vy = 2.0 * px - x, 2.0 * py - y, -vx, -vy
    return Aim(x, y, math.hypot(vx, vy), math.degrees(math.atan2(vy, vx)), float(launch.get("omega", 0.0)), team)
