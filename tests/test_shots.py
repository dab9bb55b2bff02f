"""The batch API: many shots in one numba call, judged, equal to one-at-a-time simulation."""

import math

import numba
import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.judging import judge_batch
from shuffle_sim.physics import STATUS_FALLEN, STATUS_HOLED, STATUS_REST, simulate
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.shots import CHUNK, ShotBatch, simulate_shots

DECK = load_court("deck")
CROKINOLE = load_court("crokinole")
TABLE = load_court("horse-collar")


def deck_shots(n, seed=0):
    """Shots from the head 10-off area toward the foot, from short to over the backstop."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-0.5, 0.5, n)
    y = np.full(n, 2.2)
    speed = rng.uniform(1.0, 2.6, n)
    angle = rng.normal(0.0, 0.03, n)
    return x, y, speed * np.sin(angle), speed * np.cos(angle), rng.normal(0, 2, n)


def board():
    """Three resting discs in the foot scoring area."""
    x = np.array([0.0, -0.25, 0.2])
    y = np.array([11.3, 12.4, 12.9])
    return Scene(
        court=DECK, x=x, y=y, vx=np.zeros(3), vy=np.zeros(3), omega=np.zeros(3), team=["yellow", "black", "yellow"]
    )


def test_batch_equals_one_scene_at_a_time():
    shots = deck_shots(40)
    b = board()
    batch = simulate_shots(DECK, *shots, board=b)
    assert isinstance(batch, ShotBatch)
    assert batch.x.shape == (40, 4) and batch.status.dtype == np.int8 and batch.value.dtype == np.int64
    touched_any = False
    for k in range(40):
        scene = Scene(
            court=DECK,
            x=np.append(b.x, shots[0][k]),
            y=np.append(b.y, shots[1][k]),
            vx=np.append(np.zeros(3), shots[2][k]),
            vy=np.append(np.zeros(3), shots[3][k]),
            omega=np.append(np.zeros(3), shots[4][k]),
        )
        one = simulate(scene)
        np.testing.assert_array_equal(batch.x[k], one.x)
        np.testing.assert_array_equal(batch.y[k], one.y)
        np.testing.assert_array_equal(batch.status[k], one.status)
        assert batch.ok[k] == one.ok
        judged = one.judging()
        assert list(batch.value[k]) == [rec["value"] for rec in judged]
        assert list(batch.dead[k]) == [rec["dead"] for rec in judged]
        hit = set(one.events.a[one.events.kind == 0]) | set(one.events.b[one.events.kind == 0])
        assert set(np.flatnonzero(batch.touched[k])) == hit
        touched_any = touched_any or bool(hit)
    assert touched_any  # some shots did hit the board


def test_judging_merges_the_kernels_standing():
    # Three draws: one to the 10, one past the baseline and off the backstop (dead by C-20 and C-21
    # wherever it rests), one into the alley (fallen).
    a = DECK.params["mu"] * DECK.params["gravity"]
    r = DECK.disc_radius
    to_ten = math.sqrt(2 * a * (11.3 - 2.2))
    to_wall = math.sqrt(4.0 + 2 * a * (15.8496 - r - 2.2))
    batch = simulate_shots(
        DECK, [0.0, 0.0, 0.5], [2.2, 2.2, 2.2], [0.0, 0.0, 1.5], [to_ten, to_wall, 0.5], [0.0, 0.0, 0.0]
    )
    assert batch.value[0, 0] == 10 and not batch.dead[0, 0]
    assert batch.status[1, 0] == STATUS_REST and batch.dead[1, 0] and batch.value[1, 0] == 0
    assert judge_batch(DECK, batch.x[1], batch.y[1]).value[0] != 0  # the judge alone would have scored it
    assert batch.status[2, 0] == STATUS_FALLEN and batch.dead[2, 0] and batch.value[2, 0] == 0
    assert batch.zone[2, 0] == -1 and batch.hanger[2, 0] == 0


def test_holed_and_hanging_values():
    holed = simulate_shots(CROKINOLE, [0.0], [-0.25], [0.0], [0.8], [0.0])
    assert holed.status[0, 0] == STATUS_HOLED and holed.value[0, 0] == 20
    assert CROKINOLE.zone_names[holed.zone[0, 0]] == "20"
    far = TABLE.bounds[3]
    a = TABLE.params["mu"] * TABLE.params["gravity"]
    v = math.sqrt(2 * a * (far - TABLE.disc_radius / 2 - 0.5))
    hanging = simulate_shots(TABLE, [0.0], [0.5], [0.0], [v], [0.0])
    assert hanging.value[0, 0] == 13 and hanging.hanger[0, 0] == 1


def test_results_do_not_depend_on_threads_or_chunks():
    n = 2 * CHUNK + 7
    shots = deck_shots(n, seed=3)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_shots(DECK, *shots, board=board())
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = simulate_shots(DECK, *shots, board=board())
    finally:
        numba.set_num_threads(previous)
    for field in ("x", "y", "status", "dead", "value", "zone", "hanger", "touched", "ok"):
        np.testing.assert_array_equal(getattr(one, field), getattr(many, field))
    # A shot's result does not depend on its neighbours in the batch either.
    alone = simulate_shots(DECK, *(s[CHUNK + 1 : CHUNK + 2] for s in shots), board=board())
    np.testing.assert_array_equal(alone.x[0], one.x[CHUNK + 1])


def test_empty_batch():
    batch = simulate_shots(DECK, [], [], [], [], [])
    assert batch.x.shape == (0, 1) and batch.ok.shape == (0,)


def test_board_velocities_are_ignored():
    moving = board()
    moving.vx[:] = 5.0
    shots = deck_shots(5)
    np.testing.assert_array_equal(
        simulate_shots(DECK, *shots, board=moving).x, simulate_shots(DECK, *shots, board=board()).x
    )


def test_event_bound_marks_a_shot_not_ok():
    court = DECK.with_params(mu=0.0, cushion_restitution=1.0)
    batch = simulate_shots(court, [0.0, 0.0], [5.0, 5.0], [0.0, 0.0], [3.0, 3.0], [0.0, 0.0], max_events=20)
    assert not batch.ok.any()


@pytest.mark.parametrize(
    "field, index, value, message",
    [
        ("vx", 2, math.nan, r"vx\[2\] must be finite"),
        ("omega", 1, math.inf, r"omega\[1\] must be finite"),
        ("x", 3, 5.0, r"shot 3 at x\[3\]=5.0.* is off the surface"),
        ("y", 0, 11.3, r"shot 0 .* overlaps board disc 0"),
    ],
)
def test_bad_shots_are_named(field, index, value, message):
    shots = dict(zip(("x", "y", "vx", "vy", "omega"), (np.array(s) for s in deck_shots(4))))
    shots[field][index] = value
    if field == "y":
        shots["x"][index] = 0.01
    with pytest.raises(ValueError, match=message):
        simulate_shots(DECK, board=board(), **shots)


def test_shot_on_a_peg_and_mismatched_lengths_are_rejected():
    peg = CROKINOLE.pegs[2]
    with pytest.raises(SceneError, match=r"shot 0 .* overlaps the peg 'pegs 3'"):
        simulate_shots(CROKINOLE, [peg.x], [peg.y], [0.0], [0.0], [0.0])
    with pytest.raises(ValueError, match=r"vy must have one entry per shot \(2\), got 1"):
        simulate_shots(DECK, [0.0, 0.1], [1.0, 1.0], [0.0, 0.0], [1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="max_events"):
        simulate_shots(DECK, [0.0], [1.0], [0.0], [1.0], [0.0], max_events=0)


def test_bad_board_is_rejected():
    b = board()
    b.x[1] = b.x[0] + 0.01
    b.y[1] = b.y[0]
    with pytest.raises(SceneError, match="overlap"):
        simulate_shots(DECK, [0.0], [1.0], [0.0], [1.0], [0.0], board=b)


FIELDS = ("x", "y", "status", "dead", "value", "zone", "hanger", "touched", "ok")


@pytest.mark.parametrize("with_board", [False, True])
def test_results_written_into_a_reused_batch_are_the_same(with_board):
    shots = deck_shots(300, seed=5)
    kwargs = {"board": board()} if with_board else {}
    fresh = simulate_shots(DECK, *shots, **kwargs)
    out = ShotBatch.empty(300, fresh.x.shape[1])
    for field in FIELDS:  # stale contents from "an earlier batch": every entry must be overwritten
        getattr(out, field).view(np.uint8)[...] = 0xA5
    returned = simulate_shots(DECK, *shots, out=out, **kwargs)
    assert returned is out
    for field in FIELDS:
        np.testing.assert_array_equal(getattr(out, field), getattr(fresh, field))
    other = deck_shots(300, seed=6)
    again = simulate_shots(DECK, *other, out=out, **kwargs)
    for field in FIELDS:
        np.testing.assert_array_equal(getattr(again, field), getattr(simulate_shots(DECK, *other, **kwargs), field))


@pytest.mark.parametrize(
    "field, replacement, message",
    [
        ("x", np.empty((5, 2)), r"out\.x must be an array of float64 with shape \(4, 1\) \(got float64 \(5, 2\)\)"),
        ("value", np.empty((4, 1), np.int32), r"out\.value must be an array of int64 with shape \(4, 1\) \(got int32"),
        ("ok", [True] * 4, r"out\.ok must be an array of bool with shape \(4,\) \(got list\)"),
        ("zone", np.empty((8, 1), np.int64)[::2], r"out\.zone must be C-contiguous and writeable"),
        ("dead", np.broadcast_to(np.zeros(1, np.bool_), (4, 1)), r"out\.dead must be C-contiguous and writeable"),
    ],
)
def test_a_batch_that_does_not_fit_is_named(field, replacement, message):
    out = ShotBatch.empty(4, 1)
    setattr(out, field, replacement)
    with pytest.raises(ValueError, match=message):
        simulate_shots(DECK, *deck_shots(4), out=out)


def test_skipped_starts_leave_the_board_as_it_lay_and_play_the_rest():
    b = board()
    shots = [np.array(s) for s in deck_shots(6, seed=8)]
    shots[0][1] = 5.0  # off the surface
    shots[0][3], shots[1][3] = b.x[0] + 0.01, b.y[0]  # on board disc 0
    batch = simulate_shots(DECK, *shots, board=b, bad_starts="skip")
    assert list(batch.played) == [True, False, True, False, True, True]
    assert not batch.ok[1] and not batch.ok[3]
    for k in (1, 3):
        np.testing.assert_array_equal(batch.x[k, :3], b.x)
        np.testing.assert_array_equal(batch.y[k, :3], b.y)
        assert list(batch.status[k]) == [STATUS_REST] * 3 + [STATUS_FALLEN]
        assert batch.dead[k, 3] and batch.value[k, 3] == 0 and batch.zone[k, 3] == -1 and not batch.touched[k].any()
        resting = judge_batch(DECK, b.x, b.y)
        np.testing.assert_array_equal(batch.value[k, :3], resting.value)
    played = [0, 2, 4, 5]
    alone = simulate_shots(DECK, *(s[played] for s in shots), board=b)
    for field in FIELDS:
        np.testing.assert_array_equal(getattr(batch, field)[played], getattr(alone, field))
    assert alone.played.all()


def test_a_skipped_start_on_the_empty_board_and_bad_values_still_raise():
    shots = [np.array(s) for s in deck_shots(3, seed=9)]
    shots[0][2] = -2.0  # off the surface
    batch = simulate_shots(DECK, *shots, bad_starts="skip")
    assert list(batch.played) == [True, True, False] and list(batch.ok) == [True, True, False]
    assert batch.status[2, 0] == STATUS_FALLEN and batch.dead[2, 0] and batch.value[2, 0] == 0
    assert (batch.x[2, 0], batch.y[2, 0]) == (-2.0, shots[1][2])
    with pytest.raises(SceneError, match=r"shot 2 .* is off the surface"):
        simulate_shots(DECK, *shots)
    shots[3][1] = math.nan
    with pytest.raises(ValueError, match=r"vy\[1\] must be finite"):
        simulate_shots(DECK, *shots, bad_starts="skip")
    with pytest.raises(ValueError, match="bad_starts must be 'raise' or 'skip'"):
        simulate_shots(DECK, *shots, bad_starts="ignore")


@pytest.mark.parametrize("with_board", [False, True])
def test_the_parallel_kernels_for_numba_code_give_the_batch_s_results(with_board):
    """``play_lone_shots`` and ``play_board_shots`` (one parallel numba call) play and judge a batch
    exactly as ``simulate_shots`` does through its share kernels."""
    from shuffle_sim.judging.batch import cached_judge_index
    from shuffle_sim.judging.packing import judge_arrays
    from shuffle_sim.physics.numba_api import court_law, court_motion
    from shuffle_sim.shots import play_board_shots, play_lone_shots

    n = CHUNK + 9
    shots = deck_shots(n, seed=5)
    resting = board() if with_board else None
    expected = simulate_shots(DECK, *shots, board=resting)
    d = 4 if with_board else 1
    out = ShotBatch.empty(n, d)
    board_x = resting.x if with_board else np.empty(0)
    board_y = resting.y if with_board else np.empty(0)
    ja = judge_arrays(DECK)
    prepared, index = cached_judge_index(ja, n * d)
    outs = (out.x, out.y, out.status, out.dead, out.value, out.zone, out.hanger, out.touched, out.ok, out.played)
    play = play_board_shots if with_board else play_lone_shots
    problem = np.empty(n, np.int8)
    play(court_law(DECK), court_motion(DECK), ja, prepared, index, board_x, board_y, shots, 10_000, outs, problem)
    for field in ("x", "y", "status", "dead", "value", "zone", "hanger", "touched", "ok", "played"):
        np.testing.assert_array_equal(getattr(out, field), getattr(expected, field), err_msg=field)
