"""Physics fuzz at scale: 100,000 random scenes a run through the scene batch API (``shuffle_sim.reference.fuzz``).

25,000 scenes of 1 to 16 discs on each of the four courts, each with its own random materials, run on
two numba threads and on one; every scene must end before the event bound, finite, with every disc
at rest, fallen or holed and none moving, no resting discs overlapping each other or a cushion or peg
by more than 1e-9 m, and bit-identical on both thread counts. A failing scene is written to a JSON
scene file that ``shuffle-sim simulate`` replays; its path and contents are in the failure message.

The seed is fixed (``SHUFFLE_SIM_FUZZ_SEED`` overrides it, to fuzz other scenes). Spin models are a
parameter: a second model is fuzzed by adding its name to ``fuzz.SPIN_MODELS``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from shuffle_sim.cli import main
from shuffle_sim.court import load_court
from shuffle_sim.physics import STATUS_FALLEN, STATUS_HOLED, STATUS_MOVING, STATUS_REST, simulate
from shuffle_sim.physics.faces.scene_batch import MATERIALS, PADDING, Scenes, simulate_scenes
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.reference.fuzz import (
    BAD_STATUS,
    DISCS_OVERLAP,
    EVENT_BOUND,
    LEFT_MOVING,
    MAX_DISCS,
    NOT_FINITE,
    ON_OBSTACLE,
    OVERLAP_LIMIT,
    PASSED,
    SPIN_MODELS,
    check_scenes,
    fuzz_court,
    random_scenes,
    threads_differ,
)

COURTS = ("deck", "horse-collar", "ricochet", "crokinole")
SCENES_PER_COURT = 25_000
SEED = int(os.environ.get("SHUFFLE_SIM_FUZZ_SEED", "20261201"))
DATA = Path(__file__).parent / "data"


@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("spin_model", SPIN_MODELS)
@pytest.mark.parametrize("name", COURTS)
def test_random_scenes_at_scale_keep_the_invariants(name, spin_model, tmp_path):
    report = fuzz_court(load_court(name), SCENES_PER_COURT, SEED, spin_model, failures_dir=tmp_path)
    assert report.n_scenes == SCENES_PER_COURT and report.max_discs == MAX_DISCS
    if report.failures:
        first = report.files[0]
        pytest.fail(f"{report.summary()}\n{first.name}:\n{first.read_text()}")
    assert report.max_events < 10_000


def test_every_spin_model_is_fuzzed_and_no_other():
    with pytest.raises(ValueError, match="spin_model must be one of"):
        fuzz_court(load_court("crokinole"), 10, SEED, "no-such-model")


@pytest.mark.parametrize("name", COURTS)
def test_the_batch_is_physics_simulate_bit_for_bit(name):
    scenes = random_scenes(load_court(name), 150, SEED + 1)
    batch = simulate_scenes(scenes)
    for k in range(len(scenes)):
        result = simulate(scenes.scene(k))
        n = int(scenes.n_discs[k])
        for field in ("x", "y", "vx", "vy", "omega", "status", "dead"):
            np.testing.assert_array_equal(getattr(batch, field)[k, :n], getattr(result, field), err_msg=f"{k} {field}")
        assert batch.ok[k] == result.ok and batch.t_end[k] == result.t_end
        assert (batch.status[k, n:] == PADDING).all() and np.isnan(batch.x[k, n:]).all()


def test_a_failing_scene_is_written_to_a_file_that_simulate_replays(tmp_path, capsys):
    """An event bound of 5 makes many scenes fail: each failure is a scene file, and ``shuffle-sim
    simulate`` on it reproduces the failure and the batch's final state bit for bit."""
    court = load_court("crokinole")
    report = fuzz_court(court, 200, SEED, failures_dir=tmp_path, max_events=5, max_files=3)
    assert len(report.failures) > 3 and set(report.failures.values()) == {"reached the event bound"}
    assert len(report.files) == 3 and all(path.parent == tmp_path for path in report.files)
    assert "replay: shuffle-sim simulate" in report.summary()
    batch = simulate_scenes(random_scenes(court.with_params(spin_model="decoupled"), 200, SEED), max_events=5)
    for path in report.files:
        k = int(path.stem.rsplit("-k", 1)[1])
        assert (
            path.with_suffix(".txt").read_text().startswith(f"crokinole, spin model decoupled, seed {SEED}, scene {k}")
        )
        assert main(["simulate", str(path), "--max-events", "5", "--json"]) == 1  # 1: stopped at the event bound
        replay = json.loads(capsys.readouterr().out)
        assert not replay["ok"]
        for i, disc in enumerate(replay["discs"]):
            assert (disc["x"], disc["y"], disc["vx"], disc["vy"], disc["omega"]) == (
                batch.x[k, i],
                batch.y[k, i],
                batch.vx[k, i],
                batch.vy[k, i],
                batch.omega[k, i],
            )
        # Without the artificial bound the same file runs to rest.
        assert main(["simulate", str(path)]) == 0
        capsys.readouterr()


def test_the_checks_catch_each_kind_of_failure():
    court = load_court("horse-collar")
    scenes = random_scenes(court, 400, SEED + 2)
    batch = simulate_scenes(scenes)
    assert (check_scenes(scenes, batch) == PASSED).all()
    r = court.disc_radius
    two = int(np.flatnonzero((scenes.n_discs >= 2) & (batch.status[:, :2] == STATUS_REST).all(axis=1))[0])
    doctored = {}

    def doctor(code, k, change):
        change(k)
        doctored[k] = code

    def overlap(k):
        batch.x[k, 1] = batch.x[k, 0] + 2 * r - 2e-9
        batch.y[k, 1] = batch.y[k, 0]

    doctor(DISCS_OVERLAP, two, overlap)
    ks = iter(k for k in range(len(scenes)) if k != two)
    doctor(EVENT_BOUND, next(ks), lambda k: batch.ok.__setitem__(k, False))
    doctor(NOT_FINITE, next(ks), lambda k: batch.y.__setitem__((k, 0), np.nan))
    doctor(BAD_STATUS, next(ks), lambda k: batch.status.__setitem__((k, 0), STATUS_MOVING))
    doctor(LEFT_MOVING, next(ks), lambda k: batch.omega.__setitem__((k, 0), 1e-300))

    codes = check_scenes(scenes, batch)
    for k, code in doctored.items():
        assert codes[k] == code, (k, codes[k], code)
    assert (np.delete(codes, list(doctored)) == PASSED).all()
    # A resting disc pushed into a peg (or a cushion) is caught.
    crok = load_court("crokinole")
    one = Scenes(court=crok, x=[[0.2]], y=[[0.0]], vx=[[0.0]], vy=[[0.0]], omega=[[0.0]], n_discs=[1])
    rest = simulate_scenes(one)
    assert rest.status[0, 0] == STATUS_REST and check_scenes(one, rest)[0] == PASSED
    peg = crok.pegs[0]
    rest.x[0, 0] = peg.x + peg.radius + crok.disc_radius - 2e-9
    rest.y[0, 0] = peg.y
    assert check_scenes(one, rest)[0] == ON_OBSTACLE
    rest.x[0, 0] = peg.x + peg.radius + crok.disc_radius
    assert check_scenes(one, rest)[0] == PASSED
    # Fallen and holed discs may lie anywhere, even on one another.
    rest.status[0, 0] = STATUS_HOLED
    assert check_scenes(one, rest)[0] == PASSED


def test_one_bit_of_difference_between_thread_counts_is_caught():
    scenes = random_scenes(load_court("ricochet"), 50, SEED)
    one, two = simulate_scenes(scenes), simulate_scenes(scenes)
    assert not threads_differ(one, two).any()
    two.x[7, 0] = np.nextafter(two.x[7, 0], np.inf)
    two.events[9] += 1
    assert list(np.flatnonzero(threads_differ(one, two))) == [7, 9]
    head = simulate_scenes(random_scenes(load_court("ricochet"), 8, SEED))
    head.x[7, 0] = np.nextafter(head.x[7, 0], np.inf)
    assert list(np.flatnonzero(threads_differ(one, head))) == [7]  # the first scenes of one only


def test_a_rerun_of_the_first_scenes_checks_the_thread_counts_on_them(tmp_path):
    court = load_court("crokinole")
    report = fuzz_court(court, 60, SEED, "coupled", failures_dir=tmp_path, rerun=12)
    assert report.n_scenes == 60 and not report.failures
    with pytest.raises(ValueError, match="rerun must be a number of scenes, 0 or more"):
        fuzz_court(court, 10, SEED, "coupled", rerun=-1)


def test_scenes_are_a_pure_function_of_seed_and_index():
    court = load_court("deck")
    whole = random_scenes(court, 300, SEED)
    part = random_scenes(court, 100, SEED, first=150)
    for field in ("x", "y", "vx", "vy", "omega", "n_discs", "materials"):
        np.testing.assert_array_equal(getattr(part, field), getattr(whole, field)[150:250])
    other = random_scenes(court, 300, SEED + 1)
    assert not np.array_equal(other.x, whole.x)
    # Both layouts occur, every disc count from 1 to 16, materials within their ranges.
    assert set(whole.n_discs) == set(range(1, MAX_DISCS + 1))
    mu = court.params["mu"]
    assert (whole.materials[:, 0] >= mu / 2).all() and (whole.materials[:, 0] <= 2 * mu).all()
    assert (whole.materials[:, 1::2] <= 1).all() and (whole.materials[:, 2::2] <= 0.5).all()
    gaps = [
        np.hypot(whole.x[k, 0] - whole.x[k, 1], whole.y[k, 0] - whole.y[k, 1])
        for k in range(300)
        if whole.n_discs[k] >= 3
    ]
    assert min(gaps) == pytest.approx(2 * court.disc_radius, abs=1e-12)  # touching clusters


def test_scene_batch_input_errors_name_the_scene_and_disc():
    court = load_court("crokinole")
    r = court.disc_radius

    def scenes(x, y, n=None, materials=None):
        x, y = np.atleast_2d(x), np.atleast_2d(y)
        zero = np.zeros_like(x)
        return Scenes(
            court=court,
            x=x,
            y=y,
            vx=zero,
            vy=zero,
            omega=zero,
            n_discs=np.full(x.shape[0], x.shape[1]) if n is None else n,
            materials=materials,
        )

    with pytest.raises(SceneError, match=r"scene 1: discs\[1\] at x=1.0, y=0.0 is off the surface"):
        simulate_scenes(scenes([[0.0, 0.05], [0.05, 1.0]], [[0.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(SceneError, match=r"scene 0: discs\[1\] .* overlaps an earlier disc"):
        simulate_scenes(scenes([[0.1, 0.1 + r]], [[0.0, 0.0]]))
    with pytest.raises(SceneError, match=r"scene 0: discs\[0\].x must be finite"):
        simulate_scenes(scenes([[np.inf]], [[0.0]]))
    peg = court.pegs[0]
    with pytest.raises(SceneError, match=r"scene 0: discs\[0\] .* overlaps the peg"):
        simulate_scenes(scenes([[peg.x]], [[peg.y + r]]))
    with pytest.raises(ValueError, match=r"n_discs\[0\] must lie in 1..2 \(got 3\)"):
        scenes([[0.0, 0.1]], [[0.0, 0.0]], n=np.array([3]))
    bad = np.full((1, len(MATERIALS)), np.nan)
    bad[0, MATERIALS.index("peg_restitution")] = 1.5
    with pytest.raises(ValueError, match=r"materials\[0\].peg_restitution must lie in \[0, 1\] \(got 1.5\)"):
        scenes([[0.0]], [[0.0]], materials=bad)
    # Padding beyond n_discs is ignored, whatever it holds.
    batch = simulate_scenes(scenes([[0.0, np.nan]], [[0.0, 5.0]], n=np.array([1])))
    assert batch.ok[0] and batch.status[0, 1] == PADDING


def _ends_without_a_storm(name: str, per_instant: int) -> None:
    """The scene file ``name`` runs to rest in under 1,000 events, at most ``per_instant`` at one time."""
    result = simulate(Scene.from_json(DATA / name))
    assert result.ok and len(result.events) < 1_000
    assert set(result.status) <= {STATUS_REST, STATUS_FALLEN, STATUS_HOLED}
    _, counts = np.unique(result.events.t, return_counts=True)
    assert counts.max() < per_instant


def test_a_pinched_disc_with_little_restitution_ends_without_an_event_storm():
    """Found by the fuzz: a shooter driven into a touching chain with restitution 0.018 pinched disc 0
    between discs 8 and 1, and pairwise impulses at one instant took 10,597 events to die out (past the
    default bound of 10,000). The kernel now merges the touching group after 256 impacts at an instant."""
    _ends_without_a_storm("storm-pinched-disc.json", per_instant=300)


def test_a_group_pressed_into_a_cushion_by_the_grade_rides_it():
    """Found by the fuzz on curved courts at scale (the crowned deck, coupled model, seed 20261202,
    scene 2292; about one scene in a thousand on the crowned deck and ricochet table): two discs pushed
    together and into a cushion by the crown met it, split, merged and met it again every 0.2 ms, 62
    impacts each time, up to the event bound. A group that meets a cushion slowly now rides it whole."""
    _ends_without_a_storm("group-pressed-into-cushion.json", per_instant=60)


def test_a_pair_that_parts_and_returns_does_not_sink_deeper_each_time():
    """Found by the fuzz (decoupled spin model): discs 6 and 9 of this scene, turned together by their
    friction, parted and met again ten times; each meeting was predicted from the last one's overlap less 1e-10 m, so
    they
    came to rest overlapping by 1.00000005e-9 m. A returning pair now collides at contact."""
    scene = Scene.from_json(DATA / "overlap-ratchet-pair.json")
    result = simulate(scene)
    assert result.ok and result.status[6] == result.status[9] == STATUS_REST
    meetings = np.flatnonzero((result.events.a == 6) & (result.events.b == 9))
    assert len(meetings) >= 10
    gap = np.hypot(result.x[6] - result.x[9], result.y[6] - result.y[9]) - 2 * scene.court.disc_radius
    assert gap > -1e-12


def test_a_coupled_pair_that_parts_and_returns_meets_at_contact():
    """Found by the fuzz under the coupled spin model (scene 21060 of the deck, seed 20261201): two
    discs touching, parting and meeting again came to rest 1.2e-9 m deep, each return measured from
    the last overlap. A returning coupled pair now collides at contact too."""
    scene = Scene.from_json(DATA / "coupled-pair-return.json")
    assert scene.court.params["spin_model"] == "coupled"
    result = simulate(scene)
    r = scene.court.disc_radius
    resting = np.flatnonzero(result.status == STATUS_REST)
    gaps = [
        np.hypot(result.x[a] - result.x[b], result.y[a] - result.y[b]) - 2 * r
        for k, a in enumerate(resting)
        for b in resting[k + 1 :]
    ]
    assert result.ok and min(gaps) > -OVERLAP_LIMIT


def test_a_scene_batch_with_too_little_friction_for_the_grade_says_so_in_players_words():
    court = load_court("deck").with_params(slope=[0.0, 0.005])
    materials = np.full((2, len(MATERIALS)), np.nan)
    materials[1, MATERIALS.index("mu")] = 0.003
    zero = np.zeros((2, 1))
    scenes = Scenes(
        court=court,
        x=zero,
        y=np.full((2, 1), 3.0),
        vx=zero,
        vy=zero,
        omega=zero,
        n_discs=np.ones(2, int),
        materials=materials,
    )
    with pytest.raises(
        SceneError,
        match=r"scene 1: materials.mu 0.003 is too little friction for court 'deck': its surface falls 0.06 in per "
        r"foot \(1 in 200\) at .*; the court needs mu above 0.005: a disc would never come to rest",
    ):
        simulate_scenes(scenes)
