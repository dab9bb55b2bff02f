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
    "box_muller": "shuffle_sim.noise.streams",
    "normals": "shuffle_sim.noise.streams",
    "philox4x64": "shuffle_sim.noise.streams",
    "philox4x64_inline": "shuffle_sim.noise.streams",
    "seed_key": "shuffle_sim.noise.streams",
    "uniforms": "shuffle_sim.noise.streams",
    "word_to_uniform": "shuffle_sim.noise.streams",
}

__all__ = sorted(_FACE)

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
