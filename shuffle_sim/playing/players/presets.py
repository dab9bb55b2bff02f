"""Players: a skill preset (``shuffle_sim/noise/skills.toml``) and a strategy (``Player``), and the
skill presets a game's players can name. Players named in the command line's "expert-ev,novice-plan"
syntax are read by ``playing.player_names``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from shuffle_sim.games import game_names
from shuffle_sim.messages import shown
from shuffle_sim.noise import EXACT, NoiseError, NoiseModel, skill_presets
from shuffle_sim.playing.players.context import Launch, PlayerError, ShotContext
from shuffle_sim.playing.players.strategies import (
    Decision,
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


def find_skill(game: str, name: str, where: str = "players") -> NoiseModel:
    """The skill preset of ``game`` named ``name`` (any case, hyphens or spaces: "top-competitive");
    ``PlayerError`` naming ``where`` and the known presets otherwise."""
    presets = skills_for(game)
    by_name = {_normalise(preset): preset for preset in presets}
    key = _normalise(str(name))
    if key not in by_name:
        raise PlayerError(f"{where}: unknown skill {name!r} for {game} (known: {', '.join(by_name.values())})")
    return presets[by_name[key]]
