"""Experiment files: validation with clear errors, and the shots they describe (no kernel needed)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from shuffle_sim.experiment.spec import ExperimentError, load_experiment, parse_experiment, possible_values
from shuffle_sim.noise import skill_preset

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

BASE = """
name = "t"
court = "deck"
seed = 3
samples = 4
[shot]
start = ["9 in", "7.25 ft"]
team = "yellow"
[grid]
speed = { from = 1.6, to = 1.8, steps = 3 }
direction = [-1.5, -1.0]
[noise]
speed = 0.02
direction = 0.3
"""


def _parse(text: str, tmp_path: Path | None = None):
    if tmp_path is None:
        return parse_experiment(text, "bad.toml")
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return load_experiment(path)


def test_ready_experiments_all_load():
    names = sorted(p.stem for p in EXPERIMENTS.glob("*.toml"))
    assert {"deck-draw", "deck-takeout", "horse-collar-hanger", "ricochet-bank", "crokinole-open20"} <= set(names)
    for name in names:
        exp = load_experiment(EXPERIMENTS / f"{name}.toml")
        assert exp.name == name
        assert exp.n_shots > 0 and exp.plots


def test_main_job_is_a_million_shot_deck_draw():
    exp = load_experiment(EXPERIMENTS / "deck-draw.toml")
    assert exp.n_shots == 1_000_000
    assert exp.court.name == "deck" and exp.court.end == "foot"


@pytest.mark.parametrize(
    "change, message",
    [
        (("seed = 3", "seed = -3"), r"bad\.toml: seed: must be an integer .*\(got -3\)"),
        (("samples = 4", "samples = 0"), r"bad\.toml: samples: must be at least 1 \(got 0\)"),
        (("samples = 4", "samples = 4\nwobble = 1"), r"bad\.toml: wobble: unknown key"),
        (('court = "deck"', 'court = "curling"'), r"bad\.toml: court: unknown court 'curling'"),
        (("from = 1.6", "from = -1.6"), r"grid\.speed\.from: a speed must not be negative \(got -1\.6\)"),
        (("steps = 3", "steps = 0"), r"grid\.speed\.steps: must be at least 1 \(got 0\)"),
        (("direction = [-1.5, -1.0]", "direction = [-1.5, -1.5]"), r"grid\.direction: values must not repeat"),
        (("direction = [-1.5, -1.0]", "heading = [1, 2]"), r"grid\.heading: unknown shot parameter"),
        (
            ("direction = [-1.5, -1.0]", 'direction = ["left", 2]'),
            r"grid\.direction\[0\]: must be a finite number \(got 'left'\)",
        ),
        (('start = ["9 in", "7.25 ft"]', 'start = ["9 in", "70 ft"]'), r"shot\.start: is off the surface"),
        (
            ('start = ["9 in", "7.25 ft"]', 'start = ["9 furlongs", "7 ft"]'),
            r"shot\.start\[0\]: unknown unit 'furlongs'",
        ),
        (
            ('team = "yellow"', 'team = "yellow"\ntarget = ["0 ft", "37 ft"]'),
            r"shot\.direction: give a direction or a target, not both",
        ),
        (
            ("direction = 0.3", "direction = -0.3"),
            r"noise\.direction: must be a finite non-negative number \(got -0\.3\)",
        ),
        (
            ("[noise]\nspeed = 0.02\ndirection = 0.3", '[noise]\npreset = "wizard"'),
            r"noise\.preset: unknown skill 'wizard' for deck \(known: novice",
        ),
        (
            ("direction = 0.3", 'direction = 0.3\n[collect]\noutcomes = ["p_removed"]'),
            r"collect\.outcomes\[0\]: needs a \[board\]",
        ),
        (
            ("direction = 0.3", 'direction = 0.3\n[collect]\noutcomes = ["p_win"]'),
            r"collect\.outcomes\[0\]: unknown outcome .*\(got 'p_win'\)",
        ),
    ],
)
def test_malformed_files_name_the_file_key_and_value(change, message):
    old, new = change
    assert old in BASE
    with pytest.raises(ExperimentError, match=message):
        _parse(BASE.replace(old, new, 1))


def test_plot_and_board_errors(tmp_path):
    plot = BASE + '[[plots]]\nmetric = "p_value"\n'
    with pytest.raises(ExperimentError, match=r"plots\[0\]\.metric: metric 'p_value' needs a label, e.g. 'p_value:10'"):
        _parse(plot)
    with pytest.raises(ExperimentError, match=r"plots\[0\]\.metric: metric 'p_hanger' is not collected"):
        _parse(BASE + '[collect]\noutcomes = ["p_dead"]\n[[plots]]\nmetric = "p_hanger"\n')
    with pytest.raises(
        ExperimentError, match=r"plots\[0\]\.x: must name a grid axis \(speed, direction\) \(got 'spin'\)"
    ):
        _parse(BASE + '[[plots]]\nmetric = "expected_value"\nx = "spin"\n')
    board = BASE + '[board]\ndiscs = [{ x = "9 in", y = "7.5 ft", team = "black" }]\n'
    with pytest.raises(ExperimentError, match=r"shot\.start: the shot disc overlaps board\.discs\[0\]"):
        _parse(board)
    board = BASE + '[board]\ndiscs = [{ x = "0 in", y = "30 ft" }, { x = "1 in", y = "30 ft" }]\n'
    with pytest.raises(ExperimentError, match=r"board: discs\[0\] and discs\[1\] overlap"):
        _parse(board)
    path = tmp_path / "broken.toml"
    path.write_text("name = [")
    with pytest.raises(ExperimentError, match=r"broken\.toml: not valid TOML"):
        load_experiment(path)
    with pytest.raises(ExperimentError, match=r"nothing\.toml: cannot read experiment file"):
        load_experiment(tmp_path / "nothing.toml")


def test_cli_exits_2_with_one_line_on_a_malformed_file(tmp_path, capsys):
    from shuffle_sim.cli import main

    path = tmp_path / "bad.toml"
    path.write_text(BASE.replace("samples = 4", "samples = 0"))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "bad.toml: samples: must be at least 1 (got 0)" in err
    assert not (tmp_path / "out").exists()


def test_grid_order_and_nominal_shots():
    from shuffle_sim.experiment._chunks import executed_shots, intended_shots

    exp = _parse(BASE)
    assert exp.grid_shape == (3, 2) and exp.n_shots == 24
    shots = intended_shots(exp, 0, exp.n_shots)
    cell = np.arange(24) // 4
    np.testing.assert_allclose(shots.speed, np.repeat([1.6, 1.6, 1.7, 1.7, 1.8, 1.8], 4))
    np.testing.assert_allclose(np.degrees(shots.direction), np.tile([-1.5, -1.0], 3)[cell])
    assert np.all(shots.start_x == pytest.approx(9 * 0.0254))
    # A slice of the shot range gives the same shots as the whole range.
    part = executed_shots(exp, 5, 17)
    whole = executed_shots(exp, 0, 24)
    np.testing.assert_array_equal(part.speed, whole.speed[5:17])
    np.testing.assert_array_equal(part.direction, whole.direction[5:17])


def test_noise_has_the_model_standard_deviations():
    from shuffle_sim.experiment._chunks import executed_shots

    text = (
        BASE.replace("samples = 4", "samples = 20000")
        .replace("[-1.5, -1.0]", "[-1.0]")
        .replace("steps = 3", "steps = 1")
        .replace("to = 1.8", "to = 1.6")
    )
    exp = _parse(text)
    shots = executed_shots(exp, 0, exp.n_shots)
    assert np.std(shots.speed / 1.6 - 1) == pytest.approx(0.02, rel=0.03)
    assert np.std(np.degrees(shots.direction)) == pytest.approx(0.3, rel=0.03)
    assert np.mean(np.degrees(shots.direction)) == pytest.approx(-1.0, abs=0.01)


def test_target_sets_direction_and_stopping_speed():
    from shuffle_sim.experiment._chunks import intended_shots

    text = """
name = "aim"
court = "crokinole"
[shot]
start = ["0 in", "-12 in"]
target = ["0 in", "0 in"]
overshoot = "3 in"
[grid]
target_x = { from = "-1 in", to = "1 in", steps = 3 }
"""
    exp = _parse(text)
    shots = intended_shots(exp, 0, 3)
    mu, g = exp.court.params["mu"], exp.court.params["gravity"]
    for k, tx in enumerate([-0.0254, 0.0, 0.0254]):
        dx, dy = tx - 0.0, 0.0 - (-12 * 0.0254)
        assert shots.direction[k] == pytest.approx(math.atan2(dx, dy))
        assert shots.speed[k] == pytest.approx(math.sqrt(2 * mu * g * (math.hypot(dx, dy) + 3 * 0.0254)))


def test_distributions_draw_in_their_range_and_skill_axes_pick_presets():
    from shuffle_sim.experiment._chunks import executed_shots, intended_shots

    text = """
name = "d"
court = "horse-collar"
samples = 500
[shot]
start = ["0 in", "4 in"]
speed = 2.4
[distributions]
direction = { uniform = [-1.0, 1.0] }
spin = { normal = [0.0, 2.0] }
[grid]
skill = ["exact", "novice"]
"""
    exp = _parse(text)
    shots = intended_shots(exp, 0, exp.n_shots)
    deg = np.degrees(shots.direction)
    assert deg.min() >= -1.0 and deg.max() <= 1.0 and deg.std() == pytest.approx(2 / math.sqrt(12), rel=0.1)
    assert shots.spin.std() == pytest.approx(2.0, rel=0.1)
    assert list(shots.skill[:500]) == [0] * 500 and list(shots.skill[500:]) == [1] * 500
    executed = executed_shots(exp, 0, exp.n_shots)
    np.testing.assert_array_equal(executed.speed[:500], 2.4)  # "exact" adds no noise
    novice = skill_preset("horse-collar", "novice")
    # The proportional error and the preset's absolute floor together: sqrt((0.05 v)^2 + floor^2) / v.
    assert np.std(executed.speed[500:] / 2.4 - 1) == pytest.approx(novice.speed_sd(2.4) / 2.4, rel=0.15)


def test_possible_values_cover_every_court_value():
    from shuffle_sim.court import load_court

    assert possible_values(load_court("deck")).tolist() == [-10, 0, 7, 8, 10]
    assert possible_values(load_court("horse-collar")).tolist() == [0, 1, 2, 3, 13, 26]
    assert 20 in possible_values(load_court("crokinole")).tolist()
    assert 5 in possible_values(load_court("ricochet")).tolist()


def test_shot_kernel_follows_the_documented_random_layout():
    """Oracle: the numba shot builder against a NumPy computation from noise.uniforms/normals."""
    from shuffle_sim import noise
    from shuffle_sim.experiment._chunks import executed_shots

    text = BASE.replace(
        "[noise]",
        """[distributions]
spin = { normal = [1.0, 2.0] }
start_x = { uniform = ["0 in", "12 in"] }
[noise]
spin = 0.5
start = "1 in"
""",
    )
    exp = _parse(text)
    first, stop = 3, 24
    n = stop - first
    shots = executed_shots(exp, first, stop)
    cell = np.arange(first, stop) // exp.samples
    i_speed, i_direction = np.unravel_index(cell, exp.grid_shape)
    u = noise.uniforms(exp.seed, first, n, 4, stream=noise.STREAM_DISTRIBUTIONS)
    z = noise.normals(exp.seed, first, n, 5, stream=noise.STREAM_EXECUTION)
    speed = np.array([1.6, 1.7, 1.8])[i_speed] * (1 + 0.02 * z[:, 0])
    direction = np.radians(np.array([-1.5, -1.0])[i_direction]) + np.radians(0.3) * z[:, 1]
    spin = 1.0 + 2.0 * np.sqrt(-2 * np.log(u[:, 0])) * np.cos(2 * np.pi * u[:, 1]) + 0.5 * z[:, 2]
    start_x = 12 * 0.0254 * u[:, 2] + 0.0254 * z[:, 3]
    start_y = 7.25 * 0.3048 + 0.0254 * z[:, 4]
    np.testing.assert_allclose(shots.speed, speed, rtol=1e-13)
    np.testing.assert_allclose(shots.direction, direction, rtol=1e-13)
    np.testing.assert_allclose(shots.spin, spin, rtol=1e-12)
    np.testing.assert_allclose(shots.start_x, start_x, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(shots.start_y, start_y, rtol=1e-13)


@pytest.mark.parametrize(
    "zero",
    [
        (),
        ("speed",),
        ("direction",),
        ("speed", "direction"),
        ("spin",),
        ("start",),
        ("spin", "start"),
        ("speed", "direction", "spin", "start"),
    ],
)
def test_errors_with_zero_spread_are_not_drawn_and_the_others_keep_their_slots(zero):
    """Oracle as above: each error keeps its own slot of the stream whichever others are zero (those
    are not drawn: the parameter is the intended one exactly)."""
    from shuffle_sim import noise
    from shuffle_sim.experiment._chunks import executed_shots

    sd = {"speed": 0.02, "direction": 0.3, "spin": 0.5, "start": 0.0254}
    sd.update({k: 0.0 for k in zero})
    noise_table = "".join(f"{k} = {v}\n" for k, v in sd.items())
    text = BASE.replace('team = "yellow"', 'team = "yellow"\nspin = 0.75').replace(
        "[noise]\nspeed = 0.02\ndirection = 0.3\n", "[noise]\n" + noise_table
    )
    exp = _parse(text)
    shots = executed_shots(exp, 0, exp.n_shots)
    cell = np.arange(exp.n_shots) // exp.samples
    i_speed, i_direction = np.unravel_index(cell, exp.grid_shape)
    z = noise.normals(exp.seed, 0, exp.n_shots, 5, stream=noise.STREAM_EXECUTION)
    speed = np.array([1.6, 1.7, 1.8])[i_speed] * (1 + sd["speed"] * z[:, 0])
    direction = np.radians(np.array([-1.5, -1.0])[i_direction]) + np.radians(sd["direction"]) * z[:, 1]
    np.testing.assert_allclose(shots.speed, speed, rtol=1e-13)
    np.testing.assert_allclose(shots.direction, direction, rtol=1e-13)
    np.testing.assert_allclose(shots.spin, 0.75 + sd["spin"] * z[:, 2], rtol=1e-12)
    np.testing.assert_allclose(shots.start_x, 9 * 0.0254 + sd["start"] * z[:, 3], rtol=1e-12)
    np.testing.assert_allclose(shots.start_y, 7.25 * 0.3048 + sd["start"] * z[:, 4], rtol=1e-13)
    if "spin" in zero:  # not drawn: exactly as intended
        assert (shots.spin == 0.75).all()
    if "start" in zero:
        assert (shots.start_x == 9 * 0.0254).all() and (shots.start_y == 7.25 * 0.3048).all()


def test_frame_score_outcomes_are_refused_for_games_whose_frames_are_not_sums(tmp_path):
    """Horse collar frames need a 3 first, so a plain sum of values is not a frame score there."""
    from shuffle_sim.experiment.spec import ExperimentError, load_experiment

    path = tmp_path / "hc.toml"
    path.write_text(
        'name = "hc"\ncourt = "horse-collar"\nseed = 1\nsamples = 1\n'
        '[shot]\nstart = [0.0, 0.1]\nspeed = 2.0\ndirection = 0.0\nteam = "red"\n'
        "[grid]\nspeed = [2.0, 2.1]\n"
        '[board]\ndiscs = [{ name = "blue 3", team = "blue", x = 0.0, y = 6.24 }]\n'
        '[collect]\noutcomes = ["expected_value", "expected_margin"]\n'
    )
    with pytest.raises(ExperimentError, match=r"collect\.outcomes\[1\].*deck rules only.*'expected_margin'"):
        load_experiment(path)
