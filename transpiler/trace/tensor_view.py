"""C++ views of traced tensors, for the header library's algorithms (`bbx/algorithm/copy.hpp`).

A traced tensor in memory is a `Pointer` (base, element offset, alignment) and a Python layout.
Its view is the header's tensor over the same memory:

    make_tensor(mX.template add_with_divisibility<8>(tTgT_offset),
                make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, Int<1024>{})))

with the static layout as C++ types and run-time leaves as values, and a pointer whose type
carries what is known of its alignment: a tensor argument's from the call (`assumed_align`), a
shared-memory allocation's from `SmemAllocator`, a run-time offset's from the divisor its
arithmetic proves (`RunTimeInt.divisor`). The header's copy then moves each chunk it can prove
contiguous and aligned as one wide access, as it does for translated kernels.
"""

from __future__ import annotations

from ..cxx import ast as c
from . import int_tuple as it
from .context import require
from .layout_cxx import cxx_value
from .pointer import Pointer, pointer_view
from .scalar import Numeric
from .tensor import Tensor


def has_view(t: object) -> bool:
    """Whether `t` is a tensor in memory (not an identity tensor) of a C++ element type (every
    numeric type but the sub-byte ones; `Boolean` is a C++ `bool`)."""
    if not isinstance(t, Tensor) or not isinstance(t.iterator, Pointer):
        return False
    row = t.iterator.dtype.bbx_row
    return row is not None and (row.width % 8 == 0 or row.kind == "bool")


def tensor_view(t: Tensor) -> c.Expr:
    """`make_tensor(pointer, layout)` of a tensor in memory (see `has_view`)."""
    assert isinstance(t.iterator, Pointer)
    return c.Call(c.Id("make_tensor"), (pointer_view(t.iterator), cxx_value(t.trace_layout)))


def fill_view(t: Tensor, element: Numeric) -> bool:
    """`t.fill(x)` of a tensor in global or shared memory of static shape as the header's
    `fill(view, x)`, which writes as wide as its layout and alignment allow (a swizzled stage
    16 bytes at a time, bbx/algorithm/copy.hpp); False (nothing emitted) for other tensors."""
    if not has_view(t) or not it.is_static(t.trace_layout.shape):
        return False
    assert isinstance(t.iterator, Pointer)
    if t.iterator.memspace not in ("gmem", "smem") or element.bbx_row is None:
        return False
    require("Tensor.fill").emit(c.ExprStmt(c.Call(c.Id("fill"), (tensor_view(t), element.expr()))))
    return True
