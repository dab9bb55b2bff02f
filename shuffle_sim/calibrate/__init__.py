"""Calibration: a court fitted from a few measured shots (``shuffle-sim calibrate``), the way a club
takes them, and a skill preset scaled to a published make rate.

==================  =======================================================================
module              what it does
==================  =======================================================================
``shots_csv``       the shots CSV: columns, checks row by row, ``CalibrationError``
``forward``         where a disc without spin rests and when, on a court of friction and grade
                    (closed form; the one function the fit calls, replaceable by the simulator)
``fit``             least squares of mu, speed and grade, with standard errors and notes on what
                    the shots cannot tell
``court_file``      the fitted court as a court file that loads
``command``         the command: read, fit, print or ``--json``, ``--out``
``skill_rate``      a skill preset's noise scaled until a shot is made at a published rate
                    (``python -m shuffle_sim.calibrate.skill_rate``)
==================  =======================================================================
"""

from shuffle_sim.calibrate.command import calibrate
from shuffle_sim.calibrate.fit import CourtFit, fit_court
from shuffle_sim.calibrate.forward import rest_and_time
from shuffle_sim.calibrate.shots_csv import CalibrationError, MeasuredShots, read_shots

__all__ = ["CalibrationError", "CourtFit", "MeasuredShots", "calibrate", "fit_court", "read_shots", "rest_and_time"]
