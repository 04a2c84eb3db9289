"""A library's preprocessor rule takes effect: the same kind of patch QuACK applies
(`quack/dsl/mixed_constexpr_if.py` wraps `DSLPreprocessor.visit_If` of
`cutlass.base_dsl.ast_preprocessor` to fold `if const_expr(S) and D:` into
`if const_expr(S): if D: ...`), applied to bbx's preprocessor through the shim."""

from __future__ import annotations

import ast
import copy
import re
from types import ModuleType
from typing import Any

import pytest

from bbx.preprocess import DSLPreprocessor
from bbx.trace.entry import dynamic, trace_function
from bbx.trace.errors import TraceError
from bbx.trace.scalar import Boolean, Int32

from . import library_kernels as lk

I32 = dynamic(Int32)


def _is_const_expr(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1
            and ast.unparse(node.func).endswith("const_expr"))


def _fold(node: ast.If) -> ast.If:
    """`if const_expr(S) and D` -> `if const_expr(S): if D`; `or` likewise (elif arms too)."""
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        node.orelse[0] = _fold(node.orelse[0])
    test = node.test
    if not (isinstance(test, ast.BoolOp) and _is_const_expr(test.values[0])):
        return node
    static = test.values[0]
    rest = test.values[1] if len(test.values) == 2 else ast.BoolOp(test.op, test.values[1:])
    if isinstance(test.op, ast.And):
        inner = ast.If(test=rest, body=node.body, orelse=copy.deepcopy(node.orelse))
        folded = ast.If(test=static, body=[inner], orelse=node.orelse)
    else:
        inner = ast.If(test=rest, body=copy.deepcopy(node.body), orelse=node.orelse)
        folded = ast.If(test=static, body=node.body, orelse=[inner])
    ast.copy_location(inner, node)
    return ast.fix_missing_locations(ast.copy_location(folded, node))


def _install(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> None:
    """What a library does at import time: wrap the class's `visit_If`."""
    cls = module.DSLPreprocessor
    original = cls.visit_If

    def visit_if(self: Any, node: ast.If) -> Any:
        return original(self, _fold(node))

    monkeypatch.setattr(cls, "visit_If", visit_if)


def _ifs(text: str) -> int:
    return len(re.findall(r"\bif \(", text))


def test_the_shim_serves_bbx_preprocessor(shim_ast_preprocessor: ModuleType) -> None:
    assert shim_ast_preprocessor.DSLPreprocessor is DSLPreprocessor


def test_patched_rewrite(shim_ast_preprocessor: ModuleType,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    _install(monkeypatch, shim_ast_preprocessor)
    pre = shim_ast_preprocessor.DSLPreprocessor(["cutlass"])
    with pre.get_session() as session:
        tree = session.transform(lk.gated_and, dict(lk.gated_and.__globals__))
    static_ifs = [n for n in ast.walk(tree) if isinstance(n, ast.If)
                  and ast.unparse(n.test).startswith("__bbx__.static(const_expr(flag)")]
    assert len(static_ifs) == 1
    then = "\n".join(ast.unparse(s) for s in static_ifs[0].body)
    other = "\n".join(ast.unparse(s) for s in static_ifs[0].orelse)
    assert "__bbx__.if_(d == 1" in then  # the run-time test only where the static one holds
    assert "__bbx__.if_" not in other and "Int32(3)" in other


def test_patch_takes_effect_in_tracing(shim_ast_preprocessor: ModuleType,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Unpatched, `const_expr(flag) and d == 1` with a run-time flag is one run-time condition.
    text = trace_function(lk.gated_and, (I32, dynamic(Boolean))).text
    assert _ifs(text) == 1 and "flag && d == 1" in text
    _install(monkeypatch, shim_ast_preprocessor)
    # Patched, the flag is a `const_expr` of its own: it must be static (the rule's meaning).
    with pytest.raises(TraceError) as info:
        trace_function(lk.gated_and, (I32, dynamic(Boolean)))
    assert info.value.diagnostic.code == "const-expr-dynamic"
    assert info.value.diagnostic.line == lk.gated_and.__code__.co_firstlineno + 2
    # With a static flag, the C++ is what the rule promises.
    assert _ifs(trace_function(lk.gated_and, (I32, True)).text) == 1
    assert _ifs(trace_function(lk.gated_and, (I32, False)).text) == 0
    assert _ifs(trace_function(lk.gated_or, (I32, True)).text) == 0
    assert _ifs(trace_function(lk.gated_or, (I32, False)).text) == 1
    elif_false = trace_function(lk.gated_elif, (I32, False)).text
    assert _ifs(elif_false) == 1 and "d == 1" not in elif_false
    assert _ifs(trace_function(lk.gated_elif, (I32, True)).text) == 2
