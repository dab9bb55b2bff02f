"""Players benchmark of realism: ``shuffle-sim bench-players [--json] [--quick]``.

Plays a few whole games per game type and player preset (both sides the same player) through the
one game loop and reports what the players tried and how often it worked, per kind of shot (the
intent's label without its disc numbers and details): attempts and successes. Each shot is replayed
after the fact: the launch as played is run again from the board the shooter saw
(``shooting.shoot``, deterministic, the same kernel call the game made) and its outcome checked
against what the shot meant:

- a kernel-aimed crokinole shot (``repertoire.Shot``): its goal met (take-out and stick, roll off,
  roll in, double, carom); it also counts as a take-out for the hit rule;
- a take-out: crokinole, the hit rule (an opponent disc in the chain of discs the shot set moving);
  other games, the target no longer scores (fallen, dead or worth nothing);
- an open 20: the disc holed; a hanger: the disc a hanger;
- a draw, guard, hide or bank to a spot: the disc at rest within a disc diameter of the spot, or
  scoring what the spot scores (a draw to the 10 that stops in the 10).

Crokinole also reports take-outs by line (``repertoire.visibility`` of the target from the
shooter's arc before the shot: 1 clear, between 0 and 1 partly hidden, 0 fully hidden), the
open-20 rate, 20s per shot and per game, and the discs left on the board at the end of a round.

Then, per game, the ``win`` player against the ``ev`` player of the same skill over
``head_to_head_games`` games (200 by default, the first shot alternating; ``bench.head_to_head``),
or the two ``head_to_head_players`` named.

A benchmark of behaviour, not a test: it prints numbers. ``--quick`` plays one short game per
preset and two short head-to-head games (the suite's smoke run).
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from shuffle_sim.judging import judge_batch
from shuffle_sim.physics import STATUS_HOLED
from shuffle_sim.playing import play
from shuffle_sim.playing.player_names import parse_player
from shuffle_sim.playing.players import (
    Bank,
    Decision,
    Draw,
    Guard,
    Hanger,
    Hide,
    Launch,
    Open20,
    Player,
    ShotContext,
    TakeOut,
)
from shuffle_sim.playing.players.repertoire import Shot, Strike, goal_met, visibility
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.common import reached_by
from shuffle_sim.shots import simulate_shots

#: Presets per game.
PRESETS = {
    "deck": ("expert-ev", "expert-plan"),
    "horse-collar": ("expert-ev", "expert-plan"),
    "ricochet": ("expert-ev", "expert-plan"),
    "crokinole": ("top-competitive-ev", "top-competitive-plan", "average-competitive-ev"),
}


@dataclass(frozen=True)
class PlayersBenchSizes:
    games: int = 5
    #: Game length per game (None: the game's own): short deck/horse-collar games keep the run short.
    lengths: tuple[tuple[str, int | None], ...] = (
        ("deck", 21),
        ("horse-collar", 21),
        ("ricochet", 15),
        ("crokinole", None),
    )
    ev_samples: int | None = None  # None: the preset's own
    #: Games per game type of the win player against the ev player (``head_to_head``); 0: none.
    head_to_head_games: int = 200
    head_to_head_workers: int = 2
    head_to_head_budget: int | None = None  # simulated shots per decision; None: the default
    #: Game length per game of the head-to-head games (absent: the game's own, ``HEAD_TO_HEAD``).
    head_to_head_lengths: tuple[tuple[str, int], ...] = ()
    #: The two players of the head-to-head games, the one measured first (None: SKILL-win, SKILL-ev).
    head_to_head_players: tuple[str, str] | None = None

    def length(self, game: str) -> int | None:
        return dict(self.lengths).get(game)


FULL = PlayersBenchSizes()
QUICK = PlayersBenchSizes(
    games=1,
    lengths=(("deck", 5), ("horse-collar", 5), ("ricochet", 15), ("crokinole", 1)),
    ev_samples=4,
    head_to_head_games=2,
    head_to_head_workers=1,
    head_to_head_budget=200,
    head_to_head_lengths=(("deck", 5), ("horse-collar", 5), ("ricochet", 15), ("crokinole", 1)),
)


#: Kinds of shot aimed at a place, tallied by the place their label names.
PLACED_KINDS = ("draw", "hanger", "guard", "hide", "bank")


def shot_kind(intent) -> str:
    """A shot's kind as the bench tallies it: for a shot aimed at a place (``PLACED_KINDS``), its label
    without details (after a comma or in brackets) and without disc numbers ("draw into the 15 (+40
    deg)": "draw into the 15"; "bank to take out weight 2": "bank to take out weight"), else the
    intent's ``kind`` ("take out disc 3, 0.1 m to spare": "take-out")."""
    kind = getattr(intent, "kind", None)
    if kind and kind not in PLACED_KINDS:
        return kind
    text = re.split(r",| \(", intent.label)[0].strip()
    return re.sub(r"\b(discs?|weights?) \d+( and \d+)?", r"\1", text)


def line_class(fraction: float) -> str:
    return "clear" if fraction >= 1.0 else ("fully hidden" if fraction <= 0.0 else "partly hidden")


@dataclass
class Tally:
    """What one preset's games did: attempts and successes per kind of shot, and crokinole figures."""

    shots: int = 0
    attempts: dict = field(default_factory=lambda: defaultdict(int))
    made: dict = field(default_factory=lambda: defaultdict(int))
    lines: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    hits: list = field(default_factory=lambda: [0, 0])  # crokinole take-outs of every kind: tried, hit
    twenties: int = 0
    rounds: int = 0
    games: int = 0
    left_on_board: int = 0

    def add(self, kind: str, ok: bool) -> None:
        self.attempts[kind] += 1
        self.made[kind] += int(ok)


def _near(ctx, out, k: int, x: float, y: float) -> bool:
    """A draw made: the disc rests within a disc diameter of the spot, or scores what the spot scores."""
    if out.fallen[k] or out.dead[k]:
        return False
    if math.hypot(out.x[k] - x, out.y[k] - y) <= 2.0 * ctx.radius:
        return True
    judged = judge_batch(ctx.court, np.array([out.x[k], x]), np.array([out.y[k], y]))
    return bool(not judged.dead[0] and judged.value[1] > 0 and judged.value[0] == judged.value[1])


def judge_shot_outcome(game: str, ctx, intent, played, tally: Tally) -> None:
    """Replay the shot as played from the board the shooter saw and count it under its kind."""
    out = shoot(ctx.court, ctx.board_x, ctx.board_y, played)
    k = ctx.n_discs
    kind = shot_kind(intent)
    tally.shots += 1
    opponents = [i for i in range(k) if ctx.board_team[i] != ctx.shooter]
    if isinstance(intent, Shot):
        batch = simulate_shots(
            ctx.court, [played.x], [played.y], [played.vx], [played.vy], [played.omega], board=ctx.board_scene()
        )
        ok = bool(goal_met(intent.goal, batch, k, int(intent.target), int(intent.second))[0])
        if game == "crokinole":
            chain = reached_by(k, out.contacts)
            hit = any(i in chain for i in opponents)
            line = tally.lines[line_class(visibility(ctx, int(intent.target)))]
            line[0] += 1
            line[1] += int(hit)
            tally.hits[0] += 1
            tally.hits[1] += int(hit)
        tally.add(kind, ok)
    elif isinstance(intent, (Strike, TakeOut)) or (isinstance(intent, Bank) and intent.extra > 0.0):
        if game == "crokinole":
            chain = reached_by(k, out.contacts)
            ok = any(i in chain for i in opponents)
            target = getattr(intent, "target", None)
            if target is not None:
                line = tally.lines[line_class(visibility(ctx, int(target)))]
                line[0] += 1
                line[1] += int(ok)
            tally.hits[0] += 1
            tally.hits[1] += int(ok)
        else:
            target = getattr(intent, "target", None)
            if target is None:  # a bank take-out names its weight by position
                assert isinstance(intent, Bank)
                target = int(np.argmin(np.hypot(ctx.board_x - intent.x, ctx.board_y - intent.y)))
            judged = judge_batch(ctx.court, out.x, out.y)
            ok = bool(out.fallen[target] or out.dead[target] or judged.dead[target] or judged.value[target] <= 0)
        tally.add(kind, ok)
    elif isinstance(intent, Open20):
        tally.add(kind, bool(out.result.status[k] == STATUS_HOLED))
    elif isinstance(intent, Hanger):
        judged = judge_batch(ctx.court, out.x, out.y)
        tally.add(kind, bool(judged.hanger[k] > 0 and not out.dead[k]))
    elif isinstance(intent, (Guard, Hide)):
        tally.add(kind, _near(ctx, out, k, *intent.point(ctx)))
    elif isinstance(intent, (Draw, Bank)):
        tally.add(kind, _near(ctx, out, k, intent.x, intent.y))
    else:
        raise TypeError(f"bench-players: no success test for a {type(intent).__name__} shot")


@dataclass(frozen=True)
class _Observed(Player):
    """A player whose every shot is also handed to ``judge_shot_outcome`` (the game is unchanged)."""

    game: str = field(kw_only=True)
    tally: Tally = field(kw_only=True, compare=False)

    @classmethod
    def of(cls, game: str, player: Player, tally: Tally) -> _Observed:
        return cls(player.name, player.skill, player.strategy, game=game, tally=tally)

    def play(self, ctx: ShotContext) -> tuple[Decision, Launch]:
        decision, played = super().play(ctx)
        judge_shot_outcome(self.game, ctx, decision.intent, played, self.tally)
        return decision, played


def _summary(game: str, tally: Tally) -> dict:
    kinds = {
        kind: {"attempts": n, "made": tally.made[kind], "rate": tally.made[kind] / n}
        for kind, n in sorted(tally.attempts.items(), key=lambda kv: -kv[1])
    }
    out = {
        "games": tally.games,
        "shots": tally.shots,
        "by_intent": kinds,
        "mix": {kind: n / tally.shots for kind, n in tally.attempts.items()} if tally.shots else {},
    }
    if game == "crokinole":
        attempts, made = tally.hits
        opens = kinds.get("open 20", {"attempts": 0, "made": 0})
        out["crokinole"] = {
            "takeout_hit_rate": made / attempts if attempts else None,
            "takeouts": attempts,
            "takeout_by_line": {
                name: {"attempts": a, "hits": h, "rate": h / a if a else None}
                for name, (a, h) in sorted(tally.lines.items())
            },
            "open20_rate": opens["made"] / opens["attempts"] if opens["attempts"] else None,
            "twenties_per_shot": tally.twenties / tally.shots if tally.shots else None,
            "twenties_per_game_per_player": tally.twenties / (2 * tally.games) if tally.games else None,
            "discs_left_per_round": tally.left_on_board / tally.rounds if tally.rounds else None,
        }
    return out


def run_bench(sizes: PlayersBenchSizes = FULL, games: tuple[str, ...] | None = None, seed: int = 0) -> dict:
    """Play ``sizes.games`` games per game type and preset; per-intent attempts and success rates."""
    report: dict = {"games_per_preset": sizes.games, "seed": seed, "results": {}}
    for game in games or tuple(PRESETS):
        report["results"][game] = {}
        for preset in PRESETS[game]:
            spec = preset if sizes.ev_samples is None or not preset.endswith("-ev") else f"{preset}{sizes.ev_samples}"
            tally = Tally()
            player = _Observed.of(game, parse_player(game, spec), tally)
            start = time.perf_counter()
            for g in range(sizes.games):
                record = play(game, (player, player), seed=seed + g, game_length=sizes.length(game))
                for played in record.games:
                    tally.games += 1
                    for frame in played.frames:
                        tally.rounds += 1
                        tally.left_on_board += len(frame.board)
                        tally.twenties += sum((frame.twenties or {}).values())
            summary = _summary(game, tally)
            summary["seconds"] = time.perf_counter() - start
            report["results"][game][spec] = summary
        if sizes.head_to_head_games:
            from shuffle_sim.bench.head_to_head import run_head_to_head

            report.setdefault("head_to_head", {})[game] = run_head_to_head(
                game,
                sizes.head_to_head_games,
                seed,
                sizes.head_to_head_workers,
                sizes.head_to_head_budget,
                length=dict(sizes.head_to_head_lengths).get(game),
                players=sizes.head_to_head_players,
            )
    return report


def format_report(report: dict) -> str:
    lines = [f"players benchmark: {report['games_per_preset']} game(s) per preset, seed {report['seed']}"]
    for game, presets in report["results"].items():
        for preset, s in presets.items():
            lines.append(f"{game} {preset}: {s['shots']} shots in {s['games']} game(s), {s['seconds']:.1f} s")
            for kind, v in s["by_intent"].items():
                lines.append(
                    f"  {kind:32s} {v['attempts']:5d} tried ({v['attempts'] / s['shots']:5.1%}), {v['rate']:6.1%} made"
                )
            c = s.get("crokinole")
            if c:

                def pct(v):
                    return "n/a" if v is None else f"{v:.1%}"

                lines.append(f"  take-outs hit an opponent disc: {pct(c['takeout_hit_rate'])} of {c['takeouts']}")
                for name, v in c["takeout_by_line"].items():
                    lines.append(f"    {name:14s} {pct(v['rate'])} of {v['attempts']}")
                lines.append(
                    f"  open 20s made {pct(c['open20_rate'])}; 20s per shot {c['twenties_per_shot']:.3f}, "
                    f"per game and player {c['twenties_per_game_per_player']:.1f}; "
                    f"discs left per round {c['discs_left_per_round']:.2f}"
                )
    if report.get("head_to_head"):
        from shuffle_sim.bench.head_to_head import format_head_to_head

        lines.append("head to head, hammer alternating (default: win against ev of the same skill):")
        lines += [format_head_to_head(r) for r in report["head_to_head"].values()]
    return "\n".join(lines)
