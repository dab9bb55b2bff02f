"""The game environments' benchmark runs (tiny sizes) and reports every game against both opponents."""

import pytest

pytest.importorskip("gymnasium")


def test_bench_envs_reports_rates_and_the_physics_share():
    from shuffle_sim.bench.envs import EnvBenchSizes, format_report, run_bench

    report = run_bench(EnvBenchSizes(plan_steps=20, ev_steps=2, warmup_steps=2, workers=2), games=("crokinole",))
    opponents = [row["opponent"] for row in report["rows"]]
    assert opponents == ["top-competitive-plan", "top-competitive-ev"]
    for row in report["rows"]:
        assert row["steps"] == (40 if row["opponent"].endswith("plan") else 4)
        assert row["steps_per_s"] > 0 and row["steps_per_cpu_s"] > 0 and 0 < row["physics_share"] < 1
    assert "crokinole" in format_report(report)


def test_the_physics_clock_times_the_kernel_and_puts_it_back():
    import shuffle_sim.playing.shooting as shooting
    from shuffle_sim import envs
    from shuffle_sim.bench.envs import PhysicsClock

    original = shooting.run_from_start
    env = envs.make("deck", opponent="expert-plan", seed=1)
    env.reset(seed=1)
    with PhysicsClock().timing() as clock:
        env.step(env.action_space.sample())
    assert clock.seconds > 0 and shooting.run_from_start is original


def test_every_physics_entry_the_clock_times_exists():
    import importlib

    from shuffle_sim.bench.envs import PHYSICS_CALLS

    for module_name, name in PHYSICS_CALLS:
        assert callable(getattr(importlib.import_module(module_name), name)), (module_name, name)


def test_a_worker_that_dies_is_an_error_not_a_wait():
    import multiprocessing

    from shuffle_sim.bench.envs import _result

    context = multiprocessing.get_context("spawn")
    dead = context.Process(target=_exit_with_three)
    dead.start()
    dead.join()
    with pytest.raises(RuntimeError, match="exit code 3"):
        _result(context.Queue(), [dead], "deck", "expert-plan")


def _exit_with_three():
    raise SystemExit(3)
