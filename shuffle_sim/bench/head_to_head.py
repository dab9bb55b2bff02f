"""Head to head: the ``win`` player against the ``ev`` player of the same skill, game after game.

``run_head_to_head(game, ...)`` plays ``games`` games (game index g with the seed, the win player on
side A in even games and on side B in odd ones, so that each shoots first in half of them: the hammer
alternates) in ``workers`` processes, each on one numba thread (results do not depend on how games
are shared out). It reports the win player's wins, losses and ties, its share of wins and its score
(a tie counting half) with 95 % Wilson intervals, the wall and CPU seconds per game, and
for crokinole the per-round figures: rounds won by the last shooter (the hammer) and by the first
shooter, tied rounds, and 20s per player-round, with the same for the rounds each player had the
hammer. ``shuffle-sim bench-players --json`` includes it (``head_to_head``).

``players=(A, B)`` (``bench-players --players A,B``) plays any two players the same way, A in the
win player's place and B in the ev player's (the report's keys keep those names): for instance the
``ev`` players of two skill presets, the scale against which a strategy's margin over ``ev`` reads.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

from shuffle_sim.playing.players.success import wilson_interval

#: Skill presets compared per game (the same skill on both sides) and the game length played.
HEAD_TO_HEAD = {
    "deck": ("expert", 75),
    "crokinole": ("top-competitive", 4),
    "horse-collar": ("expert", 51),
    "ricochet": ("expert", 15),
}


def _play_games(game: str, win_spec: str, ev_spec: str, seed: int, indices: list[int], length: int) -> list[dict]:
    """Play the games ``indices`` (worker side); one record per game."""
    from shuffle_sim.playing.player_names import (
        parse_player,
    )
    from shuffle_sim.playing.search.self_play import play_rules_game

    win, ev = parse_player(game, win_spec), parse_player(game, ev_spec)
    out = []
    for g in indices:
        win_side = "A" if g % 2 == 0 else "B"
        began = time.perf_counter()
        cpu = time.process_time()
        shots = _ShotCounter()
        players = (shots.wrap(win), ev) if win_side == "A" else (ev, shots.wrap(win))
        rules_game = play_rules_game(game, players, seed, g, length, first="A")
        record = {
            "game": g,
            "win_side": win_side,
            "winner": rules_game.winner,
            "scores": dict(rules_game.scores),
            "seconds": time.perf_counter() - began,
            "cpu_seconds": time.process_time() - cpu,
            "win_shots": shots.count,
        }
        if game == "crokinole":
            rounds = []
            for k, entry in enumerate(rules_game.rounds):
                first = rules_game.seats[k % len(rules_game.seats)][0]
                rounds.append({"first": first, "totals": dict(entry.totals), "twenties": dict(entry.twenties)})
            record["rounds"] = rounds
        out.append(record)
    return out


class _ShotCounter:
    """Counts the shots of a player (wraps it; the game is unchanged)."""

    def __init__(self):
        self.count = 0

    def wrap(self, player):
        counter = self

        class Counted:
            name = player.name
            skill = player.skill
            strategy = player.strategy

            def decide(self, ctx):
                return player.decide(ctx)

            def play(self, ctx):
                counter.count += 1
                return player.play(ctx)

        return Counted()


def _crokinole_rounds(records: list[dict]) -> dict:
    """Per-round figures over every round of ``records``, overall and by player type."""
    n = last = first = tied = 0
    twenties = 0
    by = {
        "win": {"hammer_rounds": 0, "hammer_won": 0, "first_rounds": 0, "first_won": 0, "twenties": 0},
        "ev": {"hammer_rounds": 0, "hammer_won": 0, "first_rounds": 0, "first_won": 0, "twenties": 0},
    }
    for rec in records:
        for rnd in rec["rounds"]:
            n += 1
            a, b = rnd["first"], ("B" if rnd["first"] == "A" else "A")
            ta, tb = rnd["totals"][a], rnd["totals"][b]
            first += ta > tb
            last += tb > ta
            tied += ta == tb
            twenties += sum(rnd["twenties"].values())
            for side, role in ((a, "first"), (b, "hammer")):
                kind = "win" if side == rec["win_side"] else "ev"
                by[kind][f"{role}_rounds"] += 1
                mine, theirs = rnd["totals"][side], rnd["totals"][b if side == a else a]
                by[kind][f"{role}_won"] += mine > theirs
                by[kind]["twenties"] += rnd["twenties"][side]
    out: dict[str, object] = {
        "rounds": n,
        "last_shooter_won": last / n if n else None,
        "first_shooter_won": first / n if n else None,
        "tied": tied / n if n else None,
        "twenties_per_player_round": twenties / (2 * n) if n else None,
    }
    for kind, v in by.items():
        rounds = v["hammer_rounds"] + v["first_rounds"]
        out[kind] = {
            "with_hammer_won": v["hammer_won"] / v["hammer_rounds"] if v["hammer_rounds"] else None,
            "shooting_first_won": v["first_won"] / v["first_rounds"] if v["first_rounds"] else None,
            "twenties_per_round": v["twenties"] / rounds if rounds else None,
        }
    return out


def run_head_to_head(
    game: str,
    games: int = 200,
    seed: int = 0,
    workers: int = 2,
    budget: int | None = None,
    skill: str | None = None,
    length: int | None = None,
    players: tuple[str, str] | None = None,
) -> dict:
    """Play the win player against the ev player of the same skill, or the two ``players`` (measured
    player first; ``budget`` is then not used: a player names its own, ``top-competitive-win3000``;
    module docstring)."""
    from shuffle_sim.playing.player_names import parse_player

    preset, default_length = HEAD_TO_HEAD[game]
    skill = skill or preset
    length = length or default_length
    if players is None:
        win_spec = f"{skill}-win{budget}" if budget else f"{skill}-win"
        ev_spec = f"{skill}-ev"
    else:
        win_spec, ev_spec = (spec.strip() for spec in players)
    measured = parse_player(game, win_spec)  # a misspelt player fails here, before any game is played
    parse_player(game, ev_spec)
    search_budget = _search_budget(game, measured.strategy)
    indices = list(range(games))
    began = time.perf_counter()
    if workers <= 1:
        records = _play_games(game, win_spec, ev_spec, seed, indices, length)
    else:
        shares = [indices[w::workers] for w in range(workers)]
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            parts = list(
                pool.map(
                    _play_games,
                    [game] * workers,
                    [win_spec] * workers,
                    [ev_spec] * workers,
                    [seed] * workers,
                    shares,
                    [length] * workers,
                )
            )
        records = sorted((r for part in parts for r in part), key=lambda r: r["game"])
    wall = time.perf_counter() - began
    won = sum(r["winner"] == r["win_side"] for r in records)
    tied = sum(r["winner"] is None for r in records)
    lost = len(records) - won - tied
    n = len(records)
    low, high = wilson_interval(won, n)
    score = (won + 0.5 * tied) / n if n else 0.0
    s_low, s_high = wilson_interval(round(won + 0.5 * tied), n)
    win_shots = sum(r["win_shots"] for r in records)
    report = {
        "game": game,
        "skill": skill,
        "length": length,
        "games": n,
        "seed": seed,
        "workers": workers,
        "win_player": win_spec,
        "ev_player": ev_spec,
        "budget_per_shot": search_budget,
        "win": won,
        "lost": lost,
        "tied": tied,
        "win_share": won / n if n else None,
        "win_share_95": [low, high],
        "score_share": score,
        "score_share_95": [s_low, s_high],
        "wall_seconds": wall,
        "seconds_per_game": sum(r["seconds"] for r in records) / n if n else None,
        # CPU time, the measure a busy machine does not inflate: the games' total over two cores is
        # the wall time of the run on an otherwise idle two-core machine
        "cpu_seconds_per_game": sum(r["cpu_seconds"] for r in records) / n if n else None,
        "cpu_minutes_on_two_cores": sum(r["cpu_seconds"] for r in records) / 120.0,
        "win_player_shots": win_shots,
    }
    if game == "crokinole":
        report["crokinole_rounds"] = _crokinole_rounds(records)
    return report


def _search_budget(game: str, strategy) -> int | None:
    """Simulated shots per decision of a ``win`` strategy in ``game``; None for any other strategy."""
    from shuffle_sim.playing.search.kr_uct import WinSearch

    if not isinstance(strategy, WinSearch):
        return None
    return strategy.budget or _game_budget(game)


def _game_budget(game: str) -> int:
    """The win player's default simulated shots per decision in ``game`` (its situation's budget)."""
    from shuffle_sim.playing.search import situations

    budgets = {"deck": situations.DeckSituation.budget, "crokinole": situations.CrokinoleSituation.budget}
    return budgets.get(game, situations.FrameValueSituation.budget)


def format_head_to_head(report: dict) -> str:
    budget = report["budget_per_shot"]
    searched = "" if budget is None else f"budget {budget} simulated shots per decision; "
    lines = [
        f"{report['game']}: {report['win_player']} against {report['ev_player']}, {report['games']} games "
        f"(hammer alternating), {report['wall_seconds']:.0f} s on {report['workers']} worker(s), "
        f"{searched}{report['cpu_minutes_on_two_cores']:.1f} min of CPU over two cores",
        f"  win {report['win']}, lost {report['lost']}, tied {report['tied']}: wins {report['win_share']:.1%} "
        f"(95% {report['win_share_95'][0]:.1%}-{report['win_share_95'][1]:.1%}), score "
        f"{report['score_share']:.1%} (ties half)",
    ]
    c = report.get("crokinole_rounds")
    if c:
        lines.append(
            f"  rounds {c['rounds']}: last shooter won {c['last_shooter_won']:.1%}, first shooter won "
            f"{c['first_shooter_won']:.1%}, tied {c['tied']:.1%}; 20s per player-round "
            f"{c['twenties_per_player_round']:.2f}"
        )
        for kind, name in (("win", report["win_player"]), ("ev", report["ev_player"])):
            v = c[kind]
            lines.append(
                f"    {name}: with the hammer won {v['with_hammer_won']:.1%}, shooting first won "
                f"{v['shooting_first_won']:.1%}, 20s per round {v['twenties_per_round']:.2f}"
            )
    return "\n".join(lines)
