"""``shuffle-sim serve``: one game for programs in any language, over standard input and output or a
WebSocket, in the shot protocol (``protocol``).

On standard input and output one client plays every external side: the ``state`` names the side to
play. Over a WebSocket (``serve_socket``) each external side has its own client, in the order they
connect (the ``hello`` says which side is whose); the game starts when every side has one. Every
client hears every shot. A line that cannot be played gets an ``error`` naming the field, and the
``state`` again: the game goes on. A client that leaves ends the game there. Whatever way it ends,
the game's replay is written (``replays``) and the ``over`` message names it.

The game's shots run in a worker thread, so that a built-in player's long think never stalls the
connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable
from typing import Protocol, TextIO

from shuffle_sim.envs import protocol
from shuffle_sim.envs.actions import EnvError
from shuffle_sim.envs.replays import write_replay
from shuffle_sim.envs.session import GameSession
from shuffle_sim.playing import SIDES


class Channel(Protocol):
    """One client's connection: messages out, lines in (None once the client has gone)."""

    async def send(self, message: dict) -> None: ...

    async def receive(self) -> str | None: ...


class StreamChannel:
    """A client on text streams (standard input and output): one JSON object per line."""

    def __init__(self, reader: TextIO, writer: TextIO):
        self.reader = reader
        self.writer = writer

    async def send(self, message: dict) -> None:
        self.writer.write(protocol.line(message) + "\n")
        self.writer.flush()

    async def receive(self) -> str | None:
        text = await asyncio.to_thread(self.reader.readline)
        return text or None


class SocketChannel:
    """A client on a WebSocket: one JSON object per message."""

    def __init__(self, connection):
        self.connection = connection

    async def send(self, message: dict) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):  # a client that has gone: ``receive`` says so
            await self.connection.send(protocol.line(message))

    async def receive(self) -> str | None:
        from websockets.exceptions import ConnectionClosed

        try:
            message = await self.connection.recv()
        except ConnectionClosed:
            return None
        return message if isinstance(message, str) else message.decode("utf-8", "replace")


async def play_served(session: GameSession, channels: dict[str, Channel], replay: str | os.PathLike) -> dict:
    """Play ``session`` with ``channels`` (by external side) to its end; returns the ``over`` message."""
    listeners: list[Channel] = []
    for channel in channels.values():
        if all(channel is not known for known in listeners):
            listeners.append(channel)
    for channel in listeners:
        await channel.send(protocol.hello(session, [s for s, c in channels.items() if c is channel]))
    try:
        note = await _play_turns(session, channels, listeners)
    finally:  # the shots played are kept, however the game ends
        path = write_replay(session, replay)
    message = protocol.over(session, str(path), note)
    for channel in listeners:
        await channel.send(message)
    return message


async def _play_turns(session: GameSession, channels: dict[str, Channel], listeners: list[Channel]) -> str | None:
    """Play the game's turns, telling every client every shot; returns why it stopped early, if it did."""
    told = 0
    while True:
        pending = await asyncio.to_thread(session.advance)
        for log in session.shots[told:]:
            for channel in listeners:
                await channel.send(protocol.shot(log, session))
        told = len(session.shots)
        if pending is None:
            return None
        side = pending.turn.team
        channel = channels[side]
        await channel.send(protocol.state(session, side))
        while True:
            text = await channel.receive()
            if text is None:
                return f"the client of side {side} left: the game stopped"
            if not text.strip():
                continue
            try:
                action = protocol.parse_shot(text, session.limits)
                await asyncio.to_thread(session.shoot, action)
                break
            except EnvError as exc:
                await channel.send(protocol.error(exc))
                await channel.send(protocol.state(session, side))


def external_sides(session: GameSession) -> list[str]:
    sides = [side for side in SIDES if session.external(side)]
    if not sides:
        raise EnvError("players: a served game needs a side played by a client")
    return sides


def serve_streams(
    session: GameSession,
    replay: str | os.PathLike,
    reader: TextIO | None = None,
    writer: TextIO | None = None,
) -> dict:
    """Serve ``session`` to one client on text streams (default standard input and output)."""
    channel = StreamChannel(reader or sys.stdin, writer or sys.stdout)
    channels: dict[str, Channel] = dict.fromkeys(external_sides(session), channel)
    return asyncio.run(play_served(session, channels, replay))


def serve_socket(
    session: GameSession,
    replay: str | os.PathLike,
    host: str = "127.0.0.1",
    port: int = 0,
    on_listen: Callable[[str], None] | None = None,
) -> dict:
    """Serve ``session`` over a WebSocket at ``host``:``port`` (0: a free port), one client per
    external side; ``on_listen`` is told the address once it listens."""
    return asyncio.run(_serve_socket(session, replay, host, port, on_listen))


async def _serve_socket(session, replay, host, port, on_listen) -> dict:
    from websockets.asyncio.server import serve

    sides = external_sides(session)
    channels: dict[str, Channel] = {}
    everyone = asyncio.Event()
    finished = asyncio.Event()

    async def join(connection) -> None:
        if len(channels) == len(sides):
            await connection.send(protocol.line(protocol.error("every side of this game has a client already")))
            return
        channels[sides[len(channels)]] = SocketChannel(connection)
        if len(channels) == len(sides):
            everyone.set()
        await finished.wait()  # the connection stays open until the game is over

    async with serve(join, host, port) as server:
        bound = server.sockets[0].getsockname()
        if on_listen is not None:
            on_listen(f"ws://{bound[0]}:{bound[1]}")
        await everyone.wait()
        try:
            return await play_served(session, channels, replay)
        finally:
            finished.set()
