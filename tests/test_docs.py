"""The documentation: the README's links resolve, no page names issue numbers or commits, and the
Sphinx site builds with warnings as errors.

The site build (``docs/``, Sphinx with the ``docs`` tools) runs the pages and the API reference from
the docstrings but not the gallery's scripts (``-D plot_gallery=0``): CI builds the whole site,
gallery included, once, after the tests (so the test is skipped there, ``CI`` set). It is skipped
where Sphinx or its extensions are not installed.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The prose a reader meets: the front page, the site's pages, the gallery and the format READMEs.
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "courts" / "README.md",
        ROOT / "experiments" / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "examples").glob("*.py"),
        *(ROOT / "examples").glob("*.rst"),
    ]
)
PAGES = [p for p in PAGES if "_build" not in p.parts and "auto_examples" not in p.parts]
#: What the pages must not hold: the project's issue numbers and commit hashes (history lives in git).
HASH = r"(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}"  # hex digits with at least one letter: not a plain number
HISTORY = re.compile(rf"\bissues? \d+|\bcommits? {HASH}\b|\(\s*{HASH}\s*\)", re.IGNORECASE)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
DOCS_TOOLS = ("sphinx", "pydata_sphinx_theme", "numpydoc", "sphinx_gallery", "myst_parser")


def test_the_readme_links_to_files_that_exist():
    text = (ROOT / "README.md").read_text()
    targets = [t for t in LINK.findall(text) if "://" not in t]
    assert targets, "the README links into the documentation"
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_name_no_issue_numbers_or_commits(page):
    hits = [(n, line.strip()) for n, line in enumerate(page.read_text().splitlines(), 1) if HISTORY.search(line)]
    assert not hits, f"{page.relative_to(ROOT)}: history belongs in git, not in the page: {hits}"


def test_history_pattern_catches_what_it_is_for():
    for text in (
        "see issue 10",
        "Issues 12 and 13",
        "commit 5dd5a4c",
        "the tree before (commit 72b2463)",
        "the tree that landed (6cd77d0)",
    ):
        assert HISTORY.search(text), text
    for text in (
        "fingerprint c61dcfa977b0fc715a2c831b323d7f4ae0e69d3d6da6ff432683cc70b01728d7",
        "10 issues",
        "a draw to the 10 (61 %)",
        "(4003200)",
    ):
        assert not HISTORY.search(text), text


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    if os.environ.get("CI"):
        pytest.skip("CI builds the whole site once, gallery included, after the tests (.ci/run)")
    for tool in DOCS_TOOLS:
        pytest.importorskip(tool)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-D",
            "plot_gallery=0",
            "-d",
            str(tmp_path / "doctrees"),
            str(ROOT / "docs"),
            str(tmp_path / "html"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    for page in ("index", "getting-started", "physics", "formats/courts", "formats/results", "api/shuffle_sim.physics"):
        assert (tmp_path / "html" / f"{page}.html").is_file(), page
