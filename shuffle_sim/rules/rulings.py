"""One shot's rulings: what a game's rules make of one shot, from the board before it and its result.

``shot_rulings(before, result, shooter)`` takes the resting discs before a shot (a ``Board`` at the
frame's scoring end) and the shot run to rest (a ``physics.SimResult`` whose scene is those discs
plus the shot disc, last; or the ``ShotOutcome`` drawn from one) and applies the court's game rules
to it, as the game drivers of ``shuffle-sim play``, the game environments and the shot lab do:

* crokinole: the hit rule (a shot that reaches no opponent disc, directly or through others, loses
  itself and the shooter's discs it moved) or, with no opponent disc on the board, the open-shot rule
  (the shot must end in or touching the 15 line); 20s set aside at once and counted for their side;
  discs in the ditch or on the 5 line removed (``crokinole.judge_shot``);
* deck: dead discs removed at once (short of the far dead line, C-4b; past the far baseline, C-21,
  C-22; in the alley, C-21, C-23; touched the backstop, C-20) and C-20a (a dead disc touched a live
  one: 10-off to the shooter, the half-round played over unless it was the eighth disc;
  ``deck.shot_effect``);
* horse collar: pucks in the gutter leave the table; pucks short of the foul line stay (they void
  the frame when it is scored);
* ricochet: weights short of the scoring area, fallen, or resting off the scoring half (the half
  opposite the one the weight was slid from) are removed (``ricochet.shot_removals``);
* a court of no game (``custom``): fallen and dead discs leave, holed ones are set aside.

A board's frame score (``rules.score_board``) cannot see what a shot did, only where discs rest: a
20 dropped by a shot that hit no opponent disc is a foul, and only the shot's rulings know it. So
the way to apply a game's rules to a simulated shot is this call, then the frame score of the
discs it keeps (``ShotRulings.board_after``, with the 20s set aside).

``ShotOutcome`` is what the rules read of a result: rest centres with fallen discs moved into the
gutter, alley or ditch beyond the edge they crossed (``into_gutter``, so that judging sees them off
the surface), the disc-disc contacts in time order with each disc's dead standing then, and the
kernel's dead standing at rest.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.physics.events import DISC_DISC, STATUS_FALLEN, STATUS_HOLED
from shuffle_sim.rules.common import Board, Contact, RulesError, check_int

if TYPE_CHECKING:
    from shuffle_sim.physics import SimResult

#: A fallen disc is drawn and judged this many disc radii beyond the edge it crossed.
GUTTER_OFFSET = 1.0


class RestStatus(Protocol):
    """What the rules read of a shot's result: each disc's status at rest (a ``SimResult`` has it)."""

    @property
    def status(self) -> np.ndarray: ...


@dataclass(frozen=True)
class RestState:
    """The part of a ``physics.SimResult`` the rules read, for a shot run without one: each disc's
    status at rest (``physics.events.STATUS_*``)."""

    status: np.ndarray


@dataclass
class ShotOutcome:
    """One shot run to rest as the rules read it (see the module docstring): positions (fallen discs
    moved into the gutter), which fell, the kernel's dead standing, the contacts, and where the shot
    disc started (``start_x``: the half a ricochet weight was slid from)."""

    result: RestStatus
    x: np.ndarray
    y: np.ndarray
    fallen: np.ndarray
    dead: np.ndarray  # the kernel's dead standing (kill line, killing cushion)
    contacts: list[Contact]
    start_x: float | None = None


def into_gutter(court: Court, x: float, y: float) -> tuple[float, float]:
    """Where a disc that fell at (x, y), on an edge, lies: ``GUTTER_OFFSET`` radii out past that edge."""
    best = (math.inf, 0.0, 0.0)
    for edge in court.edges:
        if edge.kind == "segment":
            x0, y0, x1, y1 = edge.geom
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy)
            u = min(max(((x - x0) * dx + (y - y0) * dy) / (length * length), 0.0), 1.0)
            d = math.hypot(x - (x0 + u * dx), y - (y0 + u * dy))
        else:
            cx, cy, radius, _ = edge.geom
            d = abs(math.hypot(x - cx, y - cy) - radius)
        nx, ny = edge.inward_normal(x, y)
        if d < best[0]:
            best = (d, -nx, -ny)
    _, ox, oy = best
    step = GUTTER_OFFSET * court.disc_radius
    gx, gy = x + step * ox, y + step * oy
    while court.on_surface(gx, gy):  # a corner: keep going until off the surface
        gx, gy = gx + step * ox, gy + step * oy
    return gx, gy


def outcome_of(court: Court, result: SimResult) -> ShotOutcome:
    """What the rules read of a shot run to rest (see the module docstring); the shot disc is the
    scene's last."""
    x, y = result.x.copy(), result.y.copy()
    fallen = result.status == STATUS_FALLEN
    for i in np.flatnonzero(fallen):
        x[i], y[i] = into_gutter(court, float(x[i]), float(y[i]))
    ev = result.events
    contacts = [
        Contact(int(ev.a[k]), int(ev.b[k]), bool(ev.a_dead[k]), bool(ev.b_dead[k]))
        for k in np.flatnonzero(ev.kind == DISC_DISC)
    ]
    return ShotOutcome(result, x, y, fallen, result.dead.copy(), contacts, float(result.scene.x[-1]))


@dataclass(frozen=True)
class ShotRulings:
    """What the rules made of one shot.

    ``board``: every disc after the shot (the board's, then the shot disc), where it rests (fallen
    discs in the gutter). ``remove``: the discs taken off at once, ``why`` each one's reason.
    ``twenties``: 20s set aside by side (crokinole). ``hit``: whether the shot reached an opponent
    disc, where the hit rule applied (crokinole with an opponent disc on the board), else None.
    ``foul``: a foul of the shot (crokinole). ``penalty``: the rule charged to the shooter (deck
    C-20a), ``penalty_points`` its points off; ``ends_frame``: the frame ends at this shot, and
    ``replay``: it is played over. ``half``: the half the frame scores on (ricochet). ``killed``:
    discs made dead during the shot that their rest position does not show (deck: the backstop).
    ``holed``: the discs that dropped into a hole; ``set_aside``: those the rules count as holed
    (crokinole's 20s, a custom court's holed discs), not a disc removed for another reason (a
    crokinole shot that dropped in but hit no opponent disc).
    """

    game: str
    shooter: str
    board: Board
    remove: tuple[int, ...]
    why: dict[int, str]
    twenties: dict[str, int] = field(default_factory=dict)
    hit: bool | None = None
    foul: str | None = None
    penalty: str | None = None
    penalty_points: int = 0
    ends_frame: bool = False
    replay: bool = False
    half: str | None = None
    contacts: tuple[Contact, ...] = ()
    killed: tuple[int, ...] = ()
    holed: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()

    @property
    def kept(self) -> tuple[int, ...]:
        """The discs left in play, in board order (the shot disc last if it stays)."""
        return tuple(i for i in range(len(self.board)) if i not in self.why)

    def board_after(self) -> Board:
        """The board for the next shot: every disc the rules left in play."""
        return self.board.without(self.remove)

    def sentences(self) -> list[str]:
        """What the rules did, one sentence each."""
        out = [f"{self.board.team[i]} disc removed: {self.why[i]}" for i in self.remove]
        out += [f"foul: {self.foul}"] if self.foul else []
        if self.penalty:
            then = "the frame is played over" if self.replay else "no replay"
            if self.game == "deck":
                then = "the half-round is played over" if self.replay else "the eighth disc: no replay"
            out.append(
                f"penalty: {self.penalty}: a dead disc touched a live disc: "
                f"{self.shooter} {self.penalty_points}-off; {then}"
            )
        return out

    def to_dict(self) -> dict:
        """The rulings as JSON data (``shuffle-sim serve`` sends them; the replay files keep them)."""
        return {
            "shooter": self.shooter,
            "removed": [
                {
                    "disc": i,
                    "team": self.board.team[i],
                    "x": float(self.board.x[i]),
                    "y": float(self.board.y[i]),
                    "why": self.why[i],
                }
                for i in self.remove
            ],
            "twenties": dict(self.twenties),
            "hit": self.hit,
            "foul": self.foul,
            "penalty": self.penalty,
            "penalty_points": self.penalty_points,
            "ends_frame": self.ends_frame,
            "replay": self.replay,
            "half": self.half,
        }


@dataclass(frozen=True)
class _Shot:
    """One shot as the game rulers take it: the board after it, the outcome, and the shot's facts."""

    after: Board
    outcome: ShotOutcome
    shooter: str
    shot_number: int
    short_discs: str

    @property
    def n_before(self) -> int:
        return len(self.after) - 1


def _crokinole(shot: _Shot) -> dict:
    from shuffle_sim.rules.crokinole import judge_shot

    n = shot.n_before
    ruled = judge_shot(shot.after, shot.shooter, n, [True] * n + [False], shot.outcome.contacts)
    return dict(
        why=dict(ruled.why), twenties=dict(ruled.twenties), foul=ruled.foul, hit=ruled.hit, set_aside=ruled.set_aside
    )


def _deck(shot: _Shot) -> dict:
    from shuffle_sim.rules.deck import DISCS_PER_HALF_ROUND, shot_effect
    from shuffle_sim.rules.deck_penalties import assess

    judged_dead = shot.after.judge().dead
    killed = tuple(i for i in range(len(shot.after)) if shot.outcome.dead[i] and not judged_dead[i])
    number = min(shot.shot_number, DISCS_PER_HALF_ROUND)
    effect = shot_effect(shot.after, number, shot.outcome.contacts, killed, shot.short_discs)
    points = assess(effect.penalty, shot.shooter).points_off if effect.penalty is not None else 0
    return dict(
        why=dict(effect.why),
        penalty=effect.penalty,
        penalty_points=points,
        ends_frame=effect.ends_half_round,
        replay=effect.replay,
        killed=killed,
    )


def _horse_collar(shot: _Shot) -> dict:
    from shuffle_sim.rules.horse_collar import puck_reason

    fallen = np.flatnonzero(shot.outcome.fallen)
    if fallen.size == 0:
        return dict(why={})
    judgement = shot.after.judge()
    return dict(why={int(i): puck_reason(judgement, int(i))[1] for i in fallen})


def _ricochet(shot: _Shot) -> dict:
    from shuffle_sim.rules.ricochet import half_of, scoring_half, shot_removals

    start_x = shot.outcome.start_x
    if start_x is None:
        raise RulesError("result: a ricochet shot's rulings need where the weight started (start_x)")
    slid_from = half_of(start_x)
    half = scoring_half(slid_from) if slid_from is not None else None
    return dict(why=shot_removals(shot.after, half), half=half)


def _custom(shot: _Shot) -> dict:
    """A court of no game: fallen and dead discs leave; holed ones are set aside, counted by side."""
    judgement = shot.after.judge()
    why: dict[int, str] = {}
    kept: dict[str, int] = {}
    set_aside = []
    status = shot.outcome.result.status
    for i in range(len(shot.after)):
        team = shot.after.team[i]
        if status[i] == STATUS_HOLED:
            why[i] = f"in the hole: {int(judgement.value[i])}, set aside"
            kept[team] = kept.get(team, 0) + 1
            set_aside.append(i)
        elif shot.outcome.fallen[i]:
            why[i] = "fell off the surface"
        elif shot.outcome.dead[i] or judgement.dead[i]:
            why[i] = "dead"
    return dict(why=why, twenties=kept, set_aside=tuple(set_aside))


#: Each game's ruler: the shot -> the fields of its ``ShotRulings``; other courts are ruled as custom.
RULERS: dict[str, Callable[[_Shot], dict]] = {
    "crokinole": _crokinole,
    "deck": _deck,
    "horse-collar": _horse_collar,
    "ricochet": _ricochet,
}


def shot_rulings(
    before: Board,
    result: SimResult | ShotOutcome,
    shooter: str,
    shot_number: int = 1,
    short_discs: str = "removed",
) -> ShotRulings:
    """Apply the game rules of ``before.court`` to one shot (see the module docstring).

    Parameters
    ----------
    before
        The discs at rest before the shot, on the court at the frame's scoring end (deck:
        ``court.for_end(end)``), labelled by team as the rules use them (deck: by colour).
    result
        The shot run to rest: a ``SimResult`` of ``before``'s discs (in that order) plus the shot
        disc, last, or the ``ShotOutcome`` drawn from one (``outcome_of``).
    shooter
        The shot disc's team.
    shot_number
        The shot's number within the frame, from 1 (deck: a C-20a contact on the eighth disc is not
        played over; a number above eight is ruled as the eighth).
    short_discs
        Deck: what happens to a disc short of the far dead line (``deck.SHORT_DISC_OPTIONS``).
    """
    court = before.court
    outcome = result if isinstance(result, ShotOutcome) else outcome_of(court, result)
    n = len(before) + 1
    if len(outcome.x) != n:
        raise RulesError(
            f"result: expected the board's {len(before)} discs plus the shot disc ({n}), got {len(outcome.x)}"
        )
    check_int(shot_number, "shot_number", minimum=1)
    after = Board(court, outcome.x, outcome.y, (*before.team, str(shooter)))
    shot = _Shot(after, outcome, str(shooter), int(shot_number), short_discs)
    fields = RULERS.get(court.game, _custom)(shot)
    why = fields.pop("why")
    holed = tuple(int(i) for i in np.flatnonzero(np.asarray(outcome.result.status) == STATUS_HOLED))
    return ShotRulings(
        game=court.game,
        shooter=str(shooter),
        board=after,
        remove=tuple(sorted(why)),
        why=why,
        contacts=tuple(outcome.contacts),
        holed=holed,
        **fields,
    )
