"""The house's boundaries hold: imports flow down the layers, and private modules and names stay home.

The package docstring lists the layers from the bottom; every import of one part of the package by
another must go down that list. A module or name that starts with an underscore is private to the
(sub)package that holds it: no other part imports it. Imports inside functions count too.
"""

from __future__ import annotations

import ast
import importlib
import re
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


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Every module's imports of other modules of the package (``from a import b`` reaching a.b)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for _, target, name in _imports(path):
            reached = _target(target, name, modules)
            if reached in modules and reached != module:
                targets.add(reached)
        graph[module] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others():
    """No import cycle anywhere in the package (a package's ``__init__`` re-exporting names that load
    on first use counts only where it imports outright)."""
    cycles = _cycles(_graph(_modules()))
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def _house(package: str) -> list[str]:
    """A package's parts, bottom first, as its docstring's "The house" section lists them."""
    text = importlib.import_module(package).__doc__
    section = text[text.index("The house\n") :]
    return re.findall(r"^``([a-z_]+)``$", section, flags=re.MULTILINE)


def test_the_physics_house_names_every_part_once_and_imports_flow_down_it():
    layers = _house("shuffle_sim.physics")
    modules = _modules()
    parts = {m.split(".")[2] for m in modules if m.startswith("shuffle_sim.physics.")}
    assert len(layers) == len(set(layers))
    assert set(layers) == parts
    rank = {name: k for k, name in enumerate(layers)}
    upward = []
    for module, path in modules.items():
        if not module.startswith("shuffle_sim.physics."):
            continue
        here = module.split(".")[2]
        for line, target, name in _imports(path):
            reached = _target(target, name, modules)
            if not reached.startswith("shuffle_sim.physics."):
                continue
            there = reached.split(".")[2]
            if there != here and rank[there] > rank[here]:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {reached} ({here} -> {there})")
    assert not upward, "imports running back up the physics house:\n" + "\n".join(upward)


def test_every_subpackage_docstring_lists_its_modules():
    """A reader opening a folder finds every module in its package's docstring (as ``name``)."""
    missing = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        folder = init.parent
        if folder == PACKAGE:
            continue
        package = ".".join(folder.relative_to(PACKAGE.parent).parts)
        named = set(re.findall(r"``([A-Za-z_][A-Za-z0-9_]*)``", importlib.import_module(package).__doc__ or ""))
        parts = [p.stem for p in folder.glob("*.py") if p.name != "__init__.py"]
        parts += [p.name for p in folder.iterdir() if (p / "__init__.py").is_file()]
        missing += [f"{package}.{part}" for part in sorted(parts) if part not in named]
    assert not missing, "modules missing from their package's docstring:\n" + "\n".join(missing)
