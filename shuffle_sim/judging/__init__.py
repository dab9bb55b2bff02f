"""Judge resting discs on a court: value, zone, lines touched, hanger, dead; one disc or millions.

The semantics are data in the court file (see ``courts/README.md``); one procedure serves all four
games. For a disc of radius r with centre c:

1. Fallen: c is off the playing surface (it crossed an edge into a gutter, alley or ditch): dead.
2. Holed: c lies within a hole's capture radius: the hole's value (crokinole 20, removed at once).
3. Zone: the first zone (in file order) whose interior contains c; failing that, the first whose
   closed outline holds c within ``TOUCH_TOLERANCE`` (a centre on the surface's edge, along which
   dead zones run, exactly or by exact contact).
4. Touching: every judged line whose band the disc's circle meets (a line has width; tangency counts).
5. Hanger: the disc overhangs an edge (c is on the surface, the circle crosses the edge; a disc
   flush with the edge does not). Overhanging
   an ``end`` edge is an end hanger; an end and a ``side`` edge at once, a corner hanger; a side alone
   means nothing special (horse collar, the horse collar rules). A hanger is worth the court's hanger value.
6. Value: the hanger value for a hanger; otherwise, if the disc touches lines with a ``touch_value``,
   the lowest of those (deck: 0, a disc on a line scores nothing, MSA D-2; crokinole and ricochet: a
   disc on a dividing line counts the lower value; horse collar: touching the deuce line is 1);
   otherwise the zone's value (0 outside every zone).
7. Dead: fallen, or touching a ``touch_dead`` line (crokinole 5 line, horse collar foul line), or
   lying in a ``dead`` zone without touching a ``touch_alive`` line (deck: short of the far dead
   line unless touching it, C-4b note; past the far baseline unless touching it, C-21). A dead disc
   is worth 0.

Exact contact: boundaries within ``geometry.TOUCH_TOLERANCE`` (1e-12 m) of each other are in contact,
the same for lines, edges and hangers (a disc within it of a line touches it; within it of an edge,
it is flush, not overhanging; a centre within it of the outline is on the surface), so that a disc
placed at a line or an edge in floating point, a few 1e-16 m off, is judged as exactly there.

Every function here takes the court as a ``Court``, a court name or a court file path
(``court.as_court``). ``judge`` judges one disc and returns a dict; ``judge_batch`` judges many in
one numba call and returns a ``Judgement`` of arrays; ``line_distance``, ``lag_distance`` and
``edge_nearness`` are the distances the rules measure (a disc to a line, the MSA C-2 lag, the
ricochet nearness to the front edge). ``judge_arrays`` and ``JudgeArrays`` hand a court's judging
geometry to numba code of one's own.

==================  =======================================================================
module              what it holds
==================  =======================================================================
``packing``         a court's judging geometry as flat arrays (``judge_arrays``)
``procedure``       the per-disc procedure in numba
``cell_grid``       the grid of plain cells that lets most discs of a large batch skip it
``grid_build``      the per-batch data and the grid, built with NumPy
``batch``           a batch in shares on several threads, one numba call each; grids per court
==================  =======================================================================

None of the batch's shortcuts changes any result (the tests compare them with the full procedure and
with Shapely); they only decide what need not be computed.

Inside the package: ``_api`` is the Python face (``judge``, ``judge_batch``, ``Judgement``) and
``_measures`` the distances the rules measure.
"""

from shuffle_sim.judging._api import HANGER_NAMES, Judgement, judge, judge_batch
from shuffle_sim.judging._measures import edge_nearness, lag_distance, line_distance
from shuffle_sim.judging.packing import JudgeArrays, judge_arrays

__all__ = [
    "HANGER_NAMES",
    "JudgeArrays",
    "Judgement",
    "edge_nearness",
    "judge",
    "judge_arrays",
    "judge_batch",
    "lag_distance",
    "line_distance",
]
