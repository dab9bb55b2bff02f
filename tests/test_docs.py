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
    # From the front page, one click to installing, to every command and to what changed.
    front = (tmp_path / "html" / "index.html").read_text()
    for page in ("install.html", "commands.html", "changelog.html"):
        assert f'href="{page}"' in front, page
    from shuffle_sim.cli import build_parser

    commands = (tmp_path / "html" / "commands.html").read_text()
    for name in _subcommands(build_parser()):
        assert f'id="shuffle-sim-{name}"' in commands, name


# ---- what a reader must find -----------------------------------------------------------------------

#: The pages the front page must link to directly: installing, every command, what changed.
FRONT_PAGE_LINKS = ("install.md", "commands.rst", "changelog.md")


def test_the_front_page_links_to_installing_the_commands_and_the_changelog():
    text = (ROOT / "docs" / "index.md").read_text()
    targets = set(LINK.findall(text))
    missing = [page for page in FRONT_PAGE_LINKS if page not in targets]
    assert not missing, f"docs/index.md must link to {missing}"
    toctree = text[text.index("```{toctree}") :]
    for page in FRONT_PAGE_LINKS:
        assert page.rsplit(".", 1)[0] in toctree.split(), f"{page} is not in the front page's toctree"
    install = (ROOT / "docs" / "install.md").read_text()
    assert "pip install ." in install and "python3 -m build" in install


def test_the_changelog_has_a_section_for_this_version():
    from shuffle_sim._version import __version__

    headings = re.findall(r"^## (\S+)", (ROOT / "docs" / "changelog.md").read_text(), re.MULTILINE)
    assert headings and headings[0] == __version__, f"docs/changelog.md starts with {headings[:1]}, not {__version__}"


def _command_reference_module():
    """The Sphinx extension that draws the command reference (docs/command_reference.py)."""
    pytest.importorskip("sphinx")
    import importlib.util

    if "command_reference" not in sys.modules:
        spec = importlib.util.spec_from_file_location("command_reference", ROOT / "docs" / "command_reference.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules["command_reference"]


def _subcommands(parser) -> dict:
    import argparse

    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_command_reference_has_every_subcommand_and_every_option():
    from shuffle_sim.cli import build_parser

    parser = build_parser()
    reference = {c.name: c for c in _command_reference_module().command_reference(parser)}
    subcommands = _subcommands(parser)
    assert list(reference) == list(subcommands)
    for name, command in subcommands.items():
        page = reference[name]
        assert page.summary, f"{name}: no one-line help"
        written = " ".join(a.written for a in page.arguments)
        for action in command._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert option in written, f"{name}: {option} is missing from the command reference"
            if not action.option_strings:
                assert (action.metavar or action.dest) in written, f"{name}: argument {action.dest} is missing"
            if action.help and action.option_strings != ["-h", "--help"]:
                assert any(action.help.split("%")[0][:30] in a.meaning for a in page.arguments), action.help
        assert page.usage.startswith(f"shuffle-sim {name}")


def test_the_command_reference_would_show_a_new_subcommand(monkeypatch):
    from shuffle_sim.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "add_parser"))
    extra = sub.add_parser("frobnicate", help="a subcommand added for this test")
    extra.add_argument("--level", type=int, default=3, help="how much")
    names = [c.name for c in _command_reference_module().command_reference(parser)]
    assert names[-1] == "frobnicate"
    (level,) = _command_reference_module().command_reference(parser)[-1].arguments
    assert level.written == "--level LEVEL" and level.meaning == "how much; default 3"


# ---- the API reference -------------------------------------------------------------------------------

API = ROOT / "docs" / "api"
DIRECTIVE = re.compile(r"^\.\. (auto\w+|module|currentmodule):: (\S+)", re.MULTILINE)


def _api_pages() -> list[Path]:
    return sorted(p for p in API.glob("*.rst") if p.stem != "shuffle_sim")


def _public_names(module) -> list[str]:
    """The module's ``__all__``, or else the functions and classes it defines that are not private."""
    if hasattr(module, "__all__"):
        return [n for n in module.__all__ if not n.startswith("_")]
    return [
        n
        for n, v in vars(module).items()
        if not n.startswith("_") and callable(v) and getattr(v, "__module__", None) == module.__name__
    ]


def _private_modules(module) -> set[str]:
    """The names of the private modules and packages inside a package (``_loading``)."""
    if not hasattr(module, "__path__"):
        return set()
    folder = Path(module.__file__).parent
    return {p.stem for p in folder.iterdir() if p.name.startswith("_") and not p.name.startswith("__")}


#: Where a package docstring's note on its private modules starts.
INSIDE = "Inside the package:"


@pytest.mark.parametrize("page", _api_pages(), ids=lambda p: p.stem)
def test_an_api_page_shows_every_public_name_the_face_first_and_no_private_module(page):
    import importlib

    import shuffle_sim

    directives = DIRECTIVE.findall(page.read_text())
    module_name = next(target for kind, target in directives if kind in ("automodule", "module"))
    module = importlib.import_module(module_name)
    documented = [target for kind, target in directives if kind not in ("automodule", "module", "currentmodule")]
    missing = [n for n in _public_names(module) if n not in documented]
    assert not missing, f"{page.name} does not document {missing}"
    face = [n for n in shuffle_sim._FACE if n in _public_names(module)]
    if face:
        assert documented[0] in face, f"{page.name} opens with {documented[0]}, not with one of {face}"
    if any(kind == "automodule" for kind, _ in directives):
        # Private modules may be named last, under "Inside the package" (the package docstring lists
        # every module), never in what the page opens with.
        opening = (module.__doc__ or "").split(INSIDE)[0]
        named = set(re.findall(r"``([\w.]+)``", opening))
        shown = {part for name in named for part in name.split(".")} & _private_modules(module)
        assert not shown, f"{page.name}: the docstring of {module_name} names private modules {sorted(shown)}"


def test_the_api_check_catches_a_page_that_opens_with_internals(tmp_path, monkeypatch):
    page = tmp_path / "shuffle_sim.judging.rst"
    page.write_text(".. automodule:: shuffle_sim.judging\n\n.. autoclass:: JudgeArrays\n.. autofunction:: judge\n")
    with pytest.raises(AssertionError, match="does not document"):
        test_an_api_page_shows_every_public_name_the_face_first_and_no_private_module(page)
    names = " ".join(f".. autofunction:: {n}\n" for n in ("JudgeArrays", "judge", "judge_batch", "Judgement"))
    page.write_text(".. automodule:: shuffle_sim.judging\n\n" + names.replace(" ..", "\n.."))
    import shuffle_sim.judging

    monkeypatch.setattr(shuffle_sim.judging, "__all__", ["JudgeArrays", "judge", "judge_batch", "Judgement"])
    with pytest.raises(AssertionError, match="opens with JudgeArrays"):
        test_an_api_page_shows_every_public_name_the_face_first_and_no_private_module(page)
    page.write_text(".. automodule:: shuffle_sim.court\n\n.. autofunction:: load_court\n")
    import shuffle_sim.court

    monkeypatch.setattr(shuffle_sim.court, "__all__", ["load_court"])
    monkeypatch.setattr(shuffle_sim.court, "__doc__", "Loading (``_loading``).")
    with pytest.raises(AssertionError, match=r"names private modules \['_loading'\]"):
        test_an_api_page_shows_every_public_name_the_face_first_and_no_private_module(page)


# ---- the pages' facts ----------------------------------------------------------------------------------

#: Repository paths the pages name that are examples or build outputs, not files of the repository.
NOT_FILES = ("courts/mine.toml", "courts/my.toml", "courts/NAME.toml", "docs/_build", "shuffle_sim/courts")
#: A path the pages name: from the repository's top, or inside the package.
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:shuffle_sim|courts|experiments|examples|docs|tests|notebooks)/[\w./-]*[\w/]"
    r"|(?:play|playing|judge|judging|court|physics|experiment|rules|noise|plot|lab)/[\w./-]*[\w/])"
)


def _missing_path(text: str, here: Path = ROOT) -> bool:
    """True if ``text`` (``a/b/c.py``, ``a/b/c.name``, ``a/b/``) names nothing in the repository: from
    its top, inside the package, or beside the page (``here``, a page's folder)."""
    if text.startswith(NOT_FILES) or "<" in text:
        return False
    for base in (ROOT, ROOT / "shuffle_sim", here):
        path = base / text
        if path.exists() or (path.parent / (path.name.split(".")[0] + ".py")).exists():
            return False
    return True


def test_the_pages_name_only_paths_that_exist():
    stale = [
        f"{page.relative_to(ROOT)}:{n}: {found}"
        for page in PAGES
        for n, line in enumerate(page.read_text().splitlines(), 1)
        for found in REPO_PATH.findall(line)
        if _missing_path(found, page.parent)
    ]
    assert not stale, "paths that name nothing in the repository:\n" + "\n".join(stale)


def test_the_path_check_catches_a_stale_folder():
    assert _missing_path("play/players/repertoire.strike_speed")
    assert not _missing_path("playing/players/repertoire.strike_speed")
    assert not _missing_path("shuffle_sim/noise/skills.toml")
    assert _missing_path("shuffle_sim/skills.toml")


#: Words that tell a page's history rather than what is (history lives in git).
HISTORY_WORDS = re.compile(r"\b(now|previously|this session)\b", re.IGNORECASE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_describe_what_is_not_what_changed(page):
    hits = [(n, line.strip()) for n, line in enumerate(page.read_text().splitlines(), 1) if HISTORY_WORDS.search(line)]
    assert not hits, f"{page.relative_to(ROOT)}: words of a page's history: {hits}"


def _keys_missing(page: Path, keys) -> list[str]:
    text = page.read_text()
    return sorted(k for k in keys if not re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", text))


def test_the_scene_page_names_every_key_a_scene_takes():
    from shuffle_sim.court.materials import PARAM_DEFAULTS
    from shuffle_sim.court.surface_shape import MAP_KEYS, SHAPE_KEYS
    from shuffle_sim.physics.scene import DISC_KEYS, SCENE_KEYS

    keys = {*SCENE_KEYS, *DISC_KEYS, *PARAM_DEFAULTS, "speed", *SHAPE_KEYS, *MAP_KEYS}
    assert not _keys_missing(ROOT / "docs" / "formats" / "scenes.md", keys)


def test_the_board_page_names_every_key_a_board_takes():
    from shuffle_sim.physics.scene import DISC_KEYS, SCENE_KEYS

    assert not _keys_missing(ROOT / "docs" / "formats" / "boards.md", {*SCENE_KEYS, *DISC_KEYS, "half", "twenties"})


def test_the_experiment_page_names_every_key_an_experiment_takes():
    from shuffle_sim.experiment._axes import PARAMETERS
    from shuffle_sim.experiment._model import OUTCOMES
    from shuffle_sim.experiment._sections import _SHOT_KEYS, _TOP_KEYS
    from shuffle_sim.experiment.heatmaps import PLOT_KEYS
    from shuffle_sim.noise.skills import _NOISE_KEYS

    keys = {
        *_TOP_KEYS,
        *_SHOT_KEYS,
        *PARAMETERS,
        *OUTCOMES,
        *PLOT_KEYS,
        *_NOISE_KEYS,
        "preset",
        "from",
        "to",
        "steps",
        "values",
        "uniform",
        "normal",
        "records",
        "discs",
        "name",
    }
    assert not _keys_missing(ROOT / "experiments" / "README.md", keys)
