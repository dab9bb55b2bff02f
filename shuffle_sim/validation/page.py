"""The validation page (``docs/validation.md``) written from the results file: every number the page
shows is the results file's, so that a test can tell whether the page is current."""

from __future__ import annotations

from shuffle_sim.validation.sources import Source

RERUN = "python -m shuffle_sim.validation"
ENDS = {"contact": "another puck moves (a contact)", "track end": "the tracker loses the puck"}


def _pm(value: float, sd: float | None, digits: int = 4) -> str:
    return f"{value:.{digits}f}" if sd is None else f"{value:.{digits}f} ± {sd:.{digits}f}"


def _provenance(source: Source) -> str:
    return (
        f"Source: [{source.repository}]({source.url}), file `{source.path}`, commit `{source.commit[:7]}`; "
        f"licence: {source.licence}. {source.description[0].upper()}{source.description[1:]}."
    )


def _tracked(results: dict, source: Source) -> list[str]:
    laws, choice = results["laws"], results["choice"]
    c, s = laws["coulomb"], laws["speed"]
    lines = [
        "## The tracked table",
        "",
        _provenance(source),
        "The repository states no licence, so the tracks are not carried here: the script derives them "
        "from the fetched file (`shuffle_sim.validation.tracked_clip`) and this page shows the derived figures.",
        "",
        f"The clip's deliveries each end in a contact. Their free parts in the calibrated part of the table "
        f"(within 94 in of the far end, where the homography's reference lines reach) give {results['tracks']} "
        f"tracks of {results['points']} points, fitted by `shuffle-sim calibrate` with a stated error of "
        f"{results['position_sd'] * 1000:g} mm a coordinate:",
        "",
        "| track | frames | points | free part ends where |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {t['track']} | {t['frames'][0]}-{t['frames'][1]} | {t['points']} | {ENDS[t['ends_in']]} |"
        for t in results["slides"]
    ]
    lines += [
        "",
        "| law | mu | mu_speed (s/m) | chi2/dof | rms from the fit | held-out rms | table speed (s, end to end) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, fit in (("Coulomb", c), ("speed, mu + mu_speed v", s)):
        speed_term = "0 (held)" if fit["mu_speed_sd"] is None else _pm(fit["mu_speed"], fit["mu_speed_sd"])
        lines.append(
            f"| {name} | {_pm(fit['mu'], fit['mu_sd'])} | {speed_term} | {fit['chi2_dof']:.2f} | "
            f"{fit['rms'] * 1000:.2f} mm | {fit['held_out_rms'] * 1000:.2f} mm | "
            f"{fit['speed']:.2f} ± {fit['speed_sd']:.2f} |"
        )
    lines += [
        "",
        "Held out one track at a time (both laws fitted to the other tracks, only the held-out track's start "
        "fitted under them), each track's rms distance from its prediction:",
        "",
        "| track | Coulomb | speed law |",
        "|---|---|---|",
    ]
    for track, err in c["held_out_per_track"].items():
        lines.append(f"| {track} | {err * 1000:.2f} mm | {s['held_out_per_track'][track] * 1000:.2f} mm |")
    lines += [
        "",
        f"`shuffle-sim calibrate horse-collar TRACKS.csv --friction auto` chooses the **{choice['law']}** law, "
        f"decided by the held-out error: {choice['reason'].split(': ', 1)[1]}.",
        "",
        f"The residuals lie beyond the stated error (chi2/dof {s['chi2_dof']:.1f} under the speed law), and the "
        "command says so: some slides curve across the table, which a straight slide without spin on a flat "
        "table cannot follow; the standard errors above are scaled to the residuals.",
        "",
        f"The simulator (`shuffle_sim.simulate`, the court `horse-collar` with each fitted law, every track's "
        f"fitted start) reproduces the fitted slides to {c['simulator_gap']:.1e} m (Coulomb) and "
        f"{s['simulator_gap']:.1e} m (speed law) at every tracked frame.",
        "",
        "```{image} validation/tracked-slides.png",
        ":alt: The clip's free slides, measured and simulated under both fitted laws, and their differences",
        ":width: 100%",
        "```",
        "",
        "```{image} validation/deceleration.png",
        ":alt: Effective friction of 20-frame windows against speed, with both fitted laws",
        ":width: 80%",
        "```",
        "",
    ]
    return lines


def _crokinole(results: dict, misses: Source, competitive: Source, reference: dict) -> list[str]:
    rates, players = results["preset_rates"], results["players"]
    made = [p["rate"] for p in players]
    attempts = sum(p["attempts"] for p in players)
    pooled_rate = sum(p["rate"] * p["attempts"] for p in players) / attempts
    lines = [
        "## Crokinole: open 20s",
        "",
        _provenance(competitive),
        _provenance(misses),
        "",
        f"The {len(players)} tournament players make {min(made) * 100:.1f} % to {max(made) * 100:.1f} % of their "
        f"open 20s ({pooled_rate * 100:.1f} % of {attempts:,} attempts together). The skill presets, over "
        f"{results['shots']:,} simulated open 20s each (`experiments/crokinole-open20.toml`):",
        "",
        "| preset | open 20s made | first miss: chi2 (dof) | p |",
        "|---|---|---|---|",
    ]
    for name, rate in rates.items():
        test = results["first_miss"][name]
        lines.append(f"| {name} | {rate * 100:.1f} % | {test['chi2']:.1f} ({test['dof']}) | {test['p']:.3g} |")
    top = results["first_miss"]["top competitive"]
    lines += [
        "",
        f"The first missed open 20 of {sum(top['observed'])} real play-off rounds against a player who makes each "
        "at the preset's rate independently (the first miss on shot n with probability p^(n-1) (1 - p); the "
        "tail pooled where fewer than 5 rounds are expected). Top competitive:",
        "",
        "| shot | " + " | ".join(str(k + 1) for k in range(len(top["observed"]) - 1)) + f" | {len(top['observed'])}+ |",
        "|---|" + "---|" * len(top["observed"]),
        "| real rounds | " + " | ".join(str(v) for v in top["observed"]) + " |",
        "| expected | " + " | ".join(f"{v:.1f}" for v in top["expected"]) + " |",
        "",
    ]
    return lines + _rounds(results["rounds"], reference)


def _rounds(sim: dict, reference: dict) -> list[str]:
    rows = (
        ("the side that shoots last wins", "last_wins"),
        ("the side that shoots first wins", "first_wins"),
        ("tied", "ties"),
    )
    return [
        "## Crokinole: who wins a round",
        "",
        f"{sim['rounds']} rounds of simulated singles games, `{sim['players']}` on both sides "
        f"(`shuffle-sim play crokinole --players {sim['players']}`, seeds 0 to {sim['rounds'] // 4 - 1}), "
        f"beside {reference['source']}:",
        "",
        "| per round | simulated | published |",
        "|---|---|---|",
        *(f"| {what} | {sim[key] * 100:.1f} % | {reference[key] * 100:.1f} % |" for what, key in rows),
        f"| 20s per player | {sim['twenties_per_player_round']:.2f} | {reference['twenties_per_player_round']:.2f} |",
        "",
    ]


def _speeds(rows: list[dict], tracked: dict) -> list[str]:
    lines = [
        "## Court speeds",
        "",
        "Each court file's speed (seconds over its speed course, under its friction law) beside what players "
        "publish for the game:",
        "",
        "| court | speed | course | published |",
        "|---|---|---|---|",
    ]
    for row in rows:
        speed = "-" if row["speed"] is None else f"{row['speed']:.2f} s"
        published = "; ".join(
            f"{p['what']}: {p['low']:g}-{p['high']:g} s ({p['source']}){', within' if p['within'] else ''}"
            for p in row["published"]
        )
        if row["game"] == "horse-collar":
            laws = tracked["laws"]
            published = (
                f"the tracked table above: {laws['speed']['speed']:.2f} s (speed law), "
                f"{laws['coulomb']['speed']:.2f} s (Coulomb)"
            )
        lines.append(f"| {row['court']} | {speed} | {row['course'] or '-'} | {published or 'none found'} |")
    lines.append("")
    return lines


def render(results: dict, sources: dict[str, Source], reference: dict) -> str:
    """The page's Markdown from the results file's contents (``reference``: crokinole's published
    per-round figures, ``sources.round_reference``)."""
    lines = [
        "# Validation: real data beside the simulator",
        "",
        "Every real dataset the project has found, set beside what the simulator makes of it, with where it "
        "comes from. The page and its figures are written by one script:",
        "",
        "```bash",
        f"{RERUN}              # the page again from docs/validation/results.json",
        f"{RERUN} --refresh    # everything again from the sources (downloads them; minutes on 2 cores)",
        f"{RERUN} --refresh --clip pbp_data_cleaned.csv --misses misses.csv --competitive competitive.csv",
        "python -m shuffle_sim.validation.tracked_clip pbp_data_cleaned.csv tracks.csv   # the clip's tracks alone",
        "```",
        "",
        "A test checks that this page shows the results file's numbers.",
        "",
    ]
    lines += _tracked(results["tracked_table"], sources["clip"])
    lines += _crokinole(results["crokinole"], sources["misses"], sources["competitive"], reference)
    lines += _speeds(results["court_speeds"], results["tracked_table"])
    return "\n".join(lines)
