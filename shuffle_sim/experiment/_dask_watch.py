"""Which chunks a Dask run computes again because a worker was lost.

When a worker dies mid-run (killed, out of memory, its machine gone), the Dask scheduler takes the
tasks it was running, and the results it held that nobody has fetched yet, and runs them again on
other workers; the run completes without the caller doing anything. Every chunk is a pure function
of the experiment and its index, so a chunk computed twice gives the same numbers, and the results
stay bit-identical to a run without the loss. What the caller cannot see is that it happened.

The scheduler publishes each lost worker as a ``remove-worker`` event on its ``"all"`` topic, with
the keys the worker was processing and the computed keys lost with it. ``WorkerLossWatch``
subscribes to that topic for the length of a run and, at each ``report()``, tells ``on_retry(worker,
chunks)`` which of the run's unfinished chunks are being computed again.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

TOPIC = "all"


class WorkerLossWatch:
    """Watch a Dask client's scheduler for lost workers while a run's chunk tasks are pending.

    ``index_of`` maps each chunk task's key to its chunk index; ``done(key)`` marks a chunk whose
    result has been received (a worker lost after that takes nothing of the run's with it).
    """

    def __init__(self, client, index_of: dict[str, int], on_retry: Callable[[str, list[int]], None] | None):
        self.client = client
        self.index_of = index_of
        self.on_retry = on_retry
        self.pending = set(index_of)
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.subscribed = False

    def _receive(self, event) -> None:
        """Called by the client (in its event loop) with each event of the topic: (time, message)."""
        message = event[1] if isinstance(event, tuple) and len(event) == 2 else event
        if isinstance(message, dict) and message.get("action") == "remove-worker":
            self.events.put(message)

    def __enter__(self) -> WorkerLossWatch:
        if self.on_retry is not None:
            self.client.subscribe_topic(TOPIC, self._receive)
            self.subscribed = True
        return self

    def __exit__(self, *exc) -> None:
        if self.subscribed:
            self.report()
            self.client.unsubscribe_topic(TOPIC)
            self.subscribed = False

    def done(self, key: str) -> None:
        self.pending.discard(key)

    def report(self) -> None:
        """Tell ``on_retry`` of every worker lost since the last report, with the run's chunks it took."""
        while True:
            try:
                message = self.events.get_nowait()
            except queue.Empty:
                return
            keys = set(message.get("processing-tasks") or ()) | set(message.get("lost-computed-tasks") or ())
            chunks = sorted(self.index_of[k] for k in keys & self.pending)
            if chunks and self.on_retry is not None:
                self.on_retry(str(message.get("worker", "?")), chunks)
