"""Lengths and masses with units ("52 ft", "1 3/8 in", "15 oz") into SI."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuffle_sim import units
from shuffle_sim.units import FOOT, INCH, UnitError


@pytest.mark.parametrize(
    "text, metres",
    [
        ("52 ft", 52 * 0.3048),
        ("6 in", 0.1524),
        ("1 3/8 in", 1.375 * 0.0254),
        ("3/8 in", 0.375 * 0.0254),
        ("20 ft 8 in", 248 * 0.0254),
        ("0.35 m", 0.35),
        ("12 mm", 0.012),
        ("2.5 cm", 0.025),
        (".5 in", 0.0127),
        ("-2 in", -0.0508),
        ("-1 1/2 in", -1.5 * 0.0254),
        ("2 FT", 0.6096),
        ("  3   in ", 3 * 0.0254),
        ("1 3/8in", 1.375 * 0.0254),
        ("6 feet", 6 * 0.3048),
        (2.5, 2.5),
        (3, 3.0),
    ],
)
def test_lengths(text, metres):
    assert units.length(text) == pytest.approx(metres, rel=1e-15, abs=1e-15)


@pytest.mark.parametrize(
    "text, kilograms",
    [("15 oz", 0.425242846875), ("0.345 kg", 0.345), ("5 g", 0.005), ("1 lb", 0.45359237), (0.25, 0.25)],
)
def test_masses(text, kilograms):
    assert units.mass(text) == pytest.approx(kilograms, rel=1e-15)


@pytest.mark.parametrize(
    "bad, message",
    [
        ("5 furlongs", "unknown unit 'furlongs'"),
        ("5 kg", "unknown unit 'kg'"),
        ("ft", "cannot read length 'ft'"),
        ("1 3/8", "cannot read length '1 3/8'"),
        ("3 ft 2", "cannot read length '3 ft 2'"),
        ("1,5 m", "cannot read length '1,5 m'"),
        ("1/0 in", "division by zero in length '1/0 in'"),
        ("", "expected a length"),
        (None, "expected a length"),
        (True, "expected a length, got True"),
        ([1, "in"], "expected a length"),
    ],
)
def test_bad_lengths_name_the_value(bad, message):
    with pytest.raises(UnitError, match=message.replace("(", r"\(")):
        units.length(bad)


def test_bad_mass_names_the_value():
    with pytest.raises(UnitError, match="unknown unit 'ft' in '3 ft'"):
        units.mass("3 ft")


@given(st.integers(0, 100), st.integers(0, 11), st.integers(0, 15), st.sampled_from([2, 4, 8, 16, 32]))
def test_feet_inches_and_fractions_add_up(feet, inches, numerator, denominator):
    text = f"{feet} ft {inches} {numerator}/{denominator} in"
    exact = (Fraction(feet * 12 + inches) + Fraction(numerator, denominator)) * Fraction("0.0254")
    assert units.length(text) == pytest.approx(float(exact), rel=1e-14, abs=1e-15)


@given(st.floats(-1e3, 1e3, allow_nan=False))
def test_plain_numbers_are_already_si(value):
    assert units.length(value) == value
    assert units.mass(value) == value


@given(st.integers(-(10**6), 10**6), st.integers(0, 4))
def test_decimal_metres(mantissa, places):
    text = f"{mantissa / 10**places:.{places}f} m"
    assert units.length(text) == pytest.approx(mantissa / 10**places, rel=1e-15, abs=1e-15)


def test_constants_and_display():
    assert FOOT == 0.3048 and INCH == 0.0254 and pytest.approx(FOOT, rel=1e-15) == 12 * INCH
    assert units.format_length(0.3048) == "1.000 ft"
    assert units.format_length(0.0254, "in") == "1.000 in"
    assert units.format_length(1.5, "m") == "1.500 m"
    with pytest.raises(UnitError, match="unknown unit 'yd'"):
        units.format_length(1.0, "yd")


@pytest.mark.parametrize(
    "text, unit",
    [
        ("1/32 in", "in"),
        ("1 3/8 inches", "in"),
        ("20 ft 8 in", "ft"),
        ("6 feet", "ft"),
        ("0.35 m", "m"),
        ("2 MM", "mm"),
        ("14 seconds", "s"),
        (0.35, None),
        (3, None),
        ("parsec", None),
    ],
)
def test_the_unit_a_quantity_is_written_in(text, unit):
    assert units.written_unit(text) == unit


@pytest.mark.parametrize(
    "metres, unit, shown",
    [
        (INCH / 32, "in", "1/32 in"),
        (-INCH / 16, "in", "-1/16 in"),
        (1.375 * INCH, "in", "1 3/8 in"),
        (-1.5 * INCH, "inches", "-1 1/2 in"),
        (0.0, "in", "0 in"),
        (2 * INCH, "in", "2 in"),
        (0.03 * INCH, "in", "0.03 in"),
        (7.25 * FOOT, "ft", "7.25 ft"),
        (0.0016, "m", "0.0016 m"),
    ],
)
def test_a_length_as_a_person_writes_it(metres, unit, shown):
    assert units.describe_length(metres, unit) == shown


@given(st.integers(-10 * 64, 10 * 64))
def test_a_described_inch_reads_back(sixty_fourths):
    metres = sixty_fourths * INCH / 64
    assert units.length(units.describe_length(metres, "in")) == pytest.approx(metres, abs=1e-15)
