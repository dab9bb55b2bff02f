"""Court files: the four shipped courts load with the geometry of docs/design.md, 5, in SI."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shuffle_sim import list_courts, load_court
from shuffle_sim.court import CourtError, court_path
from shuffle_sim.judging.packing import judge_arrays
from shuffle_sim.physics.tables.packing import kernel_arrays
from shuffle_sim.units import FOOT as FT
from shuffle_sim.units import INCH as IN

NAMES = ["crokinole", "deck", "horse-collar", "ricochet"]


def test_shipped_courts_are_listed():
    assert set(NAMES) <= set(list_courts())


@pytest.mark.parametrize("name", NAMES)
def test_every_court_loads_and_packs(name):
    court = load_court(name)
    assert court.name == name and court.game == name
    a = judge_arrays(court)
    assert a.line_kind.shape == (len(court.judged_lines),)
    assert a.zone_start[-1] == len(a.zone_vertices)
    assert a.zone_value.tolist() == [z.value for z in court.zones]
    k = kernel_arrays(court)
    assert k.disc_radius == court.disc_radius > 0 and k.mu > 0
    for zone in court.zones:  # outlines are stored open and counter-clockwise
        if zone.kind == "polygon":
            p = zone.polygon
            assert not np.allclose(p[0], p[-1])
            assert np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]) > 0


def test_deck_geometry_matches_the_design_notes():
    deck = load_court("deck")
    assert deck.bounds == pytest.approx((-3 * FT, 0.0, 3 * FT, 52 * FT))
    assert deck.disc_radius == pytest.approx(3 * IN)
    # Measured from the foot end: baseline 6.5 ft, 8/11/14 ft lines, apex 17 ft, dead line 20 ft.
    for line, from_end in [
        ("baseline", 6.5),
        ("8 ft line", 8),
        ("11 ft line", 11),
        ("14 ft line", 14),
        ("dead line", 20),
    ]:
        assert deck.line(line).geom[1] == pytest.approx((52 - from_end) * FT)
        assert deck.line(line).width == pytest.approx(1 * IN)
    # The triangle is 6 ft wide at the baseline and about 5.14 ft wide at the 8 ft line.
    assert deck.line("baseline").geom[2] - deck.line("baseline").geom[0] == pytest.approx(6 * FT)
    eight = deck.line("8 ft line").geom
    assert eight[2] - eight[0] == pytest.approx(6 * 9 / 10.5 * FT)
    apex = deck.line("left side of triangle").geom
    assert apex[:2] == pytest.approx((0.0, 35 * FT))
    # The head end is the same diagram half a turn about the centre: dead lines 12 ft apart.
    head = load_court("deck", end="head")
    assert deck.line("dead line").geom[1] - head.line("dead line").geom[1] == pytest.approx(12 * FT)
    assert head.line("baseline").geom[1] == pytest.approx(6.5 * FT)
    assert head.for_end("foot").line("baseline").geom[1] == pytest.approx(45.5 * FT)
    assert head.end == "head" and deck.end == "foot"


def test_tables_and_board_match_the_design_notes():
    hc = load_court("horse-collar")
    assert hc.bounds == pytest.approx((-10 * IN, 0.0, 10 * IN, 248 * IN))
    assert hc.hanger_end_value == 13 and hc.hanger_corner_value == 26
    assert 248 * IN - hc.line("trey line").geom[1] == pytest.approx(6 * IN)
    assert 248 * IN - hc.line("deuce line").geom[1] == pytest.approx(12 * IN)
    assert 248 * IN - hc.line("foul line").geom[1] == pytest.approx(6 * FT)
    ric = load_court("ricochet")
    assert [ric.line(n).geom[1] / IN for n in ("first line", "17 in line", "11 in line", "7 in line")] == pytest.approx(
        [24, 17, 11, 7]
    )
    assert ric.hanger_end_value == 5
    cro = load_court("crokinole")
    assert cro.surface_circle == pytest.approx((0.0, 0.0, 13 * IN))
    assert [cro.line(n).geom[2] / IN for n in ("15 line", "10 line", "5 line")] == pytest.approx([4, 8, 12])
    assert cro.holes[0].radius == pytest.approx(1.375 / 2 * IN)
    angles = sorted(math.degrees(math.atan2(p.y, p.x)) % 360 for p in cro.pegs)
    assert angles == pytest.approx([22.5 + 45 * k for k in range(8)])
    assert all(math.hypot(p.x, p.y) == pytest.approx(4 * IN) for p in cro.pegs)


def test_with_params_overrides_and_validates():
    deck = load_court("deck")
    slow = deck.with_params(mu=0.12, cushion_restitution=0.3)
    assert slow.params["mu"] == 0.12 and deck.params["mu"] == 0.016
    assert all(c.restitution == 0.3 for c in slow.cushions)
    with pytest.raises(CourtError, match="mu: must not be negative"):
        deck.with_params(mu=-0.1)
    with pytest.raises(CourtError, match=r"disc_restitution: a restitution must lie in \[0, 1\]"):
        deck.with_params(disc_restitution=1.5)
    with pytest.raises(CourtError, match="unknown parameter"):
        deck.with_params(grip=1.0)


def test_unknown_court_end_and_path():
    with pytest.raises(CourtError, match="unknown court 'snooker'"):
        load_court("snooker")
    with pytest.raises(CourtError, match="no such court file"):
        court_path("missing/court.toml")
    with pytest.raises(CourtError, match="has no end 'middle'"):
        load_court("deck", end="middle")


def test_courts_found_through_the_environment(tmp_path, monkeypatch):
    text = court_path("ricochet").read_text().replace('name = "ricochet"', 'name = "my-ricochet"')
    (tmp_path / "my-ricochet.toml").write_text(text)
    monkeypatch.setenv("SHUFFLE_SIM_COURTS", str(tmp_path))
    assert "my-ricochet" in list_courts()
    assert load_court("my-ricochet").name == "my-ricochet"


def test_format_readme_documents_every_key():
    from shuffle_sim.court import PARAM_DEFAULTS
    from shuffle_sim.court._loading import _TOP_KEYS

    text = (court_path("deck").parent / "README.md").read_text()
    for key in sorted(_TOP_KEYS | set(PARAM_DEFAULTS)):
        assert f"`{key}" in text or f"[{key}]" in text or f"[[{key}]]" in text, key
    for key in (
        "touch_value",
        "touch_dead",
        "touch_alive",
        "judged",
        "overhang",
        "rotate_about",
        "capture_radius",
        "kills",
        "start_deg",
    ):
        assert key in text, key


def test_a_surface_steeper_than_its_friction_is_refused_in_players_words():
    """The grade in inches per foot and as 1 in N, where on the court from the frame's origin, and
    the steepest grade the court's friction allows there; then the numbers, the field and its value."""
    deck = load_court("deck")
    with pytest.raises(CourtError) as refused:
        deck.with_params(slope=[0.0095833, 0.0], mu=0.00655449)
    message = str(refused.value)
    assert message.startswith("parameters: params.slope: the surface is steeper than its friction: it falls ")
    assert (
        "0.115 in per foot (1 in 104) at x -3 ft, y 0 in from the centre of the head end of the court, where the "
        "steepest grade its friction allows is 0.0787 in per foot (1 in 153) (grade 0.0095833 against mu 0.00655449)"
    ) in message
    assert message.endswith("a disc would never come to rest (got [0.0095833, 0.0])")
    with pytest.raises(CourtError, match=r"params.crown: .* falls 0.368 in per foot \(1 in 33\) at x -3.1 in, y -1 ft"):
        load_court("crokinole").with_params(crown="0.2 in", mu=0.02)
    # a batch of scenes whose own mu is too little for the court's grade
    sloped = deck.with_params(slope=[0.0, 0.005])
    assert sloped.friction_refusal(0.003) == (
        "too little friction for court 'deck': its surface falls 0.06 in per foot (1 in 200) at x -3 ft, y 0 in "
        "from the centre of the head end of the court, where mu 0.003 holds a disc on no grade steeper than 0.036 in "
        "per foot (1 in 333); the court needs mu above 0.005: a disc would never come to rest"
    )


@pytest.mark.parametrize(
    "metres, words",
    [(0.0, "0 in"), (0.254, "10 in"), (-0.254, "-10 in"), (1.016, "3 ft 4 in"), (0.3048, "1 ft"), (0.0127, "0.5 in")],
)
def test_lengths_and_grades_in_players_words(metres, words):
    from shuffle_sim.units import format_feet_inches, format_grade

    assert format_feet_inches(metres) == words
    assert format_grade(1 / 48) == "0.25 in per foot (1 in 48)" and format_grade(0.0) == "level"
