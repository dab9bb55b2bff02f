"""Sphinx configuration of the shuffle_sim documentation site.

Build (from the repository's top folder; warnings are errors)::

    python3 -m sphinx -W --keep-going -b html docs docs/_build/html

The pages are Markdown (MyST) beside this file; the API reference comes from the docstrings
(numpydoc); the gallery runs the scripts of ``examples/`` and shows the pictures they write
(sphinx-gallery).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# The tree being documented comes first, whatever shuffle_sim is installed.
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS))

from gallery_scraper import ImageFileScraper  # noqa: E402

import shuffle_sim  # noqa: E402

project = "shuffle_sim"
author = "the shuffle_sim developers"
copyright = "the shuffle_sim developers, MIT licence"
release = version = shuffle_sim.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "matplotlib.sphinxext.plot_directive",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "command_reference",  # the command reference page, from the command line's parser (commands.rst)
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "**.ipynb_checkpoints",
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.json",
]
suppress_warnings: list[str] = []

# ---- MyST -------------------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "fieldlist", "html_image"]
myst_heading_anchors = 3

# ---- autodoc and numpydoc --------------------------------------------------------------------------
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"
autodoc_inherit_docstrings = False
autosummary_generate = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# ---- figures drawn at build time (the ``plot`` directive) ---------------------------------------------
plot_include_source = False
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 110)]
plot_rcparams = {"savefig.bbox": "tight"}

# ---- the gallery -----------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "image_scrapers": (ImageFileScraper(), "matplotlib"),
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "min_reported_time": 1,
}

# ---- HTML ------------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"shuffle_sim {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": []}
html_static_path: list[str] = []
html_show_sourcelink = False
