"""How the package starts its helper processes: this interpreter, this package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from shuffle_sim._runtime import helper_process


def test_a_helper_runs_this_package_even_from_a_folder_holding_another_of_the_same_name(tmp_path):
    decoy = tmp_path / "shuffle_sim"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise ImportError('the decoy was imported')\n")
    argv, env = helper_process.module_command("shuffle_sim._runtime.compile_ahead")  # no callees: compiles nothing
    assert argv[:3] == [sys.executable, "-P", "-m"]
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(Path(helper_process.__file__).resolve().parents[2])
    run = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
