"""Boards and scenes in and out of the lab, in the command line's JSON formats.

A *board* is what ``shuffle-sim score`` reads: ``{"court", "end", "discs": [{"x", "y", "team"}]}``,
every disc at rest. A *scene* is what ``shuffle-sim simulate`` reads: the same discs plus velocities
and spins; the lab saves the board's discs at rest followed by the shot disc (the only moving one).

A board also carries what its frame keeps besides the discs, as ``shuffle-sim score`` reads it: the
20s each side has set aside (crokinole, ``"twenties"``) and the half the frame scores on (ricochet,
``"half"``). A disc in a hole is never saved: the rules take it off at once.

Loading takes either. A file whose discs are all at rest is a board; one with exactly one moving disc
is a board plus that shot (its start, speed, direction and spin); anything else is refused with a
message naming the file, the disc and the field (the validation of ``shuffle_sim.physics.scene``), never a
traceback. A file's court may be left out (the lab's current court is meant) and must otherwise be a
court name or an absolute path to a court file (an upload has no folder to resolve a relative one).
A crokinole disc lying in the 20 hole (as earlier files may hold it) is read as a 20 set aside.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass
from typing import Any

from shuffle_sim.court import Court, CourtError
from shuffle_sim.lab.board import Disc, LabBoard, LabError, court_reference, hole_at
from shuffle_sim.lab.referee import CROKINOLE, FrameState
from shuffle_sim.lab.shots import Aim
from shuffle_sim.messages import counted
from shuffle_sim.physics.scene import Scene, SceneError
from shuffle_sim.rules.board_file import pop_frame_keys

#: A board's keys beyond the scene format (``rules.board.pop_frame_keys``).
FRAME_KEYS = ("half", "twenties")
#: An uploaded file larger than this is refused before it is parsed (bytes).
MAX_UPLOAD = 2_000_000


@dataclass(frozen=True)
class Loaded:
    """What a file holds: its court (at its end), the frame (resting discs, 20s set aside, scoring
    half), the shot if it has one, and a note on what was read differently from the file."""

    court: Court
    state: FrameState
    aim: Aim | None
    note: str = ""

    @property
    def discs(self) -> list[Disc]:
        return list(self.state.discs)


def parse_upload(filename: str, content_base64: str, current: Court) -> Loaded:
    """Decode and read an uploaded board or scene file (``LabError`` with a message otherwise)."""
    name = filename or "uploaded file"
    if len(content_base64) > MAX_UPLOAD * 4 // 3 + 4:
        raise LabError(f"{name}: file too large (at most {MAX_UPLOAD:,} bytes)")
    try:
        text = base64.b64decode(content_base64, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise LabError(f"{name}: not a text file (a board or scene must be UTF-8 JSON)") from None
    return parse_text(name, text, current)


def parse_text(name: str, text: str, current: Court) -> Loaded:
    """Read board or scene JSON text; ``current`` is the court meant when the file names none."""
    try:
        data = json.loads(text, parse_constant=float)
    except json.JSONDecodeError as exc:
        raise LabError(f"{name}: not valid JSON: {exc}") from None
    return parse_data(name, data, current)


def parse_data(name: str, data: Any, current: Court) -> Loaded:
    if not isinstance(data, dict):
        raise LabError(f"{name}: a board or scene must be a JSON object (got {type(data).__name__})")
    data = dict(data)
    if "court" not in data:
        data["court"] = court_reference(current)
        data.setdefault("end", current.end)
    extras = {key: data.pop(key) for key in FRAME_KEYS if key in data}
    try:
        scene = Scene.from_dict(data, source=name, allow_off_surface=False)
        half, twenties = pop_frame_keys(extras, scene.court.game, name)
    except (SceneError, CourtError) as exc:
        raise LabError(str(exc)) from None
    for key in extras:
        raise LabError(f"{name}: {key}: not a key of a {scene.court.game} board")
    moving = [k for k in range(scene.n_discs) if scene.vx[k] != 0 or scene.vy[k] != 0 or scene.omega[k] != 0]
    if len(moving) > 1:
        raise LabError(
            f"{name}: discs[{moving[1]}] moves too: a scene for the lab has one moving disc (the shot), "
            f"got {len(moving)}"
        )
    discs, holed = [], dict(twenties or {})
    for k in range(scene.n_discs):
        if k in moving:
            continue
        if scene.court.game == CROKINOLE and hole_at(scene.court, scene.x[k], scene.y[k]) is not None:
            holed[scene.team[k]] = holed.get(scene.team[k], 0) + 1
            continue
        discs.append(Disc(float(scene.x[k]), float(scene.y[k]), scene.team[k]))
    aim = None
    if moving:
        k = moving[0]
        aim = Aim(
            float(scene.x[k]),
            float(scene.y[k]),
            math.hypot(scene.vx[k], scene.vy[k]),
            math.degrees(math.atan2(scene.vy[k], scene.vx[k])),
            float(scene.omega[k]),
            scene.team[k],
        )
    LabBoard(scene.court).checked(discs)
    extra = sum(holed.values()) - sum((twenties or {}).values())
    note = f"{counted(extra, 'disc')} lying in the 20 hole read as 20s set aside" if extra else ""
    return Loaded(scene.court, FrameState(discs=tuple(discs), twenties=tuple(holed.items()), half=half), aim, note)


def board_json(board: LabBoard) -> str:
    """The board as ``shuffle-sim score`` reads it."""
    return json.dumps(board.to_dict(), indent=1)


def scene_json(board: LabBoard, aim: Aim) -> str:
    """The board's discs plus the shot disc (last) as ``shuffle-sim simulate`` reads it (a scene
    carries no 20s set aside or scoring half: those are the frame's, not the physics')."""
    data = board.to_dict()
    data.pop("half", None)
    data.pop("twenties", None)
    vx, vy = aim.velocity
    data["discs"].append({"x": aim.x, "y": aim.y, "vx": vx, "vy": vy, "omega": aim.spin, "team": aim.team})
    return json.dumps(data, indent=1)
