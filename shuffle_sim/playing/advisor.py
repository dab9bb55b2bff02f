"""The shot advisor: ``shuffle-sim advise GAME BOARD.json``, the candidate shots for a board ranked.

The board is read as ``shuffle-sim score`` reads it (``rules.board_file.load_board``). The shooter sees it
as a shooter in a game would (``advice_context``: the game's tactics, the stance of the seat, side
or half named by ``position``), and every candidate shot of the game's repertoire
(``Tactics.candidates``) is played as the expected-value player weighs it
(``ExpectedValue.outcomes``): aimed, then executed ``samples`` times under the player's own
execution errors in one batch call, each outcome valued by the game's rules for the frame.

Each shot is reported with its expected frame value (the mean), its spread (the standard deviation
of the sampled values), and its success probability: the share of sampled executions worth at least
what the shot is worth played exactly as aimed (the noise-free outcome, the shot "as meant"). The
best few can be drawn on the court (``plot_advice``): the noise-free path of each, numbered by rank.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.games import get_game
from shuffle_sim.noise import EXACT
from shuffle_sim.playing.players import ExpectedValue, Intent, Launch, Player, PlayerError, ShotContext
from shuffle_sim.rules.common import Board

@dataclass(frozen=True)
class Advice:
    """One candidate shot, ranked: its intent, noise-free launch, and what it is worth."""

    intent: Intent
    launch: Launch
    expected: float
    success: float
    spread: float
    as_meant: float

    def to_dict(self) -> dict:
        return {"shot": self.intent.label, "kind": getattr(self.intent, "kind", None) or type(self.intent).__name__,
                "expected": self.expected, "success": self.success, "spread": self.spread,
                "as_meant": self.as_meant, "launch": self.launch.to_dict()}


def advice_context(game: str, board: Board, shooter: str | None = None, position: str | None = None) -> ShotContext:
    """What a shooter of ``game`` sees on ``board`` from ``position``: the game's play module (the
    registry's ``play``) names the positions (``POSITIONS``, the first the default) and builds the
    context (``shooter_context``)."""
    module = get_game(game).play_module()
    positions = getattr(module, "POSITIONS", None)
    if positions is None or not hasattr(module, "shooter_context"):
        raise PlayerError(f"advise: game {game!r} has no shot advisor (its play module names no POSITIONS)")
    position = positions[0] if position is None else position
    if position not in positions:
        raise PlayerError(f"advise: position must be one of {', '.join(positions)} for {game} (got {position!r})")
    shooter = get_game(game).sides[0] if shooter is None else shooter
    if not isinstance(shooter, str) or not shooter:
        raise PlayerError(f"advise: shooter must be a team name (got {shooter!r})")
    return module.shooter_context(board, shooter, position)


def advise(game: str, board: Board, player: Player, shooter: str | None = None, position: str | None = None,
           samples: int | None = None) -> tuple[ShotContext, list[Advice]]:
    """The candidate shots of ``game`` for ``board``, best expected frame value first (then the
    likelier to succeed, then the steadier)."""
    ctx = advice_context(game, board, shooter, position)
    strategy = player.strategy if isinstance(player.strategy, ExpectedValue) else ExpectedValue()
    if samples is not None:
        strategy = ExpectedValue(samples)
    intents, launches, values = strategy.outcomes(ctx, player.skill, ctx.tactics.candidates(ctx))
    if not intents:
        return ctx, []
    _, _, exact = ExpectedValue(1).outcomes(ctx, EXACT, intents)
    meant = exact[:, 0]
    advice = [Advice(intent, launch, float(row.mean()), float(np.mean(row >= m - 1e-9)), float(row.std()), float(m))
              for intent, launch, row, m in zip(intents, launches, values, meant)]
    advice.sort(key=lambda a: (-a.expected, -a.success, a.spread))
    return ctx, advice


def plot_advice(ctx: ShotContext, advice: list[Advice], path, best: int = 3, title: str | None = None) -> None:
    """Draw the board and the noise-free paths of the ``best`` first shots, numbered by rank."""
    import os

    from shuffle_sim.court.shapes import extent
    from shuffle_sim.physics import Scene, sample_positions, simulate
    from shuffle_sim.plot import court_figure, draw_court, draw_discs, finish_axes, team_colours

    court: Court = ctx.court
    box = extent(court)
    fig = court_figure(box[2] - box[0], box[3] - box[1])
    ax = fig.add_subplot()
    draw_court(ax, court)
    if ctx.n_discs:
        draw_discs(ax, court, ctx.board_x, ctx.board_y, ctx.board_team)
    colour = team_colours(court, [ctx.shooter])[0]
    styles = ("-", "--", ":", "-.")
    for rank, a in enumerate(advice[:best], start=1):
        n = ctx.n_discs
        scene = Scene(court=court, x=np.append(ctx.board_x, a.launch.x), y=np.append(ctx.board_y, a.launch.y),
                      vx=np.append(np.zeros(n), a.launch.vx), vy=np.append(np.zeros(n), a.launch.vy),
                      omega=np.append(np.zeros(n), a.launch.omega), source="advice")
        _, positions = sample_positions(simulate(scene), 200)
        track = positions[:, n, :]
        finite = np.isfinite(track).all(axis=1)
        ax.plot(track[finite, 0], track[finite, 1], styles[(rank - 1) % len(styles)], color="black", linewidth=1.3,
                zorder=7, label=f"{rank}. {a.intent.label}: {a.expected:+.1f} ({a.success:.0%})")
        ax.plot(track[0, 0], track[0, 1], "o", color=colour, markeredgecolor="black", zorder=7)
        end = track[finite][-1]
        ax.text(end[0], end[1], str(rank), fontsize=8, fontweight="bold", zorder=8, ha="center", va="center",
                bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": "black"})
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    if advice:
        ax.legend(loc="lower left", fontsize=7, framealpha=0.9)
    finish_axes(ax, court, title or f"{court.title}: best shots for {ctx.shooter}")
    fig.savefig(os.fspath(path), dpi=120)
