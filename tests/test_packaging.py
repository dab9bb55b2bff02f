"""Packaging: a wheel carries every subpackage, its data files and the court files.

The court files live at the top of the project (``courts/``); ``pyproject.toml`` maps them into the
wheel as ``shuffle_sim/courts``, and ``shuffle_sim.court`` looks there when no ``courts/`` lies
beside the package. Building a wheel needs the network (build isolation), so these tests check the
configuration against the source tree, and the lookup in a copy laid out as a wheel installs it.
"""

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_subpackage_and_the_courts_are_packaged():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "shuffle_sim").rglob("__init__.py")}
    assert set(CONFIG["packages"]) == found | {"shuffle_sim.courts"}
    assert CONFIG["package-dir"] == {"shuffle_sim.courts": "courts"}
    assert "*.toml" in CONFIG["package-data"]["shuffle_sim.courts"]
    for package, patterns in CONFIG["package-data"].items():
        folder = ROOT / CONFIG["package-dir"].get(package, package.replace(".", "/"))
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{package}: {pattern} matches no file"


def test_courts_are_found_in_an_installed_layout(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(ROOT / "shuffle_sim", site / "shuffle_sim", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "courts", site / "shuffle_sim" / "courts")
    probe = (
        "import shuffle_sim.court as c; court = c.load_court('deck'); "
        "print(c.court_path('deck')); print(' '.join(c.list_courts()))"
    )
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    path, names = run.stdout.strip().splitlines()
    assert Path(path) == site / "shuffle_sim" / "courts" / "deck.toml"
    assert names.split() == sorted(p.stem for p in (ROOT / "courts").glob("*.toml"))


def test_python_m_build_makes_a_wheel_with_the_package_its_data_and_the_courts(tmp_path):
    """``python -m build`` (docs/install.md), without build isolation so that no network is needed:
    the wheel holds every module, the data files and the court files, under the package's version."""
    pytest.importorskip("build")
    from importlib.metadata import PackageNotFoundError, version

    from packaging.requirements import Requirement

    for requirement in map(
        Requirement, tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    ):
        try:
            found = version(requirement.name)
        except PackageNotFoundError:
            pytest.skip(f"building without isolation needs {requirement} (the test extra installs it)")
        if not requirement.specifier.contains(found, prereleases=True):
            pytest.skip(f"building without isolation needs {requirement}, found {found}")
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            "__pycache__", ".git", "_build", "auto_examples", "results", "*.egg-info", "build", "dist", ".*"
        ),
    )
    run = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    from shuffle_sim._version import __version__

    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name == f"shuffle_sim-{__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "shuffle_sim").rglob("*.py")}
    assert modules <= names, sorted(modules - names)[:5]
    courts = {f"shuffle_sim/courts/{p.name}" for p in (ROOT / "courts").glob("*.toml")}
    assert courts <= names
    for package, patterns in CONFIG["package-data"].items():
        if package == "shuffle_sim.courts":
            continue
        folder = ROOT / package.replace(".", "/")
        for pattern in patterns:
            for path in folder.glob(pattern):
                assert str(path.relative_to(ROOT)) in names, path
