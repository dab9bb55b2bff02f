"""Benchmarks, one module each, run by the command line (``shuffle-sim bench*``); they print rates and
ratios measured side by side in one run and are not tests (the machines are shared and noisy).

==================  =======================================================================
module              what it does
==================  =======================================================================
``physics``         the physics kernel beside pymunk: single shots, half-rounds, JIT times
``judging``         judging classifications per second, one thread and all
``games``           whole simulated deck games per second (numba engine vs rules driver)
``experiments``     batch experiments end to end, and Dask scale-out
``startup``         what a user waits for: the main job warm and cold, the runner, the plots
``first_use``       each command's first use on an empty numba cache, and its kernels
``head_to_head``    the win player against the ev player of the same skill, game after game
``restitution``     what a restitution law costs (``bench``'s ``restitution_law`` entry)
``surface``         what a real surface costs (``bench``'s ``surface`` entry)
``players``         not speed but behaviour: shot mix and success by intent per game and preset
``head_to_head``    the ``win`` player against the ``ev`` player (or any two), game after game
``restitution``     what a restitution law costs (``bench``'s ``restitution_law`` entry)
``surface``         what a surface that is not flat costs (``bench``'s ``surface`` entry)
``envs``            the game environments: random-agent steps per second, the physics' share
``_timing``         the timing helpers they share (best rate, thread count)
==================  =======================================================================
"""
