"""The shot lab: an interactive court in the browser, backed by the exact kernel and the real rules.

``shuffle-sim lab`` serves it (``server``); in a notebook, ``show_lab()`` displays the same app in an
output cell. A Bokeh application, one small module per job:

==================  ================================================================================
module              what it does
==================  ================================================================================
``app``             the page: figure, controls and their callbacks (one ``LabApp`` per session)
``court_glyphs``    the court to scale as Bokeh glyphs (the geometry of ``shuffle-sim draw``)
``board``           the board: resting discs, checked edits, undo, judgement and frame score
``starts``          the legal starts of each game's shots
``shots``           one shot through ``physics.simulate``; noisy copies through ``shots.simulate_shots``
``files``           boards and scenes in and out, in the command line's JSON formats
``view``            labels, tables and the density map, as data for the page
``browser_code``    the few JavaScript callbacks: animation, live drag, downloads, timestamps
``server``          the Bokeh server (loopback only unless told otherwise)
``browser``         headless Chromium for the tests and the screenshots (Playwright)
``screenshots``     the lab on each court, as PNG files for the documentation
==================  ================================================================================

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
