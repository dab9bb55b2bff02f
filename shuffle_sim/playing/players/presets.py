"""Players: a skill preset (``shuffle_sim/noise/skills.toml``) and a strategy, read from the command
line's "expert-ev,novice-plan" syntax."""

from __future__ import annotations

from dataclasses import dataclass, replace

from shuffle_sim.games import game_names
from shuffle_sim.messages import shown
from shuffle_sim.noise import EXACT, NoiseError, NoiseModel, skill_presets
from shuffle_sim.playing.players.context import Launch, PlayerError, ShotContext
from shuffle_sim.playing.players.strategies import (
    DEFAULT_EV_SAMPLES,
    Decision,
    ExpectedValue,
    FixedPlan,
    Strategy,
    execute,
)


@dataclass(frozen=True)
class Player:
    """A simulated player: execution noise (``skill``) and a strategy (``FixedPlan`` or ``ExpectedValue``).

    ``reads``: how much of a court's drift the player's aim allows for (``reading``): 1 reads the
    surface as it is, 0 aims as if the court were flat. Nothing changes on a flat court.
    """

    name: str
    skill: NoiseModel
    strategy: Strategy
    reads: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.reads, bool) or not isinstance(self.reads, (int, float)) or not 0.0 <= self.reads <= 1.0:
            raise PlayerError(f"players: reads must be a number in [0, 1] (got {shown(self.reads)})")

    def decide(self, ctx: ShotContext) -> Decision:
        return self.strategy.choose(self.sees(ctx), self.skill)

    def sees(self, ctx: ShotContext) -> ShotContext:
        """``ctx`` as this player reads the court."""
        return ctx if ctx.reads == self.reads else replace(ctx, reads=float(self.reads))

    def play(self, ctx: ShotContext) -> tuple[Decision, Launch]:
        """Decide and execute: the decision and the launch as played (with this shot's errors)."""
        decision = self.decide(ctx)
        return decision, execute(ctx, decision.launch, self.skill)


def skills_for(game: str) -> dict[str, NoiseModel]:
    """The skill presets a player of ``game`` can name: the game's presets, and ``exact`` (no noise)."""
    try:
        presets = dict(skill_presets(game))
    except NoiseError as exc:
        if game not in game_names():
            raise PlayerError(str(exc)) from None
        presets = {}  # a registered game without presets of its own: exact players only
    presets.setdefault("exact", EXACT)
    return presets


def _normalise(name: str) -> str:
    return " ".join(name.replace("_", " ").replace("-", " ").lower().split())


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
    presets = skills_for(game)
    by_name = {_normalise(name): name for name in presets}
    key = _normalise(skill_text)
    if key not in by_name:
        raise PlayerError(
            f"players: unknown skill {skill_text!r} in {spec!r} for {game} (known: {', '.join(by_name.values())})"
        )
    skill = presets[by_name[key]]
    if strategy_text == "plan":
        strategy: Strategy = FixedPlan()
    elif strategy_text.startswith("win"):
        from shuffle_sim.playing.search.kr_uct import WinSearch

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
