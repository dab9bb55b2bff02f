"""``shuffle-sim compile``: the tasks, the command, and a cache after which commands compile nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shuffle_sim.cli import main
from shuffle_sim.cli._compile_tasks import tasks
from shuffle_sim.games import game_names

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_has_its_tasks_and_every_task_waits_only_for_earlier_ones():
    every = tasks(list(game_names()), graded=True)
    names = [t.name for t in every]
    assert len(set(names)) == len(names)
    for game in game_names():
        assert {f"play {game}", f"advise {game}", f"run {game}"} <= set(names)
    for k, task in enumerate(every):
        assert set(task.after) <= set(names[:k]), task.name
    assert not any("graded" in t.name for t in tasks(["deck"], graded=False))


def test_the_games_experiments_compile_their_shared_chunk_kernels_once():
    games = list(game_names())
    after = {t.name: t.after for t in tasks(games, graded=False)}
    assert f"run {games[0]}" not in after[f"run {games[0]}"]
    for game in games[1:]:
        assert f"run {games[0]}" in after[f"run {game}"], game


def test_an_unknown_game_or_both_forms_exit_2(capsys):
    assert main(["compile", "tennis"]) == 2
    assert "unknown game 'tennis'" in capsys.readouterr().err
    assert main(["compile", "deck", "--all"]) == 2


def test_compile_runs_every_task_of_a_game(capsys):
    assert main(["compile", "ricochet", "--workers", "2", "--quiet"]) == 0
    assert "6 of 6 tasks" in capsys.readouterr().out


def _compilations(log: Path) -> list[str]:
    return [c["function"] for p in log.glob("*.json") for c in json.loads(p.read_text())["compilations"]]


def test_after_compile_the_commands_compile_nothing(tmp_path):
    """On an empty cache: ``compile deck``, then the deck's commands load every kernel they need."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    cli = [sys.executable, "-m", "shuffle_sim.cli"]
    done = subprocess.run([*cli, "compile", "deck", "--quiet"], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"court": "deck", "discs": [{"x": 0.0, "y": 11.1, "team": "yellow"}]}))
    for args in (
        ["judge", "deck", "--disc", "0,11.1"],
        ["score", "deck", str(board)],
        ["advise", "deck", str(board), "--samples", "4"],
        ["play", "deck", "--seed", "1", "--out", str(tmp_path / "play"), "--no-pictures", "--quiet"],
        ["run", str(ROOT / "experiments" / "deck-draw.toml"), "--out", str(tmp_path / "run"), "--no-plots"],
    ):
        log = tmp_path / f"log-{args[0]}"
        run = subprocess.run(
            [*cli, *args], env=dict(env, SHUFFLE_SIM_COMPILE_LOG=str(log)), capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr
        assert _compilations(log) == [], args
        assert "compiling kernels" not in run.stderr, args


@pytest.mark.parametrize("args", [["judge", "deck", "--disc", "0,11.1"]])
def test_a_command_on_an_empty_cache_says_it_compiles_and_then_says_nothing(tmp_path, args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    cli = [sys.executable, "-m", "shuffle_sim.cli", *args]
    cold = subprocess.run(cli, env=env, capture_output=True, text=True, check=False)
    warm = subprocess.run(cli, env=env, capture_output=True, text=True, check=False)
    assert cold.returncode == warm.returncode == 0
    assert cold.stderr.count("compiling kernels, first use only") == 1 and "shuffle-sim compile" in cold.stderr
    assert warm.stderr == "" and warm.stdout == cold.stdout
