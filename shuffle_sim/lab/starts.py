"""Legal starts of a shot in the lab: where the game's shooter may put the disc down.

The lines and arcs are the simulated players' stances, so the lab and ``shuffle-sim play`` agree:

* deck: either half of the 10-off area at the other end, seen by the shooter (MSA C-3);
* horse collar: across the near end of the table;
* ricochet: the left or right half of the front of the table;
* crokinole: the shooting arc (the 5 line) in front of each of the four seats.

A court of another game (``custom``) has one start: across the surface, one disc diameter inside
its lowest edge. A start is a segment or an arc; a shot starts at a point of it picked by a number
in [0, 1].
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shuffle_sim.court import Court
from shuffle_sim.games import games


@dataclass(frozen=True)
class Start:
    """A named line or arc a shot may start from: segment (x0, y0, x1, y1) or arc (cx, cy, R, a0, a1)."""

    name: str
    kind: str
    geom: tuple[float, ...]
    position: str | None = None  # the shooter's position in the game (seat, half), as the advisor names it

    def point(self, t: float) -> tuple[float, float]:
        """The point at parameter ``t`` in [0, 1] (clamped)."""
        t = min(1.0, max(0.0, float(t)))
        if self.kind == "segment":
            x0, y0, x1, y1 = self.geom
            return x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        cx, cy, r, a0, a1 = self.geom
        a = a0 + t * (a1 - a0)
        return cx + r * math.cos(a), cy + r * math.sin(a)

    def nearest(self, x: float, y: float) -> float:
        """The parameter in [0, 1] of the start's point nearest to (x, y)."""
        if self.kind == "segment":
            x0, y0, x1, y1 = self.geom
            dx, dy = x1 - x0, y1 - y0
            length2 = dx * dx + dy * dy
            t = ((x - x0) * dx + (y - y0) * dy) / length2 if length2 > 0 else 0.0
        else:
            cx, cy, _, a0, a1 = self.geom
            middle = 0.5 * (a0 + a1)
            a = math.atan2(y - cy, x - cx)
            a += 2 * math.pi * round((middle - a) / (2 * math.pi))  # the turn nearest the arc's middle
            t = (a - a0) / (a1 - a0)
        return min(1.0, max(0.0, t))

    def polyline(self, n: int = 48) -> tuple[list[float], list[float]]:
        """Points along the start, for drawing."""
        pts = [self.point(k / (n - 1)) for k in range(n)] if self.kind == "arc" else [self.point(0), self.point(1)]
        return [p[0] for p in pts], [p[1] for p in pts]

    def toward(self, x: float, y: float) -> float:
        """A natural aim from this start: the direction (degrees, counter-clockwise from +x) to (x, y)."""
        sx, sy = self.point(0.5)
        return math.degrees(math.atan2(y - sy, x - sx))


def _from_stance(name: str, stance, position: str | None = None) -> Start:
    return Start(name, stance.kind, tuple(float(v) for v in stance.geom), position)


def _custom(court: Court) -> list[Start]:
    x0, y0, x1, _y1 = court.bounds
    y = y0 + 2 * court.disc_radius
    return [Start("across the surface", "segment", (x0 + 2 * court.disc_radius, y, x1 - 2 * court.disc_radius, y))]


def legal_starts(court: Court) -> list[Start]:
    """The starts of the court's game, for the court at its current scoring end: the ``named_stances``
    of the game's play module (the registry's ``play``), or ``_custom`` for a game without them."""
    entry = games().get(court.game)
    stances = getattr(entry.play_module(), "named_stances", None) if entry is not None else None
    if stances is None:
        return _custom(court)
    return [_from_stance(name, stance, position) for position, name, stance in stances(court)]
