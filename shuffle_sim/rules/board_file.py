"""Read a board of resting discs to score (``shuffle-sim score``): the scene disc format, at rest.

Board file (JSON), the scene format of ``shuffle_sim.physics.scene`` with two differences: ``court`` may be
left out (the game's own court is used), and every disc must be at rest (``vx``, ``vy``, ``omega``
absent or zero). A disc off the surface is accepted: it has fallen (alley, gutter, ditch)::

    {"court": "deck", "end": "foot", "discs": [{"x": 0.3, "y": 12.9, "team": "yellow"}, ...]}

A ricochet board may also say which half the round scores on: ``"half": "left"`` (x < 0) or
``"right"`` (the ricochet rules: the weights rebound onto the half opposite the one they are slid from).
A crokinole board may list the 20s each side has already set aside in the round, which its round
total counts: ``"twenties": {"light": 2}`` (a disc that drops into the hole is removed at once).

Validation (finite numbers, known keys, discs not overlapping) is the scene's, so errors name the
file, the disc and the field.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from shuffle_sim.physics.scene import Scene, SceneError, read_json_file
from shuffle_sim.rules.common import HALVES, Board, RulesError

MOTION_KEYS = ("vx", "vy", "omega")
#: Games whose boards may name the half a round scores on (``"half"``).
HALF_GAMES = ("ricochet",)
#: Games whose boards may list the 20s set aside in the round (``"twenties"``).
TWENTIES_GAMES = ("crokinole",)


def pop_frame_keys(data: dict, game: str, source: str = "<board>") -> tuple[str | None, dict[str, int] | None]:
    """Take the keys a board file has beyond the scene format out of ``data`` (a dict, changed in
    place) and check them: the scoring half (``HALF_GAMES``) and the 20s set aside
    (``TWENTIES_GAMES``). Returns (half, twenties), None where the file gives none."""
    half = twenties = None
    if game in HALF_GAMES and "half" in data:
        half = data.pop("half")
        if half not in HALVES:
            raise SceneError(f"{source}: half: must be one of {', '.join(HALVES)} (got {half!r})")
    if game in TWENTIES_GAMES and "twenties" in data:
        value = data.pop("twenties")
        if not isinstance(value, dict):
            raise SceneError(f"{source}: twenties: must be an object of side names and counts (got {value!r})")
        twenties = {}
        for side, count in value.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise SceneError(f"{source}: twenties.{side}: must be a whole number of 20s, 0 or more (got {count!r})")
            twenties[side] = count
    return half, twenties


def board_from_dict(
    data: Any, default_court: str, game: str, source: str = "<board>", base_dir: str | os.PathLike | None = None
) -> Board:
    """A ``Board`` from board JSON data, at the court's scoring end (``end`` in the data, if any)."""
    if not isinstance(data, dict):
        raise SceneError(f"{source}: a board must be a JSON object (got {type(data).__name__})")
    data = dict(data)
    half, twenties = pop_frame_keys(data, game, source)
    data.setdefault("court", default_court)
    discs = data.get("discs")
    if isinstance(discs, list):
        for k, disc in enumerate(discs):
            if not isinstance(disc, dict):
                continue
            for key in MOTION_KEYS:
                value = disc.get(key, 0.0)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0:
                    raise SceneError(
                        f"{source}: discs[{k}].{key}: a board to score is at rest, must be 0 (got {value!r})"
                    )
    scene = Scene.from_dict(data, source=source, base_dir=base_dir, allow_off_surface=True)
    court = scene.court
    if not court.plays(game):
        raise RulesError(f"{source}: court: {court.name!r} is a {court.game} court, not a {game} court")
    return Board(court=court, x=scene.x, y=scene.y, team=tuple(scene.team), half=half, twenties=twenties)


def load_board(path: str | os.PathLike, default_court: str, game: str) -> Board:
    """Read a board file; errors name the file."""
    path = Path(path)
    return board_from_dict(
        read_json_file(path, "board file"), default_court, game, source=str(path), base_dir=path.parent
    )
