"""Functions on TensorSSA values and numbers: `cute.where(cond, x, y)` and the math functions
(`cute.exp`, `exp2`, `log`, `log2`, `sqrt`; element by element, `bbx::exp(x)` in C++, computed in
Python for static numbers)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from .errors import trace_error
from .scalar import CxxValue, Float, Numeric, as_numeric, promote, require
from .tensor_ssa import TensorSSA, broadcast_shape, broadcast_to, from_elements, pick


def where(cond: Any, x: Any, y: Any) -> Any:
    """`cute.where(cond, x, y)`: element-wise `cond ? x : y` (x, y values or numbers; shapes
    broadcast)."""
    if not isinstance(cond, TensorSSA):
        raise trace_error("where", f"cute.where with a {type(cond).__name__} condition",
                          "the condition is a TensorSSA of Boolean")
    shape = cond.shape
    for v in (x, y):
        if isinstance(v, TensorSSA):
            shape = broadcast_shape(shape, v.shape)
    conds = broadcast_to(cond, shape).elements
    xs, ys = (_operand_elements(v, shape) for v in (x, y))
    out = []
    for p, a, b in zip(conds, xs, ys, strict=True):
        t = promote(type(a), type(b))
        out.append(pick(p, t(a), t(b)))
    return from_elements(out, shape)


def _operand_elements(v: Any, shape: Any) -> list[Numeric]:
    if isinstance(v, TensorSSA):
        return broadcast_to(v, shape).elements
    if isinstance(v, (Numeric, bool, int, float)):
        return [as_numeric(v)] * it.product(shape)
    raise trace_error("where", f"cute.where with a {type(v).__name__} operand",
                      "the operands are TensorSSA values or numbers")


def _math(name: str, py: Callable[[float], float]) -> Callable[[Any], Any]:
    def fn(x: Any) -> Any:
        if isinstance(x, TensorSSA):
            return from_elements([fn(e) for e in x.elements], x.shape)
        v = as_numeric(x) if isinstance(x, (int, float)) else x
        if not isinstance(v, Float):
            raise trace_error("math-dtype", f"cute.{name} of a {type(x).__name__}",
                              "math functions take floating-point values")
        t = type(v)
        if v.is_static:
            return t(py(float(v.value)))
        ctx = require("a run-time value")
        row = t.bbx_row
        assert row is not None
        expr = c.Call(c.Id(f"bbx::{name}"), (v.expr(),))
        return t(CxxValue(expr, ctx.block, c.Type(row.cxx), ctx))

    fn.__name__ = name
    return fn


exp = _math("exp", math.exp)
exp2 = _math("exp2", lambda v: 2.0 ** v)
log = _math("log", math.log)
log2 = _math("log2", math.log2)
sqrt = _math("sqrt", math.sqrt)
