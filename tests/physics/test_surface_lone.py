"""Lone discs on courts that are not flat: the kernel against the reference and a closed form.

The curved-motion path (``physics.curved_*``) promises rest positions within 1e-7 m of the brute-force
reference (``reference.surface_motion``: scipy's DOP853 at 1e-13, in the time, sharing no code with
the kernel's integrator) and stop times within 1e-7 relative, on graded, crowned and mapped courts,
with and without spin, in both spin models, through ``simulate`` and through ``simulate_shots``.
Without spin on a uniform grade the path has a classical closed form (the hodograph of a body sliding
on a rough incline); here it is evaluated by quadrature, independently of the kernel's own closed
form of it (``curved_motion.hodograph_rest``).
"""

import math

import numpy as np
import pytest
from scipy.integrate import quad

from shuffle_sim import simulate, simulate_shots
from shuffle_sim.court import load_court
from shuffle_sim.physics import STATUS_REST, Scene
from shuffle_sim.physics.numba_api import court_surface
from shuffle_sim.physics.tables.surface import ground_at_call
from shuffle_sim.reference.surface_motion import SurfaceReference

POSITION_TOL = 1e-7
TIME_TOL = 1e-7
DECK = load_court("deck")


def _map_extent(court, margin=0.1):
    xmin, ymin, xmax, ymax = court.bounds
    return [[xmin - margin, ymin - margin], [xmax + margin, ymax + margin]]


@pytest.fixture(scope="module")
def map_files(tmp_path_factory):
    """A height map with breaks of 0.4 mm and a friction map of +-20 % over the deck court, on cells
    of about 0.2 m x 0.4 m."""
    folder = tmp_path_factory.mktemp("maps")
    (xmin, ymin), (xmax, ymax) = _map_extent(DECK)
    x, y = np.meshgrid(np.linspace(xmin, xmax, 9), np.linspace(ymin, ymax, 40))
    np.save(folder / "heights.npy", 0.0004 * np.sin(y / 2.0) * np.cos(x) + 0.0002 * np.cos(2.0 * x))
    np.save(folder / "friction.npy", 1.0 + 0.2 * np.exp(-(x**2)) * np.cos(y / 3.0))
    return folder


SURFACES = {
    "slope": {"slope": [0.001, -0.0005]},
    "crown": {"crown": "1/32 in"},
    "dome and slope": {"crown": "-1/32 in", "slope": [-0.0015, 0.0]},
    "slow court": {"mu": 0.08, "slope": [0.005, 0.002], "crown": "1/8 in"},
    "height map": {"height_map": "heights.npy"},
    "friction map": {"slope": [0.0008, 0.0], "friction_map": "friction.npy"},
}


def _court(surface: str, model: str, map_files):
    entries = dict(SURFACES[surface])
    for key in ("height_map", "friction_map"):
        if key in entries:
            entries[key] = {"file": str(map_files / entries[key]), "extent": _map_extent(DECK)}
    return DECK.with_params(spin_model=model, **entries)


def _shots(court, seed: int, spin: bool, n: int = 3):
    """Draws from the near baseline that stay on the court, with or without spin."""
    rng = np.random.default_rng(seed)
    scale = math.sqrt(court.params["mu"] / 0.016)
    shots = []
    for _ in range(n):
        v = rng.uniform(0.4, 1.8) * scale
        angle = rng.uniform(-0.04, 0.04)
        w = rng.choice([-1.0, 1.0]) * rng.uniform(2.0, 20.0) if spin else 0.0
        shots.append((rng.uniform(-0.5, 0.5), 0.6, v * math.sin(angle), v * math.cos(angle), w))
    return shots


def _one(court, shot):
    return Scene(court, *(np.array([value]) for value in shot))


@pytest.mark.names_its_spin_models
@pytest.mark.parametrize("model", ["coupled", "decoupled"])
@pytest.mark.parametrize("spin", [False, True], ids=["no spin", "spin"])
@pytest.mark.parametrize("surface", list(SURFACES))
def test_lone_discs_rest_where_the_reference_rests(surface, spin, model, map_files):
    court = _court(surface, model, map_files)
    reference = SurfaceReference(court)
    shots = _shots(court, seed=len(surface) * 7 + spin + 2 * (model == "coupled"), spin=spin)
    batch = simulate_shots(court, *(np.array(column) for column in zip(*shots)))
    for k, shot in enumerate(shots):
        result = simulate(_one(court, shot))
        expected = reference.run(*(np.array([value]) for value in shot))
        assert result.ok and result.status[0] == expected.status[0]
        assert math.hypot(result.x[0] - expected.x[0], result.y[0] - expected.y[0]) < POSITION_TOL, shot
        assert abs(result.t_end / expected.t_end - 1.0) < TIME_TOL, shot
        assert list(result.events.kind) == [e.kind for e in expected.events]
        assert math.hypot(batch.x[k, 0] - expected.x[0], batch.y[k, 0] - expected.y[0]) < POSITION_TOL, shot
        assert batch.status[k, 0] == expected.status[0]


def _hodograph(v0: float, phi0: float, k: float, a: float):
    """(time to rest, downhill, across) of a body launched at speed v0 and angle phi0 in (0, pi) from
    the downhill direction, on a uniform incline of in-plane gravity a and friction deceleration k a,
    by quadrature over phi: v dphi/dt = -a sin(phi), dv/dphi = v (k - cos(phi)) / sin(phi), so that
    v = C tan(phi / 2)^k / sin(phi), and it stops as phi reaches 0."""
    c = v0 * math.sin(phi0) / math.tan(phi0 / 2.0) ** k

    def speed(phi):
        return c * math.tan(phi / 2.0) ** k / math.sin(phi)

    def integral(f):
        return quad(f, 0.0, phi0, epsabs=0.0, epsrel=1e-13, limit=400)[0]

    time = integral(lambda phi: speed(phi) / (a * math.sin(phi)))
    downhill = integral(lambda phi: speed(phi) ** 2 * math.cos(phi) / (a * math.sin(phi)))
    across = integral(lambda phi: speed(phi) ** 2 / a)
    return time, downhill, across


@pytest.mark.parametrize(
    ("mu", "slope", "v", "heading"),
    [
        (0.016, (0.001, 0.0005), 1.7, 1.55),
        (0.016, (-0.002, 0.0), 1.2, 1.62),
        (0.05, (0.02, -0.01), 2.5, 1.8),
        (0.08, (0.0, 0.03), 1.5, 1.4),
    ],
)
def test_a_spin_free_slide_on_a_uniform_grade_follows_the_hodograph(mu, slope, v, heading):
    court = DECK.with_params(mu=mu, slope=list(slope))
    g = court.params["gravity"]
    x0, y0 = 0.0, 0.6
    vx, vy = v * math.cos(heading), v * math.sin(heading)
    a = g * math.hypot(*slope)
    ux, uy = slope[0] / math.hypot(*slope), slope[1] / math.hypot(*slope)
    phi0 = math.acos((vx * ux + vy * uy) / v)
    side = math.copysign(1.0, ux * vy - uy * vx)  # the velocity's side of the downhill line
    time, downhill, across = _hodograph(v, phi0, mu / math.hypot(*slope), a)
    expected_x = x0 + downhill * ux - side * across * uy
    expected_y = y0 + downhill * uy + side * across * ux
    for result in (simulate(_one(court, (x0, y0, vx, vy, 0.0))),):
        assert result.status[0] == STATUS_REST
        assert math.hypot(result.x[0] - expected_x, result.y[0] - expected_y) < POSITION_TOL
        assert abs(result.t_end / time - 1.0) < TIME_TOL
    batch = simulate_shots(court, [x0], [y0], [vx], [vy], [0.0])
    assert math.hypot(batch.x[0, 0] - expected_x, batch.y[0, 0] - expected_y) < POSITION_TOL


def test_the_grade_drifts_discs_downhill_and_more_on_a_fast_court():
    drift = {}
    for mu in (0.016, 0.048):
        v = 1.7 * math.sqrt(mu / 0.016)
        straight = simulate_shots(DECK.with_params(mu=mu), [0.0], [0.6], [0.0], [v], [0.0])
        graded = simulate_shots(DECK.with_params(mu=mu, slope=[0.001, 0.0]), [0.0], [0.6], [0.0], [v], [0.0])
        assert straight.x[0, 0] == 0.0
        drift[mu] = graded.x[0, 0]
    assert drift[0.016] > 0.0 and drift[0.048] > 0.0
    # The drift grows as 1 / mu at equal length of slide (a 1-in-1000 grade: about 2.8 against 0.9 cm).
    assert drift[0.016] == pytest.approx(3.0 * drift[0.048], rel=0.05)


def test_a_spinning_disc_drifts_farther_than_one_without_spin():
    court = DECK.with_params(slope=[0.001, 0.0], spin_model="coupled")
    v = 1.2
    plain, spun = (simulate_shots(court, [0.0], [0.6], [0.0], [v], [w]) for w in (0.0, 15.0))
    assert spun.x[0, 0] > plain.x[0, 0] > 0.0


def test_the_kernels_ground_is_the_courts_surface(map_files):
    court = _court("height map", "coupled", map_files).with_params(
        crown="1/64 in",
        slope=[0.001, 0.0002],
        friction_map={"file": str(map_files / "friction.npy"), "extent": _map_extent(DECK)},
    )
    surface = court_surface(court)
    shape = court.surface_shape
    g = court.params["gravity"]
    rng = np.random.default_rng(3)
    xmin, ymin, xmax, ymax = court.bounds
    x, y = rng.uniform(xmin, xmax, 200), rng.uniform(ymin, ymax, 200)
    _, hx, hy = shape.heights(x, y)
    m = shape.friction(x, y)
    for k in range(len(x)):
        ax, ay, mk = ground_at_call(surface, x[k], y[k])
        assert ax == pytest.approx(-g * hx[k], abs=1e-14)
        assert ay == pytest.approx(-g * hy[k], abs=1e-14)
        assert mk == pytest.approx(m[k], abs=1e-14)


def test_a_flat_court_takes_the_flat_kernels():
    assert court_surface(DECK).size == 0
    assert court_surface(DECK.with_params(slope=[0.0, 0.0], crown="0 in")).size == 0


def test_the_unrolled_step_is_the_generators():
    """``curved_step.py`` is written by ``dop853.step_source`` (then formatted): the same code."""
    import ast
    from pathlib import Path

    from shuffle_sim.physics.laws.integrated import dop853
    from shuffle_sim.physics.laws.integrated import step as curved_step

    written = Path(curved_step.__file__).read_text()
    assert ast.dump(ast.parse(dop853.step_source())) == ast.dump(ast.parse(written))


def test_sampled_paths_curve_and_end_where_the_disc_rests():
    """``sample_positions`` (drawings, animations) follows the curved path from the log."""
    from shuffle_sim.physics import sample_positions

    court = DECK.with_params(slope=[0.001, 0.0], crown="1/32 in")
    result = simulate(_one(court, (0.0, 0.6, 0.0, 1.7, 0.0)))
    _, positions = sample_positions(result, n_frames=50)
    assert positions[0, 0].tolist() == [0.0, 0.6]
    assert np.hypot(*(positions[-1, 0] - [result.x[0], result.y[0]])) < 1e-9
    x, y = positions[:, 0, 0], positions[:, 0, 1]
    chord = x[0] + (x[-1] - x[0]) * (y - y[0]) / (y[-1] - y[0])
    assert np.max(np.abs(x - chord)) > 0.01  # bowed away from the straight line between its ends
    assert np.all(np.diff(y) >= 0.0)
