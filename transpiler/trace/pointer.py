"""Typed pointers at trace time (the DSL's `Pointer`, a tensor's iterator) and the memory
operations on them.

A `Pointer` is the C++ expression of a base address (a pointer parameter, a register array),
its element type (a `Numeric` class), its address space (`gmem`, `smem`, `rmem`) and an element
offset kept in Python (an int, or a `RunTimeInt`): `ptr + n` adds to the offset, so static
offsets fold into the constants of the accesses. A read is the run-time value `base[offset]`; it
is declared where it happens (`float ld = x[4];`, so it reads what is there before later writes),
and takes the name of the Python variable it is bound to (`v = x[4]` gives `float v = x[4];`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ..cxx import ast as c
from .context import require
from .dynamic_int import add
from .errors import trace_error
from .placement import takes_placement
from .register_array import RegisterArray
from .run_time_int import RunTimeInt, divisor_of, leaf_in
from .scalar import CxxValue, Numeric, as_numeric

MEMSPACES = ("gmem", "smem", "rmem")


@takes_placement
@dataclass(frozen=True, eq=False)
class Pointer:
    """`base + offset` elements of `dtype` in `memspace`. `align`: the bytes the base address is
    known to be a multiple of (0: the element's natural alignment); `typed`: the base is a bbx
    pointer (`bbx::mem_ptr`, whose type carries that alignment: a tensor argument's `.data()`, a
    kernel's pointer parameter) rather than a raw C++ pointer or array."""

    base: c.Expr | RegisterArray  # a pointer expression, or a register array
    dtype: type[Numeric]
    memspace: str
    offset: Any = 0  # an int or a RunTimeInt (elements)
    align: int = 0
    typed: bool = False

    @property
    def value_type(self) -> type[Numeric]:
        return self.dtype

    @property
    def base_alignment(self) -> int:
        """The bytes the base address is a multiple of."""
        return max(self.align, natural_alignment(self.dtype))

    @property
    def alignment(self) -> int:
        """The bytes `base + offset` is known to be a multiple of (as the header computes it
        for `mem_ptr + offset`: bbx/tensor/pointer.hpp, detail::offset_align)."""
        return offset_alignment(self.base_alignment, divisor_of(self.offset), self.dtype)

    def __add__(self, n: Any) -> Pointer:
        try:
            return replace(self, offset=add(self.offset, leaf_in(n)))
        except TypeError:
            return NotImplemented

    __radd__ = __add__

    def __repr__(self) -> str:
        """As the DSL prints a pointer: `ptr<f16, gmem, align<8>>` (the alignment when it is
        more than the element's)."""
        align = self.alignment
        shown = f", align<{align}>" if align > natural_alignment(self.dtype) else ""
        return f"ptr<{self.dtype.bbx_row.mlir}, {self.memspace}{shown}>"

    # -- memory ---------------------------------------------------------------------------------

    def base_expr(self) -> c.Expr:
        return self.base.expr if isinstance(self.base, RegisterArray) else self.base

    def element_expr(self, offset: Any) -> c.Index:
        """`base[offset]` as C++ (reading it is a memory read)."""
        return c.Index(self.base_expr(), index_expr(add(self.offset, offset)))

    def read(self, offset: Any = 0) -> Numeric:
        """The element at `offset` (a run-time value of the element type)."""
        value = self.dtype.run_time(self.element_expr(offset)).value
        assert isinstance(value, CxxValue)
        value.materialize("ld")
        value.provisional = True
        return self.dtype(value)

    def load(self) -> Numeric:
        """`ptr.load()`: the element it points at."""
        return self.read(0)

    def store(self, value: Any) -> None:
        """`ptr.store(v)`: writes the element it points at."""
        self.write(0, value)

    def write(self, offset: Any, value: Any) -> None:
        """`base[offset] = value` (converted to the element type as the DSL's store does for
        Python numbers; a DSL number of another type is an error)."""
        ctx = require("a memory write")
        stored = store_value(value, self.dtype)
        expr = stored.expr()
        ctx.emit(c.Assign(self.element_expr(offset), "=", expr))


def natural_alignment(dtype: type[Numeric]) -> int:
    """alignof the C++ element type."""
    return max(dtype.width // 8, 1)


def offset_alignment(align: int, divisor: int, dtype: type[Numeric]) -> int:
    """The alignment of `p + k` for `p` aligned to `align` bytes and `k` a multiple of `divisor`
    elements (0: k is 0), never below the element's own."""
    if divisor == 0:
        return align
    return max(math.gcd(align, divisor * natural_alignment(dtype)), natural_alignment(dtype))


def index_expr(offset: Any) -> c.Expr:
    """An element offset in C++: a constant, or the run-time expression."""
    if isinstance(offset, RunTimeInt):
        return offset.cxx_expr()
    return c.Lit(str(int(offset)))


def store_value(value: Any, dtype: type[Numeric]) -> Numeric:
    """`value` as an element of `dtype`, as the DSL's stores convert (`_cvt_to_dest`): a Python
    number is first a DSL number (`int` -> Int32, `float` -> Float32), a number of the same kind
    (float or integer) and at most the width of `dtype` widens implicitly; anything else must
    already be a `dtype`."""
    if isinstance(value, (bool, int, float)):
        value = as_numeric(value)
    if not isinstance(value, Numeric):
        raise trace_error("store-value", f"a {type(value).__name__} is stored into a tensor "
                          f"element", f"an element is a {dtype.__name__}")
    src = type(value)
    if src is not dtype and src.is_float == dtype.is_float and dtype.width >= src.width:
        value = dtype(value)
    if type(value) is not dtype:
        raise trace_error("store-dtype",
                          f"a {src.__name__} value is stored into a tensor of "
                          f"{dtype.__name__}",
                          f"convert it first: `.to({dtype.__name__})` (stores only widen "
                          f"within a kind, as the DSL's)")
    return value


def recast_ptr(ptr: Any, swizzle_: Any = None, dtype: Any = None) -> Pointer:
    """`cute.recast_ptr(ptr, dtype=T)`: the same address as a pointer to `T`, in the same
    memory (C++: `recast_raw<T>(base + offset)`, bbx/tensor/recast.hpp)."""
    if not isinstance(ptr, Pointer) or isinstance(ptr.base, RegisterArray):
        raise trace_error("recast-ptr", f"cute.recast_ptr of a {type(ptr).__name__}",
                          "recast a pointer to global or shared memory (a tensor's .iterator)")
    if swizzle_ is not None:
        raise trace_error("recast-ptr", "cute.recast_ptr(..., swizzle_=...)",
                          "swizzled pointers are not traced yet")
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric)) or dtype.bbx_row is None:
        raise trace_error("recast-ptr", f"cute.recast_ptr(..., dtype={dtype!r})",
                          "give the element type (cutlass.Float32, ...)")
    address = c.Binary("+", ptr.base_expr(), index_expr(ptr.offset))
    return Pointer(c.Call(c.Id("recast_raw"), (address,), (c.Type(dtype.bbx_row.cxx),)),
                   dtype, ptr.memspace)
