"""Players who play to win: the ``win`` strategy, its rollouts and its tables of win probability.

The deck's rollouts run the court's own motion law, their fixed plan read for a court that is not
flat or whose friction changes with speed (``players.read_tables``); crokinole's run flat courts
under Coulomb friction only and refuse others with an error naming the court (``playing.flat_only``).

=====================  ====================================================================
module                 what it does
=====================  ====================================================================
``win_tables``         win probability by score, frames or rounds left and hammer, computed
                       by dynamic programming over the frame outcomes of self-play (data
                       files in ``data/``)
``table_making``       the data files made by self-play
                       (``python -m shuffle_sim.playing.search.table_making``)
``_win_solve``         the dynamic programming of the win tables (numba value iteration)
``situations``         where a game stands before a shot (scores, hammer, frames left) and
                       what a frame's outcome makes of it, per game, from the rules' games
``told_situation``     the situation the shot advisor is told of, and what it assumes
``deck_rollout``       numba: a deck shot and the rest of its half-round under the fixed
                       plan, many sampled executions in one call (C-20a included)
``crokinole_rollout``  numba: a crokinole shot and the rest of its round (hit rule, 20s)
``_crokinole_plan``    numba: the crokinole rollouts' quick plan (take-out or open 20)
``_draws``             the sampled shots' errors from the search stream, their sample numbers
``kr_uct``             the search: kernel-regression UCT over the candidate shots (``WinSearch``)
``self_play``          whole games between two simulated players, kept as the rules' game objects
=====================  ====================================================================
"""
