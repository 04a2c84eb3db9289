"""`cutlass.Vector` (`base_dsl.typing.Vector`) at trace time: a few scalars of one numeric type
with a static row-major shape, as the DSL's MLIR n-D vectors — what `Pointer.load(count=N)` and
`masked_load` return, `Vector.from_elements` builds and `Pointer.store` writes.

A vector is its elements (run-time DSL numbers, row-major); Python unrolls every operation:
element-wise arithmetic and comparisons with numpy's broadcasting (a scalar, or a vector whose
shape broadcasts), `v[i, j]` and slices `v[:, 1:3]`, `reduce("add" | "mul" | "max" | "min")`,
`cutlass.full`, `cutlass.vector.broadcast_to` and `outerproduct`; `with_signedness(False)`
makes its integer operations unsigned. `bitcast` declares the array of the new element type
and copies the bits (`Vector.from_elements((a, b), Float32).bitcast(Int64)` packs two
float32 into one int64, as QuACK's online-softmax reduction does; `bbx::bit_cast_array`,
numeric/bit_cast_array.hpp)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

from ..cxx import ast as c
from .context import require
from .elementwise import ElementwiseOperators
from .errors import trace_error
from .placement import takes_placement
from .register_array import declare_array
from .scalar import NUMERIC_TYPES, Numeric, as_numeric
from .tensor_reduce import ReductionOp, fold

Shape = tuple[int, ...]


@takes_placement
class Vector(ElementwiseOperators):
    """Scalars of one numeric type in a row-major `shape`, as the DSL's `Vector`."""

    __module__ = "cutlass.base_dsl.typing"

    def __init__(self, elements: Sequence[Numeric], dtype: type[Numeric],
                 shape: Shape | None = None, *, signed: bool = True) -> None:
        self.elements, self.dtype = tuple(elements), dtype
        #: False: integer operations on the vector are unsigned (`with_signedness(False)`); its
        #: elements keep their type, as in the DSL
        self.signed = signed
        self.shape: Shape = shape if shape is not None else (len(self.elements),)
        if math.prod(self.shape) != len(self.elements):
            raise ValueError(f"{len(self.elements)} elements for the shape {self.shape}")

    @property
    def element_type(self) -> type[Numeric]:
        return self.dtype

    @classmethod
    def from_elements(cls, elements: Sequence[Any], dtype: type[Numeric]) -> Vector:
        """The vector of `elements`, each converted to `dtype`."""
        if not (isinstance(dtype, type) and issubclass(dtype, Numeric)):
            raise trace_error("vector-dtype", f"Vector.from_elements(..., {dtype!r})",
                              "give the element type (cutlass.Float32, ...)")
        return cls([dtype(as_numeric(e)) for e in elements], dtype)

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"Vector<{'x'.join(map(str, self.shape))}x{self.dtype.__name__}>"

    def to_elements(self) -> list[Numeric]:
        return list(self.elements)

    def with_signedness(self, signed: Any) -> Vector:
        """The same elements, whose integer operations (`>>`, `//`, `%`, comparisons...) are
        signed or not; the element type stays (`to_elements()` gives it), as in the DSL."""
        if not isinstance(signed, bool):
            raise trace_error("bad-arguments", f"Vector.with_signedness({signed!r})",
                              "signed is True or False")
        return Vector(self.elements, self.dtype, self.shape, signed=signed)

    def bitcast(self, dtype: type[Numeric]) -> Vector:
        """The same bits as a vector of `dtype` (the total width must be a multiple of it)."""
        bits = len(self.elements) * self.dtype.width
        if bits % dtype.width:
            raise trace_error("vector-bitcast", f"a bitcast of {len(self.elements)} x "
                              f"{self.dtype.__name__} to {dtype.__name__}",
                              f"{bits} bits are not a whole number of {dtype.__name__}")
        ctx = require("Vector.bitcast")
        count = bits // dtype.width
        source = declare_array(_cxx_type(self.dtype), len(self.elements),
                               tuple(e.expr() for e in self.elements), hint="vec")
        target = declare_array(_cxx_type(dtype), count, hint="bits")
        ctx.emit(c.ExprStmt(c.Call(c.Id("bbx::bit_cast_array"), (target.expr, source.expr))))
        target.provisional = False
        bits_of = [c.Index(target.expr, c.Lit(str(i)), readonly=True) for i in range(count)]
        return Vector([dtype.run_time(e) for e in bits_of], dtype)

    def to(self, dtype: type[Numeric]) -> Vector:
        return Vector([dtype(e) for e in self.elements], dtype, self.shape)

    # -- indexing -------------------------------------------------------------------------------

    def __getitem__(self, index: Any) -> Any:
        """As the DSL's (4.8.1) `Vector.__getitem__`: `v[i]` of a 1-D vector and `v[i, j]` (one
        static index per dimension) are an element; `v[a:b:s]` of a 1-D vector is the
        sub-vector; an index with a slice in it (`v[0, 1:3]`) has one entry per dimension, an
        integer keeping its dimension with extent 1, and steps of 1."""
        if isinstance(index, slice):
            if len(self.shape) != 1:
                raise trace_error("vector-index", f"vector[{_spelled(index)}] of shape "
                                  f"{self.shape}", "index each dimension of a multi-dimensional "
                                  "vector, e.g. v[a:b, :]")
            picked = range(self.shape[0])[index]
            return Vector([self.elements[i] for i in picked], self.dtype, (len(picked),))
        keys = index if isinstance(index, tuple) else (index,)
        if len(keys) != len(self.shape):
            raise trace_error("vector-index", f"a {len(keys)}-index subscript of a vector of "
                              f"shape {self.shape}", f"give {len(self.shape)} indices, one per "
                              "dimension (an integer keeps its dimension when a slice is among "
                              "them)")
        sliced = any(isinstance(k, slice) for k in keys)
        ranges: list[range] = []
        for dim, (key, extent) in enumerate(zip(keys, self.shape, strict=True)):
            if isinstance(key, slice):
                r = range(extent)[key]
                if r.step != 1 and len(r) > 1:
                    raise trace_error("vector-index", f"vector[{_spelled(index)}]: a strided "
                                      "slice of a multi-dimensional vector",
                                      "the DSL slices several dimensions with steps of 1")
                ranges.append(r)
            elif isinstance(key, int) and not isinstance(key, bool) and -extent <= key < extent:
                ranges.append(range(key % extent, key % extent + 1))
            else:
                raise trace_error("vector-index", f"vector[{_spelled(index)}] of shape "
                                  f"{self.shape}: index {dim} is {key!r}",
                                  "a vector is indexed with static integers in range and "
                                  "slices")
        picked_elements = [self.elements[_row_major(crd, self.shape)]
                           for crd in itertools.product(*ranges)]
        if not sliced:
            return picked_elements[0]
        return Vector(picked_elements, self.dtype, tuple(len(r) for r in ranges))

    # -- staging --------------------------------------------------------------------------------

    def bbx_flatten(self) -> tuple[Any, list[Numeric]]:
        """Its elements (run-time control flow carries each in a C++ variable)."""
        return (self.shape, self.dtype), list(self.elements)

    @classmethod
    def bbx_unflatten(cls, key: Any, elements: list[Any]) -> Vector:
        shape, dtype = key
        return cls(elements, dtype, shape)

    # -- arithmetic -----------------------------------------------------------------------------

    def _binary(self, other: Any, op: Callable[[Any, Any], Any], flip: bool = False) -> Any:
        if isinstance(other, Vector):
            shape = broadcast_shape(self.shape, other.shape)
            lhs, rhs = _spread(self, shape), _spread(other, shape)
        elif isinstance(other, (Numeric, bool, int, float)):
            shape, lhs, rhs = self.shape, self.elements, (as_numeric(other),) * len(self.elements)
        else:
            return NotImplemented
        unsigned = _unsigned_of(self.dtype) if not self.signed else None
        if unsigned is not None:  # the operation on the same bits as unsigned integers
            lhs = tuple(unsigned(e) for e in lhs)
            rhs = tuple(unsigned(e) if isinstance(e, Numeric) and e.is_integer else e
                        for e in rhs)
        pairs = zip(rhs, lhs, strict=True) if flip else zip(lhs, rhs, strict=True)
        results = [op(a, b) for a, b in pairs]
        if unsigned is not None:
            results = [self.dtype(r) if type(r) is unsigned else r for r in results]
        return _of(results, shape)


    def __neg__(self) -> Vector:
        return _of([-e for e in self.elements], self.shape)

    def __bool__(self) -> bool:
        raise trace_error("vector-bool", "a Vector is used as a Python bool",
                          "reduce it first (v.reduce(...)) or compare element by element")

    def reduce(self, op: Any = "add", *, dim: Any = None, acc: Any = None) -> Numeric:
        """`op` ("add", "mul", "max", "min") folded over every element, in order, from `acc`
        when given."""
        if isinstance(op, str) and op in {o.value for o in ReductionOp}:
            which = ReductionOp(op)
        elif isinstance(op, ReductionOp):
            which = op
        else:
            raise trace_error("vector-reduce", f"Vector.reduce({op!r})",
                              "op is one of 'add', 'mul', 'max', 'min'")
        if dim is not None:
            raise trace_error("vector-reduce", "Vector.reduce(dim=...)",
                              "a reduction over some dimensions only is not traced yet; "
                              "reduce the whole vector")
        init = None if acc is None else self.dtype(as_numeric(acc))
        return fold(which, list(self.elements), init)


def _cxx_type(dtype: type[Numeric]) -> c.Type:
    assert dtype.bbx_row is not None
    return c.Type(dtype.bbx_row.cxx)


def _unsigned_of(dtype: type[Numeric]) -> type[Numeric] | None:
    """The unsigned integer type of `dtype`'s width (None: `dtype` is no signed integer)."""
    if not dtype.is_integer or not dtype.signed:
        return None
    return next((t for t in NUMERIC_TYPES if t.is_integer and not t.signed
                 and t.width == dtype.width and t.bbx_row is not None), None)


def _of(elements: list[Numeric], shape: Shape) -> Vector:
    return Vector(elements, type(elements[0]), shape)


def _spelled(index: Any) -> str:
    """A subscript as written (`1:3, 0`)."""
    keys = index if isinstance(index, tuple) else (index,)

    def one(k: Any) -> str:
        if not isinstance(k, slice):
            return repr(k)
        step = f":{k.step}" if k.step is not None else ""
        return f"{'' if k.start is None else k.start}:{'' if k.stop is None else k.stop}{step}"

    return ", ".join(one(k) for k in keys)


def _row_major(crd: Sequence[int], shape: Shape) -> int:
    index = 0
    for i, n in zip(crd, shape, strict=True):
        index = index * n + i
    return index


def broadcast_shape(a: Shape, b: Shape) -> Shape:
    """numpy's rule: shapes aligned at the right, each extent equal or 1."""
    rank = max(len(a), len(b))
    pa, pb = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    out = []
    for x, y in zip(pa, pb, strict=True):
        if x != y and 1 not in (x, y):
            raise trace_error("vector-shape", f"vectors of shapes {a} and {b} do not broadcast",
                              "aligned at the right, each extent must be the same, or 1")
        out.append(max(x, y))
    return tuple(out)


def _spread(v: Vector, shape: Shape) -> tuple[Numeric, ...]:
    """`v`'s elements repeated to `shape` (which v's shape broadcasts to)."""
    padded = (1,) * (len(shape) - len(v.shape)) + v.shape
    return tuple(v.elements[_row_major([0 if n == 1 else i for i, n in zip(crd, padded,
                                                                         strict=True)], padded)]
                 for crd in itertools.product(*(range(n) for n in shape)))


def broadcast_to(value: Any, shape: Any) -> Vector:
    """`cutlass.vector.broadcast_to(v, shape)`: a vector (or a scalar) repeated to `shape`."""
    target = (shape,) if isinstance(shape, int) else tuple(shape)
    if not all(isinstance(n, int) and n > 0 for n in target):
        raise trace_error("vector-shape", f"broadcast_to(..., {shape!r})",
                          "the shape is a tuple of static positive integers")
    if not isinstance(value, Vector):
        scalar = as_numeric(value)
        return Vector([scalar] * math.prod(target), type(scalar), target)
    if broadcast_shape(value.shape, target) != target:
        raise trace_error("vector-shape", f"a vector of shape {value.shape} broadcast to "
                          f"{target}", "aligned at the right, each extent must be the same, or 1")
    return Vector(_spread(value, target), value.dtype, target)


def full(shape: Any, fill_value: Any, dtype: Any = None, *, loc: Any = None,
         ip: Any = None) -> Vector:
    """`cutlass.full(shape, fill_value, dtype=None)`: a vector of `shape` whose every element is
    `fill_value` (of `dtype`, else the value's own type: a Python float is a Float32, an int an
    Int32)."""
    target = (shape,) if isinstance(shape, int) else tuple(shape)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in target):
        raise trace_error("vector-shape", f"cutlass.full({shape!r}, ...)",
                          "the shape is a static positive integer or a tuple of them")
    if dtype is not None and not (isinstance(dtype, type) and issubclass(dtype, Numeric)):
        raise trace_error("vector-dtype", f"cutlass.full(..., dtype={dtype!r})",
                          "give the element type (cutlass.Float32, ...)")
    if not isinstance(fill_value, (Numeric, bool, int, float)):
        raise trace_error("vector-dtype", f"cutlass.full of a {type(fill_value).__name__}",
                          "the fill value is a number")
    value = as_numeric(fill_value)
    element = dtype(value) if dtype is not None else value
    return Vector([element] * math.prod(target), type(element), target)


def outerproduct(a: Any, b: Any, acc: Any = None) -> Vector:
    """`cutlass.vector.outerproduct(a, b, acc=None)`: `m[i, j] = a[i] * b[j] (+ acc[i, j])` of
    two 1-D vectors of one element type; with `acc`, a float product and sum are fused (MLIR
    lowers it to `vector.fma`: C++ `math::fma`)."""
    if not (isinstance(a, Vector) and isinstance(b, Vector) and len(a.shape) == 1
            and len(b.shape) == 1):
        raise trace_error("vector-shape", "outerproduct of operands that are not 1-D vectors",
                          "give two 1-D cutlass.Vector values")
    shape = (a.shape[0], b.shape[0])
    if acc is not None and (not isinstance(acc, Vector) or acc.shape != shape):
        raise trace_error("vector-shape", "outerproduct(..., acc=...) of another shape",
                          f"acc is a vector of shape {shape}")
    if a.dtype is not b.dtype or (acc is not None and acc.dtype is not a.dtype):
        raise trace_error("vector-dtype", "outerproduct of vectors of different element types",
                          "a, b (and acc) have one element type")
    if acc is None:
        return _of([x * y for x in a.elements for y in b.elements], shape)
    pairs = zip([x for x in a.elements for _ in b.elements],
                [y for _ in a.elements for y in b.elements], acc.elements, strict=True)
    if not a.dtype.is_float:
        return _of([x * y + z for x, y, z in pairs], shape)
    return _of([a.dtype.run_time(c.Call(c.Id("math::fma"), (x.expr(), y.expr(), z.expr())))
                for x, y, z in pairs], shape)
