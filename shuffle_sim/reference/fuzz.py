"""Physics fuzz at scale: random multi-disc scenes through the scene batch API, checked for invariants.

``fuzz_court(court, n_scenes, seed)`` draws ``n_scenes`` random scenes on a court (``random_scenes``),
runs them through ``physics.faces.scene_batch.simulate_scenes`` on two numba threads and again on one, and checks
every scene (``check_scenes``):

* the scene ended before the event bound (every loop has a bound; a scene of up to ``MAX_DISCS``
  discs must never reach the default one);
* every final position, velocity and spin is finite;
* every disc ended at rest, fallen or holed, and none is left moving or spinning;
* no two resting discs overlap by more than ``OVERLAP_LIMIT`` (1e-9 m), and no resting disc overlaps
  a cushion or a peg by more than that; on a court that is not flat, whose motion is integrated to
  a tolerance (``physics.laws.integrated.motion``), by more than ``CURVED_OVERLAP_LIMIT`` (1e-6 m, the
  accuracy the curved path promises for scenes with impacts);
* the runs on one and on two threads agree bit for bit.

A scene that breaks any of these is written to a JSON scene file (``Scene.to_dict``: the court by
its path, the scene's materials as ``params``, its discs) that ``shuffle-sim simulate FILE``
replays, bit for bit: the batch and ``physics.simulate`` run the same event loop on the same
numbers.

Scenes are drawn from a counter-based generator (Philox4x64-10, as in ``noise``): scene ``k`` of seed
``s`` is a pure function of (s, k), drawn in parallel inside numba. Two layouts alternate: discs
scattered anywhere on the surface (most moving, with spin), and a touching cluster on a triangular
lattice with a shooter driven into it (the touching-contact cases: Newton's cradle, pushed groups).
Every scene draws its own materials: restitutions in [0, 1], contact frictions in [0, 0.5], and the
surface friction mu between half and twice the court's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import prange

from shuffle_sim._runtime import jit
from shuffle_sim._runtime.threads import numba_thread_limit, numba_threads
from shuffle_sim.court import Court
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import centre_on_surface
from shuffle_sim.noise import philox4x64, seed_key, word_to_uniform
from shuffle_sim.physics.faces.scene_batch import MATERIALS, SceneBatch, Scenes, simulate_scenes
from shuffle_sim.physics.numba_api import (
    H_RADIUS,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_REST,
    closed_form_court,
    court_table,
    kernel_arrays,
    obstacle_overlap,
)

#: The most discs a fuzzed scene holds (the largest boards of the four games).
MAX_DISCS = 16
#: Resting discs may overlap each other or a cushion or peg by at most this (m).
OVERLAP_LIMIT = 1e-9
#: The same on a court that is not flat (module docstring): discs pushed together there move on as
#: one from integrated states, each within its step's tolerance (measured: up to 2.4e-8 m on the deck
#: and horse collar courts, 2e-7 m in a touching crokinole cluster hit with little restitution).
CURVED_OVERLAP_LIMIT = 1e-6
#: Philox stream of the fuzz's draws (apart from the experiments' streams in ``noise``).
STREAM_FUZZ = 16
#: The spin models the fuzz runs (the court parameter ``spin_model``): spin decaying on its own apart
#: from sliding, and sliding and spinning coupled (Farkas et al. 2003; see ``shuffle_sim.physics``).
SPIN_MODELS = ("decoupled", "coupled")
#: Fastest launch per game (m/s): harder than any player shoots, so every feature is reached.
TOP_SPEED = {"deck": 3.0, "horse-collar": 3.0, "ricochet": 3.0, "crokinole": 2.0}

#: Failure codes of ``check_scenes`` and what they mean.
PASSED = 0
EVENT_BOUND = 1
NOT_FINITE = 2
BAD_STATUS = 3
LEFT_MOVING = 4
DISCS_OVERLAP = 5
ON_OBSTACLE = 6
THREADS_DIFFER = 7
FAILURES = {
    EVENT_BOUND: "reached the event bound",
    NOT_FINITE: "a final position, velocity or spin is not finite",
    BAD_STATUS: "a disc ended neither at rest, fallen nor holed",
    LEFT_MOVING: "a disc was left moving or spinning",
    DISCS_OVERLAP: f"two resting discs overlap by more than {OVERLAP_LIMIT:g} m ({CURVED_OVERLAP_LIMIT:g} m curved)",
    ON_OBSTACLE: (
        f"a resting disc overlaps a cushion or peg by more than {OVERLAP_LIMIT:g} m ({CURVED_OVERLAP_LIMIT:g} m curved)"
    ),
    THREADS_DIFFER: "the results on one and on two numba threads differ",
}


# --------------------------------------------------------------------------------------------------
# Drawing scenes


@jit.kernel
def _draw(k0, k1, scene, buf, used):
    """The next uniform in (0, 1) of scene ``scene``: ``buf`` holds a block of four, ``used[0]``
    counts the draws so far (block ``used // 4`` of counter (scene, STREAM_FUZZ, block, 0))."""
    slot = used[0] % 4
    if slot == 0:
        w0, w1, w2, w3 = philox4x64(
            np.uint64(scene), np.uint64(STREAM_FUZZ), np.uint64(used[0] // 4), np.uint64(0), k0, k1
        )
        buf[0] = word_to_uniform(w0)
        buf[1] = word_to_uniform(w1)
        buf[2] = word_to_uniform(w2)
        buf[3] = word_to_uniform(w3)
    used[0] += 1
    return buf[slot]


@jit.kernel
def _normal(k0, k1, scene, buf, used):
    u = _draw(k0, k1, scene, buf, used)
    v = _draw(k0, k1, scene, buf, used)
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * v)


@jit.kernel
def _free(table, ja, xs, ys, k, n, x, y):
    """Whether a disc centred at (x, y) may start there: on the surface, clear of cushions, pegs and
    the scene's first ``n`` discs (touching allowed)."""
    if not centre_on_surface(ja, x, y) or obstacle_overlap(table, x, y, 0.0)[0] >= 0:
        return False
    limit = 2.0 * table[0, H_RADIUS]
    clear = np.bool_(True)
    for j in range(n):
        if (x - xs[k, j]) ** 2 + (y - ys[k, j]) ** 2 < limit * limit:
            clear = np.bool_(False)
            break
    return clear


@jit.parallel
def _draw_scenes(
    table, mu, ja, bounds, top_speed, k0, k1, first, max_discs, xs, ys, vxs, vys, omegas, n_discs, materials
):
    r = table[0, H_RADIUS]
    xmin, ymin, xmax, ymax = bounds[0], bounds[1], bounds[2], bounds[3]
    for m in prange(xs.shape[0]):
        scene = first + m
        buf = np.empty(4)
        used = np.zeros(1, np.int64)
        for i in range(max_discs):
            xs[m, i] = 0.0
            ys[m, i] = 0.0
            vxs[m, i] = 0.0
            vys[m, i] = 0.0
            omegas[m, i] = 0.0
        materials[m, 0] = mu * (0.5 + 1.5 * _draw(k0, k1, scene, buf, used))
        for j in range(1, materials.shape[1]):
            u = _draw(k0, k1, scene, buf, used)
            materials[m, j] = u if j % 2 == 1 else 0.5 * u  # MATERIALS alternate restitution, friction
        wanted = 1 + int(_draw(k0, k1, scene, buf, used) * max_discs)
        cluster = wanted >= 3 and _draw(k0, k1, scene, buf, used) < 0.4
        n = np.int64(0)
        if cluster:
            # A touching cluster on a triangular lattice around a random point, then a shooter aimed
            # at one of its discs from a random side.
            cx = xmin + (xmax - xmin) * _draw(k0, k1, scene, buf, used)
            cy = ymin + (ymax - ymin) * _draw(k0, k1, scene, buf, used)
            turn = 2.0 * math.pi * _draw(k0, k1, scene, buf, used)
            c = math.cos(turn)
            s = math.sin(turn)
            side = 1
            while n < wanted - 1 and side <= 5:
                for row in range(side):
                    col = side - 1 - row
                    lx = 2.0 * r * (col + 0.5 * row)
                    ly = 2.0 * r * row * math.sqrt(3.0) / 2.0
                    x = cx + c * lx - s * ly
                    y = cy + s * lx + c * ly
                    if n < wanted - 1 and _free(table, ja, xs, ys, np.int64(m), n, x, y):
                        xs[m, n] = x
                        ys[m, n] = y
                        n += 1
                side += 1
            if n > 0:
                target = int(_draw(k0, k1, scene, buf, used) * n)
                for _ in range(200):
                    away = 2.0 * math.pi * _draw(k0, k1, scene, buf, used)
                    reach = r * (2.0 + 40.0 * _draw(k0, k1, scene, buf, used))
                    x = xs[m, target] + reach * math.cos(away)
                    y = ys[m, target] + reach * math.sin(away)
                    if _free(table, ja, xs, ys, np.int64(m), n, x, y):
                        aim = math.atan2(ys[m, target] - y, xs[m, target] - x) + 0.02 * _normal(
                            k0, k1, scene, buf, used
                        )
                        speed = top_speed * (0.1 + 0.9 * _draw(k0, k1, scene, buf, used))
                        xs[m, n] = x
                        ys[m, n] = y
                        vxs[m, n] = speed * math.cos(aim)
                        vys[m, n] = speed * math.sin(aim)
                        omegas[m, n] = 5.0 * _normal(k0, k1, scene, buf, used)
                        n += 1
                        break
        attempts = np.int64(0)
        while n < wanted and attempts < 100 * max_discs:
            attempts += 1
            x = xmin + (xmax - xmin) * _draw(k0, k1, scene, buf, used)
            y = ymin + (ymax - ymin) * _draw(k0, k1, scene, buf, used)
            if not _free(table, ja, xs, ys, np.int64(m), n, x, y):
                continue
            xs[m, n] = x
            ys[m, n] = y
            if n == 0 or _draw(k0, k1, scene, buf, used) < 0.6:
                speed = top_speed * _draw(k0, k1, scene, buf, used)
                angle = 2.0 * math.pi * _draw(k0, k1, scene, buf, used)
                vxs[m, n] = speed * math.cos(angle)
                vys[m, n] = speed * math.sin(angle)
                omegas[m, n] = 10.0 * _normal(k0, k1, scene, buf, used)
            n += 1
        n_discs[m] = max(n, 1)  # a court with room for no disc at all is not fuzzed


def random_scenes(
    court: Court, n_scenes: int, seed: int, first: int = 0, max_discs: int = MAX_DISCS, top_speed: float | None = None
) -> Scenes:
    """Scenes ``first`` .. ``first + n_scenes - 1`` of ``seed`` on ``court`` (module docstring).

    ``top_speed`` (m/s) defaults to ``TOP_SPEED`` of the court's game.
    """
    if top_speed is None:
        top_speed = TOP_SPEED[court.game]
    if not (isinstance(max_discs, int) and max_discs >= 1):
        raise ValueError(f"max_discs must be a positive integer (got {max_discs!r})")
    k0, k1 = seed_key(seed)
    shape = (n_scenes, max_discs)
    x, y, vx, vy, omega = (np.empty(shape) for _ in range(5))
    n_discs = np.empty(n_scenes, np.int64)
    materials = np.empty((n_scenes, len(MATERIALS)))
    _draw_scenes(
        court_table(court),
        float(kernel_arrays(court).mu),
        judge_arrays(court),
        np.array(court.bounds, dtype=np.float64),
        float(top_speed),
        k0,
        k1,
        np.int64(first),
        max_discs,
        x,
        y,
        vx,
        vy,
        omega,
        n_discs,
        materials,
    )
    return Scenes(court=court, x=x, y=y, vx=vx, vy=vy, omega=omega, n_discs=n_discs, materials=materials)


# --------------------------------------------------------------------------------------------------
# Checking


@jit.parallel
def _check(table, overlap, n_discs, ok, x, y, vx, vy, omega, status, codes):
    limit = 2.0 * table[0, H_RADIUS] - overlap
    for k in prange(x.shape[0]):
        n = n_discs[k]
        code = PASSED
        if not ok[k]:
            code = EVENT_BOUND
        for i in range(n):
            if code != PASSED:
                break
            if not (
                math.isfinite(x[k, i])
                and math.isfinite(y[k, i])
                and math.isfinite(vx[k, i])
                and math.isfinite(vy[k, i])
                and math.isfinite(omega[k, i])
            ):
                code = NOT_FINITE
            elif status[k, i] != STATUS_REST and status[k, i] != STATUS_FALLEN and status[k, i] != STATUS_HOLED:
                code = BAD_STATUS
            elif vx[k, i] != 0.0 or vy[k, i] != 0.0 or omega[k, i] != 0.0:
                code = LEFT_MOVING
            elif status[k, i] == STATUS_REST:
                if obstacle_overlap(table, x[k, i], y[k, i], overlap)[0] >= 0:
                    code = ON_OBSTACLE
                for j in range(i):
                    if status[k, j] == STATUS_REST and math.hypot(x[k, i] - x[k, j], y[k, i] - y[k, j]) < limit:
                        code = DISCS_OVERLAP
        codes[k] = code


def check_scenes(scenes: Scenes, batch: SceneBatch) -> np.ndarray:
    """Per scene, ``PASSED`` or the first failure code (``FAILURES``) of its final state."""
    codes = np.empty(len(scenes), np.int8)
    _check(
        court_table(scenes.court),
        OVERLAP_LIMIT if closed_form_court(scenes.court) else CURVED_OVERLAP_LIMIT,
        scenes.n_discs,
        batch.ok,
        batch.x,
        batch.y,
        batch.vx,
        batch.vy,
        batch.omega,
        batch.status,
        codes,
    )
    return codes


def _bits(a: np.ndarray) -> np.ndarray:
    """An array's bytes as integers, so that equality is bitwise (NaN equals the same NaN)."""
    a = np.ascontiguousarray(a)
    return a.view(np.uint64) if a.dtype == np.float64 else a


def threads_differ(one: SceneBatch, two: SceneBatch) -> np.ndarray:
    """Per scene of ``two``, True where the two batches' results differ in any bit (``two`` may hold
    only the first scenes of ``one``)."""
    m = two.ok.shape[0]
    differ = np.zeros(m, bool)
    for name in ("x", "y", "vx", "vy", "omega", "status", "dead", "ok", "events", "t_end"):
        a, b = _bits(getattr(one, name)[:m]), _bits(getattr(two, name))
        same = a == b
        differ |= ~(same.all(axis=1) if same.ndim == 2 else same)
    return differ


# --------------------------------------------------------------------------------------------------
# Running


@dataclass
class FuzzReport:
    """What one fuzz run did: scenes, discs and events, and the scenes that failed (with their files)."""

    court: str
    spin_model: str
    seed: int
    n_scenes: int
    n_discs: int  # discs over all scenes
    max_discs: int  # most discs in one scene
    max_events: int  # most events one scene processed
    failures: dict[int, str] = field(default_factory=dict)  # scene index -> failure
    files: list[Path] = field(default_factory=list)  # the failing scenes written out

    def summary(self) -> str:
        lines = [
            f"{self.court} ({self.spin_model}, seed {self.seed}): {self.n_scenes:,} scenes, {self.n_discs:,} discs"
            f" (up to {self.max_discs} a scene), up to {self.max_events} events a scene, "
            f"{len(self.failures)} failed"
        ]
        lines += [f"  scene {k}: {why}" for k, why in list(self.failures.items())[:10]]
        lines += [f"  replay: shuffle-sim simulate {path}" for path in self.files]
        return "\n".join(lines)


def write_scene(scenes: Scenes, k: int, path: str | Path, note: str = "") -> Path:
    """Write scene ``k`` as a JSON scene file that ``shuffle-sim simulate`` runs (``Scene.to_dict``);
    ``note`` goes into the file under ``"fuzz"`` (simulate refuses unknown keys, so it is kept out)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = scenes.scene(k).to_dict()
    path.write_text(json.dumps(data, indent=1) + "\n")
    if note:
        path.with_suffix(".txt").write_text(note + "\n")
    return path


def fuzz_court(
    court: Court,
    n_scenes: int,
    seed: int,
    spin_model: str = "decoupled",
    *,
    first: int = 0,
    failures_dir: str | Path = "fuzz-failures",
    max_events: int = 10_000,
    max_files: int = 5,
    threads: tuple[int, ...] = (2, 1),
    rerun: int | None = None,
) -> FuzzReport:
    """Fuzz ``n_scenes`` random scenes of ``seed`` on ``court`` (module docstring).

    The scenes run on the first entry of ``threads`` (numba threads, capped at what numba has) and
    are checked; the first ``rerun`` of them (all by default) run again on each other entry and must
    agree bit for bit. The first ``max_files`` failing scenes are
    written to ``failures_dir`` as ``fuzz-COURT-MODEL-sSEED-kSCENE.json`` with a ``.txt`` note of
    what broke.
    """
    if spin_model not in SPIN_MODELS:
        raise ValueError(f"spin_model must be one of {', '.join(SPIN_MODELS)} (got {spin_model!r})")
    if court.params["spin_model"] != spin_model:
        court = court.with_params(spin_model=spin_model)
    if rerun is not None and not (isinstance(rerun, int) and rerun >= 0):
        raise ValueError(f"rerun must be a number of scenes, 0 or more (got {rerun!r})")
    scenes = random_scenes(court, n_scenes, seed, first=first)
    again = scenes if rerun is None or rerun >= n_scenes else random_scenes(court, rerun, seed, first=first)
    runs = []
    for run, count in enumerate(threads):
        with numba_threads(max(1, min(count, numba_thread_limit()))):
            runs.append(simulate_scenes(scenes if run == 0 else again, max_events=max_events))
    codes = check_scenes(scenes, runs[0])
    for other in runs[1:]:
        head = codes[: other.ok.shape[0]]
        head[(head == PASSED) & threads_differ(runs[0], other)] = THREADS_DIFFER
    report = FuzzReport(
        court=court.name,
        spin_model=spin_model,
        seed=seed,
        n_scenes=n_scenes,
        n_discs=int(scenes.n_discs.sum()),
        max_discs=int(scenes.n_discs.max(initial=0)),
        max_events=int(runs[0].events.max(initial=0)),
    )
    for k in np.flatnonzero(codes):
        report.failures[first + int(k)] = FAILURES[int(codes[k])]
        if len(report.files) < max_files:
            path = Path(failures_dir) / f"fuzz-{court.name}-{spin_model}-s{seed}-k{first + int(k)}.json"
            report.files.append(
                write_scene(
                    scenes,
                    int(k),
                    path,
                    note=f"{court.name}, spin model {spin_model}, seed {seed}, scene "
                    f"{first + int(k)}: {FAILURES[int(codes[k])]}",
                )
            )
    return report
