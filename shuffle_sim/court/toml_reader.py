"""Validated reading of parsed TOML tables (court files, experiment files).

``TomlReader`` turns values into checked Python and SI values, and on any problem raises the
caller's error class with a message that names the file, the key and the value, for example
``courts/my.toml: lines[2].width: must be positive (got '-1 in')``.
"""

from __future__ import annotations

import math
from typing import Any

from shuffle_sim import units
from shuffle_sim.messages import shown


class TomlReader:
    """Reads values out of one file's parsed TOML, raising ``error`` naming file, key and value."""

    def __init__(self, path: str, error: type[Exception] = ValueError):
        self.path = path
        self.error = error

    def fail(self, key: str, message: str, value: Any = None, show_value: bool = True):
        shown_value = f" (got {shown(value)})" if show_value else ""
        raise self.error(f"{self.path}: {key}: {message}{shown_value}")

    def table(self, value: Any, key: str) -> dict:
        if not isinstance(value, dict):
            self.fail(key, "must be a table", value)
        return value

    def keys(self, data: dict, key: str, allowed: set[str], required: set[str] | frozenset[str] = frozenset()) -> None:
        """Reject unknown keys and report the first missing required key (with the table it is missing from)."""
        for k in data:
            if k not in allowed:
                where = f"{key}.{k}" if key else k
                self.fail(where, f"unknown key (allowed: {', '.join(sorted(allowed))})", data[k])
        for k in sorted(required):
            if k not in data:
                if key:
                    self.fail(f"{key}.{k}", f"missing required key in [{key}]", data)
                self.fail(
                    k,
                    "missing required key at the top level (keys given: {})".format(", ".join(data)),
                    show_value=False,
                )

    def array(self, data: dict, key: str) -> list[dict]:
        """The array of tables ``[[key]]`` (empty when absent)."""
        items = data.get(key, [])
        if not isinstance(items, list):
            self.fail(key, "must be an array of tables ([[...]])", items)
        return [self.table(item, f"{key}[{i}]") for i, item in enumerate(items)]

    def integer(self, value: Any, key: str, minimum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, "must be an integer", value)
        if minimum is not None and value < minimum:
            self.fail(key, f"must be at least {minimum}", value)
        return value

    def number(self, value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(key, "must be a finite number", value)
        return float(value)

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, "must be true or false", value)
        return value

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value:
            self.fail(key, "must be a non-empty string", value)
        return value

    def length(self, value: Any, key: str, positive: bool = False, nonnegative: bool = False) -> float:
        """A length in metres from '1 3/8 in', '52 ft', '0.02 m' or a plain number of metres."""
        try:
            metres = units.length(value)
        except units.UnitError as exc:
            self.fail(key, str(exc), value, show_value=False)
        if not math.isfinite(metres):
            self.fail(key, "must be finite", value)
        if positive and metres <= 0:
            self.fail(key, "must be positive", value)
        if nonnegative and metres < 0:
            self.fail(key, "must not be negative", value)
        return metres

    def mass(self, value: Any, key: str) -> float:
        """A positive mass in kilograms from '15 oz', '0.345 kg', '5 g' or a plain number of kilograms."""
        try:
            kg = units.mass(value)
        except units.UnitError as exc:
            self.fail(key, str(exc), value, show_value=False)
        if not (math.isfinite(kg) and kg > 0):
            self.fail(key, "must be a positive mass", value)
        return kg

    def point(self, value: Any, key: str) -> tuple[float, float]:
        if not isinstance(value, list) or len(value) != 2:
            self.fail(key, "must be a point [x, y]", value)
        return self.length(value[0], f"{key}[0]"), self.length(value[1], f"{key}[1]")
