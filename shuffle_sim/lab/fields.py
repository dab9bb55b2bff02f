"""The lab's typed fields, checked as they are typed: what each may hold, and what is wrong with it.

A ``NumberField`` is a name, a title, a unit and an allowed range; ``check(text)`` turns what is in
the field into a number or a message naming the field, the allowed range and what was typed
(``FieldError``). The page shows the range in the field's title, so a player sees it before typing.
The ranges that depend on the court (the fastest launch the lab takes, the largest spin) come from
``shots.max_speed`` and ``max_spin``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shuffle_sim.court import Court


class FieldError(ValueError):
    """What is wrong with a field's text; the message names the field and shows the text, ``field``
    is the field's name on the page."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class NumberField:
    """A number typed into the page: ``low`` and ``high`` bound it (None: unbounded);
    ``low_open``: the value must be above ``low``, not equal to it; ``whole``: an integer."""

    name: str
    label: str
    unit: str = ""
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    whole: bool = False
    digits: int = 2

    @property
    def range_text(self) -> str:
        """The allowed values in words, as the title shows them."""
        fmt = (lambda v: f"{v:,.0f}") if self.whole else (lambda v: f"{v:.{self.digits}f}")
        if self.low is not None and self.high is not None:
            if self.low_open:
                return f"above {fmt(self.low)}, up to {fmt(self.high)}"
            return f"{fmt(self.low)} to {fmt(self.high)}"
        if self.low is not None:
            return f"above {fmt(self.low)}" if self.low_open else f"at least {fmt(self.low)}"
        if self.high is not None:
            return f"at most {fmt(self.high)}"
        return "any number"

    @property
    def title(self) -> str:
        """The field's title: its name, unit and allowed values, short enough for a narrow field."""
        fmt = (lambda v: f"{v:,.0f}") if self.whole else (lambda v: f"{v:.{self.digits}f}")
        if self.low is not None and self.high is not None and self.low == -self.high:
            allowed = f"\u00b1{fmt(self.high)}"
        elif self.low is not None and self.high is not None:
            allowed = (
                f"up to {fmt(self.high)}" if self.low_open and self.low == 0 else f"{fmt(self.low)}-{fmt(self.high)}"
            )
        else:
            allowed = self.range_text
        return f"{self.label}{', ' + self.unit if self.unit else ''} ({allowed})"

    def check(self, text: str) -> float | int:
        """The number in ``text``; ``FieldError`` when it is not one or not in range."""
        raw = (text or "").strip()
        what = f"{self.label.lower()} must be"
        try:
            value = float(raw)
        except ValueError:
            raise FieldError(f"{what} a number, {self.range_text} (got {raw!r})", self.name) from None
        if not math.isfinite(value):
            raise FieldError(f"{what} a finite number, {self.range_text} (got {raw!r})", self.name)
        if self.whole:
            if value != int(value):
                raise FieldError(f"{what} a whole number, {self.range_text} (got {raw!r})", self.name)
            value = int(value)
        below = self.low is not None and (value <= self.low if self.low_open else value < self.low)
        above = self.high is not None and value > self.high
        if below or above:
            kind = "a whole number, " if self.whole else ""
            raise FieldError(
                f"{what} {kind}{self.range_text}{' ' + self.unit if self.unit else ''} (got {raw!r})", self.name
            )
        return value


def max_spin(court: Court) -> float:
    """The largest spin the lab takes (rad/s): a rim speed as fast as the fastest launch."""
    from shuffle_sim.lab.shots import max_speed

    return max_speed(court) / court.disc_radius


def shot_fields(court: Court) -> dict[str, NumberField]:
    """The shot's fields on ``court``: speed, direction, spin."""
    from shuffle_sim.lab.shots import max_speed

    top = max_speed(court)
    spin = max_spin(court)
    return {
        "speed": NumberField("speed", "Speed", "m/s", low=0.0, high=top, low_open=True),
        "direction": NumberField("direction", "Direction", "\u00b0", low=-360.0, high=360.0, digits=0),
        "spin": NumberField("spin", "Spin", "rad/s", low=-spin, high=spin, digits=0),
    }


def copies_field(most: int) -> NumberField:
    """The number of noisy copies, 1 to ``most``."""
    return NumberField("copies_n", "Noisy copies", "", low=1, high=most, whole=True)
