"""Which friction law measured shots favour: each timed shot predicted from the others (``law_choice``).

A held-out shot is predicted from its start, its direction (toward its aim point, else toward its
rest) and its measured time: under the law the other shots give, the launch speed that stops in that
time (v0 = c T under Coulomb, c (exp(k T) - 1) / k under the speed law, c = g mu, k = g mu_speed)
slides a predicted length, and the prediction's miss of the measured rest is the shot's held-out
error. The length a slide of a given time reaches is exactly what the two laws disagree on, so shots
of different lengths can tell them apart and shots all of one length cannot. Coulomb is fitted with
the grade the shots can tell (``fit``) and predicts with it (the time of a graded slide is linear in
v0: ``forward``); the speed law on the flat court (a graded slide under it has no closed form).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from shuffle_sim.calibrate.fit import CourtFit, fit_court, shot_directions
from shuffle_sim.calibrate.forward import rest_and_time, slide_distance
from shuffle_sim.calibrate.law_choice import MIN_ITEMS, LawChoice, choose_law
from shuffle_sim.calibrate.shots_csv import CalibrationError, MeasuredShots


def _subset(shots: MeasuredShots, keep: np.ndarray) -> MeasuredShots:
    fields = ("start_x", "start_y", "rest_x", "rest_y", "aim_x", "aim_y", "time", "rows")
    return replace(shots, **{name: getattr(shots, name)[keep] for name in fields})


def launch_for_time(time, c: float, k: float):
    """The launch speed whose free slide stops after ``time`` seconds under deceleration c + k v."""
    time = np.asarray(time, dtype=np.float64)
    if k == 0.0:
        return c * time
    return c * np.expm1(k * time) / k


def predicted_rest_miss(fit: CourtFit, shots: MeasuredShots, gravity: float) -> np.ndarray:
    """How far (m) each timed shot's measured rest lies from the rest ``fit``'s law predicts from its
    start, direction and time."""
    c, k = fit.mu * gravity, fit.mu_speed * gravity
    timed = shots.timed
    direction = shot_directions(shots)[timed]
    start_x, start_y, time = shots.start_x[timed], shots.start_y[timed], shots.time[timed]
    if fit.slope is not None:
        slope_x, slope_y = fit.slope
        grade = float(np.hypot(slope_x, slope_y))
        down = np.cos(direction) * slope_y / grade + np.sin(direction) * slope_x / grade if grade > 0 else 0.0
        # T = v0 / (2 g) [(1 + c) / (mu - s) + (1 - c) / (mu + s)], c the launch's cosine to the fall line.
        per_speed = ((1.0 + down) / (fit.mu - grade) + (1.0 - down) / (fit.mu + grade)) / (2.0 * gravity)
        px, py, _ = rest_and_time(start_x, start_y, direction, time / per_speed, fit.mu, slope_x, slope_y, gravity)
    else:
        reach = slide_distance(time, launch_for_time(time, c, k), c, k)
        px, py = start_x + reach * np.sin(direction), start_y + reach * np.cos(direction)
    return np.hypot(px - shots.rest_x[timed], py - shots.rest_y[timed])


def choose_shot_law(
    shots: MeasuredShots, gravity: float, position_sd: float, time_sd: float
) -> tuple[LawChoice, dict[str, CourtFit]]:
    """The law the shots favour, leaving one timed shot out at a time, and both laws fitted to all the
    shots on the flat court; ``CalibrationError`` with fewer than ``MIN_ITEMS`` timed shots."""
    timed = np.flatnonzero(shots.timed)
    if timed.size < MIN_ITEMS:
        raise CalibrationError(
            f"{shots.source}: friction auto: {timed.size} timed shots, fewer than the {MIN_ITEMS} it "
            "holds out one at a time; choose coulomb or speed"
        )
    fits = {law: fit_court(shots, gravity, None, position_sd, time_sd, law) for law in ("coulomb", "speed")}

    def held_out(law: str, k: int) -> np.ndarray:
        others = np.array([j for j in range(len(shots)) if j != timed[k]])
        fit = fit_court(_subset(shots, others), gravity, None, position_sd, time_sd, law)
        return predicted_rest_miss(fit, _subset(shots, np.array([timed[k]])), gravity)

    names = tuple(f"row {row}" for row in shots.rows[timed])
    sizes = {law: (f.chi2, 2 * len(shots) + int(shots.timed.sum()), f.dof) for law, f in fits.items()}
    criteria = {law: (chi2, n, n - dof) for law, (chi2, n, dof) in sizes.items()}
    return choose_law(names, held_out, criteria, kind="shot"), fits
