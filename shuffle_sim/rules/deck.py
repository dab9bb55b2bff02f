"""Deck shuffleboard (the MSA rules and a general court description): a half-round's score, what a shot does, the lag.

- ``score_half_round``: both sides score all their own discs at the target end (no cancellation):
  10, 8 or 7 for a disc entirely inside its zone touching no line, -10 for the 10-off area, 0 on a
  line (D-2) or outside the diagram; dead discs are worth nothing (C-4b, C-20 to C-23).
- ``shot_effect``: what one shot's outcome does before the next shot: dead discs removed at once
  (over the backstop or touching it, C-20; past the far baseline, C-21, C-22; into the alley, C-21,
  C-23; short of the far dead line, C-4b, unless the "left in play" option of the MSA note is on),
  and the dead-disc replay rule C-20a read from the shot's contact log.
- ``lag_winner``: the lag for colour choice (C-2).
- ``start_fault``: whether a disc may be placed and played from a spot (C-4, C-4a, C-4b): within the
  shooter's half of the 10-off area at the shooting end, touching none of its lines, the separation
  triangle included; ``legal_start_span``: the legal spots along a line across that half.

Game and match flow live in ``deck_game``; penalty table I in ``deck_penalties``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.judging import Judgement, judge_batch, lag_distance, line_distance
from shuffle_sim.messages import shown
from shuffle_sim.rules.common import (
    Board,
    DiscScore,
    FrameScore,
    RulesError,
    check_choice,
    check_contacts,
    line_reason,
    touching_phrase,
)

GAME = "deck"
DEFAULT_COURT = "deck"
YELLOW = "yellow"
BLACK = "black"
COLOURS = (YELLOW, BLACK)
DISCS_PER_HALF_ROUND = 8
#: What happens to a disc that stops short of the far dead line (C-4b and its note).
SHORT_DISC_OPTIONS = ("removed", "left in play")
#: The court file's dead zones, by name, and what to say about a disc resting in one.
SHORT_ZONE = "short of the dead line"
PAST_BASELINE_ZONE = "past the baseline"
#: Rule that penalises a dead disc touching a live one (C-20a), applied to the shooter.
DEAD_DISC_RULE = "C-20a"


def other_colour(colour: str) -> str:
    check_choice(colour, "colour", COLOURS)
    return BLACK if colour == YELLOW else YELLOW


@dataclass(frozen=True)
class ShotEffect:
    """What one shot's outcome does to the half-round before the next shot.

    ``remove``: disc indices taken off the court at once, with ``why`` giving each one's reason.
    ``penalty``: a rule id charged to the shooter (C-20a), or None. ``ends_half_round``: the
    half-round stops here; ``replay``: and is played over (C-20a before the eighth disc).
    """

    remove: tuple[int, ...] = ()
    why: dict[int, str] = field(default_factory=dict)
    penalty: str | None = None
    ends_half_round: bool = False
    replay: bool = False


def _fallen_reason(court: Court, x: float, y: float) -> str:
    xmin, _ymin, xmax, _ymax = court.bounds
    if xmin <= x <= xmax:
        return "off the end of the court: dead (C-20, C-21)"
    return "off the side of the court into the alley: dead (C-21, C-23)"


def disc_reason(judgement: Judgement, i: int, short_discs: str = "removed") -> tuple[int, str]:
    """A disc's worth at the target end and the sentence that explains it (value, reason)."""
    court = judgement.court
    x, y = float(judgement.x[i]), float(judgement.y[i])
    if judgement.fallen[i]:
        return 0, _fallen_reason(court, x, y)
    zone = judgement.zone_name(i)
    touching = judgement.touching_names(i)
    if judgement.dead[i]:
        if zone == SHORT_ZONE:
            if short_discs == "left in play":
                return 0, "short of the far dead line: left in play, scores nothing (C-4b note)"
            return 0, "short of the far dead line: dead (C-4b)"
        if zone == PAST_BASELINE_ZONE:
            return 0, "past the far baseline: dead (C-21, C-22)"
        return 0, f"in the {zone} area: dead"
    value = int(judgement.value[i])
    lines = {ln.name: ln for ln in court.judged_lines}
    scoring_lines = [n for n in touching if lines[n].touch_value is not None]
    if scoring_lines:
        return value, f"touching {touching_phrase(scoring_lines)}: scores nothing (D-2)"
    if value < 0:
        return value, "10-off"
    if value > 0:
        return value, f"in the {value} zone, touching no line"
    return 0, line_reason(
        touching, "in play (C-4b note), scores nothing", "outside the scoring diagram: scores nothing"
    )


def score_half_round(board: Board, short_discs: str = "removed", teams: Sequence[str] = ()) -> FrameScore:
    """Score a half-round's resting discs at the target end: each side scores all its own discs (D-2).

    ``board.court`` must be the court at the target end (``court.for_end("foot")`` when shooting from
    the head). ``teams`` lists sides to report even with no disc on the board.
    """
    check_choice(short_discs, "short_discs", SHORT_DISC_OPTIONS)
    judgement = board.judge()
    scores = {t: 0 for t in [*teams, *board.teams()]}
    discs = []
    for i in range(len(board)):
        value, reason = disc_reason(judgement, i, short_discs)
        scores[board.team[i]] += value
        discs.append(DiscScore(float(board.x[i]), float(board.y[i]), board.team[i], value, reason))
    return FrameScore(scores=scores, discs=tuple(discs), void=None)


def dead_disc_touched_live(contacts: Iterable[Sequence]) -> bool:
    """C-20a: whether a disc that was already dead touched a live one during the shot.

    "If a dead disc rebounds or ricochets and touches a live disc, or causes another dead disc to
    touch a live disc": a contact counts when, at the moment it happened, one disc was dead (it had
    touched the backstop, C-20, or was entirely past the far baseline, C-21) and the other live. The
    standing is the contact log's (``Contact.a_dead``, ``b_dead``: as the kernel logs it just before
    the contact), never the standing at the end of the shot: a live disc knocked past the baseline by
    the contact dies after it, which is no rebound. A chain of dead discs reaching a live one shows
    as its last contact, dead on live.
    """
    return any(bool(c[2]) != bool(c[3]) for c in contacts)


def shot_effect(
    board: Board,
    shot_number: int,
    contacts: Iterable[Sequence] = (),
    killed: Iterable[int] = (),
    short_discs: str = "removed",
) -> ShotEffect:
    """What a shot's outcome does before the next shot.

    ``board``: the discs at rest after the shot, at the target end. ``shot_number``: 1 to 8 within the
    half-round. ``contacts``: the shot's disc-disc contacts ``(a, b, a_dead, b_dead)`` in time order.
    ``killed``: discs made dead during the shot that position alone cannot show (touched the
    backstop and rebounded onto the court, C-20).
    """
    check_choice(short_discs, "short_discs", SHORT_DISC_OPTIONS)
    if isinstance(shot_number, bool) or not isinstance(shot_number, int) or not 1 <= shot_number <= 8:
        raise RulesError(f"shot_number must be 1 to {DISCS_PER_HALF_ROUND} (got {shown(shot_number)})")
    n = len(board)
    contacts = check_contacts(contacts, n)
    judgement = board.judge()
    why: dict[int, str] = {}
    for k in killed:
        k = int(k)
        if not 0 <= k < n:
            raise RulesError(f"killed must hold disc indices in 0..{n - 1} (got {k})")
        why[k] = "touched the backstop: dead, removed before further play (C-20)"
    for i in range(n):
        if i in why or not judgement.dead[i]:
            continue
        if judgement.zone_name(i) == SHORT_ZONE and short_discs == "left in play":
            continue
        why[i] = disc_reason(judgement, i, short_discs)[1]
    remove = tuple(sorted(why))
    if dead_disc_touched_live(contacts):
        last = shot_number == DISCS_PER_HALF_ROUND
        return ShotEffect(remove=remove, why=why, penalty=DEAD_DISC_RULE, ends_half_round=True, replay=not last)
    return ShotEffect(remove=remove, why=why)


def lag_winner(
    court: Court,
    first: tuple[float, float] | None,
    second: tuple[float, float] | None,
    second_touched_first: bool = False,
    line: str = "dead line",
    end: str | None = "foot",
) -> int | None:
    """The lag for colour choice (C-2): 0 if the first disc (yellow) wins, 1 if the second, None on a tie.

    Each side's last disc is shot to the far dead line; "the disc nearest the line" wins. C-2 measures
    centre of disc to centre of line when the disc touches the line, otherwise edge of disc to edge of
    line (``judge.lag_distance``). Read literally, a disc clear of the line by half an inch would beat
    one touching it 3.4 in off centre; read with common sense (as the project does), a disc touching
    the line always beats one clear of it, two touching discs compare centre distances and two clear
    discs compare edge gaps (``lag_key``). A disc that went into the alley or off the court (None)
    loses to one left on the court; two such discs lag again (None).

    "If the last black disc shot touches or moves the last yellow disc, the color choice goes to the
    player of yellow" (C-2): when the second disc touched the first, the first wins wherever either
    ends, in the alley included.
    """
    if second_touched_first:
        return 0
    if first is None or second is None:
        return None if first is None and second is None else (1 if first is None else 0)
    k_first = lag_key(court, first, line, end)
    k_second = lag_key(court, second, line, end)
    if k_first < k_second:
        return 0
    if k_second < k_first:
        return 1
    return None


def lag_key(
    court: Court, disc: tuple[float, float], line: str = "dead line", end: str | None = "foot"
) -> tuple[int, float]:
    """A lag disc's standing, smaller is nearer (C-2): (0, centre distance) when it touches the line,
    (1, edge gap) when it is clear of it."""
    x, y = float(disc[0]), float(disc[1])
    if not (np.isfinite(x) and np.isfinite(y)):
        raise RulesError(f"lag discs must be finite positions (got {shown(disc)})")
    target = court.for_end(end)
    touching = line_distance(target, x, y, line) == 0.0
    return (0 if touching else 1, lag_distance(court, x, y, line=line, end=end))


# --------------------------------------------------------------------------------------------------
# Legal starts (C-3, C-4, C-4a, C-4b)

SIDES = ("right", "left")


def half_sign(end: str, side: str) -> int:
    """The sign of x on the ``side`` half of the 10-off area, as seen by a shooter at ``end`` facing the
    other end (C-3): the right half is +x at the head and -x at the foot."""
    check_choice(side, "side", SIDES)
    return 1 if (side == "right") == (end == "head") else -1


def _ten_off_zone(court: Court) -> int:
    for k, zone in enumerate(court.zones):
        if zone.value < 0:
            return k
    raise RulesError(f"court {court.name!r} has no 10-off zone (a zone of negative value)")


def start_fault(court: Court, x: float, y: float, end: str = "head", side: str = "right") -> str | None:
    """Why a disc at (x, y) may not be placed and played from there, or None when it may.

    C-4: "Players shall place their four (4) discs within and not touching lines of their respective
    half of 10-Off area"; C-4a, C-4b: a disc played touching the front or back line, a side line or the
    triangle is penalised. The spot must lie in the 10-off area of the shooting end ``end``, on the
    shooter's half (``side``, seen by the shooter, C-3), touching no line -- the separation triangle,
    which judging ignores (D-2), included. Judged by the judging layer on the court at ``end``.
    """
    target = court.for_end(end)
    sign = half_sign(end, side)
    judgement = judge_batch(target, [x], [y])
    if int(judgement.zone[0]) != _ten_off_zone(target):
        return "outside the 10-off area (C-4)"
    if sign * x <= 0.0:
        return f"not on the {side} half of the 10-off area (C-4)"
    touching = judgement.touching_names(0)
    touching += [ln.name for ln in target.lines if not ln.judged and line_distance(target, x, y, ln.name) == 0.0]
    if touching:
        named = [as_seen_from_behind(name, _across_role(target, name, y, end)) for name in touching]
        return f"touching {touching_phrase(named)} (C-4, C-4a, C-4b)"
    return None


def _across_role(court: Court, name: str, y: float, end: str) -> str | None:
    """For a line straight across the court, "back" when it lies between the disc at ``y`` and the
    shooting ``end`` of the court, "front" when it lies beyond; None for any other line."""
    ln = court.line(name)
    if ln.kind != "segment" or ln.geom[1] != ln.geom[3]:
        return None
    _, ymin, _, ymax = court.bounds
    end_y = ymin if end == "head" else ymax
    return "back" if abs(ln.geom[1] - end_y) < abs(y - end_y) else "front"


def as_seen_from_behind(name: str, across: str | None = None) -> str:
    """A diagram line's name as the shooter standing behind that diagram sees it (``start_fault``).

    The court file names each diagram's lines as the player shooting *into* it sees them, from the
    far end (the foot diagram seen from the head: "right side of triangle" on +x, that shooter's
    right). A shooter starting from the 10-off area of a diagram faces the other way, so its left and
    right are swapped: the yellow shooter at the head starts on the right half (C-3), beside the line
    the file calls "left side of triangle", which is on his right. ``across``: "front" or "back" for
    a line straight across the court, named as C-4a names the 10-off area's lines ("front or back
    lines").
    """
    seen = re.sub(r"\b(left|right)\b", lambda m: "right" if m.group(1) == "left" else "left", name)
    return f"{seen} (the {across} line of the 10-off area)" if across else seen


def legal_start_span(
    court: Court, y: float, clearance: float, end: str = "head", side: str = "right"
) -> tuple[float, float]:
    """The |x| range of the legal starts (``start_fault``) on the line across the ``side`` half of the
    10-off area at ``y``, each at least ``clearance`` (m) clear of every line as well.

    The half of the 10-off area is bounded across by the straight lines that cross the horizontal at
    ``y``: the separation triangle (inside) and the side of the triangle (outside); the disc keeps
    ``r + w/2 + clearance`` from each, measured square to the line. Raises ``RulesError`` when no
    legal start is left, or when an end of the span is not legal by ``start_fault``.
    """
    if not clearance > 0.0:
        raise RulesError(
            f"clearance must be positive: a disc just touching a line is not clear of it (got {shown(clearance)})"
        )
    target = court.for_end(end)
    sign = half_sign(end, side)
    r = target.disc_radius
    crossings = []
    for ln in target.lines:
        if ln.kind != "segment":
            continue
        x0, y0, x1, y1 = ln.geom
        if not min(y0, y1) < y < max(y0, y1):
            continue
        xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        keep = (r + ln.width / 2 + clearance) * math.hypot(x1 - x0, y1 - y0) / abs(y1 - y0)
        if sign * xc > 0.0:
            crossings.append((sign * xc, keep))
    if not crossings:
        raise RulesError(f"court {target.name!r}: no line bounds the {side} half of the 10-off area at y = {y!r}")
    crossings.sort()
    inner = crossings[0][0] + crossings[0][1] if len(crossings) > 1 else r + clearance
    outer = crossings[-1][0] - crossings[-1][1]
    if not inner < outer:
        raise RulesError(f"court {target.name!r}: no legal start on the {side} half of the 10-off area at y = {y!r}")
    for ax in (inner, outer):
        fault = start_fault(target, sign * ax, y, end, side)
        if fault is not None:
            raise RulesError(f"court {target.name!r}: the start ({sign * ax!r}, {y!r}) is {fault}")
    return inner, outer
