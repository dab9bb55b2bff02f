"""experiments/compare_spin_models.py: one experiment under both spin models, cell by cell
(docs/coupled-friction.md)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

from shuffle_sim.experiment.spec import parse_experiment

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


def _load_script():
    spec = importlib.util.spec_from_file_location("compare_spin_models", EXPERIMENTS / "compare_spin_models.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compare_spin_models = _load_script()

# A deck draw whose discs spin (20 rad/s: r omega about v at 1.6 m/s), so the models part; 3 x 2 cells.
SPINNING = """
name = "spinning"
title = "spinning draw"
court = "deck"
end = "foot"
seed = 5
samples = 20
[shot]
start = ["9 in", "7.25 ft"]
spin = SPIN
team = "yellow"
[grid]
speed = { from = 1.55, to = 1.75, steps = 3 }
direction = [-1.6, -1.2]
[noise]
preset = "average"
[collect]
outcomes = ["expected_value", "p_value", "p_dead"]
[[plots]]
metric = "expected_value"
x = "direction"
y = "speed"
"""


@pytest.mark.parametrize("model", ["coupled", "decoupled"])
def test_the_spin_model_is_set_in_the_file_as_run(model):
    text = (EXPERIMENTS / "deck-takeout.toml").read_text()
    variant = compare_spin_models.with_spin_model(text, model)
    experiment = parse_experiment(variant, "deck-takeout.toml", EXPERIMENTS)
    assert experiment.court.params["spin_model"] == model
    assert tomllib.loads(variant)["params"] == {"spin_model": model}
    # a file with its own [params] keeps them, and its own spin_model is replaced
    own = compare_spin_models.with_spin_model(text + '\n[params]\nmu = 0.02\nspin_model = "coupled"\n', model)
    assert tomllib.loads(own)["params"] == {"mu": 0.02, "spin_model": model}
    other = compare_spin_models.with_spin_model(text + "\n[params]\nmu = 0.02\n", model)
    assert tomllib.loads(other)["params"] == {"spin_model": model, "mu": 0.02}


def test_the_spin_spread_draws_the_launch_spin_into_results_of_their_own():
    text = (EXPERIMENTS / "deck-draw.toml").read_text()
    variant = tomllib.loads(compare_spin_models.with_spin_spread(text, 5.0))
    assert variant["name"] == "deck-draw-spin5"
    assert variant["distributions"] == {"spin": {"normal": [0.0, 5.0]}}
    with pytest.raises(SystemExit, match="already sweeps or draws the spin"):
        compare_spin_models.with_spin_spread(compare_spin_models.with_spin_spread(text, 5.0), 2.0)


def test_spinning_discs_change_cells_and_spin_free_ones_do_not(tmp_path, capsys):
    spinning = tmp_path / "spinning.toml"
    spinning.write_text(SPINNING.replace("SPIN", "20.0"))
    still = tmp_path / "still.toml"
    still.write_text(SPINNING.replace("SPIN", "0.0").replace('name = "spinning"', 'name = "still"'))
    figures = tmp_path / "figures"
    assert (
        compare_spin_models.main(
            [
                str(spinning),
                str(still),
                "--out",
                str(tmp_path / "results"),
                "--figures",
                str(figures),
                "--metric",
                "p_dead",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    spun, unspun = out.split("still (coupled)")
    assert "expected_value: 6 cells, 0 change" not in spun
    assert "centre of mass: speed" in spun  # p_dead is a probability: where its mass lies, per model
    assert "expected_value: 6 cells, 0 change" in unspun and "p_dead: 6 cells, 0 change" in unspun
    assert sorted(p.name for p in figures.iterdir()) == ["spinning-expected_value.png", "spinning-p_dead.png"]
    assert (tmp_path / "results" / "spinning-decoupled" / "grid.nc").is_file()
