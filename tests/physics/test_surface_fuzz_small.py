"""The curved courts' fuzz at small scale, in the default lane: the same check as
``test_surface_scenes.test_random_scenes_on_curved_courts_keep_the_invariants`` (the scale lane's,
100,000 scenes) on a few hundred scenes, with the thread check on a fifth of them."""

import pytest

from shuffle_sim.court import load_court
from shuffle_sim.reference.fuzz import fuzz_court

from .test_surface_scenes import SURFACES

#: Scenes per court and spin model (the scale lane runs 12,500).
SMALL_FUZZ_SCENES = 40


@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("spin_model", ["decoupled", "coupled"])
@pytest.mark.parametrize("name", list(SURFACES))
def test_a_few_random_scenes_on_curved_courts_keep_the_invariants(name, spin_model, tmp_path):
    court = load_court(name).with_params(**SURFACES[name])
    report = fuzz_court(
        court, SMALL_FUZZ_SCENES, 20261202, spin_model, failures_dir=tmp_path, rerun=SMALL_FUZZ_SCENES // 5
    )
    assert report.n_scenes == SMALL_FUZZ_SCENES
    if report.failures:
        first = report.files[0]
        pytest.fail(f"{report.summary()}\n{first.name}:\n{first.read_text()}")
    assert report.max_events < 10_000
