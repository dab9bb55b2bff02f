"""shuffle_sim: exact event-driven simulation and rule judging for the shuffleboard family.

Four games: deck shuffleboard (MSA rules), horse collar table shuffleboard, ricochet shuffleboard
and crokinole. SI units everywhere inside; feet and inches only in court files and displays.
"""

__version__ = "0.1.0"

from shuffle_sim.court import Court, CourtError, load_court, list_courts  # noqa: E402
from shuffle_sim.judge import Judgement, judge, judge_batch  # noqa: E402

__all__ = [
    "Court",
    "CourtError",
    "Judgement",
    "judge",
    "judge_batch",
    "list_courts",
    "load_court",
    "__version__",
]
