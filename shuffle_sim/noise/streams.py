"""Counter-based random streams: every draw a pure function of (seed, shot, stream, slot).

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
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import prange, types
from numba.extending import intrinsic

from shuffle_sim._runtime import jit
from shuffle_sim.messages import shown
from shuffle_sim.noise.errors import NoiseError

#: Streams: separate families of draws, so adding a distribution never shifts the noise draws.
STREAM_EXECUTION = 0
STREAM_DISTRIBUTIONS = 1
#: Simulated games (``shuffle_sim.playing.players``): counter = (game index, stream, shot number in the game,
#: sample). STREAM_PLAY holds the execution errors of the shots played; STREAM_PLAYER_SAMPLES the
#: errors a player imagines when weighing candidate shots.
STREAM_PLAY = 2
STREAM_PLAYER_SAMPLES = 3
#: The executions a searching player (``shuffle_sim.playing.search``) imagines: counter = (game index,
#: stream, shot number in the game x ``SEARCH_DEPTHS`` + depth in the frame, sample).
STREAM_SEARCH = 4
SEARCH_DEPTHS = 32

_PHILOX_M0 = np.uint64(0xD2E7470EE14C6C93)
_PHILOX_M1 = np.uint64(0xCA5A826395121157)
_PHILOX_W0 = np.uint64(0x9E3779B97F4A7C15)
_PHILOX_W1 = np.uint64(0xBB67AE8584CAA73B)
_SHIFT11 = np.uint64(11)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


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
        raise NoiseError(f"seed must be an integer in [0, 2**128) (got {shown(seed)})")
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
