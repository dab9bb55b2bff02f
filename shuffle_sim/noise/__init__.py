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

from shuffle_sim._runtime.lazy import face_of, lazy_face

#: Public name -> the module that defines it.
_FACE = face_of(
    {
        "shuffle_sim.noise.errors": ("NoiseError",),
        "shuffle_sim.noise.skills": (
            "EXACT",
            "SKILLS_FILE",
            "SLOT_DIRECTION",
            "SLOT_SPEED",
            "SLOT_SPIN",
            "SLOT_START_X",
            "SLOT_START_Y",
            "NoiseModel",
            "parse_noise",
            "skill_preset",
            "skill_presets",
        ),
        "shuffle_sim.noise.streams": (
            "STREAM_DISTRIBUTIONS",
            "STREAM_EXECUTION",
            "STREAM_PLAY",
            "STREAM_PLAYER_SAMPLES",
            "STREAM_SEARCH",
            "SEARCH_DEPTHS",
            "box_muller",
            "normals",
            "philox4x64",
            "philox4x64_inline",
            "seed_key",
            "uniforms",
            "word_to_uniform",
        ),
    }
)

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())

if TYPE_CHECKING:  # the same names, imported outright, for type checkers and editors
    from shuffle_sim.noise.errors import NoiseError as NoiseError
    from shuffle_sim.noise.skills import EXACT as EXACT
    from shuffle_sim.noise.skills import SKILLS_FILE as SKILLS_FILE
    from shuffle_sim.noise.skills import SLOT_DIRECTION as SLOT_DIRECTION
    from shuffle_sim.noise.skills import SLOT_SPEED as SLOT_SPEED
    from shuffle_sim.noise.skills import SLOT_SPIN as SLOT_SPIN
    from shuffle_sim.noise.skills import SLOT_START_X as SLOT_START_X
    from shuffle_sim.noise.skills import SLOT_START_Y as SLOT_START_Y
    from shuffle_sim.noise.skills import NoiseModel as NoiseModel
    from shuffle_sim.noise.skills import parse_noise as parse_noise
    from shuffle_sim.noise.skills import skill_preset as skill_preset
    from shuffle_sim.noise.skills import skill_presets as skill_presets
    from shuffle_sim.noise.streams import SEARCH_DEPTHS as SEARCH_DEPTHS
    from shuffle_sim.noise.streams import STREAM_DISTRIBUTIONS as STREAM_DISTRIBUTIONS
    from shuffle_sim.noise.streams import STREAM_EXECUTION as STREAM_EXECUTION
    from shuffle_sim.noise.streams import STREAM_PLAY as STREAM_PLAY
    from shuffle_sim.noise.streams import STREAM_PLAYER_SAMPLES as STREAM_PLAYER_SAMPLES
    from shuffle_sim.noise.streams import STREAM_SEARCH as STREAM_SEARCH
    from shuffle_sim.noise.streams import box_muller as box_muller
    from shuffle_sim.noise.streams import normals as normals
    from shuffle_sim.noise.streams import philox4x64 as philox4x64
    from shuffle_sim.noise.streams import philox4x64_inline as philox4x64_inline
    from shuffle_sim.noise.streams import seed_key as seed_key
    from shuffle_sim.noise.streams import uniforms as uniforms
    from shuffle_sim.noise.streams import word_to_uniform as word_to_uniform
