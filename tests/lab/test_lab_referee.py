"""The lab's rules after a shot are the game drivers' (``FramePlay.after_shot``), and its frame score
is ``shuffle-sim score``'s.

The oracle is the game loop's own code: for each game, shots among a few resting discs are run once
(``playing.shooting.shoot``) and handed both to the game's ``FramePlay.after_shot`` and to the lab's
``referee.rule_shot``; the discs each keeps, in order, and the 20s each sets aside must agree.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.lab.board import LabBoard
from shuffle_sim.lab.referee import Disc, FrameState, after_ruling, rule_shot
from shuffle_sim.lab.shots import Aim, play_shot
from shuffle_sim.lab.starts import legal_starts
from shuffle_sim.playing.players import Launch
from shuffle_sim.playing.shooting import shoot

CROKINOLE = load_court("crokinole")
#: Shots per game in the comparison with the game drivers.
SHOTS = 24


def _launches(court, starts, targets, rng, n):
    """``n`` launches from random points of the starts toward random targets, at speeds that reach
    them and some way beyond."""
    decel = court.params["mu"] * court.params["gravity"]
    out = []
    for _ in range(n):
        start = starts[rng.integers(len(starts))]
        x, y = start.point(rng.uniform(0.1, 0.9))
        tx, ty = targets[rng.integers(len(targets))]
        tx, ty = tx + rng.normal(0, 2 * court.disc_radius), ty + rng.normal(0, 2 * court.disc_radius)
        distance = math.hypot(tx - x, ty - y) * rng.uniform(0.7, 1.8)
        speed = math.sqrt(2 * decel * distance)
        a = math.atan2(ty - y, tx - x)
        out.append((start, Launch(0.0, x, y, speed * math.cos(a), speed * math.sin(a), rng.normal(0, 3.0))))
    return out


def _lab_after(court, discs, teams_before, shooter, outcome, start_x, state=None):
    state = state or FrameState(discs=tuple(Disc(x, y, t) for x, y, t in discs))
    ruling = rule_shot(court, [*list(teams_before), shooter], outcome, state, start_x)
    return ruling, after_ruling(state, ruling)


def _same_board(frame, after):
    assert [(d.x, d.y, d.team) for d in after.discs] == list(zip(frame.xs, frame.ys, frame.teams))


def test_crokinole_rulings_are_the_game_drivers():
    from shuffle_sim.playing.crokinole import CrokinoleFrame, CrokinoleTactics
    from shuffle_sim.rules.crokinole import CrokinoleGame

    court = CROKINOLE
    board = [(0.0, 0.06, "dark"), (0.05, -0.04, "light"), (-0.1, 0.16, "dark"), (0.16, 0.12, "light")]
    rng = np.random.default_rng(1)
    starts = [s for s in legal_starts(court) if s.position == "south"]
    targets = [(0.0, 0.0)] + [(x, y) for x, y, _ in board]
    seen = {"foul": 0, "twenty": 0, "kept": 0}
    for k, (_start, launch) in enumerate(_launches(court, starts, targets, rng, SHOTS)):
        boards = board if k % 3 else [d for d in board if d[2] == "light"]  # open boards too (open-shot rule)
        game = CrokinoleGame(("light", "dark"))
        frame = CrokinoleFrame(court, CrokinoleTactics(court), game)
        turn = frame.next_turn()
        frame.xs, frame.ys, frame.teams = [d[0] for d in boards], [d[1] for d in boards], [d[2] for d in boards]
        outcome = shoot(court, frame.xs, frame.ys, launch)
        ruling, after = _lab_after(court, boards, frame.teams, turn.team, outcome, launch.x)
        frame.after_shot(turn, outcome)
        _same_board(frame, after)
        assert {s: n for s, n in frame.twenties.items() if n} == dict(after.twenties)
        seen["foul"] += ruling.foul is not None
        seen["twenty"] += bool(ruling.twenties)
        seen["kept"] += len(ruling.kept) > len(boards)
    assert all(seen.values()), seen  # the shots covered fouls, 20s and shots that stay


def test_deck_rulings_are_the_game_drivers():
    from shuffle_sim.playing.deck import DeckFrame, DeckTactics
    from shuffle_sim.playing.deck_engine import deck_setup
    from shuffle_sim.rules.deck_game import DeckGame

    setup = deck_setup(load_court("deck"))
    rng = np.random.default_rng(2)
    board = [(0.0, 11.3, "black"), (0.25, 12.5, "yellow"), (-0.3, 13.4, "black"), (0.2, 9.0, "yellow")]
    removed = 0
    for _k in range(SHOTS // 2):
        game = DeckGame("A", "B")
        frame = DeckFrame(setup, DeckTactics(setup), game)
        court = frame.court
        starts = legal_starts(court)
        turn = frame.next_turn()
        frame.xs, frame.ys, frame.teams = [d[0] for d in board], [d[1] for d in board], [d[2] for d in board]
        _start, launch = _launches(court, starts, [(x, y) for x, y, _ in board] + [(0.0, 15.0)], rng, 1)[0]
        outcome = shoot(court, frame.xs, frame.ys, launch)
        ruling, after = _lab_after(court, board, frame.teams, turn.colour, outcome, launch.x)
        frame.after_shot(turn, outcome)
        _same_board(frame, after)
        removed += len(ruling.removed)
    assert removed  # the disc short of the dead line, at least


def test_horse_collar_and_ricochet_rulings_are_the_game_drivers():
    from shuffle_sim.playing.horse_collar import HorseCollarFrame, HorseCollarTactics
    from shuffle_sim.playing.ricochet import RicochetFrame, RicochetTactics
    from shuffle_sim.rules.horse_collar import HorseCollarGame
    from shuffle_sim.rules.ricochet import RicochetGame

    rng = np.random.default_rng(3)
    court = load_court("horse-collar")
    for _start, launch in _launches(court, legal_starts(court), [(0.0, 6.2), (0.2, 6.3)], rng, SHOTS // 2):
        frame = HorseCollarFrame(court, HorseCollarTactics(court), HorseCollarGame("A", "B"))
        turn = frame.next_turn()
        frame.xs, frame.ys, frame.teams = [0.05], [5.9], ["A"]
        outcome = shoot(court, frame.xs, frame.ys, launch)
        _, after = _lab_after(court, [(0.05, 5.9, "A")], ["A"], "A", outcome, launch.x)
        frame.after_shot(turn, outcome)
        _same_board(frame, after)

    court = load_court("ricochet")
    for side in ("left", "right"):
        game = RicochetGame(("A", "B"), starter="A", start_side=side)
        starts = [s for s in legal_starts(court) if s.position == side]
        for _start, launch in _launches(court, starts, [(0.0, 1.5), (0.3, 0.4), (-0.3, 0.4)], rng, SHOTS // 4):
            frame = RicochetFrame(court, RicochetTactics(court), game)
            turn = frame.next_turn()
            board = [(-0.2, 0.35, "B"), (0.25, 0.4, "B")]
            frame.xs, frame.ys, frame.teams = [d[0] for d in board], [d[1] for d in board], [d[2] for d in board]
            outcome = shoot(court, frame.xs, frame.ys, launch)
            _ruling, after = _lab_after(court, board, frame.teams, turn.team, outcome, launch.x)
            frame.after_shot(turn, outcome)
            _same_board(frame, after)
            assert after.half == ("right" if side == "left" else "left")


def _open_twenty(board: LabBoard) -> Aim:
    """The lab's shot that stops on the 20 hole from the south seat."""
    start = next(s for s in legal_starts(board.court) if s.position == "south")
    x, y = start.point(0.5)
    decel = board.court.params["mu"] * board.court.params["gravity"]
    return Aim(x, y, math.sqrt(2 * decel * math.hypot(x, y)), math.degrees(math.atan2(-y, -x)), 0.0, "light")


def test_two_twenties_in_a_row_are_set_aside_and_counted_and_the_board_reads_back(tmp_path):
    from shuffle_sim.lab.files import board_json, parse_text

    board = LabBoard(CROKINOLE)
    board.place(0.15, 0.0, "light")
    for k in (1, 2):
        played = play_shot(board, _open_twenty(board))
        assert [r.why for r in played.ruling.removed] == ["in the 20 hole: 20, removed at once"]
        board.set_state(played.after)
        assert board.state.twenty_counts == {"light": k} and len(board.discs) == 1
    frame = board.frame_score()
    assert frame.scores == {"light": 2 * 20 + 10}  # the disc at 0.15 m is in the 10 ring
    text = board_json(board)
    assert json.loads(text)["twenties"] == {"light": 2}
    assert parse_text("board.json", text, CROKINOLE).state == board.state.__class__(
        discs=board.state.discs, twenties=(("light", 2),)
    )
    path = tmp_path / "board.json"
    path.write_text(text)
    scored = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "score", "crokinole", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["scores"] == {"light": 50}


def test_the_hit_rule_removes_a_shot_that_reaches_no_opponent_disc():
    board = LabBoard(CROKINOLE)
    board.place(0.2, 0.15, "dark")
    played = play_shot(board, _open_twenty(board))  # drops into the hole, far from the dark disc
    assert played.ruling.foul == "hit no opponent disc"
    assert played.ruling.removed[0].why == "the shot hit no opponent disc: removed"
    assert played.after.twenties == () and [d.team for d in played.after.discs] == ["dark"]


@pytest.mark.parametrize(
    "name, discs, state",
    [
        ("deck", [(0.0, 11.1, "yellow"), (0.3, 12.0, "black"), (0.1, 13.6, "black")], FrameState()),
        ("horse-collar", [(0.0, 6.2, "red"), (0.1, 5.9, "red")], FrameState()),
        ("ricochet", [(0.2, 0.3, "blue"), (0.25, 0.45, "red")], FrameState(half="right")),
        ("crokinole", [(0.0, 0.05, "light"), (0.15, 0.1, "dark")], FrameState(twenties=(("dark", 1),))),
    ],
)
def test_the_frame_score_is_what_shuffle_sim_score_gives_for_the_saved_board(tmp_path, name, discs, state):
    from shuffle_sim.lab.files import board_json

    court = load_court(name)
    board = LabBoard(court, FrameState(tuple(Disc(*d) for d in discs), state.twenties, state.half))
    path = tmp_path / "board.json"
    path.write_text(board_json(board))
    scored = subprocess.run(
        [sys.executable, "-m", "shuffle_sim.cli", "score", name, str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    expected = json.loads(scored.stdout)
    frame = board.frame_score()
    assert {k: v for k, v in frame.scores.items() if k in expected["scores"] or v} == expected["scores"]
    assert [d.reason for d in frame.discs] == [d["reason"] for d in expected["discs"]]


@pytest.mark.parametrize("edge", [-1e-9, 0.0])
def test_a_hand_placed_disc_never_rests_in_a_hole(edge):
    hole = CROKINOLE.holes[0]
    board = LabBoard(CROKINOLE)
    with pytest.raises(ValueError, match="lies in the 20 hole"):
        board.place(hole.x + hole.capture_radius + edge, hole.y, "light")
    board.place(hole.x + hole.capture_radius + 1e-6, hole.y, "light")


@pytest.mark.parametrize(
    "name, discs, start, speed, direction",
    [
        (
            "crokinole",
            [(0.0, 0.06, "dark"), (0.05, -0.04, "light"), (-0.03, -0.16, "light"), (0.16, 0.12, "dark")],
            0,
            0.95,
            90.0,
        ),
        ("deck", [(0.0, 11.3, "black"), (0.25, 12.5, "yellow"), (-0.3, 13.2, "black")], 0, 1.95, 90.5),
        ("horse-collar", [(0.0, 5.9, "red"), (0.1, 6.25, "red")], 0, 2.3, 90.0),
        ("ricochet", [(0.1, 0.3, "red"), (0.3, 0.45, "red")], 0, 2.4, 84.0),
    ],
)
def test_noisy_copies_are_ruled_as_the_same_shots_played_alone(name, discs, start, speed, direction):
    """The copies' rulings come from the batch (``copies.copy_outcome``); each equals the ruling of
    the same shot played alone through ``playing.shooting.shoot``, contact log and all."""
    from shuffle_sim.lab.copies import copy_outcome, launches
    from shuffle_sim.noise import NoiseModel
    from shuffle_sim.physics.scene import Scene
    from shuffle_sim.shots import simulate_shots

    court = load_court(name)
    board = LabBoard(court, FrameState(tuple(Disc(*d) for d in discs)))
    x, y = legal_starts(court)[start].point(0.5)
    aim = Aim(
        x,
        y,
        speed,
        direction,
        0.0,
        discs[0][2]
        if name == "horse-collar"
        else "light"
        if name == "crokinole"
        else "yellow"
        if name == "deck"
        else "blue",
    )
    shots = launches(aim, NoiseModel(speed=0.15, direction=0.06, spin=2.0), 120, seed=5)
    m = len(discs)
    resting = Scene(
        court=court, x=board.xs, y=board.ys, vx=np.zeros(m), vy=np.zeros(m), omega=np.zeros(m), team=board.teams
    )
    batch = simulate_shots(court, shots.x, shots.y, shots.vx, shots.vy, shots.omega, board=resting, bad_starts="skip")
    teams = [*board.teams, aim.team]
    kinds = set()
    for k in np.flatnonzero(batch.played & batch.ok):
        launch = Launch(0.0, shots.x[k], shots.y[k], shots.vx[k], shots.vy[k], shots.omega[k])
        alone = rule_shot(court, teams, shoot(court, board.xs, board.ys, launch), board.state, launch.x)
        ruled = rule_shot(court, teams, copy_outcome(board, batch, int(k), launch), board.state, launch.x)
        assert (ruled.kept, ruled.why, ruled.twenties, ruled.foul, ruled.penalty, ruled.half) == (
            alone.kept,
            alone.why,
            alone.twenties,
            alone.foul,
            alone.penalty,
            alone.half,
        ), k
        kinds |= {("removed" if alone.why else "kept"), ("hit" if batch.touched[k].any() else "clear")}
    assert kinds == {"removed", "kept", "hit", "clear"}, kinds  # the copies covered both sides of each
