"""Import resolution: which DSL (or `math` / `operator` / builtin) name an expression refers to.

`cute.make_layout` resolves to `cutlass.cute.make_layout` whether the module wrote
`import cutlass.cute as cute`, `from cutlass import cute`, `import cutlass`
(`cutlass.cute.make_layout`) or `from cutlass.cute import make_layout`.

Resolution follows Python's scoping rules the way libcst's QualifiedNameProvider does (imports
are module-level bindings; a name bound anywhere in a function is local to it and shadows an
import; module-level definitions shadow builtins) but is computed from an import table and the
current function's local names: QualifiedNameProvider's full scope analysis cost over a second
on a 1,500-line module, most of the translation budget.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable

import libcst as cst

from .walk import walk

#: Top-level modules whose names the transpiler understands.
KNOWN_ROOTS = ("cutlass", "math", "operator")
_BUILTINS = frozenset(dir(builtins))


def dotted(node: cst.CSTNode) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def _module_statements(module: cst.Module) -> Iterable[cst.CSTNode]:
    """Module-level statements, looking into module-level `if`/`try` blocks."""
    stack: list[cst.CSTNode] = list(reversed(module.body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, cst.SimpleStatementLine):
            yield from stmt.body
        elif isinstance(stmt, (cst.If, cst.Try)):
            blocks: list[cst.CSTNode] = [stmt.body]
            if isinstance(stmt, cst.If) and stmt.orelse is not None:
                blocks.append(
                    stmt.orelse.body if isinstance(stmt.orelse, cst.Else) else stmt.orelse
                )
            for block in reversed(blocks):
                body = getattr(block, "body", [])
                stack.extend(reversed(list(body)) if isinstance(body, (list, tuple)) else [block])
        else:
            yield stmt


class NameResolver:
    """Maps Name/Attribute nodes of one module to the qualified name they were imported as."""

    def __init__(self, module: cst.Module) -> None:
        self.aliases: dict[str, str] = {}
        self.module_names: set[str] = set()
        #: names local to the function being translated (set by the lowering).
        self.locals: frozenset[str] = frozenset()
        for stmt in _module_statements(module):
            if isinstance(stmt, cst.Import):
                for alias in stmt.names:
                    full = dotted(alias.name) or ""
                    if alias.asname is not None:
                        self.aliases[alias.evaluated_alias or full] = full
                    else:
                        head = full.split(".")[0]
                        self.aliases[head] = head
            elif isinstance(stmt, cst.ImportFrom) and not isinstance(stmt.names, cst.ImportStar):
                base = dotted(stmt.module) if stmt.module is not None else ""
                base = "." * len(stmt.relative) + (base or "")
                for alias in stmt.names:
                    name = alias.evaluated_name
                    local = alias.evaluated_alias or name
                    self.aliases[local] = f"{base}.{name}" if base else name
            elif isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                self.module_names.add(stmt.name.value)
                self.aliases.pop(stmt.name.value, None)
            elif isinstance(stmt, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = (
                    [t.target for t in stmt.targets]
                    if isinstance(stmt, cst.Assign)
                    else [stmt.target]
                )
                for t in targets:
                    for n in walk(t):
                        if isinstance(n, cst.Name):
                            self.module_names.add(n.value)
                            self.aliases.pop(n.value, None)

    def imported(self, node: cst.CSTNode) -> str | None:
        """The qualified name of any imported name (DSL or not), else None."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        if head in self.locals or head not in self.aliases:
            return None
        base = self.aliases[head]
        return f"{base}.{rest}" if rest else base

    def resolve(self, node: cst.CSTNode) -> str | None:
        """`cutlass.cute.make_layout` for a reference to a DSL / math / operator name,
        `builtins.abs` for a builtin, else None."""
        if not isinstance(node, (cst.Name, cst.Attribute)):
            return None
        qualified = self.imported(node)
        if qualified is not None:
            return qualified if qualified.split(".")[0] in KNOWN_ROOTS else None
        if (
            isinstance(node, cst.Name)
            and node.value in _BUILTINS
            and node.value not in self.locals
            and node.value not in self.module_names
            and node.value not in ("True", "False", "None")
        ):
            return "builtins." + node.value
        return None


def local_names(func: cst.FunctionDef) -> frozenset[str]:
    """Names bound anywhere in `func` (parameters, assignment and loop targets, ...)."""
    names: set[str] = set()
    for p in (*func.params.params, *func.params.posonly_params, *func.params.kwonly_params):
        names.add(p.name.value)
    for star in (func.params.star_arg, func.params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)

    def bind(target: cst.CSTNode) -> None:
        # `t[i] = ...` and `obj.x = ...` bind no name (and `cute` in `t[cute.f(x)] = ...` is
        # not made local).
        if isinstance(target, cst.Name):
            names.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                bind(element.value)
        elif isinstance(target, cst.StarredElement):
            bind(target.value)

    for node in walk(func.body):
        if isinstance(node, cst.AssignTarget):
            bind(node.target)
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            bind(node.target)
        elif isinstance(node, (cst.For, cst.CompFor)):
            bind(node.target)
        elif isinstance(node, cst.NamedExpr):
            bind(node.target)
        elif isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(
            getattr(node, "names", None), cst.ImportStar
        ):
            for alias in node.names:  # type: ignore[union-attr]
                names.add((alias.evaluated_alias or alias.evaluated_name).split(".")[0])
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            names.add(node.name.value)
    for node in walk(func.body):
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            for n in node.names:
                names.discard(n.name.value)
    return frozenset(names)
