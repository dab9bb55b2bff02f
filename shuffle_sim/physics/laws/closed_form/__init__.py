"""Closed-form motion on planes: a disc slides on a straight line under Coulomb friction, with its
spin decaying on its own (decoupled) or coupled to the slide over the contact face (Farkas et al.);
every event is predicted exactly from each disc's reference state.

``slide``
    the motion of a sliding, spinning disc from a reference state, and this law's state rows
``coupled``
    the coupled slide and spin along the packed orbit tables
``lone_motion``
    the same motion for one disc from Python (``slide_and_spin``)
``disc_state``
    placing a disc, reading its state at a time, restarting its motion
``toi``
    times of impact: a straight path against fixed shapes, two sliding discs
``predict``
    each disc's next boundary event and kill-line crossing
``pair_predict``
    each pair's next impact, with and without coupled spin
``impacts``
    impacts applied to the discs' reference states; pushed discs given their common velocity
``paths``
    the trajectory log's rows and positions read back from it
``loop_steps``
    what the event loop asks of this law
``lone``
    the event loop for one disc alone, its state in local variables
"""
