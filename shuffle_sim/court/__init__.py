"""Courts and tables: the model (``model``), finding and loading court files (``loading``, with one
reader per file section in ``sections``), material parameters (``materials``) and the validated TOML
reader that court and experiment files share (``toml_reader``).

==================  =======================================================================
module              what it does
==================  =======================================================================
``model``           ``Court`` and its records (lines, zones, edges, cushions, pegs, holes)
``errors``          ``CourtError``: the file, the key and the value of what is wrong
``materials``       material parameters, their defaults and their validation
``toml_reader``     ``TomlReader``: checked values with units from a parsed TOML table
``sections``        one reader per section of a court file
``loading``         ``load_court``, ``parse_court``, ``list_courts``, ``court_path``
==================  =======================================================================
"""

from shuffle_sim.court.errors import CourtError
from shuffle_sim.court._loading import court_path, list_courts, load_court, parse_court
from shuffle_sim.court.materials import PARAM_DEFAULTS
from shuffle_sim.court.model import Court, Cushion, Edge, Hole, KillLine, Line, Peg, Zone

__all__ = [
    "Court",
    "CourtError",
    "Cushion",
    "Edge",
    "Hole",
    "KillLine",
    "Line",
    "PARAM_DEFAULTS",
    "Peg",
    "Zone",
    "court_path",
    "list_courts",
    "load_court",
    "parse_court",
]
