"""The Python function a call from host Python gives a Constexpr parameter, found in the module's
source from its descriptor (bbx.runtime.host_callables) and traced as the DSL traces it: called
in jit code, its body is inlined; passed on to a kernel or helper, it becomes a functor."""

from __future__ import annotations

import json
from typing import Any

import libcst as cst

from ..analysis import kinds as k
from ..analysis.value import PyFunction, Val
from ..frontend.walk import walk
from .context import ModuleContext


class UnknownCallable(LookupError):
    """A descriptor that names nothing in this module's source (the source changed)."""


def host_function(mod: ModuleContext, descriptor: str) -> PyFunction:
    """The function `descriptor` names, with the arguments a `functools.partial` binds."""
    return _function(mod, json.loads(descriptor))


def _function(mod: ModuleContext, found: dict[str, Any]) -> PyFunction:
    if "partial" in found:
        inner = _function(mod, found["partial"])
        args = tuple(_literal(v) for v in found.get("args", []))
        keywords = tuple((name, _literal(v)) for name, v in found.get("keywords", {}).items())
        return PyFunction(inner.node, inner.args + args, inner.keywords + keywords)
    if "def" in found:
        for stmt in mod.module.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == found["def"]:
                return PyFunction(stmt)
        raise UnknownCallable(f"no module-level function {found['def']!r}")
    if "lambda" in found:
        line, col = found["lambda"]
        for node in walk(mod.module):
            if isinstance(node, cst.Lambda) and _starts_body(mod, node, line, col + 1):
                return PyFunction(node)
        raise UnknownCallable(f"no lambda at line {line}")
    raise UnknownCallable(f"unknown descriptor {found!r}")


def _starts_body(mod: ModuleContext, node: cst.Lambda, line: int, col: int) -> bool:
    """Whether the lambda's body covers (line, col) (1-based), where its first instruction is."""
    where = mod.positions.get(node.body)
    if where is None:
        return False
    start = (where.start.line, where.start.column + 1)
    end = (where.end.line, where.end.column + 1)
    return start <= (line, col) <= end


def _literal(value: object) -> Val:
    if isinstance(value, list):
        value = tuple(value)
    return Val(k.literal(value))
