"""Fingerprint what the package computes, so that a refactoring can be shown to change nothing.

Run it before and after a change and compare the two files::

    python tests/behaviour_snapshot.py before.json        # on the old code
    python tests/behaviour_snapshot.py after.json         # on the new code
    python tests/behaviour_snapshot.py --compare before.json after.json

It runs every ready experiment in ``experiments/`` (at a reduced grid, through the command line, with
no plots), plays a game of each kind for two seeds through ``shuffle-sim play``, simulates a
multi-disc scene and judges and scores boards; each result is reduced to a SHA-256 of its exact
values (netCDF variables byte for byte, scorecards and JSON outputs as printed). Not a test: it takes
a few minutes and writes into a temporary folder.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Grid overrides that keep every experiment small (cells x samples), so the snapshot runs in minutes.
SMALL = {"samples": 8}

SCENE = {
    "court": "crokinole",
    "discs": [
        {"x": 0.0, "y": -0.30, "vx": 0.02, "vy": 0.9, "omega": 3.0, "team": "A"},
        {"x": 0.01, "y": 0.0, "team": "B"},
        {"x": -0.06, "y": 0.05, "team": "B"},
        {"x": 0.08, "y": -0.1, "team": "A"},
    ],
}
BOARDS = {
    "deck": {
        "court": "deck",
        "discs": [
            {"x": 0.0, "y": 11.1, "team": "yellow"},
            {"x": 0.3, "y": 12.0, "team": "black"},
            {"x": -0.2, "y": 13.8, "team": "yellow"},
        ],
    },
    "horse-collar": {
        "court": "horse-collar",
        "discs": [{"x": 0.0, "y": 6.2, "team": "red"}, {"x": 0.1, "y": 5.9, "team": "red"}],
    },
    "ricochet": {
        "court": "ricochet",
        "discs": [{"x": 0.2, "y": 0.3, "team": "blue"}, {"x": 0.25, "y": 0.45, "team": "red"}],
    },
    "crokinole": {
        "court": "crokinole",
        "discs": [{"x": 0.0, "y": 0.05, "team": "A"}, {"x": 0.15, "y": 0.1, "team": "B"}],
    },
}


def _cli(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    return f"exit {done.returncode}\n{done.stdout}"


def _digest(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _grid_digest(path: Path) -> str:
    import xarray as xr

    with xr.open_dataset(path) as data:
        h = hashlib.sha256()
        for name in sorted(data.data_vars):
            h.update(name.encode())
            h.update(data[name].values.tobytes())
        return h.hexdigest()


def _small_experiment(source: Path, folder: Path) -> Path:
    import tomllib

    spec = tomllib.loads(source.read_text())
    lines = [line for line in source.read_text().splitlines() if not line.startswith("samples")]
    text = "\n".join(lines)
    # Before the first table's header (a top-level array such as ``paired = [...]`` stays above it).
    first_table = re.search(r"^\[", text, flags=re.MULTILINE)
    cut = first_table.start() if first_table else len(text)
    head, sep, tail = text[:cut], "", text[cut:]
    out = folder / source.name
    court = spec.get("court", "")
    if court and not Path(court).is_absolute() and ("/" in court or court.endswith(".toml")):
        head = head.replace(f'"{court}"', f'"{(source.parent / court).resolve()}"')
    out.write_text(f"{head}samples = {SMALL['samples']}\n{sep}{tail}\n")
    return out


def snapshot(out_file: Path) -> dict[str, str]:
    result: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for source in sorted((ROOT / "experiments").glob("*.toml")):
            spec = _small_experiment(source, work)
            results = work / "results" / source.stem
            printed = _cli("run", str(spec), "--out", str(results), "--no-plots", "--quiet", cwd=work)
            result[f"run {source.stem} exit"] = printed.splitlines()[0]
            result[f"run {source.stem} grid"] = _grid_digest(results / "grid.nc")
        for game in ("deck", "horse-collar", "ricochet", "crokinole"):
            for seed in (1, 2):
                folder = work / f"play-{game}-{seed}"
                _cli("play", game, "--seed", str(seed), "--out", str(folder), "--no-pictures", "--quiet", cwd=work)
                result[f"play {game} seed {seed}"] = _digest((folder / "scorecard.json").read_bytes())
        scene = work / "scene.json"
        scene.write_text(json.dumps(SCENE))
        result["simulate crokinole scene"] = _digest(_cli("simulate", str(scene), "--json", cwd=work))
        for game, board in BOARDS.items():
            path = work / f"board-{game}.json"
            path.write_text(json.dumps(board))
            result[f"score {game}"] = _digest(_cli("score", game, str(path), "--json", cwd=work))
        result["judge deck"] = _digest(
            _cli("judge", "deck", "--disc", "0,11.1", "--disc", "0.3,12", "--json", cwd=work)
        )
    out_file.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    return result


def compare(a: Path, b: Path) -> int:
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    keys = sorted(set(first) | set(second))
    differ = [k for k in keys if first.get(k) != second.get(k)]
    for key in keys:
        print(f"{'same   ' if key not in differ else 'DIFFERS'}  {key}")
    print(f"{len(keys) - len(differ)} of {len(keys)} fingerprints identical")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    snapshot(Path(sys.argv[1]))
