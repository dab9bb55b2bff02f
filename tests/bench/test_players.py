"""bench-players: the quick smoke run and its success tests."""

import json
from types import SimpleNamespace

from shuffle_sim.bench.players import QUICK, run_bench, shot_kind
from shuffle_sim.cli import main
from shuffle_sim.playing.players import Draw, Open20
from shuffle_sim.playing.players.repertoire import Shot, Strike


def test_shot_kinds_drop_disc_numbers_and_details():
    assert shot_kind(Draw(0.0, 0.0, label="draw into the 15 (+40 deg)")) == "draw into the 15"
    assert shot_kind(Draw(0.0, 0.0, label="bank to take out weight 2, 0.1 m to spare")) == "bank to take out weight"
    assert shot_kind(Strike(3, 0.1, label="take out disc 3, 0.1 m past the edge")) == "take-out"
    assert shot_kind(Shot("roll off", 1)) == "take-out and roll off"
    assert shot_kind(Open20()) == "open 20"


def test_quick_crokinole_run_counts_every_shot():
    report = run_bench(QUICK, ("crokinole",))
    for s in report["results"]["crokinole"].values():
        assert s["games"] == 1 and s["shots"] == 16  # one round, 8 discs a side
        assert sum(v["attempts"] for v in s["by_intent"].values()) == s["shots"]
        assert all(0 <= v["made"] <= v["attempts"] for v in s["by_intent"].values())
        c = s["crokinole"]
        assert sum(v["attempts"] for v in c["takeout_by_line"].values()) == c["takeouts"]
        assert c["discs_left_per_round"] >= 0
    h2h = report["head_to_head"]["crokinole"]
    assert h2h["games"] == 2 and h2h["win_player"] == "top-competitive-win200"
    assert h2h["crokinole_rounds"]["rounds"] == 2  # one round a game


def test_cli_json(capsys):
    assert main(["bench-players", "--quick", "--json", "--game", "horse-collar"]) == 0
    report = json.loads(capsys.readouterr().out)
    (results,) = report["results"].values()
    assert set(results) == {"expert-ev4", "expert-plan"}
    assert all(s["shots"] > 0 for s in results.values())
    h2h = report["head_to_head"]["horse-collar"]
    assert h2h["win"] + h2h["lost"] + h2h["tied"] == h2h["games"] == 2


def test_noise_free_shots_are_counted_as_made():
    import math

    from shuffle_sim.bench.players import Tally, judge_shot_outcome
    from shuffle_sim.court import load_court
    from shuffle_sim.playing.crokinole import CrokinoleTactics
    from shuffle_sim.playing.horse_collar import HorseCollarTactics
    from shuffle_sim.playing.players import Hanger, ShotContext
    from shuffle_sim.units import INCH

    tally = Tally()
    court = load_court("horse-collar")
    tactics = HorseCollarTactics(court)
    ctx = ShotContext(court, tactics.stance, [], [], (), "A", tactics)
    hanger = Hanger(0, label="hanger over the end (0.50 across)")
    judge_shot_outcome("horse-collar", ctx, hanger, hanger.aim(ctx), tally)
    board = load_court("crokinole")
    croki = CrokinoleTactics(board)
    ctx = ShotContext(
        board,
        croki.stance("south"),
        [6 * INCH * math.cos(0.3)],
        [6 * INCH * math.sin(0.3)],
        ("B",),
        "A",
        croki,
        info={"seat": "south"},
    )
    for intent in (Strike(0, 0.1), Shot("stick", 0), Open20()):
        judge_shot_outcome("crokinole", ctx, intent, intent.aim(ctx), tally)
    assert dict(tally.attempts) == {"hanger over the end": 1, "take-out": 1, "take-out and stick": 1, "open 20": 1}
    # the open 20 with an opponent disc on the board is no take-out and drops in all the same
    assert dict(tally.made) == {"hanger over the end": 1, "take-out": 1, "take-out and stick": 1, "open 20": 1}
    assert tally.hits == [2, 2] and tally.lines["clear"] == [2, 2]


def test_the_head_to_head_plays_the_games_own_length_whatever_the_options(monkeypatch):
    """Changing the number of games, workers or budget on the command line keeps full-length games (the
    short lengths of the per-preset games are for those games only); ``--quick`` plays short ones."""
    import shuffle_sim.bench.head_to_head as head_to_head
    import shuffle_sim.bench.players as players

    lengths = []

    def fake(game, games, seed, workers, budget, length=None, players=None):
        lengths.append((game, length))
        return {"game": game, "games": games}

    monkeypatch.setattr(head_to_head, "run_head_to_head", fake)
    monkeypatch.setattr(players, "format_report", lambda report: "")
    monkeypatch.setattr(players, "play", lambda *args, **kwargs: SimpleNamespace(games=[]))
    monkeypatch.setattr(players, "_summary", lambda game, tally: {})
    assert main(["bench-players", "--games", "1", "--head-to-head", "3", "--budget", "10", "--game", "deck"]) == 0
    assert lengths == [("deck", None)]  # None: the game's own length, 75 points in deck
    assert head_to_head.HEAD_TO_HEAD["deck"][1] == 75
    lengths.clear()
    assert main(["bench-players", "--quick", "--game", "deck"]) == 0
    assert lengths == [("deck", 5)]


def test_the_head_to_head_plays_the_two_players_named(monkeypatch):
    """``--players A,B`` replaces the win and ev players (A measured, B its opponent); the report names
    them, and a player without a search has no budget to report."""
    import shuffle_sim.bench.head_to_head as head_to_head

    played = []
    real = head_to_head._play_games

    def spy(game, a, b, seed, indices, length):
        played.append((a, b))
        return real(game, a, b, seed, indices, length)

    monkeypatch.setattr(head_to_head, "_play_games", spy)
    report = head_to_head.run_head_to_head(
        "crokinole", games=2, workers=1, length=1, players=("top-competitive-ev4", "average-competitive-ev4")
    )
    assert played == [("top-competitive-ev4", "average-competitive-ev4")]
    assert (report["win_player"], report["ev_player"]) == ("top-competitive-ev4", "average-competitive-ev4")
    assert report["budget_per_shot"] is None and "budget" not in head_to_head.format_head_to_head(report)
    assert report["win"] + report["lost"] + report["tied"] == 2
    default = head_to_head.run_head_to_head("crokinole", games=0, workers=1, length=1, budget=150)
    assert (default["win_player"], default["ev_player"], default["budget_per_shot"]) == (
        "top-competitive-win150",
        "top-competitive-ev",
        150,
    )


def test_misnamed_head_to_head_players_stop_before_any_game(monkeypatch, capsys):
    import shuffle_sim.bench.players as players

    calls = []
    monkeypatch.setattr(players, "play", lambda *args, **kwargs: calls.append(args))
    assert main(["bench-players", "--quick", "--game", "crokinole", "--players", "top-competitive-ev,avg-ev"]) == 2
    assert "unknown skill 'avg'" in capsys.readouterr().err
    assert main(["bench-players", "--quick", "--players", "expert-ev,expert-ev,expert-plan"]) == 2
    assert main(["bench-players", "--quick", "--players", "expert-ev", "--budget", "10"]) == 2
    assert calls == []
