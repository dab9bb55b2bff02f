"""A simulated result read as a user reads it: its events iterate as records, its statuses have names,
and its repr is one short line (also inside the records that hold one)."""

import numpy as np

from shuffle_sim.court import load_court
from shuffle_sim.physics import EVENT_NAMES, STATUS_NAMES, simulate
from shuffle_sim.physics.scene import Scene

CROKINOLE = load_court("crokinole")


def two_discs():
    """A disc shot at a resting one near the centre of the crokinole board."""
    return simulate(
        Scene(
            court=CROKINOLE,
            x=np.array([0.0, 0.0]),
            y=np.array([0.08, -0.28]),
            vx=np.zeros(2),
            vy=np.array([0.0, 1.4]),
            omega=np.zeros(2),
        )
    )


def test_events_iterate_as_records_in_time_order():
    result = two_discs()
    rows = list(result.events)
    assert len(rows) == len(result.events) > 0
    assert rows == result.events.records()
    assert rows[0]["kind"] == "disc" and {rows[0]["a"], rows[0]["b"]} == {0, 1}
    assert [row["t"] for row in rows] == sorted(row["t"] for row in rows)
    assert all(row["kind"] in EVENT_NAMES for row in result.events)


def test_statuses_have_names():
    result = two_discs()
    assert result.status_names == tuple(STATUS_NAMES[int(code)] for code in result.status)
    assert set(result.status_names) <= {"rest", "fallen", "holed"}


def test_reprs_are_one_short_line():
    result = two_discs()
    text = repr(result)
    assert "\n" not in text and len(text) < 200 and "array" not in text
    assert text.startswith("SimResult(2 discs on 'crokinole': ")
    assert repr(result.events).startswith(f"EventLog({len(result.events)} events: ")
