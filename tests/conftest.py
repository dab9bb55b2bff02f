"""Fixtures shared by the whole suite.

The tests mirror the package: ``tests/court`` for ``shuffle_sim.court``, ``tests/judge``,
``tests/physics``, ``tests/rules``, ``tests/play``, ``tests/experiment``, ``tests/bench`` and
``tests/reference``; tests of the top-level modules (units, shots, plot, testing, the command line,
packaging, notebooks) sit here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shuffle_sim.court import load_court

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
