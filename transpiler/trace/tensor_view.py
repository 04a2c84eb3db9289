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
from .tensor import Tensor


def has_view(t: object) -> bool:
    """Whether `t` is a tensor in memory (not an identity tensor) of a C++ element type (every
    numeric type but the sub-byte ones; `Boolean` is a C++ `bool`)."""
    return isinstance(t, Tensor) and t.has_view()


def tensor_view(t: Tensor) -> c.Expr:
    """`make_tensor(pointer, layout)` of a tensor in memory (see `has_view`)."""
    return t.view_expr()
