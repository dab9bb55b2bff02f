"""The physics benchmark's workloads: the half-round batch loop, its shot set, and the command.

The numbers the benchmark prints are not tested (no timed assertions); what is tested is that it
measures what it says: half-rounds with collisions, played in turn among resting discs, the same in
the numba batch loop as shot by shot through ``simulate``, and close to pymunk.
"""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest

from shuffle_sim.bench import physics as bench
from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.physics import DISC_DISC, STATUS_FALLEN, STATUS_REST, simulate
from shuffle_sim.physics.scene import Scene
from shuffle_sim.units import FOOT


@pytest.fixture(scope="module")
def deck():
    return load_court("deck").with_params(spin_model="decoupled")  # pymunk's model


@pytest.fixture(scope="module")
def rounds(deck):
    return bench.half_round_shots(deck, 6, seed=3)


def play_with_simulate(court, shots):
    """A half-round shot by shot through ``simulate``: the earlier discs at rest, fallen ones gone."""
    n = len(shots)
    x, y = np.full(n, np.nan), np.full(n, np.nan)
    status = np.zeros(n, dtype=np.int64)
    dead = np.zeros(n, dtype=bool)
    contacts = 0
    for k in range(n):
        idx = [i for i in range(k) if status[i] == STATUS_REST] + [k]
        xs = np.array([x[i] for i in idx[:-1]] + [shots[k, 0]])
        ys = np.array([y[i] for i in idx[:-1]] + [shots[k, 1]])
        zeros = np.zeros(len(idx) - 1)
        scene = Scene(
            court,
            x=xs,
            y=ys,
            vx=np.append(zeros, shots[k, 2]),
            vy=np.append(zeros, shots[k, 3]),
            omega=np.append(zeros, shots[k, 4]),
        )
        result = simulate(scene)
        assert result.ok
        contacts += int(np.sum(result.events.kind == DISC_DISC))
        for j, i in enumerate(idx):
            x[i], y[i], status[i] = result.x[j], result.y[j], result.status[j]
            dead[i] |= bool(result.dead[j])
    return x, y, status, dead, contacts


def test_a_draw_stops_on_its_target(deck):
    x, y, vx, vy, w = bench.shot_launch(deck, 1.0, 0.0, bench.TEN_Y_FT, 0.0, 0.0)
    assert (x, y) == (1.0 * FOOT, bench.LAUNCH_Y_FT * FOOT)
    result = simulate(
        Scene(deck, x=np.array([x]), y=np.array([y]), vx=np.array([vx]), vy=np.array([vy]), omega=np.array([w]))
    )
    assert result.x[0] == pytest.approx(0.0, abs=1e-9)
    assert result.y[0] == pytest.approx(bench.TEN_Y_FT * FOOT, abs=1e-9)
    judged = result.judging()[0]
    assert judged["value"] == 10


def test_batch_loop_plays_half_rounds_as_simulate_does_shot_by_shot(deck, rounds):
    out = bench.kernel_half_rounds(deck, rounds)
    assert out.ok.all()
    total_contacts = 0
    for h in range(len(rounds)):
        x, y, status, dead, contacts = play_with_simulate(deck, rounds[h])
        total_contacts += contacts
        assert np.array_equal(out.status[h], status)
        assert np.array_equal(out.dead[h], dead)
        gone = status == STATUS_FALLEN
        assert np.allclose(out.x[h], x, rtol=0, atol=1e-12) and np.allclose(out.y[h], y, rtol=0, atol=1e-12)
        assert not np.any(np.isnan(out.x[h][~gone]))
    assert total_contacts >= 3 * len(rounds)  # the shot set collides: several impacts per half-round


def test_half_round_shots_are_perturbations_of_the_set(deck):
    shots = bench.half_round_shots(deck, 50, seed=7)
    base = np.array([bench.shot_launch(deck, *s) for s in bench.HALF_ROUND_SHOTS])
    assert shots.shape == (50, 8, 5)
    assert np.array_equal(shots[0], base)
    speed = np.hypot(shots[..., 2], shots[..., 3]) / np.hypot(base[:, 2], base[:, 3])
    assert speed.min() > 0.95 and speed.max() < 1.05 and speed.std() > 0.005
    assert np.array_equal(shots, bench.half_round_shots(deck, 50, seed=7))


def test_batch_loop_does_not_depend_on_thread_count(deck):
    rounds = bench.half_round_shots(deck, 64, seed=11)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = bench.kernel_half_rounds(deck, rounds)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = bench.kernel_half_rounds(deck, rounds)
    finally:
        numba.set_num_threads(previous)
    for field in ("x", "y", "status", "dead", "ok"):
        assert np.array_equal(getattr(one, field), getattr(many, field), equal_nan=field in ("x", "y"))


def test_pymunk_plays_the_same_half_round(deck, rounds):
    """Pymunk at dt = 1 ms lands every disc of the unperturbed half-round within a few cm."""
    exact = bench.kernel_half_rounds(deck, rounds[:1])
    ref = bench.pymunk_half_round(deck, rounds[0], record_events=True)
    assert np.array_equal(ref.status, exact.status[0])
    assert np.max(np.hypot(ref.x - exact.x[0], ref.y - exact.y[0])) < 0.05
    assert sum(ev.kind == "disc" for ev in ref.events) >= 3


@pytest.mark.parametrize("bad", [np.zeros((3, 8)), np.full((1, 8, 5), np.nan)])
def test_kernel_half_rounds_rejects_bad_shots(deck, bad):
    with pytest.raises(ValueError, match="shots"):
        bench.kernel_half_rounds(deck, bad)


def test_bench_command_prints_the_documented_keys(capsys):
    assert main(["bench", "--json", "--quick"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert set(results["single_shot"]) == {
        "kernel_per_s",
        "kernel_1thread_per_s",
        "pymunk_per_s",
        "ratio",
        "kernel_new_arrays_per_s",
    }
    assert set(results["half_round"]) == {"kernel_per_s", "kernel_1thread_per_s", "pymunk_per_s", "ratio"}
    assert set(results["restitution_law"]) == {
        "kernel_per_s_constant",
        "kernel_per_s_law",
        "law_over_constant",
        "kernel_per_s_constant_e0",
        "kernel_per_s_law_e0",
        "evaluation_over_constant",
        "yield_speed",
    }
    assert set(results["restitution_board"]) == {
        "court",
        "scenes_per_s_constant",
        "scenes_per_s_law",
        "law_over_constant",
        "events_constant",
        "events_law",
        "yield_speed",
    }
    assert set(results["surface"]) == {
        "kernel_per_s",
        "kernel_1thread_per_s",
        "flat_spin_free_per_s",
        "over_flat",
        "pymunk_per_s",
        "ratio",
    }
    assert results["surface"]["over_flat"] == pytest.approx(
        results["surface"]["kernel_per_s"] / results["surface"]["flat_spin_free_per_s"]
    )
    for key in ("single_shot", "half_round", "surface"):
        row = results[key]
        assert all(math.isfinite(v) and v > 0 for v in row.values())
        assert row["ratio"] == pytest.approx(row["kernel_per_s"] / row["pymunk_per_s"])


def test_bench_table_is_readable():
    results = {
        "single_shot": {
            "kernel_per_s": 2.5e7,
            "kernel_1thread_per_s": 1.3e7,
            "pymunk_per_s": 55.0,
            "ratio": 4.5e5,
            "kernel_new_arrays_per_s": 2.25e7,
        },
        "half_round": {"kernel_per_s": 4.0e4, "kernel_1thread_per_s": 2.0e4, "pymunk_per_s": 7.0, "ratio": 5714.0},
        "jit": {"cold_s": 9.5, "warm_s": 0.4, "cold_one_process_s": 15.25, "cold_helper": True},
    }
    text = bench.format_table(results)
    assert "25,000,000" in text and "5,714" in text and "cold cache 9.50 s" in text
    assert "with the compile helper (one process alone 15.25 s)" in text
    assert "22,500,000" in text  # the single-shot rate with new result arrays for every batch


@pytest.mark.slow
def test_jit_probe_runs_in_fresh_processes():
    """Compiles everything from scratch in a subprocess (slow); only checks that both probes ran."""
    times = bench.jit_times()
    assert set(times) == {"cold_s", "warm_s", "cold_one_process_s", "cold_helper"}
    assert all(math.isfinite(times[k]) and times[k] > 0 for k in ("cold_s", "warm_s", "cold_one_process_s"))
    assert isinstance(times["cold_helper"], bool)


def test_pymunk_feels_the_surfaces_grade(deck):
    """The surface benchmark's pymunk run drifts a disc as the kernel does, to its time step's error."""
    from shuffle_sim.bench import surface
    from shuffle_sim.shots import simulate_shots

    court = surface.surface_court(deck)
    shot = (0.0, 0.6, 0.0, 1.7, 0.0)
    exact = simulate_shots(court, *([value] for value in shot))
    table = surface.pymunk_surface_table(court, shot)
    table.run()
    ref = table.result()
    assert exact.x[0, 0] > 0.01  # the drift across, toward +x
    assert abs(ref.x[0] - exact.x[0, 0]) < 0.1 * exact.x[0, 0]
    assert abs(ref.y[0] - exact.y[0, 0]) < 0.01
