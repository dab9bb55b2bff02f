"""Execution noise models and the skill presets of each game.

A ``NoiseModel`` says how far a player's execution strays from the intended shot: a relative
standard deviation on speed with an absolute floor beside it, an angular one on direction, an
absolute one on spin and on the start position. Skill presets per game are data (``skills.toml`` beside this module).
The errors are drawn
from the counter-based streams of ``shuffle_sim.noise.streams``, in the slots named here.

The speed error has two independent parts, a proportional one (relative sd ``speed``) and an
absolute one (``speed_floor``, m/s), so that a launch at speed v is off by a normal error of
standard deviation sqrt((speed v)^2 + speed_floor^2): one normal draw, in the speed's own slot.
Human force and velocity errors grow with the force but do not vanish at low force: the
within-subject spread of impulse and of end point is linear in the mean with a positive intercept
(Schmidt, Zelaznik, Hawkins, Frank and Quinn, "Motor-output variability", Psychological Review 86,
415-451, 1979; negatively accelerating at high forces, Newell, Carlton and Hancock, Psychological
Bulletin 96, 133-151, 1984). So a soft shot on a fast court is relatively less accurate than the
same slide on a slow court, where it takes a harder push. A model without a floor (0) draws exactly
as before: the speed error is then ``speed * (1 + sd z)``, bit for bit.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from shuffle_sim import units
from shuffle_sim.messages import shown
from shuffle_sim.noise.errors import NoiseError

SKILLS_FILE = Path(__file__).resolve().parent / "skills.toml"

#: Execution-noise slots in the ``STREAM_EXECUTION`` normals of a shot (``shuffle_sim.experiment._chunk_kernels``).
SLOT_SPEED, SLOT_DIRECTION, SLOT_SPIN, SLOT_START_X, SLOT_START_Y = range(5)


@dataclass(frozen=True)
class NoiseModel:
    """Standard deviations of a player's execution errors (SI; each error is normal and independent).

    speed: relative (0.02 means the launch speed is off by 2 % on average-square);
    direction: radians; spin: rad/s; start: metres, in x and in y alike; speed_floor: m/s, the
    absolute part of the speed error beside the relative one (sd sqrt((speed v)^2 + speed_floor^2)).
    """

    speed: float = 0.0
    direction: float = 0.0
    spin: float = 0.0
    start: float = 0.0
    name: str = "custom"
    speed_floor: float = 0.0

    def __post_init__(self) -> None:
        for key in ("speed", "direction", "spin", "start", "speed_floor"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise NoiseError(f"noise.{key} must be a finite non-negative number (got {shown(value)})")

    def scaled(self, factor: float, name: str | None = None) -> NoiseModel:
        """The same model with every standard deviation multiplied by ``factor`` (for calibration)."""
        return NoiseModel(
            self.speed * factor,
            self.direction * factor,
            self.spin * factor,
            self.start * factor,
            name or self.name,
            self.speed_floor * factor,
        )

    def speed_sd(self, speed: float) -> float:
        """The standard deviation (m/s) of the launch speed error at ``speed`` (m/s)."""
        return math.hypot(self.speed * speed, self.speed_floor)

    def deviations(self) -> list[float]:
        """The standard deviations as the noise kernels take them, in their order: speed (relative),
        direction (rad), spin (rad/s), start (m), speed floor (m/s)."""
        return [self.speed, self.direction, self.spin, self.start, self.speed_floor]

    @property
    def is_exact(self) -> bool:
        return self.speed == 0 and self.direction == 0 and self.spin == 0 and self.start == 0 and self.speed_floor == 0


EXACT = NoiseModel(name="exact")

_NOISE_KEYS = {"speed", "speed_floor", "direction", "spin", "start"}


def parse_noise(table: dict, where: str) -> NoiseModel:
    """A ``NoiseModel`` from a TOML table: speed (relative), speed_floor (m/s), direction (degrees), spin
    (rad/s), start (length).

    ``where`` prefixes error messages (file and table name).
    """
    for key in table:
        if key not in _NOISE_KEYS | {"description"}:
            raise NoiseError(f"{where}.{key}: unknown key (allowed: {', '.join(sorted(_NOISE_KEYS))})")
    values = {}
    for key in ("speed", "speed_floor", "direction", "spin"):
        value = table.get(key, 0.0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise NoiseError(f"{where}.{key}: must be a finite non-negative number (got {shown(value)})")
        values[key] = float(value)
    try:
        start = units.length(table.get("start", 0.0))
    except units.UnitError as exc:
        raise NoiseError(f"{where}.start: {exc}") from None
    if not math.isfinite(start) or start < 0:
        raise NoiseError(f"{where}.start: must be a non-negative length (got {shown(table.get('start'))})")
    return NoiseModel(
        values["speed"], math.radians(values["direction"]), values["spin"], start, speed_floor=values["speed_floor"]
    )


@cache
def _skills_data() -> dict:
    with open(SKILLS_FILE, "rb") as fh:
        return tomllib.load(fh)


def skill_presets(game: str) -> dict[str, NoiseModel]:
    """The named skill presets of a game (``deck``, ``horse-collar``, ``ricochet``, ``crokinole``)."""
    data = _skills_data()
    if game not in data:
        raise NoiseError(f"no skill presets for game {game!r} (games with presets: {', '.join(sorted(data))})")
    presets = {}
    for name, table in data[game].items():
        model = parse_noise(table, f"{SKILLS_FILE.name}: {game}.{name}")
        presets[name] = NoiseModel(model.speed, model.direction, model.spin, model.start, name, model.speed_floor)
    return presets


def skill_preset(game: str, name: str) -> NoiseModel:
    """One skill preset by name; the error lists the known names."""
    presets = skill_presets(game)
    if name not in presets:
        raise NoiseError(f"unknown skill {name!r} for {game} (known: {', '.join(presets)})")
    return presets[name]
