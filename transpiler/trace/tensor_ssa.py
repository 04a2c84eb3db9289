"""`TensorSSA` at trace time: a register value of a static shape (`t.load()`), with the DSL's
element-wise arithmetic, comparisons, broadcasting and `.to(dtype)`.

A value is its elements (run-time DSL numbers, in the column-major order of its shape's
coordinates) computed element by element with the numeric types' rules; Python unrolls every
operation. Bound to a Python name (`v = t.load()`), it becomes one C++ array named after it
(`float v[8] = {x[0], x[1], ...};`), read with constant indices afterwards. Shapes must agree as
the DSL broadcasts them (a located error otherwise). Reductions are in `tensor_reduce`, loads
and stores are `Tensor.load`/`Tensor.store`, `where` and the math functions in `tensor_math`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..cxx import ast as c
from . import int_tuple as it
from .elementwise import ElementwiseOperators
from .errors import trace_error
from .placement import takes_placement
from .register_array import RegisterArray, declare_array
from .scalar import Boolean, CxxValue, Numeric, as_numeric, require
from .tensor_reduce import reduce_elements


@takes_placement
class TensorSSA(ElementwiseOperators):
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

    def __getitem__(self, crd: Any, *, loc: Any = None, ip: Any = None) -> Numeric:
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
            return array_value(self._array, self._shape, self._dtype)
        if all(isinstance(e.value, CxxValue) and e.value.is_leaf for e in self.elements):
            return self
        row = self._dtype.bbx_row
        assert row is not None
        array = declare_array(c.Type(row.cxx), len(self.elements),
                              tuple(e.expr() for e in self.elements), hint=name)
        array.provisional = False
        return array_value(array, self._shape, self._dtype)

    def reduce(self, op: Any, init_val: Any, reduction_profile: Any = 0) -> Any:
        """Folds `op` (a `cute.ReductionOp`) over the modes `reduction_profile` marks, from
        `init_val` (`tensor_reduce`): a number, or the value of the kept modes."""
        if reduction_profile is None:
            return self
        folded = reduce_elements(self.elements, self._shape, self._dtype, op, init_val,
                                 reduction_profile)
        if isinstance(folded, tuple):
            return from_elements(*folded)
        return folded

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
        return from_elements([op(a, b) for a, b in pairs], shape)

    @staticmethod
    def from_elements(scalars: Sequence[Any], dtype: type[Numeric], *, loc: Any = None,
                      ip: Any = None) -> Any:
        """`cute.TensorSSA.from_elements(scalars, dtype)`: the 1-D `cutlass.Vector` of them (the
        DSL's TensorSSA inherits Vector's builder, which makes a Vector)."""
        from .vector import Vector  # (vector builds on this module)

        return Vector.from_elements(scalars, dtype)

    def apply_op(self, op: Callable[[Any, Any], Any], other: Any, flip: bool = False, *,
                 loc: Any = None, ip: Any = None) -> TensorSSA:
        """`op(self, other)` element by element (`op(other, self)` with `flip`), as `self +
        other` is for `operator.add`: `other` a TensorSSA that broadcasts, or a number."""
        if not isinstance(flip, bool):
            raise trace_error("bad-arguments", f"TensorSSA.apply_op(..., flip={flip!r})",
                              "flip is True or False")
        result = self._binary(other, op, flip)
        if result is NotImplemented:
            raise trace_error("bad-arguments",
                              f"TensorSSA.apply_op with a {type(other).__name__} operand",
                              "the other operand is a TensorSSA or a number")
        assert isinstance(result, TensorSSA)
        return result

    def __neg__(self) -> TensorSSA:
        return from_elements([-e for e in self.elements], self._shape)

    def __abs__(self) -> TensorSSA:
        return from_elements([abs(e) for e in self.elements], self._shape)

    def __invert__(self) -> TensorSSA:
        return from_elements([~e for e in self.elements], self._shape)  # type: ignore[operator]

    def __bool__(self) -> bool:
        raise trace_error("tensor-ssa-bool", "a TensorSSA is used as a Python bool",
                          "reduce it first, or select element-wise with `cute.where`")

    def to(self, dtype: type[Numeric]) -> TensorSSA:
        """Every element converted to `dtype`."""
        if not (isinstance(dtype, type) and issubclass(dtype, Numeric) and dtype.bbx_row):
            raise trace_error("tensor-ssa-to", f"TensorSSA.to({dtype!r})",
                              "the target is a DSL numeric type such as cutlass.Float16")
        return TensorSSA([dtype(e) for e in self.elements], self._shape, dtype)

def array_value(array: RegisterArray, shape: Any, dtype: type[Numeric]) -> TensorSSA:
    """The value whose elements are those of `array` (declared once, read with constants)."""
    base = c.Id(array.name)
    elements = [dtype.run_time(c.Index(base, c.Lit(str(i)), readonly=True))
                for i in range(array.size)]
    return TensorSSA(elements, shape, dtype, array)


def from_elements(elements: list[Any], shape: Any) -> TensorSSA:
    """The value of computed elements (its type is theirs)."""
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
