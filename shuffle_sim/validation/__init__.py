"""Validation: every real dataset the project has found beside the simulator, on one page
(``docs/validation.md``) written by ``python -m shuffle_sim.validation``.

==================  =======================================================================
module              what it does
==================  =======================================================================
``sources``         the datasets' provenance and published court speeds (``data/sources.toml``),
                    and their raw files (named, or downloaded once)
``tracked_clip``    a video-tracked table's free slides as calibration tracks in the court's frame
                    (``python -m shuffle_sim.validation.tracked_clip CLIP.csv TRACKS.csv``)
``tracked_table``   both friction laws fitted to those tracks, held out track by track, and the
                    fitted slides run through the simulator; the page's two pictures
``crokinole``       the presets' open-20 rates and the first missed open 20 against real rounds
``court_speeds``    the courts' speeds beside the published ones
``page``            the page's Markdown, from the results file
``results``         the results file: computed from the sources, or read to write the page
``__main__``        the script: the page from the results file, or ``--refresh`` everything
==================  =======================================================================

The page and its results file live in the checkout's ``docs/``; the script writes them there.
"""
