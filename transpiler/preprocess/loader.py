"""From a Python function to its rewritten twin: find the definition in its module's source,
rewrite it with `DSLPreprocessor`, compile it with the original file name and line numbers, and
build a function object that shares the original's globals, closure cells, defaults and
attributes. Only the control flow differs, so everything else (module globals that change later,
`nonlocal` state shared with a factory, default values) behaves as in the original.

`rewrite_module_source` is the whole-module form (every jit function of a module's source), for
loading a module already rewritten.
"""

from __future__ import annotations
import __future__

import ast
import copy
import types
import weakref
from typing import Any

from .rewrite import RUNTIME, DSLPreprocessor
from .source import (  # noqa: F401 - also served here (the tracer imports them from the loader)
    FunctionDefinition,
    SourceFile,
    function_definition,
    raw_function,
    source_file,
)

_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


class _Mangle(ast.NodeTransformer):
    """Python's private-name mangling (`self.__x` in class `C` is `self._C__x`): the function
    is recompiled outside its class body, so the names are mangled here."""

    def __init__(self, class_name: str) -> None:
        self.prefix = "_" + class_name.lstrip("_")

    def _mangled(self, name: str | None) -> str | None:
        if name and name.startswith("__") and not name.endswith("__") and "." not in name:
            return self.prefix + name
        return name

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self._mangled(node.id) or node.id
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        node.attr = self._mangled(node.attr) or node.attr
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        self.generic_visit(node)
        node.arg = self._mangled(node.arg) or node.arg
        return node

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        self.generic_visit(node)
        node.arg = self._mangled(node.arg)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        node.name = self._mangled(node.name) or node.name
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self._mangled(node.name) or node.name
        for part in ("decorator_list", "bases", "keywords"):
            setattr(node, part, [self.visit(x) for x in getattr(node, part)])
        return node  # its body mangles with its own name (compiled in its own class body)

    def visit_alias(self, node: ast.alias) -> ast.AST:
        node.asname = self._mangled(node.asname) if node.asname else node.asname
        return node


class _ZeroArgSuper(ast.NodeTransformer):
    """`super()` -> `super(__class__, self)`: control flow moves into nested functions, where the
    zero-argument form has no implicit arguments."""

    def __init__(self, first: str) -> None:
        self.first = first

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        return node  # methods of a nested class keep their own `super()`

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args
                and not node.keywords):
            node.args = [ast.copy_location(ast.Name("__class__", ast.Load()), node),
                         ast.copy_location(ast.Name(self.first, ast.Load()), node)]
        return node


def _hooks() -> tuple[Any, ...]:
    """The preprocessor's methods: a library patching one invalidates the cache."""
    return tuple(vars(DSLPreprocessor).values())


_REWRITTEN: weakref.WeakKeyDictionary[types.FunctionType,
                                      tuple[tuple[Any, ...], Any, types.FunctionType]] = (
    weakref.WeakKeyDictionary())


def rewrite_function(fn: Any, runtime: Any) -> types.FunctionType:
    """The rewritten twin of a jit function: its control flow calls `runtime` (the object the
    rewritten code names `__bbx__`). Cached per function."""
    raw = raw_function(fn)
    hooks = _hooks()
    cached = _REWRITTEN.get(raw)
    if cached is not None and cached[0] == hooks and cached[1] is runtime:
        return cached[2]
    found = function_definition(raw)
    node = found.node
    node.decorator_list = []
    if found.class_name:
        node = _Mangle(found.class_name).visit(node)
        positional = [*node.args.posonlyargs, *node.args.args]
        if "__class__" in raw.__code__.co_freevars and positional:
            node = _ZeroArgSuper(positional[0].arg).visit(node)
    rewritten = DSLPreprocessor().rewrite_function(node, found.path, found.lines)
    built = _build(raw, rewritten, found.path, runtime)
    _REWRITTEN[raw] = (hooks, runtime, built)
    return built


def _build(raw: types.FunctionType, node: ast.FunctionDef, path: str,
           runtime: Any) -> types.FunctionType:
    freevars = raw.__code__.co_freevars
    cells = dict(zip(freevars, raw.__closure__ or (), strict=True))
    # A factory whose locals are the original's free variables (and the runtime), so that the
    # compiled function has them as free variables; it is never called.
    holders: list[ast.stmt] = [ast.Assign(targets=[ast.Name(v, ast.Store())],
                                          value=ast.Constant(None)) for v in (*freevars, RUNTIME)]
    no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                            kwarg=None, defaults=[])
    factory = ast.FunctionDef(name="__bbx_factory__", args=no_args,
                              body=[*holders, node, ast.Return(ast.Name(node.name, ast.Load()))],
                              decorator_list=[], returns=None, type_comment=None)
    if "type_params" in ast.FunctionDef._fields:
        factory.type_params = []  # type: ignore[attr-defined]
    ast.copy_location(factory, node)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    flags = raw.__code__.co_flags & _FUTURE_FLAGS
    code = compile(module, path, "exec", flags=flags, dont_inherit=True)
    factory_code = _code_named(code, "__bbx_factory__")
    fn_code = _code_named(factory_code, node.name)
    closure = tuple(types.CellType(runtime) if name == RUNTIME else cells[name]
                    for name in fn_code.co_freevars)
    built = types.FunctionType(fn_code, raw.__globals__, raw.__name__, raw.__defaults__,
                               closure)
    built.__kwdefaults__ = copy.copy(raw.__kwdefaults__)
    built.__annotations__ = dict(raw.__annotations__)
    built.__dict__.update(raw.__dict__)
    built.__qualname__ = raw.__qualname__
    built.__module__ = raw.__module__
    built.__doc__ = raw.__doc__
    built.__bbx_original__ = raw  # type: ignore[attr-defined]
    return built


def _code_named(code: types.CodeType, name: str) -> types.CodeType:
    for const in code.co_consts:
        if isinstance(const, types.CodeType) and const.co_name == name:
            return const
    raise AssertionError(f"bbx: compiled code has no '{name}'")


def rewrite_module_source(source: str, path: str,
                          runtime_module: str = "bbx.trace.control") -> ast.Module:
    """A module's source with every jit function (`@cute.jit`, `@cute.kernel`, `@jit`...)
    rewritten, and `import <runtime_module> as __bbx__` after its docstring and `__future__`
    imports. Compile it with `path` to keep the module's line numbers."""
    tree = ast.parse(source, filename=path)
    DSLPreprocessor().rewrite_module(tree, path, source.splitlines())
    at = 0
    for stmt in tree.body:
        docstring = (at == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                     and isinstance(stmt.value.value, str))
        if docstring or (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
            at += 1
        else:
            break
    where = tree.body[at] if at < len(tree.body) else (tree.body[-1] if tree.body else None)
    imp = ast.Import(names=[ast.alias(name=runtime_module, asname=RUNTIME)])
    if where is not None:
        ast.copy_location(imp, where)
    tree.body.insert(at, imp)
    return ast.fix_missing_locations(tree)
