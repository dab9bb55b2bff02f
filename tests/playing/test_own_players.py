"""Players of one's own: any object with ``choose(ctx, skill)`` plays a side of ``play`` beside the
built-in players, under the skill it names."""

from __future__ import annotations

import pytest

from shuffle_sim import play
from shuffle_sim.noise import EXACT
from shuffle_sim.playing.player_names import (
    as_player,
    default_skill,
)
from shuffle_sim.playing.players import (
    Decision,
    Draw,
    PlayerError,
)


class CentreDrawer:
    """Draws to the middle of the board or table's scoring area, always: the simplest own strategy."""

    name = "centre-drawer"

    def __init__(self, skill=None):
        if skill is not None:
            self.skill = skill
        self.seen = 0

    def choose(self, ctx, skill):
        self.seen += 1
        y = 0.0 if ctx.court.holes else _spot(ctx)  # crokinole: the board's centre
        intent = Draw(0.0, y, label="draw to the middle")
        return Decision(intent, intent.aim(ctx))


def _spot(ctx) -> float:
    from shuffle_sim.playing.players import zone_spot

    return zone_spot(ctx.court, "10" if ctx.court.game == "deck" else "3")[1]


def test_an_own_player_plays_beside_a_built_in_one():
    mine = CentreDrawer()
    record = play("deck", players=[mine, "expert-plan"], seed=2, game_length=15)
    assert record.players == {"A": "centre-drawer", "B": "expert-plan"}
    game = record.games[0]
    assert game.finished
    shots = [s for f in game.frames for s in f.shots if s.team == "A"]
    assert len(shots) == mine.seen > 0
    assert all(s.intent == "draw to the middle" and s.player == "centre-drawer" for s in shots)


def test_the_same_seed_plays_the_same_game_with_an_own_player():
    first = play("crokinole", players=["top-competitive-plan", CentreDrawer()], seed=4, game_length=1)
    again = play("crokinole", players=["top-competitive-plan", CentreDrawer()], seed=4, game_length=1)
    assert first.to_dict() == again.to_dict()


def test_an_own_player_plays_under_the_skill_it_names():
    assert as_player("deck", CentreDrawer()).skill.name == default_skill("deck") == "expert"
    assert as_player("crokinole", CentreDrawer()).skill.name == "top competitive"
    assert as_player("deck", CentreDrawer("novice")).skill.name == "novice"
    assert as_player("deck", CentreDrawer(EXACT)).skill is EXACT
    with pytest.raises(PlayerError, match="players: CentreDrawer: unknown skill 'wizard' for deck"):
        as_player("deck", CentreDrawer("wizard"))
    with pytest.raises(PlayerError, match="skill must be a preset name or a NoiseModel"):
        as_player("deck", CentreDrawer(3))


def test_what_is_not_a_player_is_named():
    with pytest.raises(PlayerError, match=r"an object with a choose\(ctx, skill\) method \(got 42\)"):
        play("deck", players=[42, "expert-plan"])
    with pytest.raises(PlayerError, match="expected two players"):
        play("deck", players=[CentreDrawer()])
