"""Game environments and the shot protocol: play against the simulator from any program.

``make(game, ...)`` is a ``gymnasium.Env`` in which an agent plays one side of a game against a
built-in player; ``aec_env(game, ...)`` a PettingZoo AEC environment of two agents taking turns as
the game's rules order them; ``shuffle-sim serve GAME`` speaks the same game as JSON lines on
standard input and output, or over a WebSocket, to a program in any language, and writes a replay
of every game it serves (``shuffle-sim replay FILE`` re-simulates and draws it). All of them play
through ``playing``'s one game loop (``GameDriver``), as ``play`` does, and apply each shot's
rulings with ``rules.shot_rulings``. Needs the ``envs`` extra (gymnasium, pettingzoo, websockets).

===============  ===================================================================================
module           what it does
===============  ===================================================================================
``actions``      the action (start, direction, speed, spin), each game's limits, the launch it means
``session``      ``GameSession``: one game with external sides, played a shot at a time
``observing``    the observation and action spaces, the observation of a side, ``render``'s picture
``single``       ``ShuffleEnv``: one agent against a built-in player (gymnasium)
``turns``        ``ShuffleAEC``: two agents taking turns (PettingZoo AEC)
``protocol``     the shot protocol's messages: state out, shot in, rulings back, errors
``serving``      ``shuffle-sim serve``: a game over standard input and output, or a WebSocket
``replays``      replay files: written by every served game, re-simulated and drawn
===============  ===================================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shuffle_sim._runtime.lazy import lazy_face

if TYPE_CHECKING:
    from shuffle_sim.envs.single import ShuffleEnv
    from shuffle_sim.envs.turns import ShuffleAEC

#: Public name -> the module that defines it.
_FACE = {
    "ACTION_FIELDS": "shuffle_sim.envs.actions",
    "ActionLimits": "shuffle_sim.envs.actions",
    "EnvError": "shuffle_sim.envs.actions",
    "action_limits": "shuffle_sim.envs.actions",
    "GameSession": "shuffle_sim.envs.session",
    "ShotLog": "shuffle_sim.envs.session",
    "ShuffleEnv": "shuffle_sim.envs.single",
    "ShuffleAEC": "shuffle_sim.envs.turns",
}


def make(game: str, **options) -> ShuffleEnv:
    """A ``gymnasium.Env``: an agent plays one side of ``game`` against a built-in player.

    ``options`` are ``ShuffleEnv``'s: ``opponent`` (default the game's best skill with the ``ev``
    strategy), ``skill`` (the agent's execution noise), ``reward`` (``"points"`` or ``"win"``),
    ``seed``, ``side``, ``game_length``, ``court`` and ``render_mode``.
    """
    from shuffle_sim.envs.single import ShuffleEnv

    return ShuffleEnv(game, **options)


def aec_env(game: str, **options) -> ShuffleAEC:
    """A PettingZoo AEC environment: agents "A" and "B" play ``game`` in the rules' turn order.

    ``options`` are ``ShuffleAEC``'s: ``skill`` (both agents' execution noise), ``seed``,
    ``reward``, ``game_length``, ``court`` and ``render_mode``.
    """
    from shuffle_sim.envs.turns import ShuffleAEC

    return ShuffleAEC(game, **options)


__all__ = [
    "ACTION_FIELDS",
    "ActionLimits",
    "EnvError",
    "GameSession",
    "ShotLog",
    "ShuffleAEC",
    "ShuffleEnv",
    "action_limits",
    "aec_env",
    "make",
]

__getattr__, __dir__ = lazy_face(__name__, _FACE, globals())
