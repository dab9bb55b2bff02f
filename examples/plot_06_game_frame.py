"""
A simulated game, frame by frame
================================

:func:`shuffle_sim.play` plays a whole game between two simulated players
(:doc:`/players`): each shot is aimed by the player's strategy, executed with the player's errors
through the exact kernel, and judged by the game's rules (:doc:`/rules`). This is a short deck
game to 21 points between two fixed-plan experts (``shuffle-sim play deck --players
expert-plan,expert-plan --game-length 21`` on the command line, which also writes a scorecard and a
picture of every frame).
"""

from shuffle_sim import load_court, play
from shuffle_sim.playing import frame_line
from shuffle_sim.plot import plot_court

record = play("deck", players="expert-plan,expert-plan", seed=3, game_length=21)
game = record.games[0]
for frame in game.frames:
    print(frame_line(frame, game.sides))
print(f"winner: {record.winner}")

# %%
# The board of the half-round that scored most, when its eight discs had come to rest, judged at the
# end it was played to: each disc labelled with its value (fallen discs lie beyond the edge they
# crossed).
last = max(game.frames, key=lambda f: sum(abs(d["value"]) for d in f.board))
print(last.label)
court = load_court("deck")
discs = [(d["x"], d["y"], d["team"]) for d in last.board]
plot_court(court, "half-round.png", discs=discs, end=last.end, zoom=last.end)
for d in last.board:
    print(f"{d['team']:>6s}: {d['value']:>3d}  {d['reason']}")
