"""The win players: tables of win probability, the rollouts, the search, and the head-to-head bench."""

import math

import numba
import numpy as np
import pytest

from shuffle_sim.court import load_court
from shuffle_sim.playing.crokinole import CrokinoleTactics
from shuffle_sim.playing.deck_engine import deck_setup
from shuffle_sim.playing.player_names import (
    parse_player,
)
from shuffle_sim.playing.players import (
    Open20,
    PlayerError,
    ShotContext,
    noise_vector,
    skills_for,
)
from shuffle_sim.playing.search._win_solve import FRAMES_SPAN
from shuffle_sim.playing.search.crokinole_rollout import crokinole_rollouts
from shuffle_sim.playing.search.deck_rollout import deck_rollouts
from shuffle_sim.playing.search.kr_uct import WinSearch
from shuffle_sim.playing.search.situations import CrokinoleSituation, DeckSituation, FrameValueSituation
from shuffle_sim.playing.search.win_tables import (
    _digest,
    _read,
    crokinole_table,
    deck_frames_table,
    deck_table,
    ricochet_table,
    win_tables,
)

DECK = load_court("deck")
CROKINOLE = load_court("crokinole")


# ---- tables ----------------------------------------------------------------------------------------


def test_crokinole_hammer_that_always_wins_ties_every_game():
    """Singles players alternate the first shot (the hammer alternates): if the hammer always wins its
    round, four rounds end 4-4 whoever starts, a tie (1/2)."""
    t = crokinole_table(np.array([1.0, 0.0, 0.0]), 4)
    span = t["span"]
    assert t["values"][span, 4, 0] == t["values"][span, 4, 1] == 0.5
    # two points up with one round left, without the hammer: the opponent's 2 ties the game
    assert t["values"][span + 2, 1, 0] == 0.5
    assert t["values"][span + 2, 1, 1] == 1.0


@pytest.mark.parametrize("lead, hammer, game_point, expected", [(0, 10, 20, 0.0), (10, 0, 20, 1.0), (5, 5, 10, 0.5)])
def test_deck_table_follows_the_game_flow(lead, hammer, game_point, expected):
    """Every half-round the lead side scores ``lead`` and the hammer side ``hammer``; the hammer leads
    the next one (C-3c). 0 and 10: the side leading the first half-round falls 10 behind, catches
    up, falls behind at 10-20 and loses (game over at game point and ahead, D-3). 5 and 5: level at
    game point forever (D-4 extension after extension): 1/2."""
    t = deck_table(np.array([[lead, hammer, 0]]), np.array([1.0]), game_point)
    assert t["lead"][-t["lo"], -t["lo"]] == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("frames, switch, expected", [(2, False, 0.5), (3, False, 1.0), (2, True, 1.0), (4, True, 0.5)])
def test_deck_frames_table_follows_the_game_flow(frames, switch, expected):
    """Every half-round the lead side scores 5 and the hammer none; the hammer leads the next (C-3c),
    but at a switch of colours half way (C-1) the side that led leads again. Two frames: a lead
    each, level, and the D-4 extension is level for ever (1/2); three: the first lead leads twice
    and wins 10-5. Switching after frame 1 of 2, the first lead leads both: 10-0."""
    t = deck_frames_table(np.array([[5, 0, 0]]), np.array([1.0]), frames, switch)
    assert t["lead"][0, t["span"]] == pytest.approx(expected, abs=1e-6)


def _played_out(rules_game, draw, rng):
    """Play a rules game to its end with frame outcomes drawn by ``draw(rng)``; 1 if side A won, 1/2 on
    a tie, else 0."""
    while not rules_game.over:
        draw(rules_game, rng)
    return 0.5 if rules_game.winner is None else float(rules_game.winner == "A")


def test_deck_frames_and_championship_tables_agree_with_the_rules_game_flow():
    """The tables against games played out by the rules layer (``rules.deck_game``,
    ``rules.crokinole``) with frame outcomes drawn from the same distribution: a Monte Carlo oracle
    of the whole game flow (who leads, the colour switch, the last frame, D-4, the 5th round)."""
    from shuffle_sim.rules.crokinole import CrokinoleGame, CrokinoleOptions
    from shuffle_sim.rules.deck_game import DeckGame, DeckOptions

    rng = np.random.default_rng(7)
    games = 6000
    deck = np.array([[7, 0, 0], [0, 10, 0], [3, 3, 0], [10, 8, 0], [0, 0, 0]])
    probs = np.full(len(deck), 1.0 / len(deck))

    def half_round(game, rng):
        lead, hammer, _ = deck[rng.integers(len(deck))]
        colour = game.lead_colour()
        other = "black" if colour == "yellow" else "yellow"
        game.record_half_round({colour: int(lead), other: int(hammer)})

    for frames, switch in ((5, False), (6, True)):
        won = [
            _played_out(DeckGame("A", "B", DeckOptions(frames=frames, switch_colours_at_half=switch)), half_round, rng)
            for _ in range(games)
        ]
        table = deck_frames_table(deck, probs, frames, switch)["lead"][0, FRAMES_SPAN]
        assert abs(np.mean(won) - table) < 4 * np.std(won) / math.sqrt(games), (frames, switch)

    rounds = np.array([0.4, 0.35, 0.25])  # the hammer side's round won, tied, lost

    def crokinole_round(game, rng):
        hammer = game.seats[(len(game.rounds) + 1) % 2][0]
        first = game.seats[len(game.rounds) % 2][0]
        k = rng.choice(3, p=rounds)
        game.record_round({hammer: (20, 10, 0)[k], first: 10})

    won = [
        _played_out(CrokinoleGame(("A", "B"), CrokinoleOptions(rounds=2, championship=True)), crokinole_round, rng)
        for _ in range(games)
    ]
    table = crokinole_table(rounds, 2, championship=True)
    # A shoots first in round 1: without the hammer in the next round
    assert abs(np.mean(won) - table["values"][table["span"], 2, 0]) < 4 * np.std(won) / math.sqrt(games)


def test_a_tied_championship_crokinole_game_goes_to_another_round():
    """If the hammer always wins its round, four rounds end level; a championship game plays a 5th
    round, the first shot alternating as before: the side with the hammer in round 1 has it again,
    and wins (a plain game is a tie)."""
    t = crokinole_table(np.array([1.0, 0.0, 0.0]), 4, championship=True)
    span = t["span"]
    assert t["values"][span, 4, 0] == 0.0 and t["values"][span, 4, 1] == 1.0
    level = CrokinoleSituation(4, 4, 0, 0, True, 0, 0, 4)
    extra = CrokinoleSituation(4, 4, 0, 0, True, 0, 0, 4, championship=True)
    tables = win_tables("crokinole")
    # the round tied: a plain game ends level, a championship one goes on, the hammer passing
    assert level.value(np.array([[30, 30]]))[0] == 0.5
    assert extra.value(np.array([[30, 30]]))[0] == pytest.approx(tables.crokinole(0, 0, False, 4, True))
    assert extra.value(np.array([[35, 30]]))[0] == 1.0


def test_a_deck_game_of_frames_ends_after_its_last_frame():
    """Frame 16 of 16, the hammer's last shot: ahead after it, the game is won whatever the score (a
    game to 75 would go on); level, the D-4 round follows, led by this half-round's hammer."""
    s = DeckSituation(mine=30, theirs=30, lead=False, shot=8, frames=16, played=15)
    assert s.after(np.array([3]), np.array([0]), np.array([False]))[0] == 1.0
    assert s.after(np.array([0]), np.array([7]), np.array([False]))[0] == 0.0
    to_75 = DeckSituation(mine=30, theirs=30, lead=False, shot=8)
    assert to_75.after(np.array([3]), np.array([0]), np.array([False]))[0] < 0.9
    level = s.after(np.array([0]), np.array([0]), np.array([False]))[0]
    assert level == pytest.approx(win_tables("deck").deck_extension(0, 2, 16, "frames"))
    # frame 1 of 16: the same as the table before it, led by the other side
    first = DeckSituation(mine=0, theirs=0, lead=True, shot=8, frames=16, played=0)
    expected = 1.0 - win_tables("deck").deck_frames(-2, 1, 16, False)
    assert first.after(np.array([2]), np.array([0]), np.array([False]))[0] == pytest.approx(expected)


def test_the_situation_of_a_game_in_play_knows_its_format():
    from types import SimpleNamespace

    from shuffle_sim.playing.search.situations import situation_of
    from shuffle_sim.rules.crokinole import CrokinoleGame, CrokinoleOptions
    from shuffle_sim.rules.deck_game import DeckGame, DeckOptions

    deck = DeckGame("A", "B", DeckOptions(frames=24))
    for _ in range(3):
        deck.record_half_round({"yellow": 0, "black": 0})
    half = deck.half_round()
    ctx = SimpleNamespace(info={"game": deck, "half": half}, turn=half.turns[0])
    s = situation_of(ctx)
    assert (s.frames, s.played, s.switch, s.lead) == (24, 3, True, True)
    assert (
        situation_of(
            SimpleNamespace(
                info={"game": DeckGame("A", "B", DeckOptions(frames=12, frames_or_game_point=True)), "half": half},
                turn=half.turns[0],
            )
        )
        is None
    )
    crokinole = CrokinoleGame(("A", "B"), CrokinoleOptions(championship=True))
    turns = crokinole.turns()
    frame = SimpleNamespace(planned=turns, taken=1, turns_after=lambda: turns[1:], twenties={})
    ctx = SimpleNamespace(
        info={"game": crokinole, "frame": frame, "twenties": {"A": 1}}, turn=crokinole.turns()[0], shooter="A"
    )
    s = situation_of(ctx)
    assert s.championship and s.twenties_mine == 1 and s.later == 15


def test_ricochet_scorer_starts_again():
    """The starter scores 5 every round and starts again (the scorer starts): it wins from 0-0."""
    t = ricochet_table(np.array([[5, 0]]), np.array([1.0]), 15)
    assert t["starter"][0, 0] == 1.0


@pytest.mark.parametrize("first", [True, False])
def test_a_ricochet_round_nobody_scores_keeps_its_starter(first):
    """The ricochet rules: "the player who scored last" starts the next round, so after a round nobody
    scores the same player starts again. Valued from the side of a shooter who did not start the
    round, the next round is the opponent's to start (``ricochet`` table from the opponent's side)."""
    table = win_tables("ricochet")
    s = FrameValueSituation("ricochet", 9, 6, 15, first)
    start = table.ricochet(9, 6, 15) if first else 1.0 - table.ricochet(6, 9, 15)
    assert s.value(np.array([0.0]))[0] == pytest.approx(start, abs=1e-12)
    # a scored round: the scorer starts next whoever started this one
    assert s.value(np.array([2.0]))[0] == pytest.approx(table.ricochet(11, 6, 15), abs=1e-12)
    assert s.value(np.array([-2.0]))[0] == pytest.approx(1.0 - table.ricochet(8, 9, 15), abs=1e-12)


def test_the_ricochet_situation_knows_who_started_the_round():
    from types import SimpleNamespace

    from shuffle_sim.playing.search.situations import situation_of
    from shuffle_sim.rules.ricochet import RicochetGame, RicochetOptions

    game = RicochetGame(("A", "B"), starter="B")
    ctx = SimpleNamespace(info={"game": game}, turn=SimpleNamespace(team="A"))
    assert situation_of(ctx) == FrameValueSituation("ricochet", 0, 0, 15, False)
    ctx.turn.team = "B"
    assert situation_of(ctx).first
    # the other option (the scorer shoots last next round) has no table: the player plays for the round
    ctx.info["game"] = RicochetGame(("A", "B"), options=RicochetOptions(scorer_starts=False))
    assert situation_of(ctx) is None


@pytest.mark.parametrize("game", ["deck", "crokinole", "horse-collar", "ricochet"])
def test_stored_tables_carry_their_provenance_and_match_their_outcomes(game):
    data = _read(game)
    for key in ("court", "players", "seed", "games", "game_length", "command"):
        assert key in data["provenance"]
    tables = win_tables(game)
    assert data["table"]["digest"] == _digest(tables.outcomes, tables.probs)
    assert data["frames"]["total"] == sum(row[-1] for row in data["frames"]["rows"])


def test_deck_table_is_monotone_in_the_scores():
    v = win_tables("deck").table(75)["lead"]
    assert (np.diff(v, axis=0) >= -1e-4).all() and (np.diff(v, axis=1) <= 1e-4).all()


# ---- rollouts --------------------------------------------------------------------------------------

SETUP = deck_setup(DECK)
SD = noise_vector(skills_for("deck")["expert"])


def _c20a_launch():
    """A firm black shot past a yellow 7 into the backstop, rebounding onto it (found by a search)."""
    sx, sy = SETUP.stance(1).point(0.5)
    a = math.atan2(15.85 - sy, -0.3 - sx) - 0.004
    return [0.5, 3.1 * math.cos(a), 3.1 * math.sin(a), 0.0]


def test_deck_rollouts_charge_c20a_to_the_shooter():
    """Seed 000, C-20a: "If a dead disc rebounds or ricochets and touches a live disc [...] the
    half-round shall be played over and a 10-Off PENALTY to the player shooting the offending disc
    [...] EXCEPT, if it was the result of the last disc"."""
    rows = np.array([_c20a_launch()] * 2)
    zero = np.zeros(4)
    last = deck_rollouts(DECK, [-0.6], [13.3], [0], 1, 1, rows, zero, zero, 0, 0, 0, 0)
    assert last["penalty"].tolist() == [1, 1] and last["last"].all()
    replay = deck_rollouts(DECK, [-0.6], [13.3], [0], 1, 1, rows, zero, zero, 3, 0, 0, 0)
    assert replay["penalty"].tolist() == [1, 1] and not replay["last"].any()
    s = DeckSituation(mine=40, theirs=40, lead=False, shot=8)
    assert s.value(1, last)[0] == pytest.approx(s.after(np.array([-10]), np.array([0]), np.array([False]))[0])


@pytest.mark.parametrize("rollout", ["deck", "crokinole"])
def test_rollouts_do_not_depend_on_the_thread_count(rollout):
    if rollout == "deck":
        rows = np.tile([0.5, 0.0, 2.1, 0.0], (40, 1))

        def run():
            out = deck_rollouts(DECK, [0.1, -0.2], [11.0, 12.5], [0, 1], 1, 0, rows, SD, SD, 5, 7, 3, 11)
            return np.concatenate([out["points"].ravel(), out["penalty"], out["x"].ravel()])
    else:
        tactics = CrokinoleTactics(CROKINOLE)
        ctx = ShotContext(
            CROKINOLE,
            tactics.stance("south"),
            np.empty(0),
            np.empty(0),
            (),
            "light",
            tactics,
            info={"seat": "south", "opponent_shots_left": 1},
        )
        la = Open20().aim(ctx)
        rows = np.tile([la.t, la.vx, la.vy, 0.0], (24, 1))
        sd = noise_vector(skills_for("crokinole")["top competitive"])

        def run():
            return crokinole_rollouts(
                CROKINOLE,
                tactics.stance("south"),
                tactics.stance("north"),
                [0.05],
                [0.1],
                [False],
                rows,
                sd,
                sd,
                9,
                5,
                2,
                4,
            ).ravel()

    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = run()
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(one, many)
    assert np.array_equal(one, run())


def test_crokinole_rollout_applies_the_hit_rule():
    """With an opponent disc on the board, a shot that touches none is removed, a 20 so made too:
    an open 20 past a disc far off its line scores nothing for the shooter."""
    tactics = CrokinoleTactics(CROKINOLE)
    ctx = ShotContext(
        CROKINOLE,
        tactics.stance("south"),
        np.array([0.2]),
        np.array([0.15]),
        ("dark",),
        "light",
        tactics,
        info={"seat": "south", "opponent_shots_left": 1},
    )
    la = Open20().aim(ctx)
    out = crokinole_rollouts(
        CROKINOLE,
        tactics.stance("south"),
        tactics.stance("north"),
        [0.2],
        [0.15],
        [False],
        np.array([[la.t, la.vx, la.vy, 0.0]]),
        np.zeros(4),
        np.zeros(4),
        0,
        0,
        0,
        0,
    )
    from shuffle_sim.judging import judge_batch

    assert out[0, 0] == 0 and out[0, 2] == 0
    assert out[0, 1] == judge_batch(CROKINOLE, [0.2], [0.15]).value[0] == 5


# ---- the search ------------------------------------------------------------------------------------


def test_win_players_are_named_like_the_others():
    assert isinstance(parse_player("deck", "expert-win").strategy, WinSearch)
    assert parse_player("crokinole", "top-competitive-win500").strategy.budget == 500
    with pytest.raises(PlayerError, match="unknown strategy"):
        parse_player("deck", "expert-winx")
    with pytest.raises(PlayerError, match="budget"):
        WinSearch(0)


def test_the_crokinole_search_weighs_every_candidate_that_can_be_aimed():
    """No candidate is dropped on the expected-value player's one-shot estimate before the search:
    a shot whose worth shows only later in the round must be in the running."""
    from shuffle_sim.playing.crokinole import shooter_context
    from shuffle_sim.playing.players.strategies import with_skill
    from shuffle_sim.playing.search.told_situation import advice_situation
    from shuffle_sim.rules.common import Board

    board = Board(CROKINOLE, np.array([0.06, -0.03, 0.0]), np.array([0.02, 0.05, -0.07]), ("dark", "light", "dark"))
    player = parse_player("crokinole", "top-competitive")
    ctx = with_skill(shooter_context(board, "light", "south"), player.skill)
    situation, _ = advice_situation("crokinole", ctx, (3, 3), False, 0, shots_left=5)
    intents = ctx.tactics.candidates(ctx)
    aimable = {intent.label for intent in intents if _aims(intent, ctx)}
    result = WinSearch(budget=6 * len(aimable) * 9).search(ctx, player.skill, situation, intents)
    assert result is not None and len(aimable) > 10
    assert {a.intent.label for a in result.actions[: len(aimable)]} == aimable
    assert all(a.n >= 8 for a in result.actions[: len(aimable)])


def test_a_decided_crokinole_game_plays_the_round_for_itself(monkeypatch):
    """Two rounds ahead with the last round to play, the game is won whatever the round gives: the
    search has nothing to weigh and the win player plays the round as the expected-value player."""
    from shuffle_sim.playing.crokinole import shooter_context
    from shuffle_sim.playing.players.strategies import ExpectedValue, with_skill
    from shuffle_sim.playing.search import kr_uct
    from shuffle_sim.playing.search.situations import CrokinoleSituation
    from shuffle_sim.rules.common import Board

    assert CrokinoleSituation(4, 0, 0, 0, True, 3, 0).decided
    assert CrokinoleSituation(0, 6, 0, 0, False, 3, 0).decided
    assert not CrokinoleSituation(4, 2, 0, 0, True, 3, 0).decided  # losing the round ties the game
    assert not CrokinoleSituation(4, 0, 0, 0, True, 3, 1).decided  # a round to come after this one
    assert not CrokinoleSituation(2, 2, 0, 0, True, 3, 0).decided

    board = Board(CROKINOLE, np.array([0.06, -0.03, 0.0]), np.array([0.02, 0.05, -0.07]), ("dark", "light", "dark"))
    player = parse_player("crokinole", "top-competitive")
    ctx = with_skill(shooter_context(board, "light", "south"), player.skill)
    monkeypatch.setattr(kr_uct, "situation_of", lambda _ctx: CrokinoleSituation(4, 0, 0, 0, True, 3, 0))

    def no_search(*_args):
        raise AssertionError("a decided game is not searched")

    monkeypatch.setattr(WinSearch, "search", no_search)
    played = WinSearch().choose(ctx, player.skill)
    expected = ExpectedValue().choose(ctx, player.skill)
    assert (played.intent.label, played.launch) == (expected.intent.label, expected.launch)


def _aims(intent, ctx) -> bool:
    try:
        intent.aim(ctx)
    except PlayerError:
        return False
    return True


def test_a_game_with_a_win_player_is_the_same_for_a_seed():
    from shuffle_sim.playing.search.self_play import play_rules_game

    players = (parse_player("deck", "expert-win300"), parse_player("deck", "expert-ev"))
    first = play_rules_game("deck", players, 3, 1, 10)
    again = play_rules_game("deck", players, 3, 1, 10)
    assert [e.points for e in first.scoreboard] == [e.points for e in again.scoreboard]
    assert first.over and first.winner == again.winner


def test_the_head_to_head_bench_reports_per_game():
    from shuffle_sim.bench.head_to_head import run_head_to_head

    report = run_head_to_head("crokinole", games=2, workers=1, budget=150, length=1)
    assert report["games"] == 2 and report["win"] + report["lost"] + report["tied"] == 2
    assert 0.0 <= report["win_share_95"][0] <= report["win_share"] <= report["win_share_95"][1] <= 1.0
    rounds = report["crokinole_rounds"]
    assert rounds["rounds"] == 2
    assert rounds["last_shooter_won"] + rounds["first_shooter_won"] + rounds["tied"] == pytest.approx(1.0)


@pytest.mark.parametrize("rollout", ["deck", "crokinole", "search"])
def test_the_searchs_executions_feel_the_speed_floor(rollout):
    """A shooter whose only error is the speed floor (``NoiseModel.speed_floor``) misses in the
    search's samples as in play: its executions vary; with no errors at all they do not."""
    floor_only = np.array([0.0, 0.0, 0.0, 0.0, 0.08])
    if rollout == "deck":
        rows = np.tile([0.5, 0.0, 2.1, 0.0], (24, 1))

        def run(sd):
            return deck_rollouts(DECK, [0.1], [11.0], [1], 1, 0, rows, sd, sd, 0, 7, 3, 11)["y"][:, -1]
    elif rollout == "crokinole":
        tactics = CrokinoleTactics(CROKINOLE)
        ctx = ShotContext(
            CROKINOLE,
            tactics.stance("south"),
            np.empty(0),
            np.empty(0),
            (),
            "light",
            tactics,
            info={"seat": "south", "opponent_shots_left": 0},
        )
        la = Open20().aim(ctx)
        rows = np.tile([la.t, la.vx, la.vy, 0.0], (24, 1))

        def run(sd):
            return crokinole_rollouts(
                CROKINOLE, tactics.stance("south"), tactics.stance("north"), [], [], [], rows, sd, sd, 0, 5, 2, 4
            )[:, 0]
    else:
        from shuffle_sim.playing.search.kr_uct import sampled_executions

        tactics = CrokinoleTactics(CROKINOLE)
        stance = tactics.stance("south").array
        n = 24

        def run(sd):
            out = [np.empty(n) for _ in range(5)]
            sampled_executions(
                stance,
                np.zeros(n),
                np.full(n, 0.0),
                np.full(n, 1.0),
                np.zeros(n),
                np.arange(n),
                sd,
                np.uint64(1),
                np.uint64(2),
                0,
                0,
                np.empty(0),
                np.empty(0),
                np.empty(0),
                *out,
            )
            return out[3]  # vy

    assert np.unique(run(np.zeros(5))).size == 1
    assert np.unique(run(floor_only)).size > 1
