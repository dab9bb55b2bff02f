"""The house's boundaries hold: imports flow down the layers, and private modules and names stay home.

The package docstring lists the layers from the bottom; every import of one part of the package by
another must go down that list. A module or name that starts with an underscore is private to the
(sub)package that holds it: no other part imports it. Imports inside functions count too.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import shuffle_sim

PACKAGE = Path(shuffle_sim.__file__).resolve().parent


def _layers() -> list[str]:
    """The layer names, bottom first, as the package docstring lists them."""
    text = shuffle_sim.__doc__
    paragraph = text[text.index("The layers, from the bottom:") : text.index("Imports flow one way")]
    return re.findall(r"``([a-z_]+)``", paragraph)


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path) -> list[tuple[int, str, str | None]]:
    """(line, module, name or None) of every import of the package in the file, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("shuffle_sim"):
            found += [(node.lineno, node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names if alias.name.startswith("shuffle_sim")]
    return found


def _part(module: str) -> str:
    """The layer a module belongs to: its top-level subpackage or module under shuffle_sim."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "shuffle_sim"


def _target(module: str, name: str | None, modules: dict[str, Path]) -> str:
    """The module an import reaches: ``from a.b import c`` reaches a.b.c when that is a module."""
    if name is not None and f"{module}.{name}" in modules:
        return f"{module}.{name}"
    return module


def test_the_docstring_names_every_part_of_the_package_once():
    layers = _layers()
    parts = {_part(m) for m in _modules()} - {"shuffle_sim", "_version"}
    assert len(layers) == len(set(layers))
    assert set(layers) == parts


def test_imports_flow_down_the_layers():
    layers = _layers()
    rank = {name: k for k, name in enumerate(layers)}
    modules = _modules()
    upward = []
    for module, path in modules.items():
        here = _part(module)
        if here in ("shuffle_sim", "_version"):
            continue
        for line, target, name in _imports(path):
            there = _part(_target(target, name, modules))
            if there in ("shuffle_sim", "_version") or there == here:
                continue
            if rank[there] > rank[here]:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target} ({here} -> {there})")
    assert not upward, "imports running back up the layers:\n" + "\n".join(upward)


def test_private_modules_and_names_stay_in_their_package():
    modules = _modules()
    leaks = []
    for module, path in modules.items():
        for line, target, name in _imports(path):
            reached = _target(target, name, modules)
            parts = reached.split(".")
            for depth, part in enumerate(parts):
                if part.startswith("_") and not part.startswith("__"):
                    owner = ".".join(parts[:depth]) or "shuffle_sim"
                    if not (module == owner or module.startswith(owner + ".")):
                        leaks.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports private module {reached}")
                    break
            if name and name.startswith("_") and not name.startswith("__") and reached == target:
                # A private name is its package's: a module's belongs to the module's package (to the
                # module alone on the ground floor), a package's to the package.
                owner = target if modules[target].name == "__init__.py" else target.rsplit(".", 1)[0]
                owner = target if owner == "shuffle_sim" else owner
                if not (module == owner or module.startswith(owner + ".")):
                    leaks.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports private name {target}.{name}")
    assert not leaks, "private modules or names used outside their package:\n" + "\n".join(leaks)


def _import_cycles(package: str) -> list[list[str]]:
    """The import cycles among the modules of ``package`` (``shuffle_sim.experiment``): every strongly
    connected group of more than one module in the graph of their imports of each other, at any depth
    (inside functions and ``if TYPE_CHECKING`` too: a cycle there is a knot in the design all the same)."""
    modules = _modules()
    inside = {m for m in modules if m == package or m.startswith(package + ".")}
    graph = {m: {_target(t, n, modules) for _, t, n in _imports(modules[m])} & inside - {m, package} for m in inside}
    # Tarjan's strongly connected components, iteratively: the package is small, recursion would do too.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
            elif step not in index:
                index[step] = low[step] = len(index)
                stack.append(step)
                on_stack.add(step)
                work.append((step, iter(sorted(graph[step]))))
            elif step in on_stack:
                low[node] = min(low[node], index[step])
    return groups


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    package = tmp_path / "shuffle_sim" / "knot"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from shuffle_sim.knot import b\n")
    (package / "b.py").write_text("def f():\n    from shuffle_sim.knot.c import g\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from shuffle_sim.knot import a\n"
    )
    (package / "d.py").write_text("from shuffle_sim.knot import a\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "shuffle_sim")
    assert _import_cycles("shuffle_sim.knot") == [["shuffle_sim.knot.a", "shuffle_sim.knot.b", "shuffle_sim.knot.c"]]


def test_there_is_no_import_cycle_in_experiment():
    cycles = _import_cycles("shuffle_sim.experiment")
    assert not cycles, "modules of shuffle_sim.experiment importing each other in a cycle: " + "; ".join(
        " <-> ".join(group) for group in cycles
    )
