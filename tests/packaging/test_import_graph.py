"""The import graph of the whole package is a DAG: every module of `bbx` (top-level ones such as
`hook`, `host_arch` and `cuda_standin` included), of `bbx.cli` and of the `cutlass` shim is a
node, and every import inside the package is an edge — at module level, inside a function, or
under `TYPE_CHECKING` — so that a cycle cannot hide behind a local import.

A module's package `__init__` is not an edge of its own (`from . import x` names the module x).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: import name -> its directory (the shim is served as `cutlass` by the import hook)
PACKAGES = {"bbx": ROOT / "transpiler", "bbx.cli": ROOT / "cli",
            "cutlass": ROOT / "transpiler" / "shim" / "cutlass"}

@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool


def modules(packages: dict[str, Path]) -> dict[str, Module]:
    """Every module of `packages` by import name (a nested package listed on its own is left
    to its own entry)."""
    out: dict[str, Module] = {}
    roots = {d.resolve() for d in packages.values()}
    for name, directory in packages.items():
        for path in sorted(directory.rglob("*.py")):
            if any(r != directory.resolve() and r in path.resolve().parents for r in roots
                   if directory.resolve() in r.parents):
                continue  # another package's file, below this one's directory
            parts = list(path.relative_to(directory).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            dotted = ".".join([name, *(parts[:-1] if is_package else parts)])
            out[dotted] = Module(dotted, path, is_package)
    return out


def imports(module: Module, known: dict[str, Module]) -> set[str]:
    """The modules of `known` that `module` imports, anywhere in its text."""
    base = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(module.path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[:len(base) - (node.level - 1)]
                source = ".".join([*parent, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    out.add(f"{source}.{alias.name}")
                elif source in known:
                    out.add(source)
    out.discard(module.name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def package_graph(packages: dict[str, Path] = PACKAGES) -> dict[str, set[str]]:
    known = modules(packages)
    return {name: imports(module, known) for name, module in known.items()}


def _describe(cycle: frozenset[str], graph: dict[str, set[str]]) -> str:
    edges = [f"{a} -> {b}" for a in sorted(cycle) for b in sorted(graph[a] & cycle)]
    return f"{sorted(cycle)}: {'; '.join(edges)}"


def test_every_module_is_a_node() -> None:
    graph = package_graph()
    files = [p for d in (ROOT / "transpiler", ROOT / "cli") for p in d.rglob("*.py")]
    assert len(graph) == len(files)
    for top_level in ("bbx.hook", "bbx.host_arch", "bbx.cuda_standin", "bbx.translate",
                      "bbx.dsl_files", "bbx.cli.main", "cutlass.cute"):
        assert top_level in graph, top_level


def test_the_import_graph_is_a_dag() -> None:
    graph = package_graph()
    found = [_describe(c, graph) for c in cycles(graph)]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_a_local_or_type_only_import_closes_a_cycle(tmp_path: Path) -> None:
    """The graph sees imports inside functions and under TYPE_CHECKING."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n")
    (package / "d.py").write_text("import pkg.a\n")
    graph = package_graph({"pkg": package})
    assert graph["pkg.d"] == {"pkg.a"}
    assert cycles(graph) == [frozenset({"pkg.a", "pkg.sub.b", "pkg.c"})]
