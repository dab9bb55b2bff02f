"""Replay files: every game ``shuffle-sim serve`` plays is written as one, and ``shuffle-sim replay``
re-simulates and draws it.

A replay (JSON) holds what re-plays the game: the game, its court file, seed, game index and
length, each side's player and execution noise (``noise.NoiseModel``'s fields), and every shot in
order with its launch as meant and as executed (in the shot's frame, as the shooter saw it) and its
rulings; then the frames as scored (``playing.FrameRecord``), the totals, the winner, and the
board where the game stopped (x, y in metres in the court's frame, and each disc's rules label).

``resimulate`` plays the game again from the seed and the launches as meant: each shot executed
under its side's noise with the same draws, run through the kernel, ruled by ``rules.shot_rulings``
and posted by the game's rules, through the same game loop. ``compare`` says whether that game is
the recorded one bit for bit: every executed launch, every shot's rulings, every frame as scored
(its final board, scores and notes), the totals and the board where the game stopped. (What a
built-in player meant by a shot, its intent and expected value, is not played again: the launch it
chose is.)
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

from shuffle_sim.court import as_court
from shuffle_sim.envs.actions import EnvError
from shuffle_sim.envs.session import GameSession
from shuffle_sim.noise import NoiseModel
from shuffle_sim.playing import SIDES, MatchRecord
from shuffle_sim.playing.players import Launch

FORMAT = "shuffle-sim replay"
VERSION = 1


def replay_data(session: GameSession) -> dict:
    """The replay of ``session`` as played so far (see the module docstring)."""
    record = session.driver.record()
    _, board, end = session.board()
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": session.game,
        "court": session.court.name,
        "court_file": session.court.source_path,
        "seed": session.seed,
        "game_index": session.driver.game_index,
        "game_length": session.length,
        "sides": {
            side: {"player": session.player_name(side), "skill": dataclasses.asdict(session.skill(side))}
            for side in SIDES
        },
        "shots": [log.to_dict() for log in session.shots],
        "frames": [frame.to_dict() for frame in record.frames],
        "totals": record.totals,
        "winner": record.winner,
        "finished": record.finished,
        "board": {"end": end, "discs": [[x, y, team] for x, y, team in board]},
    }


def write_replay(session: GameSession, path: str | os.PathLike) -> Path:
    """Write the replay of ``session`` to ``path`` (folders made as needed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay_data(session), indent=1))
    return path


def read_replay(path: str | os.PathLike) -> dict:
    """A replay file's data; ``EnvError`` naming the file when it is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise EnvError(f"{path}: not a replay file ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EnvError(f'{path}: not a replay file (no "format": {FORMAT!r})')
    if data.get("version") != VERSION:
        raise EnvError(f"{path}: replay version {data.get('version')!r} is not {VERSION}")
    return data


def _launch(data: dict) -> Launch:
    return Launch(data["t"], data["x"], data["y"], data["vx"], data["vy"], data["omega"])


def resimulate(data: dict) -> GameSession:
    """The game of a replay played again from its seed and launches as meant (module docstring)."""
    court_file = data.get("court_file")
    court = as_court(court_file if court_file and Path(court_file).is_file() else data["court"])
    skills = {side: NoiseModel(**data["sides"][side]["skill"]) for side in SIDES}
    session = GameSession(
        data["game"], dict.fromkeys(SIDES), data["seed"], data["game_index"], data["game_length"], court, skills
    )
    for k, shot in enumerate(data["shots"]):
        pending = session.advance()
        if pending is None or pending.turn.team != shot["side"]:
            found = "the game is over" if pending is None else f"side {pending.turn.team} is to play"
            raise EnvError(f"shots[{k}]: the replay has side {shot['side']} play shot {k + 1}, but {found}")
        session.play_launch(_launch(shot["intended"]), shot["player"])
    session.advance()
    return session


@dataclass(frozen=True)
class Comparison:
    """Whether a re-simulated game is its replay's, and the first difference found."""

    shots: int
    identical: bool
    difference: str | None = None


def compare(data: dict, session: GameSession) -> Comparison:
    """Compare a re-simulated game with its replay, exactly (module docstring)."""
    again = json.loads(json.dumps(replay_data(session)))  # as the file holds it
    n = len(data["shots"])
    for k, (recorded, played) in enumerate(zip(data["shots"], again["shots"])):
        for key in ("executed", "rulings"):
            if recorded[key] != played[key]:
                return Comparison(n, False, f"shot {k + 1}: the {key} {played[key]} differ from the replay's")
    for key in ("shots", "frames"):
        if len(again[key]) != len(data[key]):
            return Comparison(
                n, False, f"{key}: the re-simulated game has {len(again[key])}, the replay {len(data[key])}"
            )
    for k, (recorded, played) in enumerate(zip(data["frames"], again["frames"])):
        if _scored(recorded) != _scored(played):
            return Comparison(n, False, f"frame {k + 1}: scored otherwise than in the replay")
    for key in ("totals", "winner", "finished", "board"):
        if data[key] != again[key]:
            return Comparison(n, False, f"{key}: the re-simulated game's differ from the replay's")
    return Comparison(n, True)


def _scored(frame: dict) -> dict:
    """A frame as scored: everything but its shots as the players meant them (compared shot by shot)."""
    return {key: value for key, value in frame.items() if key not in ("shots", "picture")}


def replay_record(data: dict, session: GameSession) -> MatchRecord:
    """The re-simulated game as a ``MatchRecord`` (the scorecard and frame pictures of ``play``)."""
    game = session.driver.record()
    return MatchRecord(
        game=data["game"],
        seed=data["seed"],
        players={side: data["sides"][side]["player"] for side in SIDES},
        match=False,
        games=[game],
        winner=game.winner,
        wins={side: int(side == game.winner) for side in SIDES},
        court=session.court,
    )
