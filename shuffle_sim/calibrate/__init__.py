"""Calibration: a court fitted from measured shots (``shuffle-sim calibrate``), the way a club takes
them, or from tracked slides, the way a video tracker gives them; and a skill preset scaled to a
published make rate.

==================  =======================================================================
module              what it does
==================  =======================================================================
``shots_csv``       the shots CSV: columns, checks row by row, ``CalibrationError``
``tracks_csv``      the tracks CSV (``time,track,x,y``): checks row by row and track by track
``forward``         where a disc without spin rests and when, on a court of friction and grade
                    (closed form), and how far it has slid after a time under either friction
                    law (the one place the fits see the motion, replaceable by the simulator)
``least_squares``   Levenberg-Marquardt, the covariance at the minimum, chi-square and the
                    warning when residuals lie far beyond the stated measurement errors
``fit``             least squares of mu (and mu_speed), speed and grade to shots, with standard
                    errors and notes on what the shots cannot tell
``track_fit``       least squares of the friction law and every track's start to tracks
``law_choice``      which law the data favour: held-out error (deciding) and AIC/BIC
``shot_choice``     the held-out comparison for shots: each timed shot predicted from the others
``court_file``      the fitted court as a court file that loads
``command``         the command: read, fit, print or ``--json``, ``--out``
``skill_rate``      a skill preset's noise scaled until a shot is made at a published rate
                    (``python -m shuffle_sim.calibrate.skill_rate``)
==================  =======================================================================
"""

from shuffle_sim.calibrate.command import calibrate
from shuffle_sim.calibrate.fit import CourtFit, fit_court
from shuffle_sim.calibrate.forward import rest_and_time, slide_distance
from shuffle_sim.calibrate.law_choice import LawChoice
from shuffle_sim.calibrate.shots_csv import CalibrationError, MeasuredShots, read_shots
from shuffle_sim.calibrate.track_fit import TrackFit, choose_track_law, fit_tracks
from shuffle_sim.calibrate.tracks_csv import MeasuredTracks, read_tracks

__all__ = [
    "CalibrationError",
    "CourtFit",
    "LawChoice",
    "MeasuredShots",
    "MeasuredTracks",
    "TrackFit",
    "calibrate",
    "choose_track_law",
    "fit_court",
    "fit_tracks",
    "read_shots",
    "read_tracks",
    "rest_and_time",
    "slide_distance",
]
