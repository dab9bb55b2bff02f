"""Fuzz: many random scenes on every court, each checked for the kernel's invariants.

Every scene must end (no event bound), stay finite, leave no two resting discs overlapping by more
than 1e-9 m, and never gain kinetic energy (translation plus spin) across an impact. The energy is
read from the trajectory log, which records each disc's motion after every event that changes it,
so the check compares the closed-form state just before each impact with the logged state after.
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shuffle_sim.court import list_courts, load_court
from shuffle_sim.physics import (
    DISC_CUSHION,
    DISC_DISC,
    DISC_PEG,
    STATUS_FALLEN,
    STATUS_HOLED,
    STATUS_REST,
    obstacle_at_start,
    simulate,
)
from shuffle_sim.physics.laws.closed_form.slide import motion_after, start_reference
from shuffle_sim.physics.scene import Scene
from shuffle_sim.physics.tables.court_table import H_DECEL, H_INERTIA, H_RADIUS, H_SPIN_DECEL

COURTS = {name: load_court(name) for name in ("deck", "horse-collar", "ricochet", "crokinole")}
TOP_SPEED = {"deck": 3.0, "horse-collar": 3.0, "ricochet": 3.0, "crokinole": 2.0}


def test_every_shipped_court_is_fuzzed():
    assert set(COURTS) <= set(list_courts())


def random_scene(name, rng):
    court = COURTS[name].with_params(
        disc_restitution=float(rng.uniform(0, 1)),
        disc_friction=float(rng.uniform(0, 0.5)),
        cushion_restitution=float(rng.uniform(0, 1)),
        cushion_friction=float(rng.uniform(0, 0.5)),
        peg_restitution=float(rng.uniform(0, 1)),
    )
    # Half the scenes with restitution laws (physics.restitution): a yield speed per material pair.
    if rng.uniform() < 0.5:
        court = court.with_params(
            disc_yield_speed=float(rng.uniform(0.05, 2.0)),
            cushion_yield_speed=float(rng.uniform(0.05, 2.0)),
            peg_yield_speed=float(rng.uniform(0.05, 2.0)),
        )
    r = court.disc_radius
    xmin, ymin, xmax, ymax = court.bounds
    n = int(rng.integers(1, 9))
    discs = []
    for _ in range(2000):
        if len(discs) == n:
            break
        x, y = rng.uniform(xmin, xmax), rng.uniform(ymin, ymax)
        if not court.on_surface(x, y) or obstacle_at_start(court, x, y) is not None:
            continue
        if any(math.hypot(x - d[0], y - d[1]) < 2 * r + 1e-6 for d in discs):
            continue
        moving = rng.uniform() < 0.6 or not discs
        speed = rng.uniform(0, TOP_SPEED[name]) if moving else 0.0
        angle = rng.uniform(0, 2 * math.pi)
        discs.append((x, y, speed * math.cos(angle), speed * math.sin(angle), rng.normal(0, 10) if moving else 0.0))
    d = np.array(discs)
    return Scene(court=court, x=d[:, 0], y=d[:, 1], vx=d[:, 2], vy=d[:, 3], omega=d[:, 4])


def kinetic(tr, state, t_from, t):
    """Kinetic energy per unit mass at t of a disc that left ``state`` = (x, y, vx, vy, omega) at t_from,
    moving as the kernel moves it (either spin model)."""
    table, orbit_tables = tr.table, tr.orbit_tables
    r, decel, spin_decel, k = table[0, H_RADIUS], table[0, H_DECEL], table[0, H_SPIN_DECEL], table[0, H_INERTIA]
    _, _, speed0, w0, _, _, mode, sigma0, reach, theta = start_reference(
        orbit_tables, r, t_from, state[0], state[1], state[2], state[3], state[4], decel, spin_decel
    )
    _, speed, w = motion_after(orbit_tables, r, mode, sigma0, reach, theta, speed0, w0, decel, spin_decel, t - t_from)
    return 0.5 * speed * speed + 0.5 * k * r * r * w * w


def check_energy(result):
    """Walk the event and trajectory logs together; impacts must not add energy."""
    tr = result.trajectories
    n = result.scene.n_discs
    assert list(tr.event[:n]) == [-1] * n and list(tr.disc[:n]) == list(range(n))
    current = {i: i for i in range(n)}  # each disc's segment before the event at hand
    row = n
    for k, (t, kind, a, b) in enumerate(zip(result.events.t, result.events.kind, result.events.a, result.events.b)):
        new = {}
        while row < len(tr.t) and tr.event[row] == k:
            assert tr.t[row] == t
            new[int(tr.disc[row])] = row
            row += 1
        if kind in (DISC_DISC, DISC_CUSHION, DISC_PEG):
            movers = set(new)
            assert {int(a), int(b)} <= movers if kind == DISC_DISC else movers == {int(a)}
            before = sum(kinetic(tr, tr.state[current[i]], tr.t[current[i]], t) for i in movers)
            after = sum(kinetic(tr, tr.state[new[i]], t, t) for i in movers)
            assert after <= before * (1 + 1e-12) + 1e-15, (t, kind, before, after)
        else:
            assert set(new) <= {int(a)}
        current.update(new)
    assert row == len(tr.t)


def cluster_scene(name, rng):
    """A shooter driven into a tight cluster: discs packed touching on a triangular lattice."""
    court = COURTS[name].with_params(
        disc_restitution=float(rng.choice([0.0, 0.5, 0.8, 1.0])),
        disc_friction=float(rng.choice([0.0, 0.2])),
        cushion_restitution=float(rng.uniform(0, 1)),
    )
    r = court.disc_radius
    xmin, ymin, xmax, ymax = court.bounds
    cx, cy = (xmin + xmax) / 2, ymin + 0.6 * (ymax - ymin)
    if name == "crokinole":
        cx, cy = 0.0, 0.2
    turn = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    discs = []
    for row in range(4):
        for col in range(4 - row):
            if len(discs) >= int(rng.integers(3, 11)):
                break
            lx = 2 * r * (col + 0.5 * row)
            ly = 2 * r * row * math.sqrt(3) / 2
            x, y = cx + c * lx - s * ly, cy + s * lx + c * ly
            if court.on_surface(x, y) and obstacle_at_start(court, x, y) is None:
                discs.append((x, y, 0.0, 0.0, 0.0))
    # The shooter, from below the cluster, aimed at one of its discs.
    target = discs[int(rng.integers(len(discs)))]
    sx, sy = target[0] + rng.normal(0, r), target[1] - 0.2 * (ymax - ymin)
    if name == "crokinole":
        sx, sy = target[0] + rng.normal(0, r), -0.2

    def free(x, y):
        return (
            court.on_surface(x, y)
            and obstacle_at_start(court, x, y) is None
            and all(math.hypot(x - d[0], y - d[1]) >= 2 * r for d in discs)
        )

    while not free(sx, sy):
        sx, sy = rng.uniform(xmin, xmax), rng.uniform(ymin, ymax)
    aim = math.atan2(target[1] - sy, target[0] - sx) + rng.normal(0, 0.02)
    speed = rng.uniform(0.5, TOP_SPEED[name])
    discs.append((sx, sy, speed * math.cos(aim), speed * math.sin(aim), rng.normal(0, 5)))
    d = np.array(discs)
    return Scene(court=court, x=d[:, 0], y=d[:, 1], vx=d[:, 2], vy=d[:, 3], omega=d[:, 4])


@pytest.mark.parametrize("model", ["coupled", "decoupled"])
@pytest.mark.parametrize("make", [random_scene, cluster_scene], ids=["scattered", "cluster"])
@pytest.mark.parametrize("name", sorted(COURTS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_scenes_keep_the_invariants(make, name, model, seed):
    scene = make(name, np.random.default_rng(seed))
    scene = Scene(
        court=scene.court.with_params(spin_model=model),
        x=scene.x,
        y=scene.y,
        vx=scene.vx,
        vy=scene.vy,
        omega=scene.omega,
    )
    result = simulate(scene)
    assert result.ok, "the scene must end before the event bound"
    for field in ("x", "y", "vx", "vy", "omega"):
        assert np.isfinite(getattr(result, field)).all()
    assert set(result.status) <= {STATUS_REST, STATUS_FALLEN, STATUS_HOLED}
    rest = result.status == STATUS_REST
    assert np.all(result.vx[rest] == 0) and np.all(result.vy[rest] == 0) and np.all(result.omega == 0)
    r = scene.court.disc_radius
    xs, ys = result.x[rest], result.y[rest]
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            assert math.hypot(xs[i] - xs[j], ys[i] - ys[j]) >= 2 * r - 1e-9
        assert obstacle_at_start(scene.court, xs[i], ys[i]) is None
    assert np.all(np.diff(result.events.t) >= 0)
    check_energy(result)
