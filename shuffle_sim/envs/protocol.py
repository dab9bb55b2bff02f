"""The shot protocol of ``shuffle-sim serve``: one JSON object per line, each with a ``type``.

Server to client:

- ``hello``: the game, the client's sides, the seed, the action fields and their limits
  (``actions``), and every side's player;
- ``state``: it is one of the client's sides' turn: the side, the shot's number in the game, the
  frame, the scores, the shots left, the hammer, the 20s set aside, the discs on the board (x, y in
  metres in the shot's frame, and whose each is) and the stance the disc starts from (a ``segment``
  x0, y0, x1, y1 or an ``arc`` cx, cy, radius, from and to angles in radians: ``start`` 0 is its
  first point, 1 its last);
- ``shot``: a shot was played (by any side): its launch as meant and as executed, and its rulings
  (``rules.ShotRulings.to_dict``), then the scores;
- ``error``: the client's last line could not be played; ``error`` names the field and the value.
  The state is sent again and the game goes on;
- ``over``: the game is over (or stopped): the winner, the scores, whether it ended by its rules,
  and the replay file written.

Client to server, when sent a ``state``: the shot, ``{"start": 0.5, "direction": 0.0, "speed": 2.1,
"spin": 0.0}``: every field of ``actions.ACTION_FIELDS``, a number within its limits.
"""

from __future__ import annotations

import json
import math

import numpy as np

from shuffle_sim.envs.actions import ACTION_FIELDS, ActionLimits, EnvError
from shuffle_sim.envs.session import GameSession, ShotLog, other
from shuffle_sim.messages import shown


def parse_shot(line: str, limits: ActionLimits) -> np.ndarray:
    """The action of a client's line; ``EnvError`` naming the field for anything else."""
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EnvError(f"shot: not a JSON object ({exc.msg} at column {exc.colno})") from None
    if not isinstance(message, dict):
        raise EnvError(f"shot: a JSON object with {', '.join(ACTION_FIELDS)} is expected (got {shown(message)})")
    unknown = sorted(set(message) - set(ACTION_FIELDS))
    if unknown:
        raise EnvError(f"{unknown[0]}: not a field of a shot (the fields: {', '.join(ACTION_FIELDS)})")
    values = []
    for name, lo, hi in zip(ACTION_FIELDS, limits.low, limits.high):
        if name not in message:
            raise EnvError(f"{name}: missing (a shot gives {', '.join(ACTION_FIELDS)})")
        value = message[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise EnvError(f"{name}: must be a finite number (got {shown(value)})")
        if not lo <= value <= hi:
            raise EnvError(f"{name}: must lie in [{lo:.6g}, {hi:.6g}] (got {shown(value)})")
        values.append(float(value))
    return np.array(values)


def hello(session: GameSession, sides: list[str]) -> dict:
    return {
        "type": "hello",
        "game": session.game,
        "court": session.court.name,
        "sides": sides,
        "seed": session.seed,
        "players": {side: session.player_name(side) for side in session.players},
        "fields": list(ACTION_FIELDS),
        "limits": session.limits.to_dict(),
    }


def state(session: GameSession, side: str) -> dict:
    """The ``state`` message for ``side``, whose turn it is."""
    view = session.view(side)
    opponent = other(side)
    pending = session.pending
    stance = pending.context.stance if pending is not None else None
    return {
        "type": "state",
        "side": side,
        "shot": len(session.shots) + 1,
        "frame": view.frame,
        "score": {side: view.score[0], opponent: view.score[1]},
        "shots_left": {side: view.shots_left[0], opponent: view.shots_left[1]},
        "hammer": side if view.hammer else opponent,
        "twenties": {side: view.twenties[0], opponent: view.twenties[1]},
        "discs": [
            {"x": float(x), "y": float(y), "side": side if own else opponent}
            for x, y, own in zip(view.x, view.y, view.own)
        ],
        "stance": None if stance is None else {"kind": stance.kind, "geom": [float(v) for v in stance.geom]},
    }


def shot(log: ShotLog, session: GameSession) -> dict:
    return {"type": "shot", **log.to_dict(), "score": session.scores}


def over(session: GameSession, replay: str | None, note: str | None = None) -> dict:
    message = {
        "type": "over",
        "winner": session.winner,
        "score": session.scores,
        "terminated": session.over,
        "replay": replay,
    }
    if note:
        message["note"] = note
    return message


def error(problem: Exception | str) -> dict:
    return {"type": "error", "error": str(problem).splitlines()[0]}


def line(message: dict) -> str:
    """A message as one line of text (no newline)."""
    return json.dumps(message, separators=(",", ":"))
