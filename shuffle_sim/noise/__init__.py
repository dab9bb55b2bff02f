"""Execution noise: counter-based random streams and the players' skill presets.

==================  =======================================================================
module              what it holds
==================  =======================================================================
``streams``         Philox4x64-10 draws by (seed, shot, stream, slot): ``uniforms``, ``normals``
``skills``          ``NoiseModel`` (a player's execution errors) and the skill presets per game
``errors``          ``NoiseError``
==================  =======================================================================

The names below load their module on first use: the skill presets read without compiling anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shuffle_sim._runtime.lazy import lazy_face

#: Public name -> the module that defines it.
_FACE = {
    "NoiseError": "shuffle_sim.noise.errors",
    "EXACT": "shuffle_sim.noise.skills",
    "SKILLS_FILE": "shuffle_sim.noise.skills",
    "SLOT_DIRECTION": "shuffle_sim.noise.skills",
    "SLOT_SPEED": "shuffle_sim.noise.skills",
    "SLOT_SPIN": "shuffle_sim.noise.skills",
    "SLOT_START_X": "shuffle_sim.noise.skills",
    "SLOT_START_Y": "shuffle_sim.noise.skills",
    "NoiseModel": "shuffle_sim.noise.skills",
    "parse_noise": "shuffle_sim.noise.skills",
    "skill_preset": "shuffle_sim.noise.skills",
    "skill_presets": "shuffle_sim.noise.skills",
    "STREAM_DISTRIBUTIONS": "shuffle_sim.noise.streams",
    "STREAM_EXECUTION": "shuffle_sim.noise.streams",
    "STREAM_PLAY": "shuffle_sim.noise.streams",
    "STREAM_PLAYER_SAMPLES": "shuffle_sim.noise.streams",
    "STREAM_SEARCH": "shuffle_sim.noise.streams",
    "SEARCH_DEPTHS": "shuffle_sim.noise.streams",
    "box_muller": "shuffle_sim.noise.streams",
    "normals": "shuffle_sim.noise.streams",
    "philox4x64": "shuffle_sim.noise.streams",
    "philox4x64_inline": "shuffle_sim.noise.streams",
    "seed_key": "shuffle_sim.noise.streams",
    "uniforms": "shuffle_sim.noise.streams",
    "word_to_uniform": "shuffle_sim.noise.streams",
}

__all__ = [
    "EXACT",
    "SEARCH_DEPTHS",
    "SKILLS_FILE",
    "SLOT_DIRECTION",
    "SLOT_SPEED",
    "SLOT_SPIN",
    "SLOT_START_X",
    "SLOT_START_Y",
    "STREAM_DISTRIBUTIONS",
    "STREAM_EXECUTION",
    "STREAM_PLAY",
    "STREAM_PLAYER_SAMPLES",
    "STREAM_SEARCH",
    "NoiseError",
    "NoiseModel",
    "box_muller",
    "normals",
    "parse_noise",
    "philox4x64",
    "philox4x64_inline",
    "seed_key",
    "skill_preset",
    "skill_presets",
    "uniforms",
    "word_to_uniform",
]

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())

if TYPE_CHECKING:  # the same names, imported outright, for type checkers and editors
    from shuffle_sim.noise.errors import NoiseError
    from shuffle_sim.noise.skills import (
        EXACT,
        SKILLS_FILE,
        SLOT_DIRECTION,
        SLOT_SPEED,
        SLOT_SPIN,
        SLOT_START_X,
        SLOT_START_Y,
        NoiseModel,
        parse_noise,
        skill_preset,
        skill_presets,
    )
    from shuffle_sim.noise.streams import (
        SEARCH_DEPTHS,
        STREAM_DISTRIBUTIONS,
        STREAM_EXECUTION,
        STREAM_PLAY,
        STREAM_PLAYER_SAMPLES,
        STREAM_SEARCH,
        box_muller,
        normals,
        philox4x64,
        philox4x64_inline,
        seed_key,
        uniforms,
        word_to_uniform,
    )
