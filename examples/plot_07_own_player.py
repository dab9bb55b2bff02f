"""
A player of your own
====================

Any object with a ``choose(ctx, skill)`` method plays a side of :func:`shuffle_sim.play` beside the
built-in players (:doc:`/own-players`). ``ctx`` is what the shooter sees (the court, the stance the
disc starts from, the resting discs, whose turn it is); ``choose`` returns a ``Decision``: the shot
as meant, here one of the game's intents (a draw, a take-out, a guard), and its noise-free launch.
The game loop then plays that launch with the player's execution errors and applies the rules, as
for every player.

This player takes out the opponent's best scoring disc, guards its own best one when the opponent has
none, and otherwise draws to the 10; it plays a short deck game to 15 against the built-in player
that searches for the shot most likely to win (``expert-win``).
"""

import numpy as np

from shuffle_sim import judge_batch, load_court, play
from shuffle_sim.playing import frame_line
from shuffle_sim.playing.players import Decision, Draw, Guard, PlayerError, TakeOut, zone_spot
from shuffle_sim.plot import plot_court


class GuardOrTakeOut:
    """Take out the opponent's best scoring disc; else guard my best; else draw to the 10."""

    name = "guard-or-take-out"  # on the scorecard
    skill = "expert"  # the execution errors it plays with: a skill preset of the game

    def choose(self, ctx, skill):
        values = judge_batch(ctx.court, ctx.board_x, ctx.board_y).value if ctx.n_discs else np.zeros(0)
        mine = np.array([team == ctx.shooter for team in ctx.board_team], dtype=bool)
        theirs = np.flatnonzero(~mine & (values > 0))
        ours = np.flatnonzero(mine & (values > 0))
        x, y, _ = zone_spot(ctx.court, "10")
        intents = [Draw(x, y, label="draw to the 10")]
        if ours.size:
            best = int(ours[np.argmax(values[ours])])
            intents.insert(0, Guard(best, 1.2, label=f"guard disc {best}"))
        if theirs.size:
            best = int(theirs[np.argmax(values[theirs])])
            intents.insert(0, TakeOut(best, 1.5, label=f"take out disc {best}"))
        for intent in intents:  # the first that can be aimed (a guard's spot may be taken)
            try:
                return Decision(intent, intent.aim(ctx))
            except PlayerError:
                continue
        raise PlayerError("no shot can be aimed")


record = play("deck", players=[GuardOrTakeOut(), "expert-win"], seed=1, game_length=15)
game = record.games[0]
for frame in game.frames:
    print(frame_line(frame, game.sides))
print(f"{record.players}: winner {record.winner}")

# %%
# What the player of our own meant by each of its shots in the last half-round, and where the discs
# came to rest.
last = game.frames[-1]
for shot in last.shots:
    print(f"shot {shot.number:2d} {shot.player:>18s}: {shot.intent}")
discs = [(d["x"], d["y"], d["team"]) for d in last.board]
plot_court(load_court("deck"), "own-player.png", discs=discs, end=last.end, zoom=last.end)
