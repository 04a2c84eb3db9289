"""Name facts about Python syntax trees (stdlib `ast`) that the rewrite needs: which names a
block of statements binds in its own scope, which it reads, and how the DSL's control-flow
markers (`const_expr`, `range`, `range_constexpr`, `@cute.jit`) are recognised.

The DSL decides by *syntax*, as NVIDIA's preprocessor does: `for i in range(...)`,
`for i in cutlass.range(...)` (any `<x>.range`), `range_dynamic` are run-time loops;
`range_constexpr` (bare or `<x>.range_constexpr`) is a Python loop; any other iterable is a Python
loop; an `if`/`while` whose test is a call of `const_expr(...)` (or `target_version(...)`) is
Python control flow.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

#: Calls whose value makes an `if`/`while` test compile-time (the DSL's `CONST_EXPR_NAME`).
CONST_EXPR_NAMES = frozenset({"const_expr", "target_version"})
#: Ranges of loops that are run-time loops when a bound is a run-time value.
DYNAMIC_RANGE_NAMES = frozenset({"range", "range_dynamic"})
#: The range of loops that Python always runs (unrolled at trace time).
CONSTEXPR_RANGE_NAME = "range_constexpr"
#: Decorators (`@cute.jit`, `@cute.kernel`, `@jit`, `@kernel(...)`) of functions to rewrite.
JIT_DECORATOR_NAMES = frozenset({"jit", "kernel"})
#: Keywords of a jit decorator that still mean "preprocess this function" (the DSL's list).
KNOWN_DECORATOR_KEYWORDS = frozenset({"preprocess", "attributes", "is_experimental"})

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def call_name(node: ast.expr) -> str | None:
    """`f` for `f(...)` and `x.y.f(...)`; None for any other expression."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id
        if isinstance(func, ast.Attribute):
            return func.attr
    return None


def is_const_expr_test(test: ast.expr) -> bool:
    """Whether an `if`/`while` test is `const_expr(...)` (any `<x>.const_expr(...)`)."""
    return call_name(test) in CONST_EXPR_NAMES


def range_kind(iterable: ast.expr) -> str | None:
    """"dynamic" for `range(...)`, `<x>.range(...)`, `range_dynamic(...)`; "constexpr" for
    `range_constexpr(...)`; None for any other iterable."""
    name = call_name(iterable)
    if name in DYNAMIC_RANGE_NAMES:
        return "dynamic"
    if name == CONSTEXPR_RANGE_NAME:
        return "constexpr"
    return None


def jit_decorator_index(
    decorators: list[ast.expr], jit_aliases: frozenset[str] = frozenset()
) -> int | None:
    """The position of the jit/kernel decorator, or None. `@<x>.jit`, `@<x>.kernel` (with call
    arguments the DSL knows, `preprocess=False` excluded) count, as in the DSL; so do the bare
    names in `jit_aliases` (`from cutlass.cute import jit`)."""
    for i, dec in enumerate(decorators):
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute):
            named = target.attr in JIT_DECORATOR_NAMES
        elif isinstance(target, ast.Name):
            named = target.id in jit_aliases
        else:
            named = False
        if not named:
            continue
        if isinstance(dec, ast.Call):
            keywords = {k.arg for k in dec.keywords}
            if not keywords <= KNOWN_DECORATOR_KEYWORDS:
                continue
            for k in dec.keywords:
                if k.arg == "preprocess" and isinstance(k.value, ast.Constant):
                    if not k.value.value:
                        return None
        return i
    return None


def jit_aliases_of(module: ast.Module) -> frozenset[str]:
    """Names that `from cutlass.cute import jit [as j]` / `kernel` bind at module level."""
    found: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and node.module in ("cutlass.cute", "cutlass"):
            for alias in node.names:
                if alias.name in JIT_DECORATOR_NAMES:
                    found.add(alias.asname or alias.name)
    return frozenset(found)


def _target_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from _target_names(elt)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


def target_names(target: ast.expr) -> list[str]:
    """The names an assignment target binds (`a, (b, *c)` -> a, b, c; `x.y`, `x[i]` bind none)."""
    return list(_target_names(target))


class _Binder(ast.NodeVisitor):
    """Collects the names bound in the visited code's own scope, in order of appearance."""

    def __init__(self) -> None:
        self.names: dict[str, None] = {}

    def add(self, name: str) -> None:
        self.names.setdefault(name, None)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.add(node.id)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.add(node.name)
        self._outer_parts(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.add(node.name)
        self._outer_parts(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.add(node.name)
        for part in (*node.decorator_list, *node.bases, *node.keywords):
            self.visit(part)

    def _outer_parts(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # Decorators and defaults run in the enclosing scope (a walrus there binds in it).
        for part in (*node.decorator_list, *node.args.defaults, *node.args.kw_defaults):
            if part is not None:
                self.visit(part)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for part in (*node.args.defaults, *node.args.kw_defaults):
            if part is not None:
                self.visit(part)

    def _comprehension(self, node: ast.AST) -> None:
        # Only walrus targets bind in the enclosing scope; the first iterable is evaluated there.
        for sub in ast.walk(node):
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                self.add(sub.target.id)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.add(alias.asname or alias.name.partition(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name != "*":
                self.add(alias.asname or alias.name)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.add(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self.add(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self.add(node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self.add(node.rest)
        self.generic_visit(node)


def bound_names(nodes: Iterable[ast.AST]) -> list[str]:
    """Names that the statements/expressions bind in their own scope (not in nested functions,
    lambdas, classes or comprehensions), in order of first appearance."""
    binder = _Binder()
    for node in nodes:
        binder.visit(node)
    return list(binder.names)


def invoked_names(nodes: Iterable[ast.AST]) -> list[str]:
    """Names whose methods the nodes call (`state.advance()`, `state.sub.reset()`), in order of
    first appearance: a call may change the object the name holds (NVIDIA's preprocessor
    carries them through run-time control flow as it carries assigned names)."""
    names: dict[str, None] = {}
    for node in nodes:
        for call in ast.walk(node):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
                continue
            base: ast.expr = call.func.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name):
                names.setdefault(base.id)
    return list(names)


def read_names(node: ast.AST) -> set[str]:
    """Every name read anywhere in `node` (nested scopes included: an over-approximation)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def deferred_reads(body: Iterable[ast.stmt]) -> set[str]:
    """Names read inside nested functions and lambdas: they run at unknown times, so the names
    they read are live everywhere."""
    out: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = node.body if isinstance(node.body, list) else [node.body]
                for sub in inner:
                    out |= read_names(sub)
    return out


def reads_everything(body: Iterable[ast.stmt]) -> bool:
    """Whether the code can read any local by name (`locals()`, `vars()`, `eval`, `exec`)."""
    for stmt in body:
        for node in ast.walk(stmt):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("locals", "vars", "eval", "exec", "dir")):
                return True
    return False


def declared(body: Iterable[ast.stmt], kind: type[ast.Global] | type[ast.Nonlocal]) -> set[str]:
    """Names declared `global` (or `nonlocal`) in a function body (nested scopes excluded)."""
    out: set[str] = set()

    def walk(stmts: Iterable[ast.AST]) -> None:
        for node in stmts:
            if isinstance(node, kind):
                out.update(node.names)
            if isinstance(node, _SCOPES):
                continue
            walk(ast.iter_child_nodes(node))

    walk(body)
    return out


def has_scope_sensitive(stmts: Iterable[ast.stmt]) -> bool:
    """Whether moving the statements into a nested function would change their meaning:
    `yield`/`await` (they would make it a generator/coroutine) or `global`/`nonlocal`
    declarations."""

    def walk(nodes: Iterable[ast.AST]) -> bool:
        for node in nodes:
            if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)):
                return True
            if isinstance(node, (*_SCOPES, *_COMPREHENSIONS)):
                continue
            if walk(ast.iter_child_nodes(node)):
                return True
        return False

    return walk(stmts)


def contains(node: ast.AST, *kinds: type[ast.AST]) -> bool:
    """Whether `node` contains a node of one of `kinds` (nested scopes included)."""
    return any(isinstance(n, kinds) for n in ast.walk(node))
