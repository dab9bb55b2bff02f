"""The one-call chunk path of empty-board experiments gives exactly the general path's sums."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shuffle_sim.experiment import _lone_chunk as experiment_lone
from shuffle_sim.experiment._chunks import compute_chunk
from shuffle_sim.experiment.spec import parse_experiment

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

# A deck draw with distributions (uniform and normal) and an aim at a target, sampled starts near the
# side edge (some shots are not played) and cells split across chunks (7 samples, chunks of 20).
AIMED = """
name = "aimed"
court = "deck"
seed = 5
samples = 7
chunk_size = 20

[shot]
start = ["2.6 ft", "7.25 ft"]
target = ["0 ft", "37.3 ft"]
team = "yellow"

[grid]
target_y = ["35.5 ft", "37.3 ft", "39 ft"]

[distributions]
spin = { normal = [0.0, 2.0] }
start_x = { uniform = ["2.7 ft", "3.2 ft"] }

[noise]
preset = "novice"
"""


def _sums(experiment, index: int, chunk_size: int, fused: bool, monkeypatch) -> dict:
    with monkeypatch.context() as m:
        if not fused:
            m.setattr(experiment_lone, "lone_chunk_sums", lambda *args, **kwargs: None)
        return compute_chunk(experiment, index, chunk_size)


def _assert_same(a: dict, b: dict) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
        assert np.asarray(a[name]).dtype == np.asarray(b[name]).dtype, name


def _variant(name: str, samples: int):
    import re

    path = EXPERIMENTS / f"{name}.toml"
    text = re.sub(r"(?m)^samples = \d+", f"samples = {samples}", path.read_text())
    return parse_experiment(text, str(path), base_dir=path.parent)


@pytest.mark.parametrize(
    "name, samples, chunk_size",
    [
        ("deck-draw", 3, 4096),  # the README's job: grid of speed x direction
        ("crokinole-open20", 301, 500),  # aimed at the 20 hole (holed discs), a skill axis incl. "exact"
        ("horse-collar-hanger", 13, 256),  # hangers and corner hangers, a skill axis
    ],
)
def test_fused_chunks_equal_the_general_path(name, samples, chunk_size, monkeypatch):
    experiment = _variant(name, samples)
    for index in sorted({0, experiment.n_chunks(chunk_size) // 2, experiment.n_chunks(chunk_size) - 1}):
        _assert_same(
            _sums(experiment, index, chunk_size, True, monkeypatch),
            _sums(experiment, index, chunk_size, False, monkeypatch),
        )


def test_fused_chunks_with_distributions_and_unplayable_starts(monkeypatch):
    experiment = parse_experiment(AIMED)
    failed = 0
    for index in range(experiment.n_chunks()):
        fused = _sums(experiment, index, experiment.chunk_size, True, monkeypatch)
        _assert_same(fused, _sums(experiment, index, experiment.chunk_size, False, monkeypatch))
        failed += int(fused["failed"].sum())
    assert 0 < failed < experiment.n_shots  # some sampled starts fall off the side: counted, not played


def test_boards_and_records_take_the_general_path(monkeypatch):
    calls = []
    real = experiment_lone.lone_chunk_sums
    monkeypatch.setattr(experiment_lone, "lone_chunk_sums", lambda *a, **k: calls.append(1) or real(*a, **k))
    takeout = _variant("deck-takeout", 1)
    compute_chunk(takeout, 0, 64)
    assert calls == []
    compute_chunk(_variant("ricochet-bank", 1), 0, 64)  # scores only on the half opposite the start
    assert calls == []
    recorded = parse_experiment(AIMED + "\n[collect]\nrecords = true\n")
    assert "record_value" in compute_chunk(recorded, 0, 20)
    assert calls == []
    compute_chunk(parse_experiment(AIMED), 0, 20)
    assert calls == [1]


def test_one_call_for_several_chunks_gives_each_chunk_s_own_sums(monkeypatch):
    from shuffle_sim.experiment._plan import shot_plan
    from shuffle_sim.experiment.spec import possible_values

    experiment = parse_experiment(AIMED)
    chunks = list(range(experiment.n_chunks(20)))
    together = experiment_lone.lone_chunks_sums(experiment, chunks, 20, possible_values(experiment.court), shot_plan)
    assert len(together) == len(chunks)
    for index, sums in zip(chunks, together):
        _assert_same(sums, _sums(experiment, index, 20, False, monkeypatch))
    with pytest.raises(ValueError, match="consecutive"):
        experiment_lone.lone_chunks_sums(experiment, [0, 2], 20, possible_values(experiment.court), shot_plan)
