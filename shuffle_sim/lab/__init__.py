"""The shot lab: an interactive court in the browser, backed by the exact kernel and the real rules.

``shuffle-sim lab`` serves it (``server``); in a notebook, ``show_lab()`` displays the same app in an
output cell. A Bokeh application, one small module per job:

====================  ================================================================================
module                what it does
====================  ================================================================================
``app``               the page of one session (``LabApp``), built from the parts below; the waiting
                      page while the kernels compile
``figure``            the court figure: the court, the density map and its colour bar, discs, labels,
                      removed discs, the shot's paths and marks, the aim; its views
``controls``          the widgets beside the court and their layout (status area first, results tabs)
``status``            the one status area: problems until fixed, failures until the next success, notes
``fields``            the typed fields, checked as typed against their allowed range
``editing``           board edits: the court's gestures (place, select, drag, delete), Clear, Undo, mode
``aiming``            the aim: start, speed, direction, spin as fields and as an arrow with a tip
``playing``           Shoot, the animation, and the board and rulings shown when the discs stop
``analysis``          noisy copies (density map, outcomes) and advice (table, explanations, aim this)
``transfer``          loading and saving boards and scenes (only files the lab reads back)
``court_glyphs``      the court to scale as Bokeh glyphs (the geometry of ``shuffle-sim draw``)
``surface_glyphs``    a surface's relief as Bokeh glyphs: shaded heights, grade arrows, friction
``surface_controls``  the court speed, grade and crown fields, applied through ``Court.with_params``
``board``             the frame: resting discs, 20s set aside, scoring half, checked edits, undo
``referee``           the game's rules after every shot (as ``shuffle-sim play``) and the frame score
                      (as ``shuffle-sim score``)
``starts``            the legal starts of each game's shots
``shots``             one shot through ``physics.simulate``, ruled by ``referee``
``copies``            noisy copies through ``shots.simulate_shots``, the first ones ruled and scored
``advice``            the shot advisor's ranking as a table of its own columns, and "aim this"
``files``             boards and scenes in and out, in the command line's JSON formats
``view``              labels, tables, the frame panel and the density map, as data for the page
``browser_code``      the JavaScript: the court's pointer and keys, animation, downloads, timestamps
``session``           a session's actions in order, waiting for kernels, long ones in a worker thread
``warmup``            the kernels in groups, loaded or compiled (by helper processes) in the background
``server``            the Bokeh server (loopback only unless told otherwise)
``browser``           headless Chromium for the tests and the screenshots (Playwright)
``screenshots``       the lab on each court, as PNG files for the documentation
``latency``           how long the lab's answers take to reach the page, measured in the browser
``first_use``         the lab's first use on an empty numba cache (``shuffle-sim bench-startup``)
====================  ================================================================================

Needs the optional extra ``lab`` (Bokeh): ``pip install 'shuffle_sim[lab]'``.
"""

from __future__ import annotations


def show_lab(court: str = "deck", end: str | None = None, notebook_url: str = "localhost:8888") -> None:
    """Display the lab in a Jupyter notebook cell (Bokeh runs a server inside the kernel for it).

    ``notebook_url`` is the address the notebook is served at (as Bokeh's ``show`` needs it).
    """
    from bokeh.io import output_notebook, show
    from bokeh.resources import INLINE

    from shuffle_sim.lab.app import LabOptions, make_document

    output_notebook(resources=INLINE, hide_banner=True)  # BokehJS from the package: works offline
    show(make_document(LabOptions(court=court, end=end)), notebook_url=notebook_url)
