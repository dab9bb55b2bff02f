"""Players named as the command line names them, "SKILL[-STRATEGY]" ("expert-ev", "top-competitive-win",
"average-plan-flat"), or given as a strategy of one's own (``as_player``). Naming the ``win`` strategy
reaches the search (``playing.search``), so the names are read above it."""

from __future__ import annotations

from shuffle_sim.games import get_game
from shuffle_sim.messages import shown
from shuffle_sim.noise import NoiseModel
from shuffle_sim.playing.players.context import PlayerError
from shuffle_sim.playing.players.presets import Player, find_skill
from shuffle_sim.playing.players.strategies import DEFAULT_EV_SAMPLES, ExpectedValue, FixedPlan, Strategy
from shuffle_sim.playing.search.kr_uct import WinSearch


def parse_player(game: str, text: str) -> Player:
    """A player from ``SKILL[-STRATEGY]``: a skill preset of the game (``expert``, ``top-competitive``,
    ``exact``) and ``plan`` (the default), ``ev`` (``ev16``: 16 samples per candidate) or ``win``
    (``playing.search``: shots chosen by the probability of winning the game; ``win3000``: a budget of
    3000 simulated shots per decision, else the game's own). A last ``-flat`` makes a player who
    aims as if the court were flat (``Player.reads`` 0): on a graded or crowned court it misses by
    the drift; the others read the court."""
    if not isinstance(text, str) or not text.strip():
        raise PlayerError(f"players: a player must be SKILL or SKILL-STRATEGY (got {text!r})")
    spec = text.strip()
    reads = 1.0
    if spec.lower().endswith("-flat"):
        spec, reads = spec[: -len("-flat")], 0.0
    skill_text, strategy_text = spec, "plan"
    head, sep, tail = spec.rpartition("-")
    if sep and (tail.lower() == "plan" or tail.lower().startswith("ev") or tail.lower().startswith("win")):
        skill_text, strategy_text = head, tail.lower()
    skill = find_skill(game, skill_text, f"players: in {spec!r}")
    if strategy_text == "plan":
        strategy: Strategy = FixedPlan()
    elif strategy_text.startswith("win"):
        digits = strategy_text[3:]
        if digits and not digits.isdigit():
            raise PlayerError(f"players: unknown strategy {strategy_text!r} in {spec!r} (plan, ev, evN, win or winN)")
        budget = int(digits) if digits else None
        if budget is not None and budget < 1:
            raise PlayerError(f"players: winN needs a budget N >= 1 (got {strategy_text!r} in {spec!r})")
        strategy = WinSearch(budget)
    else:
        digits = strategy_text[2:]
        if digits and not digits.isdigit():
            raise PlayerError(f"players: unknown strategy {strategy_text!r} in {spec!r} (plan, ev, evN, win or winN)")
        samples = int(digits) if digits else DEFAULT_EV_SAMPLES
        if samples < 1:
            raise PlayerError(f"players: evN needs N >= 1 samples (got {strategy_text!r} in {spec!r})")
        strategy = ExpectedValue(samples)
    return Player(text.strip(), skill, strategy, reads)


def default_skill(game: str) -> str:
    """The skill preset of the game's first default player (``games.toml``): deck, horse collar and
    ricochet ``expert``, crokinole ``top competitive``."""
    first = get_game(game).default_players.split(",")[0]
    return parse_player(game, first).skill.name or "exact"


def as_player(game: str, player) -> Player:
    """A ``Player`` of ``game`` from any of what ``play`` takes for a side: a ``Player``; its name
    (``parse_player``); or a strategy of one's own, any object with ``choose(ctx, skill)`` (the
    ``Strategy`` protocol), played under the skill its ``skill`` attribute names (a preset name of
    the game or a ``NoiseModel``; default ``default_skill``) and named by its ``name`` attribute
    (default its class name)."""
    if isinstance(player, Player):
        return player
    if isinstance(player, str):
        return parse_player(game, player)
    if not callable(getattr(player, "choose", None)):
        raise PlayerError(
            "players: a player is a name such as 'expert-ev', a Player, or an object with a "
            f"choose(ctx, skill) method (got {shown(player)})"
        )
    skill = getattr(player, "skill", None)
    if skill is None or isinstance(skill, str):
        skill = find_skill(game, default_skill(game) if skill is None else skill, f"players: {type(player).__name__}")
    elif not isinstance(skill, NoiseModel):
        raise PlayerError(f"players: skill must be a preset name or a NoiseModel (got {shown(skill)})")
    name = getattr(player, "name", None)
    return Player(str(name) if name else type(player).__name__, skill, player)


def parse_players(game: str, text: str) -> tuple[Player, Player]:
    """Two players from "A,B" (one name alone plays both sides)."""
    if not isinstance(text, str):
        raise PlayerError(f"players: expected SKILL[-STRATEGY],SKILL[-STRATEGY] (got {text!r})")
    parts = [p for p in (part.strip() for part in text.split(","))]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise PlayerError(
            f"players: expected two players separated by a comma, e.g. expert-ev,novice-plan (got {text!r})"
        )
    return parse_player(game, parts[0]), parse_player(game, parts[1])
