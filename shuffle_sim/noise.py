"""Execution noise for batch experiments: counter-based random draws and skill presets.

Why counter-based: a batch experiment must give bit-identical results whatever the chunk size, the
worker count or the scheduler. Every random number here is a pure function of (root seed, global
shot index, stream, slot), computed with the Philox4x64-10 block cipher (Salmon, Moraes, Dror, Shaw,
"Parallel random numbers: as easy as 1, 2, 3", SC 2011) -- the same generator as NumPy's
``numpy.random.Philox``, and checked bit for bit against it in the tests. No state is carried from
one shot to the next, so any slice of the shot index space can be drawn alone, in any order, on any
machine.

Layout of one shot's draws: Philox key = (seed mod 2**64, seed div 2**64); counter =
(shot index, stream, block, 0); each block gives four 64-bit words, so slot ``s`` of a stream is word
``s % 4`` of block ``s // 4``. Words become uniforms in (0, 1) with 53 random bits; normals come from
pairs of uniforms by the Box-Muller transform (slots 2m and 2m + 1 give normals 2m and 2m + 1).

A ``NoiseModel`` says how far a player's execution strays from the intended shot: a relative
standard deviation on speed, an angular one on direction, an absolute one on spin and on the start
position. Skill presets per game are data (``shuffle_sim/skills.toml``).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import prange, types
from numba.extending import intrinsic

from shuffle_sim import jit
from shuffle_sim import units

#: Streams: separate families of draws, so adding a distribution never shifts the noise draws.
STREAM_EXECUTION = 0
STREAM_DISTRIBUTIONS = 1
#: Simulated games (``shuffle_sim.play.players``): counter = (game index, stream, shot number in the game,
#: sample). STREAM_PLAY holds the execution errors of the shots played; STREAM_PLAYER_SAMPLES the
#: errors a player imagines when weighing candidate shots.
STREAM_PLAY = 2
STREAM_PLAYER_SAMPLES = 3

_PHILOX_M0 = np.uint64(0xD2E7470EE14C6C93)
_PHILOX_M1 = np.uint64(0xCA5A826395121157)
_PHILOX_W0 = np.uint64(0x9E3779B97F4A7C15)
_PHILOX_W1 = np.uint64(0xBB67AE8584CAA73B)
_SHIFT11 = np.uint64(11)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0

SKILLS_FILE = Path(__file__).resolve().parent / "skills.toml"


class NoiseError(ValueError):
    """A noise model or skill preset that cannot be used; the message names the key and the value."""


# --------------------------------------------------------------------------------------------------
# Philox4x64-10 in numba


@intrinsic
def _mulhilo(typingctx, a, b):
    """High and low 64-bit words of the 128-bit product a * b (both uint64): one 64 x 64 -> 128-bit
    multiply in LLVM IR (a single instruction on x86-64 and arm64), exact like any integer product."""
    if a != types.uint64 or b != types.uint64:
        return None
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        word = ir.IntType(64)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        hi = builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), word)
        lo = builder.trunc(product, word)
        return context.make_tuple(builder, signature.return_type, (hi, lo))

    return sig, codegen


@jit.kernel
def philox4x64(c0, c1, c2, c3, k0, k1):
    """Philox4x64 with 10 rounds: encrypt counter (c0..c3) under key (k0, k1); four uint64 words."""
    return philox4x64_inline(c0, c1, c2, c3, k0, k1)


@jit.inline
def philox4x64_inline(c0, c1, c2, c3, k0, k1):
    """``philox4x64`` compiled into its caller: for the one call per shot of an experiment's chunk
    kernel (2% faster there); the other callers take the function, which compiles once."""
    for _ in range(10):
        hi0, lo0 = _mulhilo(_PHILOX_M0, c0)
        hi1, lo1 = _mulhilo(_PHILOX_M1, c2)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        k0 = k0 + _PHILOX_W0
        k1 = k1 + _PHILOX_W1
    return c0, c1, c2, c3


@jit.inline
def word_to_uniform(word):
    """A uint64 word to a uniform in the open interval (0, 1): 53 bits, centred in its cell."""
    return ((word >> _SHIFT11) + 0.5) * _TWO_POW_MINUS_53


@jit.parallel
def _uniforms_kernel(k0, k1, first, stream, out):
    n, slots = out.shape
    blocks = (slots + 3) // 4
    for i in prange(n):
        shot = first + np.uint64(i)
        for b in range(blocks):
            w0, w1, w2, w3 = philox4x64(shot, np.uint64(stream), np.uint64(b), np.uint64(0), k0, k1)
            s = 4 * b
            if s < slots:
                out[i, s] = word_to_uniform(w0)
            if s + 1 < slots:
                out[i, s + 1] = word_to_uniform(w1)
            if s + 2 < slots:
                out[i, s + 2] = word_to_uniform(w2)
            if s + 3 < slots:
                out[i, s + 3] = word_to_uniform(w3)


@jit.inline
def box_muller(u1, u2):
    """Two independent standard normals from two uniforms in (0, 1] (Box and Muller, 1958)."""
    radius = math.sqrt(-2.0 * math.log(u1))
    angle = 2.0 * math.pi * u2
    return radius * math.cos(angle), radius * math.sin(angle)


@jit.parallel
def _box_muller_kernel(u, out):
    n, slots = u.shape
    for i in prange(n):
        for m in range(slots // 2):
            out[i, 2 * m], out[i, 2 * m + 1] = box_muller(u[i, 2 * m], u[i, 2 * m + 1])


def seed_key(seed: int) -> tuple[np.uint64, np.uint64]:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**128:
        raise NoiseError(f"seed must be an integer in [0, 2**128) (got {seed!r})")
    seed = int(seed)
    return np.uint64(seed & 0xFFFFFFFFFFFFFFFF), np.uint64(seed >> 64)


def uniforms(seed: int, first_shot: int, n_shots: int, slots: int, stream: int = STREAM_EXECUTION) -> np.ndarray:
    """Uniforms in (0, 1), shape (n_shots, slots), for shots first_shot .. first_shot + n_shots - 1.

    Row i depends only on (seed, first_shot + i, stream): any split of the shot range gives the same
    numbers.
    """
    if first_shot < 0 or n_shots < 0 or slots < 0:
        raise NoiseError(f"first_shot, n_shots and slots must not be negative (got {first_shot}, {n_shots}, {slots})")
    k0, k1 = seed_key(seed)
    out = np.empty((n_shots, slots), dtype=np.float64)
    if n_shots and slots:
        _uniforms_kernel(k0, k1, np.uint64(first_shot), np.uint64(stream), out)
    return out


def normals(seed: int, first_shot: int, n_shots: int, slots: int, stream: int = STREAM_EXECUTION) -> np.ndarray:
    """Standard normals, shape (n_shots, slots), drawn like ``uniforms`` then Box-Muller transformed."""
    even = slots + (slots % 2)
    u = uniforms(seed, first_shot, n_shots, even, stream)
    out = np.empty_like(u)
    if u.size:
        _box_muller_kernel(u, out)
    return np.ascontiguousarray(out[:, :slots])


# --------------------------------------------------------------------------------------------------
# Noise models and skill presets

#: Execution-noise slots in the ``STREAM_EXECUTION`` normals of a shot (``experiment_kernels``).
SLOT_SPEED, SLOT_DIRECTION, SLOT_SPIN, SLOT_START_X, SLOT_START_Y = range(5)


@dataclass(frozen=True)
class NoiseModel:
    """Standard deviations of a player's execution errors (SI; each error is normal and independent).

    speed: relative (0.02 means the launch speed is off by 2 % on average-square);
    direction: radians; spin: rad/s; start: metres, in x and in y alike.
    """

    speed: float = 0.0
    direction: float = 0.0
    spin: float = 0.0
    start: float = 0.0
    name: str = "custom"

    def __post_init__(self) -> None:
        for key in ("speed", "direction", "spin", "start"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise NoiseError(f"noise.{key} must be a finite non-negative number (got {value!r})")

    def scaled(self, factor: float, name: str | None = None) -> "NoiseModel":
        """The same model with every standard deviation multiplied by ``factor`` (for calibration)."""
        return NoiseModel(self.speed * factor, self.direction * factor, self.spin * factor, self.start * factor,
                          name or self.name)

    @property
    def is_exact(self) -> bool:
        return self.speed == 0 and self.direction == 0 and self.spin == 0 and self.start == 0


EXACT = NoiseModel(name="exact")

_NOISE_KEYS = {"speed", "direction", "spin", "start"}


def parse_noise(table: dict, where: str) -> NoiseModel:
    """A ``NoiseModel`` from a TOML table: speed (relative), direction (degrees), spin (rad/s), start (length).

    ``where`` prefixes error messages (file and table name).
    """
    for key in table:
        if key not in _NOISE_KEYS | {"description"}:
            raise NoiseError(f"{where}.{key}: unknown key (allowed: {', '.join(sorted(_NOISE_KEYS))})")
    values = {}
    for key in ("speed", "direction", "spin"):
        value = table.get(key, 0.0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise NoiseError(f"{where}.{key}: must be a finite non-negative number (got {value!r})")
        values[key] = float(value)
    try:
        start = units.length(table.get("start", 0.0))
    except units.UnitError as exc:
        raise NoiseError(f"{where}.start: {exc}") from None
    if not math.isfinite(start) or start < 0:
        raise NoiseError(f"{where}.start: must be a non-negative length (got {table.get('start')!r})")
    return NoiseModel(values["speed"], math.radians(values["direction"]), values["spin"], start)


@lru_cache(maxsize=None)
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
        presets[name] = NoiseModel(model.speed, model.direction, model.spin, model.start, name)
    return presets


def skill_preset(game: str, name: str) -> NoiseModel:
    """One skill preset by name; the error lists the known names."""
    presets = skill_presets(game)
    if name not in presets:
        raise NoiseError(f"unknown skill {name!r} for {game} (known: {', '.join(presets)})")
    return presets[name]
