"""Pointers made from integer addresses at trace time, the inverse of `ptr.toint()`:

    p = cute.make_ptr(cutlass.Float32, addr, cute.AddressSpace.gmem, assumed_align=4)
    q = cutlass.inttoptr(addr, cutlass.AddressSpace.gmem, cutlass.Float32)

C++: `make_ptr<T, mem_space::gmem, A>(addr)` (bbx/tensor/recast.hpp), a bbx pointer whose type
carries the alignment. Generic and constant memory are global memory to bbx (as in the
translator); tensor memory and distributed shared memory are NVIDIA-only."""

from __future__ import annotations

from typing import Any

from ..cxx import ast as c
from .address_space import AddressSpace
from .errors import trace_error
from .pointer import Pointer
from .scalar import Boolean, Integer, Numeric, as_numeric

#: the DSL's address space -> the memory bbx addresses it as
_MEMORY = {AddressSpace.generic: "gmem", AddressSpace.gmem: "gmem", AddressSpace.cmem: "gmem",
           AddressSpace.smem: "smem"}


def make_ptr(dtype: Any, value: Any, mem_space: Any = None, *, assumed_align: Any = None,
             swizzle_: Any = None, loc: Any = None, ip: Any = None) -> Pointer:
    """`cute.make_ptr(dtype, value, mem_space=generic, assumed_align=None)`: a pointer to
    `dtype` at the integer address `value`, `assumed_align` bytes aligned (default: the
    element's size)."""
    del loc, ip
    what = "cute.make_ptr"
    if swizzle_ is not None:
        raise trace_error("not-traced", f"{what}(..., swizzle_=...) (a swizzled pointer)",
                          "swizzle the layout instead: "
                          "cute.make_composed_layout(swizzle, 0, layout)")
    return _pointer(what, dtype, value, mem_space, assumed_align)


def inttoptr(value: Any, mem_space: Any, dtype: Any, *, loc: Any = None,
             ip: Any = None) -> Pointer:
    """`cutlass.inttoptr(value, mem_space, dtype)`: make_ptr in this argument order."""
    del loc, ip
    return _pointer("cutlass.inttoptr", dtype, value, mem_space, None)


def _pointer(what: str, dtype: Any, value: Any, mem_space: Any, assumed_align: Any) -> Pointer:
    if not (isinstance(dtype, type) and issubclass(dtype, Numeric)) or dtype.bbx_row is None:
        raise trace_error("bad-arguments", f"{what}: dtype {dtype!r}",
                          "expects dtype to be a type of Numeric (cutlass.Float32, ...)")
    memory = _memory(what, mem_space)
    address = _address(what, value)
    element_bytes = max(1, dtype.width // 8)
    align = element_bytes if assumed_align is None else _alignment(what, assumed_align)
    if element_bytes % align and align % element_bytes:
        raise trace_error("bad-arguments", f"{what}(..., assumed_align={align}) of "
                          f"{dtype.__name__}", f"the element's {element_bytes} bytes and the "
                          "alignment must be multiples of one another")
    call = c.Call(c.Id("make_ptr"), (address,),
                  (c.Type(dtype.bbx_row.cxx), c.Type(f"mem_space::{memory}"),
                   c.Lit(str(align))))
    return Pointer(call, dtype, memory, assumed_align=align, typed=True)


def _memory(what: str, mem_space: Any) -> str:
    space = AddressSpace.generic if mem_space is None else mem_space
    if isinstance(space, Numeric) and space.is_static:
        space = space.value
    if isinstance(space, int) and not isinstance(space, bool) and \
            space in AddressSpace._value2member_map_:
        space = AddressSpace(space)
        if space in _MEMORY:
            return _MEMORY[space]
        if space in (AddressSpace.tmem, AddressSpace.dsmem):
            raise trace_error("nvidia-only", f"{what} in AddressSpace.{space.name}",
                              "tensor memory and distributed shared memory are NVIDIA "
                              "(sm_90/sm_100) features with no AMD counterpart")
        raise trace_error("not-traced", f"{what} in AddressSpace.{space.name}",
                          "a register has no address: make pointers to global or shared memory")
    raise trace_error("bad-arguments", f"{what}: mem_space {mem_space!r}",
                      "a cute.AddressSpace member (cute.AddressSpace.gmem, ...)")


def _address(what: str, value: Any) -> c.Expr:
    if isinstance(value, (bool, Boolean)) or not isinstance(value, (int, Integer)):
        raise trace_error("bad-arguments", f"{what} of a {type(value).__name__} address",
                          "expects an integer address (ptr.toint())")
    return as_numeric(value).expr()


def _alignment(what: str, value: Any) -> int:
    if isinstance(value, Numeric) and value.is_static:
        value = value.value
    if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
            and not value & (value - 1):
        return value
    raise trace_error("bad-arguments", f"{what}(..., assumed_align={value!r})",
                      "a power of two known when the kernel is compiled")
