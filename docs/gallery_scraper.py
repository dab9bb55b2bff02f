"""The gallery's image scraper: the picture files an example writes, as the command line writes them.

The examples call the package's own drawing functions, which save figures to files (``plot_court``,
``plot_trajectories``, ``Figure.savefig``) rather than showing them. After each code block this
scraper takes every new ``.png`` or ``.gif`` file in the example's folder (sphinx-gallery runs an
example with its folder as the working directory), moves it into the gallery's image folder, in the
order written, and embeds it, so the source tree keeps no generated picture.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sphinx_gallery.scrapers import figure_rst

PICTURE_SUFFIXES = (".png", ".gif")


class ImageFileScraper:
    """Embed the pictures a code block wrote into the current folder (a sphinx-gallery scraper)."""

    def __repr__(self) -> str:  # a stable repr: sphinx-gallery keys its cache on it
        return "ImageFileScraper"

    def __call__(self, block, block_vars, gallery_conf) -> str:
        folder = Path(block_vars["src_file"]).parent
        written = sorted(
            (p for p in folder.iterdir() if p.suffix in PICTURE_SUFFIXES), key=lambda p: (p.stat().st_mtime_ns, p.name)
        )
        paths = []
        for picture, target in zip(written, block_vars["image_path_iterator"]):
            target = Path(target).with_suffix(picture.suffix)
            shutil.move(os.fspath(picture), target)
            paths.append(target)
        return figure_rst(paths, gallery_conf["src_dir"]) if paths else ""
