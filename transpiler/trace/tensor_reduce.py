"""`TensorSSA.reduce(op, init_val, reduction_profile)`: `op` folded over the modes the profile
marks (an integer at a mode reduces it, `None` keeps it; a profile that is not a tuple reduces
everything into one number), from `init_val` for each element of the result, in the column-major
order of the coordinates. MAX/MIN are `a > b ? a : b` with each operand computed once."""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable
from typing import Any

from . import int_tuple as it
from .errors import trace_error
from .scalar import CxxValue, Numeric, promote
from .tensor_ssa import TensorSSA, from_elements, pick


class ReductionOp(enum.Enum):
    """`cute.ReductionOp`."""

    ADD = "add"
    MUL = "mul"
    MAX = "max"
    MIN = "min"


def reduce(value: TensorSSA, op: ReductionOp, init_val: Any, reduction_profile: Any = 0) -> Any:
    """Folds `op` over the modes that `reduction_profile` marks (an integer at a mode; `None`
    keeps it; a non-tuple profile reduces everything into a scalar), from `init_val`."""
    if not isinstance(op, ReductionOp):
        raise trace_error("tensor-ssa-reduce", f"reduce with {op!r}",
                          "the operation is a cute.ReductionOp (ADD, MUL, MAX, MIN)")
    fold = _REDUCERS[op]
    init = _init_value(init_val, value.dtype)
    if not it.is_tuple(reduction_profile):
        if reduction_profile is None:
            return value
        acc = init
        for e in value.elements:
            acc = fold(acc, e)
        return acc
    kept_shape = _kept(reduction_profile, value.shape, value.shape)
    groups: list[list[Numeric]] = [[] for _ in range(it.product(kept_shape))]
    for i, e in enumerate(value.elements):
        crd = it.idx2crd(i, value.shape)
        groups[it.crd2idx(_kept(reduction_profile, crd, value.shape), kept_shape)].append(e)
    out: list[Numeric] = []
    for group in groups:
        acc = init
        for e in group:
            acc = fold(acc, e)
        out.append(acc)
    return from_elements(out, kept_shape)


def _kept(profile: Any, x: Any, shape: Any) -> Any:
    """The modes of `x` (a shape or coordinate congruent to `shape`) where `profile` has
    `None`."""
    if profile is None:
        return x
    if it.is_tuple(profile):
        if not it.is_tuple(x) or len(profile) != len(x):
            raise trace_error("tensor-ssa-reduce",
                              f"reduction_profile {profile} does not match the shape {shape}",
                              "give `None` (keep) or an integer (reduce) for each mode")
        return tuple(_kept(p, e, shape) for p, e in zip(profile, x, strict=True)
                     if it.has_none(p))
    return ()


def _extremum(pick_first: Callable[[Any, Any], Any]) -> Callable[[Numeric, Numeric], Numeric]:
    """max or min of two numbers: `a > b ? a : b` (each operand computed once)."""
    def fn(a: Numeric, b: Numeric) -> Numeric:
        t = promote(type(a), type(b))
        x, y = _once(t(a)), _once(t(b))
        return pick(pick_first(x, y), x, y)
    return fn


def _once(x: Numeric) -> Numeric:
    """`x` with a variable if it is a run-time expression (it is used twice)."""
    if isinstance(x.value, CxxValue) and not x.value.is_leaf:
        x.value.materialize("acc")
    return x


_maximum = _extremum(operator.gt)
_minimum = _extremum(operator.lt)


_REDUCERS: dict[ReductionOp, Callable[[Any, Any], Any]] = {
    ReductionOp.ADD: operator.add, ReductionOp.MUL: operator.mul,
    ReductionOp.MAX: _maximum, ReductionOp.MIN: _minimum,
}


def _init_value(x: Any, dtype: type[Numeric]) -> Numeric:
    """A reduction's initial value, as the value's element type."""
    if isinstance(x, (Numeric, bool, int, float)):
        return dtype(x)
    raise trace_error("tensor-ssa-reduce", f"a {type(x).__name__} initial value",
                      "the initial value is a number")
