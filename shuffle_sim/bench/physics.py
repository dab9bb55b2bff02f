"""Physics benchmark: ``shuffle-sim bench [--json]``, the exact kernel beside pymunk in one run.

Three measurements, all on the deck court (``courts/deck.toml``, mu = 0.016):

(a) ``single_shot``: single-disc draws from the head toward the foot 10 on the empty court, to rest,
    with a little spin (so, in the court's default coupled model, on the coupled path);
    ``single_shot_spin_free`` the same shots without spin (the closed-form path), and their ratio.
    The kernel runs them through its batch API (``shuffle_sim.shots.simulate_shots``), 2,000,000 to
    a batch, writing into one set of result arrays reused from batch to batch (``out=``), as a loop
    of batches would; ``kernel_new_arrays_per_s`` is the rate on all cores with new result arrays
    for every batch (the system's zeroing of fresh pages costs about a tenth). Pymunk runs them one
    scene at a time.
(b) ``half_round``: eight shots in turn, each run until everything rests, shot k starting among the
    discs the earlier shots left at rest (fallen discs are gone). The shots are a fixed set of draws
    and take-outs (``HALF_ROUND_SHOTS``) that collide with each other; the kernel runs a batch of
    small random perturbations of that set with the batch loop ``play_half_rounds`` (numba,
    ``prange`` over half-rounds, calling the kernel's own numba functions), and pymunk plays the
    first few of the same half-rounds.
``restitution_law``: the same half-rounds with a restitution that falls with the impact speed beside
    the court's constant one, in turn (``bench.restitution``).
``surface``: the single shots without spin on the court with a slope and a crown (the curved-motion
    path) beside the flat court, in turn, and beside pymunk on the same surface (``bench.surface``).
(c) ``jit``: the first ``simulate`` call in a fresh Python process with an empty numba cache
    (``NUMBA_CACHE_DIR`` pointed at a new temporary directory), and again with that cache filled.
    The cold call is what a user meets: with a core free, ``simulate`` shares its first compile
    with a helper process (``shuffle_sim._runtime.compile_ahead``); ``cold_one_process_s`` is the same call
    with the helper switched off, the compile's whole length in one process.

Kernel rates are measured on one thread and on all cores (``numba.set_num_threads``); the JIT
warm-up is never inside a timed kernel run. Pymunk runs in its fastest honest set-up: dt = 1 ms,
joint friction, sleeping bodies, the rest check every 10 steps, and no Python callback per body per
step (see ``shuffle_sim.reference``). Its rate is timed over a few shots and is a rate, so it
compares with the kernel's without running as many. ``ratio`` is kernel (all cores) over pymunk.

Targets (benchmarks, not tests): single shots >= 20 million/s on 2 cores; half-rounds >= 1000 times
pymunk; JIT cold <= 15 s and warm first call <= 1 s. Nothing here asserts them; it prints the numbers.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np
from numba import prange

from shuffle_sim._runtime import compile_ahead, jit
from shuffle_sim._runtime.threads import numba_thread_limit
from shuffle_sim.bench._timing import best_rate, with_threads
from shuffle_sim.court import Court, load_court
from shuffle_sim.court.friction_law import decelerations, launch_speed
from shuffle_sim.physics.numba_api import (
    DEAD,
    EV_COLUMNS,
    N_FLOAT_ROWS,
    N_INT_ROWS,
    SEG_COLUMNS,
    STATUS,
    STATUS_MOVING,
    STATUS_REST,
    court_table,
    kernel_arrays,
    place_disc,
    run_table,
    state_at,
)
from shuffle_sim.units import FOOT

#: Pymunk's time step in the benchmark (s).
PYMUNK_DT = 1e-3
#: Event bound per shot in the kernel's half-round loop (as ``simulate``'s default).
MAX_EVENTS = 10_000

#: Launch line: the head 10-off area, 7 ft from the head end (docs/design.md, 5).
LAUNCH_Y_FT = 7.0
#: The foot 10 zone spans 35 to 38 ft; its middle.
TEN_Y_FT = 36.6

#: One half-round: (start x, target x, target y, extra slide beyond the target, spin), feet and
#: rad/s. Yellow shoots from the right half of the head 10-off, black from the left (MSA C-3). A
#: draw (extra 0) stops on its target; a take-out aims at an earlier disc's spot with speed to spare.
HALF_ROUND_SHOTS = (
    (1.0, 0.0, TEN_Y_FT, 0.0, 0.0),  # yellow: draw into the 10
    (-1.0, 0.0, TEN_Y_FT, 4.0, 0.0),  # black: take it out
    (1.2, 0.5, 39.5, 0.0, 1.0),  # yellow: draw into the right 8
    (-1.2, -0.4, 37.2, 0.0, -1.0),  # black: draw into the 10
    (0.8, -0.4, 37.2, 3.0, 0.0),  # yellow: take out black's 10
    (-0.8, 0.5, 39.5, 3.0, 0.0),  # black: take out yellow's 8
    (1.0, -0.6, 42.5, 0.0, 0.0),  # yellow: draw into the left 7
    (-1.0, 0.1, 36.0, 5.0, 0.0),  # black: take-out through the 10
)


def shot_launch(
    court: Court, start_x_ft: float, target_x_ft: float, target_y_ft: float, extra_ft: float, spin: float
) -> tuple[float, float, float, float, float]:
    """(x, y, vx, vy, omega) in SI of a shot from the launch line aimed at a target on the court.

    Its speed slides a free disc exactly d = the distance to the target plus ``extra_ft`` under the
    court's friction law (``court.friction_law.launch_speed``: Coulomb's sqrt(2 mu g d)).
    """
    x0, y0 = start_x_ft * FOOT, LAUNCH_Y_FT * FOOT
    dx, dy = target_x_ft * FOOT - x0, target_y_ft * FOOT - y0
    distance = math.hypot(dx, dy)
    speed = launch_speed(distance + extra_ft * FOOT, *decelerations(court.params))
    return x0, y0, speed * dx / distance, speed * dy / distance, spin


def half_round_shots(court: Court, count: int, seed: int = 0, spread: float = 1.0) -> np.ndarray:
    """``count`` half-rounds of ``HALF_ROUND_SHOTS`` with small random execution errors, (count, 8, 5).

    Half-round 0 is the set as written; the others perturb each shot's start by about 1 cm, its
    aim by about 0.3 degree and its speed by about 1 % (normal errors, times ``spread``).
    """
    base = np.array([shot_launch(court, *shot) for shot in HALF_ROUND_SHOTS])
    shots = np.repeat(base[None], count, axis=0)
    rng = np.random.default_rng(seed)
    shape = (count, len(HALF_ROUND_SHOTS))
    dx = rng.normal(0.0, 0.01 * spread, shape)
    turn = rng.normal(0.0, math.radians(0.3) * spread, shape)
    gain = 1.0 + rng.normal(0.0, 0.01 * spread, shape)
    dx[0], turn[0], gain[0] = 0.0, 0.0, 1.0
    vx, vy = shots[..., 2], shots[..., 3]
    c, s = np.cos(turn), np.sin(turn)
    shots[..., 0] += dx
    shots[..., 2], shots[..., 3] = gain * (c * vx - s * vy), gain * (s * vx + c * vy)
    return shots


def single_shots(court: Court, count: int, seed: int = 1) -> np.ndarray:
    """``count`` draws to the foot 10 on the empty court with execution errors, (count, 5)."""
    shot = shot_launch(court, 1.0, 0.0, TEN_Y_FT, 0.0, 0.0)
    rng = np.random.default_rng(seed)
    out = np.empty((count, 5))
    out[:, 0] = shot[0] + rng.normal(0.0, 0.01, count)
    out[:, 1] = shot[1]
    turn = rng.normal(0.0, math.radians(0.5), count)
    gain = 1.0 + rng.normal(0.0, 0.02, count)
    out[:, 2] = gain * (np.cos(turn) * shot[2] - np.sin(turn) * shot[3])
    out[:, 3] = gain * (np.sin(turn) * shot[2] + np.cos(turn) * shot[3])
    out[:, 4] = rng.normal(0.0, 1.0, count)
    return out


# ---- the kernel's half-round batch loop --------------------------------------------------------------


@jit.kernel
def _play_half_round(table, orbit_tables, shots, max_events, x, y, status, dead):
    """Play one half-round's shots in turn; fill each disc's final x, y, status, dead. Returns ok.

    ``table`` is the court packed once for the whole batch (``pack_court``) and ``orbits`` its coupled
    tables, as the batch shot loops use them (``shuffle_sim.shots``)."""
    n_shots = shots.shape[0]
    no_log = np.empty((0, max(EV_COLUMNS, SEG_COLUMNS)))  # zero-length logs: the kernel records nothing
    # One buffer each for the whole half-round, viewed as contiguous (rows, discs in play) arrays.
    st_buffer = np.empty(N_FLOAT_ROWS * n_shots)
    ist_buffer = np.empty(N_INT_ROWS * n_shots, dtype=np.int64)
    pair_buffer = np.empty(n_shots * n_shots)
    index = np.empty(n_shots, dtype=np.int64)
    ok = True
    for i in range(n_shots):
        status[i] = STATUS_MOVING
        dead[i] = False
    for k in range(n_shots):
        # In play: the earlier discs at rest (fallen discs are gone), then shot k.
        m = 0
        for i in range(k):
            if status[i] == STATUS_REST:
                index[m] = i
                m += 1
        index[m] = k
        m += 1
        sub_st = st_buffer[: N_FLOAT_ROWS * m].reshape((N_FLOAT_ROWS, m))
        sub_ist = ist_buffer[: N_INT_ROWS * m].reshape((N_INT_ROWS, m))
        for j in range(m - 1):
            i = index[j]
            place_disc(table, orbit_tables, sub_st, sub_ist, j, x[i], y[i], 0.0, 0.0, 0.0)
            sub_ist[DEAD, j] = 1 if dead[i] else 0
        place_disc(
            table, orbit_tables, sub_st, sub_ist, m - 1, shots[k, 0], shots[k, 1], shots[k, 2], shots[k, 3], shots[k, 4]
        )
        pairs = pair_buffer[: m * m].reshape((m, m))
        pairs[:, :] = np.inf
        _, _, shot_ok, t_end, _ = run_table(table, orbit_tables, sub_st, sub_ist, pairs, no_log, no_log, max_events)
        ok = ok and shot_ok
        for j in range(m):
            i = index[j]
            xj, yj, _, _, _ = state_at(table, orbit_tables, sub_st, sub_ist, j, t_end)
            x[i] = xj
            y[i] = yj
            status[i] = sub_ist[STATUS, j]
            dead[i] = sub_ist[DEAD, j] != 0
    return ok


@jit.parallel
def play_half_rounds(table, orbit_tables, shots, max_events, x, y, status, dead, ok):
    """Play ``shots`` (H, S, 5: x, y, vx, vy, omega) as H half-rounds of S shots, in parallel.

    Outputs (H, S): final x, y, status (``events.STATUS_*``) and dead of every disc; (H,) ok, False
    where a shot hit the event bound. Each half-round is independent, so the result does not depend
    on the number of threads.
    """
    for h in prange(shots.shape[0]):
        ok[h] = _play_half_round(table, orbit_tables, shots[h], max_events, x[h], y[h], status[h], dead[h])


@dataclass
class HalfRounds:
    """Final state of a batch of half-rounds, (H, S) arrays; ``ok`` (H,)."""

    x: np.ndarray
    y: np.ndarray
    status: np.ndarray
    dead: np.ndarray
    ok: np.ndarray


def kernel_half_rounds(court: Court, shots: np.ndarray, max_events: int = MAX_EVENTS) -> HalfRounds:
    """Run half-rounds (H, S, 5) through the kernel, the batch loop inside numba."""
    shots = np.ascontiguousarray(shots, dtype=np.float64)
    if shots.ndim != 3 or shots.shape[2] != 5:
        raise ValueError(f"shots must have shape (half-rounds, shots, 5), got {shots.shape}")
    if not np.all(np.isfinite(shots)):
        raise ValueError("shots must be finite")
    h, s = shots.shape[:2]
    out = HalfRounds(
        np.empty((h, s)),
        np.empty((h, s)),
        np.empty((h, s), dtype=np.int64),
        np.empty((h, s), dtype=np.bool_),
        np.empty(h, dtype=np.bool_),
    )
    play_half_rounds(
        court_table(court),
        kernel_arrays(court).orbit_tables,
        shots,
        int(max_events),
        out.x,
        out.y,
        out.status,
        out.dead,
        out.ok,
    )
    return out


def pymunk_half_round(court: Court, shots: np.ndarray, dt: float = PYMUNK_DT, record_events: bool = False):
    """Play one half-round (S, 5) in pymunk on one table; returns the ``ReferenceResult``."""
    from shuffle_sim.reference import PymunkCourt

    table = PymunkCourt(court, dt, record_events=record_events)
    for shot in shots:
        table.add_disc(*shot)
        table.run()
    return table.result()


# ---- timing ----------------------------------------------------------------------------------------


def _kernel_single_shot_runner(court: Court, shots: np.ndarray, reuse_arrays: bool = True):
    """A call that plays ``shots`` in one ``simulate_shots`` batch: into one reused ``ShotBatch``, as a
    loop of batches would (``out=``), or into new arrays each time with ``reuse_arrays`` False."""
    from shuffle_sim.shots import ShotBatch, simulate_shots

    x, y, vx, vy, omega = (np.ascontiguousarray(shots[:, k]) for k in range(5))
    if not reuse_arrays:
        return lambda: simulate_shots(court, x, y, vx, vy, omega)
    out = ShotBatch.empty(len(shots), 1)
    return lambda: simulate_shots(court, x, y, vx, vy, omega, out=out)


def _pymunk_single_shot_rate(court: Court, shots: np.ndarray, budget_s: float) -> tuple[float, int]:
    """Shots per second in pymunk, one scene per shot, timing as many as fit in ``budget_s``."""
    from shuffle_sim.reference import PymunkCourt

    done = 0
    began = time.perf_counter()
    while done < len(shots) and (done < 2 or time.perf_counter() - began < budget_s):
        table = PymunkCourt(court, PYMUNK_DT, record_events=False)
        table.add_disc(*shots[done])
        table.run()
        done += 1
    return done / (time.perf_counter() - began), done


def _pymunk_half_round_rate(court: Court, shots: np.ndarray, budget_s: float) -> tuple[float, int]:
    done = 0
    began = time.perf_counter()
    while done < len(shots) and (done < 2 or time.perf_counter() - began < budget_s):
        pymunk_half_round(court, shots[done])
        done += 1
    return done / (time.perf_counter() - began), done


def jit_probe_scene(slope=None):
    """The JIT probe's scene on the deck court: a shot with a little spin that hits a disc at rest (the
    placing, the pair prediction, an impact and the coupled motion all compile); on the deck court
    graded by ``slope`` (gx, gy) if given, which the integrated law runs."""
    from shuffle_sim.physics.scene import Scene

    court = load_court("deck").with_params(spin_model="coupled")
    if slope is not None:
        court = court.with_params(slope=list(slope))
    return Scene(
        court,
        x=np.array([0.3, 0.0]),
        y=np.array([2.1336, 11.0]),
        vx=np.array([-0.03, 0.0]),
        vy=np.array([1.75, 0.0]),
        omega=np.array([0.5, 0.0]),
    )


_JIT_PROBE = """
import json, time
from shuffle_sim.bench.physics import jit_probe_scene
from shuffle_sim._runtime.compile_ahead import helpers_started
from shuffle_sim.physics import simulate
scene = jit_probe_scene()
began = time.perf_counter()
result = simulate(scene)
elapsed = time.perf_counter() - began
print(json.dumps({"first_call_s": elapsed, "ok": bool(result.ok), "helper": helpers_started() > 0}))
"""


def _first_call(cache: str, helper: bool) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    if not helper:
        env[compile_ahead.ENV_SWITCH] = "0"
    proc = subprocess.run([sys.executable, "-c", _JIT_PROBE], env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"bench: the JIT probe failed: {proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def jit_times() -> dict:
    """The first ``simulate`` in a fresh process: with an empty numba cache as a user meets it (the
    compile shared with a helper process when a core is free: ``compile_ahead``), then with the cache
    filled, and with an empty cache in this process alone (``cold_one_process_s``, the compile's
    whole length). ``cold_helper`` says whether the first one used the helper."""
    with tempfile.TemporaryDirectory(prefix="shuffle-sim-numba-cache-") as cache:
        cold = _first_call(cache, helper=True)
        warm = _first_call(cache, helper=True)
    with tempfile.TemporaryDirectory(prefix="shuffle-sim-numba-cache-") as cache:
        alone = _first_call(cache, helper=False)
    return {
        "cold_s": cold["first_call_s"],
        "warm_s": warm["first_call_s"],
        "cold_one_process_s": alone["first_call_s"],
        "cold_helper": bool(cold["helper"]),
    }


@dataclass(frozen=True)
class BenchSizes:
    """How much the benchmark runs; ``QUICK`` is a smoke run for tests."""

    single_shots: int = 2_000_000
    half_rounds: int = 20_000
    repeats: int = 3
    pymunk_budget_s: float = 3.0
    jit: bool = True
    surface_shots: int = 200_000
    board_scenes: int = 20_000


FULL = BenchSizes()
QUICK = BenchSizes(
    single_shots=20_000,
    half_rounds=200,
    repeats=1,
    pymunk_budget_s=0.2,
    jit=False,
    surface_shots=2_000,
    board_scenes=400,
)


def _kernel_rates(run, count: int, repeats: int, cores: int) -> dict:
    """The best rate of ``run`` (``count`` items a run, ``repeats`` runs) on all ``cores`` and on one
    thread."""
    one = with_threads(1, lambda: best_rate(run, count, repeats))
    return {"kernel_per_s": with_threads(cores, lambda: best_rate(run, count, repeats)), "kernel_1thread_per_s": one}


def _beside(kernel: dict, pymunk_rate: float) -> dict:
    """The kernel's rates (``_kernel_rates``) beside pymunk's, and their ratio (kernel on all cores)."""
    return {**kernel, "pymunk_per_s": pymunk_rate, "ratio": kernel["kernel_per_s"] / pymunk_rate}


def run_bench(sizes: BenchSizes = FULL, court: Court | None = None) -> dict:
    """Run the benchmark and return ``{"single_shot": {...}, "half_round": {...}, "jit": {...}}``.

    Each of ``single_shot`` and ``half_round`` holds ``kernel_per_s`` (all cores),
    ``kernel_1thread_per_s``, ``pymunk_per_s`` and ``ratio`` (kernel on all cores over pymunk);
    ``single_shot`` also ``kernel_new_arrays_per_s`` (module docstring). ``jit`` holds ``cold_s``,
    ``warm_s``, ``cold_one_process_s`` and ``cold_helper`` (``jit_times``; absent with ``sizes.jit`` False).
    """
    court = load_court("deck") if court is None else court
    cores = numba_thread_limit()
    results: dict = {}

    singles = single_shots(court, sizes.single_shots)
    run_singles = _kernel_single_shot_runner(court, singles)
    _kernel_single_shot_runner(court, singles[:16])()  # compile (or load) before the clock starts
    single = _kernel_rates(run_singles, len(singles), sizes.repeats, cores)
    run_fresh = _kernel_single_shot_runner(court, singles, reuse_arrays=False)
    fresh = with_threads(cores, lambda: best_rate(run_fresh, len(singles), sizes.repeats))
    pymunk_rate, _ = _pymunk_single_shot_rate(court, singles, sizes.pymunk_budget_s)
    results["single_shot"] = {**_beside(single, pymunk_rate), "kernel_new_arrays_per_s": fresh}
    # The same shots without spin: the closed-form path (no coupled tables), side by side.
    spin_free = singles.copy()
    spin_free[:, 4] = 0.0
    free = _kernel_rates(_kernel_single_shot_runner(court, spin_free), len(spin_free), sizes.repeats, cores)
    results["single_shot_spin_free"] = {**free, "spin_over_spin_free": single["kernel_per_s"] / free["kernel_per_s"]}
    from shuffle_sim.bench.surface import surface_beside_flat

    results["surface"] = surface_beside_flat(
        court, singles[: sizes.surface_shots], sizes.repeats, sizes.pymunk_budget_s
    )

    rounds = half_round_shots(court, sizes.half_rounds)
    kernel_half_rounds(court, rounds[:2])  # compile (or load) before the clock starts
    half_rounds = _kernel_rates(lambda: kernel_half_rounds(court, rounds), len(rounds), sizes.repeats, cores)
    pymunk_rate, _ = _pymunk_half_round_rate(court, rounds, sizes.pymunk_budget_s)
    results["half_round"] = _beside(half_rounds, pymunk_rate)
    from shuffle_sim.bench.restitution import board_beside_constant, law_beside_constant

    results["restitution_law"] = law_beside_constant(court, rounds, kernel_half_rounds, sizes.repeats)
    results["restitution_board"] = board_beside_constant(sizes.board_scenes, sizes.repeats)

    if sizes.jit:
        results["jit"] = jit_times()
    return results


def format_table(results: dict) -> str:
    """The benchmark's numbers as a readable table."""
    cores = numba_thread_limit()
    lines = [
        f"{'per second':24s}{'kernel ' + str(cores) + ' cores':>18s}{'kernel 1 thread':>18s}"
        f"{'pymunk dt=1ms':>16s}{'ratio':>12s}"
    ]
    for key, label in (("single_shot", "single-disc shots"), ("half_round", "8-disc half-rounds")):
        row = results[key]
        lines.append(
            f"{label:24s}{row['kernel_per_s']:18,.0f}{row['kernel_1thread_per_s']:18,.0f}"
            f"{row['pymunk_per_s']:16,.2f}{row['ratio']:12,.0f}"
        )
    if "kernel_new_arrays_per_s" in results["single_shot"]:
        lines.append(
            f"single-disc shots into new result arrays each batch: "
            f"{results['single_shot']['kernel_new_arrays_per_s']:,.0f}/s on {cores} cores"
        )
    if "restitution_law" in results:
        law = results["restitution_law"]
        lines.append(
            f"half-rounds with a restitution law / with a constant restitution: {law['law_over_constant']:.3f} "
            f"({law['kernel_per_s_law']:,.0f} / {law['kernel_per_s_constant']:,.0f} per s); the law's "
            f"evaluation alone, on identical paths: {law['evaluation_over_constant']:.3f}"
        )
    if "surface" in results:
        row = results["surface"]
        lines.append(
            f"single-disc shots without spin on a court with a slope and a crown: {row['kernel_per_s']:,.0f}/s "
            f"({row['over_flat']:.3f} of the flat court's {row['flat_spin_free_per_s']:,.0f}), "
            f"{row['ratio']:,.0f}x pymunk ({row['pymunk_per_s']:,.2f}/s on the same surface)"
        )
    if "jit" in results:
        jit_row = results["jit"]
        helper = "with the compile helper" if jit_row.get("cold_helper") else "no helper"
        alone = jit_row.get("cold_one_process_s")
        alone_text = f" (one process alone {alone:.2f} s)" if alone is not None else ""
        lines.append(
            f"JIT first simulate in a fresh process: cold cache {jit_row['cold_s']:.2f} s, {helper}"
            f"{alone_text}, warm cache {jit_row['warm_s']:.2f} s"
        )
    lines.append(
        "targets: single shots >= 20,000,000/s on 2 cores; half-rounds >= 1000x pymunk; JIT cold <= 15 s, warm <= 1 s; "
        "surface >= 0.02 of flat and >= 1000x pymunk"
    )
    return "\n".join(lines)
