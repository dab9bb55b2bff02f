"""What the lab shows, as data for the page: disc labels, the judgement table, the frame score, the
noisy copies' density map and outcome table.

Pure functions from the lab's results to source columns and small HTML fragments, so the page and
its tests read the same numbers. Each disc's label is its judged value (what ``shuffle-sim judge``
prints), with "dead" for a dead disc and an "H" for a hanger.
"""

from __future__ import annotations

import html

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.lab.board import Disc
from shuffle_sim.lab.court_glyphs import court_extent
from shuffle_sim.plot.colours import team_colours, text_colour

#: Density map cells per disc diameter.
CELLS_PER_DIAMETER = 2.5


def disc_label(record: dict) -> str:
    """A disc's label: its value, "dead", or the value with "H" for a hanger."""
    if record["dead"]:
        return "dead"
    return f"{record['value']}{' H' if record['hanger'] else ''}"


def label_rows(court: Court, discs: list[Disc], records: list[dict]) -> dict:
    """Columns of the label source: one label per disc, at its centre, readable on its colour."""
    colours = team_colours(court, [d.team for d in discs]) if discs else []
    return dict(x=[d.x for d in discs], y=[d.y for d in discs], text=[disc_label(r) for r in records],
                text_color=[text_colour(c) for c in colours])


def judgement_html(discs: list[Disc], records: list[dict]) -> str:
    """The judgement table: per disc its team, centre, value, zone, lines touched, standing."""
    if not discs:
        return "<b>Discs</b>: none yet (click the court to place one)"
    rows = []
    for k, (d, r) in enumerate(zip(discs, records)):
        standing = "dead" if r["dead"] else (f"{r['hanger']} hanger" if r["hanger"] else "live")
        touching = ", ".join(r["touching"]) or "-"
        rows.append(f'<tr class="disc" data-index="{k}" data-value="{r["value"]}"><td>{k}</td>'
                    f"<td>{html.escape(d.team)}</td><td>{d.x:.4f}, {d.y:.4f}</td><td>{r['value']}</td>"
                    f"<td>{html.escape(r['zone'] or '-')}</td><td>{html.escape(touching)}</td><td>{standing}</td></tr>")
    head = ("<tr><th>#</th><th>team</th><th>x, y (m)</th><th>value</th><th>zone</th><th>touching</th>"
            "<th>standing</th></tr>")
    return f'<b>Discs</b> (judged as <code>shuffle-sim judge</code>)<table class="judgement">{head}{"".join(rows)}</table>'


def score_html(court: Court, frame) -> str:
    """The frame score under the game's rules, with each disc's reason."""
    if frame is None:
        return f"<b>Frame score</b>: no rules for a {html.escape(court.game)} court"
    totals = ", ".join(f"{html.escape(team)} {points}" for team, points in frame.scores.items()) or "no discs"
    reasons = "".join(f"<li>{html.escape(d.team)}: {d.value} ({html.escape(d.reason)})</li>" for d in frame.discs)
    void = f"<br>void: {html.escape(frame.void)}" if frame.void else ""
    return (f'<b>Frame score</b> ({html.escape(court.game)} rules): <span class="scores">{totals}</span>{void}'
            f"<ul>{reasons}</ul>")


def density_image(court: Court, copies) -> dict:
    """Image columns of where the shot disc came to rest: the share of copies per cell, scaled to the
    busiest cell (transparent where none rested)."""
    x0, y0, x1, y1 = court_extent(court)
    cell = 2 * court.disc_radius / CELLS_PER_DIAMETER
    nx = max(1, int(np.ceil((x1 - x0) / cell)))
    ny = max(1, int(np.ceil((y1 - y0) / cell)))
    counts, _, _ = np.histogram2d(copies.rest_y, copies.rest_x, bins=(ny, nx), range=((y0, y0 + ny * cell),
                                                                                     (x0, x0 + nx * cell)))
    image = counts / counts.max() if counts.max() > 0 else counts
    image[counts == 0] = np.nan
    return dict(image=[image], x=[x0], y=[y0], dw=[nx * cell], dh=[ny * cell])


def copies_html(copies, skill: str) -> str:
    """The outcome table of the noisy copies."""
    value_rows = "".join(f"<tr><td>{v}</td><td>{p:.1%}</td></tr>" for v, p in copies.value.items())
    score_rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{p:.1%}</td></tr>" for k, p in list(copies.scores.items())[:8])
    means = ", ".join(f"{html.escape(t)} {m:.2f}" for t, m in copies.mean_scores.items())
    unplayed = copies.n - copies.played
    return (f'<b>Noisy copies</b> ({html.escape(skill)}): <span class="copies-n">{copies.n:,}</span> copies, '
            f"{copies.played:,} played" + (f" ({unplayed:,} started off the surface or on a disc)" if unplayed else "")
            + f"; the shot disc fell in {copies.fell:.1%}, died in {copies.dead:.1%}."
            f'<table class="values"><tr><th>shot disc value</th><th>probability</th></tr>{value_rows}</table>'
            f'<table class="scores"><tr><th>frame score after the shot (first {copies.scored:,} copies)</th>'
            f"<th>probability</th></tr>{score_rows}</table>mean frame score: {means or '-'}")


def advice_html(advice, skill: str, shooter: str, position: str, rows: int = 8) -> str:
    """The advisor's ranking (``play.advisor``): the best ``rows`` candidate shots."""
    body = "".join(f"<tr><td>{k + 1}</td><td>{html.escape(a.intent.label)}</td><td>{a.expected:+.2f}</td>"
                   f"<td>{a.success:.0%}</td><td>{a.spread:.2f}</td></tr>" for k, a in enumerate(advice[:rows]))
    return (f"<b>Advice</b> for {html.escape(shooter)} from {html.escape(position)} ({html.escape(skill)}): "
            f"{len(advice)} candidate shots"
            '<table class="advice"><tr><th>#</th><th>shot</th><th>expected frame value</th><th>success</th>'
            f"<th>spread</th></tr>{body}</table>")
