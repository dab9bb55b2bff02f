"""Scorecards of games as played: ``scorecard.json``, ``scorecard.csv`` and a picture of each frame's
final board (``plot.plot_court``), and the scoreboard line printed per frame."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from shuffle_sim.games import get_game
from shuffle_sim.playing.records import CSV_COLUMNS, FrameRecord, MatchRecord


def picture_discs(game: str, discs, sides: tuple[str, str]) -> list[tuple[float, float, str]]:
    """Discs ``(x, y, team)`` to draw, a side's name (one of ``sides``) turned into its colour in the
    game (``games.toml``); rules labels that are colours already (deck) stay."""
    colours = get_game(game).sides
    return [(x, y, colours[sides.index(team)] if team in sides else team) for x, y, team in discs]


def picture_zoom(game: str, end: str | None) -> str | None:
    """What a frame's picture zooms to: the end it scored at, or the game's ``picture_zoom``."""
    return end if end is not None else get_game(game).picture_zoom


def write_scorecard(record: MatchRecord, out: str | os.PathLike, pictures: bool = True, dpi: int = 100) -> list[Path]:
    """Write ``scorecard.json``, ``scorecard.csv`` and (``pictures``) ``gameG-frameFF.png`` into ``out``.

    Each picture is the frame's final board on its court, judged at the end the frame scored at.
    Returns the paths written.
    """
    from shuffle_sim.court import load_court
    from shuffle_sim.plot import plot_courts

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if pictures:
        court = load_court(record.game) if record.court is None else record.court
        drawn = []
        for g in record.games:
            for f in g.frames:
                path = out / f"game{g.number}-frame{f.number:02d}.png"
                discs = picture_discs(record.game, [(d["x"], d["y"], d["team"]) for d in f.board], g.sides)
                drawn.append((path, discs, f.end, picture_zoom(record.game, f.end)))
                f.picture = path.name
                written.append(path)
        plot_courts(court, drawn, dpi=dpi)
    json_path = out / "scorecard.json"
    json_path.write_text(json.dumps(record.to_dict(), indent=1))
    csv_path = out / "scorecard.csv"
    with open(csv_path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(record.csv_rows())
    return [json_path, csv_path, *written]


def frame_line(frame: FrameRecord, sides: tuple[str, str]) -> str:
    """One scoreboard line: the frame, each side's points and running total, and any note."""
    parts = [f"  {frame.label:<46s}"]
    for side in sides:
        parts.append(f"{side} {frame.points.get(side, 0):+4d} ={frame.totals.get(side, 0):4d}")
    line = "  ".join(parts)
    if frame.twenties is not None:
        line += "   20s " + "/".join(str(frame.twenties.get(s, 0)) for s in sides)
        line += "   totals " + "/".join(str(frame.score.get(s, 0)) for s in sides)
    if frame.note:
        line += f"   ({frame.note})"
    return line
