"""Fixtures shared by the whole suite.

The tests mirror the package: ``tests/court`` for ``shuffle_sim.court``, ``tests/judging``,
``tests/physics``, ``tests/rules``, ``tests/playing``, ``tests/experiment``, ``tests/bench`` and
``tests/reference``; tests of the top-level modules (units, shots, plot, testing, the command line,
packaging, notebooks) sit here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shuffle_sim.court import PARAM_DEFAULTS, load_court
from shuffle_sim.court.materials import SPIN_MODELS


def pytest_addoption(parser):
    parser.addoption(
        "--spin-model",
        choices=SPIN_MODELS,
        default=None,
        help="the spin model of every court whose file or test does not name one (the default: "
        "the courts' own, coupled); every test passes under 'decoupled' too",
    )


def pytest_configure(config):
    model = config.getoption("--spin-model")
    if model is not None:
        # Before any test module loads a court; tests that name a model keep theirs. Subprocesses
        # (the command line's tests) load the courts' own default.
        PARAM_DEFAULTS["spin_model"] = model


#: The scale lane (docs/developers.md, "Test lanes"): tests at full scale, whole browser sessions and
#: checks in fresh processes with an empty numba cache, by test file or test (node id prefix) and why.
#: They carry the ``scale`` marker, which the README's test command (``python3 -m pytest -n 2 ...``)
#: leaves out (its default lane, pyproject.toml's ``-m "not scale"``) and ``.ci/run`` runs after it
#: (``-m scale``). Each behaviour they check is checked at small scale in the default lane too.
SCALE_LANE = {
    "tests/physics/test_fuzz_scale.py": "fuzz at 100,000 scenes (small: tests/physics/test_fuzz.py)",
    "tests/physics/test_surface_scenes.py::test_random_scenes_on_curved_courts_keep_the_invariants": (
        "fuzz at 100,000 scenes on curved courts (small: tests/physics/test_surface_fuzz_small.py)"
    ),
    "tests/lab/test_browser.py": "whole browser sessions (the lab's parts: tests/lab/test_lab_parts.py, ...)",
    "tests/lab/test_lab_play_browser.py": "whole browser sessions",
    "tests/lab/test_lab_surface_browser.py": "whole browser sessions",
    "tests/lab/test_lab_layout_browser.py": "whole browser sessions at 1366 x 768",
    "tests/lab/test_lab_parts.py::test_the_labs_own_warm_up_says_nothing": "the lab's helper processes, twice",
    "tests/test_notebooks.py": "notebooks, top to bottom",
    "tests/_runtime/test_compile_ahead.py::test_simulate_s_kernel_loads_every": "a fresh process, an empty cache",
    "tests/_runtime/test_compile_ahead.py::test_a_command_compiles_every_kernel": "a fresh process, an empty cache",
    "tests/experiment/test_first_run_compile.py::test_the_two_processes": "fresh processes, an empty cache",
    "tests/bench/test_physics.py::test_jit_probe_runs_in_fresh_processes": "fresh processes, an empty cache",
    "tests/cli/test_compile.py::test_after_compile": "fresh processes, an empty cache",
    "tests/bench/test_first_use.py::test_a_command_s_first_use": "a fresh process, an empty cache",
    "tests/bench/test_experiments.py::test_quick_run_prints_every_measurement": "a benchmark's whole quick run",
    "tests/bench/test_physics.py::test_bench_command_prints_the_documented_keys": "a benchmark's whole quick run",
    "tests/bench/test_startup.py::test_bench_startup_quick": "a benchmark's whole quick run, an empty cache",
    "tests/bench/test_first_use.py::test_the_lab_s_first_use_is_measured_from_its_start_to_a_grade_answered_warm": (
        "the shot lab started on an empty cache and driven in the browser"
    ),
    "tests/bench/test_players.py::test_quick_crokinole_run_counts_every_shot": "a benchmark's whole quick run",
    "tests/playing/test_any_court_strategy.py::test_five_boards_within_two_points": (
        "the read table against finer reads on five boards at full count (small: the same file, one board)"
    ),
}


def in_scale_lane(nodeid: str) -> bool:
    """Whether the test ``nodeid`` (``tests/...::name[params]``) is one of ``SCALE_LANE``."""
    return any(
        nodeid == prefix
        or nodeid.startswith((f"{prefix}::", f"{prefix}["))
        or ("::" in prefix and nodeid.startswith(prefix))
        for prefix in SCALE_LANE
    )


def pytest_collection_modifyitems(config, items):
    scale = pytest.mark.scale
    for item in items:
        if in_scale_lane(item.nodeid):
            item.add_marker(scale)
    if config.getoption("--spin-model") is None:
        return
    own = pytest.mark.skip(reason="checks the courts' own spin model, which --spin-model replaces in this run")
    named = pytest.mark.skip(reason="names the spin model of every court it runs: the same test as in the default run")
    for item in items:
        if "courts_own_spin_model" in item.keywords:
            item.add_marker(own)
        elif "names_its_spin_models" in item.keywords:
            item.add_marker(named)


def pytest_report_header(config):
    return f"spin model of courts that name none: {PARAM_DEFAULTS['spin_model']}"


#: The checkout's top folder (courts/, experiments/, notebooks/).
ROOT = Path(__file__).resolve().parents[1]
COURT_NAMES = ("deck", "horse-collar", "ricochet", "crokinole")


@pytest.fixture(scope="session")
def project_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def courts() -> dict:
    """The four courts by name, loaded once (at their default ends)."""
    return {name: load_court(name) for name in COURT_NAMES}


@pytest.fixture(scope="session")
def deck(courts):
    return courts["deck"]


@pytest.fixture(scope="session")
def crokinole(courts):
    return courts["crokinole"]


@pytest.fixture
def write_file(tmp_path):
    """``write_file(name, content)``: a file in the test's temporary folder; dicts and lists are
    written as JSON, text as it is. Returns the path as a string (what the command line takes)."""

    def write(name: str, content) -> str:
        path = tmp_path / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return str(path)

    return write
