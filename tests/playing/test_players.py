"""Players: intents hit their targets without noise, noise presets are ordered, strategies choose well."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuffle_sim.court import load_court
from shuffle_sim.noise import EXACT
from shuffle_sim.physics import STATUS_HOLED
from shuffle_sim.playing.crokinole import CrokinoleTactics
from shuffle_sim.playing.deck import DeckTactics
from shuffle_sim.playing.deck_engine import deck_setup
from shuffle_sim.playing.horse_collar import HorseCollarTactics
from shuffle_sim.playing.player_names import (
    parse_player,
    parse_players,
)
from shuffle_sim.playing.players import (
    Bank,
    Draw,
    ExpectedValue,
    FixedPlan,
    Guard,
    Hanger,
    Hide,
    Open20,
    PlayerError,
    ShotContext,
    Stance,
    TakeOut,
    clearest_start,
    execute,
    hanger_point,
    perturb,
    shot_normals,
    skills_for,
    solve_bank,
)
from shuffle_sim.playing.players.repertoire import Shot, Strike
from shuffle_sim.playing.ricochet import RicochetTactics
from shuffle_sim.playing.shooting import shoot
from shuffle_sim.rules.common import Turn
from shuffle_sim.shots import simulate_shots
from shuffle_sim.units import FOOT, INCH

DECK = load_court("deck")
SETUP = deck_setup(DECK)


@pytest.fixture(autouse=True)
def _one_thread():
    """These tests make many tiny numba calls: one thread (results do not depend on it)."""
    from shuffle_sim.playing.shooting import one_numba_thread

    with one_numba_thread():
        yield


HORSE = load_court("horse-collar")
RICOCHET = load_court("ricochet")
CROKINOLE = load_court("crokinole")


def deck_ctx(board=(), shooter="yellow", sign=1, shot=0, seed=0) -> ShotContext:
    xs = [b[0] for b in board]
    ys = [b[1] for b in board]
    teams = tuple(b[2] for b in board)
    return ShotContext(
        court=SETUP.court,
        stance=SETUP.stance(sign),
        board_x=np.array(xs),
        board_y=np.array(ys),
        board_team=teams,
        shooter=shooter,
        tactics=DeckTactics(SETUP),
        seed=seed,
        shot=shot,
        info={"sign": sign},
    )


def rest_of(court, launch, board_x=(), board_y=()):
    outcome = shoot(court, list(board_x), list(board_y), launch)
    return outcome.result.x[-1], outcome.result.y[-1], outcome


# ---- intents without noise ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(x=st.floats(-0.8, 0.8), y=st.floats(32.5 * FOOT, 45.0 * FOOT), sign=st.sampled_from([1, -1]))
def test_deck_draw_stops_on_its_target(x, y, sign):
    launch = Draw(x, y).aim(deck_ctx(sign=sign))
    rx, ry, _ = rest_of(SETUP.court, launch)
    assert math.hypot(rx - x, ry - y) < 1e-9


@settings(max_examples=25, deadline=None)
@given(x=st.floats(-0.2, 0.2), y=st.floats(4.6, 6.25))
def test_horse_collar_draw_stops_on_its_target(x, y):
    tactics = HorseCollarTactics(HORSE)
    ctx = ShotContext(HORSE, tactics.stance, [], [], (), "A", tactics)
    rx, ry, _ = rest_of(HORSE, Draw(x, y).aim(ctx))
    assert math.hypot(rx - x, ry - y) < 1e-9


def test_crokinole_draw_and_open_20():
    tactics = CrokinoleTactics(CROKINOLE)
    ctx = ShotContext(CROKINOLE, tactics.stance("south"), [], [], (), "A", tactics, info={"seat": "south"})
    target = (2.2 * INCH, 2.0 * INCH)
    rx, ry, _ = rest_of(CROKINOLE, Draw(*target).aim(ctx))
    assert math.hypot(rx - target[0], ry - target[1]) < 1e-9
    _, _, outcome = rest_of(CROKINOLE, Open20().aim(ctx))
    assert outcome.result.status[-1] == STATUS_HOLED


@pytest.mark.parametrize("target", [(0.0, 36.9 * FOOT), (0.4 * FOOT, 42.0 * FOOT), (-0.5 * FOOT, 39.5 * FOOT)])
@pytest.mark.parametrize("extra", [0.0, 1.5, 3.0])
def test_deck_takeout_hits_its_disc(target, extra):
    ctx = deck_ctx([(target[0], target[1], "black")])
    launch = TakeOut(0, extra).aim(ctx)
    _, _, outcome = rest_of(SETUP.court, launch, [target[0]], [target[1]])
    assert any({c.a, c.b} == {0, 1} for c in outcome.contacts)


def test_crokinole_takeout_hits_its_disc_around_the_pegs():
    tactics = CrokinoleTactics(CROKINOLE)
    # The disc sits behind a peg as seen from straight in front of the south seat.
    peg = min(CROKINOLE.pegs, key=lambda p: (p.y, abs(p.x)))
    target = (peg.x * 1.0, peg.y * 0.45)
    ctx = ShotContext(
        CROKINOLE, tactics.stance("south"), [target[0]], [target[1]], ("B",), "A", tactics, info={"seat": "south"}
    )
    launch = TakeOut(0, 0.1).aim(ctx)
    _, _, outcome = rest_of(CROKINOLE, launch, [target[0]], [target[1]])
    contacts = outcome.result.events.contacts().records()
    assert contacts[0]["kind"] == "disc" and {contacts[0]["a"], contacts[0]["b"]} == {0, 1}


def test_clearest_start_goes_around_a_blocking_disc():
    stance = SETUP.stance(1)
    aim = (0.0, 36.9 * FOOT)
    start = stance.point(stance.preferred)
    # A disc right on the preferred line of fire, a third of the way. (Half way, every legal start's
    # path grazes it: the stance keeps clear of the separation triangle, C-4.)
    blocker = (start[0] + (aim[0] - start[0]) / 3, start[1] + (aim[1] - start[1]) / 3)
    t = clearest_start(
        stance.array,
        stance.preferred,
        stance.samples,
        *aim,
        np.array([blocker[0]]),
        np.array([blocker[1]]),
        np.array([2 * DECK.disc_radius]),
        -1,
    )
    assert t != stance.preferred
    ctx = deck_ctx([(*blocker, "black")])
    launch = Draw(*aim).aim(ctx)
    _, _, outcome = rest_of(SETUP.court, launch, [blocker[0]], [blocker[1]])
    assert outcome.contacts == []
    assert math.hypot(outcome.result.x[-1] - aim[0], outcome.result.y[-1] - aim[1]) < 1e-9


def test_guard_and_hide_points_lie_on_the_line_of_fire():
    disc = (0.1, 37.0 * FOOT)
    ctx = deck_ctx([(*disc, "yellow")])
    sx, sy = ctx.stance.point(ctx.stance.preferred)
    gx, gy = Guard(0, 1.2).point(ctx)
    hx, hy = Hide(0, 0.45).point(ctx)
    for (px, py), d in (((gx, gy), 1.2), ((hx, hy), -0.45)):
        assert math.hypot(px - disc[0], py - disc[1]) == pytest.approx(abs(d), abs=1e-12)
        cross = (px - disc[0]) * (sy - disc[1]) - (py - disc[1]) * (sx - disc[0])
        assert abs(cross) < 1e-12
    assert gy < disc[1] < hy  # in front of it toward the shooter, and behind it


@pytest.mark.parametrize("corner,value", [(0, 13), (1, 26), (-1, 26)])
def test_horse_collar_hanger_lands_as_a_hanger(corner, value):
    from shuffle_sim.judging import judge

    tactics = HorseCollarTactics(HORSE)
    x, y = hanger_point(HORSE, corner)
    assert judge(HORSE, x, y)["value"] == value
    ctx = ShotContext(HORSE, tactics.stance, [], [], (), "A", tactics)
    rx, ry, _ = rest_of(HORSE, Hanger(corner).aim(ctx))
    assert math.hypot(rx - x, ry - y) < 1e-9


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("zone", ["3", "5"])
def test_ricochet_bank_stops_on_its_target(side, zone):
    tactics = RicochetTactics(RICOCHET)
    x, y = tactics.spots[side][zone]
    ctx = ShotContext(RICOCHET, tactics.stance(side), [], [], (), "A", tactics, info={"side": side})
    launch = Bank(x, y).aim(ctx)
    rx, ry, outcome = rest_of(RICOCHET, launch)
    assert math.hypot(rx - x, ry - y) < 1e-6
    assert any(e["kind"] == "cushion" for e in outcome.result.events.records())
    assert np.sign(rx) == (1 if side == "left" else -1)


def test_ricochet_bank_takeout_hits_its_weight():
    tactics = RicochetTactics(RICOCHET)
    target = (6.0 * INCH, 9.0 * INCH)
    ctx = ShotContext(
        RICOCHET, tactics.stance("left"), [target[0]], [target[1]], ("B",), "A", tactics, info={"side": "left"}
    )
    launch = Bank(*target, extra=0.1).aim(ctx)
    _, _, outcome = rest_of(RICOCHET, launch, [target[0]], [target[1]])
    assert any({c.a, c.b} == {0, 1} for c in outcome.contacts)


def test_unreachable_bank_is_refused():
    # Behind the centre rail, seen from this start: every rebound runs into the rail.
    with pytest.raises(PlayerError, match="best miss"):
        solve_bank(RICOCHET, (-0.195, 0.026), (0.052, 0.169))
    with pytest.raises(PlayerError, match="no cushion"):
        solve_bank(RICOCHET, (-7 * INCH, 0.03), (7 * INCH, 5 * INCH), cushion="nowhere")


# ---- noise --------------------------------------------------------------------------------------


def test_zero_noise_changes_nothing_and_noise_does_what_it_says():
    stance = SETUP.stance(1)
    t, vx, vy, w = perturb(stance.array, 0.3, 0.1, 1.7, 0.5, 1.0, -2.0, 0.5, 3.0, 0.0, 0.0, 0.0, 0.0)
    assert (t, vx, vy, w) == (0.3, 0.1, 1.7, 0.5)
    t, vx, vy, w = perturb(stance.array, 0.3, 0.0, 2.0, 0.0, 1.0, -2.0, 0.5, 0.01, 0.02, 0.01, 4.0, 1.0)
    assert math.hypot(vx, vy) == pytest.approx(2.0 * 1.02, rel=1e-14)
    assert math.atan2(-vx, vy) == pytest.approx(-0.02, rel=1e-12)  # turned 0.01 * -2 rad
    assert w == pytest.approx(2.0)
    assert t == pytest.approx(0.3 + 0.01 / stance.length, rel=1e-12)
    # The start never leaves the stance.
    assert perturb(stance.array, 0.9, 0.0, 2.0, 0.0, 0, 0, 0, 50.0, 0, 0, 0, 1.0)[0] == 1.0


def test_shot_normals_are_a_pure_function_of_their_counter():
    from shuffle_sim.noise import seed_key

    k0, k1 = seed_key(12345)
    u = np.uint64
    a = shot_normals(k0, k1, u(3), u(2), u(17), u(0))
    assert a == shot_normals(k0, k1, u(3), u(2), u(17), u(0))
    assert a != shot_normals(k0, k1, u(3), u(2), u(18), u(0))
    assert a != shot_normals(k0, k1, u(4), u(2), u(17), u(0))
    draws = np.array([shot_normals(k0, k1, u(0), u(2), u(s), u(0)) for s in range(4000)])
    assert abs(draws.mean()) < 0.05 and abs(draws.std() - 1.0) < 0.05
    assert abs(np.corrcoef(draws.T)[np.triu_indices(4, 1)]).max() < 0.06


def _scatter(court, ctx, intent, skill, n=400) -> float:
    launch = intent.aim(ctx)
    rows = []
    for s in range(n):
        c = ShotContext(ctx.court, ctx.stance, [], [], (), "A", ctx.tactics, seed=7, shot=s, info=ctx.info)
        rows.append(execute(c, launch, skill))
    batch = simulate_shots(
        court,
        [l.x for l in rows],
        [l.y for l in rows],
        [l.vx for l in rows],
        [l.vy for l in rows],
        [l.omega for l in rows],
    )
    return float(np.sqrt(np.mean((batch.x[:, 0] - intent.x) ** 2 + (batch.y[:, 0] - intent.y) ** 2)))


@pytest.mark.parametrize(
    "game,order",
    [
        ("deck", ("novice", "average", "expert", "exact")),
        ("horse-collar", ("novice", "average", "expert", "exact")),
        ("crokinole", ("novice", "average competitive", "top competitive", "exact")),
    ],
)
def test_skill_presets_are_ordered_experts_scatter_less(game, order):
    skills = skills_for(game)
    if game == "deck":
        ctx, court, intent = deck_ctx(), SETUP.court, Draw(0.0, 40.0 * FOOT)
    elif game == "horse-collar":
        tactics = HorseCollarTactics(HORSE)
        ctx, court, intent = ShotContext(HORSE, tactics.stance, [], [], (), "A", tactics), HORSE, Draw(0.0, 4.0)
    else:
        tactics = CrokinoleTactics(CROKINOLE)
        ctx = ShotContext(CROKINOLE, tactics.stance("south"), [], [], (), "A", tactics, info={"seat": "south"})
        court, intent = CROKINOLE, Draw(6.0 * INCH, 0.0)
    scatter = [_scatter(court, ctx, intent, skills[name]) for name in order]
    assert all(a > b for a, b in itertools.pairwise(scatter)), dict(zip(order, scatter))
    assert scatter[-1] < 1e-9


# ---- strategies ---------------------------------------------------------------------------------


def test_ev_takes_out_a_disc_sitting_on_the_10():
    spot = SETUP.spots_for(1)[0]
    ctx = deck_ctx([(float(spot[0]), float(spot[1]), "black")])
    ev = ExpectedValue(samples=8)
    intents, _, means = ev.weigh(ctx, skills_for("deck")["expert"], ctx.tactics.candidates(ctx))
    labels = [i.label for i in intents]
    decision = ev.choose(ctx, skills_for("deck")["expert"])
    assert isinstance(decision.intent, TakeOut)
    assert decision.expected == max(means)
    draws = [m for i, m in zip(intents, means) if isinstance(i, Draw)]
    assert decision.expected > max(draws) + 5, dict(zip(labels, means))


def test_ev_respects_the_crokinole_hit_rule():
    """With an opponent disc on the board an open 20 that misses it is removed: the EV player must hit."""
    tactics = CrokinoleTactics(CROKINOLE)
    target = (-6.0 * INCH, 1.0 * INCH)  # in the 10 circle, off the line to the hole
    ctx = ShotContext(
        CROKINOLE, tactics.stance("south"), [target[0]], [target[1]], ("B",), "A", tactics, info={"seat": "south"}
    )
    ev = ExpectedValue(samples=1)
    intents, _, means = ev.weigh(ctx, EXACT, tactics.candidates(ctx))
    values = {i.label: m for i, m in zip(intents, means)}
    assert values["open 20"] == -10  # the 20 is removed for hitting nothing; B keeps its 10
    chosen = ev.choose(ctx, EXACT).intent
    assert isinstance(chosen, (Strike, Shot)) and chosen.target == 0


def test_fixed_plans():
    spot = SETUP.spots_for(1)[0]
    plan = FixedPlan()
    empty = plan.choose(deck_ctx(), EXACT)
    assert isinstance(empty.intent, Draw) and (empty.intent.x, empty.intent.y) == (spot[0], spot[1])
    scored = plan.choose(deck_ctx([(0.45 * FOOT, 39.5 * FOOT, "black")]), EXACT)
    assert isinstance(scored.intent, TakeOut) and scored.intent.target == 0
    own = plan.choose(deck_ctx([(float(spot[0]), float(spot[1]), "yellow")]), EXACT)
    assert own.intent.label == "draw to the 8 right"
    tactics = CrokinoleTactics(CROKINOLE)
    ctx = ShotContext(CROKINOLE, tactics.stance("north"), [], [], (), "A", tactics, info={"seat": "north"})
    assert isinstance(plan.choose(ctx, EXACT).intent, Open20)


# ---- values against the rules layer ---------------------------------------------------------------


def _random_boards(rng, court, n_boards, n_discs, box):
    """Boards of resting discs in a box, clear of each other and of pegs."""
    r = court.disc_radius
    boards = []
    while len(boards) < n_boards:
        xs = rng.uniform(box[0], box[2], n_discs)
        ys = rng.uniform(box[1], box[3], n_discs)
        d = np.hypot(xs[:, None] - xs[None], ys[:, None] - ys[None]) + np.eye(n_discs) * 9
        clear = all(np.hypot(xs - p.x, ys - p.y).min() > 1.05 * (r + p.radius) for p in court.pegs)
        if d.min() > 2.05 * r and clear:
            boards.append((xs, ys))
    return boards


def _outcomes(ctx, n=24):
    """Outcomes of a few candidate shots (the first two and the last two) under novice errors."""
    candidates = []
    for intent in ctx.tactics.candidates(ctx):  # those that can be aimed on this board
        try:
            candidates.append((intent, intent.aim(ctx)))
        except PlayerError:
            continue
    launches = [launch for _, launch in candidates[:2] + candidates[2:][-2:]]
    rows = []
    for s in range(n):
        for launch in launches:
            c = ShotContext(
                ctx.court,
                ctx.stance,
                ctx.board_x,
                ctx.board_y,
                ctx.board_team,
                ctx.shooter,
                ctx.tactics,
                seed=3,
                shot=s,
                info=ctx.info,
            )
            rows.append(execute(c, launch, skills_for(ctx.court.game)["novice"]))
    batch = simulate_shots(
        ctx.court, *[[getattr(l, k) for l in rows] for k in ("x", "y", "vx", "vy", "omega")], board=ctx.board_scene()
    )
    return rows, batch


def test_deck_values_agree_with_the_rules():
    from shuffle_sim.rules.common import Board
    from shuffle_sim.rules.deck import score_half_round, shot_effect

    rng = np.random.default_rng(1)
    for xs, ys in _random_boards(rng, DECK, 3, 4, (-0.6, 34 * FOOT, 0.6, 45 * FOOT)):
        ctx = deck_ctx(list(zip(xs, ys, ["black", "yellow", "black", "yellow"])))
        rows, batch = _outcomes(ctx)
        values = ctx.tactics.evaluate(ctx, batch)
        for k, launch in enumerate(rows):
            outcome = shoot(ctx.court, xs, ys, launch)
            board = Board(ctx.court, outcome.x, outcome.y, (*tuple(ctx.board_team), "yellow"))
            judged = board.judge().dead
            effect = shot_effect(board, 2, outcome.contacts, [i for i in range(5) if outcome.dead[i] and not judged[i]])
            frame = score_half_round(board.without(effect.remove), teams=("yellow", "black"))
            assert values[k] == frame.scores["yellow"] - frame.scores["black"]


def test_crokinole_values_agree_with_the_rules():
    from shuffle_sim.rules.common import Board
    from shuffle_sim.rules.crokinole import judge_shot, score_round

    tactics = CrokinoleTactics(CROKINOLE)
    rng = np.random.default_rng(2)
    boards = _random_boards(rng, CROKINOLE, 3, 3, (-0.2, -0.2, 0.2, 0.2))
    boards.append((np.array([]), np.array([])))
    for xs, ys in boards:
        teams = ("B", "A", "B")[: xs.size]
        ctx = ShotContext(CROKINOLE, tactics.stance("south"), xs, ys, teams, "A", tactics, info={"seat": "south"})
        rows, batch = _outcomes(ctx)
        values = tactics.evaluate(ctx, batch)
        for k, launch in enumerate(rows):
            outcome = shoot(CROKINOLE, xs, ys, launch)
            board = Board(CROKINOLE, outcome.x, outcome.y, (*teams, "A"))
            result = judge_shot(board, "A", xs.size, [True] * xs.size + [False], outcome.contacts)
            frame = score_round(board.without(result.remove), twenties=result.twenties, teams=("A", "B"))
            assert values[k] == frame.scores["A"] - frame.scores["B"]


def test_ricochet_values_agree_with_the_rules():
    from shuffle_sim.rules.common import Board
    from shuffle_sim.rules.ricochet import score_round, shot_removals

    tactics = RicochetTactics(RICOCHET)
    rng = np.random.default_rng(3)
    for xs, ys in _random_boards(rng, RICOCHET, 3, 3, (0.04, 0.03, 0.35, 0.6)):
        teams = ("B", "A", "B")
        ctx = ShotContext(RICOCHET, tactics.stance("left"), xs, ys, teams, "A", tactics, info={"side": "left"})
        rows, batch = _outcomes(ctx, n=6)
        values = tactics.evaluate(ctx, batch)
        for k, launch in enumerate(rows):
            outcome = shoot(RICOCHET, xs, ys, launch)
            board = Board(RICOCHET, outcome.x, outcome.y, (*teams, "A"))
            frame = score_round(board.without(shot_removals(board)), teams=("A", "B"))
            assert values[k] == frame.scores["A"] - frame.scores["B"]


def test_horse_collar_values_on_the_last_puck_agree_with_the_rules():
    from shuffle_sim.rules.common import Board
    from shuffle_sim.rules.horse_collar import score_frame

    tactics = HorseCollarTactics(HORSE)
    rng = np.random.default_rng(4)
    for xs, ys in _random_boards(rng, HORSE, 3, 3, (-0.2, 4.0, 0.2, 6.25)):
        ctx = ShotContext(HORSE, tactics.stance, xs, ys, ("A",) * 3, "A", tactics, turn=Turn("A", 0, 8, "head"))
        rows, batch = _outcomes(ctx)
        values = tactics.evaluate(ctx, batch)
        for k, launch in enumerate(rows):
            outcome = shoot(HORSE, xs, ys, launch)
            frame = score_frame(Board(HORSE, outcome.x, outcome.y, ("A",) * 4), side="A")
            assert values[k] == frame.scores["A"]


# ---- the player syntax --------------------------------------------------------------------------


def test_parse_players():
    a, b = parse_players("deck", "expert-ev,novice-plan")
    assert (a.skill.name, type(a.strategy).__name__, b.skill.name, type(b.strategy).__name__) == (
        "expert",
        "ExpectedValue",
        "novice",
        "FixedPlan",
    )
    assert parse_player("deck", "average").strategy.name == "plan"
    assert parse_player("deck", "exact-ev8").strategy.samples == 8
    top = parse_player("crokinole", "top-competitive-ev")
    assert top.skill.name == "top competitive" and top.strategy.samples == 24
    assert parse_player("crokinole", "Average_Competitive").skill.name == "average competitive"
    one, two = parse_players("ricochet", "novice")
    assert one == two


@pytest.mark.parametrize(
    "text,match",
    [
        ("pro", "unknown skill 'pro'"),
        ("expert-evx", "unknown strategy 'evx'"),
        ("expert,novice,average", "two players"),
        ("expert,", "two players"),
        ("expert-ev0", "N >= 1"),
        ("top-competitive", "unknown skill"),
    ],
)
def test_bad_player_names_are_refused(text, match):
    with pytest.raises(PlayerError, match=match):
        parse_players("deck", text)


def test_stance_and_intent_errors_name_the_field():
    with pytest.raises(PlayerError, match="preferred"):
        Stance("segment", (0, 0, 1, 0), preferred=1.5)
    with pytest.raises(PlayerError, match="target"):
        TakeOut(3, 1.0).aim(deck_ctx())
    with pytest.raises(PlayerError, match="no hole"):
        Open20().aim(deck_ctx())
    with pytest.raises(PlayerError, match="end edge"):
        hanger_point(DECK)


def test_lumpy_payoffs_are_weighed_over_the_games_minimum_samples():
    from shuffle_sim.playing.horse_collar import HorseCollarTactics

    court = load_court("horse-collar")
    tactics = HorseCollarTactics(court)
    ctx = ShotContext(court, tactics.stance, [], [], (), "A", tactics)
    _, _, values = ExpectedValue(8).outcomes(ctx, skills_for("horse-collar")["expert"], tactics.candidates(ctx)[:2])
    assert values.shape == (2, tactics.min_samples)
    # a player asking for fewer samples weighs the shots exactly as one asking for the minimum
    skill = skills_for("horse-collar")["expert"]
    few = ExpectedValue(8).weigh(ctx, skill, tactics.candidates(ctx))[2]
    enough = ExpectedValue(tactics.min_samples).weigh(ctx, skill, tactics.candidates(ctx))[2]
    assert np.array_equal(few, enough)
