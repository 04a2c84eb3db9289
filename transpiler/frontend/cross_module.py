"""`@cute.jit` helpers imported from other modules of the same package (or directory).

A call `f(...)` after `from .helpers import f`, or `helpers.f(...)` after `from . import helpers`
(or an absolute import that names a `.py` file beside the module or inside its package), is a
call into the helper's own generated module: `bbx_gen::helpers::f<Meta>(...)`. The helper's
module is found on disk relative to the translated module and translated on its own (nothing is
imported); the translated module then `#include`s its `.hip`, which the build places beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from ..diagnostics import TranslationError
from .imports import _module_statements, dotted

if TYPE_CHECKING:
    from ..translate import FunctionInfo, TranslationResult


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

    def lookup(self, func: cst.BaseExpression, error: ErrorFn) -> ExternalHelper | None:
        """The helper `func` names, None if it names no import, or a diagnostic (raised)."""
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
        info = next((f for f in result.functions
                     if f.python_name == fn_path[0] and f.class_name is None), None)
        if info is None:
            raise error(func, "not-a-jit-function",
                        f"'{fn_path[0]}' of module '{shown}' is not a @cute.jit function",
                        "decorate it with @cute.jit, or only call it with compile-time values")
        from ..translate import module_namespace

        helper = ExternalHelper(path, module_namespace(path.name), path.stem + ".hip", info,
                                tuple(result.dependencies))
        self.used.setdefault(path.resolve(), helper)
        return helper


class ErrorFn(Protocol):
    """Makes the located diagnostic of a construct (ModuleContext.error)."""

    def __call__(
        self, node: cst.CSTNode, code: str, what: str, hint: str = ""
    ) -> TranslationError: ...
