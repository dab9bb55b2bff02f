"""What the lab shows, as data for the page: disc labels, the judgement table, the frame panel, the
marks of removed discs, the noisy copies' density map and outcome table.

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
from shuffle_sim.lab.referee import FrameState, Removal
from shuffle_sim.plot.colours import team_colours, text_colour

#: Density map cells per disc diameter.
CELLS_PER_DIAMETER = 2.5


def disc_label(record: dict) -> str:
    """A disc's label: its value, "dead", or the value with "H" for a hanger."""
    if record["dead"]:
        return "dead"
    return f"{record['value']}{' H' if record['hanger'] else ''}"


def label_rows(court: Court, discs: list[Disc], records: list[dict]) -> dict:
    """Columns of the label source: one label per disc, at its centre, readable on its colour, and
    the disc's number (its index: the judgement table's, the messages' and the advice's "disc 3")."""
    colours = team_colours(court, [d.team for d in discs]) if discs else []
    return dict(
        x=[d.x for d in discs],
        y=[d.y for d in discs],
        text=[disc_label(r) for r in records],
        text_color=[text_colour(c) for c in colours],
        number=[str(k) for k in range(len(discs))],
    )


def judgement_html(discs: list[Disc], records: list[dict]) -> str:
    """The judgement table: per disc its team, centre, value, zone, lines touched, standing."""
    if not discs:
        return "<b>Discs</b>: none yet (click the court to place one)"
    rows = []
    for k, (d, r) in enumerate(zip(discs, records)):
        standing = "dead" if r["dead"] else (f"{r['hanger']} hanger" if r["hanger"] else "live")
        touching = ", ".join(r["touching"]) or "-"
        rows.append(
            f'<tr class="disc" data-index="{k}" data-value="{r["value"]}"><td>{k}</td>'
            f"<td>{html.escape(d.team)}</td><td>{d.x:.4f}, {d.y:.4f}</td><td>{r['value']}</td>"
            f"<td>{html.escape(r['zone'] or '-')}</td><td>{html.escape(touching)}</td><td>{standing}</td></tr>"
        )
    head = (
        "<tr><th>#</th><th>team</th><th>x, y (m)</th><th>value</th><th>zone</th><th>touching</th><th>standing</th></tr>"
    )
    return (
        f'<b>Discs</b> (judged as <code>shuffle-sim judge</code>)<table class="judgement">{head}{"".join(rows)}</table>'
    )


def score_html(court: Court, frame, state: FrameState | None = None, problem: str = "") -> str:
    """The frame panel: the score under the game's rules, the 20s set aside, the shots played, what
    the rules did after each (removals, fouls, penalties; the newest first), then each disc's reason."""
    state = state or FrameState()
    if problem:
        head = f"<b>Frame score</b>: {html.escape(problem)}"
    elif frame is None:
        head = f"<b>Frame score</b>: no rules for a {html.escape(court.game)} court"
    else:
        totals = ", ".join(f"{html.escape(team)} {points}" for team, points in frame.scores.items()) or "no discs"
        head = (
            f"<b>Frame score</b> ({html.escape(court.game)} rules, as <code>shuffle-sim score</code>): "
            f'<span class="scores">{totals}</span>'
        )
    parts = [head]
    if frame is not None and frame.void:
        parts.append(f'<div class="void">void: {html.escape(frame.void)}</div>')
    twenties = ", ".join(f"{html.escape(side)} {n}" for side, n in state.twenties if n)
    if twenties:
        parts.append(f'<div class="twenties">20s set aside: {twenties}</div>')
    if state.half is not None:
        parts.append(f"<div>scoring half: {state.half} (opposite the half the weights are slid from)</div>")
    parts.append(f"<div>shots this frame: {state.shots}</div>")
    if state.notes:  # the newest first, and before the discs' list, which grows with the frame
        parts.append(
            '<b>What the rules did</b><ul class="rulings">'
            + "".join(f"<li>{html.escape(n)}</li>" for n in reversed(state.notes))
            + "</ul>"
        )
    if frame is not None and frame.discs:
        parts.append(
            '<ul class="frame-discs">'
            + "".join(f"<li>{html.escape(d.team)}: {d.value} ({html.escape(d.reason)})</li>" for d in frame.discs)
            + "</ul>"
        )
    return "".join(parts)


def ghost_rows(removed: tuple[Removal, ...] | list[Removal]) -> dict:
    """Columns of the ghosts source: a dashed outline where each removed disc came to rest, and a word."""
    return dict(
        x=[r.x for r in removed],
        y=[r.y for r in removed],
        text=[r.short for r in removed],
        why=[r.why for r in removed],
    )


def density_image(court: Court, copies) -> tuple[dict, float]:
    """Image columns of where the shot disc came to rest: each cell's share of the played copies
    (NaN where none rested), and the largest share (the colour bar's top)."""
    x0, y0, x1, y1 = court_extent(court)
    cell = 2 * court.disc_radius / CELLS_PER_DIAMETER
    nx = max(1, int(np.ceil((x1 - x0) / cell)))
    ny = max(1, int(np.ceil((y1 - y0) / cell)))
    counts, _, _ = np.histogram2d(
        copies.rest_y, copies.rest_x, bins=(ny, nx), range=((y0, y0 + ny * cell), (x0, x0 + nx * cell))
    )
    image = counts / max(copies.played, 1)
    top = float(image.max())
    image[counts == 0] = np.nan
    return dict(image=[image], x=[x0], y=[y0], dw=[nx * cell], dh=[ny * cell]), top


def copies_html(copies, skill: str) -> str:
    """The outcome tables of the noisy copies."""
    outcome_rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{p:.1%}</td></tr>" for k, p in copies.outcome.items())
    score_rows = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{p:.1%}</td></tr>" for k, p in list(copies.scores.items())[:8]
    )
    means = ", ".join(f"{html.escape(t)} {m:.2f}" for t, m in copies.mean_scores.items())
    unplayed = copies.n - copies.played
    return (
        f'<b>Noisy copies</b> ({html.escape(skill)}): <span class="copies-n">{copies.n:,}</span> copies, '
        f"{copies.played:,} played"
        + (f" ({unplayed:,} started off the surface or on a disc)" if unplayed else "")
        + f"; the shot disc fell in {copies.fell:.1%}, stopped dead in {copies.dead:.1%}. "
        f"The violet map shows where it came to rest (every copy). The game's rules were applied to the "
        f"first {copies.scored:,} copies, as <code>shuffle-sim play</code> applies them:"
        f'<table class="values"><tr><th>the shot disc after the rules</th><th>probability</th></tr>'
        f"{outcome_rows}</table>"
        f'<table class="scores"><tr><th>frame score after the shot</th><th>probability</th></tr>{score_rows}'
        f"</table>mean frame score: {means or '-'}"
    )
