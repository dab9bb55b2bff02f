"""Where deck players stand and aim on a court, from the court file (``DeckSetup``).

Shots are planned in the *canonical frame*: the court as written, shooting from the head toward the
foot diagram (a board at the head end is turned half a turn about the court's centre first, as
``Court.for_end`` turns the diagram). The stance is the middle of the head 10-off area across the
shooter's half (MSA C-3: yellow from the right half at the head, the left half at the foot), legal
from end to end (C-4, C-4a, C-4b: within the half, touching none of its lines, the separation
triangle included; ``rules.deck.legal_start_span``); the draw targets are the best spots of the 10, 8
and 7 zones (``players.zone_spot``). On a court that is not flat, or under a friction that changes
with speed, the compiled plan reads its launches from the court's read table (``deck_reads``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from shuffle_sim.court import Court, load_court
from shuffle_sim.court.friction_law import decelerations, launch_speed
from shuffle_sim.court.surface_shape import SurfaceShape
from shuffle_sim.playing.players import Stance, straight_launch, zone_spot
from shuffle_sim.playing.players.read_tables import no_reads, read_table, t_nodes
from shuffle_sim.playing.players.reading import needs_reading
from shuffle_sim.rules.deck import legal_start_span

#: Spot order of the fixed plan: the 10, own 8, other 8, own 7, other 7 ("own" = the shooter's half).
SPOT_ZONES = {1: ("10", "8 right", "8 left", "7 right", "7 left"), -1: ("10", "8 left", "8 right", "7 left", "7 right")}
#: Slide to spare past a disc the fixed plan's take-out aims at (m).
TAKEOUT_EXTRA = 2.0
#: Take-out targets the read table reads at: a grid over the scoring zones (across, along the court).
TAKEOUT_GRID = (5, 6)


@dataclass(frozen=True)
class DeckSetup:
    """Where deck players stand and aim on a court (canonical frame; see the module docstring)."""

    court: Court  # the court at the foot end: the canonical frame's physics and judging
    stance_y: float
    stance_lo: float  # |x| of the stance's inner end
    stance_hi: float  # |x| of its outer end
    preferred: float
    samples: int
    spots: np.ndarray  # (2, 5, 2): [0] for a shooter on the +x half, [1] on the -x half
    pivot: tuple[float, float]  # the half turn between the ends
    takeout_extra: float = TAKEOUT_EXTRA

    def stance(self, sign: int) -> Stance:
        """The stance of a shooter on the +x (``sign`` 1) or -x (-1) half of the head 10-off area."""
        s = float(sign)
        return Stance(
            "segment",
            (s * self.stance_lo, self.stance_y, s * self.stance_hi, self.stance_y),
            self.preferred,
            self.samples,
        )

    def court_toward(self, head_target: bool) -> Court:
        """The court a player plans on (the canonical frame, toward the foot): for a shot at the head
        end the board is turned half a turn about ``pivot``, and so is the court's surface
        (``half_turned_surface``); a flat court is the same either way."""
        if not head_target or self.court.surface_shape.flat:
            return self.court
        pivot = self.pivot
        return self.court.memo(
            "head_target_court",
            lambda c: replace(c, surface_shape=half_turned_surface(c.surface_shape, pivot)),
        )

    def court_at(self, end: str) -> Court:
        """The court judged at ``end`` (``Court.for_end``), made once and kept on the setup's court,
        so that every half-round at that end shares its packings."""
        return self.court.memo(f"for_end {end}", lambda c: c.for_end(end))

    def spots_for(self, sign: int) -> np.ndarray:
        return self.spots[0 if sign > 0 else 1]


_shapes: dict[str, SurfaceShape] = {}


def half_turned_surface(shape: SurfaceShape, pivot: tuple[float, float]) -> SurfaceShape:
    """``shape`` turned half a turn about ``pivot``: the grade reversed, the crown's middle and the
    maps' grids turned (a map's rows and columns reversed over the turned extent)."""
    px, py = pivot

    def turned(grid):
        if grid is None:
            return None
        xmin, ymin, xmax, ymax = grid.extent
        extent = (2.0 * px - xmax, 2.0 * py - ymax, 2.0 * px - xmin, 2.0 * py - ymin)
        return replace(grid, values=np.ascontiguousarray(grid.values[::-1, ::-1]), extent=extent)

    cx, cy = shape.crown_centre
    return replace(
        shape,
        slope=(-shape.slope[0], -shape.slope[1]),
        crown_centre=(2.0 * px - cx, 2.0 * py - cy),
        height_map=turned(shape.height_map),
        friction_map=turned(shape.friction_map),
    )


@lru_cache(maxsize=8)
def _setup(source_path: str, params: tuple, shape: str) -> DeckSetup:
    court = load_court(source_path).with_params(**dict(params)).for_end("foot")
    if shape:  # a court not flat: its surface as given (``with_params`` may have changed the file's)
        court = replace(court, surface_shape=_shapes[shape])
    pivot = court.ends["head"]
    ten_off = next(z for z in court.zones if z.value < 0 and z.kind == "polygon")
    assert pivot is not None and ten_off.polygon is not None, "a deck court has a head end and a polygon 10-off"
    y_far = 0.5 * (ten_off.polygon[:, 1].min() + ten_off.polygon[:, 1].max())
    stance_y = 2.0 * pivot[1] - y_far
    # Only legal starts (C-4, C-4a, C-4b): the stance keeps half the widest line's width clear of
    # every line of the shooter's half of the 10-off area, the separation triangle included.
    clearance = 0.5 * max(ln.width for ln in court.lines)
    spans = [legal_start_span(court, stance_y, clearance, "head", side) for side in ("right", "left")]
    spots = np.array([[zone_spot(court, name)[:2] for name in SPOT_ZONES[sign]] for sign in (1, -1)])
    return DeckSetup(
        court=court,
        stance_y=stance_y,
        stance_lo=max(lo for lo, _ in spans),
        stance_hi=min(hi for _, hi in spans),
        preferred=0.5,
        samples=9,
        spots=spots,
        pivot=(float(pivot[0]), float(pivot[1])),
    )


def deck_setup(court: Court) -> DeckSetup:
    """The ``DeckSetup`` of a deck court (cached per court file, materials and surface shape)."""
    shape = ""
    if not court.surface_shape.flat:
        shape = court.surface_shape.digest()
        _shapes[shape] = court.surface_shape
    return _setup(court.source_path, tuple(sorted(court.params.items())), shape)


def setup_numbers(setup: DeckSetup) -> np.ndarray:
    court = setup.court
    decel = court.params["mu"] * court.params["gravity"]
    return np.array(
        [
            setup.stance_y,
            setup.stance_lo,
            setup.stance_hi,
            setup.preferred,
            setup.samples,
            setup.takeout_extra,
            court.disc_radius,
            decel,
            setup.pivot[0],
            setup.pivot[1],
        ]
    )


def deck_reads(setup: DeckSetup, court: Court, takeout_extra: float, density: int = 1) -> tuple:
    """The compiled plan's read table on ``court`` (the canonical frame: ``setup.court``, or the court
    turned toward the head, ``setup.court_toward``) for take-outs with ``takeout_extra`` to spare
    (``players.read_tables``): per stance half (+x first), the draws to the five spots and a grid of
    take-out targets over the scoring zones (``TAKEOUT_GRID``), its nodes ``density`` times as
    finely spaced as the plans' own (a finer table measures their interpolation). A court the
    closed form aims on (flat, Coulomb) has none; a table is made once per court."""
    if not needs_reading(court):
        return no_reads()
    key = f"deck_reads {float(takeout_extra)!r} {int(density)}"
    return court.memo(key, lambda c: _deck_reads(setup, c, float(takeout_extra), int(density)))


def _deck_reads(setup: DeckSetup, court: Court, takeout_extra: float, density: int) -> tuple:
    c, k = decelerations(court.params)
    scoring = np.concatenate([z.polygon for z in court.zones if z.value > 0 and z.polygon is not None])
    (x0, y0), (x1, y1) = scoring.min(axis=0), scoring.max(axis=0)
    nx, ny = ((n - 1) * density + 1 for n in TAKEOUT_GRID)
    xs, ys = np.linspace(x0, x1, nx), np.linspace(y0, y1, ny)
    ts = t_nodes(density)
    through = launch_speed(takeout_extra, c, k)
    fixed = np.empty((2, ts.size, setup.spots.shape[1], 8))
    grid = np.empty((2, ts.size, nx, ny, 8))
    for s, sign in enumerate((1, -1)):
        stance = setup.stance(sign).array
        for j, t in enumerate(ts):
            for q, (px, py) in enumerate(setup.spots_for(sign)):
                sx, sy, vx, vy = straight_launch(stance, t, px, py, 0.0, c)
                fixed[s, j, q] = (sx, sy, vx, vy, 0.0, px, py, 0.0)
            for a, px in enumerate(xs):
                for b, py in enumerate(ys):
                    sx, sy, vx, vy = straight_launch(stance, t, px, py, takeout_extra, c)
                    grid[s, j, a, b] = (sx, sy, vx, vy, 0.0, px, py, through)
    return read_table(court, fixed, grid, (x0, xs[1] - xs[0], y0, ys[1] - ys[0]))
