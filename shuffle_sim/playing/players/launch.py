"""Launch kernels in numba: points of a stance, the clearest start, straight launches, and a launch
perturbed by execution noise drawn from the counter-based Philox streams (``shot_normals``).

A disc sliding under Coulomb friction stops after v^2 / (2 mu g), so a straight shot to a point d
metres away needs v0 = sqrt(2 mu g d) (the closed form of the physics model, ``shuffle_sim.physics``).
"""

from __future__ import annotations

import math

import numpy as np

from shuffle_sim._runtime import jit
from shuffle_sim.court.geometry import point_segment_distance
from shuffle_sim.noise import STREAM_PLAYER_SAMPLES, NoiseModel, box_muller, philox4x64, word_to_uniform
from shuffle_sim.physics.numba_api import speed_for_distance

STANCE_SEGMENT = 0
STANCE_ARC = 1
#: A path at least this far (m) from every obstacle is clear: among clear starts the one nearest the
#: stance's preferred point is taken.
CLEAR_PATH = 0.02
#: Candidate-shot samples of the expected-value player unless its name says otherwise ("ev16").

# --------------------------------------------------------------------------------------------------
# numba kernels: stances, straight launches, noise


@jit.kernel
def stance_point(stance, t):
    """Point at parameter t in [0, 1] of a stance (segment: x0, y0 -> x1, y1; arc: cx, cy, R, a0 -> a1)."""
    if stance[0] == STANCE_SEGMENT:
        return stance[1] + t * (stance[3] - stance[1]), stance[2] + t * (stance[4] - stance[2])
    angle = stance[4] + t * (stance[5] - stance[4])
    return stance[1] + stance[3] * math.cos(angle), stance[2] + stance[3] * math.sin(angle)


@jit.kernel
def stance_length(stance):
    """Length (m) of a stance's segment or arc."""
    if stance[0] == STANCE_SEGMENT:
        return math.hypot(stance[3] - stance[1], stance[4] - stance[2])
    return stance[3] * abs(stance[5] - stance[4])


@jit.kernel
def start_is_free(stance, t, ox, oy, reach):
    """Whether a disc can start at stance parameter t: no obstacle nearer than its reach (touching is fine)."""
    px, py = stance_point(stance, t)
    for i in range(ox.shape[0]):
        dx = px - ox[i]
        dy = py - oy[i]
        if dx * dx + dy * dy < reach[i] * reach[i]:
            return False
    return True


@jit.kernel
def clearest_start(stance, preferred, samples, aim_x, aim_y, ox, oy, reach, exclude):
    """Stance parameter of the start whose straight path to (aim_x, aim_y) keeps clearest of obstacles.

    Obstacle i (centre ox[i], oy[i]) blocks a path passing nearer than ``reach[i]`` (2 r for a disc,
    r + its radius for a peg); ``exclude`` is an obstacle not counted (the disc a take-out aims at),
    -1 for none. Tried: the preferred parameter, then ``samples`` evenly spaced ones. A start that
    overlaps an obstacle is never taken; clearance beyond ``CLEAR_PATH`` counts as clear, and among
    equally clear starts the one nearest the preferred point wins. Returns -1.0 if every start overlaps.
    """
    best_t = -1.0
    best_score = -math.inf
    best_gap = math.inf
    for s in range(samples + 1):
        t = preferred if s == 0 else (s - 1) / (samples - 1)
        px, py = stance_point(stance, t)
        score = CLEAR_PATH
        blocked = False
        for i in range(ox.shape[0]):
            if i == exclude:
                continue
            dx = px - ox[i]
            dy = py - oy[i]
            if dx * dx + dy * dy < reach[i] * reach[i]:
                blocked = True
                break
            gap = point_segment_distance(ox[i], oy[i], px, py, aim_x, aim_y) - reach[i]
            score = min(score, gap)
        if blocked:
            continue
        off = abs(t - preferred)
        if score > best_score or (score == best_score and off < best_gap):
            best_t = t
            best_score = score
            best_gap = off
    return best_t


@jit.kernel
def straight_launch(stance, t, aim_x, aim_y, extra, decel):
    """Start point and velocity of a straight shot from stance parameter t through (aim_x, aim_y).

    The speed slides exactly to the aim point plus ``extra`` metres: sqrt(2 mu g (d + extra)).
    """
    sx, sy = stance_point(stance, t)
    dx = aim_x - sx
    dy = aim_y - sy
    d = math.hypot(dx, dy)
    reach = d + extra
    speed = speed_for_distance(reach, decel) if reach > 0.0 else 0.0
    return sx, sy, speed * dx / d, speed * dy / d


@jit.kernel
def perturb(
    stance,
    t,
    vx,
    vy,
    omega,
    z_speed,
    z_direction,
    z_spin,
    z_start,
    sd_speed,
    sd_direction,
    sd_spin,
    sd_start,
    sd_floor=0.0,
):
    """A launch with execution errors: speed times (1 + sd z), or with an absolute floor (m/s) speed
    plus sqrt((sd speed)^2 + floor^2) z (``noise.NoiseModel``), direction turned by sd z (rad), spin
    plus sd z, start moved sd z metres along the stance (kept on it). Zero deviations change nothing."""
    if sd_speed != 0.0 or sd_direction != 0.0 or sd_floor != 0.0:
        if sd_floor == 0.0:
            gain = 1.0 + sd_speed * z_speed
        else:
            speed = math.hypot(vx, vy)
            gain = 1.0 + math.sqrt(sd_speed * sd_speed + (sd_floor / speed) ** 2) * z_speed if speed > 0.0 else 1.0
        gain = max(gain, 0.0)
        turn = sd_direction * z_direction
        c = math.cos(turn)
        s = math.sin(turn)
        vx, vy = gain * (c * vx - s * vy), gain * (s * vx + c * vy)
    if sd_spin != 0.0:
        omega = omega + sd_spin * z_spin
    if sd_start != 0.0:
        length = stance_length(stance)
        if length > 0.0:
            t = min(1.0, max(0.0, t + sd_start * z_start / length))
    return t, vx, vy, omega


@jit.kernel
def executed_launch(stance, t, vx, vy, omega, z, sd, ox, oy, reach):
    """A launch from stance parameter ``t`` as executed: the errors of the four normals ``z`` (speed,
    direction, spin, start; ``shot_normals``) scaled by the deviations ``sd`` (``noise_vector``'s
    five) added (``perturb``), its start kept where it was meant when the perturbed one is not free
    of the obstacles (``start_is_free``). Returns (start parameter, x, y, vx, vy, spin)."""
    t2, vx, vy, omega = perturb(stance, t, vx, vy, omega, z[0], z[1], z[2], z[3], sd[0], sd[1], sd[2], sd[3], sd[4])
    if not start_is_free(stance, t2, ox, oy, reach):
        t2 = t
    x, y = stance_point(stance, t2)
    return t2, x, y, vx, vy, omega


@jit.kernel
def shot_normals(k0, k1, game, stream, shot, sample):
    """Four standard normals for one shot: speed, direction, spin, start (in that order).

    Philox4x64-10 of counter (game, stream, shot, sample) under the seed's key, Box-Muller on the
    four words (``shuffle_sim.noise``): a pure function of its arguments.
    """
    w0, w1, w2, w3 = philox4x64(np.uint64(game), np.uint64(stream), np.uint64(shot), np.uint64(sample), k0, k1)
    z0, z1 = box_muller(word_to_uniform(w0), word_to_uniform(w1))
    z2, z3 = box_muller(word_to_uniform(w2), word_to_uniform(w3))
    return z0, z1, z2, z3


@jit.kernel
def half_turn(px, py, x, y):
    """A point turned half a turn about (px, py): the deck court's other end (as ``Court.for_end``)."""
    return 2.0 * px - x, 2.0 * py - y


@jit.kernel
def _perturb_batch(stance, ts, vxs, vys, ws, z, sd, ox, oy, reach, out_x, out_y, out_vx, out_vy, out_w):
    """Every launch (C) under every sample of errors (S, 4), deviations ``sd`` as ``noise_vector``: rows
    c * S + s of the outputs."""
    n_samples = z.shape[0]
    for c in range(ts.shape[0]):
        for s in range(n_samples):
            k = c * n_samples + s
            errors = (z[s, 0], z[s, 1], z[s, 2], z[s, 3])
            _, out_x[k], out_y[k], out_vx[k], out_vy[k], out_w[k] = executed_launch(
                stance, ts[c], vxs[c], vys[c], ws[c], errors, sd, ox, oy, reach
            )


@jit.kernel
def _sample_normals(k0, k1, game, shot, n_samples, out):
    for s in range(n_samples):
        z0, z1, z2, z3 = shot_normals(k0, k1, game, np.uint64(STREAM_PLAYER_SAMPLES), shot, np.uint64(s))
        out[s, 0] = z0
        out[s, 1] = z1
        out[s, 2] = z2
        out[s, 3] = z3


def noise_vector(skill: NoiseModel) -> np.ndarray:
    """A noise model's standard deviations as numba takes them: speed, direction, spin, start, speed floor."""
    return np.array(skill.deviations(), dtype=np.float64)


def as_deviations(sd) -> np.ndarray:
    """Standard deviations as numba takes them (``noise_vector``'s five: speed, direction, spin, start,
    speed floor); four are read as having no speed floor."""
    out = np.zeros(5)
    given = np.asarray(sd, dtype=np.float64).ravel()
    if given.size not in (4, 5):
        raise ValueError(
            f"standard deviations: 4 or 5 numbers (speed, direction, spin, start, floor), got {given.size}"
        )
    out[: given.size] = given
    return out
