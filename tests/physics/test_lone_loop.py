"""The lone-disc event loop and the shortcuts of the fast paths: the same answers as the general code.

``physics.lone.run_lone`` must reproduce the kernel's own loop (``kernel.run_table``) for a scene of
one disc bit for bit: final state, status, standing, event count and end time, on every court, with
every kind of event (stops, spin stops, cushions, pegs, falls, holes, kill lines) and at the event
bound. The batch API plays a shot on an empty board through it, so it is also compared, shot by shot,
with ``simulate``. The shortcuts that skip a division or a ``hypot`` (``toi.surely_beyond``,
``toi.line_passing_within``, ``geometry.band_within_framed``) are checked against the plain formulas
right at their boundaries.
"""

import math
import struct

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.court.geometry import band_distance_framed, band_within_framed, segment_frame
from shuffle_sim.judging.batch import cached_judge_index
from shuffle_sim.judging.cell_grid import judge_index
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.judging.procedure import judge_prepare
from shuffle_sim.physics import obstacle_at_start, simulate
from shuffle_sim.physics.laws.closed_form.disc_state import disc_state, load_disc
from shuffle_sim.physics.laws.closed_form.lone import run_lone
from shuffle_sim.physics.laws.closed_form.slide import N_FLOAT_ROWS, N_INT_ROWS, reference_state
from shuffle_sim.physics.laws.closed_form.toi import edge_crossing, line_passing, line_passing_within, surely_beyond
from shuffle_sim.physics.loop import run_table
from shuffle_sim.physics.numba_api import CHUNK
from shuffle_sim.physics.scene import Scene
from shuffle_sim.physics.state import DEAD, EV_COLUMNS, SEG_COLUMNS, STATUS
from shuffle_sim.physics.tables.court_table import CUSHION_SEGMENT, F_KIND, F, pack_court
from shuffle_sim.physics.tables.packing import kernel_arrays
from shuffle_sim.shots import simulate_shots

COURTS = [("deck", None), ("deck", "head"), ("horse-collar", None), ("ricochet", None), ("crokinole", None)]
TOP_SPEED = {"deck": 6.0, "horse-collar": 4.0, "ricochet": 4.0, "crokinole": 2.5}


def court_params():
    """Every court in both spin models (Farkas et al.'s coupled friction, and the decoupled model)."""
    return [
        pytest.param(load_court(name, end=end).with_params(spin_model=model), id=f"{name}-{end or 'default'}-{model}")
        for name, end in COURTS
        for model in ("coupled", "decoupled")
    ]


def random_shots(court, n, seed):
    """Shots from random places on the surface (clear of cushions and pegs), in every direction, from
    at rest to fast enough to reach every cushion, edge, hole and kill line, with spin."""
    rng = np.random.default_rng(seed)
    xmin, ymin, xmax, ymax = court.bounds
    rows = []
    while len(rows) < n:
        x, y = rng.uniform(xmin, xmax), rng.uniform(ymin, ymax)
        if not court.on_surface(x, y) or obstacle_at_start(court, x, y) is not None:
            continue
        speed = 0.0 if rng.uniform() < 0.05 else rng.uniform(0.0, TOP_SPEED[court.name])
        angle = rng.uniform(0.0, 2.0 * math.pi)
        omega = 0.0 if rng.uniform() < 0.2 else rng.normal(0.0, 5.0)
        rows.append((x, y, speed * math.cos(angle), speed * math.sin(angle), omega))
    return tuple(np.ascontiguousarray(c) for c in np.array(rows).T)


def both_loops(court, shots, max_events):
    """Each shot through ``run_lone`` and through the event loop with one disc (``run_table``):
    rows of (x, y, vx, vy, omega, status, dead, ok, t_end, events processed)."""
    ka = kernel_arrays(court)
    table = pack_court(ka)
    n = shots[0].size
    lone = np.empty((n, 10))
    kernel = np.empty((n, 10))
    st = np.empty((N_FLOAT_ROWS, 1))
    ist = np.empty((N_INT_ROWS, 1), np.int64)
    no_events = np.empty((0, EV_COLUMNS))
    no_segments = np.empty((0, SEG_COLUMNS))
    for k in range(n):
        x, y, vx, vy, w = (float(c[k]) for c in shots)
        lone[k] = run_lone(table, ka.orbit_tables, x, y, vx, vy, w, max_events)
        load_disc(ka, st, ist, 0, x, y, vx, vy, w)
        _, _, ok, t_end, processed = run_table(
            table, ka.orbit_tables, st, ist, np.full((1, 1), np.inf), no_events, no_segments, max_events
        )
        kernel[k, :5] = disc_state(ka, st, ist, 0, t_end)
        kernel[k, 5:] = ist[STATUS, 0], ist[DEAD, 0] != 0, ok, t_end, processed
    return lone, kernel


@pytest.mark.parametrize("court", court_params())
def test_lone_loop_is_the_kernels_loop_bit_for_bit(court):
    shots = random_shots(court, 3000, seed=1)
    lone, kernel = both_loops(court, shots, 10_000)
    np.testing.assert_array_equal(lone.view(np.int64), kernel.view(np.int64))  # bit for bit, -0.0 too
    status = kernel[:, 5].astype(int)
    # The shots met the court's features: rests, falls (and holes on the crokinole board), kills.
    assert (status == 1).any() and (status == 2).any()
    if court.holes:
        assert (status == 3).any()
    if court.kill_lines:
        assert kernel[:, 6].any()


@pytest.mark.parametrize("max_events", [1, 2, 3, 5])
def test_lone_loop_stops_at_the_event_bound_like_the_kernel(max_events):
    # Decoupled: its spin stops are separate events, so a few events reach the bound.
    court = load_court("crokinole").with_params(spin_model="decoupled")
    shots = random_shots(court, 1000, seed=2)
    lone, kernel = both_loops(court, shots, max_events)
    np.testing.assert_array_equal(lone.view(np.int64), kernel.view(np.int64))
    assert (kernel[:, 7] == 0).any() and (kernel[:, 7] == 1).any()  # some hit the bound, some did not


def test_lone_loop_without_friction_bounces_until_the_bound():
    court = load_court("deck").with_params(mu=0.0, cushion_restitution=1.0)
    shots = (
        np.array([0.0, 0.3]),
        np.array([5.0, 7.0]),
        np.array([0.0, 0.0]),
        np.array([3.0, -2.0]),
        np.array([0.0, 0.0]),
    )
    lone, kernel = both_loops(court, shots, 50)
    np.testing.assert_array_equal(lone.view(np.int64), kernel.view(np.int64))
    assert not kernel[:, 7].any() and (kernel[:, 9] == 50).all()


@pytest.mark.parametrize("court", court_params())
def test_batch_on_an_empty_board_equals_simulate(court):
    shots = random_shots(court, 150, seed=3)
    batch = simulate_shots(court, *shots)
    for k in range(shots[0].size):
        one = simulate(
            Scene(
                court=court,
                x=shots[0][k : k + 1],
                y=shots[1][k : k + 1],
                vx=shots[2][k : k + 1],
                vy=shots[3][k : k + 1],
                omega=shots[4][k : k + 1],
            )
        )
        assert batch.x[k, 0] == one.x[0] and batch.y[k, 0] == one.y[0]
        assert batch.status[k, 0] == one.status[0] and batch.ok[k] == one.ok
        record = one.judging()[0]
        assert batch.value[k, 0] == record["value"] and batch.dead[k, 0] == record["dead"]
        assert not batch.touched[k, 0]


def test_empty_board_batch_is_the_same_on_any_thread_count_and_chunking():
    court = load_court("crokinole")
    shots = random_shots(court, 3 * CHUNK + 7, seed=4)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_shots(court, *shots)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = simulate_shots(court, *shots)
    finally:
        numba.set_num_threads(previous)
    alone = simulate_shots(court, *(s[CHUNK + 1 : CHUNK + 2] for s in shots))
    for field in ("x", "y", "status", "dead", "value", "zone", "hanger", "touched", "ok"):
        np.testing.assert_array_equal(getattr(one, field), getattr(many, field))
        np.testing.assert_array_equal(getattr(alone, field)[0], getattr(one, field)[CHUNK + 1])


def test_the_table_holds_the_cushion_frames_the_solver_would_compute():
    court = load_court("ricochet")
    table = pack_court(kernel_arrays(court))
    rows = [r for r in range(1, table.shape[0]) if table[r, F_KIND] == CUSHION_SEGMENT]
    assert rows
    for r in rows:
        assert tuple(table[r, F + 8 : F + 11]) == segment_frame(*table[r, F : F + 4])


def test_reference_state_at_rest_skips_nothing_that_matters():
    ux, uy, speed, omega, t_stop, t_spin = reference_state(2.5, 1.0, 1.0, 0.0, 0.0, 0.0, 0.15, 2.0)
    assert (ux, uy, speed, omega, t_stop, t_spin) == (0.0, 0.0, 0.0, 0.0, 2.5, math.inf)
    ux, uy, speed, omega, t_stop, t_spin = reference_state(0.0, 1.0, 1.0, 3.0, -4.0, 1e-13, 0.5, 2.0)
    assert (ux, uy, speed, omega, t_stop, t_spin) == (0.6, -0.8, 5.0, 0.0, 10.0, math.inf)


# ---- the shortcuts, at their boundaries ------------------------------------------------------------

finite = st.floats(-10.0, 10.0, allow_nan=False)
positive = st.floats(1e-6, 10.0, allow_nan=False)
nudge = st.sampled_from([0.0, 1.0, -1.0, 2.0, -2.0, 1e3, -1e3, 1e6, -1e6])


def _ulps(value, n):
    """A value >= 0 moved by n units in the last place (through the subnormals near 0); -1.0 below 0."""
    bits = struct.unpack("<q", struct.pack("<d", abs(value)))[0] + int(n)
    return struct.unpack("<d", struct.pack("<q", bits))[0] if bits >= 0 else -1.0


@given(distance=st.floats(0.0, 10.0), rate=positive, nudged=nudge)
@settings(max_examples=300, deadline=None)
def test_surely_beyond_is_never_wrong(distance, rate, nudged):
    # reach right at the quotient, a few units in the last place either side, or well away
    reach = _ulps(distance / rate, nudged)
    if reach < 0.0:
        return
    if surely_beyond(distance, reach, rate):
        assert distance / rate > reach


@given(
    qx=finite,
    qy=finite,
    angle=st.floats(0.0, 2 * math.pi),
    px=finite,
    py=finite,
    normal=st.floats(0.0, 2 * math.pi),
    nudged=nudge,
)
@settings(max_examples=300, deadline=None)
def test_line_passing_within_agrees_with_line_passing_up_to_reach(qx, qy, angle, px, py, normal, nudged):
    ux, uy, nx, ny = math.cos(angle), math.sin(angle), math.cos(normal), math.sin(normal)
    exact = line_passing(qx, qy, ux, uy, px, py, nx, ny)
    reach = _ulps(exact, nudged) if math.isfinite(exact) else 5.0
    if reach < 0.0:
        return
    within = line_passing_within(qx, qy, ux, uy, px, py, nx, ny, reach)
    if exact <= reach:
        assert within == exact
    else:
        assert within == exact or within == math.inf


def _edge_crossing_reference(qx, qy, ux, uy, x0, y0, x1, y1, reach):
    """``toi.edge_crossing`` as it was before its shortcut: the plain formula, always dividing."""
    ex, ey = x1 - x0, y1 - y0
    rate = -ux * ey + uy * ex
    if rate >= 0.0:
        return math.inf
    inward = -(qx - x0) * ey + (qy - y0) * ex
    length2 = ex * ex + ey * ey
    if inward < 0.0 and inward * inward > 1e-18 * length2:
        return math.inf
    s = max(0.0, inward) / -rate
    if s > reach:
        return math.inf
    a = (qx - x0) * ex + (qy - y0) * ey + s * (ux * ex + uy * ey)
    if 0.0 <= a <= length2:
        return s
    tol = 1e-9 * math.sqrt(length2)
    return s if -tol <= a <= length2 + tol else math.inf


@given(
    qx=finite, qy=finite, angle=st.floats(0.0, 2 * math.pi), x0=finite, y0=finite, x1=finite, y1=finite, nudged=nudge
)
@settings(max_examples=300, deadline=None)
def test_edge_crossing_shortcut_changes_nothing(qx, qy, angle, x0, y0, x1, y1, nudged):
    if (x0, y0) == (x1, y1):
        return
    ux, uy = math.cos(angle), math.sin(angle)
    unbounded = _edge_crossing_reference(qx, qy, ux, uy, x0, y0, x1, y1, math.inf)
    reach = _ulps(unbounded, nudged) if math.isfinite(unbounded) else 3.0
    if reach < 0.0:
        return
    assert edge_crossing(qx, qy, ux, uy, x0, y0, x1, y1, reach) == _edge_crossing_reference(
        qx, qy, ux, uy, x0, y0, x1, y1, reach
    )


@given(px=finite, py=finite, x0=finite, y0=finite, x1=finite, y1=finite, half_width=st.floats(0.0, 0.05), nudged=nudge)
@settings(max_examples=400, deadline=None)
def test_band_within_is_band_distance_compared(px, py, x0, y0, x1, y1, half_width, nudged):
    if (x0, y0) == (x1, y1):
        return
    ux, uy, length = segment_frame(x0, y0, x1, y1)
    d = band_distance_framed(px, py, x0, y0, ux, uy, length, half_width)
    reach = _ulps(d, nudged)  # right at the distance, a hair either side, or clearly off
    if reach < 0.0:
        return
    assert band_within_framed(px, py, x0, y0, ux, uy, length, half_width, reach) == (d <= reach)


def test_band_within_decides_beyond_a_line_end_without_hypot_and_at_the_boundary_with_it():
    # Beyond the end of a horizontal line, diagonally: the distance needs hypot(du, dv).
    ux, uy, length = segment_frame(0.0, 0.0, 1.0, 0.0)
    px, py = 1.3, 0.4 + 0.01
    d = band_distance_framed(px, py, 0.0, 0.0, ux, uy, length, 0.01)
    assert d == math.hypot(0.3, 0.4) or abs(d - 0.5) < 1e-15
    for reach, expected in ((d, True), (math.nextafter(d, 0.0), False), (0.49, False), (0.51, True)):
        assert band_within_framed(px, py, 0.0, 0.0, ux, uy, length, 0.01, reach) == expected


# ---- the judge's grid, remembered between batches --------------------------------------------------


def test_cached_judge_index_is_the_index_and_keys_on_the_court():
    foot = load_court("deck")
    head = load_court("deck", end="head")
    a = judge_arrays(foot)
    _prepared, index = cached_judge_index(a, 100_000)
    assert cached_judge_index(judge_arrays(foot), 100_000)[1] is index  # same court, same size: reused
    fresh = judge_index(a, judge_prepare(a), 100_000)
    for got, want in zip(index, fresh):
        np.testing.assert_array_equal(got, want)
    other = cached_judge_index(judge_arrays(head), 100_000)[1]
    assert other is not index and not np.array_equal(other[5], index[5])
    assert cached_judge_index(a, 10)[1][3] == 0  # too few discs for a grid: an empty one
