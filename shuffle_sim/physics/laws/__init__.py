"""The motion laws: how discs move between events, and the one interface the loop and faces use.

``law``
    a law as a value whose numba type chooses the compiled code: ``CLOSED_FORM``, ``INTEGRATED``
``closed_form``
    closed-form motion on planes under Coulomb friction, sliding and spinning coupled or not
``integrated``
    the equations of motion integrated step by step, on courts that are not flat
``ops``
    the laws' one interface: placing discs, reading them, the loop's steps, lone discs, paths
``choice``
    which law a court takes, and the arrays its motion needs
"""
