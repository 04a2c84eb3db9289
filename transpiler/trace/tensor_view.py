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
from ..cxx.literals import static_int
from .dynamic_int import is_static_int
from .layout_cxx import cxx_value
from .pointer import Pointer
from .run_time_int import RunTimeInt
from .tensor import Tensor

#: the header's maker of a pointer in each address space (bbx/tensor/pointer.hpp)
_MAKERS = {"gmem": "make_gmem_ptr", "smem": "make_smem_ptr", "rmem": "make_rmem_ptr"}


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


def pointer_view(p: Pointer) -> c.Expr:
    """`base + offset` as a bbx pointer whose type carries the alignment the trace knows."""
    base = _typed_base(p)
    offset = p.offset
    if is_static_int(offset):
        return base if offset == 0 else c.Binary("+", base, static_int(int(offset)))
    assert isinstance(offset, RunTimeInt)
    # `p + k` of a run-time k keeps only the element's alignment; this keeps what k's divisor
    # proves (`template`: the pointer's type is a template parameter of the kernel)
    return c.Call(c.Member(base, "template add_with_divisibility"), (offset.cxx_expr(),),
                  (c.Lit(str(offset.divisor)),))


def _typed_base(p: Pointer) -> c.Expr:
    if p.typed:
        return p.base_expr()
    maker = _MAKERS[p.memspace]
    alignment = () if p.memspace == "rmem" else (c.Lit(str(p.base_alignment)),)
    return c.Call(c.Id(maker), (p.base_expr(),), alignment)
