"""The shot advisor: ``shuffle-sim advise GAME BOARD.json``, the candidate shots for a board ranked.

The board is read as ``shuffle-sim score`` reads it (``rules.board_file.load_board``). The shooter sees it
as a shooter in a game would (``advice_context``: the game's tactics, the stance of the seat, side
or half named by ``position``; by default the one the rules give the shooter's colour at that end,
``default_position``), and every candidate shot of the game's repertoire (``Tactics.candidates``)
is aimed, then executed ``samples`` times under the player's own execution errors (the same
sampled errors for every candidate, from the search stream ``noise.STREAM_SEARCH``), all in one
batch call; each execution is judged twice:

- by what the shot was meant to do (``players.success.intent_met``: a take-out removed its target,
  a draw came to rest in its zone, a hide is hidden from the opponent's start, an open 20 dropped):
  ``success``, with its 95 % Wilson interval (``success_low``, ``success_high``);
- by its value for the frame, the game's rules applied (``Tactics.evaluate``: own minus the
  opponent's frame score; deck: a shot that makes a dead disc touch a live one is worth the C-20a
  10-off, the half-round played over): ``expected`` (the mean) and ``spread`` (the standard
  deviation); ``as_meant`` is the value of the shot played exactly as aimed, ``meant_succeeds``
  whether that noise-free shot does what it means.

The default sample count, ``DEFAULT_SAMPLES`` (1068), bounds the 95 % interval of a success rate by
+-3 points wherever it lies (n = 1.96^2 / (4 x 0.03^2)). With a game situation (``score``: the
shooter's and the opponent's; ``hammer``; ``frames_left``) the shots are ranked by the probability
of winning the game, estimated as the ``win`` players estimate it (``playing.search``: the shot, the
rest of its frame rolled out, the game's table of win probability): ``win`` with its 95 % interval
(``win_low``, ``win_high``) over ``win_samples`` rollouts (fewer on a court whose shots run the
integrated law, ``WIN_BUDGET_READ``). Otherwise they are ranked by expected
frame value, then success, then spread. The best few can be drawn on the court (``plot_advice``).

``Advice`` is the Python result (the lab shows it); ``Advice.to_dict`` is the JSON row of
``shuffle-sim advise --json``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shuffle_sim.court import Court
from shuffle_sim.games import get_game
from shuffle_sim.noise import EXACT
from shuffle_sim.playing.flat_only import require_win_search, surface_words
from shuffle_sim.playing.players import Intent, Launch, Player, PlayerError, ShotContext, noise_vector
from shuffle_sim.playing.players.reading import needs_reading
from shuffle_sim.playing.players.strategies import with_skill
from shuffle_sim.playing.players.success import intent_met, samples_for_margin, wilson_interval
from shuffle_sim.rules.common import Board
from shuffle_sim.shots import ShotBatch, simulate_shots

#: Sampled executions per candidate by default: a success rate's 95 % interval within +-3 points.
SUCCESS_MARGIN = 0.03
DEFAULT_SAMPLES = samples_for_margin(SUCCESS_MARGIN)
#: Simulated shots (each shot and the shots of its rollout) the win ranking may spend in all: on a
#: court the closed form aims on, and on one whose shots run the integrated law (graded, crowned or
#: mapped, or a friction of speed: about 50 times the cost a shot), where the ranking answers within
#: about 30 s on two cores.
WIN_BUDGET = 400_000
WIN_BUDGET_READ = 20_000
#: Rollouts per candidate for the win ranking, at least.
MIN_WIN_SAMPLES = 64


@dataclass(frozen=True)
class Advice:
    """One candidate shot, ranked.

    ================  ===========================================================================
    field             meaning
    ================  ===========================================================================
    intent, launch    the shot as meant, and its noise-free launch
    expected          mean value for the frame over the sampled executions (own minus opponent's
                      frame score by the game's rules; deck: C-20a's 10-off included)
    spread            standard deviation of those values
    as_meant          value of the shot played exactly as aimed (no execution error)
    success           share of sampled executions that did what the shot means
    success_low/high  its 95 % Wilson interval
    samples           sampled executions behind ``expected`` and ``success``
    meant_succeeds    whether the noise-free shot does what it means
    win               the probability of winning the game after the shot (with a game situation;
                      else None), ``win_low``/``win_high`` its 95 % interval over
                      ``win_samples`` rollouts (``to_dict``: None, as the others, without a situation)
    ================  ===========================================================================
    """

    intent: Intent
    launch: Launch
    expected: float
    success: float
    spread: float
    as_meant: float
    samples: int = 0
    success_low: float = 0.0
    success_high: float = 1.0
    meant_succeeds: bool = True
    win: float | None = None
    win_low: float | None = None
    win_high: float | None = None
    win_samples: int = 0

    def to_dict(self) -> dict:
        return {
            "shot": self.intent.label,
            "kind": self.intent.kind,
            "expected": self.expected,
            "success": self.success,
            "success_low": self.success_low,
            "success_high": self.success_high,
            "samples": self.samples,
            "spread": self.spread,
            "as_meant": self.as_meant,
            "meant_succeeds": self.meant_succeeds,
            "win": self.win,
            "win_low": self.win_low,
            "win_high": self.win_high,
            "win_samples": self.win_samples if self.win is not None else None,
            "launch": self.launch.to_dict(),
        }


def default_position(game: str, board: Board, shooter: str) -> str:
    """Where the rules put ``shooter`` by default (the play module's ``default_position``; else the
    module's first position)."""
    module = get_game(game).play_module()
    find = getattr(module, "default_position", None)
    return find(board, shooter) if find is not None else module.POSITIONS[0]


def advice_context(game: str, board: Board, shooter: str | None = None, position: str | None = None) -> ShotContext:
    """What a shooter of ``game`` sees on ``board`` from ``position``: the game's play module (the
    registry's ``play``) names the positions (``POSITIONS``) and builds the context
    (``shooter_context``); without a position, the one the rules give the shooter
    (``default_position``: deck, MSA C-3, yellow from the right half at the head and the left at
    the foot, black the other; crokinole, the second side across the board from the first)."""
    module = get_game(game).play_module()
    positions = getattr(module, "POSITIONS", None)
    if positions is None or not hasattr(module, "shooter_context"):
        raise PlayerError(f"advise: game {game!r} has no shot advisor (its play module names no POSITIONS)")
    shooter = get_game(game).sides[0] if shooter is None else shooter
    if not isinstance(shooter, str) or not shooter:
        raise PlayerError(f"advise: shooter must be a team name (got {shooter!r})")
    position = default_position(game, board, shooter) if position is None else position
    if position not in positions:
        raise PlayerError(f"advise: position must be one of {', '.join(positions)} for {game} (got {position!r})")
    ctx = module.shooter_context(board, shooter, position)
    ctx.info["position"] = position
    return ctx


def _rows(batch: ShotBatch, start: int, stop: int) -> ShotBatch:
    return ShotBatch(**{name: getattr(batch, name)[start:stop] for name in ShotBatch.LAYOUT})


def _executions(ctx: ShotContext, launches: list[Launch], skill, n: int) -> tuple[np.ndarray, ...]:
    """Every launch under samples 0..n-1 of the search stream of ``ctx``'s shot: x, y, vx, vy, omega."""
    from shuffle_sim.playing.search.kr_uct import executions, launch_rows

    return executions(ctx, skill, launch_rows(launches, n), _sample_ids(launches, n))


def _sample_ids(launches: list[Launch], n: int) -> np.ndarray:
    """Samples 0..n-1 of each launch, as ``_executions`` lays its rows out."""
    return np.tile(np.arange(n, dtype=np.int64), len(launches))


def _frame_values(game: str, ctx: ShotContext, launches: list[Launch], skill, n: int, batch: ShotBatch) -> np.ndarray:
    """Each execution's value for the frame (``Tactics.evaluate``); deck: C-20a (a dead disc touching a
    live one) makes it the shooter's 10-off, the half-round played over. The C-20a check replays the
    shot in the rollout kernel (``search.deck_rollout``), under the court's own motion law."""
    values = np.asarray(ctx.tactics.evaluate(ctx, batch), dtype=np.float64)
    if game == "deck":
        from shuffle_sim.playing.search.deck_rollout import rollouts_from
        from shuffle_sim.playing.search.kr_uct import launch_rows

        rows = launch_rows(launches, n)
        _, out = rollouts_from(ctx, rows, noise_vector(skill), 0, _sample_ids(launches, n))
        values = np.where(out["penalty"] >= 0, -10.0, values)
    return values


def advise(
    game: str,
    board: Board,
    player: Player,
    shooter: str | None = None,
    position: str | None = None,
    samples: int | None = None,
    score: tuple[int, int] | None = None,
    hammer: bool = False,
    frames_left: int | None = None,
    shots_left: int | None = None,
    game_length: int | None = None,
    frames: int | None = None,
    championship: bool = False,
) -> tuple[ShotContext, list[Advice]]:
    """The candidate shots of ``game`` for ``board`` (module docstring), best first.

    ``samples``: executions per candidate (default ``DEFAULT_SAMPLES``; 1 for a noise-free player).
    ``score`` (the shooter's, the opponent's), ``hammer``, ``frames_left``, ``shots_left``,
    ``game_length``, ``frames`` (a deck game of that many frames) and ``championship`` (a crokinole
    championship game) describe the game the board is part of (``search.told_situation``); with a score
    the shots are ranked by the probability of winning the game (crokinole's rollouts need a flat
    court under Coulomb friction, ``playing.flat_only``; the court and the game situation are
    checked before any shot is simulated). The situation is then in
    ``ctx.info["situation"]`` (its ``describe()`` says it in players' words) and what the advisor
    assumed, not told, in ``ctx.info["assumed"]`` (by argument name).

    On a court that is not flat, or under a friction that changes with speed, the candidates are
    aimed as the player reads the court (``players.reading``; a ``-flat`` player aims as if flat)
    and every sample runs through the court's own motion law (``simulate_shots``). A candidate whose
    read launch does not reach its goal on the court (it leaves the court on the way: a fast table
    with a steep cross grade) is not ranked; its label goes to ``ctx.info["unreached"]``, and
    ``unreached_line`` says so in one line.
    """
    ctx = advice_context(game, board, shooter, position)
    skill = player.skill
    ctx = with_skill(player.sees(ctx), skill)
    if samples is None:
        samples = DEFAULT_SAMPLES
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise PlayerError(f"advise: samples must be a positive integer (got {samples!r})")
    n = 1 if skill.is_exact else samples
    situation = None
    if score is not None:
        # Checked before any shot is simulated: the win estimates need a court their rollouts take and a valid game.
        from shuffle_sim.playing.search.told_situation import advice_situation

        require_win_search(game, ctx.court, "advise with a score")
        situation, assumed = advice_situation(
            game, ctx, score, hammer, frames_left, shots_left, game_length, frames, championship
        )
        ctx.info["situation"] = situation
        ctx.info["assumed"] = assumed
        # the shots after this one alternate, the opponent's first (crokinole's frame value weighs
        # the opponent's next shot only while it has one)
        ctx.info["opponent_shots_left"] = (situation.later + 1) // 2
    intents, launches, unreached = [], [], []
    for intent in ctx.tactics.candidates(ctx):
        try:
            launch = intent.aim(ctx)
        except PlayerError:
            continue
        if not launch.reaches:
            unreached.append(intent.label)
            continue
        launches.append(launch)
        intents.append(intent)
    ctx.info["unreached"] = unreached
    if not intents:
        return ctx, []
    board_scene = ctx.board_scene()
    x, y, vx, vy, omega = _executions(ctx, launches, skill, n)
    batch = simulate_shots(ctx.court, x, y, vx, vy, omega, board=board_scene, bad_starts="skip")
    values = _frame_values(game, ctx, launches, skill, n, batch).reshape(len(intents), n)
    x, y, vx, vy, omega = _executions(ctx, launches, EXACT, 1)
    exact_batch = simulate_shots(ctx.court, x, y, vx, vy, omega, board=board_scene, bad_starts="skip")
    meant = _frame_values(game, ctx, launches, EXACT, 1, exact_batch)
    wins = None if situation is None else _win_estimates(ctx, skill, launches, situation, n)
    advice = []
    for c, (intent, launch) in enumerate(zip(intents, launches)):
        made = intent_met(ctx, intent, _rows(batch, c * n, (c + 1) * n))
        hits = int(made.sum())
        low, high = wilson_interval(hits, n)
        win = {} if wins is None else wins[c]
        meant_made = bool(intent_met(ctx, intent, _rows(exact_batch, c, c + 1))[0])
        advice.append(
            Advice(
                intent,
                launch,
                float(values[c].mean()),
                hits / n,
                float(values[c].std()),
                float(meant[c]),
                n,
                low,
                high,
                meant_made,
                **win,
            )
        )
    if wins is None:
        advice.sort(key=lambda a: (-a.expected, -a.success, a.spread))
    else:

        def by_win(a: Advice) -> tuple[float, float, float]:
            assert a.win is not None, "every shot has its chance to win when the game situation is given"
            return (-a.win, -a.expected, -a.success)

        advice.sort(key=by_win)
    return ctx, advice


def unreached_line(ctx: ShotContext, advice: list[Advice]) -> str | None:
    """One plain line naming the candidate shots left out because no launch reaches their goal on
    the court (``advise``), or None when every candidate was ranked."""
    unreached = ctx.info.get("unreached", [])
    if not unreached:
        return None
    kinds = list(dict.fromkeys(label.split(" (")[0] for label in unreached))
    names = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
    court = f"court {ctx.court.name!r} ({surface_words(ctx.court) or 'flat'})"
    if not advice:
        return f"no shot reaches on {court}: no {names} gets there without leaving the court"
    return f"not ranked: no {names} reaches on {court} without leaving the court"


def _win_estimates(ctx, skill, launches, situation, n):
    """Per launch: the win probability in ``situation`` (mean over rollouts), its 95 % interval and the
    rollouts."""
    from shuffle_sim.playing.search.kr_uct import WinSearch, shots_per_sample

    cost = shots_per_sample(situation)
    budget = WIN_BUDGET_READ if needs_reading(ctx.court) else WIN_BUDGET
    m = 1 if skill.is_exact else max(MIN_WIN_SAMPLES, min(n, budget // (cost * len(launches))))
    rows = [la for la in launches for _ in range(m)]
    ids = np.tile(np.arange(m, dtype=np.int64), len(launches))
    values = WinSearch().evaluate(ctx, skill, situation, rows, ids).reshape(len(launches), m)
    out = []
    for row in values:
        mean = float(row.mean())
        half = 1.959963984540054 * float(row.std(ddof=1)) / math.sqrt(m) if m > 1 else 0.0
        out.append({"win": mean, "win_low": max(0.0, mean - half), "win_high": min(1.0, mean + half), "win_samples": m})
    return out


#: The advice picture's narrowest width (inches): room below the court for the legend of the shots.
ADVICE_MIN_WIDTH_IN = 5.0


def plot_advice(ctx: ShotContext, advice: list[Advice], path, best: int = 3, title: str | None = None) -> None:
    """Draw the board and the noise-free paths of the ``best`` first shots, numbered by rank, into an
    image file (``advice_figure``)."""
    import os

    advice_figure(ctx, advice, best, title).savefig(os.fspath(path), dpi=120)


def advice_figure(ctx: ShotContext, advice: list[Advice], best: int = 3, title: str | None = None):
    """The figure of ``plot_advice``: the court with its resting discs, the paths of the ``best``
    first shots numbered by rank, and below the court a legend naming each shot and its worth."""
    import textwrap

    from shuffle_sim.court.shapes import extent
    from shuffle_sim.physics import Scene, sample_positions, simulate
    from shuffle_sim.plot import court_figure, draw_court, draw_discs, finish_axes, team_colours

    court: Court = ctx.court
    box = extent(court)
    fig = court_figure(box[2] - box[0], box[3] - box[1], min_width_in=ADVICE_MIN_WIDTH_IN)
    ax = fig.add_subplot()
    # Characters of a legend line at its font size (7 pt, about 0.055 in a character) across the figure.
    line_chars = int((fig.get_figwidth() - 0.6) / 0.055)
    draw_court(ax, court)
    if ctx.n_discs:
        draw_discs(ax, court, ctx.board_x, ctx.board_y, ctx.board_team)
    colour = team_colours(court, [ctx.shooter])[0]
    styles = ("-", "--", ":", "-.")
    for rank, a in enumerate(advice[:best], start=1):
        n = ctx.n_discs
        scene = Scene(
            court=court,
            x=np.append(ctx.board_x, a.launch.x),
            y=np.append(ctx.board_y, a.launch.y),
            vx=np.append(np.zeros(n), a.launch.vx),
            vy=np.append(np.zeros(n), a.launch.vy),
            omega=np.append(np.zeros(n), a.launch.omega),
            source="advice",
        )
        _, positions = sample_positions(simulate(scene), 200)
        track = positions[:, n, :]
        finite = np.isfinite(track).all(axis=1)
        worth = f"win {a.win:.0%}" if a.win is not None else f"{a.expected:+.1f}"
        ax.plot(
            track[finite, 0],
            track[finite, 1],
            styles[(rank - 1) % len(styles)],
            color="black",
            linewidth=1.3,
            zorder=7,
            label=textwrap.fill(f"{rank}. {a.intent.label}: {worth} ({a.success:.0%} made)", line_chars),
        )
        ax.plot(track[0, 0], track[0, 1], "o", color=colour, markeredgecolor="black", zorder=7)
        end = track[finite][-1]
        ax.text(
            end[0],
            end[1],
            str(rank),
            fontsize=8,
            fontweight="bold",
            zorder=8,
            ha="center",
            va="center",
            bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": "black"},
        )
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    if advice:
        fig.legend(loc="outside lower center", fontsize=7, frameon=False)
    finish_axes(ax, court, title or f"{court.title}: best shots for {ctx.shooter}")
    return fig
