"""Games on courts that are not flat: every game plays to its end, and a seed fixes the game."""

import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing import SIDES, players_from
from shuffle_sim.playing.crokinole import play_crokinole_game
from shuffle_sim.playing.deck import play_deck_game
from shuffle_sim.playing.horse_collar import play_horse_collar_game
from shuffle_sim.playing.players import PlayerError
from shuffle_sim.playing.ricochet import play_ricochet_game
from shuffle_sim.rules.crokinole import CrokinoleGame, CrokinoleOptions
from shuffle_sim.rules.deck_game import DeckGame, DeckOptions
from shuffle_sim.rules.horse_collar import HorseCollarGame, HorseCollarOptions
from shuffle_sim.rules.ricochet import RicochetGame, RicochetOptions

#: Each game, a short game of it, its driver and a surface that is not flat.
GAMES = {
    "deck": (lambda: DeckGame(*SIDES, options=DeckOptions(frames=4)), play_deck_game, {"slope": [0.001, 0.0]}),
    "horse-collar": (
        lambda: HorseCollarGame(*SIDES, options=HorseCollarOptions(game_point=21)),
        play_horse_collar_game,
        {"crown": "1/16 in"},
    ),
    "ricochet": (
        lambda: RicochetGame(SIDES, options=RicochetOptions(game_point=15)),
        play_ricochet_game,
        {"slope": [0.002, 0.0], "crown": "1/32 in"},
    ),
    "crokinole": (
        lambda: CrokinoleGame(SIDES, CrokinoleOptions(rounds=2)),
        play_crokinole_game,
        {"slope": [0.01, 0.005]},
    ),
}
PLAYERS = {"crokinole": "top-competitive-plan,top-competitive-plan-flat"}


def _play(game: str, seed: int):
    make, run, params = GAMES[game]
    court = load_court(game).with_params(**params)
    return run(make(), players_from(game, PLAYERS.get(game, "expert-plan,expert-plan-flat")), seed, court=court)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_on_a_court_that_is_not_flat_plays_to_its_end(game):
    record = _play(game, seed=5)
    assert record.finished and record.winner in (*SIDES, None) and record.frames
    assert max(record.totals.values()) > 0


def test_a_game_on_a_graded_court_is_the_same_for_the_same_seed():
    first, again = _play("deck", seed=11), _play("deck", seed=11)
    assert [f.score for f in first.frames] == [f.score for f in again.frames]
    assert [f.board for f in first.frames] == [f.board for f in again.frames]
    shots = [s.launch for f in first.frames for s in f.shots]
    assert shots and shots == [s.launch for f in again.frames for s in f.shots]


def test_the_deck_engine_refuses_a_court_that_is_not_flat():
    from shuffle_sim.playing.deck_engine import run_deck_games

    court = load_court("deck").with_params(crown="1/32 in")
    with pytest.raises(PlayerError, match=r"deck game engine: court 'deck' is not flat \(crown"):
        run_deck_games(court, [[0.0] * 5] * 2, 0, 1)
