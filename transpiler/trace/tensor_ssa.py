"""`TensorSSA` at trace time: a register value of a static shape (`t.load()`), with the DSL's
element-wise arithmetic, comparisons, `.to(dtype)`, `.reduce(...)`, `where`, `exp`/`exp2`, and
`t.store(v)`.

A value is its elements (run-time DSL numbers, in the column-major order of its shape's
coordinates) computed element by element with the numeric types' rules; Python unrolls every
operation. Bound to a Python name (`v = t.load()`), it becomes one C++ array named after it
(`float v[8] = {x[0], x[1], ...};`), read with constant indices afterwards. Shapes must agree as
the DSL checks (a located error otherwise).
"""

from __future__ import annotations

import enum
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from . import layout as L
from .errors import trace_error
from .pointer import Pointer, store_value
from .register_array import RegisterArray, declare_array
from .scalar import Boolean, CxxValue, Float, Numeric, as_numeric, promote, require, select
from .tensor import Tensor


class ReductionOp(enum.Enum):
    """`cute.ReductionOp`."""

    ADD = "add"
    MUL = "mul"
    MAX = "max"
    MIN = "min"


class TensorSSA:
    """A register value: `elements` (run-time numbers) of static `shape` and type `dtype`."""

    __module__ = "cutlass.cute"

    def __init__(self, elements: Sequence[Numeric], shape: Any, dtype: type[Numeric],
                 array: RegisterArray | None = None) -> None:
        if len(elements) != it.product(shape):
            raise ValueError(f"{len(elements)} elements for the shape {shape}")
        self.elements = list(elements)
        self._shape = shape
        self._dtype = dtype
        #: The array the elements are read from, when they are exactly its elements.
        self._array = array

    @property
    def shape(self) -> Any:
        return self._shape

    @property
    def dtype(self) -> type[Numeric]:
        return self._dtype

    element_type = dtype

    def __len__(self) -> int:
        return len(it.wrap(self._shape))

    def __repr__(self) -> str:
        return f"TensorSSA<{self._dtype}, {self._shape}>"

    def __getitem__(self, crd: Any) -> Numeric:
        """The element at a static coordinate (or column-major index)."""
        if not it.is_static(crd) or it.has_none(crd):
            raise trace_error("tensor-ssa-index", f"TensorSSA[{crd!r}]",
                              "a register value is indexed with static integers")
        index = it.crd2idx(crd, self._shape)
        if not 0 <= index < len(self.elements):
            raise trace_error("tensor-ssa-index", f"TensorSSA[{crd!r}] of shape {self._shape}",
                              "the coordinate is out of range")
        return self.elements[index]

    # -- staging --------------------------------------------------------------------------------

    def bbx_bind(self, name: str) -> TensorSSA:
        """`name = value`: the elements go into one C++ array named after the variable."""
        ctx = require("a TensorSSA value")
        if ctx.speculative:
            return self
        unused = all(isinstance(e.value, CxxValue) and e.value.uses == 0 for e in self.elements)
        if self._array is not None and self._array.provisional and unused:
            self._array.rename(name)
            return _array_value(self._array, self._shape, self._dtype)
        if all(isinstance(e.value, CxxValue) and e.value.is_leaf for e in self.elements):
            return self
        row = self._dtype.bbx_row
        assert row is not None
        array = declare_array(c.Type(row.cxx), len(self.elements),
                              tuple(e.expr() for e in self.elements), hint=name)
        array.provisional = False
        return _array_value(array, self._shape, self._dtype)

    def bbx_flatten(self) -> tuple[Any, list[Numeric]]:
        """Its elements (run-time control flow carries each in a C++ variable)."""
        return (self._shape, self._dtype), self.elements

    @classmethod
    def bbx_unflatten(cls, key: Any, elements: list[Any]) -> TensorSSA:
        shape, dtype = key
        return cls(elements, shape, dtype)

    # -- element-wise operations ----------------------------------------------------------------

    def _binary(self, other: Any, op: Callable[[Any, Any], Any], flip: bool = False) -> Any:
        """`self op other` element by element (the DSL's `_apply_op`): a scalar is a DSL number
        (`float` -> Float32), types promote as the numeric types', shapes broadcast."""
        if isinstance(other, TensorSSA):
            shape = broadcast_shape(self._shape, other._shape)
            lhs, rhs = broadcast_to(self, shape).elements, broadcast_to(other, shape).elements
        elif isinstance(other, (Numeric, bool, int, float)):
            shape = self._shape
            lhs, rhs = self.elements, [as_numeric(other)] * len(self.elements)
        else:
            return NotImplemented
        pairs = zip(rhs, lhs, strict=True) if flip else zip(lhs, rhs, strict=True)
        return _from_elements([op(a, b) for a, b in pairs], shape)

    def __add__(self, o: Any) -> Any: return self._binary(o, operator.add)
    def __radd__(self, o: Any) -> Any: return self._binary(o, operator.add, True)
    def __sub__(self, o: Any) -> Any: return self._binary(o, operator.sub)
    def __rsub__(self, o: Any) -> Any: return self._binary(o, operator.sub, True)
    def __mul__(self, o: Any) -> Any: return self._binary(o, operator.mul)
    def __rmul__(self, o: Any) -> Any: return self._binary(o, operator.mul, True)
    def __truediv__(self, o: Any) -> Any: return self._binary(o, operator.truediv)
    def __rtruediv__(self, o: Any) -> Any: return self._binary(o, operator.truediv, True)
    def __floordiv__(self, o: Any) -> Any: return self._binary(o, operator.floordiv)
    def __mod__(self, o: Any) -> Any: return self._binary(o, operator.mod)
    def __pow__(self, o: Any) -> Any: return self._binary(o, operator.pow)
    def __and__(self, o: Any) -> Any: return self._binary(o, operator.and_)
    def __or__(self, o: Any) -> Any: return self._binary(o, operator.or_)
    def __xor__(self, o: Any) -> Any: return self._binary(o, operator.xor)
    def __lt__(self, o: Any) -> Any: return self._binary(o, operator.lt)
    def __le__(self, o: Any) -> Any: return self._binary(o, operator.le)
    def __gt__(self, o: Any) -> Any: return self._binary(o, operator.gt)
    def __ge__(self, o: Any) -> Any: return self._binary(o, operator.ge)
    def __eq__(self, o: Any) -> Any: return self._binary(o, operator.eq)  # type: ignore[override]
    def __ne__(self, o: Any) -> Any: return self._binary(o, operator.ne)  # type: ignore[override]

    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> TensorSSA:
        return _from_elements([-e for e in self.elements], self._shape)

    def __abs__(self) -> TensorSSA:
        return _from_elements([abs(e) for e in self.elements], self._shape)

    def __invert__(self) -> TensorSSA:
        return _from_elements([~e for e in self.elements], self._shape)  # type: ignore[operator]

    def __bool__(self) -> bool:
        raise trace_error("tensor-ssa-bool", "a TensorSSA is used as a Python bool",
                          "reduce it first, or select element-wise with `cute.where`")

    def to(self, dtype: type[Numeric]) -> TensorSSA:
        """Every element converted to `dtype`."""
        if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype.bbx_row):
            raise trace_error("tensor-ssa-to", f"TensorSSA.to({dtype!r})",
                              "the target is a DSL numeric type such as cutlass.Float16")
        return TensorSSA([dtype(e) for e in self.elements], self._shape, dtype)

    # -- reductions -----------------------------------------------------------------------------

    def reduce(self, op: ReductionOp, init_val: Any, reduction_profile: Any = 0) -> Any:
        """Folds `op` over the modes that `reduction_profile` marks (an integer at a mode; `None`
        keeps it; a non-tuple profile reduces everything into a scalar), from `init_val`."""
        if not isinstance(op, ReductionOp):
            raise trace_error("tensor-ssa-reduce", f"reduce with {op!r}",
                              "the operation is a cute.ReductionOp (ADD, MUL, MAX, MIN)")
        fold = _REDUCERS[op]
        init = _init_value(init_val, self._dtype)
        if not it.is_tuple(reduction_profile):
            if reduction_profile is None:
                return self
            acc = init
            for e in self.elements:
                acc = fold(acc, e)
            return acc
        kept_shape = _kept(reduction_profile, self._shape, self._shape)
        groups: list[list[Numeric]] = [[] for _ in range(it.product(kept_shape))]
        for i, e in enumerate(self.elements):
            crd = it.idx2crd(i, self._shape)
            groups[it.crd2idx(_kept(reduction_profile, crd, self._shape), kept_shape)].append(e)
        out: list[Numeric] = []
        for group in groups:
            acc = init
            for e in group:
                acc = fold(acc, e)
            out.append(acc)
        return _from_elements(out, kept_shape)


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
        return _select(pick_first(x, y), x, y)
    return fn


def _once(x: Numeric) -> Numeric:
    """`x` with a variable if it is a run-time expression (it is used twice)."""
    if isinstance(x.value, CxxValue) and not x.value.is_leaf:
        x.value.materialize("acc")
    return x


_maximum = _extremum(operator.gt)
_minimum = _extremum(operator.lt)


def _select(cond: Any, a: Numeric, b: Numeric) -> Numeric:
    if isinstance(cond, Numeric) and cond.is_static:
        return a if cond.value else b
    return select(cond, a, b)


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


def _array_value(array: RegisterArray, shape: Any, dtype: type[Numeric]) -> TensorSSA:
    """The value whose elements are those of `array` (declared once, read with constants)."""
    base = c.Id(array.name)
    elements = [dtype.run_time(c.Index(base, c.Lit(str(i)), readonly=True))
                for i in range(array.size)]
    return TensorSSA(elements, shape, dtype, array)


def _from_elements(elements: list[Any], shape: Any) -> TensorSSA:
    dtype = type(elements[0]) if elements else Boolean
    return TensorSSA(elements, shape, dtype)


def broadcast_shape(a: Any, b: Any) -> Any:
    """The shape both broadcast to (the DSL's `_infer_broadcast_shape`): ranks padded with 1s,
    then leaf by leaf equal extents or an extent 1."""
    if a == b:
        return a
    r = max(len(it.wrap(a)), len(it.wrap(b)))

    def leafwise(x: Any, y: Any) -> Any:
        if it.is_tuple(x) and it.is_tuple(y) and len(x) == len(y):
            return tuple(leafwise(p, q) for p, q in zip(x, y, strict=True))
        if x == y:
            return x
        if x == 1 and not it.is_tuple(y):
            return y
        if y == 1 and not it.is_tuple(x):
            return x
        raise trace_error("tensor-ssa-shape",
                          f"TensorSSA values of shapes {a} and {b} do not broadcast",
                          "each extent must be the same, or 1 in one of them")

    return leafwise(_pad(a, r), _pad(b, r))


def _pad(shape: Any, r: int) -> tuple[Any, ...]:
    s = it.wrap(shape)
    return s + (1,) * (r - len(s))


def broadcast_to(v: TensorSSA, shape: Any) -> TensorSSA:
    """`v` repeated along the modes where its extent is 1 (`TensorSSA.broadcast_to`)."""
    if v.shape == shape:
        return v
    padded = _pad(v.shape, len(it.wrap(shape)))
    if broadcast_shape(padded, shape) != shape:
        raise trace_error("tensor-ssa-shape", f"a TensorSSA of shape {v.shape} broadcast to "
                          f"{shape}", "each extent must be the same, or 1")

    def source(crd: Any, s: Any) -> Any:
        if it.is_tuple(crd):
            return tuple(source(c_, s_) for c_, s_ in zip(crd, s, strict=True))
        return 0 if s == 1 else crd

    out = [v.elements[it.crd2idx(source(it.idx2crd(i, shape), padded), padded)]
           for i in range(it.product(shape))]
    return TensorSSA(out, shape, v.dtype)


# ---- load and store -----------------------------------------------------------------------------


def load(t: Tensor) -> TensorSSA:
    """`t.load()`: every element, in the column-major order of the tensor's coordinates."""
    if not isinstance(t.iterator, Pointer):
        raise trace_error("tensor-load", "`.load()` of an identity tensor",
                          "read coordinates element by element: `t[i]`")
    if not it.is_static(t.layout.shape):
        raise trace_error("tensor-load", f"`.load()` of a tensor of shape {t.layout.shape}",
                          "a TensorSSA has a static shape: load a tile of static shape")
    n = L.size(t.layout)
    dtype = t.iterator.dtype
    row = dtype.bbx_row
    assert row is not None
    reads = tuple(t.iterator.element_expr(t.layout(i)) for i in range(n))
    return _array_value(declare_array(c.Type(row.cxx), n, reads, hint="ld"), t.layout.shape,
                        dtype)


def store(t: Tensor, value: Any) -> None:
    """`t.store(v)`: element i of `v` to element i of `t` (column-major order; the sizes must
    agree, as the DSL checks)."""
    if not isinstance(value, TensorSSA):
        raise trace_error("tensor-store", f"`.store()` of a {type(value).__name__}",
                          "store a TensorSSA (`t[crd] = x` stores one element)")
    if not isinstance(t.iterator, Pointer):
        raise trace_error("tensor-store", "`.store()` into an identity tensor",
                          "an identity tensor holds coordinates; it has no memory")
    if not it.is_static(t.layout.shape):
        raise trace_error("tensor-store", f"`.store()` into a tensor of shape {t.layout.shape}",
                          "a vectorized store needs a static shape")
    if it.product(value.shape) != L.size(t.layout):
        raise trace_error("tensor-store-shape",
                          f"a TensorSSA of shape {value.shape} is stored into a tensor of "
                          f"shape {t.layout.shape}", "the sizes must be the same")
    dtype = t.iterator.dtype
    if value.dtype is not dtype:  # the DSL widens within a kind, nothing else
        if value.dtype.is_float != dtype.is_float or dtype.width < value.dtype.width:
            raise trace_error("store-dtype",
                              f"a TensorSSA of {value.dtype} is stored into a tensor of {dtype}",
                              f"convert it first: `.to({dtype})`")
        value = value.to(dtype)
    for i, e in enumerate(value.elements):
        t.iterator.write(t.layout(i), store_value(e, t.iterator.dtype))


# ---- functions on values ------------------------------------------------------------------------


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
        out.append(_select(p, t(a), t(b)))
    return _from_elements(out, shape)


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
            return _from_elements([fn(e) for e in x.elements], x.shape)
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
