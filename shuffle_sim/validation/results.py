"""The validation page's results file (``docs/validation/results.json``): computed by ``refresh`` from
the sources, read by ``write_page`` and ``check_page``.

The expensive figures (the tracked table's fits and simulated slides, the presets' simulated open 20s)
are computed only on ``refresh``; the page is written from the file at no cost.
"""

from __future__ import annotations

import json
from pathlib import Path

from shuffle_sim.validation.page import render
from shuffle_sim.validation.sources import load_sources, raw_file, round_reference

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = "validation.md"
FOLDER = "validation"
RESULTS = "results.json"
#: The players of the simulated crokinole rounds.
ROUND_PLAYERS = "average-competitive-ev"
OPEN20_EXPERIMENT = Path(__file__).resolve().parents[2] / "experiments" / "crokinole-open20.toml"


def read_results(docs: Path) -> dict:
    return json.loads((docs / FOLDER / RESULTS).read_text(encoding="utf-8"))


def page_text(docs: Path) -> str:
    """The page as the results file in ``docs`` makes it."""
    sources, _ = load_sources()
    return render(read_results(docs), sources, round_reference()) + "\n"


def write_page(docs: Path) -> Path:
    path = docs / PAGE
    path.write_text(page_text(docs), encoding="utf-8")
    return path


def check_page(docs: Path) -> str | None:
    """None when ``docs/validation.md`` is what the results file makes, else what differs."""
    path = docs / PAGE
    if not path.is_file():
        return "the page is missing"
    have, want = path.read_text(encoding="utf-8").splitlines(), page_text(docs).splitlines()
    for k, (a, b) in enumerate(zip(have, want)):
        if a != b:
            return f"line {k + 1} differs"
    return None if len(have) == len(want) else "its length differs"


def _tracked_table(docs: Path, cache: Path, clip: str | None) -> dict:
    from shuffle_sim.court import load_court
    from shuffle_sim.validation.tracked_clip import free_slides, read_clip, write_tracks
    from shuffle_sim.validation.tracked_table import draw_decelerations, draw_tracks, table_results

    sources, _ = load_sources()
    court = load_court("horse-collar")
    slides = free_slides(read_clip(raw_file(sources["clip"], clip, cache)), court.bounds[3])
    tracks = write_tracks(slides, cache / "clip-tracks.csv")
    results = table_results(tracks, slides, court.name)
    draw_tracks(results, slides, court.name, docs / FOLDER / "tracked-slides.png")
    draw_decelerations(results, slides, court.params["gravity"], docs / FOLDER / "deceleration.png")
    return {k: v for k, v in results.items() if not k.startswith("_")}


def _crokinole(cache: Path, misses: str | None, competitive: str | None, shots: int, games: int) -> dict:
    from shuffle_sim.validation.crokinole import (
        first_miss_test,
        preset_rates,
        read_misses,
        read_players,
        round_figures,
    )

    sources, _ = load_sources()
    observed = read_misses(raw_file(sources["misses"], misses, cache))
    players = read_players(raw_file(sources["competitive"], competitive, cache))
    rates = preset_rates(OPEN20_EXPERIMENT, shots)
    return {
        "shots": shots,
        "preset_rates": rates,
        "players": [{"player": name, "attempts": n, "rate": rate} for name, n, rate in players],
        "first_miss_counts": [int(v) for v in observed],
        "first_miss": {name: first_miss_test(observed, rate) for name, rate in rates.items()},
        "rounds": round_figures(ROUND_PLAYERS, games),
    }


def refresh(
    docs: Path, cache: Path, clip: str | None, misses: str | None, competitive: str | None, shots: int, games: int
) -> Path:
    """Every figure computed again from the sources; writes the results file and the figures."""
    from shuffle_sim.validation.court_speeds import court_speed_rows

    _, speeds = load_sources()
    (docs / FOLDER).mkdir(parents=True, exist_ok=True)
    results = {
        "tracked_table": _tracked_table(docs, cache, clip),
        "crokinole": _crokinole(cache, misses, competitive, shots, games),
        "court_speeds": court_speed_rows(speeds),
    }
    path = docs / FOLDER / RESULTS
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)
    return path
