"""The validation page's real datasets (``data/sources.toml``): where each comes from, and its raw file.

A dataset is named by its repository, file, commit and licence. ``raw_file`` gives the raw file at
that commit: a path the user names, or a copy downloaded once from GitHub into a cache folder, so
that the page can be refreshed from nothing but the sources.
"""

from __future__ import annotations

import tomllib
import urllib.request
from dataclasses import dataclass
from pathlib import Path

SOURCES_FILE = Path(__file__).with_name("data") / "sources.toml"


@dataclass(frozen=True)
class Source:
    """Where a real dataset comes from."""

    key: str
    title: str
    repository: str
    path: str
    commit: str
    licence: str
    carried: bool
    description: str

    @property
    def url(self) -> str:
        """The file at its commit on GitHub."""
        return f"https://github.com/{self.repository}/blob/{self.commit}/{self.path}"

    @property
    def raw_url(self) -> str:
        return f"https://raw.githubusercontent.com/{self.repository}/{self.commit}/{self.path}"


@dataclass(frozen=True)
class PublishedSpeed:
    """A published range of court speeds (seconds over the game's speed course)."""

    game: str
    low: float
    high: float
    what: str
    source: str


def _data() -> dict:
    return tomllib.loads(SOURCES_FILE.read_text(encoding="utf-8"))


def load_sources() -> tuple[dict[str, Source], tuple[PublishedSpeed, ...]]:
    """The datasets by key, and the published court speeds."""
    data = _data()
    speeds = tuple(PublishedSpeed(**entry) for entry in data.pop("speeds", []))
    data.pop("round_reference", None)
    return {key: Source(key=key, **entry) for key, entry in data.items()}, speeds


def round_reference() -> dict:
    """Crokinole's published per-round figures (shares of rounds; 20s per player and round) and their source."""
    return dict(_data()["round_reference"])


def raw_file(source: Source, given: str | Path | None, cache: Path) -> Path:
    """The dataset's raw file: ``given`` when named, else a copy downloaded into ``cache`` (once)."""
    if given is not None:
        path = Path(given)
        if not path.is_file():
            raise FileNotFoundError(f"{source.key}: no file {path}")
        return path
    target = cache / source.repository.replace("/", "+") / source.commit[:12] / Path(source.path).name
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(source.raw_url, timeout=60) as response:
            partial = target.with_suffix(".part")
            partial.write_bytes(response.read())
            partial.replace(target)
    return target
