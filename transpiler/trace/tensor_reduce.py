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
from .scalar import CxxValue, Numeric, pick, promote


class ReductionOp(enum.Enum):
    """`cute.ReductionOp`."""

    ADD = "add"
    MUL = "mul"
    MAX = "max"
    MIN = "min"


def reduce_elements(elements: list[Numeric], shape: Any, dtype: type[Numeric], op: Any,
                    init_val: Any, reduction_profile: Any = 0) -> Any:
    """Folds `op` over the modes of the value (`elements` of `shape`, column-major) that
    `reduction_profile` marks (an integer at a mode; `None` keeps it), from `init_val`: a number
    when the profile is not a tuple, else (the kept elements, the kept shape)."""
    if not isinstance(op, ReductionOp):
        raise trace_error("tensor-ssa-reduce", f"reduce with {op!r}",
                          "the operation is a cute.ReductionOp (ADD, MUL, MAX, MIN)")
    fold = _REDUCERS[op]
    init = _init_value(init_val, dtype)
    if not it.is_tuple(reduction_profile):
        acc = init
        for e in elements:
            acc = fold(acc, e)
        return acc
    kept_shape = _kept(reduction_profile, shape, shape)
    groups: list[list[Numeric]] = [[] for _ in range(it.product(kept_shape))]
    for i, e in enumerate(elements):
        crd = it.idx2crd(i, shape)
        groups[it.crd2idx(_kept(reduction_profile, crd, shape), kept_shape)].append(e)
    out: list[Numeric] = []
    for group in groups:
        acc = init
        for e in group:
            acc = fold(acc, e)
        out.append(acc)
    return out, kept_shape


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


def fold(op: ReductionOp, elements: list[Numeric], init: Numeric | None = None) -> Numeric:
    """`op` folded over `elements` in order, from `init` (else from the first element)."""
    combine = _REDUCERS[op]
    acc, rest = (init, elements) if init is not None else (elements[0], elements[1:])
    for e in rest:
        acc = combine(acc, e)
    return acc
