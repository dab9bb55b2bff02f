"""What an agent observes and how its shot is drawn: the spaces of the environments, and ``render``.

The observation of one side (``observation``, a ``gymnasium.spaces.Dict``):

============  ====================================================================================
key           what it holds
============  ====================================================================================
``discs``     (slots, 4) float32: each disc on the board, x and y (m, in the frame of the shot to
              play: the deck's canonical frame, toward the foot; the court's elsewhere), +1 for
              the side's own disc and -1 for the opponent's, and 1 for a disc in play; unused slots
              are zeros. ``slots``: the most discs a frame can hold (its shots)
``score``     (2,) float32: the game totals, own then opponent's (crokinole: round points)
``frame``     the frame (half-round, round) being played, from 1; the last one once the game is over
``shots_left``  (2,): shots left in the frame, own then opponent's, the one to play included
``hammer``    1 when the side shoots the frame's last shot (horse collar: throws second in the game)
``twenties``  (2,): 20s set aside this round, own then opponent's (crokinole; zeros elsewhere)
``stance``    (6,) float32: the stance of the shot to play (``players.Stance.array``: kind 0 for a
              segment x0, y0, x1, y1, 1 for an arc cx, cy, R, a0, a1); zeros once the game is over
============  ====================================================================================
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from shuffle_sim.envs.session import GameSession, SideView
from shuffle_sim.playing import SIDES
from shuffle_sim.playing.scorecard import picture_discs, picture_zoom
from shuffle_sim.plot import court_image

#: Columns of the ``discs`` observation.
DISC_COLUMNS = ("x", "y", "side", "in_play")


def observation_space(slots: int, max_frames: int) -> spaces.Dict:
    """The observation space of a game whose frames hold at most ``slots`` discs."""
    big = np.float32(np.finfo(np.float32).max)
    return spaces.Dict(
        {
            "discs": spaces.Box(-big, big, (slots, len(DISC_COLUMNS)), np.float32),
            "score": spaces.Box(-big, big, (2,), np.float32),
            "frame": spaces.Discrete(max_frames + 1),
            "shots_left": spaces.MultiDiscrete([slots + 1, slots + 1]),
            "hammer": spaces.Discrete(2),
            "twenties": spaces.MultiDiscrete([slots + 1, slots + 1]),
            "stance": spaces.Box(-big, big, (6,), np.float32),
        }
    )


def action_space(session: GameSession) -> spaces.Box:
    """The game's action space (``actions``): start, direction, speed, spin within its limits."""
    limits = session.limits
    return spaces.Box(limits.low.astype(np.float32), limits.high.astype(np.float32), dtype=np.float32)


def observation(view: SideView, slots: int) -> dict:
    """A side's view as the observation space holds it."""
    discs = np.zeros((slots, len(DISC_COLUMNS)), dtype=np.float32)
    n = min(view.x.size, slots)
    discs[:n, 0] = view.x[:n]
    discs[:n, 1] = view.y[:n]
    discs[:n, 2] = np.where(view.own[:n], 1.0, -1.0)
    discs[:n, 3] = 1.0
    return {
        "discs": discs,
        "score": np.array(view.score, dtype=np.float32),
        "frame": np.int64(view.frame),
        "shots_left": np.array(view.shots_left, dtype=np.int64),
        "hammer": np.int64(view.hammer),
        "twenties": np.array(view.twenties, dtype=np.int64),
        "stance": view.stance.astype(np.float32),
    }


def picture(session: GameSession, dpi: int = 60) -> np.ndarray:
    """The court drawing (``plot.court_image``) of the frame in play, with the game's score above it."""
    court, discs, end = session.board()
    shown = picture_discs(session.game, discs, SIDES)
    scores = session.scores
    title = f"frame {max(session.play.frames_posted() + (0 if session.over else 1), 1)}, " + ", ".join(
        f"{side} {points}" for side, points in scores.items()
    )
    return court_image(court, shown or None, end=end, zoom=picture_zoom(session.game, end), title=title, dpi=dpi)
