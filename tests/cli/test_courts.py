"""`shuffle-sim judge`: the JSON it prints, its text, and its errors; in-process and installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from shuffle_sim.cli import main
from shuffle_sim.units import FOOT as FT

DISC_KEYS = ["x", "y", "value", "zone", "touching", "dead", "hanger"]


def run_json(capsys, *argv):
    assert main(["judge", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)


def test_json_has_exactly_the_documented_shape(capsys):
    doc = run_json(capsys, "deck", "--disc", f"0,{37.2 * FT}", "--disc", f"0,{41 * FT}", "--disc", "0.95,5")
    assert list(doc) == ["court", "discs"] and doc["court"] == "deck"
    assert len(doc["discs"]) == 3
    for disc in doc["discs"]:
        assert list(disc) == DISC_KEYS
        assert isinstance(disc["x"], float) and isinstance(disc["y"], float)
        assert isinstance(disc["value"], int) and not isinstance(disc["value"], bool)
        assert disc["zone"] is None or isinstance(disc["zone"], str)
        assert isinstance(disc["touching"], list) and all(isinstance(t, str) for t in disc["touching"])
        assert isinstance(disc["dead"], bool)
        assert disc["hanger"] in (None, "end", "corner")
    ten, on_line, alley = doc["discs"]
    assert ten == {"x": 0.0, "y": 37.2 * FT, "value": 10, "zone": "10", "touching": [], "dead": False, "hanger": None}
    assert on_line["value"] == 0 and "11 ft line" in on_line["touching"] and "centre line" in on_line["touching"]
    assert alley["dead"] is True and alley["zone"] is None


def test_json_for_hangers_and_ends(capsys):
    doc = run_json(capsys, "horse-collar", "--disc", "0,6.29", "--disc", "0.25,6.29")
    assert [(d["value"], d["hanger"]) for d in doc["discs"]] == [(13, "end"), (26, "corner")]
    head = run_json(capsys, "deck", "--end", "head", "--disc", f"0,{14.8 * FT}")
    assert head["discs"][0]["value"] == 10 and head["discs"][0]["zone"] == "10"
    board = run_json(capsys, "crokinole", "--disc", "0,0")
    assert board["discs"][0] == {
        "x": 0.0,
        "y": 0.0,
        "value": 20,
        "zone": "20",
        "touching": [],
        "dead": False,
        "hanger": None,
    }


def test_text_output(capsys):
    assert main(["judge", "deck", "--disc", f"0,{37.2 * FT}", "--disc", "0,5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "value   10" in lines[0] and "zone 10" in lines[0] and "live" in lines[0]
    assert "dead" in lines[1]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["judge", "deck"], "give at least one --disc"),
        (["judge", "snooker", "--disc", "0,1"], "unknown court 'snooker'"),
        (["judge", "deck", "--end", "middle", "--disc", "0,1"], "has no end 'middle'"),
        (["judge", "deck", "--disc", "0,nan"], "y[0] must be a finite coordinate in metres (got nan)"),
    ],
)
def test_errors_exit_2_with_one_line(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err


def test_negative_coordinates_after_disc(capsys):
    doc = run_json(capsys, "deck", "--disc", f"-0.15,{39.5 * FT}", "--disc", f"-.18,{42.5 * FT}", "--disc=-0.2,1")
    assert [d["value"] for d in doc["discs"]] == [8, 7, 0]
    assert doc["discs"][0]["x"] == -0.15 and doc["discs"][1]["x"] == -0.18


def test_unreadable_disc_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["judge", "deck", "--disc", "0"])
    assert info.value.code == 2
    assert "expected X,Y in metres, got '0'" in capsys.readouterr().err


def test_installed_console_script_prints_the_same_json(capsys):
    exe = shutil.which("shuffle-sim")
    argv = ["judge", "ricochet", "--disc", "0.2,0.01", "--disc", "-0.2,0.3", "--json"]
    command = [exe, *argv] if exe else [sys.executable, "-m", "shuffle_sim.cli", *argv]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert main(argv) == 0
    assert json.loads(done.stdout) == json.loads(capsys.readouterr().out)
    assert [d["value"] for d in json.loads(done.stdout)["discs"]] == [5, 2]
    prefix = [exe] if exe else [sys.executable, "-m", "shuffle_sim.cli"]
    bad = subprocess.run(
        [*prefix, "judge", "nowhere.toml", "--disc", "0,1"], capture_output=True, text=True, timeout=300, check=False
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no such court file" in bad.stderr


def test_bench_judge_command_reports_rates(capsys):
    # A smoke run of the benchmark command (small n): it reports, it does not assert a speed.
    assert main(["bench-judge", "--n", "20000", "--repeats", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["court"] == "deck" and report["n"] == 20000 and report["threads"][0] == 1
    assert report["rate_1_thread"] > 0 and report["rate_all_threads"] > 0
    assert report["identical_across_threads"] is True
    assert 0.0 < report["plain_cell_fraction"] < 1.0
    assert main(["bench-judge", "--n", "5000", "--repeats", "1"]) == 0
    text = capsys.readouterr().out
    assert "1 thread" in text and "M discs/s" in text and "target 20 M/s" in text
    with pytest.raises(SystemExit):
        main(["bench-judge", "--n", "0"])


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``shuffle-sim courts | head -1``: the pipe closes before the command writes; no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "shuffle_sim.cli", "courts"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()  # before the interpreter has even started: every write meets a closed pipe
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and err == b""
