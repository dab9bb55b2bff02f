"""Crokinole (the tournament rules, and the standard board rules where they are silent): shots, rounds, games, matches.

- Values (court file): 20 in the hole (removed at once and kept aside), 15 inside the 15 line, 10, 5;
  a disc touching a dividing line counts the lower value; a disc on or beyond the 5 (shooting) line,
  or in the ditch, is removed.
- Hit rule: when an opponent disc is on the board, a shot must hit one, directly or through other
  discs; otherwise the shot disc and any of the shooter's discs it moved are removed (a 20 made that
  way included). Open-shot rule: with no opponent disc on the board, the shot must end inside or
  touching the 15 line, or it is removed; a 20 is always good.
- Round total: a side's 20s plus its discs on the board. Round points: 2 to the higher total, 1 each
  on a tie (crokinole tournament rules); option: traditional cancellation scoring (the difference to the higher total,
  game to 100).
- Categories (``data/crokinole_categories.toml``): discs per player per round, players per side,
  games per match, shoot-out shots. A game is 4 rounds; a championship game tied after 4 rounds gets
  a fifth round (and another while tied); a championship is best two of three games.
- Seats: singles south (first side) and north; doubles south, west, north, east (sides alternate,
  partners opposite). Play goes clockwise seen from above (to the shooter's left); the seat that
  starts a round moves one place clockwise each round.

Standings and shoot-outs are in ``standings``.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from shuffle_sim.judging import Judgement
from shuffle_sim.rules.common import (
    Board,
    DiscScore,
    FrameScore,
    RulesError,
    Turn,
    check_choice,
    check_contacts,
    check_int,
    check_side_names,
    line_reason,
    reached_by,
)

GAME = "crokinole"
DEFAULT_COURT = "crokinole"
CATEGORIES_PATH = Path(__file__).resolve().parent / "data" / "crokinole_categories.toml"
SCORING = ("points", "cancellation")
TWENTY = 20
SEATS = ("south", "west", "north", "east")  # clockwise seen from above, from the first player
FIFTEEN_LINE = "15 line"


@dataclass(frozen=True)
class Category:
    name: str
    description: str
    discs_per_player: int
    players_per_side: int
    games_per_match: int
    shootout_shots: int


@lru_cache(maxsize=1)
def categories() -> dict[str, Category]:
    """The tournament categories of the crokinole tournament rules, keyed by name."""
    path = CATEGORIES_PATH
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    out = {}
    for name, rec in data.get("categories", {}).items():
        fields = {}
        for key in ("discs_per_player", "players_per_side", "games_per_match", "shootout_shots"):
            value = rec.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RulesError(f"{path}: categories.{name}.{key}: must be a positive integer (got {value!r})")
            fields[key] = value
        if fields["players_per_side"] not in (1, 2):
            raise RulesError(
                f"{path}: categories.{name}.players_per_side: must be 1 or 2 (got {fields['players_per_side']})"
            )
        out[name] = Category(name=name, description=str(rec.get("description", name)), **fields)
    return out


def category(name: str) -> Category:
    table = categories()
    return table[check_choice(name, "category", tuple(table))]


# ---- judging discs and rounds --------------------------------------------------------------------


def disc_reason(judgement: Judgement, i: int) -> tuple[int, str]:
    """A disc's worth on the board and the sentence that explains it."""
    if judgement.fallen[i]:
        return 0, "in the ditch: removed"
    if judgement.holed[i]:
        return int(judgement.value[i]), f"in the 20 hole: {int(judgement.value[i])}, removed at once"
    touching = judgement.touching_names(i)
    if judgement.dead[i]:
        return 0, line_reason(touching, "removed", "beyond the 5 line: removed")
    value = int(judgement.value[i])
    return value, line_reason(touching, f"counts {value}", f"in the {value} circle")


def score_round(board: Board, twenties: Mapping[str, int] | None = None, teams: Sequence[str] = ()) -> FrameScore:
    """Round totals: each side's 20s set aside during the round (``twenties``, by default the
    board's own ``twenties``, as a board file lists them), plus its discs on the board.

    A disc resting in the hole counts 20 like one set aside.
    """
    twenties = dict((board.twenties if twenties is None else twenties) or {})
    judgement = board.judge()
    scores = {t: 0 for t in [*teams, *twenties, *board.teams()]}
    for t, n in twenties.items():
        scores[t] += TWENTY * check_int(n, f"twenties[{t!r}]", minimum=0)
    discs = []
    for i in range(len(board)):
        value, reason = disc_reason(judgement, i)
        scores[board.team[i]] += value
        discs.append(DiscScore(float(board.x[i]), float(board.y[i]), board.team[i], value, reason))
    return FrameScore(scores=scores, discs=tuple(discs), void=None)


def round_points(totals: Mapping[str, int]) -> dict[str, int]:
    """Tournament round points (crokinole tournament rules): 2 to the higher total, 0 to the lower, 1 each on a tie."""
    (a, ta), (b, tb) = _two(totals)
    if ta == tb:
        return {a: 1, b: 1}
    return {a: 2, b: 0} if ta > tb else {a: 0, b: 2}


def cancellation_points(totals: Mapping[str, int]) -> dict[str, int]:
    """Traditional scoring: the higher total scores the difference, the other nothing."""
    (a, ta), (b, tb) = _two(totals)
    return {a: max(0, ta - tb), b: max(0, tb - ta)}


def _two(totals: Mapping[str, int]) -> list[tuple[str, int]]:
    items = [(k, check_int(v, f"totals[{k!r}]", minimum=0)) for k, v in totals.items()]
    if len(items) != 2:
        raise RulesError(f"totals must name exactly two sides (got {dict(totals)!r})")
    return items


# ---- one shot ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrokinoleShot:
    """What a shot does: discs removed at once (with reasons), 20s set aside per side, any foul,
    whether the shot reached an opponent disc (``hit``; None when none was on the board), and
    ``set_aside``: the discs counted as 20s (a disc that drops into the hole on a shot that hit no
    opponent disc is removed, not counted)."""

    remove: tuple[int, ...]
    why: dict[int, str]
    twenties: dict[str, int] = field(default_factory=dict)
    foul: str | None = None
    hit: bool | None = None
    set_aside: tuple[int, ...] = ()


def inside_or_touching(board: Board, i: int, line: str = FIFTEEN_LINE) -> bool:
    """Whether disc ``i`` lies inside a circular line or touches it (the open-shot test)."""
    ln = board.court.line(line)
    if ln.kind != "circle":
        raise RulesError(f"line {line!r} of court {board.court.name!r} must be a circle")
    cx, cy, radius = ln.geom[:3]
    rho = math.hypot(float(board.x[i]) - cx, float(board.y[i]) - cy)
    return rho <= radius + ln.width / 2 + board.court.disc_radius


def judge_shot(
    board: Board,
    shooter: str,
    shot_disc: int,
    on_board_before: Sequence[bool],
    contacts: Iterable[Sequence] = (),
) -> CrokinoleShot:
    """Apply the hit rule or the open-shot rule and the removals of one shot.

    ``board``: every disc after the shot (the shot disc and those on the board before it; a disc
    knocked into the ditch has its off-surface centre). ``on_board_before[i]``: disc ``i`` was on the
    board before the shot (False for the shot disc). ``contacts``: the shot's disc-disc contacts
    ``(a, b, a_dead, b_dead)`` in time order.
    """
    n = len(board)
    before = [bool(v) for v in on_board_before]
    if len(before) != n:
        raise RulesError(f"on_board_before must have one entry per disc ({n}), got {len(before)}")
    if not 0 <= shot_disc < n or board.team[shot_disc] != shooter:
        raise RulesError(f"shot_disc must index a disc of {shooter!r} on the board (got {shot_disc})")
    if before[shot_disc]:
        raise RulesError(f"on_board_before[{shot_disc}]: the shot disc was not on the board before the shot")
    contacts = check_contacts(contacts, n)
    judgement = board.judge()
    why: dict[int, str] = {}
    foul = None
    hit = None
    opponent_on_board = any(before[i] and board.team[i] != shooter for i in range(n))
    if opponent_on_board:
        chain = reached_by(shot_disc, contacts)
        hit = any(before[i] and board.team[i] != shooter for i in chain)
        if not hit:
            foul = "hit no opponent disc"
            for i in sorted(chain):
                if board.team[i] == shooter:
                    why[i] = (
                        "the shot hit no opponent disc: removed"
                        if i == shot_disc
                        else "moved by a shot that hit no opponent disc: removed"
                    )
    elif not judgement.holed[shot_disc] and not inside_or_touching(board, shot_disc):
        foul = "open shot short of the 15 line"
        why[shot_disc] = "open shot ended outside the 15 line: removed"
    twenties: dict[str, int] = {}
    set_aside = []
    for i in range(n):
        if i in why:
            continue
        if judgement.holed[i]:
            twenties[board.team[i]] = twenties.get(board.team[i], 0) + 1
            set_aside.append(i)
            why[i] = disc_reason(judgement, i)[1]
        elif judgement.dead[i]:
            why[i] = disc_reason(judgement, i)[1]
    return CrokinoleShot(
        remove=tuple(sorted(why)), why=why, twenties=twenties, foul=foul, hit=hit, set_aside=tuple(set_aside)
    )


# ---- games and matches ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CrokinoleOptions:
    category: str = "singles"
    scoring: str = "points"
    rounds: int = 4
    cancellation_target: int = 100
    championship: bool = False  # a game tied after its rounds gets another round, while tied

    def __post_init__(self) -> None:
        category(self.category)
        check_choice(self.scoring, "scoring", SCORING)
        check_int(self.rounds, "rounds", minimum=1)
        check_int(self.cancellation_target, "cancellation_target", minimum=1)


@dataclass(frozen=True)
class RoundEntry:
    """One line of a scorecard: each side's round total, its 20s, and the points it earned."""

    number: int  # 1-based
    totals: dict[str, int]
    twenties: dict[str, int]
    points: dict[str, int]


@dataclass(frozen=True)
class Scorecard:
    """A game's scorecard (crokinole tournament rules): each round's score and number of 20s, and the game totals."""

    sides: tuple[str, str]
    rounds: tuple[RoundEntry, ...]
    points: dict[str, int]
    twenties: dict[str, int]
    winner: str | None

    def to_dict(self) -> dict:
        return {
            "sides": list(self.sides),
            "rounds": [
                {"round": r.number, "totals": r.totals, "twenties": r.twenties, "points": r.points} for r in self.rounds
            ],
            "points": self.points,
            "twenties": self.twenties,
            "winner": self.winner,
        }


class CrokinoleGame:
    """One game between two sides; ``first`` shoots first in round 1."""

    def __init__(
        self,
        sides: Sequence[str] = ("A", "B"),
        options: CrokinoleOptions = CrokinoleOptions(),
        first: str | None = None,
    ):
        self.sides = check_side_names(sides)
        if len(self.sides) != 2:
            raise RulesError(f"sides: crokinole games are between two sides (got {self.sides!r})")
        self.options = options
        self.category = category(options.category)
        first = self.sides[0] if first is None else check_choice(first, "first", self.sides)
        other = self.sides[1] if first == self.sides[0] else self.sides[0]
        if self.category.players_per_side == 1:
            self.seats: tuple[tuple[str, int, str], ...] = ((first, 0, SEATS[0]), (other, 0, SEATS[2]))
        else:
            self.seats = ((first, 0, SEATS[0]), (other, 0, SEATS[1]), (first, 1, SEATS[2]), (other, 1, SEATS[3]))
        self.scores = {s: 0 for s in self.sides}
        self.twenties = {s: 0 for s in self.sides}
        self.rounds: list[RoundEntry] = []
        self.over = False
        self.winner: str | None = None

    def turns(self) -> tuple[Turn, ...]:
        """The next round's shots: seats in clockwise order from the round's starting seat."""
        if self.over:
            raise RulesError("the game is over")
        n_seats = len(self.seats)
        start = len(self.rounds) % n_seats
        shots = self.category.discs_per_player * n_seats
        out = []
        for k in range(shots):
            side, player, seat = self.seats[(start + k) % n_seats]
            out.append(Turn(team=side, player=player, shot=k + 1, end=seat))
        return tuple(out)

    def record_round(
        self, totals: Mapping[str, int] | FrameScore, twenties: Mapping[str, int] | None = None
    ) -> RoundEntry:
        """Post a round: each side's round total (20s included) and its number of 20s."""
        if self.over:
            raise RulesError("the game is over")
        if isinstance(totals, FrameScore):
            totals = totals.scores
        twenties = dict(twenties or {})
        unknown = (set(totals) | set(twenties)) - set(self.sides)
        if unknown:
            raise RulesError(f"sides must be {', '.join(self.sides)} (got {sorted(unknown)!r})")
        totals = {s: check_int(totals.get(s, 0), f"totals[{s!r}]", minimum=0) for s in self.sides}
        twenties = {s: check_int(twenties.get(s, 0), f"twenties[{s!r}]", minimum=0) for s in self.sides}
        for s in self.sides:
            if TWENTY * twenties[s] > totals[s]:
                raise RulesError(f"totals[{s!r}] = {totals[s]} is less than its {twenties[s]} 20s")
        points = cancellation_points(totals) if self.options.scoring == "cancellation" else round_points(totals)
        entry = RoundEntry(number=len(self.rounds) + 1, totals=totals, twenties=twenties, points=points)
        self.rounds.append(entry)
        for s in self.sides:
            self.scores[s] += points[s]
            self.twenties[s] += twenties[s]
        self._check_end()
        return entry

    def _check_end(self) -> None:
        a, b = (self.scores[s] for s in self.sides)
        if self.options.scoring == "cancellation":
            if max(a, b) >= self.options.cancellation_target:
                self.over, self.winner = True, self.sides[0] if a > b else self.sides[1]
            return
        if len(self.rounds) < self.options.rounds:
            return
        if a != b:
            self.over, self.winner = True, self.sides[0] if a > b else self.sides[1]
        elif not self.options.championship:
            self.over = True  # a tied game: one point a round each way, no winner

    def scorecard(self) -> Scorecard:
        return Scorecard(
            sides=(self.sides[0], self.sides[1]),
            rounds=tuple(self.rounds),
            points=dict(self.scores),
            twenties=dict(self.twenties),
            winner=self.winner,
        )


class CrokinoleMatch:
    """A tournament match (the category's number of games, points added up) or a championship
    (``championship=True``: best two of three games, each tied game settled by extra rounds).

    The side shooting first alternates from game to game.
    """

    def __init__(self, sides: Sequence[str] = ("A", "B"), options: CrokinoleOptions = CrokinoleOptions()):
        self.sides = check_side_names(sides)
        self.options = options
        self.category = category(options.category)
        self.games: list[CrokinoleGame] = []
        self.points = {s: 0 for s in self.sides}
        self.twenties = {s: 0 for s in self.sides}
        self.wins = {s: 0 for s in self.sides}
        self.over = False
        self.winner: str | None = None
        self._current: CrokinoleGame | None = None

    @property
    def games_planned(self) -> int:
        return 3 if self.options.championship else self.category.games_per_match

    def next_game(self) -> CrokinoleGame:
        if self.over:
            raise RulesError("the match is over")
        if self._current is None:
            first = self.sides[len(self.games) % 2]
            self._current = CrokinoleGame(self.sides, self.options, first=first)
        return self._current

    def record_game(self, game: CrokinoleGame) -> None:
        if game is not self._current or not game.over:
            raise RulesError("record_game: record the finished game returned by next_game")
        self.games.append(game)
        self._current = None
        for s in self.sides:
            self.points[s] += game.scores[s]
            self.twenties[s] += game.twenties[s]
        if game.winner is not None:
            self.wins[game.winner] += 1
        a, b = (self.points[s] for s in self.sides)
        if self.options.championship:
            leader = max(self.sides, key=lambda s: self.wins[s])
            if self.wins[leader] >= 2:
                self.over, self.winner = True, leader
        elif len(self.games) >= self.games_planned:
            self.over = True
            self.winner = None if a == b else (self.sides[0] if a > b else self.sides[1])
