"""``shuffle-sim serve`` and ``shuffle-sim replay``: two external clients play a game over a WebSocket
and its replay re-simulates to the same final board bit for bit; malformed lines get a one-line error
naming the field and the game goes on; a client on standard input and output."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from shuffle_sim.envs import GameSession
from shuffle_sim.envs.replays import compare, read_replay, resimulate
from shuffle_sim.envs.serving import serve_streams

from .conftest import PLAN

pytest.importorskip("websockets")

#: A client that imports nothing of shuffle_sim: random shots until the game is over.
CLIENT = textwrap.dedent(
    """
    import asyncio, json, random, sys
    import websockets

    async def main(address, seed):
        rng = random.Random(seed)
        async with websockets.connect(address) as ws:
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "state":
                    shot = {"start": rng.random(), "direction": rng.uniform(-0.6, 0.6),
                            "speed": rng.uniform(0.4, 1.4), "spin": rng.uniform(-5, 5)}
                    await ws.send(json.dumps(shot))
                elif message["type"] == "over":
                    print(json.dumps(message))
                    return

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


def _env():
    return {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def test_two_clients_play_over_a_websocket_and_the_replay_is_the_same_game(tmp_path):
    replay = tmp_path / "game.json"
    (tmp_path / "client.py").write_text(CLIENT)
    server = subprocess.Popen(
        [sys.executable, "-m", "shuffle_sim.cli", "serve", "crokinole", "--port", "0", "--game-length", "1",
         "--seed", "5", "--replay", str(replay)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=_env(),
    )  # fmt: skip
    try:
        address = None
        began = time.monotonic()
        while address is None and time.monotonic() - began < 300:
            line = server.stderr.readline()
            if "ws://" in line:
                address = line.split(" on ")[1].split()[0]
        assert address, "the server did not say where it listens"
        clients = [
            subprocess.Popen([sys.executable, "client.py", address, str(seed)], stdout=subprocess.PIPE, text=True,
                             cwd=tmp_path, env=_env())
            for seed in (1, 2)
        ]  # fmt: skip
        overs = [json.loads(client.communicate(timeout=300)[0]) for client in clients]
        server.wait(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 0
    assert overs[0] == overs[1] and overs[0]["terminated"]
    data = read_replay(replay)
    assert [shot["side"] for shot in data["shots"]] == ["A", "B"] * 8
    again = resimulate(data)
    assert compare(data, again).identical
    _, board, _ = again.board()
    assert [[x, y, team] for x, y, team in board] == data["board"]["discs"]
    run = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "replay", str(replay), "--out", str(tmp_path / "drawn")],
        capture_output=True, text=True, env=_env(), check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "the same game bit for bit" in run.stdout
    assert (tmp_path / "drawn" / "game1-frame01.png").is_file()


def test_a_replay_that_is_not_the_game_played_is_caught(tmp_path):
    session = GameSession("crokinole", {"A": None, "B": None}, seed=1, length=1)
    lines = [json.dumps({"start": 0.5, "direction": 0.0, "speed": 1.0, "spin": 0.0})] * 16
    serve_streams(session, tmp_path / "r.json", io.StringIO("\n".join(lines) + "\n"), io.StringIO())
    data = read_replay(tmp_path / "r.json")
    data["shots"][3]["intended"]["vx"] += 1e-12
    result = compare(data, resimulate(data))
    assert not result.identical and result.difference.startswith("shot 4: the executed")


def test_malformed_lines_get_a_one_line_error_naming_the_field_and_the_game_goes_on(tmp_path):
    session = GameSession("crokinole", {"A": None, "B": plan_opponent()}, seed=2, length=1)
    good = json.dumps({"start": 0.5, "direction": 0.0, "speed": 1.0, "spin": 0.0})
    bad = [
        "not json",
        "[1, 2]",
        json.dumps({"start": 0.5, "direction": 0.0, "speed": "fast", "spin": 0.0}),
        json.dumps({"start": 0.5, "direction": 0.0, "spin": 0.0}),
        json.dumps({"start": 0.5, "direction": 0.0, "speed": 99.0, "spin": 0.0}),
        json.dumps({"start": 0.5, "direction": 0.0, "speed": 1.0, "spin": 0.0, "curl": 1}),
    ]
    out = io.StringIO()
    serve_streams(session, tmp_path / "r.json", io.StringIO("\n".join([*bad, *[good] * 8]) + "\n"), out)
    messages = [json.loads(line) for line in out.getvalue().splitlines()]
    errors = [m["error"] for m in messages if m["type"] == "error"]
    assert errors == [
        "shot: not a JSON object (Expecting value at column 1)",
        "shot: a JSON object with start, direction, speed, spin is expected (got [1, 2])",
        "speed: must be a finite number (got 'fast')",
        "speed: missing (a shot gives start, direction, speed, spin)",
        errors[4],
        "curl: not a field of a shot (the fields: start, direction, speed, spin)",
    ]
    assert errors[4].startswith("speed: must lie in [0, ")
    kinds = [m["type"] for m in messages]
    assert kinds[:3] == ["hello", "state", "error"] and kinds[3] == "state"
    assert kinds[-1] == "over" and messages[-1]["terminated"]
    assert kinds.count("shot") == 16


def plan_opponent():
    from shuffle_sim.playing.player_names import (
        as_player,
    )

    return as_player("crokinole", PLAN["crokinole"])


def docs_client() -> str:
    """The complete client of the docs' page on the shot protocol."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text()
    blocks = [block.split("```", 1)[0] for block in page.split("```python\n")[1:]]
    (client,) = [block for block in blocks if '"serve"' in block]
    return client


def test_the_docs_client_plays_a_whole_game_on_standard_input_and_output(tmp_path):
    """The docs' client: a few lines, nothing imported of the package."""
    client = docs_client()
    assert "shuffle_sim" not in client and len(client.splitlines()) < 15
    (tmp_path / "client.py").write_text(client)
    run = subprocess.run([sys.executable, "client.py"], cwd=tmp_path, capture_output=True, text=True, env=_env(),
                         timeout=900, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    winner = run.stdout.split()[0]
    assert winner in ("A", "B", "None")
    data = read_replay(tmp_path / "results" / "serve-deck-seed0.json")
    assert data["finished"] and data["sides"]["B"]["player"] == "expert-plan"
    assert compare(data, resimulate(data)).identical
