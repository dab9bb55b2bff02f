"""Parse lengths, masses and durations written with units ("52 ft", "1 3/8 in", "15 oz", "14 s") into SI.

SI inside, always: court files and command-line displays may use feet and inches, everything past
this module is metres and kilograms.
"""

from __future__ import annotations

import re
from fractions import Fraction

from shuffle_sim.messages import shown

METRE_PER = {
    "m": 1.0,
    "cm": 0.01,
    "mm": 0.001,
    "in": 0.0254,
    "inch": 0.0254,
    "inches": 0.0254,
    "ft": 0.3048,
    "foot": 0.3048,
    "feet": 0.3048,
}
KILOGRAM_PER = {
    "kg": 1.0,
    "g": 0.001,
    "oz": 0.028349523125,
    "lb": 0.45359237,
}
SECOND_PER = {
    "s": 1.0,
    "sec": 1.0,
    "second": 1.0,
    "seconds": 1.0,
}
#: The short name of each unit's long spellings, as displays write them ("inches" -> "in").
SHORT_NAME = {"inch": "in", "inches": "in", "foot": "ft", "feet": "ft", "sec": "s", "second": "s", "seconds": "s"}
#: The finest fraction of an inch a display writes (a sixty-fourth, as rulers and court plans do).
INCH_DENOMINATOR = 64
FOOT = METRE_PER["ft"]
INCH = METRE_PER["in"]

# A number is an integer, decimal, fraction or mixed number: "52", "0.35", "3/8", "1 3/8", "-2".
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s+\d+/\d+)?|[-+]?\d+/\d+"
_TERM = re.compile(rf"^\s*({_NUMBER})\s*([a-zA-Z]+)\s*")


class UnitError(ValueError):
    """A quantity string that cannot be read; the message names the value."""


def _parse_number(text: str) -> float:
    parts = text.split()
    if len(parts) == 2:  # mixed number "1 3/8"
        whole = Fraction(parts[0])
        frac = Fraction(parts[1])
        return float(whole - frac if whole < 0 else whole + frac)
    return float(Fraction(parts[0]))


def _parse(value: object, table: dict[str, float], kind: str) -> float:
    if isinstance(value, bool):
        raise UnitError(f"expected a {kind}, got {shown(value)}")
    if isinstance(value, (int, float)):
        return float(value)  # plain numbers are already SI
    if not isinstance(value, str) or not value.strip():
        raise UnitError(f"expected a {kind} such as '1 3/8 in' or a number in SI, got {shown(value)}")
    rest = value.strip()
    total = 0.0
    terms = 0
    # Compound quantities such as "20 ft 8 in" add up their terms.
    while rest:
        match = _TERM.match(rest)
        if match is None:
            raise UnitError(f"cannot read {kind} {shown(value)}")
        unit = match.group(2).lower()
        if unit not in table:
            known = ", ".join(sorted(table))
            raise UnitError(f"unknown unit {match.group(2)!r} in {shown(value)} (known: {known})")
        try:
            number = _parse_number(match.group(1))
        except ZeroDivisionError:
            raise UnitError(f"division by zero in {kind} {shown(value)}") from None
        total += number * table[unit]
        rest = rest[match.end() :]
        terms += 1
    if terms == 0:
        raise UnitError(f"cannot read {kind} {shown(value)}")
    return total


def length(value: object) -> float:
    """Return a length in metres from '52 ft', '1 3/8 in', '20 ft 8 in', '0.02 m' or a number (m)."""
    return _parse(value, METRE_PER, "length")


def mass(value: object) -> float:
    """Return a mass in kilograms from '15 oz', '0.345 kg', '5 g' or a number (kg)."""
    return _parse(value, KILOGRAM_PER, "mass")


def duration(value: object) -> float:
    """Return a duration in seconds from '14 s', '4.5 seconds' or a number (s): a court's speed."""
    return _parse(value, SECOND_PER, "duration")


def written_unit(value: object) -> str | None:
    """The unit a quantity is written in, by its short name: its first term's ("1 3/8 in" -> "in",
    "20 ft 8 in" -> "ft", "14 seconds" -> "s"); None for a plain number, which is SI, or for text that
    is no quantity (reading it says what is wrong)."""
    if not isinstance(value, str):
        return None
    match = _TERM.match(value)
    if match is None:
        return None
    unit = match.group(2).lower()
    return SHORT_NAME.get(unit, unit)


def describe_length(metres: float, unit: str) -> str:
    """A length as a person writes it in ``unit``: inches as a whole number and a fraction down to a
    sixty-fourth when the length is one ("1 3/8 in", "-1/16 in", "0 in"), other units and other
    lengths with up to 4 significant digits ("7.25 ft", "0.03 in", "0.0016 m")."""
    if unit not in METRE_PER:
        raise UnitError(f"unknown unit {unit!r} (known: {', '.join(sorted(METRE_PER))})")
    amount = metres / METRE_PER[unit]
    unit = SHORT_NAME.get(unit, unit)
    sixty_fourths = round(amount * INCH_DENOMINATOR)
    if unit == "in" and abs(amount * INCH_DENOMINATOR - sixty_fourths) < 1e-6:
        whole, part = divmod(abs(sixty_fourths), INCH_DENOMINATOR)
        sign = "-" if sixty_fourths < 0 else ""
        fraction = Fraction(part, INCH_DENOMINATOR)
        if not part:
            return f"{sign}{whole} in"
        return f"{sign}{f'{whole} ' if whole else ''}{fraction.numerator}/{fraction.denominator} in"
    return f"{amount:.4g} {unit}"


def format_length(metres: float, unit: str = "ft") -> str:
    """Format a length in metres for display in the given unit ('ft', 'in', 'm', 'cm', 'mm')."""
    if unit not in METRE_PER:
        raise UnitError(f"unknown unit {unit!r} (known: {', '.join(sorted(METRE_PER))})")
    return f"{metres / METRE_PER[unit]:.3f} {unit}"


def format_feet_inches(metres: float) -> str:
    """A length as players say it: whole feet and inches to the tenth ("3 ft 4 in", "10.5 in",
    "-2 ft 1 in", "0 in")."""
    inches = round(abs(metres) / INCH, 1)
    feet, rest = divmod(inches, 12.0)
    rest = round(rest, 1)
    parts = ([f"{int(feet)} ft"] if feet else []) + ([f"{rest:g} in"] if rest or not feet else [])
    return ("-" if metres < 0 and inches > 0 else "") + " ".join(parts)


def format_grade(grade: float) -> str:
    """A grade (rise over run) as players say it: inches per foot and "1 in N" ("0.115 in per foot
    (1 in 104)"); "level" for none."""
    if grade == 0:
        return "level"
    return f"{grade * FOOT / INCH:.3g} in per foot (1 in {1.0 / abs(grade):,.0f})"
