"""Courts and tables: the ``Court`` model, reading and checking court files, and what the rest of the
package asks of a court (its materials, its speed, the shape of its surface, its geometry for judging
and for drawings).

``load_court`` reads a court by name (``deck``, ``horse-collar``, ``ricochet``, ``crokinole``, and
any ``NAME.toml`` in the folders of ``SHUFFLE_SIM_COURTS``) or by path; ``list_courts`` names the
courts it finds, ``court_path`` finds a court's file, ``parse_court`` builds a court from a parsed
TOML table, and ``as_court`` takes a ``Court``, a name or a path alike. A court file that cannot be
used raises ``CourtError`` naming the file, the key and the value. The file format is described in
``courts/README.md`` (the documentation's court files page).

==================  =======================================================================
module              what it holds
==================  =======================================================================
``model``           ``Court`` and its records (lines, zones, edges, cushions, pegs, holes)
``errors``          ``CourtError``
``materials``       material parameters, their defaults (``PARAM_DEFAULTS``) and their checks
``friction_law``    the friction law (Coulomb, or mu + mu_speed v) and a free slide under it
``speed``           a court's speed as players rate it, in seconds, and its mu
``surface_shape``   the shape of a surface that is not flat: grade, crown, height and friction maps
``grid_spline``     values on a regular grid interpolated by a bicubic spline (the height map)
``toml_reader``     ``TomlReader``: checked values with units from a parsed TOML table
``geometry``        numba predicates: point-segment distance, circle against band, polygon, annulus
``shapes``          the court as the ordered shapes of its drawing (matplotlib and the lab alike)
``steepness``       whether a disc can come to rest: the grade against the friction everywhere
==================  =======================================================================

Inside the package: ``_loading`` finds and loads court files, with one reader per file section in
``_sections``.
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
