"""MSA penalty table I (MSA rules) as data, and what assessing one of its penalties does.

The table lives in ``data/msa_penalties.toml``: one record per rule with its points (5-off or
10-off) and flags for the penalties that do more than take points:

- compound (C-3b, both paragraphs, when a live disc was touched; C-10, C-13, C-15, C-18): the
  offender loses the penalty plus 10 for every 10-off disc he has on the court; his good discs do
  not count; the opponent is credited with his good discs (10-offs excepted); the half-round is
  played over. The rules that say "unless game point has been reached by offender's opponent"
  (C-10, C-13, C-15, C-18 and the second paragraph of C-3b, table id C-3b.2) carry the
  ``game_point_exception`` flag: their half-round is not played over once the offender's opponent has
  reached game point (decided by the game, ``deck_game``). The first paragraph of C-3b (shooting the
  opponent's disc) has no such words: its half-round is always played over.
- returned (C-3b, no live disc touched): "opponent's disc shall be returned to the starting position
  and play continued as before the infraction": 10-off, and the shot is as if not played.
- displacement (rules 4b and 17, table ids C-4c and C-17): the shot disc is removed, the opponent is
  credited with the score of his discs it displaced, all displaced discs are removed, and the
  offender's displaced 10-offs are deducted from his score (rule 16, C-16, deducts those alone).
- suspended (C-20c) cannot be assessed unless reinstated; C-25 disqualifies and takes no points.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from shuffle_sim.rules.common import Board, RulesError

TABLE_PATH = Path(__file__).resolve().parent / "data" / "msa_penalties.toml"
TEN_OFF = -10
COMPOUND_CONDITIONS = ("always", "live disc touched")
_FLAGS = (
    "compound",
    "game_point_exception",
    "removes_shot_disc",
    "returns_shot_disc",
    "credits_displaced",
    "deducts_displaced_10_offs",
    "suspended",
    "disqualifies",
)
_KEYS = {"rule", "description", "points", "compound_if", *_FLAGS}


@dataclass(frozen=True)
class Penalty:
    """One record of table I."""

    rule: str
    description: str
    points: int
    compound: bool = False
    compound_if: str = "always"
    game_point_exception: bool = False
    removes_shot_disc: bool = False
    returns_shot_disc: bool = False
    credits_displaced: bool = False
    deducts_displaced_10_offs: bool = False
    suspended: bool = False
    disqualifies: bool = False


@dataclass(frozen=True)
class PenaltyAssessment:
    """A penalty applied to an offender (a team label, deck: a colour).

    ``points_off``: taken from the offender's score (the table's 5 or 10, plus 10 per 10-off disc
    taken with it). ``credit``: added to the offender's opponent's score. ``compound``: the half-round
    is voided (no other disc counts) and played over -- unless ``game_point_exception`` and the
    offender's opponent has reached game point.
    ``remove``: indices (in the board given to ``assess``) of discs taken off the court now;
    ``remove_shot_disc``: the offending shot disc comes off too; ``return_shot_disc``: it goes back
    to its starting position and the shot is as if not played (C-3b, no live disc touched).
    """

    rule: str
    offender: str
    points_off: int
    credit: int = 0
    compound: bool = False
    game_point_exception: bool = False
    remove: tuple[int, ...] = ()
    remove_shot_disc: bool = False
    return_shot_disc: bool = False
    disqualifies: bool = False


def load_penalty_table(path: str | Path = TABLE_PATH) -> dict[str, Penalty]:
    """Read and check a penalty table file; errors name the file, the record and the key."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesError(f"{path}: cannot read penalty table ({exc})") from None
    records = data.get("penalty")
    if not isinstance(records, list) or not records:
        raise RulesError(f"{path}: penalty: must be a non-empty array of tables")
    table: dict[str, Penalty] = {}
    for i, rec in enumerate(records):
        key = f"{path}: penalty[{i}]"
        if not isinstance(rec, dict):
            raise RulesError(f"{key}: must be a table (got {rec!r})")
        unknown = set(rec) - _KEYS
        if unknown:
            raise RulesError(f"{key}.{sorted(unknown)[0]}: unknown key (allowed: {', '.join(sorted(_KEYS))})")
        for required in ("rule", "description", "points"):
            if required not in rec:
                raise RulesError(f"{key}.{required}: missing required key")
        rule = rec["rule"]
        if not isinstance(rule, str) or not rule:
            raise RulesError(f"{key}.rule: must be a rule id such as 'C-10' (got {rule!r})")
        if rule in table:
            raise RulesError(f"{key}.rule: duplicate rule {rule!r}")
        points = rec["points"]
        if isinstance(points, bool) or points not in (0, 5, 10):
            raise RulesError(f"{key}.points: must be 5 or 10 (0 for none) (got {points!r})")
        flags = {}
        for flag in _FLAGS:
            value = rec.get(flag, False)
            if not isinstance(value, bool):
                raise RulesError(f"{key}.{flag}: must be true or false (got {value!r})")
            flags[flag] = value
        compound_if = rec.get("compound_if", "always")
        if compound_if not in COMPOUND_CONDITIONS:
            raise RulesError(
                f"{key}.compound_if: must be one of {', '.join(COMPOUND_CONDITIONS)} (got {compound_if!r})"
            )
        if flags["removes_shot_disc"] and flags["returns_shot_disc"]:
            raise RulesError(f"{key}.returns_shot_disc: a shot disc is either removed or returned (not both)")
        if flags["game_point_exception"] and not flags["compound"]:
            raise RulesError(
                f"{key}.game_point_exception: only a compound penalty is played over (set compound = true)"
            )
        if points == 0 and not flags["disqualifies"]:
            raise RulesError(f"{key}.points: only a disqualification may take no points (got 0)")
        table[rule] = Penalty(
            rule=rule, description=str(rec["description"]), points=points, compound_if=compound_if, **flags
        )
    return table


@lru_cache(maxsize=1)
def penalty_table() -> dict[str, Penalty]:
    """MSA table I, keyed by rule id."""
    return load_penalty_table(TABLE_PATH)


def penalty(rule: str) -> Penalty:
    table = penalty_table()
    if rule not in table:
        raise RulesError(f"rule must be a rule of MSA table I ({', '.join(table)}) (got {rule!r})")
    return table[rule]


def _values(board: Board) -> list[int]:
    return [int(v) for v in board.judge().value]


def assess(
    rule: str,
    offender: str,
    board: Board | None = None,
    *,
    live_disc_touched: bool = True,
    displaced: Iterable[int] = (),
    allow_suspended: bool = False,
) -> PenaltyAssessment:
    """Assess a penalty of table I on ``offender`` (a team label of ``board``).

    ``board``: the discs on the court at the target end, labelled by team -- at the moment of the
    offence for a compound penalty ("prior to the offense", C-13, C-15; "before second disc was
    played", C-18), before the offending shot for a displacement penalty. ``displaced``: indices in
    ``board`` of the discs the offending shot displaced. ``live_disc_touched``: for C-3b and C-3b.2,
    whether a live disc was touched (only then is it compound).
    """
    p = penalty(rule)
    if p.suspended and not allow_suspended:
        raise RulesError(f"rule {rule} is suspended (MSA C-20c) and cannot be assessed unless reinstated")
    if p.disqualifies:
        return PenaltyAssessment(rule=rule, offender=offender, points_off=0, disqualifies=True)
    compound = p.compound and (p.compound_if == "always" or live_disc_touched)
    displaced = tuple(sorted({int(i) for i in displaced}))
    needs_board = compound or (displaced and (p.credits_displaced or p.deducts_displaced_10_offs))
    if needs_board and board is None:
        raise RulesError(f"board: rule {rule} needs the discs on the court to be assessed")
    if board is not None:
        for i in displaced:
            if not 0 <= i < len(board):
                raise RulesError(f"displaced must hold disc indices in 0..{len(board) - 1} (got {i})")

    if compound:
        assert board is not None
        values = _values(board)
        own = [v for v, t in zip(values, board.team) if t == offender]
        theirs = [v for v, t in zip(values, board.team) if t != offender]
        ten_offs = sum(1 for v in own if v == TEN_OFF)
        return PenaltyAssessment(
            rule=rule,
            offender=offender,
            points_off=p.points + 10 * ten_offs,
            credit=sum(v for v in theirs if v > 0),
            compound=True,
            game_point_exception=p.game_point_exception,
        )

    points_off = p.points
    credit = 0
    remove: list[int] = []
    if displaced and (p.credits_displaced or p.deducts_displaced_10_offs):
        assert board is not None
        values = _values(board)
        for i in displaced:
            is_own = board.team[i] == offender
            if is_own and values[i] == TEN_OFF and p.deducts_displaced_10_offs:
                points_off += 10
                remove.append(i)
            elif not is_own and values[i] > 0 and p.credits_displaced:
                credit += values[i]
            if p.credits_displaced and i not in remove:
                remove.append(i)
    return PenaltyAssessment(
        rule=rule,
        offender=offender,
        points_off=points_off,
        credit=credit,
        remove=tuple(sorted(remove)),
        remove_shot_disc=p.removes_shot_disc,
        return_shot_disc=p.returns_shot_disc,
    )
