"""A Dask worker killed mid-run: the run completes, bit-identical to a single-process run, and says
which chunks it computed again."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import xarray as xr

from shuffle_sim.experiment._dask_watch import WorkerLossWatch
from shuffle_sim.experiment._runner import run_experiment
from shuffle_sim.experiment.spec import parse_experiment
from shuffle_sim.experiment.store import open_results

# A take-out among six resting discs: chunks of 80,000 shots take a good fraction of a second each on
# one thread, so a worker is caught holding chunks.
CROWDED = """
name = "crowded-takeout"
court = "deck"
seed = 17
samples = 40000
chunk_size = 80000
[shot]
start = ["9 in", "7.25 ft"]
team = "yellow"
[grid]
speed = [1.8, 2.0, 2.2, 2.4]
direction = [-1.6, -1.3, -1.0, -0.7]
[noise]
preset = "average"
[board]
discs = [
    { name = "a", team = "black", x = "0 ft", y = "37.3 ft" },
    { name = "b", team = "yellow", x = "-0.6 ft", y = "39.6 ft" },
    { name = "c", team = "black", x = "0.7 ft", y = "36.0 ft" },
    { name = "d", team = "yellow", x = "-0.9 ft", y = "35.2 ft" },
    { name = "e", team = "black", x = "0.3 ft", y = "40.5 ft" },
    { name = "f", team = "yellow", x = "1.1 ft", y = "38.4 ft" },
]
[collect]
outcomes = ["expected_value", "p_value", "p_removed", "expected_margin"]
"""


def _kill_a_busy_worker(address: str, worker_pids: dict[str, int], killed: dict) -> None:
    """Watch the scheduler (with a client of its own) until a worker holds chunks, then SIGKILL it."""
    from dask.distributed import Client

    with Client(address, timeout="20s") as watcher:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for worker, keys in watcher.processing().items():
                chunks = [k for k in keys if str(k).startswith("shuffle-sim-chunk-")]
                if chunks and worker in worker_pids:
                    os.kill(worker_pids[worker], signal.SIGKILL)
                    killed.update(worker=worker, chunks={int(str(k).split("-")[3]) for k in chunks})
                    return
            time.sleep(0.005)


def test_a_killed_dask_worker_changes_nothing_but_is_reported(tmp_path, capsys):
    distributed = pytest.importorskip("dask.distributed")
    experiment = parse_experiment(CROWDED, "crowded-takeout.toml")
    assert experiment.n_chunks(80000) == 8
    reference = run_experiment(experiment, tmp_path / "single", progress=False)
    assert reference.complete and reference.retried == ()

    killed: dict = {}
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        worker_pids = client.run(os.getpid)
        killer = threading.Thread(target=_kill_a_busy_worker, args=(cluster.scheduler_address, worker_pids, killed))
        killer.start()
        try:
            summary = run_experiment(experiment, tmp_path / "dask", dask=client, progress=True)
        finally:
            killer.join()
    assert killed, "no worker was caught holding chunks"
    assert summary.complete and summary.computed == 8
    assert summary.retried and set(summary.retried) <= killed["chunks"]
    err = capsys.readouterr().err
    assert f"lost Dask worker {killed['worker']}; computing again chunk" in err
    assert f"{len(summary.retried)} retried" in err
    xr.testing.assert_identical(open_results(tmp_path / "dask"), open_results(tmp_path / "single"))


class _Client:
    """Just enough of a ``distributed.Client`` for the watch: topic subscriptions."""

    def __init__(self):
        self.handlers = {}

    def subscribe_topic(self, topic, handler):
        self.handlers[topic] = handler

    def unsubscribe_topic(self, topic):
        del self.handlers[topic]


def test_the_watch_reports_only_the_runs_unfinished_chunks():
    client = _Client()
    heard = []
    index_of = {"chunk-a": 0, "chunk-b": 1, "chunk-c": 2}
    with WorkerLossWatch(client, index_of, lambda worker, chunks: heard.append((worker, chunks))) as watch:
        send = client.handlers["all"]
        watch.done("chunk-a")
        send(
            (
                1.0,
                {
                    "action": "remove-worker",
                    "worker": "tcp://w1",
                    "processing-tasks": {"chunk-a", "other"},
                    "lost-computed-tasks": {"chunk-c"},
                },
            )
        )
        send((2.0, {"action": "add-worker", "worker": "tcp://w2"}))
        send(
            (
                3.0,
                {
                    "action": "remove-worker",
                    "worker": "tcp://w3",
                    "processing-tasks": set(),
                    "lost-computed-tasks": set(),
                },
            )
        )
        assert heard == []  # reported when the run next looks, in its own thread
        watch.report()
        assert heard == [("tcp://w1", [2])]
        send((4.0, {"action": "remove-worker", "worker": "tcp://w4", "processing-tasks": {"chunk-b"}}))
    assert heard[-1] == ("tcp://w4", [1])  # leaving the watch reports what is left
    assert client.handlers == {}
