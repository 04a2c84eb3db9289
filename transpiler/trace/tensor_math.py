"""Functions making and combining TensorSSA values: `cute.where(cond, x, y)`, the math functions
(`cute.exp`, `exp2`, `log`, `log2`, `sqrt`; element by element, `bbx::exp(x)` in C++, computed in
Python for static numbers) and `cute.full` / `full_like` / `zeros_like` / `ones_like`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from .errors import trace_error
from .scalar import CxxValue, Float, Numeric, as_numeric, pick, promote, require
from .tensor_ssa import TensorSSA, broadcast_shape, broadcast_to, from_elements


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


def full(shape: Any, fill_value: Any, dtype: type[Numeric]) -> TensorSSA:
    """`cute.full(shape, fill_value, dtype)`: a value of static `shape`, every element
    `fill_value` as `dtype`."""
    if not it.is_static(shape):
        raise trace_error("tensor-ssa-shape", f"cute.full of shape {shape}",
                          "a TensorSSA has a static shape")
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype.bbx_row):
        raise trace_error("tensor-ssa-to", f"cute.full of {dtype!r}",
                          "the element type is a DSL numeric type such as cutlass.Float32")
    element = dtype(fill_value)
    return TensorSSA([element] * it.product(shape), shape, dtype)


def full_like(like: Any, fill_value: Any, dtype: type[Numeric] | None = None) -> TensorSSA:
    """`cute.full_like(v, fill_value, dtype)`: `full` with the shape (and type) of a TensorSSA
    value or of a tensor of static shape."""
    shape = like.shape
    if dtype is None:
        dtype = like.dtype if isinstance(like, TensorSSA) else like.element_type
    assert dtype is not None
    return full(shape, fill_value, dtype)


def zeros_like(like: Any, dtype: type[Numeric] | None = None) -> TensorSSA:
    return full_like(like, 0, dtype)


def ones_like(like: Any, dtype: type[Numeric] | None = None) -> TensorSSA:
    return full_like(like, 1, dtype)
