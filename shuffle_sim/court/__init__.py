"""Courts and tables: the model (``model``), finding and loading court files (``_loading``, with one
reader per file section in ``_sections``), material parameters (``materials``), the validated TOML
reader that court and experiment files share (``toml_reader``), the geometric predicates of judging
(``geometry``) and the court's shapes for drawings (``shapes``).

==================  =======================================================================
module              what it does
==================  =======================================================================
``model``           ``Court`` and its records (lines, zones, edges, cushions, pegs, holes)
``errors``          ``CourtError``: the file, the key and the value of what is wrong
``materials``       material parameters, their defaults and their validation
``toml_reader``     ``TomlReader``: checked values with units from a parsed TOML table
``geometry``        numba predicates: point-segment distance, circle against band, polygon, annulus
``shapes``          the court as the ordered shapes of its drawing (matplotlib and the lab alike)
``steepness``       whether a disc can come to rest: the grade against the friction everywhere
``_sections``       one reader per section of a court file
``_loading``        ``load_court``, ``as_court``, ``parse_court``, ``list_courts``, ``court_path``
==================  =======================================================================
"""

from shuffle_sim.court._loading import as_court, court_path, list_courts, load_court, parse_court
from shuffle_sim.court.errors import CourtError
from shuffle_sim.court.materials import PARAM_DEFAULTS
from shuffle_sim.court.model import Court, Cushion, Edge, Hole, KillLine, Line, Peg, Zone

__all__ = [
    "PARAM_DEFAULTS",
    "Court",
    "CourtError",
    "Cushion",
    "Edge",
    "Hole",
    "KillLine",
    "Line",
    "Peg",
    "Zone",
    "as_court",
    "court_path",
    "list_courts",
    "load_court",
    "parse_court",
]
