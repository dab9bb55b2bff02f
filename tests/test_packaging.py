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
from pathlib import Path

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
