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


def pytest_collection_modifyitems(config, items):
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
