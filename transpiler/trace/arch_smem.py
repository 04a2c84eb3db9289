"""`cute.arch`'s shared memory at trace time:

    p = cute.arch.alloc_smem(cutlass.Float32, 64, alignment=16)   # a static shared array
    d = cute.arch.get_dyn_smem(cutlass.Float32)                   # the dynamic allocation's base

`alloc_smem` is a static shared array of its own per call (`arch::alloc_smem<site>(...)`,
bbx/tensor/smem_allocator.hpp), numbered in the kernel's one sequence of static shared arrays,
which `cutlass.Array(..., space=smem)` takes from too, so no two share storage; it is apart from
the dynamic shared memory that `SmemAllocator` hands out and the launch sizes, as in the DSL.
`get_dyn_smem` is the start of that dynamic shared memory (`launch(smem=...)`), the address
where a kernel's SmemAllocator starts too."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cxx import ast as c
from ..cxx.literals import static_int_type
from .context import require
from .errors import trace_error
from .kernel_scope import current_kernel
from .pointer import Pointer
from .scalar import Numeric
from .smem_struct import SMEM_BASE_ALIGN, smem_pointer


def alloc_smem(element_type: Any, size_in_elems: Any, alignment: Any = None, *,
               loc: Any = None, ip: Any = None) -> Pointer:
    """`cute.arch.alloc_smem(element_type, size_in_elems, alignment=None)`: a pointer to a
    static shared array of `size_in_elems` elements, aligned to `alignment` bytes (default:
    the element's size)."""
    del loc, ip  # the DSL's MLIR insertion-point arguments
    what = "cute.arch.alloc_smem"
    dtype = _element_type(element_type, what)
    count = _positive_int(size_in_elems, f"{what}(..., size_in_elems=...)")
    return static_smem(dtype, count, _alignment(alignment, dtype, what), what)


def get_dyn_smem(element_type: Any, alignment: Any = None, *, loc: Any = None,
                 ip: Any = None) -> Pointer:
    """`cute.arch.get_dyn_smem(element_type, alignment=None)`: a pointer to the start of the
    block's dynamic shared memory, which is 16-byte aligned on every target."""
    del loc, ip
    what = "cute.arch.get_dyn_smem"
    current_kernel(what)
    dtype = _element_type(element_type, what)
    align = _alignment(alignment, dtype, what)
    if align > SMEM_BASE_ALIGN:
        raise trace_error("smem-alignment", f"{what}(..., alignment={align})",
                          f"the dynamic shared memory base is only known to be "
                          f"{SMEM_BASE_ALIGN}-byte aligned on AMD GPUs and the simulator")
    return replace(smem_pointer(dtype, 0), assumed_align=align)


def static_smem(dtype: type[Numeric], count: int, alignment: int, what: str) -> Pointer:
    """`auto smem = arch::alloc_smem<site>(type_c<T>{}, Int<count>{}, Int<alignment>{});`, the
    kernel's next static shared array."""
    kernel = current_kernel(what)
    ctx = require(what)
    site = kernel.static_smem_sites
    kernel.static_smem_sites += 1
    row = dtype.bbx_row
    assert row is not None
    call = c.Call(c.Id("arch::alloc_smem"),
                  (c.Construct(c.Type("type_c", (c.Type(row.cxx),))),
                   c.Construct(static_int_type(count)), c.Construct(static_int_type(alignment))),
                  (c.Lit(str(site)),))
    var, _ = ctx.declare(None, "smem_arr", call)
    return Pointer(c.Id(var), dtype, "smem", assumed_align=alignment, typed=True)


def _element_type(element_type: Any, what: str) -> type[Numeric]:
    if (isinstance(element_type, type) and issubclass(element_type, Numeric)
            and element_type.bbx_row is not None):
        return element_type
    raise trace_error("bad-arguments", f"{what}({element_type!r}, ...)",
                      "element_type must be a type of Numeric (cutlass.Float32, t.element_type)")


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, Numeric) and value.is_static:
        value = value.value
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise trace_error("bad-arguments", f"{what}: {value!r}",
                      "a positive integer known when the kernel is compiled")


def _alignment(value: Any, dtype: type[Numeric], what: str) -> int:
    """The bytes the pointer is aligned to: `alignment`, at least the element's size (the
    DSL's default)."""
    if value is None:
        return dtype.bytes
    align = _positive_int(value, f"{what}(..., alignment=...)")
    if align & (align - 1):
        raise trace_error("bad-arguments", f"{what}(..., alignment={align})",
                          "the alignment is a power of two")
    return max(align, dtype.bytes)
