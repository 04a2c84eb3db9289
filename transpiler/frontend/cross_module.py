"""`@cute.jit` helpers and kernel classes imported from other modules of the program.

A call `f(...)` after `from .helpers import f`, or `helpers.f(...)` after `from . import helpers`
(or an absolute import that names a `.py` file beside the module or inside its package), is a
call into the helper's own generated module: `bbx_gen::py_helpers::f<Meta>(...)`. The helper's
module is found on disk relative to the translated module and translated on its own (nothing is
imported); the translated module then `#include`s its `.hip`, which the build places beside it.

A kernel class (a class with a `@cute.jit __call__`) imported the same way and constructed in
DSL code (`op = TensorOpGemm(...)`; bbx.lowering.kernel_objects) is looked up with
`lookup_class`: the call of the object is a call of the class's generated `__call__` in its
module's namespace.

Where absolute imports are looked up, in order (the first module file found wins):
  1. the module's own directory and, while it is inside a package (`__init__.py`), the
     directory above each enclosing package — what Python finds when the program runs from
     there;
  2. the directories above the module's directory, nearest first — the entries a script adds
     with `sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))` (or `../..`) to
     import a sibling tree of (possibly namespace, `__init__`-less) packages, as NVIDIA's
     examples do (`from cute.ampere.kernel.dense_gemm.tensorop_gemm import TensorOpGemm` from
     `dsl_tutorials/`).
The process's `sys.path` is deliberately not consulted: the same source translates to the same
text whether it is translated by `bbx translate` or by the import hook of a running program. A
name found nowhere is no module of the program: the usual diagnostics apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import libcst as cst

from ..diagnostics import TranslationError
from ..translation_result import FunctionInfo, TranslationResult, module_namespace
from .imports import _module_statements, dotted


@dataclass(frozen=True)
class _Import:
    level: int  # number of leading dots (0: absolute)
    parts: tuple[str, ...]  # the module path after the dots
    attr: str | None  # `from M import attr`; None for `import M` / `import M as x`


@dataclass(frozen=True)
class ExternalHelper:
    path: Path  # the helper's module
    namespace: str  # its generated namespace (bbx_gen::<namespace>)
    hip_name: str  # its generated file
    info: FunctionInfo
    dependencies: tuple[Path, ...]  # the modules the helper's module includes in turn

    @property
    def cxx_name(self) -> str:
        return f"bbx_gen::{self.namespace}::{self.info.cxx_name}"


def _import_table(module: cst.Module) -> dict[str, _Import]:
    table: dict[str, _Import] = {}
    for stmt in _module_statements(module):
        if isinstance(stmt, cst.Import):
            for alias in stmt.names:
                parts = tuple((dotted(alias.name) or "").split("."))
                if alias.asname is not None:
                    table[alias.evaluated_alias or parts[-1]] = _Import(0, parts, None)
                else:
                    table[parts[0]] = _Import(0, parts[:1], None)
        elif isinstance(stmt, cst.ImportFrom) and not isinstance(stmt.names, cst.ImportStar):
            base = dotted(stmt.module) if stmt.module is not None else None
            parts = tuple(base.split(".")) if base else ()
            for alias in stmt.names:
                name = alias.evaluated_name
                table[alias.evaluated_alias or name] = _Import(len(stmt.relative), parts, name)
    return table


def _module_file(directory: Path, parts: tuple[str, ...]) -> Path | None:
    base = directory.joinpath(*parts) if parts else directory
    if parts and base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _search_roots(origin: Path, level: int) -> list[Path]:
    """Directories an import of `level` dots is looked up in."""
    here = origin.parent
    if level > 0:
        for _ in range(level - 1):
            here = here.parent
        return [here]
    roots = [here]
    package = here
    while (package / "__init__.py").is_file():
        roots.append(package.parent)
        package = package.parent
    # the directories a script puts on sys.path as `..`, `../..`, ... of its own directory
    roots += [parent for parent in here.parents if parent not in roots]
    return roots


@dataclass
class ExternalResolver:
    """Resolves calls of imported names for one module at `origin` (None: no file on disk)."""

    origin: Path | None
    module: cst.Module
    translate: Callable[[Path], TranslationResult]
    used: dict[Path, ExternalHelper] = field(default_factory=dict)  # first helper per module
    _table: dict[str, _Import] | None = None
    _results: dict[Path, TranslationResult] = field(default_factory=dict)

    def _imports(self) -> dict[str, _Import]:
        if self._table is None:
            self._table = _import_table(self.module)
        return self._table

    def _find(self, level: int, parts: tuple[str, ...]) -> Path | None:
        assert self.origin is not None
        for root in _search_roots(self.origin, level):
            found = _module_file(root, parts)
            if found is not None and found.resolve() != self.origin.resolve():
                return found
        return None

    def _resolve(
        self, func: cst.BaseExpression, error: ErrorFn
    ) -> tuple[Path, str, str, TranslationResult] | None:
        """The module `func` names an attribute of (translated), the module as written, and the
        attribute; None if `func` names no import of a module of the program."""
        name = dotted(func)
        if name is None:
            return None
        head, *rest = name.split(".")
        imp = self._imports().get(head)
        if imp is None:
            return None
        if imp.attr is not None:  # from M import attr
            module_parts, fn_path = imp.parts, [imp.attr, *rest]
        else:
            module_parts, fn_path = imp.parts, rest
        if imp.level == 0 and (self.origin is None or not fn_path):
            return None
        if self.origin is None:
            raise error(func, "module-not-found",
                        f"cannot find the module of '{name}': the translated source has no path",
                        "translate the file (not a string) so that its package can be found")
        # `from . import helpers` / `from .pkg import helpers`: the attribute may be a module.
        path = self._find(imp.level, module_parts)
        while len(fn_path) > 1:
            sub = self._find(imp.level, (*module_parts, fn_path[0]))
            if sub is None:
                break
            module_parts, fn_path, path = (*module_parts, fn_path[0]), fn_path[1:], sub
        shown = "." * imp.level + ".".join(module_parts)
        if path is None:
            if imp.level == 0:
                return None  # not a module of this package: the usual diagnostics apply
            raise error(func, "module-not-found",
                        f"cannot find module '{shown}' (imported as '{head}')",
                        f"looked for it relative to {self.origin.name}; only @cute.jit functions "
                        "of modules in the same package can be called")
        if len(fn_path) != 1:
            raise error(func, "not-a-jit-function",
                        f"'{name}' is not a function of module '{shown}'")
        result = self._results.get(path.resolve())
        if result is None:
            result = self._results[path.resolve()] = self.translate(path)
        if result.text is None:
            raise error(func, "module-not-translated",
                        f"module '{shown}' ({path.name}) cannot be translated",
                        "translate it on its own to see its diagnostics")
        return path, shown, fn_path[0], result

    def _helper(self, path: Path, result: TranslationResult, info: FunctionInfo) -> ExternalHelper:
        helper = ExternalHelper(path, module_namespace(path.name), path.stem + ".hip", info,
                                tuple(result.dependencies))
        self.used.setdefault(path.resolve(), helper)
        return helper

    def lookup(self, func: cst.BaseExpression, error: ErrorFn) -> ExternalHelper | None:
        """The helper `func` names, None if it names no import, or a diagnostic (raised)."""
        found = self._resolve(func, error)
        if found is None:
            return None
        path, shown, attr, result = found
        info = next((f for f in result.functions
                     if f.python_name == attr and f.class_name is None), None)
        if info is None:
            raise error(func, "not-a-jit-function",
                        f"'{attr}' of module '{shown}' is not a @cute.jit function",
                        "decorate it with @cute.jit, or only call it with compile-time values")
        return self._helper(path, result, info)

    def lookup_class(self, func: cst.BaseExpression, error: ErrorFn) -> ExternalHelper | None:
        """The generated `__call__` of the kernel class `func` names (a class of another module
        of the program with a `@cute.jit __call__`), else None."""
        if self.origin is None:
            return None
        found = self._resolve(func, error)
        if found is None:
            return None
        path, _, attr, result = found
        info = next((f for f in result.functions if f.class_name == attr
                     and f.python_name == "__call__" and f.role == "host"), None)
        return self._helper(path, result, info) if info is not None else None


class ErrorFn(Protocol):
    """Makes the located diagnostic of a construct (ModuleContext.error)."""

    def __call__(
        self, node: cst.CSTNode, code: str, what: str, hint: str = ""
    ) -> TranslationError: ...
