"""Crokinole standings with the tournament tie-breakers, and the shoot-out (crokinole tournament rules).

Players are ranked by total points over the games given (one playoff round, or the preliminaries).
Tied players are separated:

- after the first round-robin playoffs (``stage="playoff"``): head-to-head (the points each tied player
  scored in the games between the tied players; with more than two tied, the higher head-to-head total
  places higher and the rest are separated again by the same procedure among themselves), then the most
  20s "between tied players in that playoff round" (the 20s each made in the games between the tied
  players; option: all their 20s of the round), then a shoot-out;
- in the preliminaries (``stage="preliminary"``): the most 20s first (all the 20s of the games given:
  head-to-head "does not work in preliminary matches", tied players need not have met), then a
  shoot-out.

A shoot-out: every tied player shoots the category's number of shots (singles 12, other categories 6)
at the 20 from the same spot, each disc removed after its shot; the top scorer advances; players still
tied shoot again among themselves. ``shoot_out`` takes a callable ``make_twenties(player, k)`` that
returns how many 20s the player makes in ``k`` shots, so simulated players plug in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from shuffle_sim.rules.common import RulesError, check_choice, check_int
from shuffle_sim.rules.crokinole import category

STAGES = ("playoff", "preliminary")
TWENTIES_SCOPES = ("round", "between tied")
#: The 20s a stage counts unless told otherwise (the crokinole tournament rules, tie-breaking a) ii) and b)).
DEFAULT_TWENTIES_SCOPE = {"playoff": "between tied", "preliminary": "round"}


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the two players, the points each earned and the 20s each made."""

    a: str
    b: str
    points_a: int
    points_b: int
    twenties_a: int = 0
    twenties_b: int = 0

    def __post_init__(self) -> None:
        if not (isinstance(self.a, str) and isinstance(self.b, str) and self.a and self.b and self.a != self.b):
            raise RulesError(f"a game record needs two different players (got {self.a!r} and {self.b!r})")
        for name in ("points_a", "points_b", "twenties_a", "twenties_b"):
            check_int(getattr(self, name), name, minimum=0)


@dataclass(frozen=True)
class Standing:
    place: int  # 1-based
    player: str
    points: int
    twenties: int
    decided_by: str  # what separated this player from the next tied group: points, head-to-head, 20s, shoot-out


@dataclass(frozen=True)
class ShootOut:
    order: tuple[str, ...]  # best first
    rounds: tuple[dict[str, int], ...]  # 20s made by each shooter in each round of shots, in order shot


def shoot_out(
    players: Sequence[str], shots: int, make_twenties: Callable[[str, int], int], max_rounds: int = 1000
) -> ShootOut:
    """Rank tied players by shoot-out: ``shots`` each, the most 20s first; ties shoot again among themselves.

    Raises ``RulesError`` after ``max_rounds`` rounds of shots (a callable that never breaks a tie).
    """
    shots = check_int(shots, "shots", minimum=1)
    check_int(max_rounds, "max_rounds", minimum=1)
    log: list[dict[str, int]] = []

    def rank(group: list[str]) -> list[str]:
        # A loop over rounds while the whole group stays tied; split groups recurse.
        while True:
            if len(group) == 1:
                return group
            if len(log) >= max_rounds:
                raise RulesError(f"shoot-out between {', '.join(group)} still tied after {max_rounds} rounds")
            made = {}
            for p in group:
                value = make_twenties(p, shots)
                made[p] = check_int(value, f"20s made by {p!r} in {shots} shots", minimum=0)
                if made[p] > shots:
                    raise RulesError(f"20s made by {p!r} in {shots} shots must be at most {shots} (got {made[p]})")
            log.append(made)
            levels = sorted(set(made.values()), reverse=True)
            if len(levels) > 1:
                out: list[str] = []
                for level in levels:
                    out.extend(rank([p for p in group if made[p] == level]))
                return out

    players = list(players)
    if len(set(players)) != len(players) or not players:
        raise RulesError(f"players must be distinct names (got {players!r})")
    order = rank(players)
    return ShootOut(order=tuple(order), rounds=tuple(log))


def standings(
    records: Iterable[GameRecord],
    stage: str = "playoff",
    category_name: str = "singles",
    make_twenties: Callable[[str, int], int] | None = None,
    twenties_scope: str | None = None,
) -> list[Standing]:
    """Rank the players of ``records`` by points with the tie-breakers of ``stage``.

    ``twenties_scope``: "between tied" counts only the 20s made in games between the tied players
    (the playoff default: "most 20's between tied players in that playoff round", the crokinole tournament rules);
    "round" counts each tied player's 20s over all the records (the preliminary default). None takes
    the stage's default. ``make_twenties`` is needed only when a shoot-out is.
    """
    check_choice(stage, "stage", STAGES)
    twenties_scope = DEFAULT_TWENTIES_SCOPE[stage] if twenties_scope is None else twenties_scope
    check_choice(twenties_scope, "twenties_scope", TWENTIES_SCOPES)
    shots = category(category_name).shootout_shots
    records = list(records)
    players: list[str] = []
    points: dict[str, int] = {}
    twenties: dict[str, int] = {}
    for r in records:
        for p, pts, tw in ((r.a, r.points_a, r.twenties_a), (r.b, r.points_b, r.twenties_b)):
            if p not in points:
                players.append(p)
                points[p], twenties[p] = 0, 0
            points[p] += pts
            twenties[p] += tw

    def among(group: set[str], which: str) -> dict[str, int]:
        out = {p: 0 for p in group}
        for r in records:
            if r.a in group and r.b in group:
                out[r.a] += r.points_a if which == "points" else r.twenties_a
                out[r.b] += r.points_b if which == "points" else r.twenties_b
        return out

    def split(group: list[str], key: dict[str, int]) -> list[list[str]]:
        levels = sorted({key[p] for p in group}, reverse=True)
        return [[p for p in group if key[p] == level] for level in levels]

    def separate(group: list[str], label: str) -> list[tuple[str, str]]:
        if len(group) == 1:
            return [(group[0], label)]
        breakers: list[tuple[str, dict[str, int]]] = []
        if stage == "playoff":
            breakers.append(("head-to-head", among(set(group), "points")))
        tw = twenties if twenties_scope == "round" else among(set(group), "twenties")
        breakers.append(("20s", tw))
        for name, key in breakers:
            parts = split(group, key)
            if len(parts) > 1:
                return [item for part in parts for item in separate(part, name)]
        if make_twenties is None:
            raise RulesError(f"players {', '.join(group)} are still tied: a shoot-out needs make_twenties")
        return [(p, "shoot-out") for p in shoot_out(group, shots, make_twenties).order]

    ranked: list[tuple[str, str]] = []
    for part in split(players, points):
        ranked.extend(separate(part, "points"))
    return [
        Standing(place=k + 1, player=p, points=points[p], twenties=twenties[p], decided_by=label)
        for k, (p, label) in enumerate(ranked)
    ]
