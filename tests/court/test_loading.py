"""Malformed court files: every error names the file, the key and the value; the CLI exits 2."""

from __future__ import annotations

import pytest

from shuffle_sim import load_court
from shuffle_sim.cli import main
from shuffle_sim.court import CourtError

VALID = """\
name = "tiny"
game = "custom"

[frame]
origin = "centre of the near end"
x = "right"
y = "away"

[disc]
diameter = "2 in"
mass = "0.25 kg"

[materials]
mu = 0.05

[surface]
polygon = [["-1 ft", "0 ft"], ["1 ft", "0 ft"], ["1 ft", "4 ft"], ["-1 ft", "4 ft"], ["-1 ft", "0 ft"]]

[[lines]]
name = "middle line"
from = ["-1 ft", "2 ft"]
to = ["1 ft", "2 ft"]
width = "1/4 in"
touch_value = 0

[[zones]]
name = "far half"
value = 1
polygon = [["-1 ft", "2 ft"], ["1 ft", "2 ft"], ["1 ft", "4 ft"], ["-1 ft", "4 ft"], ["-1 ft", "2 ft"]]
"""


def write(tmp_path, text, name="tiny.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_base_file_is_valid(tmp_path):
    court = load_court(write(tmp_path, VALID))
    assert court.name == "tiny" and court.zones[0].value == 1


# Each case: (what is wrong, the edit to the valid file, the key and the value the message must name).
MALFORMED = [
    ("unknown key", ('mass = "0.25 kg"', 'mass = "0.25 kg"\ncolour = "red"'), "disc.colour", "'red'"),
    ("unknown key in a line", ('width = "1/4 in"', 'width = "1/4 in"\ncolor = "white"'), "lines[0].color", "'white'"),
    ("missing key", ('mass = "0.25 kg"\n', ""), "disc.mass", "'diameter': '2 in'"),
    ("missing key in a zone", ("value = 1\n", ""), "zones[0].value", "'name': 'far half'"),
    ("bad unit", ('diameter = "2 in"', 'diameter = "2 inchs"'), "disc.diameter", "'2 inchs'"),
    ("bad unit in a point", ('to = ["1 ft", "2 ft"]', 'to = ["1 ft", "2 fathoms"]'), "lines[0].to[1]", "'2 fathoms'"),
    ("negative size", ('width = "1/4 in"', 'width = "-1/4 in"'), "lines[0].width", "'-1/4 in'"),
    ("negative diameter", ('diameter = "2 in"', 'diameter = "-2 in"'), "disc.diameter", "'-2 in'"),
    (
        "open zone outline",
        ('["-1 ft", "4 ft"], ["-1 ft", "2 ft"]]', '["-1 ft", "4 ft"]]'),
        "zones[0].polygon",
        "['-1 ft', '4 ft']",
    ),
]


@pytest.mark.parametrize("what, edit, key, value", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_court_names_file_key_and_value(tmp_path, what, edit, key, value):
    old, new = edit
    assert VALID.count(old) == 1, "the edit must hit exactly one place"
    path = write(tmp_path, VALID.replace(old, new))
    with pytest.raises(CourtError) as info:
        load_court(path)
    message = str(info.value)
    assert str(path) in message
    assert f": {key}:" in message
    assert value in message
    assert "\n" not in message


@pytest.mark.parametrize("what, edit, key, value", MALFORMED[::2], ids=[m[0] for m in MALFORMED[::2]])
def test_cli_exits_2_with_one_line_for_a_malformed_court(tmp_path, capsys, what, edit, key, value):
    path = write(tmp_path, VALID.replace(*edit))
    assert main(["judge", str(path), "--disc", "0,1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("shuffle-sim: error: ") and str(path) in lines[0] and key in lines[0]


@pytest.mark.parametrize(
    "edit, message",
    [
        (('game = "custom"', 'game = "curling"'), "game: must be one of"),
        (("mu = 0.05", "mu = -0.05"), "materials.mu: must not be negative (got -0.05)"),
        (('name = "tiny"', "name = 3"), "name: must be a non-empty string (got 3)"),
        (("value = 1", 'value = "one"'), "zones[0].value: must be an integer (got 'one')"),
        (("touch_value = 0", 'touch_value = 0\ntouch_dead = "yes"'), "lines[0].touch_dead: must be true or false"),
        (('to = ["1 ft", "2 ft"]', 'to = ["-1 ft", "2 ft"]'), "lines[0].to: a segment needs two distinct ends"),
        (
            ('[[zones]]\nname = "far half"', '[[zones]]\nname = "middle line"\n[[zones]]\nname = "far half"'),
            "zones[0].value: missing required key",
        ),
    ],
)
def test_other_errors_are_named(tmp_path, edit, message):
    path = write(tmp_path, VALID.replace(*edit))
    with pytest.raises(CourtError) as info:
        load_court(path)
    assert str(path) in str(info.value) and message in str(info.value)


def test_not_toml_at_all(tmp_path, capsys):
    path = write(tmp_path, "name = 'tiny\n")
    with pytest.raises(CourtError, match="not valid TOML"):
        load_court(path)
    assert main(["judge", str(path), "--disc", "0,1"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_court_plays_its_own_game_and_a_custom_court_plays_any(tmp_path):
    from shuffle_sim.games import game_names

    custom = load_court(write(tmp_path, VALID))
    deck = load_court("deck")
    assert all(custom.plays(game) for game in game_names())
    assert [game for game in game_names() if deck.plays(game)] == ["deck"]
