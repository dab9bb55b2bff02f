"""C-20a read from the contact log: a disc already dead when it touched a live one (MSA rules).

Seed 000, rule C-20a: "If a dead disc rebounds or ricochets and touches a live disc, or causes another
dead disc to touch a live disc, the half-round shall be played over and a 10-Off PENALTY to the player
shooting the offending disc causing the replay." A disc is dead once it has touched the backstop
(C-20) or is entirely past the far baseline (C-21); what counts is its standing at the moment of the
contact, as the kernel logs it, not at the end of the shot.
"""

import math

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.physics.events import DISC_CUSHION
from shuffle_sim.physics.faces.simulate import sample_positions
from shuffle_sim.playing.players import Launch
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.common import Board, Contact
from shuffle_sim.rules.deck import dead_disc_touched_live, shot_effect

FT = 0.3048
COURT = load_court("deck").with_params(cushion_friction=0.0)
R = COURT.disc_radius
DECEL = COURT.params["mu"] * COURT.params["gravity"]


def _effect(outcome, team, shot_number=3):
    board = Board(COURT, outcome.x, outcome.y, tuple(team))
    judged_dead = board.judge().dead
    killed = [i for i in range(len(board)) if outcome.dead[i] and not judged_dead[i]]
    return shot_effect(board, shot_number, outcome.contacts, killed)


def test_a_live_disc_knocked_past_the_baseline_is_no_rebound():
    """The struck disc dies after the contact (past the far baseline): at the contact both were live,
    so C-20a does not apply -- the disc is only removed (C-21, C-22)."""
    target = (0.0, 44.9 * FT)  # in the 10-off area, in front of the far baseline
    # The struck disc leaves at 0.9 of the shot's speed (e = 0.8) and should stop about 0.8 m on.
    v_hit = math.sqrt(2 * DECEL * 0.8) / 0.9
    y0 = 40.0 * FT
    v0 = math.sqrt(v_hit**2 + 2 * DECEL * (target[1] - 2 * R - y0))
    outcome = shoot(COURT, [target[0]], [target[1]], Launch(0.5, 0.0, y0, 0.0, v0), ["black", "yellow"])
    assert outcome.dead[0] and outcome.y[0] > 45.5 * FT  # dead at the end of the shot ...
    assert outcome.contacts and all(not c.a_dead and not c.b_dead for c in outcome.contacts)  # ... live when hit
    effect = _effect(outcome, ["black", "yellow"])
    assert effect.penalty is None and not effect.ends_half_round
    assert 0 in effect.remove and "past the far baseline" in effect.why[0]


def test_a_disc_back_off_the_backstop_onto_a_live_disc_replays_the_half_round():
    """The shot disc touches the backstop (dead, C-20) and rebounds onto a live disc: C-20a."""
    aim = np.array([-0.2, 52 * FT - R]) - np.array([0.3, 1.0])
    u = aim / np.hypot(*aim)
    v0 = math.sqrt(3.5**2 + 2 * DECEL * np.hypot(*aim))
    launch = Launch(0.5, 0.3, 1.0, u[0] * v0, u[1] * v0)
    alone = shoot(COURT, [], [], launch)
    times, positions = sample_positions(alone.result, 4001)
    (t_wall,) = alone.result.events.t[alone.result.events.kind == DISC_CUSHION]
    back = positions[times > t_wall, 0]
    spot = back[np.flatnonzero(back[:, 1] < 13.4)[0]]  # on the rebound's path, in front of the baseline
    outcome = shoot(COURT, [spot[0]], [spot[1]], launch, ["black", "yellow"])
    first = outcome.contacts[0]
    assert (first.a, first.b, first.a_dead, first.b_dead) == (0, 1, False, True) or (
        first.a,
        first.b,
        first.a_dead,
        first.b_dead,
    ) == (1, 0, True, False)
    effect = _effect(outcome, ["black", "yellow"])
    assert effect.penalty == "C-20a" and effect.replay
    assert _effect(outcome, ["black", "yellow"], shot_number=8).replay is False  # the eighth disc


@pytest.mark.parametrize(
    "contacts, fires",
    [
        ([Contact(0, 1, False, False)], False),  # both live at the contact, whatever became of them
        ([Contact(0, 1, True, False)], True),  # a dead disc touches a live one
        (
            [Contact(2, 0, True, True), Contact(0, 1, True, False)],
            True,
        ),  # "causes another dead disc to touch a live disc"
        ([Contact(2, 0, True, True)], False),  # dead on dead only
    ],
)
def test_the_contact_logs_standing_at_the_moment_decides(contacts, fires):
    """C-20a reads each contact's dead flags as logged at the contact."""
    assert dead_disc_touched_live(contacts) is fires
